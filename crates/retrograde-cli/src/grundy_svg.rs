//! `retrograde grundy --svg`: a small graph drawn with every vertex's loopy
//! nim value, as SVG.

use retrograde::Graph;
use retrograde::grundy::GrundyValues;
use retrograde::io::names::{self, Names};

/// The largest graph `--svg` draws.
pub const SVG_LIMIT: usize = 100;

/// The graph drawn on a circle, each vertex coloured by its outcome for one
/// token and labelled `vertex: value`; arrows for moves, a loop for a move
/// to itself, two-way moves curved apart, parallel moves drawn once with
/// their count.
pub fn svg(graph: &Graph, values: &GrundyValues, names: Option<&Names>) -> String {
    use std::f64::consts::PI;
    use std::fmt::Write as _;
    let n = values.len();
    let radius = (n as f64 * 16.0).max(110.0);
    let (cx, cy) = (radius + 120.0, radius + 70.0);
    let (w, h) = (2.0 * cx, 2.0 * cy + 30.0);
    let at = |v: u32| {
        let a = 2.0 * PI * f64::from(v) / n.max(1) as f64 - PI / 2.0;
        (cx + radius * a.cos(), cy + radius * a.sin(), a)
    };
    let colour = |v: u32| match values.outcome(v) {
        Some(retrograde::Outcome::Win) => "#009E73",
        Some(retrograde::Outcome::Lose) => "#D55E00",
        _ => "#E69F00",
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"sans-serif\" font-size=\"13\">\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" \
         markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333\"/></marker></defs>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
    );
    let mut moves: std::collections::BTreeMap<(u32, u32), u32> = Default::default();
    for u in 0..n as u32 {
        for &v in graph.successors(u) {
            *moves.entry((u, v)).or_default() += 1;
        }
    }
    for (&(u, v), &count) in &moves {
        let times = if count > 1 {
            format!("<title>{count} moves</title>")
        } else {
            String::new()
        };
        if u == v {
            svg_loop(&mut out, at(u), &times);
        } else {
            let ((x1, y1, _), (x2, y2, _)) = (at(u), at(v));
            // Two-way moves bend apart; one-way moves are straight.
            let two_way = moves.contains_key(&(v, u));
            svg_arrow(&mut out, (x1, y1), (x2, y2), two_way, &times);
        }
    }
    for v in 0..n as u32 {
        let Some(value) = values.value(v) else {
            continue;
        };
        let label = format!("{}: {value}", names::shown(names, v));
        svg_vertex(&mut out, at(v), colour(v), &label);
    }
    let _ = writeln!(
        out,
        "<text x=\"12\" y=\"{:.0}\" fill=\"#000\">vertex: loopy nim value. \
         Green: a win for the player to move, vermillion: a loss, orange: a draw.</text>\n</svg>",
        h - 12.0
    );
    out
}

/// The radius of a vertex's circle in `--svg`'s picture.
const R: f64 = 11.0;

/// A move from a vertex to itself, at `(x1, y1)` and angle `a` on the
/// circle, titled `times`.
fn svg_loop(out: &mut String, (x1, y1, a): (f64, f64, f64), times: &str) {
    use std::fmt::Write as _;
    // A loop inward from the vertex (its label is outside).
    let (dx, dy) = (-a.cos(), -a.sin());
    let (px, py) = (-dy, dx);
    let (sx, sy) = (x1 + R * (dx + 0.5 * px), y1 + R * (dy + 0.5 * py));
    let (ex, ey) = (x1 + R * (dx - 0.5 * px), y1 + R * (dy - 0.5 * py));
    let (c1x, c1y) = (x1 + 3.5 * R * (dx + px), y1 + 3.5 * R * (dy + py));
    let (c2x, c2y) = (x1 + 3.5 * R * (dx - px), y1 + 3.5 * R * (dy - py));
    let _ = writeln!(
        out,
        "<path d=\"M{sx:.1},{sy:.1} C{c1x:.1},{c1y:.1} {c2x:.1},{c2y:.1} {ex:.1},{ey:.1}\" \
         fill=\"none\" stroke=\"#333\" marker-end=\"url(#arrow)\">{times}</path>"
    );
}

/// A move between two vertices: an arrow from circle to circle, bent
/// aside when the move back exists too (`two_way`), titled `times`.
fn svg_arrow(
    out: &mut String,
    (x1, y1): (f64, f64),
    (x2, y2): (f64, f64),
    two_way: bool,
    times: &str,
) {
    use std::fmt::Write as _;
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let bend = if two_way { 0.18 * len } else { 0.0 };
    let (mx, my) = ((x1 + x2) / 2.0 - uy * bend, (y1 + y2) / 2.0 + ux * bend);
    let (sx, sy) = toward(x1, y1, mx, my, R);
    let (ex, ey) = toward(x2, y2, mx, my, R + 1.0);
    let _ = writeln!(
        out,
        "<path d=\"M{sx:.1},{sy:.1} Q{mx:.1},{my:.1} {ex:.1},{ey:.1}\" fill=\"none\" \
         stroke=\"#333\" marker-end=\"url(#arrow)\">{times}</path>"
    );
}

/// A vertex at `(x, y)` and angle `a` on the circle: its circle in
/// `colour`, and `label` outside it.
fn svg_vertex(out: &mut String, (x, y, a): (f64, f64, f64), colour: &str, label: &str) {
    use std::fmt::Write as _;
    let (lx, ly) = (x + (R + 14.0) * a.cos(), y + (R + 14.0) * a.sin() + 4.0);
    let anchor = if a.cos() > 0.3 {
        "start"
    } else if a.cos() < -0.3 {
        "end"
    } else {
        "middle"
    };
    let _ = writeln!(
        out,
        "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{R}\" fill=\"{}\" stroke=\"#000\"/>\
         <text x=\"{lx:.1}\" y=\"{ly:.1}\" text-anchor=\"{anchor}\" fill=\"#000\">{}</text>",
        colour,
        escape(label)
    );
}

/// The point `r` from `(x, y)` toward `(tx, ty)`.
fn toward(x: f64, y: f64, tx: f64, ty: f64, r: f64) -> (f64, f64) {
    let (dx, dy) = (tx - x, ty - y);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    (x + r * dx / len, y + r * dy / len)
}

/// Text made safe inside SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
