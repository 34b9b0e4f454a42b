//! Dōbutsu shōgi's rules pinned by hand-worked positions, its reverse moves
//! checked against its moves, and the mirror folding checked against the
//! unfolded game.

use super::*;
use retrograde::game::{check_game, materialise, sample_positions};
use retrograde::solve::solve;
use retrograde::solve_game;
use retrograde::{Answers, CsrBuilder, NoProgress, Rules};

fn parse(text: &str) -> Board {
    notation::parse(text).unwrap().0
}

trait Named {
    /// Moves named, with the position after each, for the first player to move.
    fn for_each_moves_named(&self) -> Vec<(String, String)> {
        self.for_each_moves_named_as(true)
    }
    fn for_each_moves_named_as(&self, sente: bool) -> Vec<(String, String)>;
}

impl Named for Board {
    fn for_each_moves_named_as(&self, sente: bool) -> Vec<(String, String)> {
        let mut out = Vec::new();
        self.for_each_move(|m, after| {
            out.push((
                notation::move_name(&m, sente),
                notation::write(&after, !sente),
            ))
        });
        out
    }
}

/// The game from a position of lions and chicks only: small enough to
/// check whole.
const CHICKS: &str = "1l1/1c1/1C1/1L1 b -";
/// Lions, an elephant and a chick each.
const ELEPHANTS: &str = "1le/1c1/1C1/EL1 b -";

#[test]
fn moves_and_reverse_moves_agree_folded_and_unfolded() {
    // With captures played, every capture's reverse moves are a pass over
    // the whole game: fewer samples.
    for (start, capture, samples) in [
        (CHICKS, Capture::Terminal, 30_000),
        (ELEPHANTS, Capture::Terminal, 30_000),
        (CHICKS, Capture::Played, 300),
    ] {
        for mirror in [true, false] {
            let game = Dobutsu::from_start(parse(start), mirror, capture, &NoProgress).unwrap();
            let n = game.position_count();
            let positions = sample_positions(n, samples, 7);
            let report = check_game(&game, positions, 5);
            assert!(
                report.is_ok(),
                "{start} mirror {mirror}: {}",
                report.show(&game)
            );
        }
    }
}

#[test]
fn folding_mirror_images_changes_no_value() {
    for (start, capture) in [(CHICKS, Capture::Played), (ELEPHANTS, Capture::Terminal)] {
        let folded = Dobutsu::from_start(parse(start), true, capture, &NoProgress).unwrap();
        let whole = Dobutsu::from_start(parse(start), false, capture, &NoProgress).unwrap();
        // Each folded position stands for one or two unfolded ones.
        assert!(folded.reachable() < whole.reachable());
        assert!(2 * folded.reachable() > whole.reachable());
        // Solved side by side on the pool's threads. In test builds the
        // lean engine's batches are of 3 positions (so that small games
        // cross them), a fork-join each: from a thread outside the pool
        // every one is a hand-over to the pool and back, and the 9.6
        // million positions here took 75 s; from inside, 7 s.
        let (f, w) = rayon::join(
            || solve_game(&folded, &Rules::normal()).unwrap(),
            || solve_game(&whole, &Rules::normal()).unwrap(),
        );
        for p in 0..whole.reachable() as u32 {
            let b = whole.board(p).unwrap();
            let q = folded.position(&b).expect("every position folds to one");
            assert_eq!(w.value(p), f.value(q), "{}", whole.show(p));
            let m = folded.position(&b.mirrored());
            assert_eq!(m, Some(q));
        }
        assert_eq!(
            f.value(folded.start()),
            w.value(whole.start()),
            "the start's value"
        );
    }
}

#[test]
fn the_lean_solve_matches_the_queue_solver_and_verifies() {
    for capture in [Capture::Played, Capture::Terminal] {
        lean_matches_queue(capture);
    }
}

fn lean_matches_queue(capture: Capture) {
    let game = Dobutsu::from_start(parse(CHICKS), true, capture, &NoProgress).unwrap();
    let lean = solve_game(&game, &Rules::normal()).unwrap();
    let m = materialise(&game, CsrBuilder::new()).unwrap();
    let full = solve(&m.graph, &m.rules(&Rules::normal())).unwrap();
    for p in 0..game.position_count() as u32 {
        assert_eq!(lean.value(p), full.value(p), "{}", game.show(p));
    }
    let report = retrograde::verify(lean.graph(), lean.rules(), &lean, 5).unwrap();
    assert!(report.is_ok(), "{:?}", report.violations);
    // On more threads, the batched walk gives the same answers.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let batched = pool.install(|| solve_game(&game, &Rules::normal()).unwrap());
    assert_eq!(batched.into_values(), lean.into_values());
}

#[test]
fn capturing_the_lion_or_a_safe_try_ends_the_game() {
    // Our giraffe attacks their lion: we win at once.
    let b = parse("3/1l1/1G1/1L1 b -");
    assert_eq!(b.terminal(), Some(Outcome::Win));
    assert_eq!(b.move_count(), 0);
    // Their lion on our home rank, out of our reach: their try succeeded.
    let b = parse("L2/3/3/2l b -");
    assert_eq!(b.terminal(), Some(Outcome::Lose));
    // The same try, but our lion stands next to theirs: we capture it.
    let b = parse("3/3/1L1/2l b -");
    assert_eq!(b.terminal(), Some(Outcome::Win));
    // A lion that steps onto the far rank is not yet a win: the opponent
    // moves next, and loses only if it cannot capture the lion.
    let b = parse("2l/L2/3/3 b -");
    assert_eq!(b.terminal(), None);
    let (_, after) = b
        .for_each_moves_named()
        .into_iter()
        .find(|(name, _)| name == "La2-a1")
        .unwrap();
    assert_eq!(after, "L1l/3/3/3 w -");
    assert_eq!(parse(&after).terminal(), Some(Outcome::Lose));
    // Had their lion stood next to a1, it would capture ours.
    assert_eq!(parse("Ll1/3/3/3 w -").terminal(), Some(Outcome::Win));
}

