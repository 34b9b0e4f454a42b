//! Each built-in game as people play it agrees with the game the solver
//! runs on: notation reads back, named moves reach the positions the
//! solver's moves reach (as database keys, with multiplicity), and a
//! database written from a solve answers every position as the solve does.

use retrograde::db::{self, Database, Meta, Source};
use retrograde::play::{Playable, Probe};
use retrograde::registry::Numbered;
use retrograde::{Answers, Explorer, Game, StateGame};
use retrograde_games::chess::{Endgame, Ending};
use retrograde_games::cop_thief::{Board, CopThief};
use retrograde_games::dobutsu::{Capture, Dobutsu, notation};
use retrograde_games::teeko::Teeko;

fn sorted(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v
}

#[test]
fn chess_notation_reads_back_and_named_moves_are_the_solver_s_moves() {
    for ending in [Ending::KRK, Ending::KBNK] {
        let game = Endgame::new(ending, true);
        let explored = Explorer::new().explore(game).unwrap();
        for i in (0..explored.len() as u32).step_by(101) {
            let p = explored.position(i).unwrap().0;
            if game.terminal(&explored.position(i).unwrap()).is_some() {
                // The game is over (a piece taken, bare kings): no moves to name.
                continue;
            }
            assert_eq!(
                Playable::parse(&game, &Playable::notation(&game, p)).unwrap(),
                p
            );
            assert_eq!(game.key(p), Some(p), "explored positions are canonical");
            let named = sorted(
                game.moves(p)
                    .iter()
                    .map(|(_, q)| game.key(*q).unwrap())
                    .collect(),
            );
            let mut solver = Vec::new();
            game.for_each_move(&explored.position(i).unwrap(), |q| {
                solver.push(game.key(q.0).unwrap())
            });
            assert_eq!(named, sorted(solver), "{}", Playable::notation(&game, p));
        }
    }
}

#[test]
fn dobutsu_moves_by_name_reach_the_solver_s_positions() {
    let (start, sente) = notation::parse("1lc/3/3/CL1 b -").unwrap();
    for capture in [Capture::Played, Capture::Terminal] {
        let game = Dobutsu::from_start(start, true, capture, &retrograde::NoProgress).unwrap();
        let setup = game.setup(start, sente);
        let n = game.position_count() as u32;
        assert!(n > 1000, "{n}");
        let keys = game.keys();
        for p in 0..n {
            let key = game.key(p).unwrap();
            assert_eq!(key, keys[p as usize]);
            let code = setup.position_at(key);
            assert_eq!(setup.key(code), Some(key));
            if setup.notation(code) != "the lion captured" {
                assert_eq!(setup.parse(&setup.notation(code)).unwrap(), code);
            }
            let named = sorted(
                setup
                    .moves(code)
                    .iter()
                    .map(|(_, q)| setup.key(*q).unwrap())
                    .collect(),
            );
            let mut solver = Vec::new();
            game.for_each_move(p, |q| solver.push(game.key(q).unwrap()));
            assert_eq!(named, sorted(solver), "{}", setup.notation(code));
        }
    }
}

#[test]
fn teeko_and_cop_thief_moves_by_name_are_the_solver_s_moves() {
    let game = Teeko::new();
    let teeko = Numbered::new(&game, Meta::new("teeko"));
    let n = game.position_count() as u32;
    for p in (0..n).step_by(9973) {
        let code = u64::from(p);
        assert_eq!(teeko.parse(&teeko.notation(code)).unwrap(), code);
        let named = sorted(teeko.moves(code).iter().map(|(_, q)| *q).collect());
        let mut solver = Vec::new();
        if game.terminal(p).is_none() {
            game.for_each_move(p, |q| solver.push(u64::from(q)));
        }
        assert_eq!(named, sorted(solver), "{}", teeko.notation(code));
    }
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/boards/museum.txt"
    ))
    .unwrap();
    let game = CopThief::new(Board::parse(&text, "museum.txt").unwrap()).unwrap();
    let played = Numbered::new(&game, Meta::new("cop-thief"));
    for p in 0..game.position_count() as u32 {
        let code = u64::from(p);
        assert_eq!(played.parse(&played.notation(code)).unwrap(), code);
        let named = sorted(played.moves(code).iter().map(|(_, q)| *q).collect());
        let mut solver = Vec::new();
        game.for_each_move(p, |q| solver.push(u64::from(q)));
        assert_eq!(named, sorted(solver));
    }
}

