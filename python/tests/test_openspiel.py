"""OpenSpiel's games against OpenSpiel's own exact solver (value_iteration):
identical values on every state it returns; refusals said clearly."""

import json
import subprocess
import urllib.parse
import urllib.request

import pytest

pyspiel = pytest.importorskip("pyspiel")

import retrograde.openspiel  # noqa: E402


def value_iteration(game):
    vi = pytest.importorskip("open_spiel.python.algorithms.value_iteration")
    return vi.value_iteration(game, depth_limit=-1, threshold=1e-6)


@pytest.mark.parametrize("name", ["tic_tac_toe", "nim(pile_sizes=1;2;3)", "nim(pile_sizes=2;3;4,is_misere=False)"])
def test_values_equal_openspiel_value_iteration(name):
    game = pyspiel.load_game(name)
    ours = retrograde.openspiel.solve(game).player0_values()
    theirs = value_iteration(game)
    assert set(ours) == set(theirs)
    for key, v in theirs.items():
        assert ours[key] == pytest.approx(v, abs=1e-6), key


def test_tic_tac_toe_is_a_tie_in_nine():
    s = retrograde.openspiel.solve(pyspiel.load_game("tic_tac_toe"))
    assert len(s) == 5478
    assert s.state_value(pyspiel.load_game("tic_tac_toe").new_initial_state()) == ("tie", 9)


def test_a_saved_openspiel_game_is_served_by_name_from_its_start(cli, tmp_path):
    s = retrograde.openspiel.solve(pyspiel.load_game("tic_tac_toe"))
    db = tmp_path / "ttt.db"
    s.save(str(db), name="tic-tac-toe (OpenSpiel)")
    server = subprocess.Popen([cli, "serve", str(db), "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        url = server.stdout.readline().strip().rstrip("/")
        info = json.load(urllib.request.urlopen(url + "/api/info"))
        assert (info["name"], info["start"]) == ("tic-tac-toe (OpenSpiel)", "0:.../.../...")
        q = json.load(urllib.request.urlopen(
            url + "/api/query?position=" + urllib.parse.quote("0:.../.../...") + "&move="
            + urllib.parse.quote("1:.../.x./...")))
        assert (q["position"], q["outcome"], q["remoteness"]) == ("1:.../.x./...", "tie", 8)
    finally:
        server.terminate()
        server.wait()


@pytest.mark.parametrize("name,why", [
    ("pig", "chance nodes"),
    ("matrix_rps", "simultaneous moves"),
    ("kuhn_poker", "chance nodes"),
    ("kuhn_poker(players=3)", "3 players"),
])
def test_games_outside_the_model_are_refused_saying_why(name, why):
    with pytest.raises(ValueError, match=why):
        retrograde.openspiel.solve(pyspiel.load_game(name))


def _boxes(rows, cols, lines):
    """The boxes whose four sides are among ``lines`` (OpenSpiel's action
    numbers: horizontal lines row by row, then vertical ones)."""
    n = 0
    for r in range(rows):
        for c in range(cols):
            top, bottom = r * cols + c, (r + 1) * cols + c
            left = (rows + 1) * cols + r * (cols + 1) + c
            n += all(l in lines for l in (top, bottom, left, left + 1))
    return n


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 2), (2, 1), (2, 2)])
def test_dots_and_boxes_from_openspiel_matches_its_solver_and_the_built_in_game(
        tmp_path, cli, rows, cols):
    """A player who closes a box moves again: OpenSpiel's game solved here
    agrees with OpenSpiel's own value_iteration on every state (on the
    boards it finishes in seconds), and with the built-in dots-and-boxes of
    the command line, position by position (the same lines, boxes and
    player to move)."""
    from open_spiel.python.algorithms import value_iteration

    game = pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols})")
    s = retrograde.openspiel.solve(game)
    if rows * cols <= 2:
        theirs = value_iteration.value_iteration(game, depth_limit=-1, threshold=0)
        ours = s.player0_values()
        assert set(ours) <= set(theirs)
        for state, v in ours.items():
            assert v == pytest.approx(theirs[state]), state
    # Each state as the built-in game writes it: the lines drawn, each
    # player's boxes (replayed from the history), who moves.
    lines = (rows + 1) * cols + rows * (cols + 1)
    positions = {}
    for p, state in s.states():
        if state.is_terminal():
            continue
        drawn, boxes, replay = set(), [0, 0], game.new_initial_state()
        for a in state.history():
            before = _boxes(rows, cols, drawn)
            drawn.add(a)
            boxes[replay.current_player()] += _boxes(rows, cols, drawn) - before
            replay.apply_action(a)
        bits = "".join("1" if l in drawn else "0" for l in range(lines))
        positions[f"{bits}/{boxes[0]}-{boxes[1]}/{p[0]}"] = s.value(p)
    db = tmp_path / "dab.db"
    subprocess.run([cli, "game", "dots-and-boxes", "--rows", str(rows), "--cols", str(cols),
                    "--save", str(db), "-q"], check=True)
    out = subprocess.run([cli, "query", str(db), *positions, "--json"], check=True,
                         capture_output=True, text=True).stdout
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(positions)
    for (notation, value), a in zip(positions.items(), answers):
        assert (a["outcome"], a["remoteness"]) == tuple(value), notation


