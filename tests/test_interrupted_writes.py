"""Ctrl-C at any moment of a write leaves whole files only: no ``.tmp`` beside the target,
and a generated board's ``.mine`` never without its ``.json``.

The signal is sent from inside the write (``signal.raise_signal``), at the moments a whole
run under load hit: just after the temporary file is made, and between a board's two files.
"""

from __future__ import annotations

import signal
import threading

import pytest

from exactmines.io import files
from exactmines.io.files import interrupts_deferred, write_atomic
from exactmines.ui.cli import main


@pytest.fixture(autouse=True)
def ctrl_c_as_a_shell_leaves_it():
    """Ctrl-C raises KeyboardInterrupt here, as in a terminal: a test run started in the
    background of a script inherits an ignored SIGINT (and these tests then saw nothing)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_ctrl_c_just_after_the_temporary_file_is_made_leaves_the_file_whole(tmp_path,
                                                                            monkeypatch):
    made = files.tempfile.mkstemp

    def mkstemp_then_ctrl_c(*args, **kwargs):
        handle = made(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)  # before the caller has the name to remove
        return handle

    monkeypatch.setattr(files.tempfile, "mkstemp", mkstemp_then_ctrl_c)
    target = tmp_path / "board.mine"
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "x.\n..\n")
    assert [p.name for p in tmp_path.iterdir()] == ["board.mine"]  # no .board.mine.*.tmp
    assert target.read_text() == "x.\n..\n"


def _ctrl_c_after_the_first(write):
    """``write`` (a ``write_atomic``) that sends Ctrl-C once its first file is written."""
    written: list[str] = []

    def write_then_ctrl_c(path, data, **kwargs):
        write(path, data, **kwargs)
        written.append(str(path))
        if len(written) == 1:
            signal.raise_signal(signal.SIGINT)

    return write_then_ctrl_c


def test_ctrl_c_between_a_boards_two_files_keeps_both(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "write_atomic", _ctrl_c_after_the_first(files.write_atomic))
    out = tmp_path / "o"
    assert main(["generate", "noguess", "--width", "9", "--height", "9", "--mines", "10",
                 "--count", "3", "--seed", "1", "--out", str(out), "-q"]) == 130
    assert sorted(p.name for p in out.iterdir()) == [
        "noguess-9x9x10-seed1-000.json", "noguess-9x9x10-seed1-000.mine"]


def test_a_signal_held_in_nested_blocks_comes_when_the_outer_one_ends():
    reached: list[str] = []
    with pytest.raises(KeyboardInterrupt), interrupts_deferred():
        with interrupts_deferred():
            signal.raise_signal(signal.SIGINT)
            reached.append("inner")
        reached.append("outer")
    assert reached == ["inner", "outer"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


def test_an_ignored_signal_stays_ignored():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with interrupts_deferred():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        signal.raise_signal(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_outside_the_main_thread_nothing_is_held():
    seen: list[object] = []

    def work() -> None:
        with interrupts_deferred():
            seen.append(signal.getsignal(signal.SIGINT))

    before = signal.getsignal(signal.SIGINT)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join(30)
    assert seen == [before]


def test_ctrl_c_between_an_exports_two_files_keeps_both(tmp_path, monkeypatch):
    from pathlib import Path

    from exactmines.analysis import export

    monkeypatch.setattr(export, "write_atomic", _ctrl_c_after_the_first(export.write_atomic))
    reference = Path(__file__).parent.parent / "instances" / "reference-9x9.mine"
    out = tmp_path / "reference.cnf"
    assert main(["export", str(reference), "--to", "cnf", "--out", str(out)]) == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reference.cnf", "reference.cnf.json"]
