"""Solving OpenSpiel's games (``pyspiel``) with retrograde.

>>> import pyspiel, retrograde.openspiel
>>> s = retrograde.openspiel.solve(pyspiel.load_game("tic_tac_toe"))
>>> len(s), s.value(s.start)
(5478, Value(outcome='tie', remoteness=9))

Any two-player, deterministic, perfect-information, turn-taking game loads:
tic-tac-toe, connect four on small boards, and small breakthrough, clobber,
hex, nim, dots and boxes, ... A game with chance nodes, simultaneous moves,
imperfect information or other than two players is refused with a clear
error. A player may move twice in a row (dots and boxes, after a box): each
position names who moves there (``current_player()``), and a move keeps the
turn when the same player moves next.

**Transpositions.** States are merged by ``(player to move, key(state))``;
``key`` defaults to ``str``, OpenSpiel's text of a perfect-information state,
which shows the position without its history, so two move orders reaching
one board are one position. Pass ``key=lambda s: s.serialize()`` to keep
every history apart, or any function of the state that names what decides
its future.

**Values.** A terminal state is a win for the player to move if their return
is higher than the other's, a loss if lower, a tie if equal; the player to
move at a terminal state is the one who did not make the last move.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple

import numpy as np

from . import OUTCOMES, Move, NamedSolution, Value, solve_game

__all__ = ["solve", "SpielSolution", "check", "bot"]


def check(game: Any) -> None:
    """Refuses a game retrograde cannot solve, saying why."""
    import pyspiel

    t = game.get_type()
    name = t.short_name
    if game.num_players() != 2:
        raise ValueError(f"{name} has {game.num_players()} players: retrograde solves two-player games")
    if t.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC:
        raise ValueError(f"{name} has chance nodes: retrograde solves deterministic games")
    if t.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(f"{name} has simultaneous moves: retrograde solves games where players take turns")
    if t.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        raise ValueError(f"{name} has imperfect information: retrograde solves perfect-information games")


class _Game:
    """An OpenSpiel game as retrograde explores one: a position is
    ``(player to move, key(state))``. A state is kept only while its
    position waits to be expanded, and then as its serialization
    (``state.serialize()``: its history, a few bytes a ply; a state object
    weighs about a kilobyte). Once solved, a position's state is made
    again from the initial state along the moves that first reached it
    (:meth:`state`, :meth:`each_state`)."""

    def __init__(self, game: Any, key: Callable[[Any], Hashable]):
        self.game = game
        self.key = key
        #: Each position met and not yet expanded: its state, serialized.
        self.waiting: Dict[Tuple[int, Hashable], str] = {}
        #: The value of each terminal position for its player to move,
        #: found as its state is first reached, kept until it is asked for.
        self.over: Dict[Tuple[int, Hashable], str] = {}
        self.name = game.get_type().short_name
        #: The solution, once solved: its numbers and parents find states again.
        self.solution: Optional[NamedSolution] = None

    def starts(self):
        s = self.game.new_initial_state()
        if s.is_terminal():
            raise ValueError(f"{self.name}: the initial state is terminal")
        p = (s.current_player(), self.key(s))
        self.waiting[p] = s.serialize()
        return [p]

    def terminal(self, p: Tuple[int, Hashable]) -> Optional[str]:
        """Asked once of every position, in turn: a terminal position's
        value, given once and forgotten (the solution keeps it)."""
        return self.over.pop(p, None)

    def owner(self, p: Tuple[int, Hashable]) -> int:
        """Who moves at ``p``: OpenSpiel's ``current_player()``."""
        return p[0]

    def show(self, p: Tuple[int, Hashable]) -> str:
        """``p``'s state as OpenSpiel draws it."""
        return str(self.state(p))

    def notation(self, p: Tuple[int, Hashable]) -> str:
        """``p`` in one line, as a saved database names it: the player to
        move, a colon, the key with its line breaks written ``/``."""
        return f"{p[0]}:" + "/".join(str(p[1]).splitlines())

    def moves(self, p: Tuple[int, Hashable]) -> List[Tuple[int, Hashable]]:
        state = self.game.deserialize_state(self.waiting.pop(p))
        mover = state.current_player()
        waiting, over = self.waiting, self.over
        out = []
        for action in state.legal_actions():
            child = state.child(action)
            q = self.after(state, mover, action, child)
            if child.is_terminal():
                if q not in over:
                    self._end(q, child)
            elif q not in waiting:
                # A position expanded already, met again (a cycle, or a
                # transposition across levels), waits here again, never
                # expanded (as a terminal position asked already is noted
                # again): dropped when the exploring ends (``done``). Nothing
                # in games whose moves only go one level deeper (tic-tac-toe,
                # connect four); in nim(1;3;5;7;9;11), 45,855 of 92,096.
                waiting[q] = child.serialize()
            out.append(q)
        return out

    def done(self, solution: NamedSolution) -> None:
        """Exploring is over: what waits is dropped, states are found again
        through ``solution``."""
        self.waiting.clear()
        self.over.clear()
        self.solution = solution

    def children(self, state: Any) -> Dict[Tuple[int, Hashable], Any]:
        """The positions the legal actions of ``state`` lead to, each with
        its state (the first action's, where two lead to one position)."""
        mover = state.current_player()
        out: Dict[Tuple[int, Hashable], Any] = {}
        for action in state.legal_actions():
            child = state.child(action)
            out.setdefault(self.after(state, mover, action, child), child)
        return out

    def state(self, p: Tuple[int, Hashable]) -> Any:
        """An OpenSpiel state of position ``p`` (a new object each time):
        made from the initial state along the moves that first reached
        ``p`` (its parents)."""
        s = self._solved()
        path = [s.number(p)]
        while (u := s.solved.parent(path[-1])) is not None:
            path.append(u)
        state = self.game.new_initial_state()
        for v in reversed(path[:-1]):
            state = self._child(state, s.names[v])
        return state

    def each_state(self):
        """Every position's number and state, each state made once from
        its parent's (a walk down the tree of first parents: about one
        ``child`` a move)."""
        s = self._solved()
        parents = s.solved.parents()
        order = np.argsort(parents, kind="stable")
        # order[0] is the start, the one position without a parent; the
        # children of v are order[first[v]:first[v + 1]].
        first = np.concatenate(([1], 1 + np.cumsum(np.bincount(parents[order[1:]],
                                                                 minlength=len(parents)))))
        # An OpenSpiel game has one start: the only position without one.
        assert parents[order[0]] == -1 and (len(order) == 1 or parents[order[1]] >= 0)
        stack = [(int(order[0]), self.game.new_initial_state())]
        while stack:
            v, state = stack.pop()
            yield v, state
            kids = order[first[v]:first[v + 1]]
            if len(kids):
                children = self.children(state)
                for w in kids:
                    child = children.get(s.names[w])
                    if child is None:
                        child = self._child(state, s.names[w])  # says why
                    stack.append((int(w), child))

    def _solved(self) -> NamedSolution:
        if self.solution is None:
            raise ValueError(f"{self.name}: states are found again only once it is solved")
        return self.solution

    def _child(self, state: Any, q: Tuple[int, Hashable]) -> Any:
        """The state of ``state``'s child at position ``q``."""
        found = self.children(state).get(q)
        if found is None:
            raise ValueError(f"{self.name}: no legal action of {str(state)!r} leads to {q!r} "
                             "(is the key a function of the state alone?)")
        return found

    def after(self, state: Any, mover: int, action: int, child: Any) -> Tuple[int, Hashable]:
        """The position ``child`` (``state`` after ``mover``'s ``action``) is."""
        to_move = child.current_player()
        if to_move < 0:
            to_move = self._odd(state, mover, action, child)
        return (to_move, self.key(child))

    def _odd(self, state: Any, mover: int, action: int, child: Any) -> int:
        """The player to move at a state that names none: the other player
        at a terminal state; refused otherwise."""
        if child.is_terminal():
            return 1 - mover
        played = state.action_to_string(mover, action)
        raise ValueError(f"{self.name}: a chance or simultaneous node after {played!r}")

    def _end(self, p: Tuple[int, Hashable], state: Any) -> None:
        """Notes terminal position ``p``'s value for its player to move: a
        win if their return is higher than the other's, a loss if lower,
        a tie if equal."""
        r = state.returns()
        me, other = r[p[0]], r[1 - p[0]]
        self.over[p] = "win" if me > other else "lose" if me < other else "tie"


