//! Progress bars on a terminal, nothing when standard error is not one.

use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A [`retrograde::Progress`] drawn with indicatif on standard error.
pub struct Bars {
    bar: Mutex<Option<ProgressBar>>,
    /// The phase drawn, if it counts units of unknown number (shown as a
    /// count so far).
    phase: Mutex<Option<&'static str>>,
    enabled: bool,
}

impl Bars {
    /// Bars if standard error is a terminal and `quiet` is false.
    pub fn new(quiet: bool) -> Bars {
        use std::io::IsTerminal;
        Bars {
            bar: Mutex::new(None),
            phase: Mutex::new(None),
            enabled: !quiet && std::io::stderr().is_terminal(),
        }
    }

    /// Runs `f` under a spinner named `phase` (for work with no count).
    pub fn spin<T>(&self, phase: &'static str, f: impl FnOnce() -> T) -> T {
        retrograde::Progress::begin(self, phase, 0);
        let out = f();
        retrograde::Progress::end(self);
        out
    }
}

impl retrograde::Progress for Bars {
    fn begin(&self, phase: &'static str, total: u64) {
        if !self.enabled {
            return;
        }
        let bar = if total == 0 {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            b.set_style(ProgressStyle::with_template("{spinner} {msg} {elapsed}").unwrap());
            b.enable_steady_tick(Duration::from_millis(120));
            b
        } else {
            let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template(
                    "{msg:>6} [{wide_bar}] {human_pos}/{human_len} ({elapsed}, {eta} left)",
                )
                .unwrap()
                .progress_chars("=> "),
            );
            b
        };
        b_set_msg(&bar, phase);
        *self.phase.lock().unwrap() = (total == 0).then_some(phase);
        *self.bar.lock().unwrap() = Some(bar);
    }

    fn begin_bytes(&self, phase: &'static str, total: u64) {
        if !self.enabled {
            return;
        }
        *self.phase.lock().unwrap() = None;
        let b = ProgressBar::with_draw_target(
            (total > 0).then_some(total),
            ProgressDrawTarget::stderr(),
        );
        let template = if total == 0 {
            "{spinner} {msg} {bytes} ({bytes_per_sec}, {elapsed})"
        } else {
            "{msg:>6} [{wide_bar}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)"
        };
        b.set_style(
            ProgressStyle::with_template(template)
                .unwrap()
                .progress_chars("=> "),
        );
        b.enable_steady_tick(Duration::from_millis(120));
        b_set_msg(&b, phase);
        *self.bar.lock().unwrap() = Some(b);
    }

    fn advance(&self, n: u64) {
        if let Some(b) = self.bar.lock().unwrap().as_ref() {
            b.inc(n);
            // A count of unknown size (an exploration's positions): so far.
            if let Some(phase) = *self.phase.lock().unwrap() {
                b.set_message(format!(
                    "{phase}: {} so far",
                    indicatif::HumanCount(b.position())
                ));
            }
        }
    }

    fn end(&self) {
        if let Some(b) = self.bar.lock().unwrap().take() {
            b.finish_and_clear();
        }
    }
}

fn b_set_msg(bar: &ProgressBar, phase: &'static str) {
    bar.set_message(phase);
}

/// Clears the terminal line a bar may be drawn on (after Ctrl-C, so that the
/// shell prompt starts on a clean line); nothing if standard error is not a
/// terminal.
pub fn clear_line() {
    use std::io::{IsTerminal, Write};
    let mut err = std::io::stderr();
    if err.is_terminal() {
        let _ = err.write_all(b"\r\x1b[2K");
        let _ = err.flush();
    }
}

/// Progress passed on to `bars`, each phase's time recorded as it ends: the
/// phase times of a run whose phases the library begins and ends (an
/// exploration, a solve, a check).
pub struct Phases<'a> {
    bars: &'a Bars,
    open: std::sync::Mutex<Vec<(&'static str, std::time::Instant)>>,
    done: std::sync::Mutex<Vec<(&'static str, f64)>>,
}

impl<'a> Phases<'a> {
    /// Nothing recorded yet.
    pub fn new(bars: &'a Bars) -> Phases<'a> {
        Phases {
            bars,
            open: std::sync::Mutex::new(Vec::new()),
            done: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Moves the phases ended so far into `times`.
    pub fn record(&self, times: &mut crate::timings::Timings) {
        for (phase, seconds) in self.done.lock().unwrap().drain(..) {
            times.record(phase, seconds);
        }
    }

    fn opened(&self, phase: &'static str) {
        self.open
            .lock()
            .unwrap()
            .push((phase, std::time::Instant::now()));
    }
}

impl retrograde::Progress for Phases<'_> {
    fn begin(&self, phase: &'static str, total: u64) {
        self.opened(phase);
        self.bars.begin(phase, total);
    }

    fn begin_bytes(&self, phase: &'static str, total: u64) {
        self.opened(phase);
        self.bars.begin_bytes(phase, total);
    }

    fn advance(&self, n: u64) {
        self.bars.advance(n);
    }

    fn end(&self) {
        if let Some((phase, at)) = self.open.lock().unwrap().pop() {
            let seconds = at.elapsed().as_secs_f64();
            self.done.lock().unwrap().push((phase, seconds));
        }
        self.bars.end();
    }
}
