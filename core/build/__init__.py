"""The dataset builder: seed tasks (or HumanEval problems) -> mutants -> executed,
selected, validated benchmark folder. May import base, oracle, benchmark and mutation.
"""

from __future__ import annotations

from .assembly import Assembly, DroppedTask, assemble
from .builder import BUILDER_VERSION, BuildResult, BuildValidationError, build, write_folder
from .humaneval import (
    DEFAULT_DOMAIN,
    guess_domain,
    humaneval_tasks,
    import_humaneval,
    license_notice,
    load_problems,
    problem_task,
    query_from_docstring,
    split_check,
)

__all__ = [
    "Assembly",
    "DroppedTask",
    "assemble",
    "BUILDER_VERSION",
    "BuildResult",
    "BuildValidationError",
    "build",
    "write_folder",
    "DEFAULT_DOMAIN",
    "guess_domain",
    "humaneval_tasks",
    "import_humaneval",
    "license_notice",
    "load_problems",
    "problem_task",
    "query_from_docstring",
    "split_check",
]
