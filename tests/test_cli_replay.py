"""``exactmines replay``: reports, JSON, batches, bad files, pictures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from exactmines.io.files import read_replay
from exactmines.io.replays import ms_toollib_version
from exactmines.replay.judge import judge_replay
from exactmines.replay.serialize import judgement_to_dict
from exactmines.runner import read_rows
from exactmines.ui.cli import main

DATA = Path(__file__).parent / "data" / "replays"
EXPERT = str(DATA / "public" / "arbiter-expert-wang-jianing.avf")
CHORD_LOST = str(DATA / "recorded" / "clumsy-small-5x5x4-seed21-v0.evf")
DAMAGED = str(DATA / "public" / "damaged-vienna-invalid-utf8.rmv")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_text_report_of_a_game(capsys):
    code, out, err = run(capsys, EXPERT)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"{EXPERT}: Arbiter (.avf), player Wang Jianing G01825"
    assert lines[1] == ("30x16, 99 mines, standard mode: won; 49.250 s, 3BV 127, 3BV/s 2.579 "
                        "(time and 3BV from ms_toollib)")
    assert lines[2] == ("133 clicks opened cells, 11 flags put or taken off: 1 first, 129 safe, "
                        "2 needless guesses, 1 forced guess")
    assert lines[3] == ("luck: 2536/6045 = 42.0% (-log10 0.377), the chance of surviving the 3 "
                        "guesses it survived")
    assert "   33.17  left   0,22  1/3 = 33.3%     0            1/3 = 33.3%     needless guess " \
           "(1,25 was certainly safe)" in lines


def test_one_game_as_json_is_the_contract(capsys):
    code, out, _ = run(capsys, EXPERT, "--format", "json")
    game = json.loads(out)
    assert code == 0
    assert game == judgement_to_dict(judge_replay(read_replay(EXPERT)), EXPERT) | {
        "seconds": game["seconds"]}
    assert list(game) == ["file", "format", "player", "software", "mode", "width", "height",
                          "mines", "won", "trust_flags", "clicks", "flags", "classes",
                          "guesses", "forced_early", "needless_under_flag", "luck",
                          "luck_log10", "largest_excess", "riskiest", "lost_at", "ms_toollib",
                          "efficiency", "backend", "seconds", "notes", "events"]
    assert game["classes"] == {"first": 1, "safe": 129, "needless guess": 2,
                               "forced guess": 1, "not judged": 0}
    assert game["luck"] == "2536/6045" and game["largest_excess"]["excess"] == "1/3"
    assert game["ms_toollib"]["bbbv"] == 127 and game["ms_toollib"]["time"] == 49.25
    first = game["events"][0]
    assert first["class"] == "first" and first["probability"] is None
    assert len(game["events"]) == game["clicks"] + game["flags"]
    guess = game["events"][game["largest_excess"]["index"]]
    assert (guess["probability"], guess["safest"], guess["excess"], guess["class"]) == \
        ("1/3", "0", "1/3", "needless guess")


def test_flags_are_trusted_only_when_asked(capsys):
    _, out, _ = run(capsys, CHORD_LOST, "--format", "json")
    fair = json.loads(out)
    _, out, _ = run(capsys, CHORD_LOST, "--format", "json", "--trust-flags")
    trusting = json.loads(out)
    # The player chorded a 1 next to a wrong flag: a 1/2 guess; trusting the flag, "safe".
    assert fair["lost_at"]["probability"] == "1/2" and not fair["trust_flags"]
    assert trusting["trust_flags"] and trusting["lost_at"]["probability"] == "0"
    lost = trusting["events"][trusting["lost_at"]["index"]]
    assert (lost["class"], lost["mine"]) == ("safe", True)
    assert lost["note"] == "a mine where the analysis found none: a trusted flag was wrong"
    code, out, _ = run(capsys, CHORD_LOST, "--trust-flags")
    assert "(flags trusted as mines)" in out and "a trusted flag was wrong" in out


def test_a_bad_file_is_one_line_and_the_others_go_on(capsys, tmp_path):
    (tmp_path / "notes.avf").write_text("not a replay")
    code, out, err = run(capsys, EXPERT, DAMAGED, str(tmp_path / "notes.avf"), CHORD_LOST,
                         "--format", "json", "--workers", "1")
    games = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [g["file"] for g in games] == [EXPERT, CHORD_LOST]
    errors = err.splitlines()
    assert errors[0].startswith(f"exactmines: error: {DAMAGED}: {ms_toollib_version()} cannot "
                                "read it as RMV")
    assert errors[1].startswith(f"exactmines: error: {tmp_path / 'notes.avf'}: ms_toollib")
    assert errors[2] == "exactmines: error: 2 of 4 replays could not be judged (each named above)"
    assert len(errors) == 3


def test_a_batch_streams_to_jsonl_and_resumes(capsys, tmp_path):
    out = tmp_path / "judged.jsonl"
    folder = DATA / "public"
    code, text, err = run(capsys, str(folder), "--out", str(out), "--workers", "2", "-q")
    assert code == 2 and text == "" and "damaged-vienna-invalid-utf8.rmv" in err
    meta, rows = read_rows(out)
    assert meta == {"command": "replay", "trust_flags": False, "backend": "auto",
                    "time_limit": 60.0}
    files = sorted(str(p) for p in folder.iterdir() if p.suffix != ".md")
    assert sorted(r["id"] for r in rows) == files
    assert sum("error" in r for r in rows) == 1
    # Resumed, only the file that failed is tried again (and fails again).
    code, text, err = run(capsys, str(folder), "--out", str(out), "--resume", "--format",
                          "json")
    summary = json.loads(text)
    assert code == 2 and err.count("exactmines: error:") == 2
    assert (summary["files"], summary["games"], summary["errors"]) == (9, 8, 1)
    # 14 before one 50/50 no click could resolve was classed apart (forced, taken early).
    assert summary["classes"]["needless guess"] == 13
    assert len(read_rows(out)[1]) == 9


def test_the_picture(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "game.png"
    code, out, _ = run(capsys, CHORD_LOST, "--image", str(picture))
    assert code == 0 and out.rstrip().endswith(f"picture written to {picture}")
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, message", [
    (["--time-limit", "0"], "--time-limit 0.0: must be more than 0 s; inf for no limit"),
    (["--resume"], "--resume needs --out FILE"),
    (["--image", "x.png", CHORD_LOST], "--image draws one replay"),
    (["--image", "x.gif"], "the file name must end in .png"),
    (["--backend", "nope"], "nope"),
])
def test_bad_options_are_one_line(capsys, args, message):
    code, out, err = run(capsys, EXPERT, *args)
    assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1


def test_without_ms_toollib_the_command_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ms_toollib", None)
    from exactmines.io.replays import ms_toollib_version

    ms_toollib_version.cache_clear()
    code, out, err = run(capsys, EXPERT)
    ms_toollib_version.cache_clear()
    assert code == 2 and "pip install 'exactmines[replay]'" in err


def test_no_time_limit(capsys, tmp_path):
    out = tmp_path / "r.jsonl"
    code, _, _ = run(capsys, CHORD_LOST, "--time-limit", "inf", "--out", str(out), "-q")
    meta, rows = read_rows(out)
    assert code == 0 and meta["time_limit"] is None and rows[0]["classes"]["not judged"] == 0
