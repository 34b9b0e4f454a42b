//! PGSolver's game format, read as a reachability game, and its solution
//! format written.
//!
//! A game is a header `parity N;` (the largest vertex id), an optional
//! `start V;`, then one statement a vertex, `id priority owner
//! successors "name";`: the owner `0` or `1` (the player who moves there),
//! the successors separated by commas, the name optional. Statements end
//! with `;` and may span lines; ids run from 0 to `N`, each with one
//! statement. Oink reads and writes the same format.
//!
//! ```text
//! parity 3;
//! 0 1 0 1,2 "start";
//! 1 0 1 0,3;
//! 2 2 1 2;
//! 3 2 0 3;
//! ```
//!
//! **Only reachability and safety are solved here, not parity.** The
//! priorities choose the target: [`PgGame::rules`] makes every
//! vertex of one priority a target, reached by one player (by default the
//! one whose parity the priority has, as in the parity condition) and
//! avoided by the other. A target ends the game, won by the reacher; a
//! vertex without a move is lost by its owner (PGSolver's rule for finite
//! plays); a play that never reaches a target is won by the avoider (a
//! draw in this library's words).
//!
//! The solution ([`write_solution`]) is PGSolver's and Oink's: `paritysol
//! N;` then `id winner strategy;` a vertex, the strategy (the successor to
//! move to) given where the winner owns the vertex and has a move.

use std::io::Write;

use super::Input;
use crate::error::{Error, Result};
use crate::graph::Arena;
use crate::{Answers, Csr, GameGraph, Graph, Labels, NoMoveRule, Outcome, Player, Rules};

/// A game read from PGSolver's format.
#[derive(Clone, Debug)]
pub struct PgGame {
    /// The moves, both ways.
    pub graph: Graph,
    /// Who moves at each vertex.
    pub owners: Vec<Player>,
    /// Each vertex's priority.
    pub priorities: Vec<u64>,
    /// The start vertex, if the file names one.
    pub start: Option<u32>,
    /// The vertices' names, where given (`None` for a vertex without one).
    pub names: Vec<Option<String>>,
}

/// The largest vertex id read (the header's, which allocates `N + 1`).
const MAX_ID: u64 = u32::MAX as u64 - 2;

