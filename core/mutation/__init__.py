"""Single-edit mutation: source spans, the six operators, mutant generation, distractor
selection. May import the base layer and benchmark (bug-type names).
"""

from __future__ import annotations

from .generate import Mutant, MutantSet, generate_mutants
from .operators import OPERATORS
from .select import REJECT_REASONS, keep_reason, rng_for, sample_candidates, select_distractors
from .source import Edit, SourceMap, function_nodes, short, target_function

__all__ = [
    "Edit",
    "SourceMap",
    "function_nodes",
    "short",
    "target_function",
    "OPERATORS",
    "Mutant",
    "MutantSet",
    "generate_mutants",
    "REJECT_REASONS",
    "keep_reason",
    "rng_for",
    "sample_candidates",
    "select_distractors",
]
