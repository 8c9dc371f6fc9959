"""Inputs that broke the readers: JSON nested too deep (a RecursionError traceback), a
malformed ``.mine`` read as x/o text, header digits of other scripts read as numbers.
Each is one line and exit 2 on the command line, 400 over HTTP, and nothing is written."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from exactmines.errors import InputError
from exactmines.io import registry
from exactmines.io.formats import board_from_text, looks_like_mine_text, position_from_text
from exactmines.io.graphs import MAX_ID_DEPTH, position_from_graph
from exactmines.topology import parse_topology_word, square
from exactmines.ui.cli import main
from exactmines.ui.web.app import create_app

DEEP = "[" * 100_000 + "]" * 100_000


def deep_id(levels: int) -> str:
    """A node-link graph of two nodes, the first one's id nested ``levels`` lists deep."""
    node = "[" * levels + "0" + "]" * levels
    return ('{"graph": {"mines": 1}, "nodes": [{"id": ' + node + '}, {"id": "b"}], '
            '"edges": [{"source": ' + node + ', "target": "b"}]}')


def covered_rows(header: str, rows: int = 9, width: int = 9) -> str:
    return header + "\n" + ("H" * width + "\n") * rows


def run(argv: list[str], capsys) -> tuple[int, str]:
    code = main(argv)
    err = capsys.readouterr().err
    return code, err


def one_line(err: str) -> str:
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


def commands(path: str, tmp_path) -> list[list[str]]:
    out = str(tmp_path / "out")
    return [["analyze", path], ["solvable", path], ["convert", path, out + ".mine"],
            ["export", path, "--to", "cnf", "--out", out + ".cnf"]]


@pytest.mark.parametrize("text", [DEEP, '{"nodes": ' + DEEP + "}", deep_id(600)],
                         ids=["array", "inside an object", "node id"])
def test_json_nested_too_deep_is_one_line_in_every_command(text, tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text(text)
    for argv in commands(str(path), tmp_path):
        code, err = run(argv, capsys)
        assert code == 2, argv
        assert one_line(err).startswith(f"exactmines: error: {path}: "), err
        assert "nested" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep.json"]


def test_node_ids_nest_up_to_the_limit_and_no_deeper():
    fine = position_from_graph(deep_id(MAX_ID_DEPTH), "json", "g.json")
    assert fine.width == 2
    label = fine.topology.labels[0]
    for _ in range(MAX_ID_DEPTH):
        label = label[0]
    assert label == 0
    with pytest.raises(InputError, match=f"nested more than {MAX_ID_DEPTH} deep"):
        position_from_graph(deep_id(MAX_ID_DEPTH + 1), "json", "g.json")


@pytest.mark.parametrize("header", ["9x9x10 knight torus", "9x9x 10", "9x9x10x", "9 x9x10",
                                    "9x9x١٠", "９x９x10"])
def test_a_malformed_mine_file_is_refused_never_read_as_another_format(header, tmp_path,
                                                                        capsys):
    text = covered_rows(header)
    assert registry.detect(text.encode(), "b", "")[0].name == "mine"
    for name in ("b.mine", "b.txt", "b"):
        path = tmp_path / name
        path.write_text(text)
        for argv in commands(str(path), tmp_path):
            code, err = run(argv, capsys)
            assert code == 2, (argv, err)
            assert one_line(err).startswith(f"exactmines: error: {path}:1:"), err
            assert "bad header" in err
    assert not (tmp_path / "out.mine").exists()


def test_a_file_named_mine_is_read_as_mine_text_only(tmp_path, capsys):
    path = tmp_path / "b.mine"
    path.write_text("xo\nox\n")  # x/o text under the .mine name
    code, err = run(["convert", str(path), str(tmp_path / "out.txt")], capsys)
    assert code == 2 and "header" in one_line(err)
    # Under its own name, or none, x/o text is still read.
    assert registry.read_board(b"xo\nox\n", "b", "b.txt").mines == 2
    assert registry.read_board(b"xo\nox\n", "b").mines == 2


@pytest.mark.parametrize("header, digit", [("9x9x١٠", "١"), ("９x９x10", "９"),
                                           ("9x9x1\u0661", "\u0661"), ("9x9\u00b2", None)])
def test_header_numbers_are_ascii_digits_only(header, digit):
    text = covered_rows(header)
    assert looks_like_mine_text(text)
    message = ("ASCII digits 0-9, not " + repr(digit)) if digit else "bad header"
    with pytest.raises(InputError, match=message):
        position_from_text(text, "b.mine")
    with pytest.raises(InputError, match=message):
        board_from_text(text, "b.mine")


def test_other_places_that_read_numbers_take_ascii_digits_only(tmp_path, capsys):
    with pytest.raises(ValueError):
        parse_topology_word("offsets:١,٠;-١,٠")
    with pytest.raises(ValueError, match="ASCII"):
        square(9, 9).cell_at(["٣", "٣"])
    assert square(9, 9).cell_at(["3", " 3"]) == (3, 3)
    board = tmp_path / "b.mine"
    board.write_text("2x2x1\nMH\nHH\n")
    code, err = run(["solvable", str(board), "--at", "١,١"], capsys)
    assert code == 2 and "expected ROW,COL" in one_line(err)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), base_url="http://localhost",
                    raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("body", [
    {"name": "g.json", "text": DEEP},
    {"name": "g.json", "text": deep_id(600)},
    {"name": "b.mine", "text": covered_rows("9x9x10 knight torus")},
    {"name": "", "text": covered_rows("9x9x 10")},
    {"name": "", "text": covered_rows("９x９x10")},
], ids=["deep json", "deep id", "two words", "space", "fullwidth"])
def test_the_api_refuses_the_same_inputs_with_400(client, body):
    answer = client.post("/api/import", json=body)
    assert answer.status_code == 400, answer.text
    assert "\n" not in answer.json()["error"]


@pytest.mark.parametrize("text", [covered_rows("9x9x١٠"), covered_rows("９x９x10")])
def test_the_analysis_endpoint_refuses_other_digits(client, text):
    answer = client.post("/api/analyze", json={"text": text})
    assert answer.status_code == 400 and "ASCII digits" in answer.json()["error"]


def test_a_request_body_nested_too_deep_is_400(client):
    for path in ("/api/analyze", "/api/import", "/api/export"):
        answer = client.post(path, content=DEEP, headers={"content-type": "application/json"})
        assert answer.status_code == 400, (path, answer.text)