/// Reads a game in PGSolver's format.
///
/// ```
/// use retrograde::io::{pgsolver, Input};
/// let text = b"parity 2;\n0 1 0 1,2;\n1 2 1 1;\n2 0 1 0 \"back\";\n";
/// let g = pgsolver::read(&Input::from_bytes("g.gm", text.to_vec())).unwrap();
/// assert_eq!(g.priorities, [1, 2, 0]);
/// assert_eq!(g.names[2].as_deref(), Some("back"));
/// ```
///
/// # Errors
/// [`Error::Parse`] with the line of the first statement that does not
/// follow the format: a missing header, a vertex listed twice or not at
/// all, an owner other than 0 or 1, a successor past the header's `N`.
pub fn read(input: &Input) -> Result<PgGame> {
    let mut p = Parser {
        data: without_bom(input.bytes()),
        pos: 0,
        line: 1,
        input,
    };
    p.skip_space();
    let header_line = p.line;
    if !p.keyword(b"parity") {
        return Err(p.fail(header_line, "expected the header `parity N;`"));
    }
    let max = p.number("the largest vertex id N")?;
    if max > MAX_ID {
        return Err(p.fail(
            header_line,
            &format!("{max} vertices are more than u32 ids allow"),
        ));
    }
    p.end_statement()?;
    // Every id needs a statement of at least 8 bytes (`0 0 0 0;`): a header
    // that declares more than the file can list is refused before anything
    // is allocated for them.
    if (max + 1).saturating_mul(8) > p.data.len() as u64 {
        return Err(p.fail(
            header_line,
            &format!(
                "the header declares {} vertices, more than a file of {} bytes can list",
                max + 1,
                p.data.len()
            ),
        ));
    }
    let n = max as usize + 1;
    let mut seen = vec![false; n];
    let mut owners = vec![Player::First; n];
    let mut priorities = vec![0u64; n];
    let mut names: Vec<Option<String>> = vec![None; n];
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut start = None;
    loop {
        p.skip_space();
        if p.pos >= p.data.len() {
            break;
        }
        let line = p.line;
        if p.keyword(b"start") {
            let s = p.id(max)?;
            start = Some(s);
            p.end_statement()?;
            continue;
        }
        let v = p.id(max)?;
        if std::mem::replace(&mut seen[v as usize], true) {
            return Err(p.fail(line, &format!("vertex {v} is listed twice")));
        }
        priorities[v as usize] = p.number("a priority")?;
        owners[v as usize] = match p.number("an owner, 0 or 1")? {
            0 => Player::First,
            1 => Player::Second,
            o => return Err(p.fail(p.line, &format!("expected an owner, 0 or 1, found {o}"))),
        };
        loop {
            let w = p.id(max)?;
            edges.push((v, w));
            p.skip_space();
            if p.peek() == Some(b',') {
                p.pos += 1;
                continue;
            }
            break;
        }
        p.skip_space();
        if p.peek() == Some(b'"') {
            names[v as usize] = Some(p.quoted()?);
        }
        p.end_statement()?;
    }
    if let Some(v) = seen.iter().position(|&s| !s) {
        return Err(Error::at_line(
            input.path(),
            header_line,
            format!("the header declares ids 0 to {max}, but vertex {v} has no statement"),
        ));
    }
    Ok(PgGame {
        graph: Csr::from_edges(n, &edges).with_successors(),
        owners,
        priorities,
        start,
        names,
    })
}

/// The reachability game of a [`PgGame`]: which vertices are targets and
/// who tries to reach them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The target: every vertex of this priority.
    pub priority: u64,
    /// Who tries to reach it; the other player avoids it.
    pub reacher: Player,
}

impl Reach {
    /// The vertices of `priority`, reached by the player of its parity
    /// (even: player 0), as in the parity condition.
    pub fn priority(priority: u64) -> Reach {
        Reach {
            priority,
            reacher: if priority.is_multiple_of(2) {
                Player::First
            } else {
                Player::Second
            },
        }
    }

    /// The player who wins a play that starts at a vertex owned by
    /// `owner` and of value `value` for that player: the reacher where
    /// they can force the target, else the avoider.
    pub fn winner(self, owner: Player, value: Outcome) -> Player {
        match value {
            Outcome::Win => owner,
            Outcome::Lose => owner.other(),
            Outcome::Tie | Outcome::Draw => self.reacher.other(),
        }
    }
}

impl PgGame {
    /// The vertex count.
    pub fn len(&self) -> usize {
        self.owners.len()
    }

    /// Whether the game has no vertex (never, for a game read: `parity 0;`
    /// has one).
    pub fn is_empty(&self) -> bool {
        self.owners.is_empty()
    }

    /// The rules under which this game's arena ([`PgGame::arena`]) is the
    /// reachability game `reach`: every target is terminal, a win for the
    /// player to move there if that is the reacher and a loss otherwise; a
    /// vertex without a move is lost by its owner (the normal rule). Time
    /// **O(V)**.
    pub fn rules(&self, reach: Reach) -> Rules {
        let labels = (0..self.len() as u32)
            .filter(|&v| self.priorities[v as usize] == reach.priority)
            .map(|v| {
                let won = self.owners[v as usize] == reach.reacher;
                (v, if won { Outcome::Win } else { Outcome::Lose })
            })
            .collect();
        Rules {
            no_move: NoMoveRule::Lose,
            labels: Labels::from_pairs(labels),
        }
    }

