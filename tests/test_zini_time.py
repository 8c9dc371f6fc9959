"""The time limit of ``zini`` holds: a large part is searched in a child process that is
ended when the budget runs out, and an ended child's last reported sequence and bound are
the answer. No wall-clock threshold: the child below reports and then never returns, so
only its ending gives an answer. The functions at the top run in the child (it imports
this module by name)."""

from __future__ import annotations

import os
import random
import tempfile
import threading

import pytest
from test_zini import _seq, replay  # the game's rules, written apart from the solver

from exactmines.budget import UNLIMITED, Budget
from exactmines.efficiency import killable
from exactmines.efficiency.killable import Progress, read_progress, solve_part_bounded
from exactmines.efficiency.layout import Layout
from exactmines.efficiency.maxsat import solve_part_maxsat
from exactmines.efficiency.model import parts
from exactmines.efficiency.zini import fewest_clicks
from exactmines.game import random_board


def stalled(layout, part, start, incumbent, path, deadline, budget):  # runs in the child
    """The part proved and reported, then no answer: the child must be ended."""
    solve_part_maxsat(layout, part, start, UNLIMITED, incumbent, report=Progress(path))
    threading.Event().wait()


def stalled_proof(layout, part, start, incumbent, path, deadline, budget):  # in the child
    """The part's bound proved and reported (with the incumbent), then no answer."""
    proved = solve_part_maxsat(layout, part, start, UNLIMITED, incumbent)
    Progress(path)(incumbent, proved.lower_bound)
    threading.Event().wait()


def _board(seed=0):
    board = random_board(9, 9, 10, random.Random(seed))
    layout = Layout.of(board)
    return board, layout, max(parts(layout), key=lambda p: len(p.numbered))


def test_the_progress_file_holds_the_best_sequence_and_the_proved_bound(tmp_path):
    board, layout, part = _board()
    assert read_progress(str(tmp_path / "none.json")) is None
    path = str(tmp_path / "progress.json")
    answer = solve_part_maxsat(layout, part, None, UNLIMITED, report=Progress(path))
    clicks, lower = read_progress(path)
    assert answer.optimal and len(clicks) == len(answer.clicks) and lower == answer.lower_bound
    # Interrupted early, the last report is never better than what was proved.
    quick = str(tmp_path / "quick.json")
    big = random_board(30, 16, 99, random.Random(3))
    big_layout = Layout.of(big)
    big_part = max(parts(big_layout), key=lambda p: len(p.numbered))
    stopped = solve_part_maxsat(big_layout, big_part, None, Budget.seconds(0.5),
                                report=Progress(quick))
    clicks, lower = read_progress(quick)
    assert 1 <= lower <= stopped.lower_bound <= len(stopped.clicks) <= len(clicks)


def test_an_ended_child_still_gives_its_reported_sequence_and_bound(monkeypatch):
    # The child proves the part, reports, and hangs: without the ending and the progress
    # file, this call would never return, or return the incumbent with a bound of 1.
    board, layout, part = _board()
    proved = solve_part_maxsat(layout, part, None, UNLIMITED)
    assert proved.optimal
    from exactmines.efficiency.greedy import greedy

    incumbent = greedy(layout, None, part=part)
    assert len(incumbent) > proved.lower_bound  # a board where the greedy is not optimal
    monkeypatch.setattr(killable, "IN_PROCESS", 0)
    answer = solve_part_bounded(layout, part, None, Budget.seconds(10), incumbent,
                                work=stalled)
    assert answer.extra == {"ended": True}
    assert answer.optimal and answer.lower_bound == proved.lower_bound
    assert len(answer.clicks) == len(proved.clicks)


@pytest.fixture
def calls(monkeypatch):
    """The names of the works sent to a child, in order."""
    sent: list[str] = []
    real = killable.run_in_child

    def spy(work, args, budget, **options):
        sent.append(work.__name__)
        # The child is ended before the deadline it was given (args[5]), not at it: what
        # follows its ending (reading its progress, playing the answer) is inside the limit.
        assert budget.deadline < args[5]
        return real(work, args, budget, **options)

    monkeypatch.setattr(killable, "run_in_child", spy)
    return sent


