"""``exactmines play --record DIR``: the strategy's games as Metasweeper replays."""

from __future__ import annotations

import json

from exactmines.game import board_from_indices
from exactmines.io.files import read_replay
from exactmines.play.games import PlaySettings, deal_game, play_one, replay_name
from exactmines.ui.cli import main


def test_recorded_games_read_back_with_their_boards_and_clicks(tmp_path, capsys):
    out, folder = tmp_path / "games.jsonl", tmp_path / "replays"
    code = main(["play", "--width", "9", "--height", "9", "--mines", "10", "--games", "6",
                 "--start", "safe", "--at", "0,0", "--seed", "5", "--record", str(folder),
                 "--out", str(out), "-q", "--format", "json"])
    assert code == 0
    settings = PlaySettings(9, 9, 10, "safe", (0, 0), 5)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["meta"]["record"] == str(folder)
    names = sorted(p.name for p in folder.iterdir())
    assert names == [replay_name(settings, i) for i in range(6)]
    for row in rows[1:]:
        replay = read_replay(row["replay"])
        assert replay.board == board_from_indices(9, 9, deal_game(settings, row["id"]))
        assert replay.player == "exactmines best" and replay.software.startswith("exactmines")
        assert replay.format == "evf" and replay.mode == "standard"
        # Every click of the player is a left click on a covered cell, the first at --at.
        assert all(e.kind == "left" for e in replay.events)
        assert replay.events[0].cell == (0, 0)
        assert len(replay.events) == row["clicks"] == play_one(settings, row["id"]).clicks
        assert replay.completed == row["won"]
    assert [row["won"] for row in rows[1:]] == [True, False, True, True, True, True]
    assert json.loads(capsys.readouterr().out)["wins"] == 5


def test_record_refuses_a_file_for_a_folder(tmp_path, capsys):
    (tmp_path / "taken").write_text("")
    code = main(["play", "--width", "9", "--height", "9", "--mines", "10", "--games", "1",
                 "--start", "safe", "--at", "0,0", "--seed", "3", "--record",
                 str(tmp_path / "taken")])
    assert code == 2
    assert "--record" in capsys.readouterr().err


def test_record_refuses_a_board_larger_than_a_replay_holds(tmp_path, capsys):
    code = main(["play", "--width", "300", "--height", "9", "--mines", "10", "--games", "1",
                 "--start", "safe", "--at", "0,0", "--seed", "3", "--record",
                 str(tmp_path / "big")])
    assert code == 2
    assert "--record" in capsys.readouterr().err and not (tmp_path / "big").exists()


def test_a_record_folder_in_a_missing_folder_is_refused_before_the_games(tmp_path, capsys):
    # --record DIR is made (as generate --out's folder is), but not its parents.
    folder = tmp_path / "missing" / "replays"
    code = main(["play", "--width", "9", "--height", "9", "--mines", "10", "--games", "2",
                 "--start", "safe", "--at", "0,0", "--seed", "5", "--record", str(folder),
                 "-q"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.strip().count("\n") == 0 and "does not exist" in captured.err
    assert not (tmp_path / "missing").exists()
