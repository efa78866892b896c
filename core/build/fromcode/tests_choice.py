"""Which of a function's cases become its tests: doctest cases, then mutant kills.

After EvalPlus's test-suite reduction (Liu et al., 2023): every single-edit mutant of the
canonical (a seeded sample of at most :data:`MUTANTS` of them, spread over the six bug
types) runs against every case; a case *kills* a mutant when the mutant does not pass it.
The tests are then, up to ``max_tests``:

1. the doctest cases, in docstring order (what the author says the function does);
2. greedily, the case that kills the most mutants no chosen case kills yet (ties: the
   earlier case), until every killable mutant is killed;
3. the remaining cases in order (test-suite calls before generated ones) until
   ``min_tests``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...hooks import Progress, ShouldStop
from ...inputs import Case, InputSet, run_differential
from ...mutation.generate import generate_mutants
from ...mutation.select import sample_candidates

__all__ = ["MUTANTS", "choose", "kill_matrix"]

#: mutants per function run against every case to rank the cases
MUTANTS = 8


def choose(cases: Sequence[Case], doctest: frozenset[str], kills: Sequence[frozenset[int]],
           min_tests: int, max_tests: int) -> list[int]:
    """Indexes of the chosen cases, in test order (see the module docstring). ``kills[m]``
    are the indexes of the cases that kill mutant ``m``."""
    chosen: list[int] = [i for i, c in enumerate(cases) if c.call in doctest][:max_tests]
    killed: set[int] = {m for m, by in enumerate(kills) if by & set(chosen)}
    while len(chosen) < max_tests:
        gains = [(sum(1 for m, by in enumerate(kills) if m not in killed and i in by), -i)
                 for i in range(len(cases)) if i not in chosen]
        if not gains:
            break
        gain, neg = max(gains)
        if gain == 0:
            break
        chosen.append(-neg)
        killed.update(m for m, by in enumerate(kills) if -neg in by)
    for i in range(len(cases)):
        if len(chosen) >= min_tests:
            break
        if i not in chosen:
            chosen.append(i)
    return chosen


def kill_matrix(items: Sequence[tuple[str, str, tuple[Case, ...]]], oracle: Any, *,
                seed: int = 0, progress: Progress | None = None,
                should_stop: ShouldStop | None = None) -> list[list[frozenset[int]]]:
    """For each ``(canonical, function name, cases)``, per sampled mutant, the cases that
    kill it (one differential run per mutant, on the oracle's workers and cache)."""
    pairs: list[tuple[str, InputSet]] = []
    owners: list[int] = []
    for j, (code, name, cases) in enumerate(items):
        mutants = generate_mutants(code, name).mutants
        inputs = InputSet(name, cases, seed)
        for mutant in sample_candidates(mutants, name, seed, MUTANTS):
            pairs.append((mutant.code, inputs))
            owners.append(j)
    results = run_differential(oracle, pairs, progress=progress, should_stop=should_stop)
    matrix: list[list[frozenset[int]]] = [[] for _ in items]
    for j, result in zip(owners, results, strict=True):
        matrix[j].append(frozenset(d.case for d in result.differences))
    return matrix
