"""From executed mutants to distractors: the keep rule, and seeded, type-diverse selection.

A mutant becomes a distractor only if its test run shows a *wrong output*: at least one test
fails by assertion. Mutants that pass every test (equivalent, or undetected by the tests),
that only crash, or that time out are rejected; a timeout is rejected even next to
assertion failures, because whether a slow mutant finishes depends on the machine, and a
benchmark must validate the same way everywhere.

Every random choice draws from a ``numpy.random.Generator`` seeded with ``(seed,
function_name)``, so adding or removing one task never changes the choices for another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np

from .generate import Mutant

__all__ = ["REJECT_REASONS", "keep_reason", "rng_for", "sample_candidates",
           "select_distractors"]

REJECT_REASONS = (
    "passes all tests",
    "only crashes (no assertion failure)",
    "times out",
)


class _Outcome(Protocol):
    status: str


class _Result(Protocol):
    @property
    def outcomes(self) -> Sequence[_Outcome]: ...


def keep_reason(result: _Result) -> str | None:
    """None if the run makes the mutant a distractor, else the reason to reject it."""
    statuses = [o.status for o in result.outcomes]
    if "timeout" in statuses:
        return "times out"
    if all(s == "pass" for s in statuses):
        return "passes all tests"
    if "fail" not in statuses:
        return "only crashes (no assertion failure)"
    return None


def rng_for(seed: int, function_name: str, purpose: str) -> np.random.Generator:
    """A generator that depends only on the seed, the task's function name and a purpose."""
    digest = hashlib.sha256(f"{function_name}\0{purpose}".encode()).digest()
    return np.random.default_rng([int(seed), int.from_bytes(digest[:8], "little")])


def _interleave(mutants: Iterable[Mutant], rng: np.random.Generator) -> list[Mutant]:
    """Shuffle within each bug type, then deal round-robin over the types in random order."""
    by_type: dict[str, list[Mutant]] = {}
    for m in mutants:
        by_type.setdefault(m.bug_type, []).append(m)
    types = sorted(by_type)
    queues = []
    for t in (types[i] for i in rng.permutation(len(types))):
        group = by_type[t]
        queues.append([group[i] for i in rng.permutation(len(group))])
    dealt: list[Mutant] = []
    while any(queues):
        for queue in queues:
            if queue:
                dealt.append(queue.pop(0))
    return dealt


def sample_candidates(mutants: Sequence[Mutant], function_name: str, seed: int,
                      limit: int | None) -> list[Mutant]:
    """The mutants to execute: all of them, or ``limit`` spread evenly over bug types.

    Capping keeps long functions (hundreds of candidate edits) from dominating build time
    while every operator still gets its turn.
    """
    if limit is None or len(mutants) <= limit:
        return list(mutants)
    chosen = _interleave(mutants, rng_for(seed, function_name, "sample"))[:limit]
    order = {id(m): i for i, m in enumerate(mutants)}
    return sorted(chosen, key=lambda m: order[id(m)])


def select_distractors(kept: Sequence[Mutant], function_name: str, seed: int,
                       k: int = 4) -> list[Mutant]:
    """Up to ``k`` of the kept mutants, as many distinct bug types as possible.

    Bug types are taken in a seeded random order, one mutant each per round, so four
    distinct types are chosen whenever four exist. The result keeps the order of ``kept``.
    """
    if k <= 0:
        return []
    chosen = _interleave(kept, rng_for(seed, function_name, "select"))[:k]
    order = {id(m): i for i, m in enumerate(kept)}
    return sorted(chosen, key=lambda m: order[id(m)])
