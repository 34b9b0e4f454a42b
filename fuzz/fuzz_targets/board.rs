//! The cop-and-thief board reader on arbitrary bytes: a board or a typed
//! error, never a panic. A board that reads is well formed (every cell on
//! it, the two starts distinct free cells); a small one makes a game whose
//! moves and reverse moves agree, whose on-the-fly solve equals the solve of
//! its explicit graph, and whose verdict is one of the three printed lines.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrograde::game::{check_game, materialise};
use retrograde_games::cop_thief::{Board, Cell, CopThief};
use retrograde::{solve, solve_game, Answers, CsrBuilder, Game};

/// Boards up to this many free cells (2F² = 1152 positions) are solved.
const SOLVE_FREE_CELLS: usize = 24;

fuzz_target!(|data: &[u8]| {
    let Ok(board) = Board::parse(data, "fuzz.txt") else {
        return;
    };
    let (rows, cols) = (board.rows(), board.cols());
    assert!(rows > 0 && cols > 0);
    let walls = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| board.cell(r, c) == Cell::Wall)
        .count();
    assert_eq!(board.free_cells(), rows * cols - walls);
    assert_ne!(board.cop(), board.thief());
    for (r, c) in [board.cop(), board.thief()] {
        assert_ne!(board.cell(r, c), Cell::Wall);
    }

    if board.free_cells() > SOLVE_FREE_CELLS {
        // Large: only the memory estimate, against a small limit.
        let _ = CopThief::check_memory(&board, 1 << 20);
        return;
    }
    let game = CopThief::new(board).expect("a small board makes a game");
    let n = game.position_count();
    assert!(check_game(&game, 0..n as u32, 4).is_ok());
    let lean = solve_game(&game, &game.rules()).unwrap();
    let m = materialise(&game, CsrBuilder::new()).unwrap();
    let queue = solve(&m.graph, &m.rules(&game.rules())).unwrap();
    for p in 0..n as u32 {
        assert_eq!(lean.outcome(p), queue.outcome(p), "position {p}");
        assert_eq!(lean.remoteness(p), queue.remoteness(p), "position {p}");
    }
    let verdict = game.verdict(&lean).to_string();
    assert!(
        ["Police catches the thief", "The thief escapes", "Draw"].contains(&verdict.as_str()),
        "{verdict}"
    );
});
