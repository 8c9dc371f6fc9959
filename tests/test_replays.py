"""Reading and recording replays through ms_toollib (exactmines.io.replays)."""

from __future__ import annotations

import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from exactmines.budget import Budget
from exactmines.errors import BackendUnavailable, InputError
from exactmines.io.files import read_replay
from exactmines.io.replays import EVF_VERSIONS, Recorder, ReplayEvent, parse_replay
from exactmines.position import Board

DATA = Path(__file__).parent / "data" / "replays"
PUBLIC = DATA / "public"


def test_an_arbiter_expert_game_as_ms_toollib_reads_it():
    replay = read_replay(PUBLIC / "arbiter-expert-wang-jianing.avf")
    assert (replay.format, replay.board.width, replay.board.height, replay.board.mines) == \
        ("avf", 30, 16, 99)
    assert (replay.player, replay.software, replay.mode, replay.completed) == \
        ("Wang Jianing G01825", "Arbiter", "standard", True)
    # ms_toollib's own test of this file (demos/python/parse_avf.py) asserts these figures.
    figures = replay.figures
    assert (figures.bbbv, figures.time, figures.left, figures.right, figures.double) == \
        (127, 49.25, 126, 11, 14)
    assert figures.bbbv_s == pytest.approx(127 / 49.25)
    # The clicks that changed the board are its "effective" clicks: lce 119, rce 11, dce 14.
    kinds = [e.kind for e in replay.events]
    assert (kinds.count("left"), kinds.count("right"), kinds.count("chord")) == (119, 11, 14)
    assert replay.events[0] == ReplayEvent(0.0, "left", replay.events[0].cell)
    assert replay.reader == f"ms_toollib {version('ms_toollib')}"


@pytest.mark.parametrize("name, fmt, size, player, software, mode", [
    ("clone-expert-zhang-shen-jia.mvf", "mvf", (30, 16, 99), "Zhang Shen Jia(China)",
     "0.97 beta", "standard"),
    ("vienna-expert-wang-jianing.rmv", "rmv", (30, 16, 99), "王嘉宁", "Viennasweeper",
     "standard"),
    ("metasweeper-beginner-noguess-wang-jianing.evf", "evf", (8, 8, 10), "王嘉宁", "元3.1.9",
     "classic no-guess"),
    ("arbiter-custom-8x11-wang-jianing.avf", "avf", (8, 11, 7), "王嘉宁", "Arbiter",
     "standard"),
])
def test_every_format_is_read(name, fmt, size, player, software, mode):
    replay = read_replay(PUBLIC / name)
    board = replay.board
    assert (replay.format, (board.width, board.height, board.mines)) == (fmt, size)
    assert (replay.player, replay.software, replay.mode) == (player, software, mode)
    assert replay.events and replay.completed


def test_flags_put_before_the_first_click_come_at_or_before_time_0():
    replay = read_replay(PUBLIC / "vienna-beginner-preflags-thomas-kolar.rmv")
    first_open = next(i for i, e in enumerate(replay.events) if e.kind == "left")
    assert first_open > 0
    assert all(e.kind == "right" and e.time <= 0 for e in replay.events[:first_open])
    assert replay.events[first_open].time == 0


@pytest.mark.parametrize("name, kind", [
    ("public/damaged-vienna-invalid-utf8.rmv", "RMV"),
])
def test_a_file_ms_toollib_stops_on_is_one_error_naming_it(name, kind, tmp_path,
                                                           monkeypatch):
    # ms_toollib aborts its whole process on these, after writing crash.log in the working
    # folder: the reading runs in a child process, in a folder of its own.
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=rf"{name}: ms_toollib .* cannot read it as {kind} "
                                         r"\(called `Result::unwrap\(\)` on an `Err` value"):
        read_replay(DATA / name)
    assert list(tmp_path.iterdir()) == []


def test_the_reading_child_outlives_the_folder_it_started_in(tmp_path, monkeypatch):
    # The child that reads is kept between files: one started in a folder since removed
    # (a test's, a user's) reads the next file as well, and leaves nothing behind.
    import exactmines.child as child

    monkeypatch.setattr(child, "_idle", [])  # so that the next reading starts a child
    started_in = tmp_path / "gone"
    started_in.mkdir()
    monkeypatch.chdir(started_in)
    good = (PUBLIC / "vienna-beginner-preflags-thomas-kolar.rmv").resolve()
    try:
        first = read_replay(good)
        (kept,) = child._idle
        monkeypatch.chdir(tmp_path)
        started_in.rmdir()  # empty: the reading's own folder was elsewhere
        assert read_replay(good) == first
        assert child._idle == [kept]  # the same child
    finally:
        for process in child._idle:
            process.end()
    assert list(tmp_path.iterdir()) == []


