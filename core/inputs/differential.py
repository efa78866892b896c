"""Differential runs: does a candidate answer an input set as the canonical does?

A differential run is an ordinary suite: each case becomes ``assert f(args) == expected``
(the canonical's result as plain data) or ``with pytest.raises(T): f(args)``, run on the
candidate through the oracle, so its containment, its plain-data comparison and its cache
apply unchanged; verdicts are the runner's, never read from what the candidate prints. A
case *distinguishes* the candidate when the candidate does not pass it; a timeout counts
only when the test, run again alone, times out again. Inputs on which a candidate loops
cost a timeout each, so chunks of cases go in waves and a candidate that has timed out
and is told apart (or has timed out :data:`~execretrieval.inputs.batches.ROUNDS` + 1
times) gets no more; ``tried`` counts the cases with a verdict, ``unrun`` lists the rest
(not run, or timeouts not confirmed because another case already tells it apart).
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
    """A candidate against an input set: ``tried`` cases run, the ones that differ, and
    the indexes of the cases that did not run (left unreached by a timeout)."""

    tried: int
    differences: tuple[Difference, ...]
    unrun: tuple[int, ...] = ()

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


def _enough(per: list[TestOutcome | None]) -> bool:
    """No more cases for a candidate that timed out and is told apart anyway."""
    return _told_apart(per) and any(o is not None and o.status == "timeout" for o in per)


def _told_apart(per: list[TestOutcome | None]) -> bool:
    """Some case tells the candidate apart without a timeout."""
    return any(o is not None and o.status in ("fail", "error") for o in per)


def run_differential(oracle: Any, pairs: Sequence[tuple[str, InputSet]], *,
                     progress: Progress | None = None,
                     should_stop: ShouldStop | None = None,
                     executed: list[int] | None = None) -> list[DifferentialResult]:
    """Each ``(candidate code, input set)`` pair's differential run, in order, on an
    oracle derived from ``oracle`` (its cache, a per-chunk timeout of at most
    :data:`~execretrieval.inputs.batches.TIMEOUT`); ``executed``, if given, gets the number
    of suites really run appended."""
    with derived_oracle(oracle) as runner:
        try:
            return _run(runner, pairs, progress, should_stop)
        finally:
            if executed is not None:
                executed.append(runner.executed)


def _run(oracle: Any, pairs: Sequence[tuple[str, InputSet]], progress: Progress | None,
         should_stop: ShouldStop | None) -> list[DifferentialResult]:
    jobs = [(code, [c.test for c in inputs.cases]) for code, inputs in pairs]
    outcomes = run_chunked(oracle, jobs, progress=progress, should_stop=should_stop,
                           stop=_enough)
    # a timeout in a chunk may be the chunk's budget running out: confirm the first one
    # alone, unless another case tells the candidate apart anyway
    alone = []
    for j, per in enumerate(outcomes):
        if not _told_apart(per):
            first = next((i for i, o in enumerate(per) if o is not None
                          and o.status == "timeout"), None)
            if first is not None:
                alone.append((j, first))
    if alone:
        again = oracle.run_many([(jobs[j][0], [jobs[j][1][i]]) for j, i in alone],
                                should_stop=should_stop)
        for (j, i), result in zip(alone, again, strict=True):
            outcomes[j][i] = result.outcomes[0]
    confirmed = set(alone)
    results = []
    for j, ((_, inputs), per) in enumerate(zip(pairs, outcomes, strict=True)):
        judged = [o is not None and (o.status != "timeout" or (j, i) in confirmed)
                  for i, o in enumerate(per)]
        diffs = tuple(Difference(i, _output(o, inputs.cases[i]))
                      for i, o in enumerate(per)
                      if judged[i] and o is not None and o.status != "pass")
        results.append(DifferentialResult(sum(judged), diffs,
                                          tuple(i for i, ok in enumerate(judged) if not ok)))
    return results
