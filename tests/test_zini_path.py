"""The fewest clicks beside the player's: in ``replay --efficiency --image`` (two numbered
panels) and in ``/api/replay``'s efficiency (the sequence, checked by the game's rules
independently of the solver)."""

from __future__ import annotations

import base64
from collections import Counter
from pathlib import Path

import pytest
from test_replay_efficiency import BOARD, game  # noqa: F401  (the fixture)
from test_web_api import client, local_client  # noqa: F401  (the fixture)
from test_zini import replay as replayed

from exactmines.io.files import read_replay
from exactmines.replay.efficiency import game_efficiency
from exactmines.replay.judge import judge_replay
from exactmines.ui.cli import main

REPLAYS = Path(__file__).parent / "data" / "replays" / "public"


def _figure(monkeypatch, judged, efficiency, tmp_path):
    import exactmines.ui.pictures as pictures

    saved = []
    monkeypatch.setattr(pictures, "_save", lambda figure, target, dpi: saved.append(figure))
    pictures.draw_replay(judged, tmp_path / "x.png", efficiency=efficiency)
    return saved[0]


def _marks(figure, panel):
    return [t for ax in figure.axes for t in ax.texts
            if (t.get_gid() or "").startswith(panel + ":")]


def test_the_picture_numbers_the_fewest_clicks_and_the_players(game, monkeypatch,  # noqa: F811
                                                               tmp_path):
    replay = read_replay(game)
    judged = judge_replay(replay)
    efficiency = game_efficiency(replay)
    figure = _figure(monkeypatch, judged, efficiency, tmp_path)
    fewest = _marks(figure, "fewest")
    # One numbered mark per click of the sequence, of its kind, numbered 1 ... 5 in order.
    assert len(fewest) == efficiency.zini == 5
    assert Counter(t.get_gid().split(":")[1] for t in fewest) == Counter(
        kind for kind, _ in efficiency.sequence)
    assert sorted(int(t.get_text()) for t in fewest) == [1, 2, 3, 4, 5]
    # The player's 8 clicks that changed the board: 2,2 got three (clicks 4, 5 and 8: a
    # flag put, taken off, then the cell opened), one mark "4+2"; 0,0 two (opened, then
    # chorded), side by side; the others one each.
    player = _marks(figure, "player")
    assert sorted(t.get_text() for t in player) == ["1", "2", "3", "4+2", "6", "7"]
    captions = [t.get_text() for t in figure.texts]
    assert "the player: 9 clicks (1 changed nothing: not shown)" in captions
    assert "the fewest: 5 clicks (exact ZiNi, proved)" in captions
    # Without the efficiency, no path is drawn.
    assert not _marks(_figure(monkeypatch, judged, None, tmp_path), "fewest")


def test_the_command_line_draws_it(game, tmp_path, capsys):  # noqa: F811
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread

    plain, paths = tmp_path / "plain.png", tmp_path / "paths.png"
    assert main(["replay", str(game), "--image", str(plain)]) == 0
    assert main(["replay", str(game), "--efficiency", "--image", str(paths)]) == 0
    assert "picture written to" in capsys.readouterr().out
    # The two panels go between the title and the timeline: a taller picture.
    assert imread(paths).shape[0] > imread(plain).shape[0]


def _body(path: Path, **options) -> dict:
    return {"name": path.name, "data": base64.b64encode(path.read_bytes()).decode(),
            **options}


@pytest.mark.parametrize("name", ["game", "arbiter-beginner-wang-jianing.avf"])
def test_the_api_sequence_clears_the_board_in_exactly_its_clicks(client, game, name):  # noqa: F811
    path = game if name == "game" else REPLAYS / name
    assert client.post("/api/replay", json=_body(path)).json()["efficiency"] is None
    answer = client.post("/api/replay", json=_body(path, efficiency=True, time_limit=30))
    assert answer.status_code == 200
    efficiency = answer.json()["efficiency"]
    board = read_replay(path).board
    assert replayed(board, efficiency["sequence"]) == efficiency["zini"]
    assert efficiency["zini_optimal"] and efficiency["zini"] <= answer.json()["clicks"]
    if name == "game":
        assert efficiency["zini"] == 5
