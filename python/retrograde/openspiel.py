"""Solving OpenSpiel's games (``pyspiel``) with retrograde.

>>> import pyspiel, retrograde.openspiel
>>> s = retrograde.openspiel.solve(pyspiel.load_game("tic_tac_toe"))
>>> len(s), s.value(s.start)
(5478, Value(outcome='tie', remoteness=9))

Any two-player, deterministic, perfect-information, turn-taking game loads:
tic-tac-toe, connect four on small boards, and small breakthrough, clobber,
hex, nim, ... A game with chance nodes, simultaneous moves, imperfect
information or other than two players is refused with a clear error, and so
is a game where a player moves twice in a row (dots and boxes, after a box):
the model behind retrograde flips the player at every move.

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

from typing import Any, Callable, Dict, Hashable, Iterator, Optional, Tuple

from . import NamedSolution, Value, solve_game

__all__ = ["solve", "SpielSolution", "check"]


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
    ``(player to move, key(state))``; the states are kept by position."""

    def __init__(self, game: Any, key: Callable[[Any], Hashable]):
        self.game = game
        self.key = key
        self.states: Dict[Tuple[int, Hashable], Any] = {}
        self.name = game.get_type().short_name

    def position(self, state: Any, to_move: int) -> Tuple[int, Hashable]:
        p = (to_move, self.key(state))
        self.states.setdefault(p, state)
        return p

    def starts(self):
        s = self.game.new_initial_state()
        return [self.position(s, s.current_player())]

    def terminal(self, p: Tuple[int, Hashable]) -> Optional[str]:
        state = self.states[p]
        if not state.is_terminal():
            return None
        r = state.returns()
        me, other = r[p[0]], r[1 - p[0]]
        return "win" if me > other else "lose" if me < other else "tie"

    def moves(self, p: Tuple[int, Hashable]) -> Iterator[Tuple[int, Hashable]]:
        state = self.states[p]
        mover = state.current_player()
        for action in state.legal_actions():
            child = state.child(action)
            if child.is_terminal():
                to_move = 1 - mover
            else:
                to_move = child.current_player()
                if to_move == mover:
                    raise ValueError(
                        f"in {self.name} player {mover} moves twice in a row (after "
                        f"{state.action_to_string(mover, action)!r} in\n{state}\n): retrograde's "
                        "model gives the move to the other player after every move, so it "
                        "cannot solve this game yet")
                if to_move < 0:
                    raise ValueError(f"{self.name}: a chance or simultaneous node after "
                                     f"{state.action_to_string(mover, action)!r}")
            yield self.position(child, to_move)


class SpielSolution(NamedSolution):
    """A solved OpenSpiel game: positions are ``(player to move, key)``;
    :meth:`state_value` asks by state."""

    def __init__(self, solution: NamedSolution, game: _Game):
        super().__init__(solution.solved, solution.names, solution._index)
        self._game = game
        #: The start position.
        self.start = solution.names[0]

    def position(self, state: Any) -> Tuple[int, Hashable]:
        """The position of an OpenSpiel state (not terminal: at a terminal
        state, ask through its parent's moves)."""
        return (state.current_player(), self._game.key(state))

    def state_value(self, state: Any) -> Value:
        """The value of a (non-terminal) state for the player to move."""
        return self.value(self.position(state))

    def state(self, p: Tuple[int, Hashable]) -> Any:
        """An OpenSpiel state of position ``p``."""
        return self._game.states[p]

    def player0_values(self) -> Dict[str, float]:
        """Every position's value for player 0 (+1 a win, -1 a loss, 0 a
        tie or draw), keyed by ``str(state)``: how OpenSpiel's
        ``value_iteration`` reports its values."""
        sign = {"win": 1.0, "lose": -1.0, "tie": 0.0, "draw": 0.0}
        out: Dict[str, float] = {}
        outcome = self.outcome
        from . import OUTCOMES
        for i, p in enumerate(self.names):
            v = sign[OUTCOMES[int(outcome[i])]]
            out[str(self._game.states[p])] = v if p[0] == 0 else -v
        return out


def solve(game: Any, key: Callable[[Any], Hashable] = str, max_positions: Optional[int] = None,
          progress: Optional[Callable[[int, int], None]] = None) -> SpielSolution:
    """Strongly solves an OpenSpiel game from its initial state: every
    state reachable from it, transpositions merged by
    ``(player to move, key(state))``."""
    check(game)
    g = _Game(game, key)
    solution = solve_game(g, max_positions=max_positions, progress=progress)
    return SpielSolution(solution, g)