    /// The graph with its owners, borrowed.
    pub fn arena(&self) -> Arena<&Graph> {
        Arena::new(&self.graph, self.owners.clone()).expect("one owner a vertex, read so")
    }
}

/// Writes the solution of the reachability game `reach` on `arena`,
/// solved as `s`, in PGSolver's solution format: `paritysol N;` then, for
/// every vertex, `id winner;` or, where the winner owns it and has a move,
/// `id winner strategy;` (the best move: towards the target soonest for
/// the reacher, away from it for the avoider). Time **O(V)**.
///
/// # Errors
/// What writing `w` fails with.
pub fn write_solution<G: GameGraph, S: Answers + ?Sized>(
    w: &mut dyn Write,
    arena: &Arena<G>,
    reach: Reach,
    s: &S,
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(w);
    let n = arena.vertex_count();
    writeln!(out, "paritysol {};", n.saturating_sub(1))?;
    for v in 0..n as u32 {
        let Some(value) = s.value(v) else { continue };
        let owner = arena.owners()[v as usize];
        let winner = reach.winner(owner, value.outcome);
        match s.best_move(v).filter(|_| winner == owner) {
            Some(m) => writeln!(out, "{v} {winner} {m};")?,
            None => writeln!(out, "{v} {winner};")?,
        }
    }
    out.flush()
}

/// A cursor over a PGSolver file.
struct Parser<'a> {
    data: &'a [u8],
    pos: usize,
    line: u64,
    input: &'a Input,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => break,
            }
            self.pos += 1;
        }
    }

    fn fail(&self, line: u64, message: &str) -> Error {
        Error::at_line(self.input.path(), line, message)
    }

    /// What is at the cursor, for a message.
    fn found(&self) -> String {
        let rest = &self.data[self.pos..];
        let end = rest
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == b';' || *b == b',')
            .unwrap_or(rest.len())
            .clamp(1.min(rest.len()), 20);
        match rest.is_empty() {
            true => "the end of the file".into(),
            false => format!("{:?}", String::from_utf8_lossy(&rest[..end])),
        }
    }

    /// The word `word`, then a blank.
    fn keyword(&mut self, word: &[u8]) -> bool {
        let after = self.data.get(self.pos + word.len()).copied();
        if self.data[self.pos..].starts_with(word)
            && matches!(after, Some(b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    /// A decimal number, after blanks.
    fn number(&mut self, what: &str) -> Result<u64> {
        self.skip_space();
        let start = self.pos;
        let mut x: u64 = 0;
        while let Some(d) = self.peek().filter(u8::is_ascii_digit) {
            x = match x
                .checked_mul(10)
                .and_then(|x| x.checked_add(u64::from(d - b'0')))
            {
                Some(x) => x,
                None => return Err(self.fail(self.line, &format!("{what} is too large"))),
            };
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.fail(
                self.line,
                &format!("expected {what}, found {}", self.found()),
            ));
        }
        Ok(x)
    }

    /// A vertex id, at most `max`.
    fn id(&mut self, max: u64) -> Result<u32> {
        let v = self.number("a vertex id")?;
        if v > max {
            return Err(self.fail(
                self.line,
                &format!("vertex {v} is past the header's largest id {max}"),
            ));
        }
        Ok(v as u32)
    }

    /// A name in double quotes (a backslash escapes the next byte).
    fn quoted(&mut self) -> Result<String> {
        let line = self.line;
        self.pos += 1;
        let mut name = Vec::new();
        while let Some(b) = self.peek() {
            self.pos += 1;
            match b {
                b'"' => return Ok(String::from_utf8_lossy(&name).into_owned()),
                b'\\' if self.pos < self.data.len() => {
                    name.push(self.data[self.pos]);
                    self.pos += 1;
                }
                b'\n' => {
                    self.line += 1;
                    name.push(b);
                }
                _ => name.push(b),
            }
        }
        Err(self.fail(line, "a name's closing quote is missing"))
    }

    /// The `;` that ends a statement.
    fn end_statement(&mut self) -> Result<()> {
        self.skip_space();
        if self.peek() == Some(b';') {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.fail(
                self.line,
                &format!("expected `;` ending the statement, found {}", self.found()),
            ))
        }
    }
}

