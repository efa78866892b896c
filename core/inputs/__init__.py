"""The input engine: a target function's inputs, collected from its suite and generated
type-aware around them, answered by the canonical in the sandbox; differential runs of
candidates on them; and the smallest set of new tests that tells every distinguishable
candidate from the canonical. May import the base layer, the oracle and the benchmark.
"""

from __future__ import annotations

from .cases import DEFAULT_INPUTS, Case, InputSet, InputTask, build_input_sets, case_test
from .differential import Difference, DifferentialResult, canonical_answer, run_differential
from .domain import Domain, Precondition, infer_domain
from .plain import call_source, from_source, to_source
from .suggest import Suggestion, suggest_tests

__all__ = [
    "DEFAULT_INPUTS",
    "Case",
    "InputSet",
    "InputTask",
    "build_input_sets",
    "case_test",
    "Domain",
    "Precondition",
    "infer_domain",
    "Difference",
    "DifferentialResult",
    "canonical_answer",
    "run_differential",
    "Suggestion",
    "suggest_tests",
    "call_source",
    "from_source",
    "to_source",
]
