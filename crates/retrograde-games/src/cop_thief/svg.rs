//! The board as an SVG picture, coloured by the map of verdicts.

use std::fmt::Write;

use super::{Cell, CopThief, Verdict};
use retrograde::Lookup;

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
    let frame = Frame::of(game);
    let mut s = String::new();
    write_header(&mut s, game, solution, &frame, shade);
    let looks = cell_looks(game, solution, shade);
    write_cells(&mut s, &frame, &looks);
    write_exits(&mut s, game, &frame);
    write_start_markers(&mut s, game, &frame);
    write_legend(&mut s, game, &frame, verdicts_present(game, solution));
    s.push_str("</svg>\n");
    s
}

/// The picture's geometry: the board's size, its cells' size in pixels and
/// the bands above (title) and below (legend) it.
struct Frame {
    rows: usize,
    cols: usize,
    /// A cell's side in pixels.
    cell: usize,
    /// The board's height in pixels.
    h: usize,
    /// The picture's width in pixels.
    width: usize,
    /// The title band's height: the board's top edge.
    top: usize,
    /// The legend band's height.
    legend: usize,
}

impl Frame {
    /// The geometry of `game`'s picture: cells of 4 to 24 pixels, the picture
    /// about 800 pixels wide at most.
    fn of(game: &CopThief) -> Frame {
        let b = game.board();
        let (rows, cols) = (b.rows(), b.cols());
        let cell = (800 / rows.max(cols)).clamp(4, 24);
        let (w, h) = (cols * cell, rows * cell);
        Frame {
            rows,
            cols,
            cell,
            h,
            width: w.max(640),
            top: 46,
            legend: 52,
        }
    }

    /// The pixel of cell `(r, c)`'s top left corner.
    fn corner(&self, (r, c): (usize, usize)) -> (usize, usize) {
        (c * self.cell, self.top + r * self.cell)
    }
}

/// Writes the opening `svg` tag, the title, the white background and the two
/// lines of text above the board.
fn write_header(
    s: &mut String,
    game: &CopThief,
    solution: &(impl Lookup + ?Sized),
    f: &Frame,
    shade: bool,
) {
    let (width, rows, cols) = (f.width, f.rows, f.cols);
    let verdict = game.verdict(solution);
    let name = escape(&game.board().path().display().to_string());
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{}" viewBox="0 0 {width} {}" font-family="sans-serif">"#,
        f.top + f.h + f.legend,
        f.top + f.h + f.legend
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
}

/// How each cell is drawn, row by row: its fill and opacity in percent (a
/// wall in full; with `shade`, from full colour at 0 plies to 35% at the
/// longest best play).
fn cell_looks(
    game: &CopThief,
    solution: &(impl Lookup + ?Sized),
    shade: bool,
) -> Vec<Vec<(&'static str, u32)>> {
    let b = game.board();
    let (rows, cols) = (b.rows(), b.cols());
    // Each cell's verdict and, for shading, how long best play lasts.
    let start_cop = b.cop();
    let value = |r, c| {
        let v = game.map_cell(solution, (r, c))?;
        let p = game.position(start_cop, (r, c), super::Side::Cop)?;
        Some((v, solution.remoteness_of(p)))
    };
    let values: Vec<Vec<_>> = (0..rows)
        .map(|r| (0..cols).map(|c| value(r, c)).collect())
        .collect();
    let longest = values
        .iter()
        .flatten()
        .filter_map(|v| v.and_then(|(_, rem)| rem))
        .max()
        .unwrap_or(0)
        .max(1);
    values
        .iter()
        .map(|row| row.iter().map(|&v| look(v, shade, longest)).collect())
        .collect()
}

