//! The board as an SVG picture, coloured by the map of verdicts.

use std::fmt::Write;

use super::{Cell, CopThief, Verdict};
use crate::Lookup;

// The Okabe–Ito palette: told apart with every common colour-blindness.
const CATCH: &str = "#D55E00";
const ESCAPE: &str = "#009E73";
const DRAW: &str = "#E69F00";
const WALL: &str = "#333333";
const COP: &str = "#0072B2";
const THIEF: &str = "#000000";

/// Draws `game` coloured by its map (runs of equal cells in a row are one
/// rectangle), with a title that gives the verdict and who moves, and a
/// legend of what is drawn. With `shade`, a cell is paler the longer best
/// play lasts from it. Time **O(rows × columns)**.
pub(super) fn draw(game: &CopThief, solution: &(impl Lookup + ?Sized), shade: bool) -> String {
    let b = game.board();
    let (rows, cols) = (b.rows(), b.cols());
    // Cells of 4 to 24 pixels, the picture about 800 pixels wide at most.
    let cell = (800 / rows.max(cols)).clamp(4, 24);
    let (w, h) = (cols * cell, rows * cell);
    let width = w.max(640);
    let top = 46;
    let legend = 52;
    let mut s = String::new();
    let verdict = game.verdict(solution);
    let name = escape(&b.path().display().to_string());
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{}" viewBox="0 0 {width} {}" font-family="sans-serif">"#,
        top + h + legend,
        top + h + legend
    );
    let _ = writeln!(
        s,
        "<title>The cop and the thief: {name}, {rows} x {cols}: {verdict}</title>"
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="4" y="18" font-size="15" font-weight="bold">{name}: {verdict} (the cop moves first)</text>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="4" y="36" font-size="12">Each cell: the outcome if the thief starts there, the cop on its start cell and to move{}.</text>"#,
        if shade { "; paler: a longer game" } else { "" }
    );
    // Each cell's verdict and, for shading, how long best play lasts.
    let start_cop = b.cop();
    let value = |r, c| {
        let v = game.map_cell(solution, (r, c))?;
        let p = game.position(start_cop, (r, c), super::Side::Cop)?;
        Some((v, solution.remoteness_of(p)))
    };
    let longest = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter_map(|(r, c)| value(r, c).and_then(|(_, rem)| rem))
        .max()
        .unwrap_or(0)
        .max(1);
    let look = |r, c| -> (&'static str, u32) {
        match value(r, c) {
            None => (WALL, 100),
            Some((v, rem)) => {
                let fill = match v {
                    Verdict::PoliceCatches => CATCH,
                    Verdict::ThiefEscapes => ESCAPE,
                    Verdict::Draw => DRAW,
                };
                // From full colour at 0 plies to 35% at the longest.
                let opacity = match rem {
                    Some(r) if shade => 100 - 65 * r / longest,
                    _ => 100,
                };
                (fill, opacity)
            }
        }
    };
    let mut present = [false; 3];
    for r in 0..rows {
        for c in 0..cols {
            match game.map_cell(solution, (r, c)) {
                Some(Verdict::PoliceCatches) => present[0] = true,
                Some(Verdict::ThiefEscapes) => present[1] = true,
                Some(Verdict::Draw) => present[2] = true,
                None => {}
            }
        }
    }
    for r in 0..rows {
        let mut c = 0;
        while c < cols {
            let here = look(r, c);
            let mut end = c + 1;
            while end < cols && look(r, end) == here {
                end += 1;
            }
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{}" width="{}" height="{cell}" fill="{}" fill-opacity="{:.2}"/>"#,
                c * cell,
                top + r * cell,
                (end - c) * cell,
                here.0,
                f64::from(here.1) / 100.0
            );
            c = end;
        }
    }
    let inset = (cell / 6).max(1);
    for r in 0..rows {
        for c in 0..cols {
            if b.cell(r, c) == Cell::Exit {
                let _ = writeln!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="black" stroke-width="{}"/>"#,
                    c * cell + inset,
                    top + r * cell + inset,
                    cell - 2 * inset,
                    cell - 2 * inset,
                    inset
                );
            }
        }
    }
    let marker = |s: &mut String, x: usize, y: usize, size: usize, label: &str, fill: &str| {
        let _ = writeln!(
            s,
            r#"<circle cx="{x}" cy="{y}" r="{}" fill="{fill}" stroke="white"/><text x="{x}" y="{y}" font-size="{}" fill="white" text-anchor="middle" dominant-baseline="central">{label}</text>"#,
            (size * 2 / 5).max(2),
            (size * 3 / 5).max(3)
        );
    };
    for ((r, c), label, fill) in [(b.cop(), "P", COP), (b.thief(), "T", THIEF)] {
        marker(
            &mut s,
            c * cell + cell / 2,
            top + r * cell + cell / 2,
            cell,
            label,
            fill,
        );
    }
    // The legend: what the picture holds.
    let y = top + h + 10;
    let mut x = 4;
    let mut item = |s: &mut String, draw: &dyn Fn(&mut String, usize), text: &str| {
        draw(s, x);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="12">{text}</text>"#,
            x + 20,
            y + 12
        );
        x += 28 + 6 * text.len();
    };
    let square = |fill: &'static str, outline: bool| {
        move |s: &mut String, x: usize| {
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="15" height="15" fill="{fill}" stroke="{}" stroke-width="{}"/>"#,
                if outline { "black" } else { "none" },
                if outline { 2 } else { 0 }
            );
        }
    };
    for (i, (fill, text)) in [
        (CATCH, "police catches"),
        (ESCAPE, "thief escapes"),
        (DRAW, "draw"),
    ]
    .into_iter()
    .enumerate()
    {
        if present[i] {
            item(&mut s, &square(fill, false), text);
        }
    }
    item(&mut s, &square(WALL, false), "wall");
    if (0..rows).any(|r| (0..cols).any(|c| b.cell(r, c) == Cell::Exit)) {
        item(&mut s, &square("white", true), "exit");
    }
    for (label, fill, text) in [("P", COP, "cop (start)"), ("T", THIEF, "thief (start)")] {
        item(
            &mut s,
            &|s: &mut String, x: usize| marker(s, x + 8, y + 8, 18, label, fill),
            text,
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Escapes text for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
