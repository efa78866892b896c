"""Generated inputs for the ``consensus`` stage: calls only, never answers.

The input engine (:func:`execretrieval.inputs.build_input_sets`) collects the plain-data
arguments of a suite's calls and generates more around them, seeded by ``(seed, function
name)``. Here its suite is the query's **visible** tests only, so no held-out test's
arguments or expected values can reach the stage. The engine keeps an input only where
the code it is given answers it deterministically with plain data (or one exception
type); that code is the *donor*: the first candidate, in the previous stage's order, that
defines the target function. The stage never learns which candidate is the canonical and
reads none of the donor's answers: only the calls (``Case.call``) are kept, and every
candidate, the donor included, is then run on them like on the visible tests' calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..hooks import Progress, ShouldStop
from ..inputs import InputTask, build_input_sets

__all__ = ["DEFAULT_INPUTS", "generated_calls"]

#: generated inputs per query the stage adds by default (measured: README "Second stages")
DEFAULT_INPUTS = 50


def generated_calls(oracle: Any, tasks: Sequence[tuple[str, str, tuple[str, ...]] | None],
                    *, n: int, seed: int, progress: Progress | None = None,
                    should_stop: ShouldStop | None = None,
                    executed: list[int] | None = None) -> list[tuple[str, ...]]:
    """Per task ``(donor code, function name, visible tests)`` (or None: no donor), up to
    ``n`` generated call sources (``f(3, [1, 2])``), in the engine's order, none a call the
    visible tests make themselves. ``executed`` gets the suites really run appended;
    ``progress`` is the input engine's (:func:`~execretrieval.inputs.build_input_sets`)."""
    wanted = [(i, t) for i, t in enumerate(tasks) if t is not None and n > 0]
    out: list[tuple[str, ...]] = [() for _ in tasks]
    if not wanted:
        return out
    # the engine's n counts the suite's own calls and inputs the donor cannot answer:
    # ask for some room beyond n (a function of n alone, so a query's inputs do not
    # depend on which queries share its block)
    inputs = [InputTask(code, function, tuple(tests)) for _, (code, function, tests) in wanted]
    sets = build_input_sets(oracle, inputs, n=n + max(10, n // 2), seed=seed,
                            progress=progress, should_stop=should_stop, executed=executed)
    for (i, _), found in zip(wanted, sets, strict=True):
        out[i] = tuple(c.call for c in found.cases if c.origin == "generated")[:n]
    return out