/// A cell's fill and opacity from its verdict and remoteness (`None`: a
/// wall), paler the nearer `rem` is to `longest` with `shade`.
fn look(value: Option<(Verdict, Option<u32>)>, shade: bool, longest: u32) -> (&'static str, u32) {
    match value {
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
}

/// Which verdicts the map holds: police catches, thief escapes, draw.
fn verdicts_present(game: &CopThief, solution: &(impl Lookup + ?Sized)) -> [bool; 3] {
    let b = game.board();
    let mut present = [false; 3];
    for r in 0..b.rows() {
        for c in 0..b.cols() {
            match game.map_cell(solution, (r, c)) {
                Some(Verdict::PoliceCatches) => present[0] = true,
                Some(Verdict::ThiefEscapes) => present[1] = true,
                Some(Verdict::Draw) => present[2] = true,
                None => {}
            }
        }
    }
    present
}

/// Writes the cells, each run of equal looks in a row as one rectangle.
fn write_cells(s: &mut String, f: &Frame, looks: &[Vec<(&'static str, u32)>]) {
    let cell = f.cell;
    for (r, row) in looks.iter().enumerate() {
        let mut c = 0;
        while c < row.len() {
            let here = row[c];
            let mut end = c + 1;
            while end < row.len() && row[end] == here {
                end += 1;
            }
            let (x, y) = f.corner((r, c));
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{}" height="{cell}" fill="{}" fill-opacity="{:.2}"/>"#,
                (end - c) * cell,
                here.0,
                f64::from(here.1) / 100.0
            );
            c = end;
        }
    }
}

/// Writes an outline inside each exit cell.
fn write_exits(s: &mut String, game: &CopThief, f: &Frame) {
    let b = game.board();
    let inset = (f.cell / 6).max(1);
    for r in 0..f.rows {
        for c in 0..f.cols {
            if b.cell(r, c) == Cell::Exit {
                let (x, y) = f.corner((r, c));
                let _ = writeln!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="black" stroke-width="{}"/>"#,
                    x + inset,
                    y + inset,
                    f.cell - 2 * inset,
                    f.cell - 2 * inset,
                    inset
                );
            }
        }
    }
}

/// Writes the cop's and the thief's markers on their start cells.
fn write_start_markers(s: &mut String, game: &CopThief, f: &Frame) {
    let b = game.board();
    for (at, label, fill) in [(b.cop(), "P", COP), (b.thief(), "T", THIEF)] {
        let (x, y) = f.corner(at);
        marker(s, x + f.cell / 2, y + f.cell / 2, f.cell, label, fill);
    }
}

/// Writes a disc of `size` pixels centred on `(x, y)` with `label` on it.
fn marker(s: &mut String, x: usize, y: usize, size: usize, label: &str, fill: &str) {
    let _ = writeln!(
        s,
        r#"<circle cx="{x}" cy="{y}" r="{}" fill="{fill}" stroke="white"/><text x="{x}" y="{y}" font-size="{}" fill="white" text-anchor="middle" dominant-baseline="central">{label}</text>"#,
        (size * 2 / 5).max(2),
        (size * 3 / 5).max(3)
    );
}

/// Writes the legend below the board: the verdicts `present`, walls, exits
/// if any, and the two markers.
fn write_legend(s: &mut String, game: &CopThief, f: &Frame, present: [bool; 3]) {
    let b = game.board();
    let mut legend = Legend {
        x: 4,
        y: f.top + f.h + 10,
    };
    let verdicts = [
        (CATCH, "police catches"),
        (ESCAPE, "thief escapes"),
        (DRAW, "draw"),
    ];
    for ((fill, text), present) in verdicts.into_iter().zip(present) {
        if present {
            legend.square(s, fill, false, text);
        }
    }
    legend.square(s, WALL, false, "wall");
    if (0..f.rows).any(|r| (0..f.cols).any(|c| b.cell(r, c) == Cell::Exit)) {
        legend.square(s, "white", true, "exit");
    }
    for (label, fill, text) in [("P", COP, "cop (start)"), ("T", THIEF, "thief (start)")] {
        legend.marker(s, label, fill, text);
    }
}

/// The legend's items, written left to right along one line.
struct Legend {
    /// Where the next item starts.
    x: usize,
    /// The line's top.
    y: usize,
}

impl Legend {
    /// Writes a square of `fill` (outlined in black with `outline`) and its
    /// `text`.
    fn square(&mut self, s: &mut String, fill: &str, outline: bool, text: &str) {
        let (x, y) = (self.x, self.y);
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="{y}" width="15" height="15" fill="{fill}" stroke="{}" stroke-width="{}"/>"#,
            if outline { "black" } else { "none" },
            if outline { 2 } else { 0 }
        );
        self.text(s, text);
    }

    /// Writes a small marker with `label` on `fill` and its `text`.
    fn marker(&mut self, s: &mut String, label: &str, fill: &str, text: &str) {
        marker(s, self.x + 8, self.y + 8, 18, label, fill);
        self.text(s, text);
    }

    /// Writes an item's `text` and moves past it.
    fn text(&mut self, s: &mut String, text: &str) {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="12">{text}</text>"#,
            self.x + 20,
            self.y + 12
        );
        self.x += 28 + 6 * text.len();
    }
}

/// Escapes text for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
