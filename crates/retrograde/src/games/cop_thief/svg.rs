//! The board as an SVG picture, coloured by the map of verdicts.

use std::fmt::Write;

use super::{Cell, CopThief, Verdict};
use crate::Answers;

const CATCH: &str = "#d9534f";
const ESCAPE: &str = "#5cb85c";
const DRAW: &str = "#f0ad4e";
const WALL: &str = "#333333";

/// Draws `game` coloured by its map; runs of equal cells in a row are one rectangle.
/// Time **O(rows × columns)**.
pub(super) fn draw(game: &CopThief, solution: &(impl Answers + ?Sized)) -> String {
    let b = game.board();
    let (rows, cols) = (b.rows(), b.cols());
    // Cells of 4 to 24 pixels, the picture about 800 pixels wide at most.
    let cell = (800 / rows.max(cols)).clamp(4, 24);
    let (w, h) = (cols * cell, rows * cell);
    let legend = 28;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}">"#,
        w.max(360),
        h + legend,
        w.max(360),
        h + legend
    );
    let _ = writeln!(
        s,
        "<title>The cop and the thief: {}, {} x {}: {}</title>",
        escape(&b.path().display().to_string()),
        rows,
        cols,
        game.verdict(solution)
    );
    let colour = |r, c| match game.map_cell(solution, (r, c)) {
        None => WALL,
        Some(Verdict::PoliceCatches) => CATCH,
        Some(Verdict::ThiefEscapes) => ESCAPE,
        Some(Verdict::Draw) => DRAW,
    };
    for r in 0..rows {
        let mut c = 0;
        while c < cols {
            let fill = colour(r, c);
            let mut end = c + 1;
            while end < cols && colour(r, end) == fill {
                end += 1;
            }
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{}" width="{}" height="{cell}" fill="{fill}"/>"#,
                c * cell,
                r * cell,
                (end - c) * cell
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
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="white" stroke-width="{}"/>"#,
                    c * cell + inset,
                    r * cell + inset,
                    cell - 2 * inset,
                    cell - 2 * inset,
                    inset
                );
            }
        }
    }
    for ((r, c), label, fill) in [(b.cop(), "P", "#1f4e9c"), (b.thief(), "T", "black")] {
        let (x, y) = (c * cell + cell / 2, r * cell + cell / 2);
        let _ = writeln!(
            s,
            r#"<circle cx="{x}" cy="{y}" r="{}" fill="{fill}"/><text x="{x}" y="{y}" font-size="{}" font-family="sans-serif" fill="white" text-anchor="middle" dominant-baseline="central">{label}</text>"#,
            cell * 2 / 5,
            (cell * 3 / 5).max(3)
        );
    }
    let y = h + 8;
    for (i, (fill, text)) in [
        (CATCH, "police catches"),
        (ESCAPE, "thief escapes"),
        (DRAW, "draw"),
    ]
    .iter()
    .enumerate()
    {
        let x = 4 + i * 120;
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="{y}" width="14" height="14" fill="{fill}"/><text x="{}" y="{}" font-size="12" font-family="sans-serif">{text}</text>"#,
            x + 18,
            y + 12
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
