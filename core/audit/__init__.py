"""The suite audit: how well does each query's test suite tell its canonical from every
single-edit mutant of it, and do its outcomes depend on the hash seed? May import the base
layer, the oracle, the benchmark, mutation and the input engine.
"""

from __future__ import annotations

from .results import (
    BOUNDARY_TYPES,
    VERDICTS,
    AuditResult,
    MutantRun,
    QueryAudit,
    SuggestedTest,
    Survivor,
    audit_from_dict,
    read_audit,
)
from .run import DEFAULT_INPUTS, DEFAULT_SEEDS, run_audit
from .strengthen import strengthened, write_strengthened
from .suspicion import WEIGHTS, score_query

__all__ = [
    "BOUNDARY_TYPES",
    "AuditResult",
    "MutantRun",
    "QueryAudit",
    "Survivor",
    "SuggestedTest",
    "VERDICTS",
    "audit_from_dict",
    "read_audit",
    "DEFAULT_INPUTS",
    "DEFAULT_SEEDS",
    "run_audit",
    "strengthened",
    "write_strengthened",
    "WEIGHTS",
    "score_query",
]