/// `bytes` without a leading UTF-8 byte order mark, which some editors write.
fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// Whether `bytes` begin as a PGSolver game: the header `parity` (after a
/// byte order mark, if any).
pub fn is_pgsolver(bytes: &[u8]) -> bool {
    let bytes = without_bom(bytes);
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    bytes[start..].starts_with(b"parity")
        && bytes.get(start + 6).is_some_and(u8::is_ascii_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::reference::solve_reference;

    fn game(text: &str) -> Result<PgGame> {
        read(&Input::from_bytes("g.gm", text.as_bytes().to_vec()))
    }

    #[test]
    fn bad_games_are_refused_with_their_line() {
        let e = |t: &str| game(t).unwrap_err().to_string();
        assert_eq!(
            e("0 1 0 0;"),
            "g.gm:line 1: expected the header `parity N;`"
        );
        assert_eq!(
            e("parity 1;\n0 1 0 1;\n1 1 2 0;"),
            "g.gm:line 3: expected an owner, 0 or 1, found 2"
        );
        assert_eq!(
            e("parity 1;\n0 1 0 1;\n0 1 1 0;"),
            "g.gm:line 3: vertex 0 is listed twice"
        );
        assert_eq!(
            e("parity 1;\n0 1 0 5;"),
            "g.gm:line 2: vertex 5 is past the header's largest id 1"
        );
        assert_eq!(
            e("parity 1;\n0 1 0 1;"),
            "g.gm:line 1: the header declares ids 0 to 1, but vertex 1 has no statement"
        );
        assert_eq!(
            e("parity 0;\n0 1 0 0"),
            "g.gm:line 2: expected `;` ending the statement, found the end of the file"
        );
        assert_eq!(
            e("parity 0;\n0 1 0 x;"),
            "g.gm:line 2: expected a vertex id, found \"x\""
        );
        assert_eq!(
            e("parity 0;\n0 1 0 0 \"open;"),
            "g.gm:line 2: a name's closing quote is missing"
        );
        assert_eq!(
            e("parity 4000000000;\n0 1 0 0;"),
            "g.gm:line 1: the header declares 4000000001 vertices, more than a file of 27 bytes can list"
        );
    }

    #[test]
    fn a_byte_order_mark_before_the_header_is_skipped() {
        let text = "\u{feff}parity 0;\n0 1 0 0;\n";
        assert!(is_pgsolver(text.as_bytes()));
        assert_eq!(game(text).unwrap().len(), 1);
    }

    #[test]
    fn a_reachability_game_gives_the_attractor_and_strategies() {
        // Player 0 wants priority 2 (vertex 3). 0 (player 0) goes to 1 or 2;
        // 1 (player 1) may go to 3 or back to 0; 2 (player 1) must go to 3;
        // 4 (player 1) loops on itself.
        let g = game(
            "parity 4;\nstart 0;\n0 1 0 1,2 \"a\";\n1 1 1 3,0;\n2 1 1 3;\n3 2 0 3;\n4 1 1 4,0;\n",
        )
        .unwrap();
        assert_eq!(g.start, Some(0));
        let reach = Reach::priority(2);
        assert_eq!(reach.reacher, Player::First);
        let (arena, rules) = (g.arena(), g.rules(reach));
        let s = crate::solve(&arena, &rules).unwrap();
        assert_eq!(s, solve_reference(&arena, &rules));
        let mut out = Vec::new();
        write_solution(&mut out, &arena, reach, &s).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "paritysol 4;\n0 0 2;\n1 0;\n2 0;\n3 0;\n4 1 4;\n"
        );
    }
}
