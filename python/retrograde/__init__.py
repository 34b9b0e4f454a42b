"""Strongly solve two-player games on any directed graph, cycles included.

Every position gets its outcome for the player to move (win, lose, tie or
draw), its remoteness (plies to the end under best play) and a best move,
in time linear in the number of moves.

>>> import numpy as np, retrograde
>>> # 0 -> 1 -> 2; 2 has no move (the player to move there loses).
>>> s = retrograde.solve_edges(np.array([0, 1]), np.array([1, 2]))
>>> [retrograde.OUTCOMES[o] for o in s.outcome]
['lose', 'win', 'lose']
>>> s.remoteness.tolist(), s.best_move.tolist()
([2, 1, 0], [1, 2, -1])

Three ways in: a graph as numpy arrays (:func:`solve_edges`), from scipy
(:func:`solve_scipy`) or networkx (:func:`solve_networkx`); and a game
written in Python (:func:`solve_game`), which :mod:`retrograde.openspiel`
uses for OpenSpiel's games. A game bigger than memory is solved tier by
tier into a directory (:func:`solve_tiers`).
"""

from __future__ import annotations

import sys
import time

from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional

import numpy as np

from ._retrograde import DRAW, LOSE, TIE, WIN, Solved, __version__, explore
from ._retrograde import load as _load
from ._retrograde import solve_edges as _solve_edges
from ._retrograde import solve_tiers as _solve_tiers

__all__ = [
    "__version__",
    "WIN",
    "LOSE",
    "TIE",
    "DRAW",
    "OUTCOMES",
    "OUTCOME_NAMES",
    "Value",
    "Move",
    "Solved",
    "NamedSolution",
    "solve_edges",
    "solve_scipy",
    "solve_networkx",
    "solve_game",
    "load",
    "Database",
    "solve_tiers",
    "TierSolution",
    "Tier",
]

#: Outcome names by code: ``OUTCOMES[WIN] == "win"``.
OUTCOMES: Dict[int, str] = {WIN: "win", LOSE: "lose", TIE: "tie", DRAW: "draw"}

#: Outcome names as an array indexed by code, for a whole array at once:
#: ``OUTCOME_NAMES[s.outcome]`` (code 3 is no outcome: its name is empty).
OUTCOME_NAMES: np.ndarray = np.array([OUTCOMES.get(c, "") for c in range(max(OUTCOMES) + 1)])
OUTCOME_NAMES.setflags(write=False)


class Value(NamedTuple):
    """A position's value for the player to move."""

    outcome: str
    """``"win"``, ``"lose"``, ``"tie"`` or ``"draw"``."""
    remoteness: Optional[int]
    """Plies to the end under best play; ``None`` for a draw."""


class Move(NamedTuple):
    """A move and its value for the player who makes it."""

    to: Any
    """The position it leads to."""
    outcome: str
    """The outcome it leads to for the player who moves."""
    remoteness: Optional[int]
    """Plies to the end after it, this move counted; ``None`` for a draw."""
    delta: Optional[int]
    """Plies longer than best play (0 for a best move); ``None`` where the
    outcome is worse than best play's."""
    name: Optional[str] = None
    """The move as the game names it (a database of a registered game:
    ``Kb2``), else ``None``."""


def _best_line(answers: Any, p: Any, max_plies: int) -> List[Any]:
    """Best play from ``p`` through ``answers``' ``value`` and ``moves``
    (best first): ``p``, then each first move's position, until the game
    ends or ``max_plies``."""
    out = [p]
    for _ in range(max_plies):
        if answers.value(out[-1]).remoteness == 0:
            break
        moves = answers.moves(out[-1])
        if not moves:
            break
        out.append(moves[0].to)
    return out


