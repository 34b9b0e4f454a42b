//! Nine Men's Morris: the rules on hand-set boards, the numbering, and the
//! 3-3 database against Gasser's figure.

use super::*;
use retrograde::tier::{TierDirectory, TierSolver};
use retrograde::{Answers, solve_states};

fn game(symmetry: bool) -> Morris {
    Morris::new(Tier::from_name("3-3").unwrap(), symmetry)
}

fn at(text: &str) -> Position {
    parse(text).unwrap()
}

fn moves(g: &Morris, p: Position) -> Vec<String> {
    let mut out = Vec::new();
    g.for_each_move(&p, |q| out.push(g.move_name(&p, &q)));
    out.sort();
    out
}

#[test]
fn tier_names_read_back_either_way_round_and_bad_ones_are_refused() {
    for name in ["3-3", "9-9", "5-4", "0.9-0.9", "2.7-1.8", "3.0-2.1"] {
        assert_eq!(Tier::from_name(name).unwrap().name(), name);
    }
    assert_eq!(Tier::from_name("4-5").unwrap().name(), "5-4");
    assert_eq!(Tier::from_name("1.8-2.7").unwrap().name(), "2.7-1.8");
    for bad in ["", "3", "3-", "10-3", "6.4-3", "a-b", "3-3-3", "3.x-3"] {
        assert!(Tier::from_name(bad).is_none(), "{bad}");
    }
}

#[test]
fn notation_reads_back_and_bad_text_is_refused_with_the_expected_form() {
    let g = game(true);
    for text in [
        ".../.../.../....../.../.../... w 9 9",
        "WWW/.../.../B....B/.../.../..B b 0 0",
        "W../.B./..W/W.B.B./.../.W./B.. b 3 4",
    ] {
        assert_eq!(notation(at(text)), text);
        let code = g.encode(&at(text)).unwrap();
        assert_eq!(g.decode(code), Some(at(text)));
        let number = g.number_of(&at(text)).unwrap();
        assert_eq!(g.position_of(number), Some(g.canonical(at(text))));
    }
    assert_eq!(
        at("WWW/.../.../B....B/.../.../..B b"),
        at("WWW/.../.../B....B/.../.../..B b 0 0")
    );
    for bad in [
        "",
        "WWW/.../... w",
        "WWW/.../.../B....B/.../.../..X w",
        "WWW/.../.../B....B/.../.../..B",
        "WWW/.../.../B....B/.../.../..B w 7 0",
        "WWW/.../.../B....B/.../.../..B w 0 0 0",
    ] {
        let e = parse(bad).unwrap_err().to_string();
        assert!(e.contains("expected rows of W, B and ."), "{bad}: {e}");
    }
}

#[test]
fn numbers_are_dense_within_a_tier_and_decode_to_what_they_encode() {
    let mut state = 7u64;
    for folded in [false, true] {
        let g = game(folded);
        for _ in 0..2000 {
            state = retrograde::graph::splitmix64(state);
            let w = (state as u32) & board::ALL;
            let b = ((state >> 24) as u32) & board::ALL & !w;
            let low = ((state >> 50) % 4) as u8;
            let black_to_move = state >> 63 == 1;
            // The mover has as many in hand as the other, or one more.
            let more = ((state >> 54) & 1) as u8;
            let hands = if black_to_move {
                [low, low + more]
            } else {
                [low + more, low]
            };
            let w = keep(w, (1 + state % 9).min(9 - u64::from(hands[0])));
            let b = keep(b, (1 + (state >> 8) % 9).min(9 - u64::from(hands[1])));
            let p = Position::new(w, b, hands, black_to_move);
            // As played: every board its own number.
            assert_eq!(g.decode(g.encode(&p).unwrap()), Some(p));
            // On the dense rung: the canonical form's number.
            let code = g.number_of(&p).unwrap();
            let c = g.canonical(p);
            assert_eq!(g.position_of(code), Some(c), "{p:?}");
            assert_eq!(g.number_of(&c), Some(code));
            assert_eq!(g.tier(&c), g.tier(&p));
            assert!(g.tier_numbers(&g.tier(&p)).unwrap().contains(&code));
            if folded {
                assert!(!c.black_to_move());
                // Every symmetric image, colours swapped or not, has the number.
                for s in 0..16 {
                    let image =
                        Position::new(board::image(w, s), board::image(b, s), hands, black_to_move);
                    assert_eq!(g.number_of(&image), Some(code));
                    let swapped = Position::new(
                        board::image(b, s),
                        board::image(w, s),
                        [hands[1], hands[0]],
                        !black_to_move,
                    );
                    assert_eq!(g.number_of(&swapped), Some(code));
                }
            }
        }
        // A position whose hands cannot be has no number.
        let odd = Position::new(0b111, 0b111 << 8, [0, 2], false);
        assert_eq!(g.encode(&odd), None);
        assert_eq!(g.number_of(&odd), None);
        assert_eq!(g.decode(u64::MAX), None);
        // The tiers' numbers run one after another, with no gap.
        let mut end = 0;
        for name in ["3-3", "4-3", "4-4", "0.9-0.9", "9-9"] {
            let r = g.tier_numbers(&Tier::from_name(name).unwrap()).unwrap();
            assert!(r.start < r.end, "{name}");
            end = end.max(r.end);
        }
        let r = g.tier_numbers(&Tier::from_name("3-3").unwrap()).unwrap();
        let step = ((r.end - r.start) / 5000).max(1) as usize;
        for c in (r.start..r.end).step_by(step) {
            if let Some(p) = g.position_of(c) {
                assert_eq!(g.number_of(&p), Some(c));
            } else {
                assert!(
                    folded,
                    "plain numbers are all positions where the hands can be"
                );
            }
        }
        assert!(end > 0);
    }
    // 3-3 without the symmetries: either side to move, every board.
    let r = game(false)
        .tier_numbers(&Tier::from_name("3-3").unwrap())
        .unwrap();
    assert_eq!(r.end - r.start, 2 * 2_691_920);
}

