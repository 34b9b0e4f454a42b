//! An ending as people play it: FEN in and out, moves named in long
//! algebraic notation and read in it or in standard algebraic notation, the
//! board drawn rank 8 first; solved tier by tier, each ending it leads to
//! first.

use super::{Endgame, Ending, Position};
use retrograde::StateGame;
use retrograde::db::Database;
use retrograde::db::Meta;
use retrograde::play::{NotationError, Playable};
use retrograde::registry::{
    Checked, Entry, GameSolution, How, Param, Params, RunError, Solvable, tiers,
};

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
        retrograde::play::draw_rows(rows, |r| char::from(b'8' - r as u8), "a b c d e f g h")
    }

    fn to_move(&self, p: u64) -> String {
        match self.at(p) {
            None => "nobody".into(),
            Some(p) => StateGame::to_move(self, &p),
        }
    }

    fn ending(&self, p: u64) -> Option<String> {
        StateGame::ending(self, &self.at(p)?)
    }

    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        if let Some(p) = self.at(p)
            && self.terminal(&p).is_none()
        {
            self.for_each_raw_move(p, |m| out.push((m.to_string(), m.to.0)));
        }
        out
    }

    /// Standard algebraic notation, with `+` for check and `#` for mate.
    fn written_moves(&self, p: u64) -> Vec<String> {
        let mut moves = Vec::new();
        if let Some(p) = self.at(p)
            && self.terminal(&p).is_none()
        {
            self.for_each_raw_move(p, |m| moves.push(m));
        }
        moves
            .iter()
            .map(|m| {
                let check = self.in_check(m.to);
                let mut replies = 0;
                if check {
                    self.for_each_raw_move(m.to, |_| replies += 1);
                }
                super::san::write(m, &moves, check, check && replies == 0)
            })
            .collect()
    }

    /// A move in the long form the game names moves with (`Ra1-a8`,
    /// `e7-e8=Q`), or in standard algebraic notation (`Ra8`, `Kxh7`, `e8=Q`).
    fn find_move(&self, p: u64, text: &str) -> Option<(String, u64)> {
        retrograde::play::find_named(self.moves(p), text).or_else(|| {
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
        tiers::tier_of(self, key)
    }

    /// A position where the game is over: a tie by insufficient material or
    /// stalemate, a loss by mate, in 0 plies.
    fn settled(&self, p: u64) -> Option<retrograde::Value> {
        tiers::settled(self, &self.at(p)?)
    }
}

impl Solvable for Endgame {
    /// Solves every ending this one leads to, tier by tier (into `how`'s
    /// tier directory, or a temporary one), then this one.
    fn solve(&self, how: &How<'_>) -> Result<Box<dyn GameSolution + '_>, RunError> {
        tiers::solve(self, &self.ending, &self.tiers_meta(), how)
    }

    /// The endings below solved (or taken from `how`'s tier directory),
    /// then `db` checked as this ending's tier.
    fn check(&self, db: &Database, how: &How<'_>, keep: usize) -> Result<Checked, RunError> {
        tiers::check(self, &self.ending, &self.tiers_meta(), db, how, keep)
    }

    /// The endings below shared out among the processes of `share`;
    /// process 0 solves this one.
    fn solve_shared(
        &self,
        how: &How<'_>,
        share: &dyn retrograde::tier::TierShare,
    ) -> Result<Option<Box<dyn GameSolution + '_>>, RunError> {
        tiers::solve_shared(self, &self.ending, &self.tiers_meta(), how, share)
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
    // KK too, last: every capture of the last man ends there, and each
    // tier directory keeps its database, which the tools open by this name.
    for ending in Ending::all().into_iter().chain(std::iter::once(Ending::KK)) {
        entry = entry.variant(ending.name(), ending.name());
    }
    entry
}
