"""A benchmark from code: discovered functions in, a validated benchmark folder out.

:func:`build_from_code` runs the static half (:func:`.discover.discover_functions`:
queries, self-contained canonicals, example calls, static skip reasons), then the
dynamic half: inputs and purity (:mod:`.tasks`), tests chosen by mutant kills
(:mod:`.tests_choice`), distractors, gates and the atomic write of the ordinary builder
(:func:`~execretrieval.build.assembly.assemble`,
:func:`~execretrieval.build.builder.write_folder`). Besides the benchmark it writes
``build_report.json`` (every function considered, task or skipped with its reason).

Same sources and seed give the same bytes: the manifest names sources by label, kind,
distribution and version (never an absolute path) and its ``created`` is the SHA-256 of
what the static half found (or ``SOURCE_DATE_EPOCH``).
"""

from __future__ import annotations

import hashlib
import json
import platform
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...benchmark.seedfile import SeedTask
from ...errors import BuildError, CancelledError
from ...hooks import Progress, ShouldStop
from ..assembly import Assembly, assemble
from ..builder import BuildResult, created_stamp, write_folder
from ..humaneval import guess_domain
from .discover import Discovery, discover_functions
from .report import FunctionReport, report_json, summary_table
from .tasks import CaseSet, collect_cases, diagnose
from .tests_choice import choose, kill_matrix

if TYPE_CHECKING:
    from ...oracle.execution import Oracle

__all__ = ["FROMCODE_VERSION", "FromCodeResult", "build_from_code", "summary_table"]

#: The design §3 domain of a standard-library module's functions; elsewhere (and for
#: modules not listed) the domain is guessed from the name and query as HumanEval's is.
MODULE_DOMAINS = {
    "textwrap": "string-processing", "string": "string-processing", "html": "string-processing",
    "shlex": "string-processing", "fnmatch": "string-processing", "difflib": "string-processing",
    "keyword": "validation", "base64": "data-transformation", "quopri": "data-transformation",
    "uu": "data-transformation", "email.quoprimime": "data-transformation",
    "email.base64mime": "data-transformation", "encodings.punycode": "data-transformation",
    "json.encoder": "data-transformation", "json.decoder": "data-transformation",
    "urllib.parse": "data-transformation", "email.utils": "data-transformation",
    "colorsys": "math-numerical", "statistics": "math-numerical", "fractions": "math-numerical",
    "operator": "math-numerical", "bisect": "sorting-searching", "heapq": "sorting-searching",
    "calendar": "date-time", "posixpath": "string-processing", "ntpath": "string-processing",
    "genericpath": "validation", "ipaddress": "validation", "imghdr": "validation",
    "sndhdr": "validation", "getopt": "state-machines", "tokenize": "state-machines",
    "copy": "collections", "pprint": "data-transformation", "reprlib": "data-transformation",
    "functools": "collections", "graphlib": "collections",
}

#: Bumped whenever the same sources and seed would give different output.
FROMCODE_VERSION = "1"
_INPUTS = 40            # candidate inputs per function given to the input engine
_CANDIDATES = 16        # mutants per task executed first when looking for distractors


@dataclass(frozen=True)
class FromCodeResult:
    """The written benchmark (``build``) and the fate of every function considered."""

    out: Path
    build: BuildResult
    functions: tuple[FunctionReport, ...]
    discovery: Discovery

    @property
    def tasks(self) -> int:
        return sum(f.status == "task" for f in self.functions)

    def summary(self) -> str:
        return summary_table(self.functions)


