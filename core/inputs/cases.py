"""Inputs for a target function, with the canonical's answers: the suite's own calls, then
more generated from them, kept only where the canonical answers them deterministically.

:func:`build_input_sets` does, for many (canonical, suite) tasks at once:

1. **collect**: every test that calls the function is re-run in the sandbox with the
   function wrapped, and the plain-data arguments of its outermost calls come back as
   source (the suite's own inputs, however the test builds them);
2. **generate**: seeded by ``(seed, function name)``: the suite's calls with one number
   moved to a boundary (half of ``n``), then type-aware mutation of them (:mod:`.mutate`)
   and inputs from type hints, until ``n`` distinct candidates; and, drawn after them
   from the same seeded stream, up to ``2 n`` *pairs* of inputs with two numbers at a
   boundary at once (:mod:`.pairwise`: one site swept across its range, another one
   step either side). The pairs come on top of the ``n``: they never take the place
   of a mutated input, so every input (and verdict) the random share finds at a seed
   is still found with the pairs;
3. **evaluate**: each candidate runs on the canonical twice per test process, under two
   hash seeds; it is answered when all four answers agree: a plain-data result (an
   ``assert f(args) == result`` case) or the same exception type (a ``pytest.raises``
   case); a timeout, a non-plain result or any disagreement drops it. Every answered
   one of the ``n`` is kept (the suite's calls, the one-number and mutated inputs), and
   of the pairs, the two sides of those the canonical answers differently (a boundary
   that the other site's value moves), up to 45% of ``n`` more inputs;
4. **verify**: the kept cases, as the tests they will be, run on the canonical once more
   through the oracle's own comparison rules; a case the canonical fails is dropped.
"""

from __future__ import annotations

import ast
import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import CancelledError
from ..hooks import Progress, ShouldStop
from .batches import derived_oracle, run_chunked
from .domain import Domain, infer_domain
from .mutate import boundary_variants, mutate_value, pools_from_code, value_for_hint
from .pairwise import pairwise
from .plain import call_source
from .probes import collector, evaluator, read_calls, read_evaluation, with_probes
from .spelling import Spelling

__all__ = ["DEFAULT_INPUTS", "Case", "InputSet", "InputTask", "build_input_sets",
           "case_test"]

DEFAULT_INPUTS = 100
_OUTPUT_CHARS = 400_000   # probes print their answers: room for a chunk of them
_MAX_CALL = 300           # longest generated call source; suggested tests stay readable
_TRIES = 40               # generation attempts per wanted input before giving up
_SINGLES = 50             # per cent of the budget n: the suite's calls with one number moved
_PAIRS = 45               # per cent of n, on top of it: both sides of straddling pairs
_PAIR_POOL = 2            # boundary pairs tried per wanted input (answered by the canonical only)


@dataclass(frozen=True)
class Case:
    """One input and the canonical's answer: ``kind`` is ``"return"`` (``expected`` is the
    result as plain-data source) or ``"raises"`` (``expected`` is the exception type);
    ``origin`` is ``"suite"`` (a call the suite makes) or ``"generated"``."""

    call: str
    kind: str
    expected: str
    origin: str = "generated"
    #: import lines the call and the expected value need in the code's namespace
    #: (``from datetime import date``; see :mod:`.spelling`), one a line, or ""
    imports: str = ""
    #: the precondition of the suite's domain the input breaks (:mod:`.domain`), or ""
    outside: str = ""

    @property
    def test(self) -> str:
        """The case as a test of the benchmark's kind."""
        return case_test(self.call, self.kind, self.expected, self.imports)


def case_test(call: str, kind: str, expected: str, imports: str = "") -> str:
    """``assert call == expected`` or a ``pytest.raises(expected)`` block, after the
    ``imports`` lines, if any."""
    head = imports.strip() + "\n" if imports.strip() else ""
    if kind == "raises":
        return f"{head}with pytest.raises({expected}):\n    {call}"
    return f"{head}assert {call} == {expected}"


@dataclass(frozen=True)
class InputTask:
    """A canonical, its target function and the suite whose calls seed the inputs."""

    code: str
    function_name: str
    tests: tuple[str, ...]


