"""Games written in Python: tic-tac-toe from its rules, with and without its
symmetries folded, against the published counts (5,478 positions; a tie)."""

import json
import sys
import subprocess

import pytest

import retrograde
from conftest import ROOT

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    """A position is the board as a 9-character string; X moves first."""

    def starts(self):
        return ["." * 9]

    def to_move(self, p):
        return "X" if p.count("X") == p.count("O") else "O"

    def terminal(self, p):
        for a, b, c in LINES:
            if p[a] != "." and p[a] == p[b] == p[c]:
                return "lose"  # the player who just moved made the line
        return "tie" if "." not in p else None

    def moves(self, p):
        mark = self.to_move(p)
        return [p[:i] + mark + p[i + 1:] for i in range(9) if p[i] == "."]


# The 8 symmetries of the square, as permutations of the 9 cells.
SYMMETRIES = [(0, 1, 2, 3, 4, 5, 6, 7, 8), (6, 3, 0, 7, 4, 1, 8, 5, 2), (8, 7, 6, 5, 4, 3, 2, 1, 0),
              (2, 5, 8, 1, 4, 7, 0, 3, 6), (2, 1, 0, 5, 4, 3, 8, 7, 6), (6, 7, 8, 3, 4, 5, 0, 1, 2),
              (0, 3, 6, 1, 4, 7, 2, 5, 8), (8, 5, 2, 7, 4, 1, 6, 3, 0)]


class FoldedTicTacToe(TicTacToe):
    def canonical(self, p):
        return min("".join(p[i] for i in s) for s in SYMMETRIES)


def test_tic_tac_toe_from_its_rules_is_a_tie_over_5478_positions():
    s = retrograde.solve_game(TicTacToe())
    assert len(s) == 5478
    assert s.value("." * 9) == ("tie", 9)
    assert s.counts()["tie"] + s.counts()["win"] + s.counts()["lose"] == 5478
    # X in the centre: O to move ties in 8; after O on an edge, X wins in 5.
    assert s.value("....X....") == ("tie", 8)
    assert s.value("....X..O.") == ("win", 5)
    moves = s.moves("X...O....")
    assert moves[0].outcome == "tie" and moves[0].delta == 0
    line = s.line("." * 9)
    assert len(line) == 10 and line[0] == "." * 9 and "." not in line[-1]


def test_folded_symmetries_give_765_classes_with_the_same_values():
    whole = retrograde.solve_game(TicTacToe())
    folded = retrograde.solve_game(FoldedTicTacToe())
    assert len(folded) == 765
    for p in whole.names:
        assert folded.value(p) == whole.value(p)


def test_progress_is_told_and_errors_of_the_game_come_through():
    seen = []
    retrograde.solve_game(TicTacToe(), progress=lambda done, found: seen.append((done, found)))
    # Every 100,000 positions: none for 5,478.
    assert seen == []

    class TakeAway:
        def starts(self):
            return [250_000]

        def moves(self, p):
            return [p - k for k in (1, 2, 3) if k <= p]

    retrograde.solve_game(TakeAway(), progress=lambda done, found: seen.append((done, found)))
    assert [done for done, _ in seen] == [100_000, 200_000]
    assert all(found >= done for done, found in seen)

    class Broken(TicTacToe):
        def moves(self, p):
            if p.count("X") == 2:
                raise RuntimeError("a bug in the rules")
            return super().moves(p)

    with pytest.raises(RuntimeError, match="a bug in the rules"):
        retrograde.solve_game(Broken())

    class BadTerminal(TicTacToe):
        def terminal(self, p):
            return "maybe" if "X" in p else None

    with pytest.raises(ValueError, match="no outcome"):
        retrograde.solve_game(BadTerminal())

    # `p == 0 and "lose"` is False where the game goes on: read as not over.
    class Falsy(TakeAway):
        def terminal(self, p):
            return p == 0 and "lose"

    falsy = retrograde.solve_game(Falsy())
    assert falsy.value(250_000) == retrograde.solve_game(TakeAway()).value(250_000)

    class SaysTrue(TakeAway):
        def terminal(self, p):
            return p == 0

    with pytest.raises(TypeError, match="expected an outcome"):
        retrograde.solve_game(SaysTrue())

    # Every 100,000th position is told, terminal or not.
    class EndsOften(TakeAway):
        def terminal(self, p):
            return "lose" if p % 100_000 == 1 else None

    told = []
    retrograde.solve_game(EndsOften(), progress=lambda done, found: told.append(done))
    assert told == [100_000, 200_000], told
    with pytest.raises(ValueError, match="more than 100 positions"):
        retrograde.solve_game(TicTacToe(), max_positions=100)
    with pytest.raises(KeyError, match="not a position"):
        retrograde.solve_game(TicTacToe()).value("XXXXXXXXX")