class _Phases:
    """One progress bar over phases whose sizes become known one by one."""

    def __init__(self, progress: Progress | None, phases: int) -> None:
        self.progress, self.phases, self.at = progress, phases, 0

    def hook(self) -> Progress:
        base = self.at
        self.at += 1

        def report(done: int, total: int) -> None:
            if self.progress is not None and total:
                self.progress(base * 1000 + min(1000, done * 1000 // total),
                              self.phases * 1000)
        return report


def _where(function: Any) -> dict[str, Any]:
    return {"module": function.module, "file": function.file, "line": function.line}


def _report(function: Any, status: str, reason: str = "", query_id: str = "") -> FunctionReport:
    return FunctionReport(function.name, function.module, function.file, function.line,
                          status, reason, query_id)


def _stamp(discovery: Discovery, seed: int, settings: dict[str, Any]) -> str:
    """``created``: a hash of what the static half found and the settings."""
    digest = hashlib.sha256()
    for s in discovery.sources:
        digest.update(f"{s.label}\0{s.kind}\0{s.distribution}\0{s.version}\n".encode())
    for f in discovery.functions:
        digest.update(f"{f.module}\0{f.name}\0{f.line}\0{f.canonical}\0{f.query}\n".encode())
    digest.update(json.dumps([seed, settings], sort_keys=True).encode())
    return created_stamp(digest.digest())


def _sources(discovery: Discovery) -> list[dict[str, Any]]:
    out = []
    for s in discovery.sources:
        entry: dict[str, Any] = {"label": s.label if s.kind in ("stdlib", "package")
                                 else Path(s.label).name, "kind": s.kind}
        if s.distribution:
            entry["distribution"] = s.distribution
        if s.version:
            entry["version"] = s.version
        if s.license:
            entry["license"] = s.license
        out.append(entry)
    return out


def _check(should_stop: ShouldStop | None) -> None:
    if should_stop is not None and should_stop():
        raise CancelledError("build stopped")


def build_from_code(sources: Sequence[str | Path], out: str | Path, *, seed: int = 0,
                    limit: int | None = None, min_tests: int = 7, max_tests: int = 10,
                    include_private: bool = False, include_methods: bool = False,
                    oracle: Oracle | None = None, mutant_oracle: Oracle | None = None,
                    name: str | None = None, progress: Progress | None = None,
                    should_stop: ShouldStop | None = None) -> FromCodeResult:
    """Build the benchmark folder ``out`` from the functions of ``sources`` (folders,
    ``.py`` files, importable module or package names).

    ``limit`` keeps the first N functions the static half did not skip. ``oracle``
    (default: a local one with the user's cache) runs canonicals and inputs;
    ``mutant_oracle`` (default ``oracle``) the candidate distractors. Raises BuildError
    for a bad source, bad settings or when no function gives a task, CancelledError when
    stopped, BuildValidationError when a gate fails; in every case ``out`` is unchanged.
    """
    if not 1 <= min_tests <= max_tests:
        raise BuildError(f"need 1 <= --min-tests <= --max-tests, got {min_tests} and "
                         f"{max_tests}")
    if seed < 0:
        raise BuildError(f"the seed must be a non-negative integer, got {seed}")
    if not sources:
        raise BuildError("no source given")
    phases = _Phases(progress, 6)
    discovery = discover_functions(sources, include_private=include_private,
                                   include_methods=include_methods, progress=phases.hook(),
                                   should_stop=should_stop)
    own = oracle is None
    if oracle is None:
        from ...oracle.execution import Oracle

        oracle = Oracle()
    try:
        return _build(discovery, Path(out), seed=seed, limit=limit, min_tests=min_tests,
                      max_tests=max_tests, oracle=oracle, mutant_oracle=mutant_oracle or oracle,
                      name=name, phases=phases, should_stop=should_stop)
    finally:
        if own:
            oracle.close()


def _build(discovery: Discovery, out: Path, *, seed: int, limit: int | None,
           min_tests: int, max_tests: int, oracle: Oracle, mutant_oracle: Oracle,
           name: str | None, phases: _Phases, should_stop: ShouldStop | None
           ) -> FromCodeResult:
    fates: dict[int, FunctionReport] = {}
    considered = []
    for i, f in enumerate(discovery.functions):
        if f.skip_reason is None and (not f.canonical or not f.query):
            fates[i] = _report(f, "skipped", "no canonical" if not f.canonical
                               else "no docstring")
        elif f.skip_reason is not None:
            fates[i] = _report(f, "skipped", f.skip_reason)
        else:
            considered.append(i)
    if limit is not None:  # the report stops at the last function considered
        considered = considered[:limit]
    last = considered[-1] if limit is not None and considered else len(discovery.functions) - 1
    indexes = list(range(last + 1))
    functions = [discovery.functions[i] for i in considered]
    _check(should_stop)
    sets = collect_cases(functions, oracle, seed=seed, n=_INPUTS, progress=phases.hook(),
                         should_stop=should_stop)
    short = [(i, s) for i, s in zip(considered, sets, strict=True)
             if s.reason is None and len(s.cases) < min_tests]
    for i, s in zip(considered, sets, strict=True):
        if s.reason is not None:
            fates[i] = _report(s.function, "skipped", s.reason)
    if short:
        for (i, s), why in zip(short, diagnose([s for _, s in short], oracle, min_tests,
                                               should_stop=should_stop), strict=True):
            fates[i] = _report(s.function, "skipped", why)
    phases.hook()(1, 1)
    ready = [(i, s) for i, s in zip(considered, sets, strict=True) if i not in fates]
    _check(should_stop)
    matrix = kill_matrix([(s.function.canonical, s.function.name, s.cases) for _, s in ready],
                         mutant_oracle, seed=seed, progress=phases.hook(),
                         should_stop=should_stop)
    tasks = [_task(s, choose(s.cases, s.doctest, kills, min_tests, max_tests))
             for (_, s), kills in zip(ready, matrix, strict=True)]
    owners = [i for i, _ in ready]
    assembly, kept = _assemble(tasks, owners, discovery, fates, oracle, mutant_oracle, seed,
                               phases.hook(), should_stop)
    for query, i in zip(assembly.benchmark.queries, kept, strict=True):
        fates[i] = _report(discovery.functions[i], "task", query_id=query.query_id)
    reports = tuple(fates[i] for i in indexes if i in fates)
    if not assembly.benchmark.queries:
        reasons = sorted({r.reason for r in reports})
        raise BuildError("no function could be made a task; reasons: "
                         + "; ".join(reasons[:8]))
    settings = {"min_tests": min_tests, "max_tests": max_tests, "limit": limit,
                "inputs_per_function": _INPUTS}
    licenses = sorted({s.license for s in discovery.sources if s.license})
    fields = {
        "name": name or out.resolve().name,
        "version": "1.0",
        "source": _sources(discovery),
        "license": " AND ".join(licenses) if licenses else "unspecified",
        "created": _stamp(discovery, seed, settings),
        "seed": seed,
        "fromcode_version": FROMCODE_VERSION,
        "settings": settings,
        "tasks": [{"query_id": q.query_id, "function_name": q.function_name,
                   **dict(q.extra.get("source", {}))} for q in assembly.benchmark.queries],
    }
    if any(s.kind == "stdlib" for s in discovery.sources):
        fields["python"] = platform.python_version()
    result = write_folder(out, assembly, fields, oracle,
                          files={"build_report.json": report_json(reports)},
                          progress=phases.hook(), should_stop=should_stop)
    return FromCodeResult(out, result, reports, discovery)


def _task(s: CaseSet, chosen: Sequence[int]) -> SeedTask:
    f = s.function
    return SeedTask(origin=f"{f.module}:{f.file}:{f.line}", query=f.query, function_name=f.name,
                    domain=MODULE_DOMAINS.get(f.module) or guess_domain(f.name, f.query),
                    canonical=f.canonical,
                    test_suite=tuple(s.cases[i].test for i in chosen),
                    extra={"source": _where(f)})


def _assemble(tasks: list[SeedTask], owners: list[int], discovery: Discovery,
              fates: dict[int, FunctionReport],
              oracle: Oracle, mutant_oracle: Oracle, seed: int, progress: Progress,
              should_stop: ShouldStop | None) -> tuple[Assembly, list[int]]:
    """Assemble; tasks the assembler drops or gives no distractor are skipped with the
    reason, and the rest assembled again (the cache makes that second pass cheap), so
    query ids stay sequential."""
    while True:
        assembly = assemble(tasks, oracle, mutant_oracle=mutant_oracle, seed=seed,
                            candidate_limit=_CANDIDATES, progress=progress,
                            should_stop=should_stop)
        gone: dict[int, str] = {}
        by_origin = {t.origin: j for j, t in enumerate(tasks)}
        for d in assembly.dropped:
            gone[by_origin[d.origin]] = d.reason
        built = [j for j in range(len(tasks)) if j not in gone]
        for query, j in zip(assembly.benchmark.queries, built, strict=True):
            if not assembly.benchmark.distractors_for(query.query_id):
                gone[j] = "no mutant fails its tests"
        if not gone:
            return assembly, owners
        for j, reason in gone.items():
            fates[owners[j]] = _report(discovery.functions[owners[j]], "skipped", reason)
        tasks = [t for j, t in enumerate(tasks) if j not in gone]
        owners = [o for j, o in enumerate(owners) if j not in gone]