@dataclass(frozen=True)
class InputSet:
    """The cases of one task. ``collected``: distinct calls found in the suite;
    ``candidates``: distinct inputs evaluated; ``problem``: why there are no cases;
    ``domain``: the preconditions inferred from the suite's calls (each case's
    ``outside`` says which one it breaks, if any)."""

    function_name: str
    cases: tuple[Case, ...]
    seed: int
    collected: int = 0
    candidates: int = 0
    problem: str = ""
    domain: Domain = Domain()


def _calls_function(test: str, function: str) -> bool:
    try:
        tree = ast.parse(test)
    except (SyntaxError, ValueError):
        return False
    return any(isinstance(n, ast.Name) and n.id == function for n in ast.walk(tree))


def _generate(task: InputTask, seeds: list[tuple[tuple, dict]], n: int,
              seed: int) -> tuple[list[tuple[str, str]], list[tuple[int, int]]]:
    """``(call source, origin)`` of distinct candidate inputs, the suite's first, and the
    pairs (indexes into them) that may straddle a boundary. Origins: ``suite``,
    ``generated`` (the first ``n``, kept when answered) and ``pair`` (kept when its
    pair straddles a boundary, beyond ``n``). The pairs are drawn after the ``n``, so
    the ``n`` are the same with or without them."""
    rng = random.Random(f"execretrieval-inputs:{seed}:{task.function_name}")
    pools = pools_from_code(task.code, task.function_name)
    out: list[tuple[str, str]] = []
    index: dict[str, int] = {}
    pool: list[tuple[tuple, dict]] = []

    def add(args: tuple, kwargs: dict, origin: str) -> bool:
        return _index(args, kwargs, origin) is not None

    def _index(args: tuple, kwargs: dict, origin: str) -> int | None:
        try:
            source = call_source(task.function_name, args, kwargs)
        except (ValueError, RecursionError):
            return None
        if source in index:
            return index[source] if origin == "pair" else None
        if origin != "suite" and len(source) > _MAX_CALL:
            return None
        index[source] = len(out)
        out.append((source, origin))
        if origin != "pair":
            pool.append((args, kwargs))
        return index[source]

    for seed_args, seed_kwargs in seeds:
        add(seed_args, seed_kwargs, "suite")
    if not pool and pools.params and len(pools.hints) == len(pools.params):
        for _ in range(_TRIES):  # no plain-data call in the suite: start from the hints
            fresh = tuple(value_for_hint(pools.hints[i], rng, pools)
                          for i in range(len(pools.params)))
            if all(a is not None for a in fresh):
                add(fresh, {}, "generated")
    suite = list(pool)
    _boundaries(suite, pools, rng, add, room=n * _SINGLES // 100)
    tries = 0
    while pool and len(out) < n and tries < n * _TRIES:
        tries += 1
        if not _random_edit(pool, pools, rng, add, "generated"):
            break
    del out[max(n, len(seeds)):]   # inputs from hints can run past a small n
    for source in [s for s, i in index.items() if i >= len(out)]:
        del index[source]
    pairs = []
    for both, one in pairwise(suite, pools, rng, limit=n * _PAIR_POOL):
        i, j = _index(*both, "pair"), _index(*one, "pair")
        if i is not None and j is not None:
            pairs.append((i, j))
    return out, pairs


def _random_edit(pool: list[tuple[tuple, dict]], pools: Any, rng: random.Random,
                 add: Any, origin: str) -> bool:
    """Add one input: a known one with one or two arguments mutated; False when there
    are no arguments to mutate."""
    picked_args, picked_kwargs = rng.choice(pool)
    args: list[Any] = list(picked_args)
    kwargs: dict[str, Any] = dict(picked_kwargs)
    names: list[int | str] = [*range(len(args)), *kwargs]
    if not names:
        return False
    for _ in range(1 if rng.random() < 0.75 else 2):
        which = rng.choice(names)
        if isinstance(which, int):
            hint = pools.hints.get(which)
            if hint is not None and rng.random() < 0.1:
                fresh = value_for_hint(hint, rng, pools)
                if fresh is not None and type(fresh) is type(args[which]):
                    args[which] = fresh
                    continue
            args[which] = mutate_value(args[which], rng, pools)
        else:
            kwargs[which] = mutate_value(kwargs[which], rng, pools)
    add(tuple(args), kwargs, origin)
    return True


def _select(cands: list[tuple[str, str, str]], answers: list[Case | None],
            pairs: list[tuple[int, int]], n: int) -> list[Case]:
    """The answered candidates kept: every suite and generated one; then both sides of
    each pair the canonical answers differently (a boundary), in priority order, those
    that cost fewer new inputs first (a side already kept is free), until the pairs
    have added ``_PAIRS`` per cent of ``n`` inputs."""
    order = [i for i, c in enumerate(cands) if c[1] in ("suite", "generated")
             and answers[i] is not None]
    chosen = set(order)
    cap = len(chosen) + n * _PAIRS // 100
    straddle = [(i, j) for i, j in pairs if (a := answers[i]) is not None and (
        b := answers[j]) is not None and (a.kind, a.expected) != (b.kind, b.expected)]
    while straddle and len(chosen) < cap:   # the first pair of those costing fewest new inputs
        i, j = min(straddle, key=lambda p: (p[0] not in chosen) + (p[1] not in chosen))
        straddle.remove((i, j))
        for k in (i, j):
            if k not in chosen and len(chosen) < cap:
                chosen.add(k)
    return [case for i in sorted(chosen) if (case := answers[i]) is not None]


def _boundaries(calls: list[tuple[tuple, dict]], pools: Any, rng: random.Random,
                add: Any, room: int) -> None:
    """``room`` inputs (half the budget) are the suite's own calls with one number moved
    (one step first, then to 0, then to the body's literals), each tier shuffled by the
    seed."""
    tiers: list[list[tuple[tuple, dict]]] = [[], [], []]
    for args, kwargs in calls:
        for i, arg in enumerate(args):
            for tier, values in zip(tiers, boundary_variants(arg, pools), strict=True):
                tier.extend((args[:i] + (v,) + args[i + 1:], kwargs) for v in values)
        for key, arg in kwargs.items():
            for tier, values in zip(tiers, boundary_variants(arg, pools), strict=True):
                tier.extend((args, {**kwargs, key: v}) for v in values)
    added = 0
    for tier in tiers:
        rng.shuffle(tier)
        for args, kwargs in tier:
            if added >= room:
                return
            added += add(args, kwargs, "generated")


def _answers(candidates: list[list[tuple[str, str, str]]], by_seed: list[list[list[Any]]],
             spellings: list[Spelling]) -> list[list[Case | None]]:
    """Per candidate, its case when the canonical answered it the same way in every run."""
    kept: list[list[Case | None]] = []
    for j, cands in enumerate(candidates):
        cases: list[Case | None] = []
        for i, (call, origin, imports) in enumerate(cands):
            runs = [rs[j][i] for rs in by_seed]
            answer = None if any(r is None for r in runs) else read_evaluation(runs)
            if answer is None:
                cases.append(None)
                continue
            expected, more = spellings[j].spell(answer[1]) if answer[0] == "return" \
                else (answer[1], ())
            lines = "\n".join(sorted({*imports.splitlines(), *more}))
            cases.append(Case(call, answer[0], expected,
                              "suite" if origin == "suite" else "generated", lines))
        kept.append(cases)
    return kept


def _spelled(spelling: Spelling, calls: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """``(call, origin, import lines)``: each call named as the code names things."""
    out = []
    for call, origin in calls:
        text, imports = spelling.spell(call)
        out.append((text, origin, "\n".join(imports)))
    return out


def build_input_sets(oracle: Any, tasks: Sequence[InputTask], *, n: int = DEFAULT_INPUTS,
                     seed: int = 0, progress: Progress | None = None,
                     should_stop: ShouldStop | None = None,
                     executed: list[int] | None = None) -> list[InputSet]:
    """The input set of each task (see the module docstring), in task order.

    Everything runs on oracles derived from ``oracle`` (hash seeds 0 and 1, room for
    printed answers, the oracle's timeout for the canonical's chunks) that share its
    cache, so a warm re-run executes nothing (``executed``, if given, gets the number of
    suites really run appended). Raises CancelledError once ``should_stop()`` is true.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    total = 4 * len(tasks)
    step = [0]

    def tick() -> None:
        step[0] += len(tasks)
        if progress is not None:
            progress(step[0], total)

    def check() -> None:
        if should_stop is not None and should_stop():
            raise CancelledError("the input generation was cancelled")

    # the canonical's chunks get the oracle's own timeout: on a loaded machine a chunk of
    # the canonical can take longer than a candidate's short chunk timeout, and an input
    # lost to that would change the input set with the load
    probes = [derived_oracle(oracle, oracle.timeout, hash_seed=s, output_chars=_OUTPUT_CHARS)
              for s in (0, 1)]
    plain = derived_oracle(oracle, oracle.timeout)
    try:
        check()
        # the probes' helper goes in the suite's code, compiled once, not in every test
        collect_jobs = [(with_probes(t.code), [collector(x, t.function_name, shared=True)
                                               for x in t.tests
                                               if _calls_function(x, t.function_name)])
                        for t in tasks]
        collected = run_chunked(probes[0], collect_jobs, should_stop=should_stop)
        tick()
        candidates: list[list[tuple[str, str, str]]] = []
        n_collected: list[int] = []
        domains: list[Domain] = []
        pair_lists: list[list[tuple[int, int]]] = []
        spellings = [Spelling.of(t.code) for t in tasks]
        for task, outcomes, spelling in zip(tasks, collected, spellings, strict=True):
            calls = [c for o in outcomes if o is not None for c in read_calls(o)]
            unique = {call_source(task.function_name, a, k): (a, k) for a, k in calls}
            n_collected.append(len(unique))
            domains.append(infer_domain(list(unique.values())))
            made, pairs = _generate(task, list(unique.values()), n, seed)
            candidates.append(_spelled(spelling, made))
            pair_lists.append(pairs)
        by_seed: list[list[list[Any]]] = []
        for probe in probes:
            check()
            # under the second hash seed only the calls the first answered: an answer
            # needs every seed's, so a call the canonical timed out on (5 s, twice when
            # it was reached late in a chunk), erred on or answered without plain data
            # is lost whatever the second says (the same input set, minus the wait)
            asked = [list(range(len(c))) if not by_seed else
                     [i for i, o in enumerate(by_seed[0][j])
                      if o is not None and read_evaluation([o]) is not None]
                     for j, c in enumerate(candidates)]
            runs = run_chunked(probe, [(with_probes(t.code),
                                        [evaluator(c[i][0], c[i][2], shared=True) for i in idx])
                                       for t, c, idx in zip(tasks, candidates, asked,
                                                            strict=True)],
                               should_stop=should_stop)
            spread: list[list[Any]] = []
            for c, idx, got in zip(candidates, asked, runs, strict=True):
                row: list[Any] = [None] * len(c)
                for i, outcome in zip(idx, got, strict=True):
                    row[i] = outcome
                spread.append(row)
            by_seed.append(spread)
            tick()
        kept = [_select(c, a, p, n) for c, a, p in zip(
            candidates, _answers(candidates, by_seed, spellings), pair_lists, strict=True)]
        check()
        verified = run_chunked(plain, [(t.code, [c.test for c in cases])
                                       for t, cases in zip(tasks, kept, strict=True)],
                               should_stop=should_stop)
        tick()
    finally:
        for p in (*probes, plain):
            p.close()
        if executed is not None:
            executed.append(sum(p.executed for p in (*probes, plain)))
    sets = []
    for task, cases, outcomes, found, cands, domain in zip(
            tasks, kept, verified, n_collected, candidates, domains, strict=True):
        good = tuple(dataclasses.replace(c, outside=domain.outside_call(c.call))
                     for c, o in zip(cases, outcomes, strict=True)
                     if o is not None and o.status == "pass")
        problem = ""
        if not good:
            problem = ("the suite makes no call with plain-data arguments" if not cands
                       else "the canonical answers none of the inputs deterministically "
                            "with plain data")
        sets.append(InputSet(task.function_name, good, seed, found, len(cands), problem,
                             domain))
    return sets