@pytest.fixture(scope="module")
def tic_tac_toe():
    game = pyspiel.load_game("tic_tac_toe")
    return game, retrograde.openspiel.solve(game)


def every_state(game):
    """Every state of a small game (terminal ones included), one history of
    each board."""
    start = game.new_initial_state()
    out, seen = [start], {str(start)}
    for s in out:
        if not s.is_terminal():
            for a in s.legal_actions():
                child = s.child(a)
                if str(child) not in seen:
                    seen.add(str(child))
                    out.append(child)
    return out


def test_best_action_keeps_every_state_s_value_and_returns_are_openspiel_s(tic_tac_toe):
    game, s = tic_tac_toe
    theirs = value_iteration(game)
    for state in every_state(game):
        v = s.state_value(state)
        r = s.returns(state)
        if state.is_terminal():
            assert r == list(state.returns())
            continue
        # The returns best play reaches are the values value_iteration finds.
        assert r[0] == pytest.approx(theirs[str(state)], abs=1e-6), str(state)
        a = s.best_action(state)
        assert a in state.legal_actions()
        after = state.child(a)
        # A best action: its value for the mover is the state's, one ply sooner.
        mine = s.action_values(state)[a]
        assert (mine.outcome, mine.remoteness, mine.delta) == (v.outcome, v.remoteness, 0)
        if not after.is_terminal():
            w = s.state_value(after)
            assert w.remoteness == v.remoteness - 1
        assert set(s.action_values(state)) == set(state.legal_actions())


def test_a_perfect_bot_never_loses_and_two_always_tie(tic_tac_toe):
    game, s = tic_tac_toe
    for seat in (0, 1):
        for seed in range(40):
            bots = [pyspiel.make_uniform_random_bot(p, seed) for p in (0, 1)]
            bots[seat] = retrograde.openspiel.bot(s, seat)
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
            assert returns[seat] >= 0, (seat, seed, returns)
    both = [retrograde.openspiel.bot(s, p) for p in (0, 1)]
    assert pyspiel.evaluate_bots(game.new_initial_state(), both, 0) == [0.0, 0.0]


def test_a_terminal_state_is_valued_for_the_player_who_did_not_make_the_last_move(tic_tac_toe):
    game, s = tic_tac_toe
    state = game.new_initial_state()
    for a in (4, 0, 2, 6, 3, 5, 1, 7, 8):
        state.apply_action(a)
    assert state.is_terminal()
    assert s.state_value(state) == ("tie", 0)
    with pytest.raises(ValueError, match="the state is over"):
        s.best_action(state)


def test_every_position_s_state_is_found_again_from_the_start(tic_tac_toe):
    """States are not kept once a position is expanded: each is made again
    from the initial state along the moves that first reached it, one at a
    time (state) or all at once (states), and is that position."""
    game, s = tic_tac_toe
    key = str
    seen = {}
    for p, state in s.states():
        assert (state.current_player() if not state.is_terminal()
                else 1 - state.full_history()[-1].player, key(state)) == p
        seen[p] = str(state)
    assert set(seen) == set(s.names)
    for p in list(s.names)[::97]:
        assert str(s.state(p)) == seen[p]
        assert s.show(p) == seen[p]
    # Every position but the start has a parent numbered below it, that
    # moves to it; following them back reaches the start.
    parents = s.solved.parents()
    assert parents[0] == -1 and (parents[1:] >= 0).all()
    assert (parents[1:] < range(1, len(parents))).all()
    for v in range(1, len(parents), 211):
        assert v in [to for to, *_ in s.solved.moves(int(parents[v]))]
        assert s.solved.parent(v) == parents[v]
