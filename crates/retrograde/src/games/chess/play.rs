//! An ending as people play it: FEN in and out, moves named in long
//! algebraic notation and read in it or in standard algebraic notation, the
//! board drawn rank 8 first; solved tier by tier, each ending it leads to
//! first.

use super::{Endgame, Ending, Position};
use crate::db::Database;
use crate::db::Meta;
use crate::play::{NotationError, Playable};
use crate::registry::{Checked, Entry, GameSolution, How, Param, Params, RunError, Solvable};
use crate::tier::TierSolver;
use crate::StateGame;

impl Endgame {
    /// Whether the board's symmetries are folded.
    pub fn folds_symmetries(&self) -> bool {
        self.symmetry
    }

    /// The position a code of [`Playable`] stands for.
    fn at(&self, p: u64) -> Option<Position> {
        self.decode(p)
    }

    /// The game's databases' header, less the variant: what a tier
    /// directory of its endings is of.
    fn tiers_meta(&self) -> Meta {
        Meta::new("chess").param("symmetry", self.symmetry)
    }

    /// A solver into `how`'s tier directory, or into a temporary one
    /// (returned, to be kept while the solution is used).
    fn tier_solver<'p>(
        &self,
        how: &How<'p>,
    ) -> Result<(TierSolver<'p>, Option<tempfile::TempDir>), RunError> {
        let (dir, temporary) = match how.tiers {
            Some(dir) => (dir.to_path_buf(), None),
            None => {
                let t = tempfile::tempdir()
                    .map_err(|e| RunError::Solve(crate::Error::io(std::env::temp_dir(), e)))?;
                (t.path().to_path_buf(), Some(t))
            }
        };
        let mut solver = TierSolver::new(&dir)
            .meta(self.tiers_meta())
            .progress(how.progress);
        if let Some(limit) = how.memory_limit {
            solver = solver.memory_limit(limit);
        }
        if let Some(f) = how.on_tier {
            solver = solver.on_tier(f);
        }
        Ok((solver, temporary))
    }
}

impl Playable for Endgame {
    fn meta(&self) -> Meta {
        self.tiers_meta().variant(self.ending.name())
    }

    fn start(&self) -> Option<u64> {
        None
    }

    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        self.parse_fen(text).map(|p| p.0).map_err(|e| {
            NotationError::invalid(format!("chess {}", self.ending.name()), text, e.kind)
        })
    }

    fn notation(&self, p: u64) -> String {
        match self.at(p) {
            Some(p) => self.fen(p),
            None => format!("no position ({p})"),
        }
    }

    fn board(&self, p: u64) -> String {
        let Some(pos) = self.at(p) else {
            return format!("{}\n", Playable::notation(self, p));
        };
        let fen = self.fen(pos);
        let rows = fen.split(' ').next().unwrap_or("");
        crate::play::draw_rows(rows, |r| char::from(b'8' - r as u8), "a b c d e f g h")
    }

    fn to_move(&self, p: u64) -> String {
        match self.at(p) {
            None => "nobody".into(),
            Some(p) => StateGame::to_move(self, &p),
        }
    }

    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        if let Some(p) = self.at(p) {
            if self.terminal(&p).is_none() {
                self.for_each_raw_move(p, |m| out.push((m.to_string(), m.to.0)));
            }
        }
        out
    }

    /// A move in the long form the game names moves with (`Ra1-a8`,
    /// `e7-e8=Q`), or in standard algebraic notation (`Ra8`, `Kxh7`, `e8=Q`).
    fn find_move(&self, p: u64, text: &str) -> Option<(String, u64)> {
        crate::play::find_named(self.moves(p), text).or_else(|| {
            let mut moves = Vec::new();
            let p = self.at(p)?;
            if self.terminal(&p).is_none() {
                self.for_each_raw_move(p, |m| moves.push(m));
            }
            super::san::find(text.trim(), &moves).map(|m| (m.to_string(), m.to.0))
        })
    }

    /// The canonical position's code.
    fn key(&self, p: u64) -> Option<u64> {
        self.at(p).map(|p| self.canonical(p).0)
    }

    /// The ending of the position keyed `key`.
    fn tier_of(&self, key: u64) -> Option<String> {
        let p = self.at(key)?;
        Some(crate::tier::TieredGame::tier(self, &p).name())
    }

    /// A position where the game is over: a tie by insufficient material or
    /// stalemate, a loss by mate, in 0 plies.
    fn settled(&self, p: u64) -> Option<crate::Value> {
        let p = self.at(p)?;
        let over = self.terminal(&p).or_else(|| {
            let mut moves = 0;
            self.for_each_raw_move(p, |_| moves += 1);
            (moves == 0).then_some(crate::Outcome::Lose)
        })?;
        Some(crate::Value::new(over, Some(0)))
    }
}

