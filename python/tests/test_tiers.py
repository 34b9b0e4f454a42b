"""A tiered game written in Python, solved tier by tier into a directory by
the library's tier solver: the same values as the game solved whole, a run
taken up again from the tiers it finished, errors said."""

import json
import subprocess

import pytest

import retrograde


class Climb:
    """A pile of up to `top` stones: take 1 or 2, or (below the top of the
    pile's third) put one back. A tier is the pile's third: a move stays in
    its third or goes down. Putting back makes cycles inside a tier; a pile
    of 0 is lost for the player to move, a pile of 4 a tie (labelled); from
    12 a move leaves for a loop of its own (100 and 101, each moving only to
    the other: draws), a tier below the top third."""

    def __init__(self, top=14):
        self.top = top

    def starts(self):
        return [self.top]

    def moves(self, p):
        if p >= 100:
            return [201 - p]
        out = [p - k for k in (1, 2) if k <= p]
        if p % 3 != 2 and 0 < p < self.top:
            out.append(p + 1)
        if p == 12:
            out.append(100)
        return out

    def terminal(self, p):
        return "tie" if p == 4 else None

    def tier(self, p):
        return "loop" if p >= 100 else p // 3

    def child_tiers(self, t):
        if t == "loop":
            return []
        return [c for c in (t - 1,) if c >= 0] + (["loop"] if t == 4 else [])

    def tier_positions(self, t):
        if t == "loop":
            return [100, 101]
        return [p for p in range(3 * t, 3 * t + 3) if p <= self.top]

    def tier_name(self, t):
        return t if t == "loop" else f"third-{t}"

    def encode(self, p):
        return p

    def decode(self, n):
        return n


def test_a_tiered_python_game_has_the_values_of_the_whole_game(tmp_path):
    game = Climb()
    whole = retrograde.solve_game(game)
    tiered = retrograde.solve_tiers(game, str(tmp_path / "climb"))
    names = [t.name for t in tiered.tiers]
    assert sorted(names) == sorted(["loop"] + [f"third-{t}" for t in range(5)])
    # Children first.
    assert names.index("third-3") < names.index("third-4") > names.index("loop")
    assert len(tiered) == len(whole) == 17
    outcomes = set()
    for p in list(range(15)) + [100, 101]:
        assert tiered.value(p) == whole.value(p), p
        assert tiered[p] == whole[p]
        outcomes.add(whole.value(p).outcome)
        ours = [(m.to, m.outcome, m.remoteness, m.delta) for m in tiered.moves(p)]
        theirs = [(m.to, m.outcome, m.remoteness, m.delta) for m in whole.moves(p)]
        # Best first in both; equal moves may come in another order.
        assert sorted(ours, key=str) == sorted(theirs, key=str), p
        assert ours[:1] == theirs[:1] or ours[0][1:] == theirs[0][1:], p
    assert outcomes == {"win", "lose", "tie", "draw"}
    assert tiered.line(14)[0] == 14
    manifest = json.loads((tmp_path / "climb" / "tiers.json").read_text())
    assert sorted(t["name"] for t in manifest["tiers"]) == sorted(names)
    assert whole.value(12).outcome == "draw" or any(m.to == 100 for m in whole.moves(12))


def test_a_second_run_takes_the_finished_tiers_as_they_are(tmp_path):
    d = str(tmp_path / "climb")
    first = retrograde.solve_tiers(Climb(), d)
    assert not any(t.resumed for t in first.tiers)
    again = retrograde.solve_tiers(Climb(), d)
    assert all(t.resumed for t in again.tiers)
    assert [again.value(p) for p in range(15)] == [first.value(p) for p in range(15)]
    # Another game's name is refused in that directory.
    with pytest.raises(ValueError, match="the tiers of python, not of another game"):
        retrograde.solve_tiers(Climb(), d, name="another game")


def test_a_tiered_game_s_errors_come_through(tmp_path):
    class Broken(Climb):
        def moves(self, p):
            if p == 7:
                raise RuntimeError("no moves from 7 today")
            return super().moves(p)

    with pytest.raises(RuntimeError, match="no moves from 7 today"):
        retrograde.solve_tiers(Broken(), str(tmp_path / "broken"))

    class NoNumbers:
        def moves(self, p):
            return []

    with pytest.raises(TypeError, match="a tiered game needs tier"):
        retrograde.solve_tiers(NoNumbers(), str(tmp_path / "none"), roots=[0])

    class Undeclared(Climb):
        def child_tiers(self, t):
            return []

    with pytest.raises(ValueError, match="does not declare"):
        retrograde.solve_tiers(Undeclared(), str(tmp_path / "undeclared"))
    # A position no tier holds is a KeyError.
    s = retrograde.solve_tiers(Climb(), str(tmp_path / "climb"))
    with pytest.raises(KeyError):
        s.value(99)
    assert 99 not in s and 3 in s


def test_the_command_line_analyzes_a_python_game_s_tiers(cli, tmp_path):
    d = tmp_path / "climb"
    retrograde.solve_tiers(Climb(), str(d))
    out = subprocess.run([cli, "analyze", str(d), "--json"], check=True,
                         capture_output=True, text=True).stdout
    assert '"tier":"third-4"' in out
    assert '"positions":' in out


def test_a_run_stopped_by_the_game_s_error_keeps_only_whole_tiers(tmp_path):
    """A game that fails midway (an exception, Ctrl-C) stops the run: the
    tiers finished before are kept, none solved with the failure, and the
    next run, with the game mended, gives the values of the whole game."""
    for fail_at, error in [(7, RuntimeError), (10, KeyboardInterrupt), (100, RuntimeError)]:
        class Failing(Climb):
            def moves(self, p):
                if p == fail_at:
                    raise error(f"stopped at {p}")
                return super().moves(p)

        d = str(tmp_path / f"climb-{fail_at}")
        with pytest.raises(error, match=f"stopped at {fail_at}"):
            retrograde.solve_tiers(Failing(), d)
        again = retrograde.solve_tiers(Climb(), d)
        assert any(t.resumed for t in again.tiers) or fail_at < 9
        assert not all(t.resumed for t in again.tiers)
        whole = retrograde.solve_game(Climb())
        for p in list(range(15)) + [100, 101]:
            assert again.value(p) == whole.value(p), (fail_at, p)