class SpielSolution(NamedSolution):
    """A solved OpenSpiel game: positions are ``(player to move, key)``;
    :meth:`state_value` asks by state. ``start`` is the initial state's
    position; a saved database names positions ``player:key``, the key's
    line breaks written ``/`` (tic-tac-toe's start is ``0:.../.../...``)."""

    def __init__(self, solution: NamedSolution, game: _Game):
        super().__init__(solution.solved, solution.names, solution._index,
                         notation=game.notation, start=solution.start, show=game.show)
        self._game = game

    def position(self, state: Any) -> Tuple[int, Hashable]:
        """The position of an OpenSpiel state: ``(player to move, key)``; at
        a terminal state the player to move is the one who did not make the
        last move (read from the state's history)."""
        to_move = state.current_player()
        if to_move < 0:
            history = state.full_history()
            if not state.is_terminal() or not history:
                raise ValueError(f"{self._game.name}: no player to move at {str(state)!r}")
            to_move = 1 - history[-1].player
        return (to_move, self._game.key(state))

    def state_value(self, state: Any) -> Value:
        """The value of a state for the player to move (at a terminal
        state, the one who did not make the last move)."""
        return self.value(self.position(state))

    def _after(self, state: Any, action: int) -> Tuple[int, Hashable]:
        """The position ``action`` leads to from ``state``."""
        return self._game.after(state, state.current_player(), action, state.child(action))

    def action_values(self, state: Any) -> Dict[int, Move]:
        """Every legal action of a state that is not over, in OpenSpiel's
        order, with its value for the player who takes it (a
        :class:`~retrograde.Move`: outcome, remoteness, plies longer than
        best play)."""
        moves = {m.to: m for m in self.moves(self.position(state))}
        return {a: moves[self._after(state, a)] for a in state.legal_actions()}

    def best_action(self, state: Any) -> int:
        """A best action at a state that is not over: the first legal
        action, in OpenSpiel's order, that leads where the solution's best
        move does (win soonest, lose latest, tie soonest, else draw)."""
        if state.is_terminal():
            raise ValueError(f"{self._game.name}: the state is over, there is no action")
        v = self.number(self.position(state))
        target = self.names[int(self.best_move[v])]
        for a in state.legal_actions():
            if self._after(state, a) == target:
                return a
        raise ValueError(f"{self._game.name}: no legal action of {str(state)!r} leads to its "
                         "best move (is the key a function of the state alone?)")

    def returns(self, state: Any) -> List[float]:
        """What each player gets under perfect play from ``state``, as
        OpenSpiel's ``state.returns()`` counts it: the returns of the
        terminal state best play reaches (a terminal state's own); 0 for
        both in a draw, where play never ends."""
        s = state.clone()
        if not s.is_terminal() and self.state_value(s).outcome == "draw":
            return [0.0] * self._game.game.num_players()
        while not s.is_terminal():
            s.apply_action(self.best_action(s))
        return list(s.returns())

    def state(self, p: Tuple[int, Hashable]) -> Any:
        """An OpenSpiel state of position ``p`` (a new object each time),
        made from the initial state along the moves that first reached
        ``p``: a few ``child`` calls a ply. For every position, use
        :meth:`states`."""
        return self._game.state(p)

    def states(self):
        """Every position with an OpenSpiel state of it, as pairs
        ``(position, state)`` in no set order: each state made once, from
        its parent's (about one ``child`` a move)."""
        for v, state in self._game.each_state():
            yield self.names[v], state

    def player0_values(self) -> Dict[str, float]:
        """Every position's value for player 0 (+1 a win, -1 a loss, 0 a
        tie or draw), keyed by ``str(state)``: how OpenSpiel's
        ``value_iteration`` reports its values."""
        sign = {"win": 1.0, "lose": -1.0, "tie": 0.0, "draw": 0.0}
        out: Dict[str, float] = {}
        outcome = self.outcome
        for i, state in self._game.each_state():
            v = sign[OUTCOMES[int(outcome[i])]]
            out[str(state)] = v if self.names[i][0] == 0 else -v
        return out


def bot(solution: SpielSolution, player_id: int) -> Any:
    """A ``pyspiel.Bot`` that plays ``solution``'s best action for
    ``player_id``: usable wherever OpenSpiel takes a bot
    (``pyspiel.evaluate_bots``, its examples' match runners)."""
    import pyspiel

    class PerfectBot(pyspiel.Bot):
        """Plays a best action, from a solution."""

        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)

        def player_id(self) -> int:
            return player_id

        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player: int, action: int) -> None:
            pass

        def provides_policy(self) -> bool:
            return True

        def step_with_policy(self, state: Any):
            action = solution.best_action(state)
            return [(action, 1.0)], action

        def step(self, state: Any) -> int:
            return solution.best_action(state)

    return PerfectBot()


def solve(game: Any, key: Callable[[Any], Hashable] = str, max_positions: Optional[int] = None,
          progress: Optional[Callable[[int, int], None]] = None) -> SpielSolution:
    """Strongly solves an OpenSpiel game from its initial state: every
    state reachable from it, transpositions merged by
    ``(player to move, key(state))``."""
    check(game)
    g = _Game(game, key)
    solution = SpielSolution(solve_game(g, max_positions=max_positions, progress=progress), g)
    g.done(solution)
    return solution