/// A position's text refused by a game's parser comes back as that
/// parser's kind of fault, with its data: a caller matches on it, never on
/// the message.
#[test]
fn bad_notation_is_refused_with_the_game_s_kind_of_fault() {
    use retrograde_games::cop_thief::PositionErrorKind;
    use retrograde_games::dobutsu::{Setup, SfenErrorKind};
    use retrograde_games::tic_tac_toe::{BadBoard, TicTacToe};

    let game = CopThief::new(Board::parse(b"2 3\nP.T\n*..\n", "b.txt").unwrap()).unwrap();
    for (text, kind) in [
        ("cop 1,1 thief 1,3", PositionErrorKind::Words { found: 4 }),
        ("thief 1,1 cop 1,3 cop", PositionErrorKind::Order),
        (
            "cop 1;1 thief 1,3 cop",
            PositionErrorKind::Cell {
                found: "1;1".into(),
            },
        ),
        (
            "cop 1,1 thief 1,3 robber",
            PositionErrorKind::Side {
                found: "robber".into(),
            },
        ),
        ("cop 2,1 thief 1,3 cop", PositionErrorKind::NotFree),
        ("cop 1,1 thief 1,4 cop", PositionErrorKind::NotFree),
    ] {
        let e = Game::parse(&game, text).unwrap_err();
        assert_eq!(e.kind::<PositionErrorKind>(), Some(&kind), "{e}");
        assert_eq!((e.game.as_str(), e.text.as_str()), ("cop-thief", text));
    }
    assert!(Game::parse(&game, "cop 1,1 thief 1,3 thief").is_ok());

    // Dōbutsu: the notation's faults, and a board of another game's pieces.
    let (start, sente) = notation::parse("1lc/3/3/CL1 b -").unwrap();
    let setup = Setup::new(start, sente, true, Capture::Played);
    let e = setup.parse("1lc/3/3/CL1 x -").unwrap_err();
    assert_eq!(
        e.kind::<SfenErrorKind>(),
        Some(&SfenErrorKind::Side { found: "x".into() })
    );
    let e = setup.parse("gle/1c1/1C1/ELG b -").unwrap_err();
    assert_eq!(
        e.kind::<SfenErrorKind>(),
        Some(&SfenErrorKind::OtherPieces {
            game: [0, 0, 2],
            board: [2, 2, 2]
        })
    );

    // The tutorial's own kind, through the same door.
    let ttt = TicTacToe { symmetry: false };
    for (text, kind) in [
        ("x../.o.", BadBoard::Shape),
        ("x../.q./...", BadBoard::Cell('q')),
        ("xx./.../...", BadBoard::Marks),
    ] {
        let e = ttt.parse(text).unwrap_err();
        assert_eq!(e.kind::<BadBoard>(), Some(&kind), "{e}");
        // Not another game's kind.
        assert_eq!(e.kind::<SfenErrorKind>(), None);
    }
}

#[test]
fn a_database_answers_every_position_as_the_solve_does() {
    let (start, sente) = notation::parse("1lc/3/3/CL1 b -").unwrap();
    let game = Dobutsu::from_start(start, true, Capture::Played, &retrograde::NoProgress).unwrap();
    let sol = retrograde::solve_game(&game, &retrograde::Rules::normal()).unwrap();
    let keys = game.keys();
    let dir = retrograde::io::scratch_dir().unwrap();
    let path = dir.path().join("d.db");
    let setup = game.setup(start, sente);
    db::Writer::new(setup.meta())
        .write(
            &path,
            &Source {
                records: keys.len() as u64,
                value: |r: u64| sol.value(r as u32),
                keys: Some(&keys[..]),
                moves: None,
                names: None,
                grundy: None,
                owners: None,
            },
        )
        .unwrap();
    let d = Database::open(&path).unwrap();
    assert_eq!(d.meta(), &setup.meta());
    let probe = Probe {
        game: &setup,
        db: &d,
    };
    for p in 0..game.position_count() as u32 {
        let code = setup.position_at(game.key(p).unwrap());
        let answer = probe.answer(code).unwrap();
        assert_eq!(Some(answer.value), sol.value(p));
        // The best move's value is the position's, one ply on.
        if let Some(best) = answer.moves.first() {
            assert_eq!(best.value.outcome, answer.value.outcome);
            assert_eq!(best.value.remoteness, answer.value.remoteness);
            assert_eq!(best.delta.unwrap_or(0), 0);
        }
    }
    let empty = Meta::new("x");
    assert_ne!(d.meta(), &empty);
}

