"""Differential runs: does a candidate answer an input set as the canonical does?

A differential run is an ordinary suite: each case becomes ``assert f(args) == expected``
(the canonical's result as plain data) or ``with pytest.raises(T): f(args)``, run on the
candidate through the oracle, so its containment, its plain-data comparison and its cache
apply unchanged; verdicts are the runner's, never read from what the candidate prints. A
case *distinguishes* the candidate when the candidate does not pass it; a timeout counts
only when the test, run again alone, times out again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..hooks import Progress, ShouldStop
from ..oracle.results import TestOutcome
from .batches import derived_oracle, run_chunked
from .cases import Case, InputSet

__all__ = ["Difference", "DifferentialResult", "canonical_answer", "run_differential"]


@dataclass(frozen=True)
class Difference:
    """Case ``case`` of the input set tells the candidate apart: it answered ``output``
    (a repr, ``raises T``, ``returns normally`` or ``timeout``)."""

    case: int
    output: str


@dataclass(frozen=True)
class DifferentialResult:
    """A candidate against an input set: ``tried`` cases run, the ones that differ."""

    tried: int
    differences: tuple[Difference, ...]

    @property
    def distinguished(self) -> bool:
        return bool(self.differences)


def canonical_answer(case: Case) -> str:
    """What the canonical answers, in the words :class:`Difference` uses."""
    return f"raises {case.expected}" if case.kind == "raises" else case.expected


def _output(outcome: TestOutcome, case: Case) -> str:
    detail = outcome.detail
    if outcome.status == "timeout":
        return "timeout"
    if outcome.status == "error":
        name = detail.split(":", 1)[0].strip() or "an exception"
        return f"raises {name}"
    if case.kind == "raises" and detail.startswith("DID NOT RAISE"):
        return "returns normally"
    if detail.startswith("returned ") and ", expected " in detail:
        return detail[len("returned "):detail.rindex(", expected ")]
    return detail or "a different result"


def run_differential(oracle: Any, pairs: Sequence[tuple[str, InputSet]], *,
                     progress: Progress | None = None,
                     should_stop: ShouldStop | None = None) -> list[DifferentialResult]:
    """Each ``(candidate code, input set)`` pair's differential run, in order, on an
    oracle derived from ``oracle`` (its cache, a per-chunk timeout of at most
    :data:`~execretrieval.inputs.batches.TIMEOUT`)."""
    with derived_oracle(oracle) as runner:
        return _run(runner, pairs, progress, should_stop)


def _run(oracle: Any, pairs: Sequence[tuple[str, InputSet]], progress: Progress | None,
         should_stop: ShouldStop | None) -> list[DifferentialResult]:
    jobs = [(code, [c.test for c in inputs.cases]) for code, inputs in pairs]
    outcomes = run_chunked(oracle, jobs, progress=progress, should_stop=should_stop)
    # a timeout in a chunk may be the chunk's budget running out: confirm it alone
    alone = [(j, i) for j, per in enumerate(outcomes) for i, o in enumerate(per)
             if o is not None and o.status == "timeout"]
    if alone:
        again = oracle.run_many([(jobs[j][0], [jobs[j][1][i]]) for j, i in alone],
                                should_stop=should_stop)
        for (j, i), result in zip(alone, again, strict=True):
            outcomes[j][i] = result.outcomes[0]
    results = []
    for (_, inputs), per in zip(pairs, outcomes, strict=True):
        diffs = tuple(Difference(i, _output(o, inputs.cases[i]))
                      for i, o in enumerate(per) if o is not None and o.status != "pass")
        results.append(DifferentialResult(sum(1 for o in per if o is not None), diffs))
    return results
