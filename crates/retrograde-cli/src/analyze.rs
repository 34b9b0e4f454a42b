//! `retrograde analyze DB`: counts and a histogram by outcome and
//! remoteness, with an example of the longest win and loss; a table, JSON
//! or an SVG bar chart. `retrograde analyze DIR`: the same counts for every
//! tier of a tier directory, and for the whole.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use retrograde::Histogram;
use retrograde::db::Database;
use retrograde::play::Playable;

use crate::common;
use crate::report;

/// Options of `retrograde analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// The database (`--save` writes one), or a tier directory (`--tiers DIR` writes one):
    /// each tier counted, and the whole.
    pub db: PathBuf,
    /// Print one JSON object instead of the table (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
    /// Draw the histogram as an SVG bar chart into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Refuse a database whose histogram could need more memory than this (e.g. 8G;
    /// default: the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes, help_heading = "Performance")]
    pub max_memory: Option<u64>,
}

/// The longest win or loss, and a position that has it.
#[derive(serde::Serialize, Clone)]
struct Example {
    remoteness: u32,
    position: String,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.db.is_dir() {
        return directory(&args);
    }
    let chart: Vec<&Path> = args.svg.iter().map(|p| p.as_path()).collect();
    common::check_files(&[&args.db], &chart)?;
    if let Some(svg) = &args.svg {
        common::check_json_output(args.json, svg, "chart")?;
    }
    let db = crate::db::open(&args.db)?;
    let game = known_game(&db)?;
    check_memory(&db, common::memory_limit(args.max_memory))?;
    let uncounted = game.as_ref().map(|g| g.uncounted()).unwrap_or_default();
    let (h, longest) = count(&db, &uncounted)?;
    let name = retrograde::play::describe(db.meta());
    let example = |s| example(game.as_deref(), s);
    let found = Found {
        outcomes: report::Outcomes::from_histogram(&h),
        win: example(longest[0]),
        loss: example(longest[1]),
    };
    if let Some(path) = &args.svg {
        let picture = svg(&name, &h);
        retrograde::io::write_atomically(path, |w| w.write_all(picture.as_bytes()))?;
        // As every command: said unless the report is JSON.
        if !args.json {
            common::wrote(path)?;
        }
    }
    if args.json {
        print_json(&args, &db, found)?;
        return Ok(ExitCode::SUCCESS);
    }
    // The table is the data: standard output, unless the chart goes there.
    let mut out = common::data_out(&chart);
    print_table(&mut out, &args, &db, &name, &found)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The game `db` was written for; `None` for a game this build does not
/// know, which is analysed without names. A damaged database is refused.
fn known_game(db: &Database) -> Result<Option<Box<dyn Playable + '_>>> {
    match crate::db::game(db) {
        Ok(g) => Ok(Some(g)),
        Err(e) if e.downcast_ref::<retrograde::db::DbError>().is_some() => Err(e),
        Err(_) => Ok(None),
    }
}

/// The remoteness and key of the first record of the longest win and of
/// the longest loss.
type Longest = [Option<(u32, u64)>; 2];

/// The histogram of `db`'s records (but those keyed in `uncounted`), and
/// the first record of the longest win and of the longest loss.
fn count(db: &Database, uncounted: &[u64]) -> Result<(Histogram, Longest)> {
    let c = db.count(uncounted)?;
    Ok((c.histogram, [c.longest_win, c.longest_loss]))
}

