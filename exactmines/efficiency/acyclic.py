"""Clauses that hold a set of chosen arcs free of circles: the vertex elimination encoding
of acyclicity (Rankooh and Rintanen, "Propositional encodings of acyclicity and
reachability by using vertex elimination", AAAI 2022).

Each arc ``(u, v)`` of a directed graph has a variable, true when the arc is chosen. The
vertices are taken away one at a time; when ``v`` goes, each pair of arcs ``u -> v`` and
``v -> w`` gets a clause "both chosen implies ``u -> w`` chosen" (a new arc, with a new
variable, when the graph has none), and ``u -> v`` with ``v -> u`` a clause "not both".
A circle of chosen arcs shrinks, as its vertices go, to two arcs both ways, which the last
clause forbids; chosen arcs without a circle satisfy every clause when every arc is set to
"its head is reachable from its tail by chosen arcs" (which sets no circle either). So the
clauses are satisfiable with a set of arcs true exactly when the set has no circle; an arc
outside it may be true too, when the arcs of the set join its ends.

Taking first the vertex whose going adds fewest clauses (fewest arcs in times arcs out)
keeps the encoding small on a board's graph: a few thousand clauses on an expert board.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

__all__ = ["acyclic"]


def acyclic(arcs: dict[tuple[Hashable, Hashable], int],
            new_var: Callable[[], int]) -> list[list[int]]:
    """The clauses that forbid a circle among the true arcs of ``arcs`` (``(tail, head)``
    to its variable). The arcs the elimination adds are put in ``arcs`` with variables
    from ``new_var``. Vertices must be comparable (ties in the order are broken by them,
    so the clauses do not depend on the order of ``arcs``)."""
    out: dict[Hashable, set[Hashable]] = {}
    into: dict[Hashable, set[Hashable]] = {}
    for u, v in arcs:
        out.setdefault(u, set()).add(v)
        into.setdefault(v, set()).add(u)
        out.setdefault(v, set())
        into.setdefault(u, set())
    clauses: list[list[int]] = []
    alive = set(out)

    def remove(v: Hashable) -> None:
        for u in into[v]:
            out[u].discard(v)
        for w in out[v]:
            into[w].discard(v)
        alive.discard(v)
        del out[v], into[v]

    while alive:
        # A vertex with no arc in or none out adds no clause when it goes, and taking it
        # away can only leave others so: all of them go first (as the order below would
        # take them, and with the same clauses after), without a look at every vertex.
        bare = [x for x in alive if not into[x] or not out[x]]
        while bare:
            v = bare.pop()
            if v not in alive:
                continue
            ends = into[v] | out[v]
            remove(v)
            bare.extend(x for x in ends if not into[x] or not out[x])
        if not alive:
            break
        v = min(alive, key=lambda x: (len(into[x]) * len(out[x]), x))  # type: ignore[operator]
        for u in sorted(into[v]):  # type: ignore[type-var]
            uv = arcs[(u, v)]
            for w in sorted(out[v]):  # type: ignore[type-var]
                if u == w:
                    clauses.append([-uv, -arcs[(v, u)]])
                    continue
                uw = arcs.get((u, w))
                if uw is None:
                    uw = arcs[(u, w)] = new_var()
                    out[u].add(w)
                    into[w].add(u)
                clauses.append([-uv, -arcs[(v, w)], uw])
        remove(v)
    return clauses
