"""The missing tests: the fewest new cases that tell every distinguishable candidate from
the canonical.

Choosing the smallest such set is set cover (NP-hard); the greedy choice (take the case
that tells apart the most candidates not yet told apart; ties to the shorter test, then to
the earlier case) is within a factor ln(n) + 1 of the optimum (Chvátal, 1979), and with a
handful of survivors per suite it is nearly always optimal. Cases inside the suite's
inferred domain (:mod:`.domain`) come first: while some in-domain case still kills a
candidate not yet killed, no case outside the domain is taken, so an out-of-domain test is
suggested only for candidates no in-domain input tells apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cases import Case, InputSet
from .differential import DifferentialResult

__all__ = ["Suggestion", "suggest_tests"]


@dataclass(frozen=True)
class Suggestion:
    """A new test (``case.test``) and the candidates (indexes into the runs) it kills."""

    case: Case
    kills: tuple[int, ...]

    @property
    def test(self) -> str:
        return self.case.test


def suggest_tests(inputs: InputSet, runs: Sequence[DifferentialResult | None]
                  ) -> tuple[Suggestion, ...]:
    """Greedy smallest set of ``inputs``' cases that kills every run that some case kills
    (``None`` runs are skipped); each suggestion lists every run it kills."""
    kills: dict[int, set[int]] = {}
    for k, run in enumerate(runs):
        for diff in run.differences if run is not None else ():
            kills.setdefault(diff.case, set()).add(k)
    left = set().union(*kills.values()) if kills else set()
    # what some input inside the suite's domain kills: those get in-domain tests
    inside = set().union(*(k for i, k in kills.items() if not inputs.cases[i].outside)) \
        if kills else set()
    chosen: list[Suggestion] = []
    while left:
        best = min(kills, key=lambda i: (bool(inputs.cases[i].outside) and bool(
            inside & left), -len(kills[i] & left), len(inputs.cases[i].test), i))
        gain = kills[best] & left
        if not gain:
            break
        chosen.append(Suggestion(inputs.cases[best], tuple(sorted(kills[best]))))
        left -= gain
    return tuple(chosen)
