"""Graph files <-> positions and boards on any graph: node-link JSON, GraphML, edge lists.

Every node is a cell and every edge joins two cells a number counts (edges are undirected:
a directed file's edges are read both ways; loops and repeated edges are dropped). Each
node has a ``state``: ``"H"`` covered, ``"F"`` a flag, ``"M"`` (or ``"?"``) a covered cell
holding a mine (boards), or the number it shows, as a string or an integer (above 8 where
the node has more than 8 neighbours); a node without a state is covered. The total mine
count is the graph attribute ``mines`` (absent: unknown).

node-link JSON (``.json``)
    as ``networkx.node_link_data`` writes it: ``{"graph": {"mines": 10}, "nodes": [{"id":
    ..., "state": ...}, ...], "edges": [{"source": ..., "target": ...}, ...]}``; the
    edges under ``"links"`` (older networkx) are read too.
GraphML (``.graphml``)
    a node attribute ``state`` and a graph attribute ``mines`` (read with networkx).
edge list (``.edges``)
    one edge ``U V`` per line (anything after the two names is ignored, as networkx's
    ``read_edgelist`` allows), ``# mines N`` and ``# node NAME STATE`` comment lines for
    the count and the states (a node named only there has no edge).

The nodes are cells in the order the file lists them (an edge list: in order of first
mention), one row of them (:func:`~exactmines.topology.graph_topology`). A board of any
grid topology is written as its graph (nodes named ``"r,c"``, ``"l,r,c"`` on a cube, with
their coordinates as attributes). No file is opened here (see ``files``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from exactmines.errors import InputError
from exactmines.io.formats import MAX_DIGITS, read_int
from exactmines.position import COVERED, FLAG, Board, Cell, Position
from exactmines.topology import (
    GRID_KINDS,
    Topology,
    char_number,
    graph_topology,
    is_number_char,
    make_topology,
    number_char,
)
from exactmines.words import plural

__all__ = ["GRAPH_SUFFIXES", "graph_kind", "graph_from_text", "position_from_graph",
           "board_from_graph", "position_to_graph", "board_to_graph", "grid_of_graph"]

#: File name endings of the graph formats, by format name.
GRAPH_SUFFIXES = {"json": ".json", "graphml": ".graphml", "edges": ".edges"}

_STATES = "H, F, M, ? or a number"


class ParsedGraph:
    """A graph file as read: node labels in cell order, edges between cell indices, each
    node's state character (:func:`~exactmines.topology.number_char` for numbers, ``M`` for
    a marked mine) and the mine count."""

    __slots__ = ("labels", "edges", "states", "mines")

    def __init__(self, labels: list[Hashable], edges: list[tuple[int, int]],
                 states: list[str], mines: int | None) -> None:
        self.labels, self.edges, self.states, self.mines = labels, edges, states, mines


def graph_kind(text: str, name: str = "") -> str | None:
    """Which graph format ``text`` is in (``json``, ``graphml``, ``edges``), by the file
    name's suffix or else by its first character (``{`` JSON, ``<`` GraphML); ``None``: not
    a graph file."""
    lowered = name.lower()
    for kind, suffix in GRAPH_SUFFIXES.items():
        if lowered.endswith(suffix):
            return kind
    if lowered.endswith(".edgelist"):
        return "edges"
    start = text.lstrip()[:1]
    return "json" if start == "{" else "graphml" if start == "<" else None


def graph_from_text(text: str, kind: str, source: str) -> ParsedGraph:
    """Read a graph file of format ``kind`` (:func:`graph_kind`), checking every node's
    state, every edge's ends and the mine count (one :class:`InputError` naming the place)."""
    if kind == "json":
        return _from_json(text, source)
    if kind == "graphml":
        return _from_graphml(text, source)
    return _from_edges(text, source)


def position_from_graph(text: str, kind: str, source: str) -> Position:
    """The position in a graph file (marked mines read as covered nodes)."""
    graph = graph_from_text(text, kind, source)
    topology = _topology(graph, source)
    row = "".join(COVERED if s in "M?" else s for s in graph.states)
    return Position(len(row), 1, graph.mines, (row,), topology)


