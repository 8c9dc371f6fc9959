"""A recorded game's clicks against the exact ZiNi of its board, and its wasted clicks
(clicks that changed nothing, flags no chord used): in the judging's JSON and its text."""

from __future__ import annotations

import json

import pytest

from exactmines.io.files import read_replay
from exactmines.io.replays import Recorder
from exactmines.position import Board
from exactmines.replay.efficiency import game_efficiency, unused_flags
from exactmines.ui.cli import main

# One mine in the middle: 3BV 8, and 5 clicks clear it (flag, click and chord two corners).
BOARD = Board(3, 3, frozenset({(1, 1)}))


@pytest.fixture
def game(tmp_path):
    recorder = Recorder(BOARD)
    recorder.left((0, 0))
    recorder.left((0, 0))   # on an open cell: changes nothing
    recorder.right((1, 1))  # the mine's flag, used by the chords below
    recorder.chord((0, 0))  # opens 0,1 and 1,0
    recorder.right((2, 2))  # a flag put and taken off: two clicks no chord used
    recorder.right((2, 2))
    recorder.chord((0, 1))  # opens 0,2 and 1,2
    recorder.chord((1, 0))  # opens 2,0 and 2,1
    recorder.left((2, 2))
    assert recorder.won
    path = tmp_path / "game.evf"
    path.write_bytes(recorder.evf(player="me", software="test"))
    return path


def test_wasted_clicks_and_the_exact_zini(game):
    replay = read_replay(game)
    figures = replay.figures
    assert figures.left + figures.right + figures.double == 9
    assert unused_flags(replay) == 2
    e = game_efficiency(replay)
    assert (e.clicks, e.zini, e.zini_lower_bound, e.zini_optimal) == (9, 5, 5, True)
    assert (e.changed_nothing, e.flags_unused) == (1, 2)
    assert e.to_dict()["efficiency"] == "5/9"
    assert e.to_dict()["efficiency_bounds"] == ["5/9", "5/9"]


def test_a_flag_put_and_never_chorded_is_wasted_and_a_used_one_is_not():
    recorder = Recorder(BOARD)
    recorder.right((1, 1))
    for cell in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]:
        recorder.left(cell)
    replay = read_replay_bytes(recorder)
    assert unused_flags(replay) == 1
    e = game_efficiency(replay)
    assert (e.clicks, e.changed_nothing, e.flags_unused) == (9, 0, 1)


def read_replay_bytes(recorder):
    from exactmines.io.replays import parse_replay

    return parse_replay(recorder.evf(player="me", software="test"), "game.evf", "evf")


def test_replay_json_and_text_report_it(game, capsys):
    assert main(["replay", str(game), "--format", "json", "--workers", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["efficiency"] is None  # asked for only
    assert main(["replay", str(game), "--format", "json", "--workers", "1",
                 "--efficiency"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["efficiency"] == {
        "clicks": 9, "zini": 5, "zini_lower_bound": 5, "zini_optimal": True,
        "efficiency": "5/9", "efficiency_bounds": ["5/9", "5/9"], "changed_nothing": 1,
        "flags_unused": 2, "wasted": 3, "solver": "RC2",
        "sequence": data["efficiency"]["sequence"]}
    assert len(data["efficiency"]["sequence"]) == 5
    assert main(["replay", str(game), "--workers", "1", "--efficiency"]) == 0
    text = capsys.readouterr().out
    assert ("9 clicks against exact ZiNi 5: efficiency 55.6 % (5/9); wasted: 1 click that "
            "changed nothing, 2 flag clicks no chord used") in text


def test_a_lost_game_has_no_efficiency(tmp_path, capsys):
    recorder = Recorder(BOARD)
    recorder.left((1, 1))
    path = tmp_path / "boom.evf"
    path.write_bytes(recorder.evf(player="me", software="test"))
    assert main(["replay", str(path), "--format", "json", "--workers", "1",
                 "--efficiency"]) == 0
    assert json.loads(capsys.readouterr().out)["efficiency"] is None
