"""Held-out judgement: each query's suite split into visible and held-out tests.

A stage may execute (or read inputs from) the visible tests only; correctness is judged on
the held-out tests only, for every system of a report, so no figure is circular and every
comparison stays paired. A query whose suite leaves no held-out test is excluded and
counted.

``visible`` is a count (``3``: three tests of each suite, or the whole suite if shorter) or a
fraction in (0, 1) (``0.5``: ``floor(0.5 * n)`` of a suite of n tests, at least one). Which
tests are visible is drawn per query from ``numpy.random.default_rng([seed, crc32(id)])``,
so a query's split does not depend on the other queries or their order.
"""

from __future__ import annotations

import dataclasses
import math
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from ..benchmark.dataset import Benchmark

__all__ = ["Split", "held_out_benchmark", "make_split", "parse_visible"]


def parse_visible(text: str) -> float | int:
    """``--visible``: a whole number >= 1, or a fraction strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"expected a number of tests (e.g. 3) or a fraction (e.g. 0.5), "
                         f"got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"must be positive, got {text!r}")
    if value < 1:
        return value
    if value != int(value):
        raise ValueError(f"a count of tests must be a whole number, got {text!r}")
    return int(value)


@dataclass(frozen=True, eq=False)
class Split:
    """Per query id, the 0-based positions of its visible tests in its suite."""

    seed: int
    visible_spec: float | int
    visible: Mapping[str, tuple[int, ...]]
    suites: Mapping[str, tuple[str, ...]]

    def visible_tests(self, query_id: str) -> tuple[str, ...]:
        suite = self.suites[query_id]
        return tuple(suite[i] for i in self.visible[query_id])

    def held_out_tests(self, query_id: str) -> tuple[str, ...]:
        shown = set(self.visible[query_id])
        return tuple(t for i, t in enumerate(self.suites[query_id]) if i not in shown)

    @property
    def no_held_out(self) -> tuple[str, ...]:
        """Query ids left with no held-out test (excluded from every figure)."""
        return tuple(q for q in self.visible if not self.held_out_tests(q))

    def to_dict(self) -> dict[str, Any]:
        """The report's ``split``: the seed and each query's 1-based visible test numbers."""
        return {"seed": self.seed, "visible_spec": self.visible_spec,
                "visible": {q: [i + 1 for i in v] for q, v in self.visible.items()},
                "excluded_no_held_out": list(self.no_held_out)}


def _count(spec: float | int, n: int) -> int:
    if isinstance(spec, int):
        return min(spec, n)
    return min(n, max(1, math.floor(spec * n)))


def make_split(benchmark: Benchmark, visible: float | int, seed: int = 0) -> Split:
    """Split every query's suite (module docstring)."""
    chosen: dict[str, tuple[int, ...]] = {}
    for query in benchmark.queries:
        n = len(query.test_suite)
        rng = np.random.default_rng([int(seed), zlib.crc32(query.query_id.encode("utf-8"))])
        picks = rng.permutation(n)[:_count(visible, n)]
        chosen[query.query_id] = tuple(sorted(int(i) for i in picks))
    return Split(int(seed), visible, MappingProxyType(chosen),
                 MappingProxyType({q.query_id: q.test_suite for q in benchmark.queries}))


def held_out_benchmark(benchmark: Benchmark, split: Split) -> Benchmark:
    """The benchmark with each query's suite cut to its held-out tests (what is judged)."""
    queries = [dataclasses.replace(q, test_suite=split.held_out_tests(q.query_id))
               for q in benchmark.queries]
    return Benchmark(queries, benchmark.corpus, name=benchmark.name, path=benchmark.path,
                      manifest=benchmark.manifest)