class NamedSolution:
    """A solution whose positions have names: a networkx graph's nodes, a
    Python game's positions. Asked by name; the arrays (``outcome``,
    ``remoteness``, ``best_move``) and ``names`` are by number."""

    def __init__(self, solved: Solved, names: List[Any], index: Mapping[Any, int],
                 canonical: Optional[Callable[[Any], Any]] = None,
                 notation: Optional[Callable[[Any], str]] = None,
                 start: Optional[Any] = None,
                 show: Optional[Callable[[Any], str]] = None,
                 game: Any = None):
        self.solved = solved
        #: The Python game solved, if any: a game with symmetries answers
        #: in positions as played through it.
        self._game = game
        self.names = names
        self._index = index
        self._canonical = canonical
        self._notation = notation
        self._show = show
        #: Where play starts (a Python game's first start), or ``None``.
        self.start = start

    def __len__(self) -> int:
        return len(self.solved)

    def __contains__(self, p: Any) -> bool:
        return self._key(p) in self._index

    def __getitem__(self, p: Any) -> Value:
        """``s[p]``: the value of ``p`` (:meth:`value`)."""
        return self.value(p)

    def __iter__(self):
        """The positions, by number."""
        return iter(self.names)

    def __repr__(self) -> str:
        c = self.counts()
        return (f"NamedSolution({len(self):,} positions, {self.solved.edges:,} moves: "
                f"{c['win']:,} win, {c['lose']:,} lose, {c['tie']:,} tie, {c['draw']:,} draw)")

    def to_dict(self) -> Dict[Any, Value]:
        """Every position's value, keyed by position (a networkx node, a
        Python game's position)."""
        outcome, remoteness = self.outcome.tolist(), self.remoteness.tolist()
        return {p: Value(OUTCOMES[o], None if r < 0 else r)
                for p, o, r in zip(self.names, outcome, remoteness)}

    @property
    def outcome(self) -> np.ndarray:
        """Outcome codes by number (see :data:`OUTCOMES`)."""
        return self.solved.outcome

    @property
    def remoteness(self) -> np.ndarray:
        """Remoteness by number, -1 for a draw."""
        return self.solved.remoteness

    @property
    def best_move(self) -> np.ndarray:
        """The number of each position's best move's target, -1 for none."""
        return self.solved.best_move

    def _key(self, p: Any) -> Any:
        return self._canonical(p) if self._canonical is not None else p

    def number(self, p: Any) -> int:
        """The number of position ``p`` (its canonical form's)."""
        try:
            return self._index[self._key(p)]
        except KeyError:
            raise KeyError(f"{p!r} is not a position of this game") from None

    def value(self, p: Any) -> Value:
        """The value of ``p`` for the player to move."""
        o, r = self.solved.value(self.number(p))
        return Value(OUTCOMES[o], r)

    def moves(self, p: Any) -> List[Move]:
        """The moves of ``p``, best first, each with its value (and its
        name where the game has ``move_name(p, q)``). A Python game with
        symmetries (``canonical``) answers with the positions as played
        from ``p``, not their canonical forms: each move of ``moves(p)``,
        valued by its class, equal moves in the game's order."""
        native = self.solved.moves(self.number(p))
        if self._game is None or self._canonical is None:
            return [Move(self.names[to], OUTCOMES[o], r, d, self._move_name(p, self.names[to]))
                    for to, o, r, d in native]
        if not native:
            return []
        # Each class's place in the best-first order, and its value.
        rank: Dict[int, Any] = {}
        for i, (to, o, r, d) in enumerate(native):
            rank.setdefault(to, (i, o, r, d))
        played = []
        for q in self._game.moves(p):
            i, o, r, d = rank[self.number(q)]
            played.append((i, Move(q, OUTCOMES[o], r, d, self._move_name(p, q))))
        played.sort(key=lambda m: m[0])
        return [m for _, m in played]

    def _move_name(self, p: Any, q: Any) -> Optional[str]:
        name = getattr(self._game, "move_name", None) if self._game is not None else None
        return name(p, q) if callable(name) else None

    def line(self, p: Any, max_plies: int = 1000) -> List[Any]:
        """Best play from ``p``: the positions, ``p``'s own first (for a
        game with symmetries, as played from ``p``)."""
        if self._game is None or self._canonical is None:
            return [self.names[v] for v in self.solved.line(self.number(p), max_plies)]
        return _best_line(self, p, max_plies)

    def counts(self) -> Dict[str, int]:
        """How many positions win, lose, tie and draw, and the longest remoteness."""
        return self.solved.counts()

    def show(self, p: Any) -> str:
        """``p`` drawn as text: the game's ``show(p)`` if it has one, else
        ``str(p)``."""
        return self._show(p) if self._show is not None else str(p)

    def notation(self, p: Any) -> str:
        """The one-line text that names ``p`` in a saved database: the
        game's ``notation(p)`` if it has one, else :meth:`show` with its
        line breaks written ``/``."""
        if self._notation is not None:
            return self._notation(p)
        return "/".join(self.show(p).splitlines())

    def save(self, path: str, name: Optional[str] = None, compress: bool = True) -> int:
        """Writes a database of the positions as a graph, with their moves,
        names (:meth:`notation`) and start, that ``retrograde query``,
        ``play`` and ``serve`` read: they show and read positions by name.
        Its header names the game ``name``. Returns its size in bytes.
        Two positions of one name are refused (give the game a
        ``notation(p)`` that tells them apart)."""
        params = [("name", name)] if name is not None else []
        start = self.number(self.start) if self.start is not None else None
        return self.solved.save(path, params=params, compress=compress,
                                names=[self.notation(p) for p in self.names], start=start)


