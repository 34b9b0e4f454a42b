//! The built-in games' registry: a database's header is decoded strictly,
//! each fault named; defaults fill what it leaves out.

use retrograde::db::Meta;
use retrograde::registry::{Entry, GameError, Solvable};

fn open(meta: Meta) -> Result<Box<dyn Solvable>, GameError> {
    retrograde_games::registry().open(&meta)
}

#[test]
fn a_header_is_decoded_strictly_each_fault_named() {
    let e = open(Meta::new("go")).err().unwrap();
    assert!(
        matches!(&e, GameError::Unknown { game, .. } if game == "go"),
        "{e}"
    );
    assert!(e.to_string().contains("tic-tac-toe"), "{e}");
    let e = open(Meta::new("tic-tac-toe").param("mirror", true))
        .err()
        .unwrap();
    assert!(
        matches!(&e, GameError::Unexpected { field, .. } if field == "mirror"),
        "{e}"
    );
    let e = open(Meta::new("tic-tac-toe").param("symmetry", "yes"))
        .err()
        .unwrap();
    assert!(
        matches!(
            &e,
            GameError::BadValue {
                field: "symmetry",
                ..
            }
        ),
        "{e}"
    );
    let e = open(Meta::new("cop-thief")).err().unwrap();
    assert!(
        matches!(&e, GameError::Missing { field: "board", .. }),
        "{e}"
    );
    let e = open(Meta::new("chess").variant("KXK")).err().unwrap();
    assert!(
        matches!(&e, GameError::Variant { variant, .. } if variant == "KXK"),
        "{e}"
    );
    let e = open(Meta::new("teeko").variant("big")).err().unwrap();
    assert!(matches!(&e, GameError::Variant { .. }), "{e}");
    let e = open(Meta::new("dobutsu").param("capture", "maybe"))
        .err()
        .unwrap();
    assert!(
        matches!(
            &e,
            GameError::BadValue {
                field: "capture",
                ..
            }
        ),
        "{e}"
    );
    let e = open(Meta::new("dobutsu").param("start", "gle"))
        .err()
        .unwrap();
    assert!(matches!(&e, GameError::Refused { .. }), "{e}");
}

#[test]
fn defaults_fill_what_a_header_leaves_out_and_are_written_back() {
    let game = open(Meta::new("tic-tac-toe")).unwrap();
    assert_eq!(
        game.meta().params.get("symmetry").map(String::as_str),
        Some("true")
    );
    let game = open(Meta::new("chess").variant("KRK").param("symmetry", false)).unwrap();
    assert_eq!(retrograde::play::describe(&game.meta()), "chess KRK");
    assert_eq!(
        game.meta().params.get("symmetry").map(String::as_str),
        Some("false")
    );
}

#[test]
fn a_later_entry_of_the_same_name_takes_the_place_of_the_first() {
    let games = retrograde_games::registry().with(Entry::new("teeko", "another", |_| {
        Err(GameError::Missing {
            game: "teeko".into(),
            field: "x",
        })
    }));
    assert_eq!(
        games.entries().len(),
        retrograde_games::registry().entries().len()
    );
    assert_eq!(games.get("teeko").unwrap().about(), "another");
}
