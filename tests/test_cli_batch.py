"""batch, convert, analyze --image and the command line's polish, end to end."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from golden import normalised
from matplotlib.image import imread

from exactmines import __version__
from exactmines.analysis.file_batch import position_files
from exactmines.errors import InputError
from exactmines.io.files import read_board
from exactmines.io.urls import board_to_jsm_url
from exactmines.position import Board
from exactmines.runner import read_rows
from exactmines.ui.cli import app, main
from exactmines.ui.pictures import board_layout

DATA = Path(__file__).parent / "data"
GOLDEN = sorted(DATA.glob("*.mine"))
ROW_ONLY = ("id",)


@pytest.fixture()
def positions(tmp_path):
    """The golden positions plus one unreadable file, in a folder of their own."""
    folder = tmp_path / "positions"
    folder.mkdir()
    for path in GOLDEN:
        shutil.copy(path, folder / path.name)
    (folder / "broken.mine").write_text("3x3x1\nH9H\nHHH\nHHH\n")
    return folder


def golden_row(row):
    assert row["id"] == row["file"]
    expected = json.loads((DATA / Path(row["file"]).name).with_suffix(".json").read_text())
    return normalised({k: v for k, v in row.items() if k not in ROW_ONLY}), expected


def check_rows(out, folder):
    meta, rows = read_rows(out)
    assert meta == {"command": "batch", "backend": "auto", "time_limit": 30.0}
    assert sorted(r["id"] for r in rows) == sorted(str(p) for p in folder.glob("*.mine"))
    for row in rows:
        if row["file"].endswith("broken.mine"):
            assert row["error"] == f"{row['file']}:2:2: 9 is not a Minesweeper number"
        else:
            got, expected = golden_row(row)
            assert got == expected
    return rows


@pytest.mark.parametrize("workers", ["1", "2"])
def test_batch_writes_the_analyze_json_of_every_file(positions, tmp_path, capsys, workers):
    out = tmp_path / "results.jsonl"
    code = main(["batch", str(positions), "--out", str(out), "--workers", workers])
    captured = capsys.readouterr()
    assert code == 2  # one file could not be read; every other row is still there
    assert captured.err.count("\n") == 1
    assert "1 of 6 files could not be analysed" in captured.err
    assert "broken.mine:2:2" in captured.err
    assert "6 positions" in captured.out and "1 inconsistent" in captured.out
    check_rows(out, positions)


def test_batch_resumes_an_interrupted_run_and_retries_failed_files(positions, tmp_path,
                                                                    capsys):
    out = tmp_path / "results.jsonl"
    main(["batch", str(positions), "--out", str(out), "--workers", "1", "--quiet"])
    assert capsys.readouterr().out == ""  # --quiet: no summary
    lines = out.read_text().splitlines()
    kept = [json.loads(line) for line in lines[1:3]]
    # An interruption: two finished rows, then half a line.
    out.write_text("\n".join(lines[:3]) + '\n{"id": "' + str(positions) + '/ne')
    (positions / "broken.mine").write_text("3x3x1\nH1H\nHHH\nHHH\n")  # fixed meanwhile
    code = main(["batch", str(positions), "--out", str(out), "--resume", "--format", "json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    assert summary["files"] == 6 and summary["errors"] == 0 and summary["inconsistent"] == 1
    assert summary["undecided"] == 0 and summary["verdicts_incomplete"] == 0
    rows = read_rows(out)[1]
    assert len(rows) == 6 and len({r["id"] for r in rows}) == 6
    assert all(line.strip() for line in out.read_text().split("\n")[:-1])  # torn line gone
    # A row finished before the interruption is kept as it was (its timing too), not redone;
    # the error row was dropped and its file analysed again.
    finished = [r for r in kept if "error" not in r]
    assert finished and all(r in rows for r in finished)
    for row in rows:
        if row["file"].endswith("broken.mine"):
            assert "error" not in row and row["layouts"] == "5"
        else:
            got, expected = golden_row(row)
            assert got == expected


def test_batch_refuses_to_overwrite_or_mix_runs(positions, tmp_path, capsys):
    out = tmp_path / "results.jsonl"
    main(["batch", str(positions / "needs-count.mine"), "--out", str(out)])
    capsys.readouterr()
    assert main(["batch", str(positions / "needs-count.mine"), "--out", str(out)]) == 2
    assert "--resume" in capsys.readouterr().err
    assert main(["batch", str(positions / "needs-count.mine"), "--out", str(out), "--resume",
                 "--time-limit", "5"]) == 2
    assert "other settings" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "message"), [
    (["--workers", "0"], "--workers 0"),
    (["--chunk-size", "0"], "--chunk-size 0"),
    (["--backend", "nonsense"], "nonsense"),
    (["--scheduler", "nonsense"], "--scheduler nonsense"),
    (["--time-limit", "0"], "--time-limit 0.0: must be more than 0 s; inf for no limit"),
])
def test_batch_bad_options_are_one_line(positions, tmp_path, capsys, args, message):
    out = tmp_path / "r.jsonl"
    assert main(["batch", str(positions), "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_position_files_from_folders_patterns_and_names(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "deep").mkdir()
    for name in ("a/x.mine", "a/y.mine", "a/deep/z.mine", "a/notes.txt"):
        (tmp_path / name).write_text("1x1\nH\n")
    a = str(tmp_path / "a")
    assert position_files([a]) == [f"{a}/x.mine", f"{a}/y.mine"]
    assert position_files([f"{a}/**/*.mine"]) == [f"{a}/deep/z.mine", f"{a}/x.mine",
                                                   f"{a}/y.mine"]
    # Each file once, in the order first named.
    assert position_files([f"{a}/y.mine", a]) == [f"{a}/y.mine", f"{a}/x.mine"]
    for bad, message in ((f"{a}/nothing*.mine", "no file matches"),
                         (f"{a}/missing.mine", "no such file"),
                         (str(tmp_path / "a" / "deep" / "z.mine") + "x", "no such file")):
        with pytest.raises(InputError, match=message):
            position_files([bad])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no .mine files"):
        position_files([str(tmp_path / "empty")])


def test_a_fifo_or_device_named_is_a_file_to_read_not_a_missing_one(tmp_path, capsys):
    # Both were "no such file or directory": only regular files were taken by name.
    fifo = tmp_path / "position.fifo"
    os.mkfifo(fifo)
    assert position_files([str(fifo), "/dev/null"]) == [str(fifo), "/dev/null"]
    out = tmp_path / "out.jsonl"
    assert main(["batch", "/dev/null", "--out", str(out), "--workers", "1", "--quiet"]) == 2
    assert read_rows(out)[1][0]["error"].startswith("/dev/null:1:1: empty file")


# --- convert ---------------------------------------------------------------------------

def test_convert_between_every_board_format(tmp_path, capsys):
    board = Board(7, 5, frozenset({(0, 0), (2, 3), (4, 6), (1, 5)}))
    url = board_to_jsm_url(board)
    steps = [(url, "b.mine"), ("b.mine", "b.mbf"), ("b.mbf", "b.txt"), ("b.txt", "c.mine")]
    for source, target in steps:
        source = source if source == url else str(tmp_path / source)
        assert main(["convert", source, str(tmp_path / target), "--format", "json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert (summary["width"], summary["height"], summary["mines"]) == (7, 5, 4)
        assert summary["jsminesweeper"] == url
        assert read_board(tmp_path / target) == board
    assert (tmp_path / "b.txt").read_text().splitlines()[0] == "xoooooo"
    assert main(["convert", str(tmp_path / "b.mbf")]) == 0  # no OUT: summary and link only
    assert capsys.readouterr().out.splitlines()[-1] == f"JSMinesweeper: {url}"


@pytest.mark.parametrize(("args", "message"), [
    (["?b=32&m=8g", "out.png"], "must end in .mine, .mbf, .txt, .json, .graphml or .edges"),
    (["?b=32&m=8", "out.mine"], "needs 2"),
    (["missing.mbf", "out.mine"], "missing.mbf: no such file"),
    # Board text given as the argument: the text was the error's source, newlines and all
    # (3 lines), or "File name too long" with 5,000 characters (found by scripts/fuzz.py).
    (["HHH\nHMH\n", "out.mine"], "IN: neither a file nor a JSMinesweeper link: "
                                  "'HHH\\nHMH\\n' (8 characters)"),
    (["H" * 5000, "out.mine"], f"IN: neither a file nor a JSMinesweeper link: "
                               f"'{'H' * 40}...' (5,000 characters)"),
])
def test_convert_errors_are_one_line(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    assert main(["convert", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / args[1]).exists()


def test_an_error_naming_a_file_whose_name_has_a_newline_is_one_line(tmp_path, capsys):
    name = str(tmp_path / "a\nb.mine")
    assert main(["analyze", name]) == 2
    assert capsys.readouterr().err == (f"exactmines: error: {tmp_path}/a\\nb.mine: no such "
                                       "file\n")


def test_convert_refuses_a_position_and_what_mbf_cannot_hold(tmp_path, capsys):
    assert main(["convert", str(DATA / "reference-9x9.mine"), str(tmp_path / "r.mbf")]) == 2
    assert "must mark every mine" in capsys.readouterr().err
    (tmp_path / "wide.txt").write_text("x" + "o" * 299 + "\n")
    assert main(["convert", str(tmp_path / "wide.txt"), str(tmp_path / "wide.mbf")]) == 2
    assert "does not fit MBF" in capsys.readouterr().err
    assert main(["convert", str(tmp_path / "wide.txt"), str(tmp_path / "wide.mine")]) == 0
    assert read_board(tmp_path / "wide.mine").width == 300


# --- analyze --image -------------------------------------------------------------------

def test_analyze_draws_the_picture(tmp_path, capsys):
    out = tmp_path / "ref.png"
    assert main(["analyze", str(DATA / "reference-9x9.mine"), "--image", str(out)]) == 0
    assert f"picture written to {out}" in capsys.readouterr().out
    pixels = imread(out)
    width, height = board_layout(9, 9).pixels
    assert pixels.shape[:2] == (height, width)
    # Not blank: many distinct colours (numbers, verdicts, probabilities).
    assert len({tuple(p) for p in pixels.reshape(-1, pixels.shape[2])[::7].tolist()}) > 20


def test_analyze_image_in_json_mode_keeps_stdout_pure(tmp_path, capsys):
    out = tmp_path / "ref.svg"
    assert main(["analyze", str(DATA / "inconsistent.mine"), "--image", str(out),
                 "--format", "json"]) == 3
    assert json.loads(capsys.readouterr().out)["consistent"] is False
    assert out.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("extra", [["--image", "p.gif"],
                                   ["--image", "p.png", str(DATA / "needs-count.mine")]])
def test_analyze_image_errors(tmp_path, capsys, monkeypatch, extra):
    monkeypatch.chdir(tmp_path)
    assert main(["analyze", str(DATA / "reference-9x9.mine"), *extra]) == 2
    assert capsys.readouterr().err.startswith("exactmines: error: command line: --image")
    assert list(tmp_path.iterdir()) == []


# --- polish ----------------------------------------------------------------------------

def test_every_command_help_has_an_example(capsys):
    names = [c.name for c in app.registered_commands]
    assert {"analyze", "batch", "convert"} <= set(names)
    for name in names:
        assert main([name, "--help"]) == 0
        text = capsys.readouterr().out
        assert f"Example: exactmines {name}" in text, name


def test_python_dash_m_version_and_a_real_batch_run(tmp_path, positions):
    run = [sys.executable, "-m", "exactmines"]
    version = subprocess.run([*run, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout == f"exactmines {__version__}\n"
    out = tmp_path / "r.jsonl"
    (positions / "broken.mine").unlink()
    done = subprocess.run([*run, "batch", f"{positions}/*.mine", "--out", str(out),
                           "--workers", "2", "--format", "json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # not a terminal: no progress bar
    assert json.loads(done.stdout)["files"] == len(GOLDEN)
    assert len(read_rows(out)[1]) == len(GOLDEN)


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_bar_on_a_terminal_unless_quiet(positions, tmp_path, monkeypatch, capsys,
                                                 quiet):
    (positions / "broken.mine").unlink()
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code = main(["batch", str(positions), "--out", str(tmp_path / "r.jsonl"), "--workers", "1",
                 *(["--quiet"] if quiet else [])])
    assert code == 0
    shown = terminal.getvalue()
    if quiet:
        assert shown == "" and capsys.readouterr().out == ""
    else:
        assert "analysing" in shown and f"{len(GOLDEN)}/{len(GOLDEN)}" in shown


def test_batch_without_a_time_limit_says_null(positions, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["batch", str(positions / "needs-count.mine"), "--out", str(out),
                 "--time-limit", "inf", "--workers", "1", "--quiet"]) == 0
    meta, rows = read_rows(out)
    assert meta is not None and meta["time_limit"] is None
    assert rows and rows[0]["probabilities_computed"]