def _terminal(terminal: Any, index: Optional[Dict[Any, int]] = None):
    """(positions, outcomes) from a dict {position: outcome} or a pair."""
    if terminal is None:
        return None
    if isinstance(terminal, dict):
        items = list(terminal.items())
        positions = [index[p] if index is not None else int(p) for p, _ in items]
        return positions, [o for _, o in items]
    positions, outcomes = terminal
    return [int(p) for p in positions], list(outcomes)


#: The largest position number: ids are 32-bit, and 2**32 - 1 numbers none.
_LARGEST = 2**32 - 2


def _ids(name: str, ids: Any) -> np.ndarray:
    """``ids`` as a one-dimensional array the native side reads in place:
    uint32, int32 or int64 arrays are passed as they are when contiguous;
    anything else (a list, a column of an (m, 2) array, another integer
    dtype) is copied once, to int64."""
    a = np.asarray(ids)
    if a.ndim != 1:
        raise ValueError(f"{name}: expected a one-dimensional array of positions, "
                         f"got shape {a.shape}")
    if a.size == 0:
        return np.zeros(0, dtype=np.uint32)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{name}: expected integers (positions), got dtype {a.dtype}")
    if a.dtype in (np.uint32, np.int32, np.int64) and a.flags.c_contiguous:
        return a
    if a.dtype == np.uint64 and a.max() > _LARGEST:
        i = int(np.argmax(a > _LARGEST))
        raise ValueError(f"{name}[{i}] = {a[i]}: a position is a number from 0 to {_LARGEST}")
    return np.ascontiguousarray(a, dtype=np.int64)


def solve_edges(sources: Any, targets: Any, n: Optional[int] = None, terminal: Any = None,
                no_move: str = "lose", owners: Any = None, engine: str = "auto",
                threads: Optional[int] = None, max_memory: Optional[int] = None,
                progress: Optional[Callable[[int, int], None]] = None) -> Solved:
    """Solves the graph whose moves are ``sources[i] -> targets[i]``.

    ``sources`` and ``targets`` are any sequences of integers: numpy arrays
    of uint32, int32 or int64 are read in place, anything else (lists, the
    columns ``E[:, 0]`` and ``E[:, 1]`` of an (m, 2) array, other integer
    dtypes) is copied once. ``n`` is the number of positions (default: one
    more than the largest id). ``terminal`` gives labelled positions'
    outcomes for the player to move, as a dict ``{position: outcome}`` or a
    pair ``(positions, outcomes)``; an outcome is ``"win"``, ``"lose"``,
    ``"tie"``, ``"draw"`` or its code. A position with no move and no label
    is a loss for the player to move (``no_move="lose"``) or a win
    (``"win"``). ``owners``, if given, is the player (0 or 1) who moves at
    each position (an arena: a move between two positions of one owner
    keeps the turn).

    How it runs: ``engine`` is ``"auto"`` (the parallel engine on more than
    one thread, else the sequential one), ``"sequential"`` or
    ``"parallel"``; ``threads`` the threads it runs on (default: every
    core); ``max_memory`` a limit in bytes past which the solve is refused
    with ``MemoryError`` before anything large is allocated (default: the
    machine's memory). The answers are the same whichever engine runs;
    ``s.engine``, ``s.threads`` and ``s.engine_reason`` say which ran and why.

    ``progress(done, total)``, if given, is called with the solve's units of
    work about every 50 ms while it runs and once at its end (an exception
    it raises stops the solve); by default, where someone watches (a
    terminal, a Jupyter notebook) and tqdm is installed, tqdm's bar shows it.

    >>> s = solve_edges([0, 1], [1, 2], engine="sequential")
    >>> s.engine, [OUTCOMES[o] for o in s.outcome]
    ('sequential', ['lose', 'win', 'lose'])
    """
    owners = None if owners is None else [int(o) for o in np.asarray(owners).ravel()]
    bar = _bar("solving", "") if progress is None and _watching() else None
    if bar is not None:
        def progress(done: int, total: int) -> None:
            bar.total, bar.n = total, done
            bar.refresh()
    try:
        return _solve_edges(_ids("sources", sources), _ids("targets", targets), n=n,
                            terminal=_terminal(terminal), no_move=no_move, owners=owners,
                            engine=engine, threads=threads, max_memory=max_memory,
                            progress=progress)
    finally:
        if bar is not None:
            bar.close()


