"""The Python package's benchmarks, each against its baseline in the same run.

    python python/bench/bench.py [--edges N]

1. Tic-tac-toe through OpenSpiel: retrograde.openspiel.solve against
   OpenSpiel's value_iteration (threshold 0.01), values compared; and the
   floor: a bare walk of OpenSpiel's states (child and str of every move,
   a dict of the states), which any solver through pyspiel pays. Then
   tic-tac-toe and connect four 4 x 4 against value_iteration with
   cyclic_game=True, which merges transpositions as retrograde does (the
   stronger baseline; the default enumerates the game tree).
2. A game written in Python (a take-away game on a pile of up to N counters,
   and tic-tac-toe from its rules): positions explored a second, and the
   share of the time spent in the game's own Python (measured by timing its
   methods).
3. A random graph of N edges (default 10^7) as numpy arrays against
   `retrograde solve` on the same graph as a binary .rgb file (its reverse
   adjacency stored, mapped) and as a text edge list (built, as from the
   arrays).

With --largest, also the larger OpenSpiel games (minutes, gigabytes).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import retrograde
import retrograde.openspiel

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from test_games import TicTacToe  # noqa: E402


def openspiel():
    import pyspiel
    from open_spiel.python.algorithms import value_iteration

    game = pyspiel.load_game("tic_tac_toe")
    t = time.perf_counter()
    ours = retrograde.openspiel.solve(game)
    ours_s = time.perf_counter() - t
    t = time.perf_counter()
    theirs = value_iteration.value_iteration(game, depth_limit=-1, threshold=0.01)
    theirs_s = time.perf_counter() - t
    values = ours.player0_values()
    same = set(values) == set(theirs) and all(abs(values[k] - v) < 1e-6 for k, v in theirs.items())
    t = time.perf_counter()
    start = game.new_initial_state()
    seen, queue = {str(start): start}, [start]
    for state in queue:
        if not state.is_terminal():
            for action in state.legal_actions():
                child = state.child(action)
                key = str(child)
                if key not in seen:
                    seen[key] = child
                    queue.append(child)
    walk_s = time.perf_counter() - t
    print(f"tic-tac-toe via OpenSpiel: retrograde {ours_s:.3f} s ({len(ours)} positions), "
          f"value_iteration {theirs_s:.3f} s ({len(theirs)} states): {theirs_s / ours_s:.1f}x; "
          f"values identical: {same}; a bare walk of the states {walk_s:.3f} s "
          f"(value_iteration / walk: {theirs_s / walk_s:.1f}x)")


def openspiel_cyclic(names=("tic_tac_toe", "connect_four(rows=4,columns=4)")):
    """Against value_iteration with cyclic_game=True, which merges
    transpositions (by the state's text) as retrograde does: the stronger
    baseline. Values compared on every state it returns."""
    import pyspiel
    from open_spiel.python.algorithms import value_iteration

    for name in names:
        game = pyspiel.load_game(name)
        t = time.perf_counter()
        ours = retrograde.openspiel.solve(game)
        ours_s = time.perf_counter() - t
        t = time.perf_counter()
        theirs = value_iteration.value_iteration(game, depth_limit=-1, threshold=0.01,
                                                 cyclic_game=True)
        theirs_s = time.perf_counter() - t
        values = ours.player0_values()
        same = set(values) == set(theirs) and all(abs(values[k] - v) < 1e-6
                                                  for k, v in theirs.items())
        print(f"{name} via OpenSpiel: retrograde {ours_s:.3f} s ({len(ours):,} positions), "
              f"value_iteration(cyclic_game=True) {theirs_s:.3f} s ({len(theirs):,} states): "
              f"{theirs_s / ours_s:.1f}x; values identical: {same}")


def largest():
    import resource

    import pyspiel

    for name in ["connect_four(rows=4,columns=4)", "breakthrough(rows=4,columns=4)",
                 "clobber(rows=4,columns=4)", "hex(num_rows=4,num_cols=3)",
                 "connect_four(rows=5,columns=4)", "connect_four(rows=4,columns=5)"]:
        t = time.perf_counter()
        s = retrograde.openspiel.solve(pyspiel.load_game(name))
        dt = time.perf_counter() - t
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{name}: {len(s):,} positions, {s.solved.edges:,} moves, start {tuple(s.value(s.start))}, "
              f"{dt:.1f} s, peak so far {peak:.0f} MiB")


class Timed:
    """A game whose methods' time is added up."""

    def __init__(self, game):
        self.game, self.seconds = game, 0.0
        for name in ("starts", "moves", "terminal"):
            if hasattr(game, name):
                setattr(self, name, self._timed(getattr(game, name)))

    def _timed(self, f):
        def g(*a):
            t = time.perf_counter()
            try:
                return f(*a)
            finally:
                self.seconds += time.perf_counter() - t
        return g


class TakeAway:
    """Take 1, 2 or 3 counters from a pile of up to `n`."""

    def __init__(self, n):
        self.n = n

    def starts(self):
        return [self.n]

    def moves(self, p):
        return [p - k for k in (1, 2, 3) if k <= p]


def python_games():
    for name, game in [("take-away, 10^6 counters", TakeAway(1_000_000)), ("tic-tac-toe", TicTacToe())]:
        t = time.perf_counter()
        s = retrograde.solve_game(game)
        total = time.perf_counter() - t
        timed = Timed(game)
        t = time.perf_counter()
        retrograde.solve_game(timed)
        timed_total = time.perf_counter() - t
        print(f"{name}: {len(s)} positions in {total:.3f} s, {len(s) / total:,.0f} positions/s; "
              f"the game's own Python {timed.seconds / timed_total:.0%} of a timed run")


def graph(edges, cli):
    n = edges // 4
    rng = np.random.default_rng(1)
    sources = rng.integers(0, n, edges, dtype=np.uint32)
    targets = rng.integers(0, n, edges, dtype=np.uint32)
    t = time.perf_counter()
    s = retrograde.solve_edges(sources, targets, n=n)
    ours = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as d:
        text = os.path.join(d, "g.txt")
        np.savetxt(text, np.stack([sources, targets], axis=1), fmt="%d")
        rgb = os.path.join(d, "g.rgb")
        subprocess.run([cli, "convert", text, rgb], check=True, capture_output=True)
        t = time.perf_counter()
        subprocess.run([cli, "solve", rgb, "-q"], check=True, capture_output=True)
        theirs = time.perf_counter() - t
        t = time.perf_counter()
        subprocess.run([cli, "solve", text, "-q"], check=True, capture_output=True)
        from_text = time.perf_counter() - t
    print(f"random graph, {n:,} positions, {edges:,} edges: numpy arrays {ours:.2f} s, "
          f"`retrograde solve` on .rgb {theirs:.2f} s ({ours / theirs:.2f}x), on the text edge list "
          f"{from_text:.2f} s ({ours / from_text:.2f}x); counts {s.counts()}")


if __name__ == "__main__":
    a = argparse.ArgumentParser()
    a.add_argument("--edges", type=int, default=10_000_000)
    a.add_argument("--largest", action="store_true")
    a.add_argument("--cli", default=os.path.join(os.path.dirname(__file__), "../../target/release/retrograde"))
    args = a.parse_args()
    openspiel()
    openspiel_cyclic()
    python_games()
    graph(args.edges, args.cli)
    if args.largest:
        largest()
