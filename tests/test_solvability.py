"""Solvability against a slow, obviously complete reference; uniqueness against analysis;
the solvable/survey/analyze --unique commands end to end."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import deque
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import truth
from strategies import boards, positions

from exactmines import analyze
from exactmines.analysis.backends import Deductions, PartlyProved
from exactmines.analysis.backends.sat import SatBackend
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import InputError, OutOfTime, ParameterError, SolverError
from exactmines.game import deal, random_board
from exactmines.io.formats import board_from_text, position_from_text
from exactmines.position import Board
from exactmines.runner import read_rows
from exactmines.solvability.check import is_unique, solvable, solve_indices
from exactmines.solvability.survey import SurveySettings, run_survey, survey_board
from exactmines.ui.cli import main

# -- the reference: whole-position analysis after every move ------------------------------


def open_cell(board, shown, cell):
    """Reveal ``cell`` as the game does (breadth-first through zeros)."""
    queue = deque([cell])
    shown.add(cell)
    while queue:
        r, c = queue.popleft()
        if board.number((r, c)) == 0:
            for rr in range(r - 1, r + 2):
                for cc in range(c - 1, c + 2):
                    if 0 <= rr < board.height and 0 <= cc < board.width \
                            and (rr, cc) not in shown:
                        shown.add((rr, cc))
                        queue.append((rr, cc))


def certain_cells(position, how):
    if how == "oracle":
        answer = truth(position)
        return ([c for c, v in answer.verdict.items() if v == "safe"],
                [c for c, v in answer.verdict.items() if v == "mine"])
    result = analyze(position, backend=how)
    return result.safe, result.mines


def reference(board, at, use_count, how="sat"):
    """Reveal every certain safe cell and flag every certain mine of the whole position,
    again and again: complete by construction, slow, and sharing no code with the solver's
    rules or enumeration. Returns (revealed, flagged)."""
    shown, flagged = set(), set()
    open_cell(board, shown, at)
    while True:
        position = board.position(shown, flagged, count_known=use_count)
        safe, mines = certain_cells(position, how)
        for cell in safe:
            assert cell not in board.mine_cells
        assert not set(mines) - board.mine_cells
        if not safe and not set(mines) - flagged:
            return shown, flagged
        flagged |= set(mines)
        for cell in safe:
            if cell not in shown:
                open_cell(board, shown, cell)


def assert_agrees(board, at, use_count, how="sat", **options):
    result = solvable(board, at, use_count=use_count, **options)
    shown, flagged = reference(board, at, use_count, how)
    safe_cells = board.width * board.height - board.mines
    assert result.safe_cells == safe_cells
    assert result.solvable == (len(shown) == safe_cells), (board, at)
    assert result.revealed == len(shown), (board, at)
    if result.solvable:
        assert result.stuck is None
    else:
        # Same cells revealed, same mines proved: the fixpoint of complete deduction.
        assert result.stuck == board.position(shown, flagged, count_known=use_count)
    return result


@st.composite
def first_clicks(draw, max_side=5, max_cells=20):
    board = draw(boards(max_side=max_side, max_cells=max_cells))
    safe = [(r, c) for r in range(board.height) for c in range(board.width)
            if (r, c) not in board.mine_cells]
    if not safe:
        board = Board(board.width, board.height, board.mine_cells - {(0, 0)})
        safe = [(0, 0)]
    return board, draw(st.sampled_from(safe))


@given(case=first_clicks(), use_count=st.booleans())
def test_agrees_with_repeated_whole_position_analysis(case, use_count):
    assert_agrees(*case, use_count)


@given(case=first_clicks(max_side=3, max_cells=9), use_count=st.booleans())
def test_agrees_with_the_oracle_on_tiny_boards(case, use_count):
    assert_agrees(*case, use_count, how="oracle")


@settings(max_examples=25)
@given(case=first_clicks(), use_count=st.booleans())
def test_backend_route_gives_the_same_answers(backend, case, use_count):
    # enumeration_limit=0 hands every component to the backend's mine_numbers/deduce.
    assert_agrees(*case, use_count, backend=backend, enumeration_limit=0)


def test_agrees_on_many_small_seeded_boards():
    # The count decides cells inside a component only on a few percent of small boards:
    # enough of them that dropping that coupling fails here for certain.
    rng = random.Random(1)
    needed_count = 0
    for _ in range(400):
        width, height = rng.randint(3, 5), rng.randint(3, 5)
        board = random_board(width, height, rng.randint(1, width * height // 3), rng)
        safe = [(r, c) for r in range(height) for c in range(width)
                if (r, c) not in board.mine_cells]
        result = assert_agrees(board, rng.choice(safe), True)
        needed_count += result.count_deductions > 0
    assert needed_count >= 20


@pytest.mark.parametrize("width, height, mines, rule, at", [
    (8, 8, 13, "safe", (0, 0)),
    (9, 9, 10, "opening", (3, 3)),
    (16, 16, 40, "opening", (3, 3)),
])
def test_agrees_on_seeded_standard_boards(width, height, mines, rule, at):
    rng = random.Random(f"{width}x{height}/{mines}")
    seen = {True: 0, False: 0}
    # Deal until both outcomes occurred a few times, so the comparison covers stuck
    # positions as well as finished boards.
    for _ in range(150):
        result = assert_agrees(deal(width, height, mines, rng, rule=rule, at=at), at, True)
        seen[result.solvable] += 1
        if min(seen.values()) >= 3:
            break
    assert min(seen.values()) >= 3, seen


# -- known boards -------------------------------------------------------------------------


def test_a_board_that_needs_the_count():
    # "1" at the left proves the middle mine; the right cell touches no number, and only
    # "1 mine in all" proves it safe.
    board = board_from_text("oxo")
    with_count = solvable(board, (0, 0))
    assert with_count.solvable and with_count.count_deductions == 1
    assert with_count.mines_found == 1
    without = solvable(board, (0, 0), use_count=False)
    assert not without.solvable and without.revealed == 1
    assert without.stuck.rows == ("1FH",) and without.stuck.mines is None


def test_a_fifty_fifty_is_not_solvable():
    board = board_from_text("xo\noo")
    result = solvable(board, (1, 1))
    assert not result.solvable
    assert (result.revealed, result.safe_cells, result.mines_found) == (1, 3, 0)
    assert result.stuck.rows == ("HH", "H1") and result.stuck.mines == 1


def test_count_inside_a_component():
    # After the opening, each "2" on row 2 needs one more mine on row 3: either the middle
    # cell alone or both corners. Only "2 mines in all" rules out the corners.
    board = board_from_text("3x4x2\nHHH\nHHH\nHMH\nHMH\n")
    without = solvable(board, (0, 0), use_count=False)
    assert not without.solvable
    assert without.stuck.rows == ("000", "111", "2F2", "HHH")
    with_count = solvable(board, (0, 0))
    assert with_count.solvable and with_count.count_deductions == 3


def test_count_proves_every_cell_off_the_frontier_a_mine():
    # The 2 leaves 2 mines for its 3 covered neighbours, so the 2 cells it cannot see hold
    # the other 2: stuck, with those flagged (about 7 % of small dense boards end this way,
    # and the random-board tests above did not catch dropping this deduction).
    board = Board(2, 3, frozenset({(0, 0), (0, 1), (1, 0), (2, 1)}))
    result = assert_agrees(board, (2, 0), True, how="oracle")
    assert result.stuck.rows == ("FF", "HH", "2H")
    assert result.count_deductions == 2


def test_opening_that_clears_everything_takes_one_step():
    board = board_from_text("ooo\nooo\nooo")
    result = solvable(board, (1, 1))
    assert result.solvable and result.steps == 1 and result.exact_steps == 0


@pytest.mark.parametrize("at, message", [((0, 1), "holds a mine"),
                                         ((1, 0), "off the 3x1 board"),
                                         ((0, -1), "off the 3x1 board")])
def test_bad_first_click_is_an_input_error(at, message):
    with pytest.raises(InputError, match=message):
        solvable(board_from_text("oxo"), at)


def test_boards_beyond_the_old_size_limit_are_checked():
    # 40,200 cells (over the 40,000 once refused): one flood clears the empty board.
    result = solvable(Board(201, 200, frozenset()), (0, 0))
    assert result.solvable and result.revealed == 40_200 and result.steps == 1
    result = solvable(Board(300, 300, frozenset({(0, 2), (299, 299)})), (150, 150))
    assert result.solvable and result.revealed == 89_998 and result.steps == 1


@pytest.mark.parametrize("start, message", [(1, "holds a mine"), (3, "off the 3x1 board"),
                                            (-1, "off the 3x1 board")])
def test_solve_indices_refuses_a_bad_start(start, message):
    with pytest.raises(ParameterError, match=message):
        solve_indices(3, 1, [1], start)


def test_bad_start_is_refused_under_python_O():
    # The preconditions are raised errors, not asserts: python -O keeps them.
    code = ("from exactmines.solvability.check import solve_indices\n"
            "from exactmines.errors import ParameterError\n"
            "try:\n    solve_indices(3, 1, [1], 1)\n"
            "except ParameterError as e:\n    print('refused', e)\n")
    done = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.startswith("refused start 1: holds a mine")


def test_a_wrong_proof_is_a_solver_error():
    # Soundness is checked against the hidden board on every step, also under python -O:
    # a proof the board contradicts, handed to the step that applies proofs.
    import exactmines.solvability.check as check
    from exactmines.game import Game, board_from_indices

    def solver():
        return check.Solver(Game(board_from_indices(3, 1, [1])), 1, True, "auto", 100)

    with pytest.raises(SolverError, match=r"proved cell \(0, 1\) safe"):
        solver().apply([1], [])
    with pytest.raises(SolverError, match=r"proved cell \(0, 2\) a mine"):
        solver().apply([], [2])


# -- uniqueness ---------------------------------------------------------------------------


@given(position=positions(allow_lies=True))
def test_is_unique_agrees_with_the_oracle(position):
    answer = is_unique(position)
    expected = truth(position)
    assert answer.consistent == expected.consistent
    assert answer.unique == (expected.consistent and
                             all(v != "unknown" for v in expected.verdict.values()))
    assert answer.unique == analyze(position, backend="sat").unique
    assert answer.unique == (answer.reason == "")


@pytest.mark.parametrize("text, unique", [("5x1x1\nH1H1H\n", True), ("5x1x2\nH1H1H\n", True),
                                          ("5x1\nH1H1H\n", False)])
def test_the_count_can_make_a_two_layout_component_unique(text, unique):
    # Two layouts, one mine (the middle) or two (the ends): the total picks one. Rare in
    # random positions, so the oracle property above seldom meets it.
    position = position_from_text(text)
    answer = is_unique(position)
    assert answer.consistent and answer.unique == unique
    assert analyze(position, backend="sat").unique == unique
    expected = truth(position)
    assert unique == all(v != "unknown" for v in expected.verdict.values())


@pytest.mark.parametrize("seed", range(4))
def test_is_unique_on_big_positions(seed):
    board = deal(30, 16, 99, random.Random(seed), rule="opening", at=(3, 3))
    result = solvable(board, (3, 3))
    if result.stuck is not None:
        # Stuck means some cell is undetermined: never unique, on the analysis' word too.
        assert not is_unique(result.stuck).unique
        assert not analyze(result.stuck, backend="sat").unique
    everything = {(r, c) for r in range(16) for c in range(30)} - board.mine_cells
    assert is_unique(board.position(everything)).unique
    # Without the total, mines that touch no number leave the layout open.
    hidden = any(all(n in board.mine_cells for n in board.position().neighbours(m))
                 for m in board.mine_cells)
    assert is_unique(board.position(everything, count_known=False)).unique == (not hidden)


class _Budgets(SatBackend):
    """SAT that records the budget of every question it is asked."""

    def __init__(self) -> None:
        self.budgets: list[Budget] = []

    def layouts_up_to(self, component, limit, allowed=None, *, budget=UNLIMITED):
        self.budgets.append(budget)
        return super().layouts_up_to(component, limit, allowed, budget=budget)

    def mine_numbers(self, component, *, budget=UNLIMITED):
        self.budgets.append(budget)
        return super().mine_numbers(component, budget=budget)


@pytest.mark.parametrize("text", ["5x1x1\nH1H1H\n", "5x1x2\nH1H1H\n", "5x1\nH1H1H\n"])
def test_is_unique_asks_every_question_under_its_time_limit(text):
    # Each of these asks for two layouts, then the mine numbers, then two layouts under the
    # count (when known): every question carries the budget, none runs unbounded.
    engine = _Budgets()
    budget = Budget.seconds(60.0)
    is_unique(position_from_text(text), backend=engine, budget=budget)
    assert engine.budgets and all(b is budget for b in engine.budgets)
    engine = _Budgets()
    is_unique(position_from_text(text), backend=engine)
    assert set(engine.budgets) == {UNLIMITED}


def test_is_unique_stops_at_a_tiny_time_limit():
    board = deal(30, 16, 99, random.Random(0), rule="opening", at=(3, 3))
    stuck = solvable(board, (3, 3)).stuck or board.position({(3, 3)})
    assert not is_unique(stuck).unique
    with pytest.raises(OutOfTime, match="time limit reached"):
        is_unique(stuck, budget=Budget(0.0))


# -- the commands -------------------------------------------------------------------------


def run(capsys, *args):
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def fifty_fifty(tmp_path):
    path = tmp_path / "board.mine"
    path.write_text("3x3x2\nMHH\nHHH\nHHM\n")
    return path


def test_solvable_json_end_to_end(tmp_path, capsys):
    path = tmp_path / "board.mine"
    path.write_text("# needs the count\n3x1x1\nHMH\n")
    code, out, err = run(capsys, "solvable", path, "--at", "0,0", "--format", "json")
    assert code == 0 and err == ""
    document = json.loads(out)
    assert document["solvable"] is True and document["at"] == [0, 0]
    assert (document["revealed"], document["safe_cells"]) == (2, 2)
    assert document["stuck"] is None
    stuck = tmp_path / "stuck.mine"
    code, out, _ = run(capsys, "solvable", path, "--at", "0,0", "--no-count", "--format",
                       "json", "--stuck", stuck)
    document = json.loads(out)
    assert code == 0 and document["solvable"] is False and document["use_count"] is False
    assert document["stuck"] == "3x1\n1FH\n"
    assert position_from_text(stuck.read_text()).rows == ("1FH",)


def test_solvable_text_and_xo_boards(tmp_path, capsys):
    path = tmp_path / "board.txt"
    path.write_text("xo\noo\n")
    code, out, _ = run(capsys, "solvable", path, "--at", "1,1")
    assert code == 0 and "not solvable" in out and "revealing 1 of 3" in out


@pytest.mark.parametrize("at, message", [("2,2", "holds a mine"), ("3,0", "off the 3x3"),
                                         ("1", "expected ROW,COL"), ("a,b", "expected ROW,COL")])
def test_solvable_bad_first_click_exits_2(fifty_fifty, capsys, at, message):
    code, out, err = run(capsys, "solvable", fifty_fifty, "--at", at)
    assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1


def test_solvable_missing_board_exits_2(tmp_path, capsys):
    code, out, err = run(capsys, "solvable", tmp_path / "nope.mine", "--at", "0,0")
    assert code == 2 and out == "" and "no such file" in err


def test_analyze_unique(tmp_path, capsys):
    unique = tmp_path / "unique.mine"
    unique.write_text("3x1x1\n1FH\n")
    two = tmp_path / "two.mine"
    two.write_text("2x2x1\nHH\nH1\n")
    liar = tmp_path / "liar.mine"
    liar.write_text("3x1x0\n1H1\n")
    code, out, _ = run(capsys, "analyze", "--unique", unique, two, "--format", "json")
    answers = json.loads(out)
    assert code == 0
    assert [a["unique"] for a in answers] == [True, False]
    assert answers[1]["consistent"] is True and answers[1]["reason"]
    code, out, _ = run(capsys, "analyze", "--unique", liar)
    assert code == 3 and "inconsistent" in out


def test_analyze_unique_past_its_time_limit_is_undecided(tmp_path, capsys):
    # A limit too short for any question: no answer is made up, each says why, and an
    # undecided position is not an inconsistent one (exit 0, not 3). With inf: no limit.
    two = tmp_path / "two.mine"
    two.write_text("2x2x1\nHH\nH1\n")
    code, out, _ = run(capsys, "analyze", "--unique", two, "--time-limit", "1e-9",
                       "--format", "json")
    answer = json.loads(out)
    assert code == 0 and answer["consistent"] is None and answer["unique"] is None
    assert answer["reason"].startswith("not decided by auto: time limit reached")
    code, out, _ = run(capsys, "analyze", "--unique", two, "--time-limit", "1e-9")
    assert code == 0 and out.startswith(f"{two}: unique: not decided (not decided by auto: "
                                        "time limit")
    code, out, _ = run(capsys, "analyze", "--unique", two, "--time-limit", "inf",
                       "--format", "json")
    assert code == 0 and json.loads(out)["unique"] is False


def survey_rows(path):
    meta, rows = read_rows(path)
    return meta, {r["id"]: r for r in rows}


def test_survey_json_rows_and_resume(tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    args = ["survey", "--width", 8, "--height", 8, "--mines", 13, "--start", "random-zero",
            "--seed", 7, "--out", out, "--format", "json"]
    code, text, _ = run(capsys, *args, "--boards", 30)
    first = json.loads(text)
    assert code == 0 and first["boards"] == 30
    assert first["fraction"] == first["solvable"] / 30
    assert Fraction(first["exact_fraction"]) == Fraction(first["solvable"], 30)
    lo, hi = first["ci95"]
    assert lo <= first["solvable"] / 30 <= hi
    meta, rows = survey_rows(out)
    assert sorted(rows) == list(range(30))
    # Refuses to overwrite; --resume extends the same run to 50 boards.
    code, _, err = run(capsys, *args, "--boards", 50)
    assert code == 2 and "--resume" in err
    code, text, _ = run(capsys, *args, "--boards", 50, "--resume")
    assert code == 0
    _, more = survey_rows(out)
    assert sorted(more) == list(range(50))
    assert all(more[i] == rows[i] for i in range(30))
    # Each row is a board that `solvable` answers the same way on its own.
    settings_ = SurveySettings(8, 8, 13, "random-zero", None, 7)
    for i in (0, 17, 42):
        mines, at = survey_board(settings_, i)
        row = more[i]
        assert sorted(mines) == row["mines"] and (at is None) == (row["at"] is None)
        if at is not None:
            board = Board(8, 8, frozenset(divmod(m, 8) for m in mines))
            assert board.number(at) == 0 and at not in board.mine_cells
            assert solvable(board, at).solvable == row["solvable"]
    # Another setting cannot resume this file.
    code, _, err = run(capsys, *args[:-4], "--no-count", "--out", out, "--resume",
                       "--boards", 50)
    assert code == 2 and "other settings" in err


@pytest.mark.parametrize("settings_", [SurveySettings(8, 8, 13, "random-zero", None, 7),
                                       SurveySettings(9, 6, 10, "safe", (1, 4), 3, False)])
def test_survey_settings_come_back_from_their_meta_line(settings_):
    from exactmines.solvability.survey import _settings_from_meta
    assert _settings_from_meta(json.loads(json.dumps(settings_.as_meta()))) == settings_


def test_smallest_survey_one_board_one_column():
    result = run_survey(SurveySettings(1, 4, 1, "safe", (0, 0), 5), 1, progress=False)
    assert result.boards == 1 and result.solvable in (0, 1)


def test_survey_is_the_same_with_workers():
    base = SurveySettings(9, 9, 10, "opening", (3, 3), 3)
    one = run_survey(base, 60, workers=1, chunk_size=7, progress=False)
    two = run_survey(base, 60, workers=2, chunk_size=7, progress=False)
    assert one.solvable == two.solvable and 0 < one.solvable < 60


@pytest.mark.parametrize("args, message", [
    (["--start", "safe"], "needs the first click"),
    (["--start", "random-zero", "--at", "1,1"], "no meaning"),
    (["--start", "sideways"], "unknown start rule"),
    (["--start", "opening", "--at", "0,0", "--mines", "80"], "do not fit"),
    (["--start", "safe", "--at", "9,9"], "off the 9x9"),
    (["--start", "safe", "--at", "1,1", "--boards", "0"], "at least 1"),
    (["--start", "safe", "--at", "1,1", "--resume"], "needs --out"),
    (["--start", "safe", "--at", "1,1", "--workers", "0"], "at least 1"),
])
def test_survey_bad_settings_exit_2(capsys, args, message):
    # Options given twice: the later one wins, so each case overrides a default.
    base = ["--width", "9", "--height", "9", "--mines", "10", "--boards", "5", "--seed", "1"]
    code, out, err = run(capsys, "survey", *base, *args)
    assert code == 2 and out == "" and message in err


def test_survey_plot_draws_the_share(tmp_path, capsys):
    from matplotlib.image import imread

    picture = tmp_path / "share.png"
    code, out, err = run(capsys, "survey", "--width", 8, "--height", 8, "--mines", 13,
                         "--boards", 20, "--start", "random-zero", "--seed", 1, "--quiet",
                         "--plot", picture)
    assert code == 0 and f"picture written to {picture}" in out
    assert err == ""  # --quiet: no progress bar
    pixels = imread(picture)
    assert pixels.shape[0] > 50 and pixels.shape[1] > 300
    assert pixels.min() < 0.5  # something is drawn


def test_survey_bad_plot_name_fails_before_the_work(tmp_path, capsys):
    code, out, err = run(capsys, "survey", "--width", 8, "--height", 8, "--mines", 13,
                         "--boards", 20, "--start", "random-zero", "--seed", 1,
                         "--plot", tmp_path / "share.txt")
    assert code == 2 and out == "" and "must end in" in err


def test_enumerations_are_shared_between_runs_but_not_by_the_backend_route(monkeypatch):
    import exactmines.solvability.check as check

    store: dict = {}
    monkeypatch.setattr(check, "_ENUMERATED", store)
    board = board_from_text("3x4x2\nHHH\nHHH\nHMH\nHMH\n")  # needs the exact step
    first = solvable(board, (0, 0))
    assert first.exact_steps >= 1 and store
    kept = dict(store)
    assert solvable(board, (0, 0)) == first  # served from the store: nothing new in it
    assert store == kept and all(store[k] is kept[k] for k in kept)

    class Recorded(SatBackend):
        """SAT, noting the components it is asked about."""

        def __init__(self):
            super().__init__()
            self.asked = []

        def mine_numbers(self, component, **options):
            self.asked.append(component)
            return super().mine_numbers(component, **options)

    engine = Recorded()
    assert solvable(board, (0, 0), enumeration_limit=0, backend=engine) == first
    assert engine.asked and store == kept  # the backend answered; the store is untouched


class _Unfinished(SatBackend):
    """SAT whose verdicts always run out of time (nothing proved)."""

    def deduce(self, component, allowed, *, budget=UNLIMITED):
        raise PartlyProved("time limit reached (test)", Deductions.unsettled(len(component.sizes)))


def test_a_solvability_check_out_of_time_is_not_stuck():
    # Every component goes to the engine (enumeration_limit 0); an engine that ran out of
    # time proved nothing, which must not read as "a guess is needed".
    board = deal(9, 9, 10, random.Random(13), rule="opening", at=(4, 4))
    answer = solvable(board, (4, 4), enumeration_limit=0)
    assert answer.solvable and answer.exact_steps  # the engine is asked
    with pytest.raises(OutOfTime):
        solvable(board, (4, 4), enumeration_limit=0, backend=_Unfinished())
    with pytest.raises(OutOfTime, match="time limit reached"):
        solvable(board, (4, 4), enumeration_limit=0, budget=Budget(0.0))