def test_other_files_are_refused_by_name_or_content(tmp_path):
    with pytest.raises(InputError, match="not a replay: the name must end in .avf"):
        read_replay(DATA / "README.md")
    (tmp_path / "empty.avf").write_bytes(b"")
    with pytest.raises(InputError, match="empty.avf: empty file"):
        read_replay(tmp_path / "empty.avf")
    (tmp_path / "text.mvf").write_text("9x9x10\n" + "H" * 9 + "\n")
    with pytest.raises(InputError, match="text.mvf: ms_toollib .* cannot read it as MVF"):
        read_replay(tmp_path / "text.mvf")
    with pytest.raises(InputError, match="no such file"):
        read_replay(tmp_path / "missing.evf")
    with pytest.raises(InputError, match="unknown replay format 'xyz'"):
        parse_replay(b"data", "x", "xyz")


BOARD = Board(4, 3, frozenset({(0, 3), (2, 0)}))
#   0 0 1 *      the board
#   1 1 1 1
#   * 1 0 0


@pytest.mark.parametrize("version", EVF_VERSIONS)
def test_a_recorded_game_reads_back_as_played(version):
    recorder = Recorder(BOARD)
    recorder.right((2, 0))      # a flag before the first click
    recorder.left((2, 3))       # opens the zeros at the bottom right
    recorder.left((2, 3))       # nothing: already open (recorded, and ignored)
    recorder.chord((1, 3))      # nothing: no flag around the 1 yet
    recorder.right((0, 3))
    recorder.chord((1, 3))      # its flag matches: opens (0, 2)
    recorder.chord((1, 1))      # its flag is (2, 0): opens the rest, and wins
    recorder.left((0, 0))       # after the end: ignored
    assert recorder.over and recorder.won
    replay = parse_replay(recorder.evf(player="tester", software="exactmines tests",
                                       version=version), "game.evf", "evf")
    assert (replay.player, replay.software, replay.board) == ("tester", "exactmines tests",
                                                               BOARD)
    assert [(e.kind, e.cell) for e in replay.events] == [
        ("right", (2, 0)), ("left", (2, 3)), ("right", (0, 3)), ("chord", (1, 3)),
        ("chord", (1, 1))]
    times = [e.time for e in replay.events]
    assert times == sorted(times) and times[1] == 0
    assert replay.completed


def test_a_lost_game_is_recorded_with_its_losing_click():
    recorder = Recorder(BOARD)
    recorder.left((1, 0))
    recorder.left((2, 0))
    assert recorder.over and not recorder.won
    replay = parse_replay(recorder.evf(player="p", software="s"), "lost.evf", "evf")
    assert [(e.kind, e.cell) for e in replay.events] == [("left", (1, 0)), ("left", (2, 0))]
    assert not replay.completed


def test_the_recorder_refuses_what_it_cannot_write():
    recorder = Recorder(BOARD)
    with pytest.raises(InputError, match="row 3, col 0 is off the 4x3 board"):
        recorder.left((3, 0))
    with pytest.raises(ValueError, match="not over"):
        recorder.evf(player="p", software="s")
    recorder.left((1, 0))
    recorder.left((2, 0))
    with pytest.raises(InputError, match="evf version 2: ms_toollib writes and reads back"):
        recorder.evf(player="p", software="s", version=2)
    with pytest.raises(InputError, match="at most 255x255"):
        Recorder(Board(256, 1, frozenset()))


def test_without_ms_toollib_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ms_toollib", None)
    with pytest.raises(BackendUnavailable, match=r"pip install 'exactmines\[replay\]'"):
        Recorder(BOARD)


def test_the_reading_keeps_to_its_budget():
    with pytest.raises(InputError, match="did not finish reading it within the time limit"):
        read_replay(PUBLIC / "arbiter-expert-wang-jianing.avf", budget=Budget.seconds(1e-9))
