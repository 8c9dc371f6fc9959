"""Topologies in files and on the command line: the .mine header's word, graph files
(node-link JSON, GraphML, edge lists), bad files in one line, and the identities that
must hold (a torus with no number on its wrap, a square board's graph, relabelled nodes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import positions

from exactmines.analysis.analyze import analyze
from exactmines.errors import InputError
from exactmines.io.files import read_board
from exactmines.io.formats import position_from_text, position_to_mine
from exactmines.io.graphs import board_from_graph, position_from_graph, position_to_graph
from exactmines.io.registry import read_position
from exactmines.position import Board, Position
from exactmines.topology import graph_topology, make_topology
from exactmines.ui.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "exactmines", *args], capture_output=True,
                          text=True, cwd=ROOT)


# -- identities ------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(positions(max_side=5, max_covered=10))
def test_a_torus_with_no_number_on_its_wrap_answers_as_the_square_board(position):
    # A ring of covered cells around the board: no number sees across the wrap.
    width, height = position.width + 2, position.height + 2
    rows = ("H" * width, *(f"H{row}H" for row in position.rows), "H" * width)
    mines = None if position.mines is None else position.mines + 1
    square = Position(width, height, mines, rows)
    torus = Position(width, height, mines, rows, make_topology("torus", width, height))
    assume(mines is None or mines <= sum(r.count("H") + r.count("F") for r in rows))
    a, b = analyze(square, backend="dp"), analyze(torus, backend="dp")
    assert (a.consistent, a.layouts) == (b.consistent, b.layouts)
    assert list(a.cells) == list(b.cells)


def _by_label(result) -> dict[object, tuple]:
    labels = result.position.topology.labels
    return {labels[c.col]: (c.probability, c.verdict) for c in result.cells}


@settings(max_examples=80, deadline=None)
@given(positions(max_side=5, max_covered=10))
def test_a_square_boards_graph_answers_exactly_as_its_mine_file(position):
    graph = position_from_graph(position_to_graph(position, "json"), "json", "graph")
    square, counted = analyze(position), analyze(graph)
    assert (square.consistent, square.layouts) == (counted.consistent, counted.layouts)
    assert {f"{c.row},{c.col}": (c.probability, c.verdict) for c in square.cells} == \
        _by_label(counted)


@settings(max_examples=60, deadline=None)
@given(positions(max_side=5, max_covered=10, kind="graph"), st.randoms(use_true_random=False))
def test_relabelling_a_graphs_nodes_changes_nothing(position, rng):
    # The same graph, its nodes under new names and listed (with its edges) in another order.
    data = json.loads(position_to_graph(position, "json"))
    names = {node["id"]: f"n{rng.randrange(10**9)}-{k}" for k, node in enumerate(data["nodes"])}
    rng.shuffle(data["nodes"])
    for node in data["nodes"]:
        node["id"] = names[node["id"]]
    for edge in data["edges"]:
        edge["source"], edge["target"] = names[edge["source"]], names[edge["target"]]
    rng.shuffle(data["edges"])
    before = analyze(position)
    after = analyze(position_from_graph(json.dumps(data), "json", "relabelled"))
    assert (before.consistent, before.layouts) == (after.consistent, after.layouts)
    assert {names[label]: answer for label, answer in _by_label(before).items()} == \
        _by_label(after)


def test_every_graph_format_reads_the_same_position():
    position = read_position((ROOT / "instances" / "graph-dodecahedron.json").read_bytes(),
                             "dodecahedron")
    for kind in ("json", "graphml", "edges"):
        again = position_from_graph(position_to_graph(position, kind), kind, kind)
        # (GraphML and edge lists name nodes by text: the dodecahedron's 0 comes back '0'.)
        assert [str(label) for label in again.topology.labels] == \
            [str(label) for label in position.topology.labels], kind
        assert again.topology.neighbour_table == position.topology.neighbour_table, kind
        assert (again.rows, again.mines) == (position.rows, position.mines), kind
    assert analyze(position).layouts is not None


def test_links_are_read_as_edges():
    data = {"directed": False, "graph": {"mines": 1},
            "nodes": [{"id": "a", "state": 1}, {"id": "b", "state": "H"},
                      {"id": "c", "state": "H"}],
            "links": [{"source": "a", "target": "b"}, {"source": "a", "target": "c"}]}
    position = position_from_graph(json.dumps(data), "json", "g")
    result = analyze(position)
    assert result.layouts == 2 and result.safe == []


# -- the .mine header's topology ------------------------------------------------------


def test_every_grid_topology_round_trips_through_mine_text():
    for text in ("3x2x1 torus\nHHH\nH1H\n", "3x2x1 hex\nHHH\nH1H\n",
                 "4x2x3 triangle\nHHHH\nHHHH\n", "2x2x2x1 cube\nHH\nH1\n\nHH\nHH\n",
                 "3x3x1 knight\nHHH\nH0H\nHHH\n", "5x1x1 offsets:0,2;0,-2\nHH1HH\n"):
        position = position_from_text(text)
        assert position_from_text(position_to_mine(position)) == position, text


def test_numbers_above_nine_are_letters_in_mine_rows():
    topology = make_topology("triangle", 5, 3)
    board = Board(5, 3, frozenset(topology.neighbours((1, 2))), topology)
    text = position_to_mine(board.position({(1, 2)}))
    assert "c" in text.splitlines()[2]
    assert position_from_text(text).number((1, 2)) == 12
    result = analyze(position_from_text(text))
    # Its 12 neighbours hold the 12 mines: the two cells it does not see are safe.
    assert len(result.mines) == 12 and len(result.safe) == 2 and result.unique is True


@pytest.mark.parametrize(("text", "where", "message"), [
    ("3x3x1 donut\nHHH\nHHH\nHHH\n", ":1:7:", "unknown topology 'donut'"),
    ("3x3x1 hex\nHHH\nH7H\nHHH\n", ":3:2:", "number 7 but the cell has only 6 neighbours"),
    ("3x3x1\nHHH\nHaH\nHHH\n", ":3:2:", "unknown character 'a'"),
    ("3x3 cube\nHHH\nHHH\nHHH\n", ":1:1:", "cube's header"),
    ("3x1x1x1\nHHH\n", ":1:7:", "four numbers are a cube's"),
    ("3x1 offsets:0,1\nHHH\n", ":1:5:", "symmetric"),
])
def test_bad_topology_headers_are_one_line(tmp_path, text, where, message):
    path = tmp_path / "bad.mine"
    path.write_text(text)
    done = run("analyze", str(path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and where in done.stderr and message in done.stderr


# -- bad graph files ----------------------------------------------------------------------


def _graph(nodes, edges, **graph) -> str:
    return json.dumps({"graph": graph, "nodes": nodes, "edges": edges})


@pytest.mark.parametrize(("text", "message"), [
    (_graph([{"id": 1, "state": "H"}], [{"source": 1, "target": 2}]),
     "edges[0] joins node 2, which is not in \"nodes\""),
    (_graph([{"id": "a", "state": 2}, {"id": "b", "state": "H"}],
            [{"source": "a", "target": "b"}]),
     "node 'a' shows 2 but has only 1 neighbour"),
    (_graph([{"id": "a", "state": "Q"}], []), "node 'a': unknown state 'Q'"),
    (_graph([{"id": "a", "state": 1.5}], []), "state 1.5 is not H, F, M, ? or a number"),
    (_graph([{"id": "a"}, {"id": "a"}], []), "node 'a' is listed twice"),
    (_graph([{"id": "a"}], [], mines=5), "5 mines but only 1 unrevealed node"),
    ('{"nodes": 3}', "not a node-link graph"),
    ("{nodes", "not JSON"),
])
def test_bad_graph_files_are_one_line_and_exit_2(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    done = run("analyze", str(path))
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_bad_edge_lists_and_graphml(tmp_path):
    edges = tmp_path / "bad.edges"
    edges.write_text("# node a 1\na\n")
    done = run("analyze", str(edges))
    assert done.returncode == 2 and "bad.edges:2: expected an edge U V" in done.stderr
    graphml = tmp_path / "bad.graphml"
    graphml.write_text("<graphml><graph><node id='a'/><edge source='a' target='z'/>")
    done = run("analyze", str(graphml))
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_a_disconnected_graph_is_fine_and_counted():
    text = _graph([{"id": "a", "state": 1}, {"id": "b", "state": "H"},
                   {"id": "c", "state": "H"}, {"id": "d", "state": "H"},
                   {"id": "e", "state": "H"}], [{"source": "a", "target": "b"}], mines=2)
    result = analyze(position_from_graph(text, "json", "g"))
    # b is the mine a sees; the other mine on one of c, d, e: 3 layouts.
    assert result.layouts == 3 and result.mines == [(0, 1)]


def test_a_board_on_a_graph_checks_its_numbers():
    text = _graph([{"id": "a", "state": 2}, {"id": "b", "state": "M"}, {"id": "c", "state": 0}],
                  [{"source": "a", "target": "b"}, {"source": "a", "target": "c"}])
    with pytest.raises(InputError, match="shows 2 but its neighbours hold 1"):
        board_from_graph(text, "json", "g")


# -- the commands -------------------------------------------------------------------------


def test_analyze_json_names_graph_nodes_by_id(capsys):
    assert main(["analyze", str(ROOT / "instances" / "graph-dodecahedron.json"),
                 "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["topology"] == "graph" and answer["nodes"] == 20
    assert all(set(cell) == {"id", "probability", "verdict"} for cell in answer["cells"])
    assert "dp_width" in answer


def test_analyze_json_names_a_cubes_cells_by_layer(tmp_path, capsys):
    path = tmp_path / "c.mine"
    path.write_text("2x2x2x1 cube\nHH\nH1\n\nHH\nHH\n")
    assert main(["analyze", str(path), "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["width"], answer["height"], answer["layers"]) == (2, 2, 2)
    assert answer["cells"][0] == {"layer": 0, "row": 0, "col": 0, "probability": "1/7",
                                  "verdict": "unknown"}


def test_solvable_survey_and_play_on_other_topologies(tmp_path):
    board = tmp_path / "b.json"
    assert main(["generate", "noguess", "--graph", str(ROOT / "instances" /
                 "graph-dodecahedron.json"), "--mines", "3", "--seed", "1",
                 "--out", str(tmp_path / "g"), "--start", "safe", "--at", "0"]) == 0
    made = sorted((tmp_path / "g").glob("*.graph.json"))
    assert len(made) == 1
    board.write_bytes(made[0].read_bytes())
    done = run("solvable", str(board), "--at", "0", "--format", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["solvable"] is True
    done = run("survey", "--topology", "hex", "--width", "8", "--height", "8", "--mines",
               "8", "--boards", "20", "--start", "opening", "--at", "4,4", "--seed", "1",
               "--quiet", "--format", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["topology"] == "hex"
    done = run("play", "--topology", "cube", "--layers", "3", "--width", "4", "--height",
               "4", "--mines", "4", "--games", "5", "--start", "safe", "--at", "1,1,1",
               "--seed", "1", "--quiet", "--format", "json")
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and answer["at"] == [1, 1, 1] and answer["games"] == 5
    done = run("play", "--topology", "torus", "--layers", "2", "--width", "4", "--height",
               "4", "--mines", "4", "--games", "5", "--start", "safe", "--at", "1,1",
               "--seed", "1")
    assert done.returncode == 2 and "--layers 2: only a cube has layers" in done.stderr


def test_graph_boards_convert_and_export(tmp_path):
    source = ROOT / "instances" / "noguess-9x9x10-seed1-000.mine"
    for suffix in (".json", ".graphml", ".edges"):
        assert main(["convert", str(source), str(tmp_path / f"b{suffix}")]) == 0
    # A grid's graph is the grid again; a graph that is no grid has no rows for MBF.
    done = run("convert", str(tmp_path / "b.json"), str(tmp_path / "b.mbf"))
    assert done.returncode == 0 and read_board(tmp_path / "b.mbf") == read_board(source)
    (tmp_path / "p.json").write_text(json.dumps(
        {"graph": {"mines": 1}, "nodes": [{"id": "a", "state": "M"}, {"id": "b", "state": "H"}],
         "edges": [{"source": "a", "target": "b"}]}))
    done = run("convert", str(tmp_path / "p.json"), str(tmp_path / "p.mbf"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "a graph that is not a grid" in done.stderr
    assert not (tmp_path / "p.mbf").exists()
    out = tmp_path / "d.cnf"
    assert main(["export", str(ROOT / "instances" / "graph-dodecahedron.json"), "--to", "cnf",
                 "--out", str(out)]) == 0
    assert "c var 1 = node " in out.read_text()


def test_graph_topology_identity_of_the_dodecahedron():
    position = read_position((ROOT / "instances" / "graph-dodecahedron.json").read_bytes(),
                             "d")
    assert position.topology == graph_topology(position.topology.labels,
                                               [(i, j) for i, a in
                                                enumerate(position.topology.neighbour_table)
                                                for j in a])


@pytest.mark.parametrize("name", sorted(
    p.name for p in (ROOT / "instances").iterdir()
    if p.name.startswith(("hex-", "torus-", "triangle-", "knight-", "cube-", "graph-"))
    and (p.suffix == ".mine" or p.name.startswith("graph-"))))
def test_analyze_answers_every_shipped_instance_of_another_topology(name, capsys):
    assert main(["analyze", str(ROOT / "instances" / name), "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    kind = name.split("-")[0]
    position = read_position((ROOT / "instances" / name).read_bytes(), name)
    covered = sum(row.count("H") for row in position.rows)
    assert answer["topology"] == kind and answer["consistent"] is True
    assert answer["layouts"] is not None and int(answer["layouts"]) > 0
    assert len(answer["cells"]) == covered and "dp_width" in answer
    names = {"graph": {"id"}, "cube": {"layer", "row", "col"}}.get(kind, {"row", "col"})
    assert all(set(cell) == names | {"probability", "verdict"} for cell in answer["cells"])
    if kind == "graph":  # each covered node by the id it has in the file
        states = {n["id"]: n["state"] for n in
                  json.loads((ROOT / "instances" / name).read_text())["nodes"]}
        assert {cell["id"] for cell in answer["cells"]} == \
            {i for i, state in states.items() if state == "H"}


def test_run_settings_carry_one_topology_value():
    # The topology travelled as three loose fields (a word, layers, a graph's path) that
    # every worker put together again; it is one picklable value now.
    import pickle
    from dataclasses import fields

    from exactmines.io.files import TopologySpec
    from exactmines.play.games import PlaySettings
    from exactmines.solvability.survey import SurveySettings

    cube = TopologySpec("cube", 3)
    survey = SurveySettings(4, 4, 4, "safe", (5, 1), 1, topology=cube)
    play = PlaySettings(4, 4, 4, "safe", (5, 1), 1, topology=cube)
    for settings_ in (survey, play):
        names = {f.name for f in fields(settings_)}
        assert "topology" in names and not names & {"layers", "graph"}
        assert settings_.topology == cube
        assert pickle.loads(pickle.dumps(settings_)) == settings_
        assert settings_.board_topology() == make_topology("cube", 4, 12, layers=3)
    assert SurveySettings(4, 4, 4, "safe", (1, 1), 1).topology == TopologySpec()
    graph = str(ROOT / "instances" / "graph-dodecahedron.json")
    assert TopologySpec("graph", graph=graph).build(1, 1).cells == 20
    for spec in (TopologySpec(), cube, TopologySpec("graph", graph=graph),
                 TopologySpec("offsets:1,2;2,1;-1,-2;-2,-1")):
        assert TopologySpec.from_meta(json.loads(json.dumps(spec.to_meta()))) == spec


def _written_before(path: Path, meta: dict, rows: list[str]) -> None:
    path.write_text(json.dumps({"meta": meta}) + "\n" + "".join(rows))


def test_results_files_written_with_the_three_topology_keys_resume(tmp_path):
    # A meta line in the shape every run wrote before the topology was one value, written
    # here by hand: the new runs write it byte for byte and resume such a file.
    graph = str(ROOT / "instances" / "graph-dodecahedron.json")
    survey_meta = {"survey": "solvable", "width": 4, "height": 4, "mines": 4,
                   "start": "safe", "at": [5, 1], "seed": 1, "use_count": True,
                   "topology": "cube", "layers": 3, "graph": None}
    survey = ["survey", "--topology", "cube", "--layers", "3", "--width", "4", "--height",
              "4", "--mines", "4", "--start", "safe", "--at", "1,1,1", "--seed", "1",
              "--quiet", "--out", str(tmp_path / "s.jsonl")]
    play_meta = {"run": "play", "width": 20, "height": 1, "mines": 3, "start": "safe",
                 "at": [0, 0], "seed": 1, "strategy": "best", "without": [],
                 "topology": "graph", "layers": 1, "graph": graph,
                 "parameters": {"candidate_ratio": "9/10", "progress": "1/10",
                                "risk_weight": "9/10", "endgame_layouts": "2000",
                                "endgame_nodes": "200000"}}
    play = ["play", "--graph", graph, "--mines", "3", "--start", "safe", "--at", "0",
            "--seed", "1", "--quiet", "--out", str(tmp_path / "p.jsonl")]
    for meta, args, count in ((survey_meta, survey, "--boards"),
                              (play_meta, play, "--games")):
        out = Path(args[-1])
        assert main([*args, count, "3"]) == 0
        lines = out.read_text().splitlines(keepends=True)
        assert lines[0] == json.dumps({"meta": meta}) + "\n"
        _written_before(out, meta, lines[1:])
        assert main([*args, count, "5", "--resume"]) == 0
        lines = out.read_text().splitlines()
        assert json.loads(lines[0]) == {"meta": meta}
        assert sorted(json.loads(line)["id"] for line in lines[1:]) == list(range(5))