def board_from_graph(text: str, kind: str, source: str) -> Board:
    """The hidden board in a graph file: every mine marked ``M``, ``?`` or ``F``; numbers
    shown must match them."""
    graph = graph_from_text(text, kind, source)
    topology = _topology(graph, source)
    mines = frozenset((0, i) for i, s in enumerate(graph.states) if s in "M?F")
    if graph.mines is not None and graph.mines != len(mines):
        raise InputError(f"a board must mark every mine: the graph says "
                         f"{plural(graph.mines, 'mine')} "
                         f"but {plural(len(mines), 'node')} are M, ? or F", source=source)
    board = Board(len(graph.states), 1, mines, topology)
    numbers = board.numbers()
    for i, state in enumerate(graph.states):
        if is_number_char(state) and char_number(state) != numbers[i]:
            raise InputError(f"node {_shown(graph.labels[i])} shows {char_number(state)} "
                             f"but its neighbours hold {plural(numbers[i], 'marked mine')}",
                             source=source)
    return board


def _topology(graph: ParsedGraph, source: str) -> Topology:
    """The graph's topology, after checking each number against its node's degree and the
    mine count against the nodes."""
    try:
        topology = graph_topology(graph.labels, graph.edges)
    except ValueError as exc:
        raise InputError(str(exc), source=source) from None
    unrevealed = marked = 0
    for i, state in enumerate(graph.states):
        if is_number_char(state):
            degree = len(topology.neighbour_table[i])
            if char_number(state) > degree:
                raise InputError(f"node {_shown(graph.labels[i])} shows {char_number(state)} but "
                                 f"has only {plural(degree, 'neighbour')}", source=source)
        else:
            unrevealed += 1
            marked += state != COVERED
    if graph.mines is not None:
        if graph.mines > unrevealed:
            raise InputError(f"{plural(graph.mines, 'mine')} but only "
                             f"{plural(unrevealed, 'unrevealed node')}",
                             source=source)
        if marked > graph.mines:
            raise InputError(f"{plural(marked, 'node')} are flagged or marked as mines but the "
                             f"graph "
                             f"says {plural(graph.mines, 'mine')}", source=source)
    return topology


def _shown(value: object) -> str:
    """A name or value as a message quotes it: its ``repr``, cut to 40 characters (one
    nested too deep to ``repr`` safely is described instead)."""
    if _depth(value) > MAX_ID_DEPTH:
        return f"<lists or objects nested more than {MAX_ID_DEPTH} deep>"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _state(value: object, label: Hashable, source: str) -> str:
    """A node's ``state`` attribute as one character (numbers by
    :func:`~exactmines.topology.number_char`)."""
    if value is None:
        return COVERED
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InputError(f"node {_shown(label)}: state {_shown(value)} is not {_STATES}",
                         source=source)
    text = str(value).strip()
    if text in (COVERED, FLAG, "M", "?"):
        return text
    if text.isdecimal() and text.isascii() and len(text) <= 6:
        return number_char(int(text))
    raise InputError(f"node {_shown(label)}: unknown state {_shown(value)} (expected {_STATES})",
                     source=source)


def _mines(value: object, source: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, str) and value.strip().isdecimal() and value.strip().isascii():
        value = read_int(value.strip(), "the graph's mines", source)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"the graph's mines {_shown(value)} is not a whole number of at least 0",
                         source=source)
    return value


#: How deep a node id's lists may nest (networkx writes a tuple id as a list; a grid's
#: cells are one level). Deeper is refused: hashing, comparing and showing such an id
#: recurse once per level.
MAX_ID_DEPTH = 16


def _label(value: object, depth: int = 0) -> Hashable:
    """A node id as a dict key (JSON lists, as networkx writes tuples, become tuples);
    a ``TypeError`` for an object or lists nested deeper than :data:`MAX_ID_DEPTH`."""
    if isinstance(value, list):
        if depth >= MAX_ID_DEPTH:
            raise TypeError
        return tuple(_label(v, depth + 1) for v in value)
    if isinstance(value, dict):
        raise TypeError
    return value  # type: ignore[return-value]