/// A tier's solution, with the temporary directory its child tiers'
/// databases lie in (when no directory was given).
struct Solved<'g> {
    solution: crate::tier::TierSolution<'g, Endgame>,
    /// The tiers below, for positions a move into them reaches.
    tiers: Option<crate::tier::TierDirectory>,
    _dir: Option<tempfile::TempDir>,
}

impl GameSolution for Solved<'_> {
    fn answers(&self) -> &(dyn crate::Answers + Sync) {
        self.solution.answers()
    }
    fn key(&self, i: u32) -> Option<u64> {
        self.solution.key(i)
    }
    fn start(&self) -> Option<u32> {
        self.solution.start()
    }
    fn move_count(&self) -> Option<u64> {
        self.solution.move_count()
    }
    fn uncounted(&self) -> Vec<u32> {
        self.solution.uncounted()
    }
    fn key_order(&self) -> crate::registry::KeyOrder {
        self.solution.key_order()
    }
    fn verify(&self, keep: usize) -> Result<crate::Report, crate::SolveError> {
        self.solution.verify(keep)
    }
    fn elsewhere(&self, key: u64) -> Option<crate::Value> {
        let game = self.solution.view().game();
        let tier = game.tier_of(key)?;
        self.tiers
            .as_ref()?
            .database(&tier)
            .ok()??
            .value(key)
            .ok()?
    }
}

impl Solvable for Endgame {
    /// Solves every ending this one leads to, tier by tier (into `how`'s
    /// tier directory, or a temporary one), then this one.
    fn solve(&self, how: &How<'_>) -> Result<Box<dyn GameSolution + '_>, RunError> {
        let (solver, dir) = self.tier_solver(how)?;
        let (_, solution) = solver.solve_root(self, &self.ending)?;
        Ok(Box::new(Solved {
            solution,
            tiers: crate::tier::TierDirectory::open(solver.dir()).ok(),
            _dir: dir,
        }))
    }

    /// The endings below solved (or taken from `how`'s tier directory),
    /// then `db` checked as this ending's tier.
    fn check(&self, db: &Database, how: &How<'_>, keep: usize) -> Result<Checked, RunError> {
        let (solver, _dir) = self.tier_solver(how)?;
        Ok(solver.check_root(self, &self.ending, db, keep)?)
    }

    fn counts_by_side(&self) -> bool {
        true
    }
}

/// The registry's entry: `chess KRKP`, its symmetries folded unless
/// `symmetry` is false.
pub fn entry() -> Entry {
    let mut entry = Entry::new(
        "chess",
        "A chess ending of three or four men, pawns included (KQK, KPK, KRKP, ...), solved tier by tier through captures and promotions.",
        |p: &Params<'_>| {
            let ending = Ending::from_name(p.variant())
                .ok_or_else(|| p.bad("variant", p.variant(), "a chess ending"))?;
            Ok(Box::new(Endgame::new(ending, p.flag("symmetry")?)) as Box<dyn Solvable>)
        },
    )
    .help(
        "\
Positions are written in FEN; moves are named in long algebraic notation \
(Ra1-a8, e7-e8=Q) and read in it or in standard algebraic notation (Ra8, Kxb2, e8=Q). \
Every ending a capture or promotion leads to is solved first, each kept as a \
database in --tiers DIR (a temporary directory if none is given); a run \
that is stopped resumes from the endings already there.

Examples:
  retrograde game chess KRK
  retrograde game chess KPK --json | jq .by_side
  retrograde game chess KRKP --tiers endings/
  retrograde game chess KQK --position '7k/Q7/6K1/8/8/8/8/8 w - - 0 1'",
    )
    .param(Param::flag(
        "symmetry",
        "Solve every position as it is, without folding the board's symmetries.",
        true,
    ))
    .tiered();
    for ending in Ending::all() {
        entry = entry.variant(ending.name(), ending.name());
    }
    entry
}