/// The example of a longest record `s`, in the game's notation if the game
/// is known, else by key.
fn example(game: Option<&(dyn Playable + '_)>, s: Option<(u32, u64)>) -> Option<Example> {
    s.map(|(r, key)| Example {
        remoteness: r,
        position: game.map_or_else(|| format!("key {key}"), |g| g.notation(g.position_at(key))),
    })
}

/// What the analysis found: the counts and histogram, and the longest win
/// and loss.
struct Found {
    outcomes: report::Outcomes,
    win: Option<Example>,
    loss: Option<Example>,
}

/// Prints the analysis as one JSON object.
fn print_json(args: &Args, db: &Database, found: Found) -> Result<()> {
    #[derive(serde::Serialize)]
    struct Json {
        command: &'static str,
        database: String,
        game: String,
        variant: String,
        #[serde(flatten)]
        outcomes: report::Outcomes,
        longest_win: Option<Example>,
        longest_loss: Option<Example>,
        record_bits: u32,
        compression: retrograde::db::Compression,
        bytes: retrograde::db::Sizes,
    }
    let header = db.header();
    report::print(&Json {
        command: "analyze",
        database: args.db.display().to_string(),
        game: db.meta().game.clone(),
        variant: db.meta().variant.clone(),
        outcomes: found.outcomes,
        longest_win: found.win,
        longest_loss: found.loss,
        record_bits: header.record_bits,
        compression: header.compression,
        bytes: db.sizes(),
    })?;
    Ok(())
}

/// Prints the analysis as a table: the database's size, the counts by
/// outcome, the histogram by remoteness and the longest win and loss.
fn print_table(
    out: &mut dyn Write,
    args: &Args,
    db: &Database,
    name: &str,
    found: &Found,
) -> Result<()> {
    let sizes = db.sizes();
    let n = found.outcomes.positions;
    writeln!(
        out,
        "{}: {name}, {}; {} bits a record, {} ({:.3} bytes a position)",
        common::shown(&args.db),
        common::count(n, "position", "positions"),
        db.header().record_bits,
        indicatif::HumanBytes(sizes.file),
        sizes.file as f64 / n.max(1) as f64
    )?;
    let c = found.outcomes.counts;
    let pct = |x: u64| 100.0 * x as f64 / n.max(1) as f64;
    for (what, x) in [
        ("win", c.win),
        ("lose", c.lose),
        ("tie", c.tie),
        ("draw", c.draw),
    ] {
        writeln!(out, "  {what:<5} {x:>14}  {:>6.2}%", pct(x))?;
    }
    writeln!(
        out,
        "{:>10} {:>14} {:>14} {:>14}",
        "remoteness", "win", "lose", "tie"
    )?;
    for level in &found.outcomes.histogram {
        writeln!(
            out,
            "{:>10} {:>14} {:>14} {:>14}",
            level.remoteness, level.win, level.lose, level.tie
        )?;
    }
    for (what, e) in [("longest win", &found.win), ("longest loss", &found.loss)] {
        if let Some(e) = e {
            writeln!(out, "{what}: {} plies: {}", e.remoteness, e.position)?;
        }
    }
    Ok(())
}

/// Refuses a database whose histogram could pass `limit`: one entry for
/// each remoteness its records can have (no more than the records, nor
/// than the header's longest remoteness, which the reader holds every
/// record to).
fn check_memory(db: &retrograde::db::Database, limit: u64) -> Result<()> {
    let levels = db
        .header()
        .longest
        .map_or(0, |l| u64::from(l) + 1)
        .min(db.len());
    // A row of the counter's table (24 bytes) takes less than an entry.
    let needed = levels.saturating_mul(Histogram::BYTES_PER_REMOTENESS);
    Ok(common::check_memory(
        &format!(
            "{}: a histogram of up to {} remotenesses",
            common::shown(db.path()),
            indicatif::HumanCount(levels)
        ),
        needed,
        limit,
    )?)
}

/// The histogram as a bar chart: one stacked bar per remoteness (wins,
/// losses, ties), a title, axes with ticks and a legend; colours from the
/// Okabe–Ito palette, which readers with colour-blindness tell apart.
pub fn svg(title: &str, h: &Histogram) -> String {
    const COLOURS: [(&str, &str); 3] =
        [("win", "#009E73"), ("lose", "#D55E00"), ("tie", "#0072B2")];
    // One slot a remoteness up to the longest; only those some position
    // has are drawn.
    let levels = h.by_remoteness.keys().last().map_or(1, |&r| r as usize + 1);
    let top = h
        .by_remoteness
        .values()
        .map(|row| row.iter().sum::<u64>())
        .max()
        .unwrap_or(0)
        .max(1);
    let (left, right, up, down) = (80.0, 20.0, 50.0, 50.0);
    let plot_w = (levels as f64 * 8.0).clamp(400.0, 1600.0);
    let plot_h = 300.0;
    let (w, hgt) = (left + plot_w + right, up + plot_h + down);
    let bar = plot_w / levels as f64;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{hgt}\" viewBox=\"0 0 {w} {hgt}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"22\" font-size=\"16\">{}: positions by remoteness ({} draws)</text>\n",
        escape(title),
        h.draws
    );
    for (&r, row) in &h.by_remoteness {
        let mut y = up + plot_h;
        for (c, &count) in row.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let height = plot_h * count as f64 / top as f64;
            y -= height;
            s += &format!(
                "<rect x=\"{:.2}\" y=\"{y:.2}\" width=\"{:.2}\" height=\"{height:.2}\" fill=\"{}\"><title>remoteness {r}: {count} {}</title></rect>\n",
                left + r as f64 * bar,
                (bar * 0.9).max(0.5),
                COLOURS[c].1,
                COLOURS[c].0
            );
        }
    }
    // Axes, ticks and labels.
    s += &format!(
        "<line x1=\"{left}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"black\"/>\n<line x1=\"{left}\" y1=\"{up}\" x2=\"{left}\" y2=\"{0}\" stroke=\"black\"/>\n",
        up + plot_h,
        left + plot_w
    );
    for i in 0..=4 {
        let v = top as f64 * i as f64 / 4.0;
        let y = up + plot_h - plot_h * i as f64 / 4.0;
        s += &format!(
            "<text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\">{:.0}</text>\n",
            left - 6.0,
            y + 4.0,
            v
        );
    }
    let step = (levels / 10).max(1);
    for r in (0..levels).step_by(step) {
        s += &format!(
            "<text x=\"{:.1}\" y=\"{:.0}\" text-anchor=\"middle\">{r}</text>\n",
            left + (r as f64 + 0.5) * bar,
            up + plot_h + 16.0
        );
    }
    s += &format!(
        "<text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"middle\">remoteness (plies to the end under best play)</text>\n",
        left + plot_w / 2.0,
        up + plot_h + 36.0
    );
    for (i, (name, colour)) in COLOURS.iter().enumerate() {
        let x = left + plot_w - 220.0 + i as f64 * 75.0;
        s += &format!(
            "<rect x=\"{x}\" y=\"32\" width=\"12\" height=\"12\" fill=\"{colour}\"/><text x=\"{}\" y=\"43\">{name}</text>\n",
            x + 16.0
        );
    }
    s += "</svg>\n";
    s
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One tier's counts, as `analyze DIR` reports them.
#[derive(serde::Serialize)]
struct TierCounts {
    tier: String,
    database: String,
    #[serde(flatten)]
    outcomes: report::Outcomes,
    longest_win: Option<u32>,
    longest_loss: Option<u32>,
    bytes: u64,
}