def _depth(value: object) -> int:
    """How deep lists and objects nest in ``value`` (iterative: any depth)."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        item, level = todo.pop()
        deepest = max(deepest, level)
        if deepest > MAX_ID_DEPTH:
            break
        if isinstance(item, list | dict):
            todo.extend((v, level + 1) for v in (item.values() if isinstance(item, dict)
                                                 else item))
    return deepest


def _from_json(text: str, source: str) -> ParsedGraph:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", source=source, line=exc.lineno,
                         column=exc.colno) from None
    except RecursionError:  # the decoder recurses once per level of nesting
        raise InputError("not JSON exactmines reads: lists or objects nested too deep",
                         source=source) from None
    except ValueError:  # a number longer than Python converts
        raise InputError(f"not JSON exactmines reads: a number has more than {MAX_DIGITS} "
                         "digits", source=source) from None
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
        raise InputError("not a node-link graph: expected an object with a \"nodes\" list",
                         source=source)
    links = data.get("edges", data.get("links", []))
    if not isinstance(links, list):
        raise InputError("\"edges\" is not a list", source=source)
    attributes = data.get("graph") or {}
    if not isinstance(attributes, dict):
        raise InputError("\"graph\" is not an object", source=source)
    labels: list[Hashable] = []
    index: dict[Hashable, int] = {}
    states = []
    for k, node in enumerate(data["nodes"]):
        if not isinstance(node, dict) or "id" not in node:
            raise InputError(f"nodes[{k}] has no \"id\"", source=source)
        try:
            label = _label(node["id"])
            hash(label)
        except TypeError:
            raise InputError(f"nodes[{k}]: id {_shown(node['id'])} is not a name (an "
                             f"object, or lists nested more than {MAX_ID_DEPTH} deep)",
                             source=source) from None
        if label in index:
            raise InputError(f"node {_shown(label)} is listed twice", source=source)
        index[label] = len(labels)
        labels.append(label)
        states.append(_state(node.get("state"), label, source))
    edges = []
    for k, link in enumerate(links):
        if not isinstance(link, dict) or "source" not in link or "target" not in link:
            raise InputError(f"edges[{k}] needs a \"source\" and a \"target\"", source=source)
        ends = []
        for end in ("source", "target"):
            try:
                found = index.get(_label(link[end]))
            except TypeError:
                found = None
            if found is None:
                raise InputError(f"edges[{k}] joins node {_shown(link[end])}, which is not in "
                                 "\"nodes\"", source=source)
            ends.append(found)
        edges.append((ends[0], ends[1]))
    return ParsedGraph(labels, edges, states, _mines(attributes.get("mines"), source))


def _from_graphml(text: str, source: str) -> ParsedGraph:
    import networkx as nx

    try:
        graph = nx.parse_graphml(text)
    except Exception as exc:  # networkx raises XML, key and type errors of many kinds
        raise InputError(f"not GraphML: {' '.join(str(exc).split()) or type(exc).__name__}",
                         source=source) from None
    labels = list(graph.nodes)
    index = {label: i for i, label in enumerate(labels)}
    states = [_state(graph.nodes[label].get("state"), label, source) for label in labels]
    edges = [(index[a], index[b]) for a, b in graph.edges()]
    return ParsedGraph(labels, edges, states, _mines(graph.graph.get("mines"), source))


_COMMENT_MINES = re.compile(r"#\s*mines\s+(\S+)\s*")
_COMMENT_NODE = re.compile(r"#\s*node\s+(\S+)\s+(\S+)\s*")


def _from_edges(text: str, source: str) -> ParsedGraph:
    labels: list[Hashable] = []
    index: dict[Hashable, int] = {}
    given: dict[int, str] = {}
    edges = []
    mines: int | None = None

    def node(name: str) -> int:
        if name not in index:
            index[name] = len(labels)
            labels.append(name)
        return index[name]

    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            found = _COMMENT_MINES.fullmatch(line)
            if found:
                try:
                    mines = _mines(found.group(1), source)
                except InputError as exc:
                    raise InputError(exc.message, source=source, line=number) from None
                continue
            found = _COMMENT_NODE.fullmatch(line)
            if found:
                i = node(found.group(1))
                try:
                    given[i] = _state(found.group(2), found.group(1), source)
                except InputError as exc:
                    raise InputError(exc.message, source=source, line=number) from None
            continue
        words = line.split()
        if len(words) < 2:
            raise InputError(f"expected an edge U V, got {_shown(line)}", source=source,
                             line=number)
        edges.append((node(words[0]), node(words[1])))
    if not labels:
        raise InputError("no nodes: expected edges U V and # node NAME STATE lines",
                         source=source)
    return ParsedGraph(labels, edges, [given.get(i, COVERED) for i in range(len(labels))],
                       mines)


# -- writing -------------------------------------------------------------------------------


def _labels(topology: Topology) -> list[Hashable]:
    """Node names: a graph's own labels, a grid's cells as ``"r,c"`` (``"l,r,c"``)."""
    if topology.labels is not None:
        return list(topology.labels)
    width = topology.width
    return [",".join(map(str, topology.coordinates(divmod(i, width))))
            for i in range(topology.cells)]


def _json_state(ch: str) -> str | int:
    return char_number(ch) if is_number_char(ch) else ch


def _write(topology: Topology, states: Sequence[str], mines: int | None, kind: str) -> str:
    """A graph file of format ``kind`` with each cell's state character."""
    labels = _labels(topology)
    table = topology.neighbour_table
    edges = [(i, j) for i, around in enumerate(table) for j in around if i < j]
    if kind == "edges":
        lines = [f"# exactmines graph: {plural(len(labels), 'node')}, {plural(len(edges), 'edge')}"]
        if mines is not None:
            lines.append(f"# mines {mines}")
        lines += [f"# node {labels[i]} {_json_state(s)}" for i, s in enumerate(states)]
        lines += [f"{labels[i]} {labels[j]}" for i, j in edges]
        return "\n".join(lines) + "\n"
    nodes: list[dict[str, Any]] = []
    for i, state in enumerate(states):
        node: dict[str, Any] = {"id": labels[i], "state": _json_state(state)}
        if topology.kind != "graph":
            node.update(zip(("layer", "row", "col") if topology.kind == "cube" else
                            ("row", "col"), topology.coordinates(divmod(i, topology.width)),
                            strict=True))
        nodes.append(node)
    attributes: dict[str, Any] = {} if mines is None else {"mines": mines}
    if kind == "json":
        data = {"directed": False, "multigraph": False, "graph": attributes, "nodes": nodes,
                "edges": [{"source": labels[i], "target": labels[j]} for i, j in edges]}
        return json.dumps(data, indent=1) + "\n"
    import io

    import networkx as nx

    graph = nx.Graph(**attributes)
    for node in nodes:
        graph.add_node(node["id"], **{k: v for k, v in node.items() if k != "id"})
    graph.add_edges_from((labels[i], labels[j]) for i, j in edges)
    out = io.BytesIO()
    nx.write_graphml(graph, out)
    return out.getvalue().decode()