def test_a_game_with_cycles_draws():
    class Chase:
        """Two squares and a pit: a token moves to the other square or into
        the pit from square 1 only; the player facing the pit loses."""

        def starts(self):
            return ["a"]

        def moves(self, p):
            return {"a": ["b"], "b": ["a", "pit"], "pit": []}[p]

    s = retrograde.solve_game(Chase())
    assert s.value("b") == ("win", 1) and s.value("a") == ("lose", 2)


def test_a_saved_game_is_played_by_the_command_line(cli, tmp_path):
    s = retrograde.solve_game(TicTacToe())
    db = tmp_path / "ttt.db"
    s.save(str(db), name="tic-tac-toe in Python")
    # Positions are read and shown by name (str of the position), the
    # start kept: `play` starts there, the moves named as the game's.
    out = subprocess.run([cli, "query", str(db), "." * 9, "--json"], check=True,
                         capture_output=True, text=True).stdout
    q = json.loads(out)
    assert (q["outcome"], q["remoteness"]) == ("tie", 9)
    assert sorted(m["position"] for m in q["moves"]) == sorted(s.names[1:10])
    played = subprocess.run([cli, "play", str(db), "--you", "both"], input="X........\nq\n",
                            check=True, capture_output=True, text=True).stdout
    assert "your move: X........" in played, played
    # By number too, as before names were kept.
    out = subprocess.run([cli, "query", str(db), str(s.number("X........"))], check=True,
                         capture_output=True, text=True).stdout
    assert out.startswith("X........: tie in 8"), out


def test_names_that_repeat_or_break_lines_are_refused_when_saving(tmp_path):
    class Pair:
        def starts(self):
            return [1]

        def moves(self, p):
            return ["1"] if p == 1 else []

    s = retrograde.solve_game(Pair())
    with pytest.raises(ValueError, match='both named "1"'):
        s.save(str(tmp_path / "pair.db"))
    assert not (tmp_path / "pair.db").exists()

    class Named(Pair):
        def notation(self, p):
            return f"{type(p).__name__} {p}"

    assert retrograde.solve_game(Named()).save(str(tmp_path / "pair.db")) > 0
    with pytest.raises(ValueError, match="one line"):
        s.solved.save(str(tmp_path / "x.db"), names=["a\nb", "c"])


def test_a_game_s_show_draws_its_positions_and_names_them_in_a_saved_database(cli, tmp_path):
    class Drawn(TicTacToe):
        def show(self, p):
            return "\n".join(p[i:i + 3] for i in (0, 3, 6))

    s = retrograde.solve_game(Drawn())
    assert s.show("X...O....") == "X..\n.O.\n..."
    assert s.notation("X...O....") == "X../.O./..."
    s.save(str(tmp_path / "drawn.db"))
    out = subprocess.run([cli, "query", str(tmp_path / "drawn.db"), ".../.../...", "--json"],
                         check=True, capture_output=True, text=True).stdout
    assert json.loads(out)["outcome"] == "tie"


class Charger:
    """examples/arenas/charger.gm written as a Python game: a robot
    (player 0) wants the charger (vertex 3); the doors (player 1) keep it
    away. Each position names who moves there, so a player may move twice
    in a row."""

    moves_of = {0: [1, 4, 7], 1: [2], 2: [3, 5], 3: [3], 4: [4, 0], 5: [6, 2], 6: [6, 1], 7: [2]}
    owners = {0: 0, 1: 1, 2: 0, 3: 1, 4: 1, 5: 1, 6: 0, 7: 0}

    def starts(self):
        return list(range(8))

    def moves(self, p):
        return self.moves_of[p]

    def terminal(self, p):
        return "lose" if p == 3 else None

    def owner(self, p):
        return self.owners[p]


