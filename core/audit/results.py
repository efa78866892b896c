"""What a suite audit finds: per-mutant runs, per-query verdicts, the whole audit.

The JSON form (:meth:`AuditResult.to_dict`) has stable keys, the ones ``execretrieval audit
--json`` prints and reports read back (:func:`read_audit`): test numbers in it are 1-based,
as the GUI and ``run-tests`` show them. The per-mutant, per-test statuses (the kill matrix)
stay in memory: they are what the GUI draws, and a warm re-run rebuilds them from the
oracle's cache without executing anything.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import InputFormatError
from ..fileio import read_input_text

__all__ = ["BOUNDARY_TYPES", "VERDICTS", "AuditResult", "MutantRun", "QueryAudit",
           "SuggestedTest", "Survivor", "audit_from_dict", "read_audit"]

#: what the input engine concluded about a survivor: told apart from the canonical by a
#: generated input (the suite is weak), no difference found, or no input to try
VERDICTS = ("weak", "likely_equivalent", "unclassified")

#: bug types whose survivors mean an edge case or a boundary is not tested; a
#: ``wrong_comparison`` counts too when it only changes strictness (``<`` to ``<=``)
BOUNDARY_TYPES = ("off_by_one_boundary", "remove_edge_case_check")


@dataclass(frozen=True)
class Survivor:
    """A mutant of the canonical (in :attr:`QueryAudit.survivors`: one that passes every
    test the canonical passes), and, for a survivor, the input engine's verdict: ``weak``
    (``distinguishing_input``, a call as source, on which the canonical answers
    ``canonical_output`` and the mutant ``mutant_output``), ``likely_equivalent`` (no
    difference on ``inputs_tried`` inputs) or ``unclassified`` (no input to try)."""

    bug_type: str
    description: str
    line: int
    code: str
    boundary: bool = False
    verdict: str = ""
    distinguishing_input: str = ""
    canonical_output: str = ""
    mutant_output: str = ""
    inputs_tried: int = 0
    #: for a weak survivor whose every distinguishing input lies outside the domain the
    #: suite's calls imply (:mod:`execretrieval.inputs.domain`): the precondition broken
    outside_domain: str = ""

    @property
    def equivalent(self) -> bool:
        return self.verdict == "likely_equivalent"

    def verdict_text(self, seed: int | None = None) -> str:
        """The verdict in words, as the reports and the GUI show it."""
        if self.verdict == "weak":
            where = (f"; outside the suite's domain: {self.outside_domain}"
                     if self.outside_domain else "")
            return (f"weak suite: distinguished by input {self.distinguishing_input} "
                    f"(canonical {self.canonical_output}, mutant {self.mutant_output}{where})")
        if self.verdict == "likely_equivalent":
            where = "" if seed is None else f", seed {seed}"
            return f"likely equivalent: no difference on {self.inputs_tried} inputs{where}"
        if self.verdict == "unclassified":
            return "unclassified: no generated input to try"
        return "survives every test"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"bug_type": self.bug_type, "description": self.description,
                               "line": self.line, "code": self.code}
        if self.verdict:
            out["verdict"] = self.verdict
            out["inputs_tried"] = self.inputs_tried
        if self.verdict == "weak":
            out.update(distinguishing_input=self.distinguishing_input,
                       canonical_output=self.canonical_output,
                       mutant_output=self.mutant_output,
                       in_domain=not self.outside_domain)
            if self.outside_domain:
                out["outside_domain"] = self.outside_domain
        return out


@dataclass(frozen=True)
class SuggestedTest:
    """A new test for the suite and the survivors (0-based indexes into
    :attr:`QueryAudit.survivors`) it kills."""

    test: str
    kills: tuple[int, ...]
    #: the precondition of the suite's inferred domain the test's input breaks, or ""
    outside_domain: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"test": self.test, "kills": list(self.kills),
                               "in_domain": not self.outside_domain}
        if self.outside_domain:
            out["outside_domain"] = self.outside_domain
        return out


@dataclass(frozen=True)
class MutantRun:
    """One mutant of the canonical and the status of each test on it (``pass``, ``fail``,
    ``error``, ``timeout``), in test order."""

    mutant: Survivor
    statuses: tuple[str, ...]


@dataclass(frozen=True)
class QueryAudit:
    """The audit of one query's suite. ``runs`` (the kill matrix) and ``tests`` are empty
    when the audit was read back from JSON."""

    query_id: str
    function_name: str
    mutants: int
    killed: int
    mutation_score: float
    survivors: tuple[Survivor, ...]
    crash_only_kills: int
    tests_killing_nothing: tuple[int, ...]   # 1-based
    flaky_tests: tuple[int, ...]             # 1-based
    canonical_fails: bool
    suspicion: float
    reasons: tuple[str, ...]
    tests: tuple[str, ...] = ()
    canonical_code: str = ""
    canonical_statuses: tuple[str, ...] = ()
    runs: tuple[MutantRun, ...] = ()
    suggested_tests: tuple[SuggestedTest, ...] = ()

    @property
    def weak_survivors(self) -> tuple[Survivor, ...]:
        """Survivors a generated input tells apart from the canonical."""
        return tuple(s for s in self.survivors if s.verdict == "weak")

    @property
    def equivalent_survivors(self) -> tuple[Survivor, ...]:
        return tuple(s for s in self.survivors if s.equivalent)

    def kills(self, run: MutantRun, test: int) -> bool:
        """Whether 0-based ``test`` kills ``run``: it fails there but passes on the canonical."""
        canonical_ok = (not self.canonical_statuses
                        or self.canonical_statuses[test] == "pass")
        return canonical_ok and run.statuses[test] != "pass"

    def to_dict(self) -> dict[str, Any]:
        return {
            "query_id": self.query_id,
            "function_name": self.function_name,
            "mutants": self.mutants,
            "killed": self.killed,
            "mutation_score": round(self.mutation_score, 4),
            "survivors": [s.to_dict() for s in self.survivors],
            "crash_only_kills": self.crash_only_kills,
            "tests_killing_nothing": list(self.tests_killing_nothing),
            "flaky_tests": list(self.flaky_tests),
            "canonical_fails": self.canonical_fails,
            "suspicion": round(self.suspicion, 4),
            "reasons": list(self.reasons),
            "suggested_tests": [t.to_dict() for t in self.suggested_tests],
        }


@dataclass(frozen=True)
class AuditResult:
    """Every audited query, most suspect first, plus the settings that produced them."""

    queries: tuple[QueryAudit, ...]
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: suites this run really executed (the others came from the cache); not in the JSON
    executed: int = field(default=0, compare=False)

    def query(self, query_id: str) -> QueryAudit | None:
        for q in self.queries:
            if q.query_id == query_id:
                return q
        return None

    @property
    def suites_with_survivors(self) -> int:
        return sum(1 for q in self.queries if q.survivors)

    @property
    def weak_suites(self) -> int:
        """Suites with a survivor that a generated input tells apart from the canonical."""
        return sum(1 for q in self.queries if q.weak_survivors)

    def top(self, n: int = 10) -> tuple[QueryAudit, ...]:
        """The ``n`` most suspect queries that have at least one reason."""
        return tuple(q for q in self.queries if q.reasons)[:n]

    def to_dict(self) -> dict[str, Any]:
        return {"queries": [q.to_dict() for q in self.queries],
                "settings": dict(self.settings)}


def audit_from_dict(data: Any, source: str | Path = "<audit>") -> AuditResult:
    """An :class:`AuditResult` from :meth:`AuditResult.to_dict` output (no kill matrix).

    Raises InputFormatError naming the query and field that is missing or mistyped.
    """
    if not isinstance(data, dict) or not isinstance(data.get("queries"), list):
        raise InputFormatError("expected an object with a 'queries' list (the output of "
                               "execretrieval audit --json)", file=source)
    queries = []
    for i, q in enumerate(data["queries"]):
        where = f"queries[{i}]"
        try:
            survivors = tuple(_survivor(s) for s in q["survivors"])
            suggested = tuple(SuggestedTest(str(t["test"]), tuple(int(k) for k in t["kills"]),
                                            str(t.get("outside_domain", "")))
                              for t in q.get("suggested_tests", ()))
            queries.append(QueryAudit(
                query_id=str(q["query_id"]), function_name=str(q["function_name"]),
                mutants=int(q["mutants"]), killed=int(q["killed"]),
                mutation_score=float(q["mutation_score"]), survivors=survivors,
                crash_only_kills=int(q["crash_only_kills"]),
                tests_killing_nothing=tuple(int(t) for t in q["tests_killing_nothing"]),
                flaky_tests=tuple(int(t) for t in q["flaky_tests"]),
                canonical_fails=bool(q["canonical_fails"]),
                suspicion=float(q["suspicion"]),
                reasons=tuple(str(r) for r in q["reasons"]), suggested_tests=suggested))
        except KeyError as exc:
            raise InputFormatError("missing", file=source, field=f"{where}.{exc.args[0]}") \
                from exc
        except (TypeError, ValueError) as exc:
            raise InputFormatError(f"wrong type ({exc})", file=source, field=where) from exc
    settings = data.get("settings", {})
    if not isinstance(settings, dict):
        raise InputFormatError("expected an object", file=source, field="settings")
    return AuditResult(tuple(queries), MappingProxyType(dict(settings)))


def _survivor(s: dict[str, Any]) -> Survivor:
    verdict = str(s.get("verdict", ""))
    if verdict and verdict not in VERDICTS:
        raise ValueError(f"unknown verdict {verdict!r}")
    return Survivor(str(s["bug_type"]), str(s["description"]), int(s["line"]), str(s["code"]),
                    verdict=verdict, distinguishing_input=str(s.get("distinguishing_input", "")),
                    canonical_output=str(s.get("canonical_output", "")),
                    mutant_output=str(s.get("mutant_output", "")),
                    inputs_tried=int(s.get("inputs_tried", 0)),
                    outside_domain=str(s.get("outside_domain", "")))


def read_audit(path: str | Path) -> AuditResult:
    """Read an audit JSON file written by ``execretrieval audit --out FILE.json``."""
    path = Path(path)
    text = read_input_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFormatError(f"invalid JSON: {exc.msg}", file=path, line=exc.lineno) from exc
    return audit_from_dict(data, path)