/// `mask` with at most `n` of its points (the lowest).
fn keep(mut mask: u32, n: u64) -> u32 {
    while u64::from(mask.count_ones()) > n {
        mask &= mask - 1;
    }
    mask
}

#[test]
fn a_mill_removes_a_stone_outside_the_opponents_mills_unless_all_are_in_mills() {
    let g = game(false);
    // White moves g4-g7... no: White steps d6-d7 to close a7 d7 g7; Black
    // has a mill a1 d1 g1 and a lone stone at d5.
    let p = at("W.W/.W./.B./....../.../.../BBB w");
    let closing: Vec<String> = moves(&g, p)
        .into_iter()
        .filter(|m| m.starts_with("d6-d7"))
        .collect();
    assert_eq!(closing, ["d6-d7xd5"]);
    // With every black stone in a mill, any may go.
    let p = at("W.W/.W./.../....../.../.../BBB w");
    let closing: Vec<String> = moves(&g, p)
        .into_iter()
        .filter(|m| m.starts_with("d6-d7"))
        .collect();
    assert_eq!(closing, ["d6-d7xa1", "d6-d7xd1", "d6-d7xg1"]);
}

#[test]
fn two_mills_closed_at_once_remove_one_stone() {
    let g = game(false);
    // Placing at a7 closes a7 d7 g7 and a7 a4 a1 at once.
    let p = at(".WW/.../.../W....B/.../.../W.. w 1 1");
    let at_a7: Vec<String> = moves(&g, p)
        .into_iter()
        .filter(|m| m.starts_with("a7"))
        .collect();
    assert_eq!(at_a7, ["a7xg4"]);
    let mut after = Vec::new();
    g.for_each_move(&p, |q| {
        if g.move_name(&p, &q) == "a7xg4" {
            after.push(q);
        }
    });
    assert_eq!(after[0].points(true), 0);
    assert_eq!((after[0].in_hand(false), after[0].in_hand(true)), (0, 1));
}

#[test]
fn three_stones_fly_four_step_and_fewer_than_three_lose() {
    let g = game(false);
    // White has three: any stone to any of the 17 empty points (one closes no mill).
    let p = at("W../.W./..W/BB..BB/.../.../... w");
    assert_eq!(moves(&g, p).len(), 3 * 17);
    // Black has four: steps along the lines only.
    let p = at("W../.W./..W/BB..BB/.../.../... b");
    assert!(
        moves(&g, p).iter().all(|m| m.len() == 5),
        "{:?}",
        moves(&g, p)
    );
    assert_eq!(moves(&g, p).len(), 9);
    // Two stones and none in hand: lost; two and one in hand: play goes on.
    assert_eq!(
        g.terminal(&at("WW./.../.../....BB/.../.../..B w")),
        Some(Outcome::Lose)
    );
    assert_eq!(
        g.terminal(&at("WW./.../.../....BB/.../.../..B w 1 0")),
        None
    );
}