#[test]
fn chicks_promote_on_the_far_rank_and_captured_hens_return_as_chicks() {
    // Our chick on b2 steps to b1: promoted to a hen.
    let b = parse("l2/1C1/3/2L b -");
    let after: Vec<String> = b
        .for_each_moves_named()
        .into_iter()
        .filter(|(name, _)| name.starts_with('C'))
        .map(|(name, after)| format!("{name} {after}"))
        .collect();
    assert_eq!(after, ["Cb2-b1+ lH1/3/3/2L w -"]);
    // Their lion takes our hen: a chick in its hand.
    let b = parse("lH1/3/3/2L w -");
    let takes: Vec<String> = b
        .for_each_moves_named_as(false)
        .into_iter()
        .filter(|(name, _)| name.contains('x'))
        .map(|(name, after)| format!("{name} {after}"))
        .collect();
    assert_eq!(takes, ["La1xb1 1l1/3/3/2L b c"]);
    // A chick dropped on the far rank stays a chick and cannot move.
    let b = parse("2l/3/3/L2 b C");
    let drop = b
        .for_each_moves_named()
        .into_iter()
        .find(|(name, _)| name == "C*a1")
        .unwrap();
    assert_eq!(drop.1, "Cl1/3/3/L2 w -".replace("Cl1", "C1l"));
    let b = parse("C1l/3/3/L2 b -");
    let chick_moves = b
        .for_each_moves_named()
        .into_iter()
        .filter(|(name, _)| name.starts_with('C'))
        .count();
    assert_eq!(chick_moves, 0);
}

#[test]
fn drops_go_on_every_empty_square_once_per_kind() {
    // Two chicks and a giraffe in hand, 8 empty squares (4 are taken):
    // 2 kinds x 8 squares of drops, and the lion's 3 steps (a3, b4, and
    // the capture on b3).
    let b = parse("l2/3/1e1/L1g b 2CG");
    let mut drops = 0;
    b.for_each_move(|m, _| drops += u32::from(m.from.is_none()));
    assert_eq!(drops, 16);
    assert_eq!(b.move_count(), 16 + 3);
}

#[test]
fn the_start_has_the_published_opening_moves() {
    let b = Board::start();
    assert_eq!(b.move_count(), 4);
    assert_eq!(b.terminal(), None);
    // Every position of a sample of a small game, unnumbered and numbered
    // back, is itself.
    let game = Dobutsu::from_start(parse(ELEPHANTS), true, Capture::Played, &NoProgress).unwrap();
    for p in sample_positions(game.reachable() as usize, 5_000, 3) {
        assert_eq!(game.position(&game.board(p).unwrap()), Some(p));
    }
    assert_eq!(game.board(game.reachable() as u32), None);
    // A start with two lions of one side is refused.
    let mut bad = Board::start();
    bad.cells[1] = board::LION;
    let e = Dobutsu::from_start(bad, true, Capture::Played, &NoProgress).unwrap_err();
    assert!(e.to_string().contains("one lion a side"), "{e}");
}

/// Through the registry, as every tool solves it: the captured lion is kept
/// (moves to it are valued) but not counted, and the keys come in order.
#[test]
fn the_registry_s_solve_leaves_the_captured_lion_uncounted() {
    use retrograde::registry::{How, KeyOrder, Solvable};
    let meta = retrograde::db::Meta::new("dobutsu").param("start", "1l1/1c1/1C1/1L1 b -");
    let game = crate::registry().open(&meta).unwrap();
    let start = parse("1l1/1c1/1C1/1L1 b -");
    let explored =
        Dobutsu::from_start(start, true, Capture::Played, &retrograde::NoProgress).unwrap();
    let solved = game.solve(&How::default()).unwrap();
    let captured = explored.captured().unwrap();
    assert_eq!(solved.uncounted(), vec![captured]);
    assert_eq!(solved.answers().len() as u64, explored.reachable() + 1);
    assert_eq!(solved.key_order(), KeyOrder::Increasing);
    let keys: Vec<u64> = (0..solved.answers().len() as u32)
        .map(|i| solved.key(i).unwrap())
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(solved.start(), Some(explored.start()));
    assert!(!Solvable::counts_by_side(&*game));
}

#[test]
fn the_drawing_has_the_board_and_each_hand_two_places_a_kind() {
    use retrograde::play::Playable;
    let setup = Setup::new(parse("1l1/3/3/1L1 b 2Cg"), true, false, Capture::Played);
    let d = setup.drawing(setup.start().unwrap()).unwrap();
    assert_eq!(d.places().len(), 12 + 12);
    let pieces: Vec<(&str, &str)> = d
        .pieces()
        .map(|(at, pc)| (at.name.as_str(), pc.name.as_str()))
        .collect();
    assert_eq!(
        pieces,
        [
            ("Gote's hand, giraffe 1", "Gote's giraffe"),
            ("Sente's hand, chick 1", "Sente's chick"),
            ("Sente's hand, chick 2", "Sente's chick"),
            ("b1", "Gote's lion"),
            ("b4", "Sente's lion"),
        ]
    );
}
