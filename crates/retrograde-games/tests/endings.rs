//! Every built-in game says how a finished game ended, who won and why, in
//! its own words (`Playable::ending`); a game still going says nothing.

use retrograde::db::Meta;

/// The ending the game `meta` gives for `position`, read in its notation.
fn ending(meta: Meta, position: &str) -> Option<String> {
    let game = retrograde_games::registry().open(&meta).unwrap();
    let p = game.parse(position).unwrap();
    game.ending(p)
}

fn says(meta: Meta, position: &str, expected: &str) {
    assert_eq!(
        ending(meta, position).as_deref(),
        Some(expected),
        "{position}"
    );
}

#[test]
fn tic_tac_toe_names_the_line_s_owner_or_the_full_board() {
    let ttt = || Meta::new("tic-tac-toe");
    says(ttt(), "xxx/oo./...", "three in a row: X wins");
    says(ttt(), "oox/.x./x..", "three in a row: X wins");
    says(ttt(), "xox/xox/oxo", "the board is full: a tie");
    assert_eq!(ending(ttt(), "x../.o./..."), None);
}

#[test]
fn chess_tells_checkmate_from_stalemate_and_bare_kings() {
    let krk = || Meta::new("chess").variant("KQK");
    says(
        krk(),
        "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",
        "checkmate: white wins",
    );
    says(krk(), "k7/8/1Q6/8/8/8/8/K7 b - - 0 1", "stalemate: a draw");
    says(
        Meta::new("chess").variant("KRK"),
        "8/8/8/8/8/8/8/1k2K3 w - - 0 1",
        "insufficient material: a draw",
    );
    assert_eq!(ending(krk(), "8/8/8/8/8/2k5/8/1Q1K4 w - - 0 1"), None);
}

#[test]
fn nine_men_s_morris_names_the_side_left_with_two_stones() {
    let morris = || Meta::new("nine-mens-morris").variant("3-3");
    says(
        morris(),
        "WW./BBB/.../....../.../.../... w 0 0",
        "white has fewer than three stones: black wins",
    );
    assert_eq!(
        ending(morris(), "WWW/.../BBB/....../.../.../... w 0 0"),
        None
    );
}

#[test]
fn teeko_names_the_winner_of_four_in_a_row_or_a_square() {
    let teeko = || Meta::new("teeko");
    says(
        teeko(),
        "xxxx./ooo../...../...../..... o",
        "four in a row or a square: X wins",
    );
    says(
        teeko(),
        "oo.../oo.../xxx../...../....x x",
        "four in a row or a square: O wins",
    );
    assert_eq!(ending(teeko(), "...../...../..x../...../..... o"), None);
}

#[test]
fn dots_and_boxes_counts_the_boxes() {
    let game = retrograde_games::registry()
        .open(&Meta::new("dots-and-boxes"))
        .unwrap();
    let mut p = game.start().unwrap();
    assert_eq!(game.ending(p), None);
    // The first move each time, to the end: every line drawn.
    while let Some((_, next)) = game.moves(p).first().cloned() {
        p = next;
    }
    let how = game.ending(p).unwrap();
    assert!(how.starts_with("every box taken, "), "{how}");
}
