"""Counts in words: one helper (``exactmines.words.plural``) says "1 cell" and "2 cells"
for every message and report ("1 nodes", "only 1 neighbours", "(1 cells)" were printed)."""

from __future__ import annotations

import re
from pathlib import Path

from exactmines.io.formats import position_from_text
from exactmines.topology import graph_topology
from exactmines.ui.report import shape_text
from exactmines.words import plural

PACKAGE = Path(__file__).resolve().parents[1] / "exactmines"
#: A count written straight before a counted noun in an f-string: ``{n} cells``.
COUNTED = re.compile(r"\{([^{}]+?)(?::[^{}]*)?\} (cells|nodes|neighbours|mines|components|"
                     r"clicks|positions|boards|games|rows|layouts|steps|rounds|digits|bytes|"
                     r"characters|workers|boxes|variables|clauses|layers|edges)\b")


def test_plural():
    assert [plural(n, "cell") for n in (0, 1, 2)] == ["0 cells", "1 cell", "2 cells"]
    assert plural(1, "box", "boxes") == "1 box" and plural(3, "box", "boxes") == "3 boxes"
    assert plural(1024, "byte", fmt=",") == "1,024 bytes"


def test_a_graph_of_one_node_is_one_node():
    assert shape_text(graph_topology(["a"], [])) == "1 node"


def test_no_message_writes_a_count_before_its_noun_by_hand():
    # Counts that can be 1 go through plural(); the limits (constants, in capitals) never are.
    found = []
    for path in PACKAGE.rglob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for match in COUNTED.finditer(line):
                if not re.fullmatch(r"[A-Z_][A-Z0-9_]*|.*MAX.*", match.group(1)):
                    found.append(f"{path.relative_to(PACKAGE)}:{number}: {match.group(0)}")
    allowed = {"play/strategy.py", "analysis/fault.py"}  # a Fraction, and a count never 1
    assert [f for f in found if f.split(":")[0] not in allowed] == []


def test_a_number_with_one_neighbour_says_so():
    import pytest

    from exactmines.errors import InputError

    with pytest.raises(InputError, match="only 1 neighbour$"):
        position_from_text("2x1x1\n4H\n")
