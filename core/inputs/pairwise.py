"""Two numbers of a suite's call at a boundary at once, seeded and bounded.

A boundary mutant that needs two fields moved together (day 32 of a month the suite never
ends on; ``days[month - 1]`` with ``31`` -> ``32`` for March) is out of reach of
one-number variants. Pairwise variants move one *site* (a number of the call, see
:func:`~execretrieval.inputs.mutate.sites`) across its range while another moves one
step. A site's range is what the suite's own calls show at the same place: a site
whose values span at most :data:`SWEEP` is swept over every value in that span (months
1-12 of a date string); any other site takes its boundary values (one step, 0, the
body's literals and their neighbours; a date's month and year ends) that lie within one
of the values the suite passes there. Each candidate is a *pair* of inputs, the two sides
of the other site's step (month 4, day 31 and day 32), so that the caller can keep, of
many such pairs answered by the canonical, the ones that straddle a boundary (the
canonical answers its two sides differently). Pairs come in priority order, each tier
shuffled by the seed: a swept site with a step of a site at an edge (a value that is a
literal of the body, or the least or greatest the suite passes there); then a swept site
with the other at each literal of the body (or its neighbour) in its range and one past
it (month 2 with day 28 | 29 and 29 | 30), and other swept pairs; then the rest.
"""

from __future__ import annotations

import random
from typing import Any

from .mutate import Pools, Site, put, sites

__all__ = ["SWEEP", "pairwise"]

#: widest span of a site's values in the suite that is swept value by value
SWEEP = 24

Call = tuple[tuple[Any, ...], dict[str, Any]]


def _ranges(calls: list[Call], pools: Pools) -> dict[tuple[Any, ...], tuple[int, int]]:
    """Per integer site path, the least and greatest value the suite's calls put there."""
    seen: dict[tuple[Any, ...], list[int]] = {}
    for call in calls:
        for site in sites(call, pools):
            if type(site.old) is int:
                seen.setdefault(site.path, []).append(site.old)
    return {path: (min(v), max(v)) for path, v in seen.items()}


def _wide(site: Site, span: tuple[int, int] | None) -> tuple[bool, list[Any]]:
    """``(swept, values)`` a site moves to when it is the wide one of a pair."""
    if span is None:   # a date, time, Fraction...: its own boundaries
        return False, [v for tier in site.tiers for v in tier]
    lo, hi = span
    if hi - lo <= SWEEP:
        return True, [v for v in range(lo, hi + 1) if v != site.old]
    return False, sorted({v for tier in site.tiers for v in tier if lo - 1 <= v <= hi + 1})


def pairwise(calls: list[Call], pools: Pools, rng: random.Random, limit: int
             ) -> list[tuple[Call, Call]]:
    """Up to ``limit`` pairs ``(both moved, only the wide site moved)``: the two sides of a
    one-step boundary of one site, with another site moved across its range (see the
    module docstring), distinct, in priority order."""
    ranges = _ranges(calls, pools)
    edges = set(pools.literals)
    tiers: list[list[tuple[tuple[Call, Call], Any]]] = [[], [], []]
    for call in calls:
        found = sites(call, pools)
        for a in found:
            swept, values = _wide(a, ranges.get(a.path) if type(a.old) is int else None)
            for b in found:
                if b.path == a.path:
                    continue
                span = ranges.get(b.path)
                at_edge = type(b.old) is not int or b.old in edges or (
                    span is not None and b.old in span)
                tier = tiers[0 if swept and at_edge else 1 if swept else 2]
                lits = [v for v in b.tiers[2] if type(v) is int and span is not None
                        and span[0] - 1 <= v <= span[1]] if swept else []
                for x in values:
                    moved = put(call, {a.path: x})
                    tier.extend(((put(call, {a.path: x, b.path: y}), moved),
                                 (a.path, repr(x), b.path, repr(b.old), repr(y)))
                                for y in b.tiers[0])
                    # the other site at a literal of the body and one past it
                    tiers[1].extend(((put(call, {a.path: x, b.path: v}),
                                      put(call, {a.path: x, b.path: v + 1})),
                                     (a.path, repr(x), b.path, "lit", repr(v))) for v in lits)
    out: list[tuple[Call, Call]] = []
    seen: set[str] = set()
    for tier in tiers:
        rng.shuffle(tier)
        for pair in _spread(tier):
            text = repr(pair)
            if text not in seen:
                seen.add(text)
                out.append(pair)
                if len(out) >= limit:
                    return out
    return out


def _spread(pairs: list[tuple[tuple[Call, Call], Any]]) -> list[tuple[Call, Call]]:
    """The pairs with one per boundary first (the same wide value and the same step of
    the same site from the same value, on another of the suite's calls, is the same
    boundary again), then the repeats, each part in the order given."""
    first: list[tuple[Call, Call]] = []
    again: list[tuple[Call, Call]] = []
    keys: set[str] = set()
    for pair, key in pairs:
        text = repr(key)
        (again if text in keys else first).append(pair)
        keys.add(text)
    return first + again
