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
    ("dots_and_boxes(num_rows=1,num_cols=2)", "moves twice in a row"),
    ("pig", "chance nodes"),
    ("matrix_rps", "simultaneous moves"),
    ("kuhn_poker", "chance nodes"),
    ("kuhn_poker(players=3)", "3 players"),
])
def test_games_outside_the_model_are_refused_saying_why(name, why):
    with pytest.raises(ValueError, match=why):
        retrograde.openspiel.solve(pyspiel.load_game(name))
