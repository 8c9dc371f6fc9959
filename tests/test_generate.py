"""Instance generation: mid-game positions, certified no-guess boards, compiled formulas, and
the ``generate`` command end to end."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from exactmines import analyze
from exactmines.errors import InputError, SolverError
from exactmines.generate.hardness import CNF, count_models, parse_dimacs, random_ksat
from exactmines.generate.positions import (
    _Ranked,
    instance_rng,
    midgame_positions,
    noguess_boards,
    random_sat_instances,
    sat_instance,
)
from exactmines.io.files import read_board, read_position
from exactmines.io.formats import board_from_text, board_to_mine, position_from_text
from exactmines.position import Board
from exactmines.solvability.check import solvable, solve_from, solve_indices
from exactmines.ui.cli import main

# ------------------------------------------------------------------------------ positions


def test_midgame_positions_come_from_their_hidden_board():
    for instance in midgame_positions(16, 16, 40, seed=3, count=4, progress=0.4):
        position, board = instance.position, instance.board
        assert position is not None and board is not None
        assert position_from_text(instance.text) == position
        assert (position.width, position.height, position.mines) == (16, 16, 40)
        # every revealed number is the hidden board's, and nothing revealed is a mine
        assert position == board.position(
            {c for c in position.cells_where("012345678")}, count_known=True)
        meta = instance.metadata
        assert meta["revealed"] == len(position.cells_where("012345678"))
        assert meta["revealed"] >= round(0.4 * meta["safe_cells"])
        assert tuple(meta["at"]) == (8, 8) and position.number((8, 8)) == 0  # opening rule
        assert board_from_text(meta["hidden_board"]["mine_text"]) == board
        # the hidden board is one of the position's layouts
        result = analyze(position)
        assert result.consistent and all(cell.probability != 0 for cell in result.cells
                                         if cell.cell in board.mine_cells)


def test_midgame_header_names_the_first_click():
    instance = midgame_positions(9, 9, 10, seed=4, count=1, start="safe", at=(2, 5))[0]
    assert instance.text.splitlines()[0] == (
        "# exactmines generate position: 9x9/10, seed 4, instance 0, first click 2,5 (safe)")
    assert instance.metadata["at"] == [2, 5]


def test_midgame_positions_are_seeded():
    a = midgame_positions(9, 9, 10, seed=1, count=3)
    b = midgame_positions(9, 9, 10, seed=1, count=2)
    assert [i.text for i in a[:2]] == [i.text for i in b]
    assert a[0].text != midgame_positions(9, 9, 10, seed=2, count=1)[0].text
    assert instance_rng("position", 1, 0).random() == instance_rng("position", 1, 0).random()


def test_midgame_rules_and_errors():
    safe = midgame_positions(9, 9, 10, seed=4, count=2, start="safe", at=(0, 0), progress=1.0)
    for instance in safe:
        assert instance.metadata["revealed"] == instance.metadata["safe_cells"]  # all shown
    unprotected = midgame_positions(5, 5, 20, seed=4, count=3, start="unprotected")
    assert all(i.position is not None and i.position.char((2, 2)) != "H" for i in unprotected)
    for kwargs in ({"start": "corner"}, {"progress": 0.0}, {"at": (9, 0)}):
        with pytest.raises(InputError):
            midgame_positions(9, 9, 10, seed=1, count=1, **kwargs)
    with pytest.raises(InputError):
        midgame_positions(9, 9, 80, seed=1, count=1)  # opening leaves only 72 cells
    with pytest.raises(InputError):
        midgame_positions(3, 3, 9, seed=1, count=1, start="unprotected")  # no safe click


# ------------------------------------------------------------------------------- no-guess


def test_noguess_boards_by_rejection_are_certified():
    boards = noguess_boards(9, 9, 10, seed=2, count=3, start="opening", at=(4, 4),
                            method="rejection")
    for instance in boards:
        board = instance.board
        assert board is not None and board_from_text(instance.text) == board
        assert solvable(board, (4, 4)).solvable
        meta = instance.metadata
        assert meta["method"] == "rejection" and meta["uniform"] is True
        assert meta["certificate"]["solvable"] is True
        assert all(abs(r - 4) > 1 or abs(c - 4) > 1 for r, c in board.mine_cells)


def test_noguess_repair_handles_dense_boards_and_says_it_is_biased():
    boards = noguess_boards(9, 9, 30, seed=5, count=2, start="safe", at=(0, 0),
                            method="repair")
    for instance in boards:
        assert instance.board is not None and instance.board.mines == 30
        assert solvable(instance.board, (0, 0)).solvable
        assert instance.metadata["method"] == "repair"
        assert instance.metadata["uniform"] is False
        assert (0, 0) not in instance.board.mine_cells


def test_noguess_auto_falls_back_to_build_and_is_seeded():
    # 9x9 with 30 mines and one attempt: rejection almost surely fails, the builder finishes.
    a = noguess_boards(9, 9, 30, seed=8, count=1, at=(4, 4), attempts=1)
    b = noguess_boards(9, 9, 30, seed=8, count=1, at=(4, 4), attempts=1)
    assert a[0].text == b[0].text
    meta = a[0].metadata
    assert meta["method"] == "build" and meta["boards_dealt"] >= 2 and meta["repair_moves"] > 0
    assert meta["uniform"] is False
    assert solvable(a[0].board, (4, 4)).solvable


def test_auto_deals_fewer_boards_as_the_board_grows_then_builds(monkeypatch):
    import exactmines.generate.positions as positions

    built: list = []
    real = positions.build_board

    def spy(*args, **kwargs):
        built.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(positions, "build_board", spy)
    monkeypatch.setattr(positions, "REJECTION_CELLS", 3 * 81)  # three 9x9 boards
    meta = noguess_boards(9, 9, 30, seed=8, count=1, at=(4, 4))[0].metadata
    assert meta["method"] == "build"
    assert meta["boards_dealt"] == 3 + len(built)


def test_auto_on_a_large_board_repairs_in_windows(monkeypatch):
    import exactmines.generate.positions as positions

    started: list = []
    real = positions._repair

    def spy(board, outcome, *args):
        started.append(outcome)
        return real(board, outcome, *args)

    monkeypatch.setattr(positions, "_repair", spy)
    monkeypatch.setattr(positions, "AUTO_BUILD_CELLS", 1024)  # (a board past it, small)
    meta = noguess_boards(40, 40, 400, seed=3, count=1, at=(20, 20))[0].metadata
    assert meta["method"] == "repair" and started and started[0] is not None


def test_auto_builds_up_to_100000_cells():
    # 100x100 at 30 %: repair in windows took 13 s of CPU, building takes one
    meta = noguess_boards(100, 100, 3000, seed=1, count=1)[0].metadata
    assert meta["method"] == "build" and meta["certificate"]["solvable"] is True


def test_noguess_on_a_mid_size_board_is_certified_and_seeded():
    for kwargs in ({}, {"method": "repair"}, {"mines": 320, "method": "repair"}):
        mines = kwargs.pop("mines", 240)
        made = noguess_boards(40, 40, mines, seed=3, count=2, **kwargs)
        for instance in made:
            board, meta = instance.board, instance.metadata
            assert board is not None and board.mines == mines
            assert board_from_text(instance.text) == board
            assert meta["certificate"]["solvable"] is True
            assert solvable(board, (20, 20)).to_dict() == meta["certificate"]
            assert all(abs(r - 20) > 1 or abs(c - 20) > 1 for r, c in board.mine_cells)
        again = noguess_boards(40, 40, mines, seed=3, count=2, **kwargs)
        assert [i.text for i in again] == [i.text for i in made]
        assert [i.json_text() for i in again] == [i.json_text() for i in made]
        assert made[0].text != made[1].text
        assert made[0].text != noguess_boards(40, 40, mines, seed=4, count=1, **kwargs)[0].text


def test_repair_clears_a_board_where_deduction_sticks_only_in_pockets():
    # 60x60 at 20 %: the check clears nearly the whole board and sticks in small pockets,
    # with no covered cell away from the revealed area to move a mine to (the repair that
    # only had those gave up on 20 boards); the windows' repair moves mines into the
    # revealed area and finishes the board it was given.
    for seed in (2, 5):
        instance = noguess_boards(60, 60, 720, seed=seed, count=1, method="repair")[0]
        meta = instance.metadata
        assert meta["method"] == "repair" and meta["repair_moves"] > 0
        assert instance.board is not None and solvable(instance.board, (30, 30)).solvable
    many = noguess_boards(60, 60, 720, seed=1, count=4, method="repair")
    assert sum(i.metadata["boards_dealt"] for i in many) <= 6


def test_repair_moves_mines_into_openings_on_a_nearly_cleared_board(monkeypatch):
    # 100x100 at 15 %: the check sticks in a few pockets of a nearly cleared board; their
    # mines go to openings (no mine within three steps), the exact move.
    import exactmines.generate.positions as positions

    placed: list[int] = []
    real = positions._Places._place

    def spy(self, target):
        placed.append(target)
        real(self, target)

    monkeypatch.setattr(positions._Places, "_place", spy)
    made = noguess_boards(100, 100, 1500, seed=2, count=1, method="repair")[0]
    assert placed and made.metadata["repair_moves"] >= len(placed)
    assert all(made.board is not None and divmod(i, 100) in made.board.mine_cells
               for i in placed)
    assert solvable(made.board, (50, 50)).solvable


def test_repair_without_openings_or_settled_places_shuffles_the_pocket(monkeypatch):
    import exactmines.generate.positions as positions

    monkeypatch.setattr(positions, "PLACE_TRIES", 0)  # no settled cell tried
    for seed in (2, 5):
        made = noguess_boards(60, 60, 720, seed=seed, count=1, method="repair")[0]
        assert made.metadata["repair_moves"] > 0
        assert solvable(made.board, (30, 30)).solvable


def test_windows_stuck_again_in_the_check_are_repaired_again(monkeypatch):
    # Deduction in a window may find what the check from the first click does not: then
    # the check's own stuck position is repaired, and checked again.
    import exactmines.generate.positions as positions

    rounds: list[int | None] = []
    real = positions._repair_windows

    def lazy(*args):  # the first round moves nothing
        made = 0 if not rounds else real(*args)
        rounds.append(made)
        return made

    monkeypatch.setattr(positions, "_repair_windows", lazy)
    made = noguess_boards(60, 60, 720, seed=2, count=1, method="repair")[0]
    assert rounds[0] == 0 and len(rounds) == 2 and made.metadata["repair_moves"] == rounds[1]
    assert solvable(made.board, (30, 30)).solvable


def test_noguess_windows_work_without_the_count():
    instance = noguess_boards(50, 50, 450, seed=2, count=1, method="repair",
                              use_count=False)[0]
    assert instance.metadata["use_count"] is False
    assert solvable(instance.board, (25, 25), use_count=False).solvable


def test_noguess_without_the_count():
    instance = noguess_boards(8, 8, 10, seed=1, count=1, use_count=False)[0]
    assert solvable(instance.board, (4, 4), use_count=False).solvable
    assert instance.metadata["use_count"] is False


def test_noguess_errors():
    with pytest.raises(InputError, match="safe or opening"):
        noguess_boards(9, 9, 10, seed=1, count=1, start="unprotected")
    with pytest.raises(InputError, match="method"):
        noguess_boards(9, 9, 10, seed=1, count=1, method="magic")
    with pytest.raises(InputError, match="attempts"):
        noguess_boards(9, 9, 60, seed=1, count=1, method="rejection", attempts=2)


def test_a_board_that_fails_its_certificate_is_an_error_not_an_assert(monkeypatch):
    # The certificate is the final check of the board found, from its first click; an
    # assert would vanish under python -O and write an uncertified board.
    import exactmines.generate.positions as positions

    answers: list[bool] = []

    def flaky(board, at, **options):  # the certificate's call: it disagrees
        answers.append(solvable(board, at, **options).solvable)
        return SimpleNamespace(solvable=False)

    monkeypatch.setattr(positions, "solvable", flaky)
    with pytest.raises(SolverError, match="not solvable when checked again"):
        noguess_boards(9, 9, 10, seed=2, count=1, at=(4, 4), method="rejection")
    assert answers == [True]


def test_a_mine_put_in_an_opening_changes_nothing_deduction_finds():
    # The repair's exact move: a revealed cell with no mine within three steps takes a mine;
    # its neighbours show 1, the ring beyond still 0, so the board stays solvable.
    from exactmines.generate.positions import _known, _Places

    tried = 0
    for instance in noguess_boards(40, 40, 120, seed=1, count=3, method="rejection"):
        board = instance.board
        check = solve_indices(40, 40, sorted(r * 40 + c for r, c in board.mine_cells), 820)
        mine = bytearray(1600)
        for r, c in board.mine_cells:
            mine[r * 40 + c] = 1
        places = _Places(mine, _known(check.revealed, check.flagged, 1600), 40, 40, 820,
                         "auto")
        for target in places.openings[::7]:
            tried += 1
            more = Board(40, 40, board.mine_cells | {divmod(target, 40)})
            result = solvable(more, (20, 20))
            assert result.solvable and result.revealed == 1600 - board.mines - 1
    assert tried > 20


def test_repair_windows_hold_their_covered_cells_two_steps_inside():
    from exactmines.generate.positions import _windows

    rng = random.Random(6)
    for width, height in ((30, 20), (7, 9), (50, 3)):
        for share in (0.02, 0.1, 0.4):
            known = bytearray(rng.choice(b"\x01\x01\x02") for _ in range(width * height))
            covered = {i for i in range(width * height) if rng.random() < share}
            for i in covered:
                known[i] = 0
            found = _windows(known, width, height)
            owner: dict[int, int] = {}
            for k, ((r0, c0, r1, c1), (top, left, bottom, right)) in enumerate(found):
                inside = {r * width + c for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}
                mine = inside & covered
                assert mine and not (mine & owner.keys())
                owner.update(dict.fromkeys(mine, k))
                for i in mine:
                    r, c = divmod(i, width)
                    assert top <= r <= bottom and left <= c <= right
                    # two steps from any edge of the window that is not the board's
                    assert r0 == 0 or r - r0 >= 2
                    assert c0 == 0 or c - c0 >= 2
                    assert r1 == height - 1 or r1 - r >= 2
                    assert c1 == width - 1 or c1 - c >= 2
                assert (top, left) == (min(i // width for i in mine),
                                       min(i % width for i in mine))
            assert owner.keys() == covered
            firsts = [min(i for i, k in owner.items() if k == n) for n in range(len(found))]
            assert firsts == sorted(firsts)


def test_solve_from_resumes_the_check_from_a_known_state():
    for instance in noguess_boards(30, 30, 180, seed=5, count=4, method="rejection",
                                   attempts=2000)[:2] + [None]:
        if instance is None:
            board = Board(30, 30, frozenset(
                divmod(i, 30) for i in random.Random(3).sample(range(900), 200)
                if divmod(i, 30) != (15, 15)))
        else:
            board = instance.board
        mines = sorted(r * 30 + c for r, c in board.mine_cells)
        if 15 * 30 + 15 in mines:
            continue
        whole = solve_indices(30, 30, mines, 465, use_count=False)
        # from the first click alone: the same deduction
        again = solve_from(30, 30, mines, [465], [], use_count=False)
        assert (again.revealed, again.flagged) == (whole.revealed, whole.flagged)
        # from where it ended: nothing more
        stuck = solve_from(30, 30, mines, [i for i in range(900) if whole.revealed >> i & 1],
                           [i for i in range(900) if whole.flagged >> i & 1],
                           use_count=False)
        assert (stuck.revealed, stuck.flagged) == (whole.revealed, whole.flagged)
    with pytest.raises(InputError, match="contradicts the board"):
        solve_from(30, 30, mines, [mines[0]], [])
    with pytest.raises(InputError, match="contradicts the board"):
        solve_from(30, 30, mines, [], [465])
    with pytest.raises(InputError, match="off the 30x30 board"):
        solve_from(30, 30, mines, [900], [])


def test_a_mine_text_is_board_to_mine():
    from exactmines.generate.positions import _mine_text

    rng = random.Random(2)
    for width, height, mines in ((1, 1, 0), (1, 1, 1), (9, 9, 10), (30, 16, 99), (3, 7, 21)):
        board = Board(width, height, frozenset(
            divmod(i, width) for i in rng.sample(range(width * height), mines)))
        assert _mine_text(board) == board_to_mine(board)


def test_ranked_set_finds_the_kth_member_like_a_sorted_list():
    rng = random.Random(4)
    for n in (1, 2, 7, 64, 300):
        start = bytearray(rng.random() < 0.3 for _ in range(n))
        ranked = _Ranked(bytearray(start))
        model = {i for i in range(n) if start[i]}
        for _ in range(4 * n):
            i = rng.randrange(n)
            if rng.random() < 0.5:
                ranked.add(i)
                model.add(i)
            else:
                ranked.discard(i)
                model.discard(i)
            members = sorted(model)
            assert len(ranked) == len(members)
            assert [ranked.kth(k) for k in range(len(members))] == members
            assert all((j in ranked) == (j in model) for j in range(n))
        with pytest.raises(IndexError):
            ranked.kth(len(model))


# ------------------------------------------------------------------------------------ sat


def test_sat_instance_ground_truth():
    cnf = random_ksat(6, 25, random.Random(2))
    instance = sat_instance(cnf, "t")
    meta = instance.metadata
    models = count_models(cnf)
    assert meta["model_count"] == models and meta["satisfiable"] == (models > 0)
    assert meta["expected"] == {"consistent": models > 0, "layouts": str(models)}
    assert meta["formula"]["clauses"] == [list(c) for c in cnf.clauses]
    result = analyze(instance.position, backend="sat")
    assert result.layouts == models
    for entry in meta["variable_cells"]:
        assert instance.position.char((entry["row"], entry["col"])) == "H"
    assert position_from_text(instance.text) == instance.position
    json.loads(instance.json_text())


def test_random_sat_instances_are_seeded():
    a = random_sat_instances(8, 34, seed=1, count=2)
    b = random_sat_instances(8, 34, seed=1, count=2)
    assert [(i.text, i.json_text()) for i in a] == [(i.text, i.json_text()) for i in b]
    assert a[0].text != a[1].text
    assert a[0].name == "sat-3sat-v8-c34-seed1-000"


# ------------------------------------------------------------------------------------ CLI


def test_cli_generates_sat_from_random_3sat(tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["generate", "sat", "--variables", "5", "--clauses", "21", "--seed", "4",
                 "--out", str(out), "--format", "json"])
    assert code == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 1
    meta = json.loads(Path(rows[0]["json"]).read_text())
    position = read_position(rows[0]["mine"])
    cnf = CNF(5, tuple(tuple(c) for c in meta["formula"]["clauses"]))
    assert analyze(position, backend="sat").layouts == meta["model_count"] == count_models(cnf)


def test_cli_generates_sat_from_a_dimacs_file(tmp_path, capsys):
    cnf_file = tmp_path / "tiny.cnf"
    cnf_file.write_text("c x1 or not x2; x2\np cnf 2 2\n1 -2 0\n2 0\n")
    code = main(["generate", "sat", "--cnf", str(cnf_file), "--out", str(tmp_path)])
    assert code == 0
    assert "layouts = models = 1" in capsys.readouterr().out
    position = read_position(tmp_path / "tiny.mine")
    meta = json.loads((tmp_path / "tiny.json").read_text())
    assert meta["generator"] == {"cnf": str(cnf_file)}
    result = analyze(position, backend="sat")
    assert result.layouts == 1
    layout = {cell for cell in position.covered if result.cell(*cell).verdict == "mine"}
    cells = [(v["row"], v["col"]) for v in meta["variable_cells"]]
    assert [cell in layout for cell in cells] == [True, True]  # the one model: x1 = x2 = true
    assert parse_dimacs(cnf_file.read_text()) == CNF(2, ((1, -2), (2,)))


def test_cli_generates_sat_from_standard_input(tmp_path, capsys, monkeypatch):
    # It wrote -.mine and -.json, and named the input "-" in its errors.
    for text in ("p cnf 2 1\n1 x 0\n", "p cnf 2 1\n1 2 0\n"):
        stdin = SimpleNamespace(buffer=io.BytesIO(text.encode()))
        monkeypatch.setattr("sys.stdin", stdin)
        code = main(["generate", "sat", "--cnf", "-", "--out", str(tmp_path)])
    assert "exactmines: error: <stdin>:2:3: 'x' is not a literal" in capsys.readouterr().err
    assert code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["stdin.json",
                                                                       "stdin.mine"]
    assert json.loads((tmp_path / "stdin.json").read_text())["generator"] == {"cnf": "<stdin>"}


def test_cli_generates_positions_and_noguess_boards(tmp_path, capsys):
    assert main(["generate", "position", "--width", "9", "--height", "9", "--mines", "10",
                 "--seed", "1", "--count", "2", "--out", str(tmp_path)]) == 0
    assert main(["generate", "noguess", "--width", "9", "--height", "9", "--mines", "10",
                 "--seed", "1", "--at", "0,0", "--start", "safe", "--out", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["noguess-9x9x10-seed1-000.json", "noguess-9x9x10-seed1-000.mine",
                     "position-9x9x10-seed1-000.json", "position-9x9x10-seed1-000.mine",
                     "position-9x9x10-seed1-001.json", "position-9x9x10-seed1-001.mine"]
    board = read_board(tmp_path / "noguess-9x9x10-seed1-000.mine")
    assert solvable(board, (0, 0)).solvable
    position = read_position(tmp_path / "position-9x9x10-seed1-001.mine")
    meta = json.loads((tmp_path / "position-9x9x10-seed1-001.json").read_text())
    assert board_from_text(meta["hidden_board"]["mine_text"]).position(
        set(position.cells_where("012345678"))) == position
    capsys.readouterr()
    # the same commands again write the same files
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    main(["generate", "position", "--width", "9", "--height", "9", "--mines", "10",
          "--seed", "1", "--count", "2", "--out", str(tmp_path)])
    main(["generate", "noguess", "--width", "9", "--height", "9", "--mines", "10",
          "--seed", "1", "--at", "0,0", "--start", "safe", "--out", str(tmp_path)])
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize("args, message", [
    (["sat", "--variables", "5"], "needs --clauses --seed"),
    (["sat", "--cnf", "{tmp}/f.cnf", "--variables", "3"], "not both"),
    (["sat", "--cnf", "{tmp}/f.cnf", "--count", "2"], "not both"),
    (["sat", "--cnf", "{tmp}/missing.cnf"], "missing.cnf: no such file"),
    (["sat", "--cnf", "{tmp}/f.cnf"], "f.cnf:2:3: 'y' is not a literal"),
    (["sat", "--variables", "2", "--clauses", "4", "--seed", "1"], "at least 3"),
    (["position", "--width", "9", "--height", "9", "--seed", "1"], "needs --mines"),
    (["position", "--width", "9", "--height", "9", "--mines", "10", "--seed", "1",
      "--at", "3"], "expected ROW,COL"),
    (["noguess", "--width", "0", "--height", "9", "--mines", "1", "--seed", "1"],
     "at least 1"),
    (["position", "--width", "9", "--height", "9", "--mines", "10", "--seed", "1",
      "--out", "{tmp}/f.cnf"], "not a directory"),
])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    (tmp_path / "f.cnf").write_text("p cnf 2 1\n1 y 0\n")
    argv = ["generate", *[a.format(tmp=tmp_path) for a in args]]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "out")]
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], captured.err
    assert not (tmp_path / "out").exists()