#[test]
fn a_graph_saved_with_names_and_a_start_is_read_and_shown_by_name() {
    use retrograde::io::names::Names;
    use retrograde::play::StoredGraph;
    // home -> away -> pit; pit has no move: pit loses, away wins, home loses.
    let g = retrograde::Csr::from_edges(3, &[(0, 1), (1, 2)]);
    let rules = retrograde::Rules::normal();
    let sol = retrograde::solve(&g, &rules).unwrap();
    let names = Names::from_list(["home", "away (far)", "pit"]).unwrap();
    let (offsets, targets) = db::graph_moves(&g, &rules);
    let dir = retrograde::io::scratch_dir().unwrap();
    let path = dir.path().join("named.db");
    db::Writer::new(Meta::new("graph").param("start", 0).param("name", "a walk"))
        .write(
            &path,
            &Source {
                records: 3,
                value: |r: u64| sol.value(r as u32),
                keys: None,
                moves: Some((&offsets[..], &targets[..])),
                names: Some(&names),
                grundy: None,
                owners: None,
            },
        )
        .unwrap();
    let d = Database::open(&path).unwrap();
    d.check().unwrap();
    assert_eq!(d.names().unwrap(), Some(names));
    let graph = StoredGraph::new(&d).unwrap();
    assert_eq!(graph.start(), Some(0));
    assert_eq!(retrograde::play::describe(d.meta()), "a walk");
    // A name with a space reads back whole; a number still names a vertex.
    assert_eq!(graph.parse("away (far)").unwrap(), 1);
    assert_eq!(graph.parse(" 2 ").unwrap(), 2);
    assert_eq!(graph.notation(2), "pit");
    assert_eq!(graph.moves(0), vec![("away (far)".to_string(), 1)]);
    let e = graph.parse("nowhere").unwrap_err();
    assert_eq!(
        e.kind::<retrograde::play::GraphErrorKind>(),
        Some(&retrograde::play::GraphErrorKind::UnknownName),
        "{e}"
    );
    let probe = Probe {
        game: &graph,
        db: &d,
    };
    let start = probe.answer(0).unwrap();
    assert_eq!(start.value, sol.value(0).unwrap());

    // A flipped byte in the names is refused, naming the section.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    let at = (0..bytes.len())
        .rev()
        .find(|&i| bytes[i] == b'p')
        .unwrap_or(last);
    bytes[at] ^= 0x20;
    let bad = dir.path().join("bad.db");
    std::fs::write(&bad, &bytes).unwrap();
    let d = Database::open(&bad).unwrap();
    let e = StoredGraph::new(&d).err().expect("damaged names refused");
    assert!(e.to_string().contains("names"), "{e}");
}

#[test]
fn a_database_written_without_names_keeps_the_header_it_had() {
    // The names' field is left out of the header when there are none, so
    // a graph's database is byte for byte what it was before names.
    let g = retrograde::Csr::from_edges(2, &[(0, 1)]);
    let sol = retrograde::solve(&g, &retrograde::Rules::normal()).unwrap();
    let dir = retrograde::io::scratch_dir().unwrap();
    let path = dir.path().join("plain.db");
    db::Writer::new(Meta::new("graph"))
        .write(&path, &db::dense(&sol))
        .unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let header = String::from_utf8_lossy(&bytes[24..4096]);
    assert!(!header.contains("names"), "{header}");
    assert_eq!(Database::open(&path).unwrap().names().unwrap(), None);
}

/// Take 1 or 2 from a pile; numbered or not.
struct Pile {
    numbered: bool,
}