def test_a_game_whose_positions_name_their_mover_solves_as_its_arena(cli, tmp_path):
    s = retrograde.solve_game(Charger())
    arena = subprocess.run([cli, "solve", str(ROOT / "examples/arenas/charger.gm"), "--reach", "2",
                            "-o", "-", "-q"], check=True, capture_output=True, text=True).stdout
    for line in arena.splitlines():
        v, outcome, rem, _ = line.split("\t")
        assert s.value(int(v)) == (outcome, None if rem == "-" else int(rem)), line
    # 0 moves to 7, where the robot moves again: a win for the mover.
    assert (7, "win", 3) in [(m.to, m.outcome, m.remoteness) for m in s.moves(0)]
    db = tmp_path / "charger.db"
    s.save(str(db))
    q = json.loads(subprocess.run([cli, "query", str(db), "5", "--json"], check=True,
                                  capture_output=True, text=True).stdout)
    assert (q["to_move"], q["outcome"], q["remoteness"]) == ("player 1", "lose", 4)


def test_an_owner_other_than_0_or_1_is_refused():
    class Bad(Charger):
        def owner(self, p):
            return 2

    with pytest.raises(ValueError, match=r"owner\(0\) is 2: expected 0 or 1"):
        retrograde.solve_game(Bad())


def test_a_saved_game_is_loaded_back_with_every_answer_it_had(tmp_path):
    s = retrograde.solve_game(TicTacToe())
    db = tmp_path / "ttt.db"
    s.save(str(db), name="tic-tac-toe in Python")
    d = retrograde.load(str(db))
    assert len(d) == len(s) == 5478
    assert (d.game, d.params["name"], d.start) == ("graph", "tic-tac-toe in Python", "." * 9)
    for p in s.names:
        assert d.value(p) == s.value(p) == d[p]
        # By number too.
        assert d.value(s.number(p)) == s.value(p)
        mine = [(m.to, m.outcome, m.remoteness, m.delta) for m in d.moves(p)]
        assert mine == [tuple(m)[:4] for m in s.moves(p)], p
    assert d.line("." * 9) == s.line("." * 9)
    assert "nonsense" not in d
    with pytest.raises(ValueError, match="nonsense"):
        d.value("nonsense")
    with pytest.raises(TypeError, match="expected a position"):
        d.value(1.5)


def test_a_built_in_game_s_database_is_loaded_and_asked_in_its_notation(cli, tmp_path):
    db = tmp_path / "ttt.db"
    subprocess.run([cli, "game", "tic-tac-toe", "--save", str(db), "-q"], check=True)
    d = retrograde.load(str(db))
    assert (d.game, len(d), d.start) == ("tic-tac-toe", 765, ".../.../...")
    assert d.value(d.start) == ("tie", 9)
    best = d.moves(d.start)[0]
    assert (best.name, best.to, best.outcome, best.delta) == ("a3", "x../.../...", "tie", 0)
    assert len(d.line(d.start)) == 10
    query = subprocess.run([cli, "query", str(db), "x../.o./...", "--json"], check=True,
                           capture_output=True, text=True).stdout
    q = json.loads(query)
    assert d.value("x../.o./...") == (q["outcome"], q["remoteness"])
    with pytest.raises(OSError, match="ttt.db"):
        retrograde.load(str(tmp_path / "missing" / "ttt.db"))


class Count:
    """0 -> 1 -> ... -> n: one position after another."""

    def __init__(self, n):
        self.n = n

    def starts(self):
        return [0]

    def moves(self, p):
        return [p + 1] if p < self.n else []