/// `analyze DIR`: every tier of a tier directory counted (children
/// first, as they were solved), then the whole.
fn directory(args: &Args) -> Result<ExitCode> {
    anyhow::ensure!(
        args.svg.is_none(),
        "{}: a tier directory has no one histogram to draw (--svg takes a database)",
        common::shown(&args.db)
    );
    let tiers = retrograde::tier::TierDirectory::open(&args.db)?;
    let limit = common::memory_limit(args.max_memory);
    let (rows, whole) = count_tiers(&tiers, limit)?;
    let all = report::Outcomes::from_histogram(&whole);
    let bytes: u64 = rows.iter().map(|r| r.bytes).sum();
    let game = retrograde::play::describe(&tiers.manifest().game);
    if args.json {
        #[derive(serde::Serialize)]
        struct Json<'a> {
            command: &'static str,
            directory: String,
            game: String,
            #[serde(flatten)]
            outcomes: &'a report::Outcomes,
            bytes: u64,
            tiers: &'a [TierCounts],
        }
        report::print(&Json {
            command: "analyze",
            directory: args.db.display().to_string(),
            game,
            outcomes: &all,
            bytes,
            tiers: &rows,
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    print_tiers(args, &game, &all, bytes, &rows)?;
    Ok(ExitCode::SUCCESS)
}

/// Every tier of the directory counted, children first, and the whole
/// game's histogram.
fn count_tiers(
    tiers: &retrograde::tier::TierDirectory,
    limit: u64,
) -> Result<(Vec<TierCounts>, Histogram)> {
    let mut rows = Vec::new();
    let mut whole = Histogram::default();
    for (listed, db) in tiers.each_alone() {
        let db = &db?;
        let game = known_game(db)?;
        check_memory(db, limit)?;
        let uncounted = game.as_ref().map(|g| g.uncounted()).unwrap_or_default();
        let (h, longest) = count(db, &uncounted)?;
        whole.add(&h);
        rows.push(TierCounts {
            tier: listed.name.clone(),
            database: db.path().display().to_string(),
            outcomes: report::Outcomes::from_histogram(&h),
            longest_win: longest[0].map(|(r, _)| r),
            longest_loss: longest[1].map(|(r, _)| r),
            bytes: db.sizes().file,
        });
    }
    Ok((rows, whole))
}

/// The directory's table: a header line, a row per tier and one for all.
fn print_tiers(
    args: &Args,
    game: &str,
    all: &report::Outcomes,
    bytes: u64,
    rows: &[TierCounts],
) -> Result<()> {
    let mut out = common::data_out(&[]);
    writeln!(
        out,
        "{}: {game}, {} in {}, {}",
        common::shown(&args.db),
        common::count(all.positions, "position", "positions"),
        common::count(rows.len() as u64, "tier", "tiers"),
        indicatif::HumanBytes(bytes)
    )?;
    writeln!(
        out,
        "{:<12} {:>13} {:>13} {:>13} {:>11} {:>13} {:>8} {:>8} {:>11}",
        "tier", "positions", "win", "lose", "tie", "draw", "win in", "loss in", "bytes"
    )?;
    for row in rows {
        tier_row(
            &mut out,
            &row.tier,
            &row.outcomes,
            row.longest_win,
            row.longest_loss,
            row.bytes,
        )?;
    }
    let most = |f: fn(&TierCounts) -> Option<u32>| rows.iter().filter_map(f).max();
    tier_row(
        &mut out,
        "all",
        all,
        most(|r| r.longest_win),
        most(|r| r.longest_loss),
        bytes,
    )?;
    out.flush()?;
    Ok(())
}

/// One row of the directory's table: its counts, longest win and loss
/// (`-` for none) and bytes.
fn tier_row(
    out: &mut dyn Write,
    name: &str,
    o: &report::Outcomes,
    w: Option<u32>,
    l: Option<u32>,
    b: u64,
) -> std::io::Result<()> {
    let r = |x: Option<u32>| x.map_or_else(|| "-".to_string(), |x| x.to_string());
    writeln!(
        out,
        "{name:<12} {:>13} {:>13} {:>13} {:>11} {:>13} {:>8} {:>8} {:>11}",
        o.positions,
        o.counts.win,
        o.counts.lose,
        o.counts.tie,
        o.counts.draw,
        r(w),
        r(l),
        b
    )
}
