"""Every engine against the brute-force oracle on every topology (probabilities, layouts,
verdicts), with the oracle's own geometry; and the no-guess check and the player, whose
proofs are checked against the hidden board as they are made."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracle import neighbours_of
from strategies import KINDS, boards, positions, topologies
from test_analysis import assert_matches_oracle

from exactmines.game import deal
from exactmines.play.games import play_game
from exactmines.play.strategy import STRATEGIES
from exactmines.position import Position
from exactmines.solvability.check import solvable

GRIDS = [k for k in KINDS if k != "graph"]


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_topology_tables_are_the_geometry(kind, data):
    topology = data.draw(topologies(kind, max_side=6, max_cells=36))
    position = Position(topology.width, topology.height, None,
                        ("H" * topology.width,) * topology.height, topology)
    geometry = neighbours_of(position)
    for cell, around in geometry.items():
        assert set(topology.neighbours(cell)) == around, (kind, cell)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_engine_matches_the_oracle_on_every_topology(backend, kind, data):
    position = data.draw(positions(max_side=4, max_covered=10, allow_lies=True, kind=kind))
    assert_matches_oracle(position, backend)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=20, deadline=None)
@given(board=st.data())
def test_the_no_guess_check_is_sound_and_reaches_what_a_full_count_proves(kind, board):
    hidden = board.draw(boards(max_side=5, max_cells=20, kind=kind))
    safe = [(r, c) for r in range(hidden.height) for c in range(hidden.width)
            if (r, c) not in hidden.mine_cells]
    assume(safe)
    at = board.draw(st.sampled_from(safe))
    # (Every proof is checked against the board as it is made: a wrong one raises.)
    result = solvable(hidden, at)
    if result.solvable:
        assert result.revealed == len(safe)
    else:  # stuck: the position left proves nothing more, by the oracle
        from oracle import truth

        stuck = truth(result.stuck)
        assert all(v == "unknown" for v in stuck.verdict.values())


@pytest.mark.parametrize("kind", GRIDS)
def test_the_player_finishes_games_on_every_grid(kind):
    from exactmines.topology import make_topology

    # (A cube of 2 layers pairs every cell with the one above it: the same neighbours,
    # a 50/50 no number tells apart; 3 layers do not.)
    topology = make_topology(kind, 6, 18 if kind == "cube" else 6,
                             layers=3 if kind == "cube" else 1,
                             offsets=((0, 1), (0, -1), (1, 0), (-1, 0), (2, 2), (-2, -2))
                             if kind == "offsets" else ())
    strategy = STRATEGIES["best"]
    outcomes = []
    for seed in range(6):
        board = deal(topology.width, topology.height, 6, random.Random(seed), rule="safe",
                     at=(1, 1), topology=topology)
        mines = [r * topology.width + c for r, c in board.mine_cells]
        record = play_game(topology.width, topology.height, mines, (1, 1), strategy,
                           topology=topology)
        assert record.revealed <= record.safe_cells
        outcomes.append(record.won)
    assert any(outcomes)