def test_a_notebook_sees_tqdm_s_bar_and_a_summary(monkeypatch, capsys):
    shown = []

    class Bar:
        def __init__(self, **kwargs):
            self.n, self.total, self.closed = 0, kwargs.get("total"), False
            shown.append(self)

        def update(self, k):
            self.n += k

        def refresh(self):
            pass

        def close(self):
            self.closed = True

    fake = type(sys)("tqdm.auto")
    fake.tqdm = Bar
    monkeypatch.setitem(sys.modules, "tqdm", type(sys)("tqdm"))
    monkeypatch.setitem(sys.modules, "tqdm.auto", fake)
    # In Jupyter, ipykernel is loaded and standard error is no terminal.
    monkeypatch.setitem(sys.modules, "ipykernel", type(sys)("ipykernel"))
    s = retrograde.solve_game(Count(250_000))
    assert len(s) == 250_001
    [bar] = shown
    assert bar.closed and bar.n == 200_000 and bar.total >= 200_000
    assert "250,001 positions, 250,000 moves" in capsys.readouterr().err
    # A graph's solve too: a bar, left at its total and closed.
    shown.clear()
    retrograde.solve_edges(list(range(1000)), list(range(1, 1001)))
    [bar] = shown
    assert bar.closed and bar.n == bar.total > 0
    # Nobody watching (no notebook, no terminal): nothing at all.
    monkeypatch.delitem(sys.modules, "ipykernel")
    shown.clear()
    retrograde.solve_game(Count(250_000))
    assert shown == [] and capsys.readouterr().err == ""


class NamedTicTacToe(FoldedTicTacToe):
    def move_name(self, p, q):
        cell = next(i for i in range(9) if p[i] != q[i])
        return "abc"[cell % 3] + "321"[cell // 3]


def test_a_game_with_symmetries_answers_in_positions_as_played():
    game = NamedTicTacToe()
    folded = retrograde.solve_game(game)
    whole = retrograde.solve_game(TicTacToe())
    for p in ["." * 9, "X........", "....X...O", "X.O.X...."]:
        moves = folded.moves(p)
        # Every move as played from p, none a mirror image, valued as without symmetries.
        assert sorted(m.to for m in moves) == sorted(game.moves(p))
        plain = {m.to: (m.outcome, m.remoteness, m.delta) for m in whole.moves(p)}
        assert all(plain[m.to] == (m.outcome, m.remoteness, m.delta) for m in moves)
        assert moves[0][1:4] == whole.moves(p)[0][1:4]
        assert all(m.name == game.move_name(p, m.to) for m in moves)
        line = folded.line(p)
        assert line[0] == p and len(line) == len(whole.line(p))
        for a, b in zip(line, line[1:]):
            assert b in game.moves(a)


def test_a_game_s_positions_are_numbered_by_an_index_read_as_a_mapping():
    """Exploring keeps positions' numbers in a native table, not a dict of
    ints: read like one, found by the positions' own hash and equality,
    pickled as its positions."""
    import pickle

    s = retrograde.solve_game(TicTacToe())
    index = s._index
    assert len(index) == len(s) == 5478
    assert list(index) == s.names
    for i in (0, 1, 2000, 5477):
        p = s.names[i]
        assert index[p] == i and p in index and index.get(p) == i
        # An equal position that is another object is found too.
        again = "".join(list(p))
        assert again is not p and index[again] == i
    assert "no such position" not in index
    assert index.get("no such position", -1) == -1
    with pytest.raises(KeyError):
        index["no such position"]
    back = pickle.loads(pickle.dumps(index))
    assert list(back) == s.names and back[s.names[77]] == 77
    # A position whose hash fails is the game's error, said as Python says it.
    with pytest.raises(TypeError, match="unhashable"):
        index[["a", "list"]]


def test_positions_whose_hashes_differ_only_in_high_bits_do_not_collide():
    """The native table cuts Python's hash to 32 bits after mixing it: ints
    that differ only above bit 32 (a board's mask in the high word) are
    told apart without comparing them one by one."""
    compared = [0]

    class Key(int):
        def __eq__(self, other):
            compared[0] += 1
            return int(self) == int(other)

        __hash__ = int.__hash__

    class Chain:
        def starts(self):
            return [Key(0)]

        def moves(self, p):
            i = int(p) >> 32
            return [Key((i + 1) << 32)] if i < 20_000 else []

    s = retrograde.solve_game(Chain())
    assert len(s) == 20_001
    # Each new position is looked for once and found absent: no equal
    # hash to compare with.
    assert compared[0] < 1_000, compared[0]
