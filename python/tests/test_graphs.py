"""Graphs from numpy, scipy and networkx, checked against the command line."""

import random
import subprocess

import numpy as np
import pytest

import retrograde
from retrograde import DRAW, LOSE, OUTCOMES, WIN


def random_graph(seed):
    """A random graph with self-loops, parallel moves and labels of every kind."""
    rng = random.Random(seed)
    n = rng.randint(1, 40)
    m = rng.randint(0, 3 * n)
    sources = [rng.randrange(n) for _ in range(m)]
    targets = [rng.randrange(n) for _ in range(m)]
    labels = {v: rng.choice(["win", "lose", "tie", "draw"]) for v in rng.sample(range(n), rng.randint(0, n // 4))}
    return n, sources, targets, labels


def cli_solve(cli, tmp_path, n, sources, targets, labels, no_move):
    graph = tmp_path / "g.txt"
    graph.write_text(f"# vertices: {n}\n" + "".join(f"{u} {v}\n" for u, v in zip(sources, targets)))
    args = [cli, "solve", str(graph), "--vertices", str(n), "--output", "-", "-q"]
    if labels:
        terminal = tmp_path / "t.txt"
        terminal.write_text("".join(f"{v} {o}\n" for v, o in labels.items()))
        args += ["--terminal", str(terminal)]
    if no_move == "win":
        args += ["--no-move", "win"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    rows = [line.split("\t") for line in out.splitlines()]
    return ([r[1] for r in rows], [-1 if r[2] == "-" else int(r[2]) for r in rows],
            [-1 if r[3] == "-" else int(r[3]) for r in rows])


@pytest.mark.parametrize("seed", range(60))
def test_random_graphs_agree_with_the_command_line(cli, tmp_path, seed):
    n, sources, targets, labels = random_graph(seed)
    no_move = "win" if seed % 3 == 0 else "lose"
    s = retrograde.solve_edges(np.array(sources, dtype=np.int64), np.array(targets, dtype=np.int64),
                               n=n, terminal=(list(labels), list(labels.values())), no_move=no_move)
    outcomes, remoteness, best = cli_solve(cli, tmp_path, n, sources, targets, labels, no_move)
    assert [OUTCOMES[o] for o in s.outcome] == outcomes
    assert s.remoteness.tolist() == remoteness
    assert s.best_move.tolist() == best


def test_uint32_int32_and_int64_arrays_give_the_same_answers():
    n, sources, targets, labels = random_graph(7)
    a = retrograde.solve_edges(np.array(sources, dtype=np.uint32), np.array(targets, dtype=np.uint32), n=n)
    b = retrograde.solve_edges(np.array(sources, dtype=np.int64), np.array(targets, dtype=np.int64), n=n)
    c = retrograde.solve_edges(np.array(sources, dtype=np.int32), np.array(targets, dtype=np.int32), n=n)
    assert (a.outcome == b.outcome).all() and (a.remoteness == b.remoteness).all()
    assert (a.outcome == c.outcome).all() and (a.best_move == c.best_move).all()


def same_answers(a, b):
    return (a.outcome.tolist(), a.remoteness.tolist(), a.best_move.tolist()) == (
        b.outcome.tolist(), b.remoteness.tolist(), b.best_move.tolist())


@pytest.mark.parametrize("seed", range(8))
def test_edges_come_as_numpy_users_pass_them(seed):
    n, sources, targets, labels = random_graph(seed)
    reference = retrograde.solve_edges(np.array(sources, dtype=np.int64),
                                       np.array(targets, dtype=np.int64), n=n,
                                       terminal=(list(labels), list(labels.values())))
    edges = np.array([sources, targets], dtype=np.int64).T.reshape(-1, 2)
    given = [(edges[:, 0], edges[:, 1]), (sources, targets), (tuple(sources), tuple(targets))]
    given += [(np.array(sources, dtype=d), np.array(targets, dtype=d))
              for d in (np.int8, np.uint8, np.int16, np.uint16, np.uint64)]
    for s, t in given:
        # A dict of labels is the pair's equal.
        assert same_answers(retrograde.solve_edges(s, t, n=n, terminal=labels), reference)


def test_edges_that_cannot_be_positions_are_refused_by_name():
    big = np.array([1, 2**32 - 1], dtype=np.uint64)
    with pytest.raises(ValueError, match=r"targets\[1\] = 4294967295: a position is a number from 0 to 4294967294"):
        retrograde.solve_edges(np.array([0, 1], dtype=np.uint64), big)
    with pytest.raises(ValueError, match=r"sources: expected a one-dimensional array .* shape \(2, 2\)"):
        retrograde.solve_edges(np.zeros((2, 2), dtype=np.int64), [0, 1])
    with pytest.raises(TypeError, match="sources: expected integers"):
        retrograde.solve_edges(["a"], [0])
    # No moves at all: the positions n names, each lost at once.
    empty = retrograde.solve_edges([], [], n=3)
    assert empty.outcome.tolist() == [LOSE] * 3


@pytest.mark.parametrize("seed", range(20))
def test_every_engine_and_thread_count_gives_the_same_answers(seed):
    n, sources, targets, labels = random_graph(seed)
    no_move = "win" if seed % 3 == 0 else "lose"
    one = retrograde.solve_edges(sources, targets, n=n, terminal=labels, no_move=no_move,
                                 engine="sequential")
    assert (one.engine, one.threads, one.engine_reason) == ("sequential", 1, "asked for")
    for engine, threads in (("parallel", 2), ("parallel", 1), ("auto", 1), ("auto", 2),
                            ("auto", None)):
        other = retrograde.solve_edges(sources, targets, n=n, terminal=labels, no_move=no_move,
                                       engine=engine, threads=threads)
        assert same_answers(other, one), (engine, threads)


def test_the_solver_says_which_engine_ran_and_refuses_what_cannot_run():
    two = retrograde.solve_edges([0], [1], threads=2)
    assert (two.engine, two.threads, two.engine_reason) == ("parallel", 2, "more than one thread")
    one = retrograde.solve_edges([0], [1], threads=1)
    assert (one.engine, one.threads, one.engine_reason) == ("sequential", 1, "one thread")
    with pytest.raises(ValueError, match="engine='fast': expected 'auto', 'sequential' or 'parallel'"):
        retrograde.solve_edges([0], [1], engine="fast")
    with pytest.raises(ValueError, match="threads=0: expected at least 1"):
        retrograde.solve_edges([0], [1], threads=0)
    with pytest.raises(MemoryError):
        retrograde.solve_edges([0], [1], max_memory=16)
    game = retrograde.solve_game(Line(), engine="sequential", threads=1)
    assert game.solved.engine == "sequential"


class Line:
    """0 -> 1 -> 2 -> 3, 3 lost for the player to move."""

    def starts(self):
        return [0]

    def moves(self, p):
        return [p + 1] if p < 3 else []


def test_the_answers_are_arrays_with_named_codes():
    # 0 -> 1 -> 2; 3 <-> 4; 2 has no move.
    s = retrograde.solve_edges(np.array([0, 1, 3, 4]), np.array([1, 2, 4, 3]))
    assert s.outcome.dtype == np.uint8 and s.remoteness.dtype == np.int64
    assert s.outcome.tolist() == [LOSE, WIN, LOSE, DRAW, DRAW]
    assert s.line(0) == [0, 1, 2]
    assert s.value(3) == (DRAW, None)
    assert s.moves(1) == [(2, WIN, 1, 0)]
    assert s.counts() == {"win": 1, "lose": 2, "tie": 0, "draw": 2, "longest": 2}


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match=r"sources\[1\] = -1"):
        retrograde.solve_edges(np.array([0, -1]), np.array([1, 0]))
    with pytest.raises(ValueError, match="sources has 2 moves, targets 1"):
        retrograde.solve_edges(np.array([0, 1]), np.array([1]))
    with pytest.raises(TypeError, match="expected integers"):
        retrograde.solve_edges(np.array([0.5]), np.array([1.0]))
    with pytest.raises(ValueError, match="no outcome"):
        retrograde.solve_edges(np.array([0]), np.array([1]), terminal=([1], ["maybe"]))
    with pytest.raises(ValueError, match="no_move"):
        retrograde.solve_edges(np.array([0]), np.array([1]), no_move="tie")
    with pytest.raises(ValueError, match="not in the graph"):
        retrograde.solve_edges(np.array([0]), np.array([1])).line(5)


def test_the_boundary_keeps_the_command_line_s_promises():
    # A position numbered near 2**32 asks for more memory than the machine
    # has: refused before anything is allocated, the interpreter alive.
    with pytest.raises(MemoryError, match="would need"):
        retrograde.solve_edges(np.array([0], dtype=np.uint32), np.array([4294967294], dtype=np.uint32))
    # A position is any integer in range; others are ValueErrors, never OverflowErrors.
    solved = retrograde.solve_edges(np.array([0]), np.array([1]))
    for bad in (-1, 2, 2**40):
        for ask in (solved.value, solved.moves, solved.line):
            with pytest.raises(ValueError, match=f"position {bad} is not in the graph"):
                ask(bad)
    # A position labelled twice, differently, is refused naming both.
    with pytest.raises(ValueError, match="position 1 is labelled both win and lose"):
        retrograde.solve_edges(np.array([0]), np.array([1]), terminal=([1, 1], ["win", "lose"]))
    # The same label twice is one label.
    twice = retrograde.solve_edges(np.array([0]), np.array([1]), terminal=([1, 1], ["win", "win"]))
    assert twice.value(0)[0] == LOSE
    # A bool is no outcome.
    with pytest.raises(TypeError, match="expected an outcome"):
        retrograde.solve_edges(np.array([0]), np.array([1]), terminal=([1], [True]))


def test_scipy_matrices_and_networkx_graphs_give_the_numbered_answers():
    scipy = pytest.importorskip("scipy.sparse")
    nx = pytest.importorskip("networkx")
    n, sources, targets, labels = random_graph(11)
    by_number = retrograde.solve_edges(np.array(sources), np.array(targets), n=n,
                                       terminal=(list(labels), list(labels.values())))
    # Parallel moves are summed into one entry of a matrix: use a multigraph's.
    matrix = scipy.coo_matrix((np.ones(len(sources)), (sources, targets)), shape=(n, n))
    from_matrix = retrograde.solve_scipy(matrix, terminal=labels)
    assert (from_matrix.outcome == by_number.outcome).all()
    g = nx.MultiDiGraph()
    names = [f"v{i}" for i in range(n)]
    g.add_nodes_from(names)
    g.add_edges_from((names[u], names[v]) for u, v in zip(sources, targets))
    named = retrograde.solve_networkx(g, terminal={names[v]: o for v, o in labels.items()})
    for i, name in enumerate(names):
        o, r = by_number.value(i)
        assert named.value(name) == (OUTCOMES[o], r)
    start = names[0]
    assert named.line(start)[0] == start
    with pytest.raises(TypeError, match="directed"):
        retrograde.solve_networkx(nx.Graph())


def test_a_saved_graph_is_read_by_the_command_line(cli, tmp_path):
    s = retrograde.solve_edges(np.array([0, 1, 3, 4]), np.array([1, 2, 4, 3]))
    db = tmp_path / "g.db"
    assert s.save(str(db)) > 0
    out = subprocess.run([cli, "query", str(db), "0", "3"], check=True, capture_output=True, text=True).stdout
    assert "lose in 2" in out and "draw" in out, out
    # Solved with labels, which a database does not keep: verify says what to
    # give, a place for the graph named, as no graph file was read.
    labelled = retrograde.solve_edges(np.array([0, 1]), np.array([1, 2]), terminal=([2], ["win"]))
    labelled.save(str(tmp_path / "l.db"))
    v = subprocess.run([cli, "verify", str(tmp_path / "l.db")], capture_output=True, text=True)
    assert v.returncode == 2, v.stderr
    assert "retrograde verify GRAPH --terminal LABELS" in v.stderr, v.stderr


def test_numpy_moves_with_owners_solve_as_the_command_line_s_arena(cli, tmp_path):
    """examples/arenas/charger.txt with its owners and label, from arrays."""
    from conftest import ROOT

    pairs = [tuple(map(int, l.split())) for l in
             (ROOT / "examples/arenas/charger.txt").read_text().splitlines()
             if l and not l.startswith("#")]
    owners = [int(l.split()[1]) for l in
              (ROOT / "examples/arenas/charger.owners").read_text().splitlines()
              if l and not l.startswith("#")]
    s = retrograde.solve_edges(np.array([u for u, _ in pairs]), np.array([v for _, v in pairs]),
                               terminal=([3], ["lose"]), owners=owners)
    out = subprocess.run([cli, "solve", str(ROOT / "examples/arenas/charger.gm"), "--reach", "2",
                          "-o", "-", "-q"], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        v, outcome, rem, _ = line.split("\t")
        code = {"win": retrograde.WIN, "lose": retrograde.LOSE, "draw": retrograde.DRAW}[outcome]
        assert s.value(int(v)) == (code, None if rem == "-" else int(rem)), line
    with pytest.raises(ValueError, match=r"owners\[0\] = 2"):
        retrograde.solve_edges(np.array([0]), np.array([0]), owners=[2])
    with pytest.raises(ValueError, match="owners for a graph of"):
        retrograde.solve_edges(np.array([0]), np.array([1]), owners=[0])


def test_answers_are_cached_read_only_arrays_and_codes_name_in_one_step():
    s = retrograde.solve_edges([0, 1, 3, 4], [1, 2, 4, 3])
    for name in ("outcome", "remoteness", "best_move"):
        a = getattr(s, name)
        assert a is getattr(s, name), name
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a[0] = 1
    assert retrograde.OUTCOME_NAMES[s.outcome].tolist() == ["lose", "win", "lose", "draw", "draw"]
    assert repr(s) == ("Solved(5 positions, 4 moves: 1 win, 2 lose, 0 tie, 2 draw; "
                       f"the {s.engine} engine on {s.threads} thread{'' if s.threads == 1 else 's'})")
    assert retrograde.__version__.count(".") == 2


def test_a_named_solution_is_indexed_iterated_and_read_as_a_dict():
    nx = pytest.importorskip("networkx")
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("d", "e"), ("e", "d")])
    s = retrograde.solve_networkx(g)
    assert s["a"] == ("lose", 2) and s["d"] == ("draw", None)
    assert list(s) == ["a", "b", "c", "d", "e"]
    assert s.to_dict() == {p: s.value(p) for p in s}
    assert repr(s) == "NamedSolution(5 positions, 4 moves: 1 win, 2 lose, 0 tie, 2 draw)"
    with pytest.raises(KeyError, match="'z' is not a position"):
        s["z"]


@pytest.mark.parametrize("seed", range(12))
def test_a_pickled_solution_comes_back_with_every_answer(seed):
    import copy
    import pickle

    n, sources, targets, labels = random_graph(seed)
    owners = [random.Random(seed).randrange(2) for _ in range(n)] if seed % 4 == 1 else None
    no_move = "win" if seed % 3 == 0 else "lose"
    s = retrograde.solve_edges(sources, targets, n=n, terminal=labels, no_move=no_move,
                               owners=owners)
    back = pickle.loads(pickle.dumps(s))
    assert len(back) == len(s) and back.edges == s.edges
    assert same_answers(back, s)
    for v in range(n):
        assert back.moves(v) == s.moves(v) and back.line(v) == s.line(v)
    assert copy.copy(s) is s and copy.deepcopy(s) is s


def test_a_pickled_networkx_solution_answers_by_name():
    import pickle

    nx = pytest.importorskip("networkx")
    s = retrograde.solve_networkx(nx.DiGraph([("a", "b"), ("b", "c"), ("d", "e"), ("e", "d")]),
                                  terminal={"c": "tie"})
    back = pickle.loads(pickle.dumps(s))
    assert back.to_dict() == s.to_dict() and back["a"] == ("tie", 2)


def test_a_solve_tells_its_progress_and_a_callback_that_raises_stops_it():
    rng = np.random.default_rng(3)
    n, m = 200_000, 800_000
    sources, targets = rng.integers(0, n, m), rng.integers(0, n, m)
    calls = []
    retrograde.solve_edges(sources, targets, n=n, progress=lambda d, t: calls.append((d, t)))
    # Called at least once, at the end, where the work is all done.
    assert calls and calls[-1][0] == calls[-1][1] > 0
    assert all(0 <= d <= t for d, t in calls)

    class Enough(Exception):
        pass

    def enough(done, total):
        raise Enough

    with pytest.raises(Enough):
        retrograde.solve_edges(sources, targets, n=n, progress=enough)