def solve_scipy(matrix: Any, terminal: Any = None, no_move: str = "lose", engine: str = "auto",
                threads: Optional[int] = None, max_memory: Optional[int] = None) -> Solved:
    """Solves the graph of a square scipy.sparse matrix: an entry at (u, v)
    is a move from u to v (several entries, several moves). The other
    arguments are :func:`solve_edges`'s."""
    coo = matrix.tocoo()
    rows, cols = coo.shape
    if rows != cols:
        raise ValueError(f"expected a square matrix, got {rows} x {cols}")
    # scipy's indices (int32, or int64 for big matrices) are read in place.
    return solve_edges(coo.row, coo.col, n=rows, terminal=terminal, no_move=no_move,
                       engine=engine, threads=threads, max_memory=max_memory)


def solve_networkx(graph: Any, terminal: Any = None, no_move: str = "lose", engine: str = "auto",
                   threads: Optional[int] = None,
                   max_memory: Optional[int] = None) -> NamedSolution:
    """Solves a networkx DiGraph or MultiDiGraph (parallel edges are parallel
    moves). ``terminal`` maps nodes to outcomes. Answers by node name. The
    other arguments are :func:`solve_edges`'s."""
    if not graph.is_directed():
        raise TypeError("expected a directed graph (networkx.DiGraph or MultiDiGraph)")
    names = list(graph.nodes)
    index = {name: i for i, name in enumerate(names)}
    m = graph.number_of_edges()
    sources = np.fromiter((index[u] for u, _ in graph.edges()), dtype=np.uint32, count=m)
    targets = np.fromiter((index[v] for _, v in graph.edges()), dtype=np.uint32, count=m)
    solved = solve_edges(sources, targets, n=len(names), terminal=_terminal(terminal, index),
                         no_move=no_move, engine=engine, threads=threads, max_memory=max_memory)
    return NamedSolution(solved, names, index)


def _watching() -> bool:
    """Whether someone watches: a Jupyter notebook, or standard error a terminal."""
    return "ipykernel" in sys.modules or sys.stderr.isatty()


