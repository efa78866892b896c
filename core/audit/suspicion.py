"""From raw runs to a verdict: mutation score, survivors, flaky tests, suspicion and reasons.

A test *kills* a mutant when the canonical passes it and the mutant does not (fail, error
or timeout). A mutant is *killed* when some test kills it; it *survives* otherwise. A kill
is *crash-only* when every killing test merely errored or timed out: no assertion caught a
wrong value. A test is *flaky* when its status on the canonical differs between hash seeds.
A survivor the input engine found no difference for on any generated input is *likely
equivalent*: it is left out of the mutation score and the boundary count (it says nothing
about the suite), and named in the reasons only next to other reasons.

``suspicion`` is the weighted sum of six signals, each between 0 and 1 (see :data:`WEIGHTS`
and README "Suite audit"); higher means look at this suite first:

====================  ======  ============================================================
signal                weight  value
====================  ======  ============================================================
canonical fails       1.0     1 if the canonical misses any test under any seed
flaky tests           0.5     1 if any test's outcome changes with the hash seed
low mutation score    0.4     1 - killed / (mutants - likely equivalent)
boundary survivors    0.2     non-equivalent boundary/edge-case survivors / 3, at most 1
tests killing nothing 0.15    tests that kill no mutant / tests
crash-only kills      0.1     crash-only kills / killed
====================  ======  ============================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from .results import MutantRun, QueryAudit, SuggestedTest, Survivor

__all__ = ["WEIGHTS", "score_query", "surviving"]

WEIGHTS = {
    "canonical_fails": 1.0,
    "flaky_tests": 0.5,
    "low_mutation_score": 0.4,
    "boundary_survivors": 0.2,
    "tests_killing_nothing": 0.15,
    "crash_only_kills": 0.1,
}
_BOUNDARY_SATURATION = 3


def _numbers(indices: Sequence[int]) -> str:
    """'test 3' or 'tests 2, 5 and 7' from 1-based numbers."""
    if len(indices) == 1:
        return f"test {indices[0]}"
    head = ", ".join(str(i) for i in indices[:-1])
    return f"tests {head} and {indices[-1]}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def surviving(canonical: Sequence[str], runs: Sequence[MutantRun]) -> list[int]:
    """Indexes of the runs no test kills (a kill: the canonical passes, the mutant not)."""
    n = len(canonical)
    return [j for j, run in enumerate(runs)
            if not any(canonical[i] == "pass" and run.statuses[i] != "pass" for i in range(n))]


def score_query(query_id: str, function_name: str, tests: Sequence[str], canonical_code: str,
                canonical: Sequence[str], runs: Sequence[MutantRun],
                seed_statuses: Sequence[tuple[int, Sequence[str]]],
                problem: str = "", suggested: Sequence[SuggestedTest] = (),
                input_seed: int | None = None) -> QueryAudit:
    """The audit of one suite.

    ``canonical`` holds the canonical's statuses under the oracle's own settings, ``runs``
    each mutant's under the same settings, ``seed_statuses`` ``(seed, statuses)`` of the
    canonical per hash seed. ``problem`` (no canonical, canonical does not parse) makes the
    suite maximally suspect without mutants. Survivors carry the input engine's verdicts
    (``input_seed`` is the seed they were found with); ``suggested`` are the new tests that
    kill the distinguishable ones.
    """
    n_tests = len(tests)
    killed = crash_only = 0
    kills_per_test = [0] * n_tests
    survivors: list[Survivor] = []
    for run in runs:
        killers = [i for i in range(n_tests)
                   if canonical[i] == "pass" and run.statuses[i] != "pass"]
        if not killers:
            survivors.append(run.mutant)
            continue
        killed += 1
        for i in killers:
            kills_per_test[i] += 1
        if all(run.statuses[i] != "fail" for i in killers):
            crash_only += 1
    mutants = len(runs)
    equivalent = [s for s in survivors if s.equivalent]
    alive = [s for s in survivors if not s.equivalent]
    counted = mutants - len(equivalent)
    score = killed / counted if counted else 1.0
    nothing = tuple(i + 1 for i in range(n_tests) if mutants and kills_per_test[i] == 0)

    by_test: list[set[str]] = [{canonical[i]} if i < len(canonical) else set()
                               for i in range(n_tests)]
    failing: dict[int, list[int]] = {}
    for seed, statuses in seed_statuses:
        for i, status in enumerate(statuses):
            by_test[i].add(status)
            if status != "pass":
                failing.setdefault(i + 1, []).append(seed)
    flaky = tuple(i + 1 for i in range(n_tests) if len(by_test[i]) > 1)
    default_fails = tuple(i + 1 for i, s in enumerate(canonical) if s != "pass")
    canonical_fails = bool(problem) or bool(default_fails) or bool(failing)

    boundary = [s for s in alive if s.boundary]
    signals = {
        "canonical_fails": 1.0 if canonical_fails else 0.0,
        "flaky_tests": 1.0 if flaky else 0.0,
        "low_mutation_score": 1.0 - score,
        "boundary_survivors": min(1.0, len(boundary) / _BOUNDARY_SATURATION),
        "tests_killing_nothing": len(nothing) / n_tests if n_tests else 0.0,
        "crash_only_kills": crash_only / killed if killed else 0.0,
    }
    suspicion = sum(WEIGHTS[k] * v for k, v in signals.items())

    reasons: list[str] = []
    if problem:
        reasons.append(problem)
    if default_fails:
        reasons.append(f"the canonical fails {_numbers(default_fails)}")
    elif failing:
        seeds = sorted({s for v in failing.values() for s in v})
        reasons.append(f"the canonical fails {_numbers(sorted(failing))} under hash seed"
                       f"{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}")
    if flaky:
        reasons.append(f"flaky: {_numbers(flaky)} change{'s' if len(flaky) == 1 else ''} "
                       "outcome with the hash seed")
    if alive:
        reasons.append(f"mutation score {score:.2f}: {_plural(len(alive), 'mutant')} of "
                       f"{counted} pass every test" + _kinds(alive, suggested))
    if boundary:
        first = boundary[0]
        reasons.append(f"{_plural(len(boundary), 'boundary/edge-case mutant')} survive"
                       f"{'s' if len(boundary) == 1 else ''} (e.g. {first.bug_type}: "
                       f"{first.description})")
    if nothing:
        reasons.append(f"{_numbers(nothing)} kill{'s' if len(nothing) == 1 else ''} no mutant")
    if crash_only:
        reasons.append(f"{crash_only} of {killed} kills are crashes only (no assertion "
                       "catches the wrong value)")
    if equivalent and reasons:
        where = "" if input_seed is None else f", seed {input_seed}"
        reasons.append(f"{_plural(len(equivalent), 'surviving mutant')} likely equivalent "
                       f"(no difference on {equivalent[0].inputs_tried} inputs{where}), "
                       "not counted")
    return QueryAudit(
        query_id=query_id, function_name=function_name, mutants=mutants, killed=killed,
        mutation_score=score, survivors=tuple(survivors), crash_only_kills=crash_only,
        tests_killing_nothing=nothing, flaky_tests=flaky, canonical_fails=canonical_fails,
        suspicion=suspicion, reasons=tuple(reasons), tests=tuple(tests),
        canonical_code=canonical_code, canonical_statuses=tuple(canonical), runs=tuple(runs),
        suggested_tests=tuple(suggested))


def _kinds(alive: Sequence[Survivor], suggested: Sequence[SuggestedTest]) -> str:
    """What the input engine says of the survivors that count: weak, or unclassified."""
    weak = [s for s in alive if s.verdict == "weak"]
    if not weak:
        return ""
    first = min(weak, key=lambda s: bool(s.outside_domain))   # an in-domain example first
    tests = f"; {_plural(len(suggested), 'suggested test')} kill" \
            f"{'s' if len(suggested) == 1 else ''} {'it' if len(weak) == 1 else 'them'}" \
            if suggested else ""
    outside = sum(1 for s in weak if s.outside_domain)
    only = f" ({outside} only outside the suite's domain)" if outside else ""
    return (f" (weak suite: {len(weak)} told apart by a generated input{only}, e.g. "
            f"{first.distinguishing_input} gives {first.canonical_output}, the mutant "
            f"{first.mutant_output}{tests})")
