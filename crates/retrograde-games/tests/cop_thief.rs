//! The cop and the thief: the lean on-the-fly solve agrees with solving the
//! materialised graph on random boards, the game passes its self-check, and
//! hand-worked boards get their verdicts.

use std::fs;
use std::path::Path;

use proptest::prelude::*;
use retrograde::game::{check_game, materialise};
use retrograde::{Answers, CsrBuilder, Game, GameGraph, solve, solve_game};
use retrograde_games::cop_thief::{Board, CopThief};

/// A random board of up to 10 x 10: free cells, walls, several exits, and the
/// two start cells at distinct random places.
fn board() -> impl Strategy<Value = String> {
    (1usize..=10, 1usize..=10)
        .prop_filter("two cells at least", |(r, c)| r * c >= 2)
        .prop_flat_map(|(r, c)| {
            let n = r * c;
            (
                Just((r, c)),
                prop::collection::vec(
                    prop::sample::select(vec!['.', '.', '.', '.', '.', '*', '*', 'E']),
                    n,
                ),
                0..n,
                0..n - 1,
            )
        })
        .prop_map(|((r, c), mut cells, cop, thief)| {
            let thief = if thief >= cop { thief + 1 } else { thief };
            cells[cop] = 'P';
            cells[thief] = 'T';
            let mut text = format!("{r} {c}\n");
            for row in cells.chunks(c) {
                text.extend(row);
                text.push('\n');
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn lean_solve_equals_solving_the_materialised_graph(text in board()) {
        let game = CopThief::new(Board::parse(text.as_bytes(), "random.txt").unwrap()).unwrap();
        let n = game.position_count() as u32;
        let report = check_game(&game, 0..n, 5);
        prop_assert!(report.is_ok(), "{}\n{}", text, report);

        let rules = game.rules();
        let m = materialise(&game, CsrBuilder::new()).unwrap();
        prop_assert_eq!(m.graph.vertex_count(), n as usize);
        let full = solve(&m.graph, &m.rules(&rules)).unwrap();
        let lean = solve_game(&game, &rules).unwrap();
        for p in 0..n {
            prop_assert_eq!(lean.outcome(p), full.outcome(p), "position {}", p);
            prop_assert_eq!(lean.remoteness(p), full.remoteness(p), "position {}", p);
            prop_assert_eq!(
                lean.best_move(p),
                full.best_move(p),
                "position {}", p
            );
        }
        // The materialised graph without the game's terminal values is not the
        // game: but with them as labels, the whole solutions are equal.
        prop_assert_eq!(lean.clone().into_solution(), full);
    }
}

/// Every `tests/data/boards/*.txt` states its verdict on a `# expect:` line:
/// `VERDICT` or `VERDICT in PLIES`.
#[test]
fn hand_worked_boards_get_their_verdicts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/boards");
    let mut checked = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        let expect = text
            .lines()
            .find_map(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{}: no '# expect:' line", path.display()));
        let (verdict, plies) = match expect.rsplit_once(" in ") {
            Some((v, p)) => (v, Some(p.parse::<u32>().unwrap())),
            None => (expect, None),
        };
        let game = CopThief::new(Board::parse(text.as_bytes(), &path).unwrap()).unwrap();
        let s = solve_game(&game, &game.rules()).unwrap();
        assert_eq!(game.verdict(&s).to_string(), verdict, "{}", path.display());
        assert_eq!(s.remoteness(game.start()), plies, "{}", path.display());
        // The line of best play has as many moves as the remoteness.
        if let Some(r) = plies {
            let line = s.line(game.start(), 100);
            assert_eq!(line.positions.len() as u32, r + 1, "{}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 7, "only {checked} boards");
}