def position_to_graph(position: Position, kind: str = "json") -> str:
    """A position as a graph file (``json``, ``graphml`` or ``edges``)."""
    return _write(position.topology, "".join(position.rows), position.mines, kind)


def board_to_graph(board: Board, kind: str = "json", revealed: Iterable[Cell] = ()) -> str:
    """A board as a graph file: mines ``M``, ``revealed`` cells their numbers, the rest
    ``H``; the mine count in the graph's ``mines``."""
    shown = set(revealed)
    numbers = board.numbers()
    width = board.width
    states = []
    for i in range(board.width * board.height):
        cell = divmod(i, width)
        states.append("M" if cell in board.mine_cells else
                      number_char(numbers[i]) if cell in shown else COVERED)
    return _write(board.topology, states, board.mines, kind)


#: The grid shapes a graph is recognised as, tried in this order (a cube's "l,r,c" and
#: offsets' are not).
_GRID_SHAPES = tuple(kind for kind in GRID_KINDS if kind not in ("cube", "offsets"))


def grid_of_graph(board: Board) -> Board | None:
    """The grid board that the graph board ``board`` is, or ``None``: its nodes are named
    ``"r,c"`` (as :func:`board_to_graph` names a grid's cells) and fill a whole
    ``W x H`` sheet, and its edges are exactly those of one grid shape of that size (the
    square grid, a torus, a cylinder, hexagons, triangles or knight's moves, tried in that
    order). So a grid written as a graph converts back to the same board, and a graph that
    only looks like one (a missing edge, an extra one) is not taken for it.

    Cost: one pass over the nodes and edges per shape tried.
    """
    topology = board.topology
    if topology.kind != "graph" or topology.labels is None:
        return board if topology.kind != "graph" else None
    places = []
    for label in topology.labels:
        parts = str(label).split(",")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            return None
        places.append((int(parts[0]), int(parts[1])))
    height = max(r for r, _ in places) + 1
    width = max(c for _, c in places) + 1
    if len(set(places)) != len(places) or width * height != len(places):
        return None
    index = [r * width + c for r, c in places]  # node -> cell of the sheet
    edges = {(min(index[i], index[j]), max(index[i], index[j]))
             for i, around in enumerate(topology.neighbour_table) for j in around}
    for shape in _GRID_SHAPES:
        try:
            grid = make_topology(shape, width, height)
        except ValueError:  # a shape that this size cannot have
            continue
        if edges == {(i, j) for i, around in enumerate(grid.neighbour_table)
                     for j in around if i < j}:
            mines = frozenset(places[col] for _, col in board.mine_cells)
            return Board(width, height, mines, grid)
    return None