#[test]
fn a_player_without_a_move_loses() {
    // White's four stones are hemmed in by Black's: no step.
    let g = game(false);
    let p = at("WWW/BWB/.../B....B/.../.../... w");
    assert_eq!(moves(&g, p), ["d6-d5"]);
    let blocked = at("WWW/BWB/.B./B....B/.../.../... w");
    assert_eq!(moves(&g, blocked), Vec::<String>::new());
    assert_eq!(g.no_move(), retrograde::NoMoveRule::Lose);
}

/// Regression: without the symmetries folded, a tier was solved from its
/// positions with White to move only, and a move from a parent tier onto one
/// with Black to move that the tier's own play never reaches was refused
/// (`game nine-mens-morris 0.3-0.3 --no-symmetry`). Both sides to move now.
#[test]
fn without_symmetries_a_tier_holds_both_sides_to_move() {
    let placements = 2_024 * 1_330; // C(24,3) * C(21,3)
    let tier = Tier::from_name("3-3").unwrap();
    assert_eq!(game(false).tier_positions(&tier).len(), 2 * placements);
    let folded = game(true).tier_positions(&tier);
    assert_eq!(folded.len(), 169_626);
    assert!(folded.iter().all(|p| !p.black_to_move()));
}

/// Gasser's 3-3 database: the longest loss 26 plies. Folded under the 16
/// symmetries and the colours, 169,626 positions (the orbits of the
/// placements of three stones against three).
#[test]
fn the_three_against_three_tier_matches_gassers_longest_loss() {
    let g = game(true);
    let dir = retrograde::io::scratch_dir().unwrap();
    let run = TierSolver::new(dir.path())
        .solve(&g, &[Tier::from_name("3-3").unwrap()])
        .unwrap();
    assert_eq!(run.tiers.len(), 1);
    assert_eq!(run.tiers[0].positions, 169_626);
    assert_eq!(run.tiers[0].longest, Some(26));
}

/// The whole game with three stones each, explored and solved at once,
/// against the same game solved tier by tier: every position the same.
#[test]
fn the_game_of_three_stones_each_solves_the_same_whole_and_tier_by_tier() {
    let root = Tier::from_name("0.3-0.3").unwrap();
    let g = Morris::new(root, true);
    let whole = solve_states(g.clone()).unwrap();
    let dir = retrograde::io::scratch_dir().unwrap();
    let run = TierSolver::new(dir.path()).solve(&g, &[root]).unwrap();
    assert_eq!(run.tiers.len(), 7);
    let tiers = TierDirectory::open(dir.path()).unwrap();
    let explored = whole.explored();
    assert!(explored.len() > 100_000);
    for i in 0..explored.len() as u32 {
        let p = explored.position(i).unwrap();
        // A player left with two stones has lost: no tier holds that.
        let v = match g.terminal(&p) {
            Some(o) => retrograde::Value::new(o, Some(0)),
            None => tiers.value(&g, &p).unwrap(),
        };
        assert_eq!(Some(v), whole.solved().value(i), "{p:?}");
    }
    let start = tiers.value(&g, &Position::start(3)).unwrap();
    assert_eq!((start.outcome, start.remoteness), (Outcome::Win, Some(23)));
}

/// The un-moves of the tiers up to four stones a side (and of placements
/// leading to them) are their moves reversed, with the symmetries folded
/// and without (5-5 and its tiers are checked by `.ci/run`, with
/// `--check-unmoves`).
#[test]
fn un_moves_are_the_moves_reversed() {
    for folded in [true, false] {
        let g = game(folded);
        let names: &[&str] = if folded {
            // 4-3, 4-4 and 5-5 are checked through the command line
            // (`--check-unmoves`: CI and BENCHMARKS.md).
            &["3-3", "3.1-3.0", "2.2-2.1", "0.4-0.4"]
        } else {
            &["2.2-2.1", "0.4-0.4"]
        };
        for &name in names {
            let tier = Tier::from_name(name).unwrap();
            let check = retrograde::tier::check_unmoves(&g, &tier, 5).unwrap();
            assert!(check.is_ok(), "{name} folded {folded}: {check:?}");
            if !name.contains('.') {
                assert!(check.moves > 0, "{name}");
            }
        }
    }
}