def _bar(what: str = "exploring", unit: str = " positions") -> Any:
    """tqdm's progress bar (in Jupyter, its notebook widget: ``tqdm.auto``)
    if tqdm is installed, else ``None``."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(desc=what, unit=unit, total=None, leave=False)


def solve_game(game: Any, no_move: str = "lose", max_positions: Optional[int] = None,
               progress: Optional[Callable[[int, int], None]] = None, engine: str = "auto",
               threads: Optional[int] = None, max_memory: Optional[int] = None) -> NamedSolution:
    """Explores and solves a game written in Python: an object with
    ``starts()`` (the positions play starts from) and ``moves(p)`` (the
    positions one move reaches), and optionally ``terminal(p)`` (an outcome
    for the player to move where the game is over, else ``None``) and
    ``canonical(p)`` (one representative of ``p``'s symmetry class),
    ``show(p)`` (``p`` drawn as text) and ``notation(p)`` (a one-line name
    of ``p`` for saved databases; by default ``show(p)`` or ``str(p)``, its
    line breaks written ``/``).
    Positions are any hashable values. A position without moves and
    without a terminal value is a loss for the player to move
    (``no_move="lose"``) or a win (``"win"``). ``progress(done, found)`` is
    called every 100,000 positions. By default, where someone watches (a
    terminal, or a Jupyter notebook), tqdm's bar shows how far exploring has
    got when tqdm is installed (in Jupyter, its notebook widget), else a
    line on standard error, and a summary ends it; nothing is shown where
    nobody watches. ``engine``,
    ``threads`` and ``max_memory`` are :func:`solve_edges`'s."""
    tell = progress is None and _watching()
    started = time.perf_counter()
    bar = _bar() if tell else None
    if bar is not None:
        def progress(done: int, found: int) -> None:
            bar.total = found
            bar.update(done - bar.n)
    elif tell:
        def progress(done: int, found: int) -> None:
            sys.stderr.write(f"\rexplored {done:,} positions, found {found:,}")
            sys.stderr.flush()
    try:
        solved, positions, index = explore(game, no_move=no_move, max_positions=max_positions,
                                           progress=progress, engine=engine, threads=threads,
                                           max_memory=max_memory)
    finally:
        if bar is not None:
            bar.close()
    if tell:
        c = solved.counts()
        sys.stderr.write(
            f"\r{len(solved):,} positions, {solved.edges:,} moves: {c['win']:,} win, "
            f"{c['lose']:,} lose, {c['tie']:,} tie, {c['draw']:,} draw; "
            f"{time.perf_counter() - started:.2f} s\n")
    hooks = [getattr(game, name, None) for name in ("canonical", "notation", "show")]
    canonical, notation, show = [h if callable(h) else None for h in hooks]
    return NamedSolution(solved, positions, index, canonical, notation,
                         positions[0] if positions else None, show, game)


class Database:
    """A database read back (:func:`load`): every position's value and its
    moves, from the file, with nothing solved again. Positions are asked by
    number or by their notation (a graph's names, a game's own notation:
    FEN for chess); answers name positions in that notation."""

    def __init__(self, native: Any):
        self._db = native

    def __len__(self) -> int:
        return len(self._db)

    def __repr__(self) -> str:
        return repr(self._db)

    def __contains__(self, p: Any) -> bool:
        try:
            self._db.value(p)
        except (KeyError, ValueError):
            return False
        return True

    def __getitem__(self, p: Any) -> Value:
        return self.value(p)

    @property
    def game(self) -> str:
        """``graph``, or the registered game it was solved for."""
        return self._db.game

    @property
    def variant(self) -> str:
        """The game's variant (a chess ending, a tier), ``''`` if none."""
        return self._db.variant

    @property
    def params(self) -> Dict[str, str]:
        """What else defines the game, as the header keeps it."""
        return self._db.params

    @property
    def start(self) -> Optional[str]:
        """Where play starts, in the game's notation, or ``None``."""
        return self._db.start

    def number(self, p: Any) -> int:
        """The number of the position ``p`` names."""
        return self._db.number(p)

    def notation(self, p: Any) -> str:
        """Position ``p`` in the game's notation."""
        return self._db.notation(p)

    def value(self, p: Any) -> Value:
        """The value of ``p`` for the player to move (``KeyError`` if the
        database does not hold it)."""
        o, r = self._db.value(p)
        return Value(OUTCOMES[o], r)

    def moves(self, p: Any) -> List[Move]:
        """The moves of ``p``, best first, each with its value for the
        player who makes it; ``to`` in the game's notation."""
        return [Move(to, OUTCOMES[o], r, d, name) for name, to, o, r, d in self._db.moves(p)]

    def line(self, p: Any, max_plies: int = 1000) -> List[str]:
        """Best play from ``p``: the positions in the game's notation,
        ``p``'s own first, until the game ends or ``max_plies``."""
        return _best_line(self, self.notation(p), max_plies)


def load(path: str) -> Database:
    """Opens the database at ``path``: a graph's (saved by
    :meth:`NamedSolution.save`, :meth:`Solved.save` or ``retrograde solve
    --save``) or a built-in game's (``retrograde game NAME --save``). The
    file is mapped, its header checked, each block checked as it is read."""
    return Database(_load(path))


class Tier(NamedTuple):
    """One tier of a tiered solve, as :func:`solve_tiers` did it."""

    name: str
    """Its name: its database's file name in the directory, less ``.db``."""
    positions: int
    """The positions its database holds."""
    longest: Optional[int]
    """The longest remoteness in it, ``None`` if every position is a draw."""
    seconds: float
    """How long it took."""
    resumed: bool
    """Taken as an earlier run left it (checked), not solved again."""


class TierSolution:
    """A tiered game solved into a directory (:func:`solve_tiers`). Every
    value is read from the tiers' databases, mapped (nothing is held in
    memory but the game): asked by position, as the game writes them."""

    def __init__(self, native: Any, game: Any):
        self._native = native
        self._game = game

    @property
    def directory(self) -> str:
        """Where the tiers' databases and their manifest (``tiers.json``) are."""
        return self._native.directory

    @property
    def tiers(self) -> List[Tier]:
        """Every tier, children first, as this run found it."""
        return [Tier(*t) for t in self._native.tiers]

    def __len__(self) -> int:
        return sum(t.positions for t in self.tiers)

    def __repr__(self) -> str:
        return f"TierSolution({len(self.tiers)} tiers, {len(self):,} positions in {self.directory!r})"

    def __getitem__(self, p: Any) -> Value:
        return self.value(p)

    def __contains__(self, p: Any) -> bool:
        try:
            self.value(p)
        except KeyError:
            return False
        return True

    def value(self, p: Any) -> Value:
        """The value of ``p`` for the player to move (``KeyError`` if no
        tier of the directory holds it)."""
        o, r = self._native.value(p)
        return Value(OUTCOMES[o], r)

    def moves(self, p: Any) -> List[Move]:
        """The moves of ``p`` (the game's ``moves(p)``; none where the game
        is over), best first, each with its value for the player who makes
        it, valued and ordered as every solution's moves are (and its name
        where the game has ``move_name(p, q)``)."""
        name = getattr(self._game, "move_name", None)
        return [Move(q, OUTCOMES[o], r, d, name(p, q) if callable(name) else None)
                for q, o, r, d in self._native.moves(p)]

    def line(self, p: Any, max_plies: int = 1000) -> List[Any]:
        """Best play from ``p``: the positions, ``p``'s own first."""
        return _best_line(self, p, max_plies)


def solve_tiers(game: Any, directory: str, roots: Any = None, no_move: str = "lose",
                name: str = "python", at_once: int = 1) -> TierSolution:
    """Solves a game bigger than memory tier by tier into ``directory``,
    with the library's tier solver: each tier explored and solved alone,
    children first, every move into a child tier valued from that tier's
    database, each tier kept as a database of its own beside a manifest
    (``tiers.json``); peak memory follows the largest tier. A run that is
    stopped (Ctrl-C, an error) keeps the tiers it finished; run again, it
    takes them as they are (after checking them) and solves the rest.
    ``retrograde analyze DIR`` reads the directory.

    The game gives what :func:`solve_game` takes (``moves(p)``, and
    optionally ``terminal(p)``, ``canonical(p)``, ``notation(p)``,
    ``move_name(p, q)``), and:

    - ``tier(p)``: the tier of ``p`` (any hashable value; the same for a
      position and its canonical form), and ``child_tiers(t)``: the tiers a
      move from tier ``t`` may reach besides ``t`` itself; no cycle among
      tiers;
    - ``tier_positions(t)``: the positions tier ``t`` is explored from
      (every one whose value is wanted);
    - ``encode(p)`` and ``decode(n)``: a number for each position (from 0
      to 2**64 - 1, distinct positions distinct numbers) and back: the key
      of ``p`` in its tier's database;
    - optionally ``tier_name(t)`` (default ``str(t)``): the tier's file
      name, letters, digits, ``-``, ``_`` and ``.``.

    ``roots`` are the tiers to solve, with every tier below them (default:
    the tiers of ``game.starts()``). ``name`` names the game in the
    databases' headers (a directory of another name is refused);
    ``at_once`` tiers whose children are done are solved side by side.
    Every call into the game takes the GIL: the tiers run one Python call
    at a time."""
    if roots is None:
        starts = getattr(game, "starts", None)
        if not callable(starts):
            raise TypeError("solve_tiers needs roots, or a game with starts()")
        roots = list(dict.fromkeys(game.tier(p) for p in starts()))
    native = _solve_tiers(game, directory, list(roots), no_move=no_move, name=name,
                          at_once=at_once)
    return TierSolution(native, game)
