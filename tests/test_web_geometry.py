"""The analysis reply's topology as one object (``"geometry"``): on every kind of topology it
says what the loose shape keys of ``analyze --format json`` say (which stay, for existing
clients), with how the cells are drawn and which edges wrap."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactmines.analysis.analyze import analyze
from exactmines.analysis.serialize import analysis_to_dict
from exactmines.io.formats import position_from_text
from exactmines.topology import SHAPES
from exactmines.ui.web import bodies
from exactmines.ui.web.models import AnalysisReply, OverlayReply

INSTANCES = Path(__file__).parent.parent / "instances"

#: A small position of each kind the .mine text names in its header (the graph is read
#: from its own file format elsewhere; its object is checked through the topology below).
POSITIONS = {
    "square": "3x2x1\n1HH\nHHH\n",
    "torus": (INSTANCES / "torus-position-16x16x40-seed1-000.mine").read_text(),
    "hex": (INSTANCES / "hex-position-30x16x99-seed1-000.mine").read_text(),
    "triangle": (INSTANCES / "triangle-position-16x16x40-seed1-000.mine").read_text(),
    "cube": (INSTANCES / "cube-position-5x5x5x15-seed1-000.mine").read_text(),
    "knight": (INSTANCES / "knight-position-16x16x40-seed1-000.mine").read_text(),
    "offsets": "3x2x1 offsets:0,1;0,-1;1,0;-1,0\n1HH\nHHH\n",
}


@pytest.mark.parametrize("kind", POSITIONS)
@pytest.mark.parametrize("overlay", [False, True])
def test_the_geometry_is_the_shape_keys_as_one_object(kind: str, overlay: bool) -> None:
    text = POSITIONS[kind]
    request = bodies.Request(text, None, None, "auto", 30.0, (), overlay)
    if overlay:
        reply = json.loads(bodies.overlay_body(request))
        OverlayReply.model_validate(reply)
        reply = reply["analysis"]
    else:
        reply = json.loads(bodies.analysis_body(request))
        AnalysisReply.model_validate(reply)
    position = position_from_text(text)
    loose = analysis_to_dict(analyze(position), cells=False)
    shape = SHAPES[kind]
    geometry = reply["geometry"]
    assert geometry["kind"] == kind
    assert geometry["cell"] == shape.cell and geometry["wraps"] == list(shape.wraps)
    assert geometry["word"] == loose.get("topology", "square")
    for key in ("width", "height", "layers", "nodes"):
        assert geometry[key] == loose.get(key), key
        assert reply.get(key) == loose.get(key), key  # the loose keys stay as they were
    assert reply.get("topology") == loose.get("topology")


def test_a_graphs_geometry_counts_its_nodes() -> None:
    from exactmines.topology import graph_topology

    topology = graph_topology(["a", "b", "c"], [(0, 1), (1, 2)])
    assert bodies.geometry(topology) == {
        "kind": "graph", "word": "graph", "cell": "node", "wraps": [False, False],
        "width": 3, "height": 1, "layers": None, "nodes": 3}