/// A Morris that does not give the dense rung: its tiers are explored.
struct Explored(Morris);

impl StateGame for Explored {
    type Position = Position;
    fn starts(&self) -> Vec<Position> {
        self.0.starts()
    }
    fn for_each_move<F: FnMut(Position)>(&self, p: &Position, f: F) {
        self.0.for_each_move(p, f)
    }
    fn terminal(&self, p: &Position) -> Option<Outcome> {
        self.0.terminal(p)
    }
    fn canonical(&self, p: Position) -> Position {
        self.0.canonical(p)
    }
    fn encode(&self, p: &Position) -> Option<u64> {
        self.0.encode(p)
    }
    fn decode(&self, c: u64) -> Option<Position> {
        self.0.decode(c)
    }
}

impl TieredGame for Explored {
    type Tier = Tier;
    fn tier(&self, p: &Position) -> Tier {
        self.0.tier(p)
    }
    fn child_tiers(&self, t: &Tier) -> Vec<Tier> {
        self.0.child_tiers(t)
    }
    fn tier_positions(&self, t: &Tier) -> Vec<Position> {
        self.0.tier_positions(t)
    }
    fn tier_name(&self, t: &Tier) -> String {
        self.0.tier_name(t)
    }
}

/// The game of three stones each, and the moving phase of four against
/// three, every tier solved on the dense rung and explored: every database
/// the same, value for value (without the symmetries folded, the un-moves
/// and the numbering are checked above).
#[test]
fn the_dense_rung_solves_every_tier_as_exploring_does() {
    let root = Tier::from_name("0.3-0.3").unwrap();
    let roots = [root, Tier::from_name("4-3").unwrap()];
    let g = Morris::new(root, true);
    let (a, b) = (
        retrograde::io::scratch_dir().unwrap(),
        retrograde::io::scratch_dir().unwrap(),
    );
    let dense = TierSolver::new(a.path()).solve(&g, &roots).unwrap();
    let explored = TierSolver::new(b.path())
        .solve(&Explored(g.clone()), &roots)
        .unwrap();
    assert_eq!(dense.tiers.len(), explored.tiers.len());
    let (da, db) = (
        TierDirectory::open(a.path()).unwrap(),
        TierDirectory::open(b.path()).unwrap(),
    );
    for (t, e) in dense.tiers.iter().zip(&explored.tiers) {
        assert_eq!(
            (&t.name, t.positions, t.longest),
            (&e.name, e.positions, e.longest)
        );
        let (x, y) = (
            da.database(&t.name).unwrap().unwrap(),
            db.database(&t.name).unwrap().unwrap(),
        );
        assert_eq!(x.header().counts, y.header().counts, "{}", t.name);
        // The explored tier keeps each board under its number as played,
        // the dense one under the number of its class.
        y.for_each(|_, key, v| {
            let number = g.number_of(&g.decode(key).unwrap()).unwrap();
            assert_eq!(x.value(number).unwrap(), v, "{} key {key}", t.name)
        })
        .unwrap();
    }
}

#[test]
fn the_drawing_has_the_points_their_lines_the_stones_and_the_hands() {
    let g = Morris::new(Tier::from_name("0.9-0.9").unwrap(), false);
    let d = g
        .drawing(&at("W../.B./.../....../.../.../... w 7 8"))
        .unwrap();
    assert_eq!(d.places().len(), 24);
    assert_eq!(d.lines().len(), 32);
    // A line joins neighbours on a row or a column.
    for &[a, b] in d.lines() {
        let (p, q) = (&d.places()[a], &d.places()[b]);
        assert!(p.x == q.x || p.y == q.y, "{} {}", p.name, q.name);
    }
    let stones: Vec<(&str, Option<Player>)> = d
        .pieces()
        .map(|(at, pc)| (at.name.as_str(), pc.player))
        .collect();
    assert_eq!(
        stones,
        [("a7", Some(Player::First)), ("d6", Some(Player::Second))]
    );
    assert_eq!(d.notes(), ["White to move; in hand: White 7, Black 8"]);
    // a7 at the top left, g1 at the bottom right.
    let a7 = &d.places()[0];
    assert_eq!((a7.name.as_str(), a7.x, a7.y), ("a7", 0.0, 0.0));
    assert!(
        d.places()
            .iter()
            .any(|p| p.name == "g1" && p.x == 6.0 && p.y == 6.0)
    );
}
