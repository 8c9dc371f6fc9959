"""Counts in words: one helper (``exactmines.words.plural``) says "1 cell" and "2 cells"
for every message and report ("1 nodes", "only 1 neighbours", "(1 cells)" were printed)."""

from __future__ import annotations

import ast
import re
from itertools import pairwise
from pathlib import Path

from exactmines.io.formats import position_from_text
from exactmines.topology import graph_topology
from exactmines.ui.report import shape_text
from exactmines.words import plural

PACKAGE = Path(__file__).resolve().parents[1] / "exactmines"
#: Text after a formatted count: up to two words, then a counted noun ("{n} cells",
#: "{n} covered cells", "{n} needless guesses"), also across implicitly joined lines.
COUNTED = re.compile(r"^ ((?:(?!(?:a|an|and|but|in|its|of|on|per|than|the|to|with) )[a-z-]+ )"
                     r"{0,2}?)(cells|nodes|neighbours|mines|flags|guesses|"
                     r"components|clicks|positions|boards|games|rows|layouts|steps|rounds|"
                     r"digits|bytes|characters|workers|boxes|variables|clauses|layers|edges|"
                     r"tasks|replays|files|connections|states)\b")
#: Values before such a noun that are never 1 or not counts: limits, a fraction, a mean, a word.
NEVER_ONE = {
    ("io/files.py", "named"),                    # a word: "no .mine files"
    ("ui/report.py", "s['guesses_per_game']"),   # a mean, written 1.00
    ("analysis/backends/dp.py", "states"),       # a table too wide to count: thousands
    ("deduction/search.py", "limit"),            # the search's node limit
    ("play/endgame.py", "self.node_limit"),      # the endgame search's limit
    ("play/strategy.py", "safe_layouts"),        # a Fraction that is not a whole number
    ("ui/web/server.py", "max_connections"),     # the server's connection limit
}


def _counts_written_by_hand() -> list[str]:
    """Every f-string (its joined parts read as one, as Python does) where a formatted value
    is followed by a counted noun: ``f"{n} covered "`` ``f"cells"`` included."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(PACKAGE))
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.JoinedStr):
                continue
            for value, text in pairwise(node.values):
                if not (isinstance(value, ast.FormattedValue) and isinstance(text, ast.Constant)
                        and COUNTED.match(text.value)):
                    continue
                shown = ast.unparse(value.value)
                if (re.fullmatch(r"[A-Z_][A-Z0-9_.]*|plural\(.*", shown)  # a constant limit
                        or (where, shown) in NEVER_ONE):
                    continue
                found.append(f"{where}:{node.lineno}: {{{shown}}}{text.value[:30]}")
    return found


def test_plural():
    assert [plural(n, "cell") for n in (0, 1, 2)] == ["0 cells", "1 cell", "2 cells"]
    assert plural(1, "box", "boxes") == "1 box" and plural(3, "box", "boxes") == "3 boxes"
    assert plural(1024, "byte", fmt=",") == "1,024 bytes"


def test_a_graph_of_one_node_is_one_node():
    assert shape_text(graph_topology(["a"], [])) == "1 node"


def test_no_message_writes_a_count_before_its_noun_by_hand():
    # Counts that can be 1 go through plural(). The first scan read one source line at a
    # time and only "{n} cells": "{n} frontier " "cells", "{n} flags" and others got by.
    assert _counts_written_by_hand() == []


def test_a_number_with_one_neighbour_says_so():
    import pytest

    from exactmines.errors import InputError

    with pytest.raises(InputError, match="only 1 neighbour$"):
        position_from_text("2x1x1\n4H\n")


def test_the_analysis_report_says_one_frontier_cell():
    from exactmines.analysis.analyze import analyze
    from exactmines.ui.report import analysis_to_text

    text = analysis_to_text(analyze(position_from_text("2x1x1\n1H\n")))
    assert "1 component, 1 frontier cell (largest 1)" in text


def test_a_wrong_number_says_one_marked_mine():
    import pytest

    from exactmines.errors import InputError
    from exactmines.io.formats import board_from_text
    from exactmines.io.graphs import board_from_graph

    with pytest.raises(InputError, match="hold 1 marked mine$"):
        board_from_text("3x1x1\nM2H\n")
    graph = ('{"graph": {"mines": 1}, "nodes": [{"id": "a", "state": "M"}, '
             '{"id": "b", "state": "2"}, {"id": "c", "state": "0"}], "edges": '
             '[{"source": "a", "target": "b"}, {"source": "b", "target": "c"}]}')
    with pytest.raises(InputError, match="hold 1 marked mine$"):
        board_from_graph(graph, "json", "g.json")


def test_a_number_with_one_flag_around_says_so():
    from exactmines.analysis.frontier import build_frontier

    frontier = build_frontier(position_from_text("3x1\nF0H\n"))
    assert frontier.contradiction == ("the 0 at row 0, col 1 has 1 flag and 1 covered cell "
                                      "around it")


def test_a_total_of_one_mine_that_does_not_fit_says_so():
    from exactmines.analysis.backends import get_backend
    from exactmines.analysis.fault import find_fault

    # Each 1 needs its own neighbour a mine: two mines, not one.
    fault = find_fault(position_from_text("4x1x1\n1HH1\n"), get_backend("auto"))
    assert fault is not None and fault.count
    assert fault.message.startswith("inconsistent: the total of 1 mine does not fit;")
