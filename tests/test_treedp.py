"""The count over a tree decomposition (analysis/backends/treedp.py): exact against brute
force, the same as the sweep where both run, chosen where the sweep is wide, and narrow on
tree-shaped parts whose sweep is not."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from test_dp import components

from exactmines.analysis.backends import dp, treedp
from exactmines.analysis.backends.brute import BruteForceBackend
from exactmines.analysis.backends.dp import count_component
from exactmines.analysis.frontier import Component, Constraint
from exactmines.budget import UNLIMITED


@pytest.fixture
def tree_always(monkeypatch):
    """Every part past the DP's smallest size counted over its tree decomposition."""
    monkeypatch.setattr(dp, "_SMALL", 0)
    monkeypatch.setattr(dp, "_ENUMERATED_NODES", 0)
    monkeypatch.setattr(dp, "_CARRIED_BOXES", 0)
    monkeypatch.setattr(dp, "TREE_FROM", -1)
    real = treedp.plan

    def plan(component: Component) -> treedp.TreePlan:
        found = real(component)
        # (Narrower than any sweep, so the DP takes it.)
        return treedp.TreePlan(*[getattr(found, f) for f in
                                 ("bags", "parent", "children", "edges", "top_boxes",
                                  "top_rules", "inside")], -1)

    monkeypatch.setattr(treedp, "plan", plan)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # (the patch is fixed)
@given(component=components(max_boxes=8, max_cells=14))
def test_counts_over_the_tree_equal_brute_force(tree_always, component):
    counted = count_component(component)
    assert counted == BruteForceBackend().count(component)


def test_the_tree_is_taken_only_where_the_sweep_is_wide():
    chain = Component((1,) * 12, tuple(Constraint((b, b + 1), 1) for b in range(11)))
    assert count_component(chain).dp_plan in (None, "sweep")


def star_of_paths(arms: int, length: int) -> Component:
    """A centre box and ``arms`` paths of ``length`` boxes from it, each pair of neighbours
    under a rule "exactly one": a tree, whose every sweep keeps a rule open per arm."""
    sizes = [1]
    rules = []
    for _ in range(arms):
        last = 0
        for _ in range(length):
            sizes.append(1)
            rules.append(Constraint((last, len(sizes) - 1), 1))
            last = len(sizes) - 1
    return Component(tuple(sizes), tuple(rules))


def test_a_tree_with_many_arms_is_counted_narrow_and_exactly():
    component = star_of_paths(14, 6)
    counted = count_component(component)
    assert counted.dp_plan == "tree" and counted.dp_width <= 2
    # Each arm alternates: 2 layouts of the centre, each fixing every arm.
    assert counted.total == 2
    assert counted.layouts[1 + 14 * 3] == 1 and counted.layouts[14 * 3] == 1
    assert treedp.sweep_width(component, dp.sweep_order(component)) > dp.TREE_FROM


def test_tree_and_sweep_agree_on_random_tree_shaped_parts():
    rng = random.Random(7)
    for _ in range(20):
        n = rng.randint(30, 60)
        sizes = tuple(rng.randint(1, 2) for _ in range(n))
        mines = [rng.randint(0, s) for s in sizes]
        rules = []
        for b in range(1, n):
            parent = rng.randrange(b)
            rules.append(Constraint((parent, b), mines[parent] + mines[b]))
        component = Component(sizes, tuple(rules))
        plan = treedp.plan(component)
        assert plan.width <= 2
        tree = treedp.TreePart(component, plan)
        sweep = dp._Part(component)
        watch = dp._Watch(component, UNLIMITED, dp.MAX_STATES, dp.MAX_KEPT)
        total = sweep.total(watch)
        assert tree.total(watch) == total
        shift = ((total * 2).bit_length() + 8) // 8 * 8
        t_total, t_sums = tree.polynomials(shift, watch)
        s_total, s_sums = sweep.polynomials(shift, watch)
        unpack = dp._unpack
        cells = component.cells
        assert unpack(*t_total[:1], shift, t_total[1], 0, cells) == \
            unpack(*s_total[:1], shift, s_total[1], 0, cells)
        for (a, oa), (b, ob) in zip(t_sums, s_sums, strict=True):
            assert unpack(a, shift, oa, 0, cells) == unpack(b, shift, ob, 0, cells)


def test_sweep_width_counts_the_rules_open_at_a_cut():
    component = Component((1, 1, 1, 1), (Constraint((0, 3), 1), Constraint((1, 2), 1),
                                         Constraint((0,), 0)))
    assert treedp.sweep_width(component, [0, 1, 2, 3]) == 2
    assert treedp.sweep_width(component, [0, 3, 1, 2]) == 1