def test_a_large_part_is_searched_in_a_child_and_the_answer_clears_the_board(calls,
                                                                          monkeypatch):
    monkeypatch.setattr(killable, "cores", lambda: 1)  # on two, side by side (below)
    board = random_board(16, 16, 40, random.Random(1))
    answer = fewest_clicks(board, budget=Budget.seconds(5))
    assert "_search" in calls
    assert replay(board, _seq(answer)) == answer.clicks
    assert answer.lower_bound <= answer.clicks <= answer.greedy
    # Without a limit there is nothing to end: the search stays in this process.
    calls.clear()
    small = random_board(9, 9, 10, random.Random(0))
    assert fewest_clicks(small).optimal and calls == []


def _beside_a_stalled_proof(budget):
    """:func:`killable._side_by_side` on :func:`_board`'s part from its greedy sequence,
    the child's work :func:`stalled_proof`: the answer, and that greedy sequence."""
    from exactmines.efficiency.greedy import greedy

    board, layout, part = _board()
    incumbent = greedy(layout, None, part=part)
    with tempfile.TemporaryDirectory() as folder:
        answer = killable._side_by_side(layout, part, None, budget, incumbent,
                                        os.path.join(folder, "progress.json"),
                                        prove=stalled_proof)
    return answer, incumbent


def test_beside_the_proof_the_search_stops_at_its_bound_and_ends_the_child():
    # The child reports the part's minimum as its bound and never answers: only the
    # search beside it reaching that bound ends it, well before the budget runs out (else
    # this call returns when it does, and the last assertion fails). The answer is the
    # search's sequence, proved by the child's bound.
    board, layout, part = _board()
    proved = solve_part_maxsat(layout, part, None, UNLIMITED)
    budget = Budget.seconds(120)
    answer, incumbent = _beside_a_stalled_proof(budget)
    assert len(incumbent) > proved.lower_bound
    assert answer.optimal and answer.extra == {"ended": True}
    assert len(answer.clicks) == answer.lower_bound == proved.lower_bound
    assert not budget.expired()


def test_on_two_cores_a_part_is_proved_beside_its_search(calls, monkeypatch):
    # A part above IN_PROCESS numbers, on a machine of two cores or more, goes side by
    # side: the child proves (here within the budget), the answer is its proof and clears
    # the board.
    monkeypatch.setattr(killable, "cores", lambda: 2)
    board = random_board(16, 16, 40, random.Random(1))
    answer = fewest_clicks(board, budget=Budget.seconds(60))
    assert "_prove" in calls and "_search" not in calls
    assert answer.optimal and replay(board, _seq(answer)) == answer.clicks
    assert answer.clicks == fewest_clicks(board).clicks


@pytest.mark.parametrize("alone", [0.0, 60.0])
def test_the_search_starts_beside_a_proof_not_finished_alone(alone, monkeypatch):
    # The child proves and reports the part's minimum, then never answers: with no time
    # alone the search starts, meets that bound and ends the child; with a minute alone
    # the search has not started when the budget (short of that minute) runs out.
    from exactmines.efficiency.maxsat import _Problem

    started = []
    real = _Problem.improve

    def improve(self, *args, **options):
        started.append(True)
        return real(self, *args, **options)

    monkeypatch.setattr(_Problem, "improve", improve)
    monkeypatch.setattr(killable, "_alone", lambda budget: alone)
    answer, incumbent = _beside_a_stalled_proof(Budget.seconds(120 if alone == 0 else 4))
    assert started == ([True] if alone == 0 else [])
    assert answer.extra == {"ended": True}
    assert answer.optimal == (alone == 0)
    assert len(answer.clicks) == (answer.lower_bound if alone == 0 else len(incumbent))
