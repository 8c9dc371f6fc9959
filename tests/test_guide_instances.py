"""The shipped positions of the page's help at a guess (``instances/guide-*``, written by
``scripts/guide_positions.py``): what their JSON says the page must show is checked here by
brute force over every layout of the position (sharing nothing with the player's code but
the neighbour masks), and against the server's answer today."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_explain import assert_unresolvable
from test_strategy import layouts_of, naive_optimum, optimum_after, value, view_of

from exactmines.io.formats import position_from_text
from exactmines.play.strategy import STRATEGIES, Player
from exactmines.ui.web.app import create_app

INSTANCES = Path(__file__).parent.parent / "instances"
SMALL = sorted(p for p in INSTANCES.glob("guide-*.mine") if "candidates" not in p.name)
ALL = sorted(INSTANCES.glob("guide-*.mine"))


def expected(path: Path) -> dict:
    return json.loads(path.with_suffix(".json").read_text())["expected"]


def brute_force(path: Path):
    position = position_from_text(path.read_text())
    view = view_of(position)
    return position, view, layouts_of(view)


def test_the_small_instances_are_there():
    assert {p.name.split("-")[1] for p in SMALL} == {"pair", "box", "endgame"}


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_dead_cells_are_those_that_can_show_one_value(path):
    position, view, layouts = brute_force(path)
    width = position.width
    dead = set()
    for i in range(width * position.height):
        if not (view.unknown >> i) & 1:
            continue
        safe_in = [x for x in layouts if not (x >> i) & 1]
        if 0 < len(safe_in) < len(layouts) and len({value(view, x, i) for x in safe_in}) == 1:
            dead.add(divmod(i, width))
    assert dead == {tuple(c) for c in expected(path)["dead"]} and dead


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_fifty_fifties_are_unresolvable(path):
    position, view, layouts = brute_force(path)
    groups = expected(path)["fifty_fifties"]
    for group in groups:
        cells = tuple(r * position.width + c for r, c in group)
        for i in cells:
            assert Fraction(sum((x >> i) & 1 for x in layouts), len(layouts)) == Fraction(1, 2)
        assert_unresolvable(view, layouts, cells)
    assert bool(groups) == ("endgame" not in path.name)


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_the_endgame_win_probability_is_the_brute_force_optimum(path):
    position, view, layouts = brute_force(path)
    odds = expected(path)["endgame"]
    optimum = naive_optimum(view, layouts)
    assert odds["whole"] and odds["layouts"] == len(layouts)
    assert Fraction(odds["win"]) == optimum
    r, c = expected(path)["recommendation"]
    assert optimum_after(view, layouts, r * position.width + c) == optimum


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), base_url="http://localhost",
                    raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_the_server_gives_what_the_instance_expects(client, path):
    want = expected(path)
    got = client.post("/api/overlay", json={"text": path.read_text()}).json()
    move = got["recommendation"]
    assert [move["row"], move["col"]] == want["recommendation"] and move["kind"] == want["kind"]
    assert [[c["row"], c["col"]] for c in got["candidates"]] == want["candidates"]
    assert got["dead"] == want["dead"] and got["fifty_fifties"] == want["fifty_fifties"]
    assert got["endgame"] == want["endgame"]
    # The list's first guess is the player's own choice on this position.
    position = position_from_text(path.read_text())
    width = position.width
    player = Player(width, position.height, position.mines, STRATEGIES["best"])
    player.show([(r * width + c, int(ch)) for r, row in enumerate(position.rows)
                 for c, ch in enumerate(row) if ch.isdigit()])
    cells, guess = player.next_clicks()
    assert guess and [list(divmod(cells[0], width))] == want["candidates"][:1]
    # Each listed guess's probability is the analysis's fraction for its cell.
    fractions = {(c["row"], c["col"]): c["probability"] for c in got["analysis"]["cells"]}
    for c in got["candidates"]:
        assert c["probability"] == fractions[(c["row"], c["col"])]