impl StateGame for Pile {
    type Position = u8;
    fn starts(&self) -> Vec<u8> {
        vec![7]
    }
    fn for_each_move<F: FnMut(u8)>(&self, p: &u8, mut f: F) {
        (1..=2).filter(|&k| k <= *p).for_each(|k| f(p - k));
    }
    fn encode(&self, p: &u8) -> Option<u64> {
        self.numbered.then_some(u64::from(*p))
    }
    fn decode(&self, c: u64) -> Option<u8> {
        u8::try_from(c).ok().filter(|_| self.numbered)
    }
}

#[test]
fn a_game_without_numbers_says_it_cannot_be_saved_but_still_values_its_start() {
    use retrograde::explore::IdOrder;
    use retrograde::registry::{How, Rung, Solvable, States};
    for numbered in [false, true] {
        let game = States::new(Pile { numbered }, Meta::new("pile"));
        assert_eq!(game.numbered(), numbered);
        let solution = game.solve(&How::default()).unwrap();
        // The solution says which rung the game reached, and its ids' order.
        let by = solution.solved_by().unwrap();
        let rung = if numbered { Rung::Numbers } else { Rung::Rules };
        assert_eq!(by.rung, rung);
        assert_eq!(matches!(by.ids, Some(IdOrder::Found)), !numbered, "{by}");
        // 7 = 3·2 + 1: the player to move takes 1 and wins in 5.
        let v = solution.start_value().unwrap();
        assert_eq!(
            (v.outcome, v.remoteness),
            (retrograde::Outcome::Win, Some(5))
        );
    }
}

/// A token on squares 0..30 moves one to three squares left; under the
/// misère rule here (who cannot move wins), and every fourth square has a
/// name of its own.
struct Slide;

impl Game for Slide {
    fn position_count(&self) -> usize {
        30
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
        (1..=3).filter(|&k| k <= p).for_each(|k| f(p - k));
    }
    fn for_each_unmove<F: FnMut(u32)>(&self, p: u32, mut f: F) {
        (1..=3).filter(|&k| p + k < 30).for_each(|k| f(p + k));
    }
    fn starts(&self) -> Vec<u32> {
        vec![29]
    }
    fn notation(&self, p: u32) -> String {
        format!("square {p}")
    }
    fn move_name(&self, p: u32, q: u32) -> String {
        format!("{}", p - q)
    }
    fn no_move(&self) -> retrograde::NoMoveRule {
        retrograde::NoMoveRule::Win
    }
}

/// A user's numbered game reaches the tools in one registry line: its
/// start, its notation (the default parser reads numbers), its move names,
/// its rule for a position without moves, and every value as the lean
/// solve gives it.
#[test]
fn a_user_s_numbered_game_is_registered_in_one_line_and_answers_as_its_solve() {
    use retrograde::registry::{Entry, How};
    let games =
        retrograde_games::registry()
            .with(Entry::numbered_game("slide", "Slide left.", |_| Ok(Slide)));
    let game = games.open(&Meta::new("slide")).unwrap();
    assert_eq!(game.start(), Some(29));
    assert_eq!(game.notation(29), "square 29");
    assert_eq!(game.parse("12").ok(), Some(12));
    assert!(game.parse("30").is_err() && game.parse("square").is_err());
    let names: Vec<String> = game.moves(29).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["1", "2", "3"]);
    let rules = retrograde::Rules {
        no_move: retrograde::NoMoveRule::Win,
        ..retrograde::Rules::normal()
    };
    let expected = retrograde::solve_game(&Slide, &rules).unwrap();
    let solution = game.solve(&How::default()).unwrap();
    assert_eq!(
        solution.solved_by().map(|b| b.rung),
        Some(retrograde::registry::Rung::Dense)
    );
    for p in 0..30 {
        assert_eq!(solution.key(p), Some(u64::from(p)));
        assert_eq!(solution.answers().value(p), expected.value(p), "square {p}");
    }
    // Misère: square 0 wins at once, so 1 to 3 lose; 29 = 4·7 + 1 is lost.
    assert_eq!(
        solution.start_value().map(|v| v.outcome),
        Some(retrograde::Outcome::Lose)
    );
    let small = game.small_graph(100).unwrap().unwrap();
    assert_eq!(small.labels[5], "square 5");
    assert_eq!(small.rules.no_move, retrograde::NoMoveRule::Win);
}
