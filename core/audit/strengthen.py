"""A strengthened copy of a benchmark: each suite with the audit's suggested tests appended.

The original folder is never written to. The copy keeps the corpus, the query texts and
the ids (so shipped embeddings still apply and are copied along), appends to each suite
the suggested tests of its query in the audit's order, and records in its manifest what
was added, from which benchmark and with which input-engine settings. It is written to a
temporary sibling folder and renamed into place, so a failure leaves nothing half-written.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..benchmark.dataset import Benchmark, write_benchmark
from ..errors import BuildError
from .results import AuditResult

__all__ = ["strengthened", "write_strengthened"]


def strengthened(benchmark: Benchmark, audit: AuditResult,
                 extra: Mapping[str, Any] | None = None) -> tuple[Benchmark, dict[str, Any]]:
    """The benchmark with suggested tests appended, and its manifest (the source's, plus a
    ``strengthened`` record: source name and fingerprint, input settings, tests added per
    query, and the ``extra`` fields, e.g. whether a rebuild would pick other
    distractors)."""
    added: dict[str, list[str]] = {}
    for audited in audit.queries:
        if audited.suggested_tests:
            added[audited.query_id] = [t.test for t in audited.suggested_tests]
    unknown = sorted(set(added) - {q.query_id for q in benchmark.queries})
    if unknown:
        raise BuildError(f"the audit has queries {benchmark.name} does not: "
                         f"{', '.join(unknown)}")
    queries = []
    for q in benchmark.queries:
        new = [t for t in added.get(q.query_id, ()) if t not in q.test_suite]
        queries.append(dataclasses.replace(q, test_suite=(*q.test_suite, *new))
                       if new else q)
    manifest = dict(benchmark.manifest)
    settings = audit.settings
    manifest["strengthened"] = {
        "from": benchmark.name,
        "from_fingerprint": benchmark.fingerprint,
        "inputs": settings.get("inputs"),
        "input_seed": settings.get("input_seed"),
        "tests_added": sum(len(v) for v in added.values()),
        "added": added,
        **(extra or {}),
    }
    manifest["name"] = f"{benchmark.name}-strengthened"
    return Benchmark(queries, benchmark.corpus, name=manifest["name"],
                     manifest=manifest), manifest


def write_strengthened(benchmark: Benchmark, audit: AuditResult, out: str | Path,
                       extra: Mapping[str, Any] | None = None) -> Benchmark:
    """Write :func:`strengthened` to folder ``out`` (absent or empty, not the source)."""
    out = Path(out)
    if benchmark.path is not None and out.resolve() == Path(benchmark.path).resolve():
        raise BuildError(f"{out} is the benchmark itself; the original stays untouched")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise BuildError(f"{out} exists and is not an empty folder")
    copy, manifest = strengthened(benchmark, audit, extra)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        write_benchmark(copy, staging, manifest)
        source_embeddings = (Path(benchmark.path) / "embeddings"
                             if benchmark.path is not None else None)
        if source_embeddings is not None and source_embeddings.is_dir():
            shutil.copytree(source_embeddings, staging / "embeddings")
        if out.exists():
            out.rmdir()
        os.replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return Benchmark(copy.queries, copy.corpus, name=copy.name, path=out, manifest=manifest)
