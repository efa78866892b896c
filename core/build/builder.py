"""The dataset builder: a seed file in, a validated benchmark folder out (design §5).

:func:`build` reads the seed, assembles the benchmark (:mod:`~execretrieval.build.assembly`),
writes ``queries.jsonl``, ``corpus.jsonl`` and ``manifest.json`` into a staging folder,
runs the five gates on what it wrote, and only then swaps the staging folder in. An
interrupted or failed build leaves the old folder as it was.

Each test gets the canonical's top-level imports of the names it reads
(:func:`~execretrieval.build.testnames.with_imports`): a test runs in globals copied from
the candidate's namespace, so otherwise its ``date`` would be the candidate's.

Same seed file + same seed = byte-identical output: the manifest's ``created`` is the
seed file's SHA-256 (or ``SOURCE_DATE_EPOCH``, the reproducible-builds convention, when set),
never the wall clock, and the source is named by file name, not absolute path.

Files in the output folder that the builder does not write (the seed file itself, a
LICENSE, ``embeddings/``) are carried over. The seed file, when it lives in the output
folder, is carried over byte-for-byte as it was read at the start, so
``build data/builtin/seed.jsonl --out data/builtin`` keeps it. ``embeddings/`` is dropped
when the queries or corpus changed, because the vectors would no longer match.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..benchmark.dataset import load_benchmark, write_benchmark
from ..benchmark.seedfile import read_seed
from ..errors import BuildError
from ..fileio import atomic_directory
from ..hooks import Progress, ShouldStop
from .assembly import Assembly, assemble
from .testnames import with_imports

if TYPE_CHECKING:
    from ..benchmark.gates import ValidationReport
    from ..oracle.execution import Oracle

__all__ = ["BUILDER_VERSION", "BuildResult", "BuildValidationError", "build", "write_folder"]

#: Bumped whenever the same seed would produce different output.
BUILDER_VERSION = "1"
_OWNED = ("queries.jsonl", "corpus.jsonl", "manifest.json")



class BuildValidationError(BuildError):
    """The assembled benchmark failed a gate; the output folder was left untouched."""

    def __init__(self, message: str, report: ValidationReport) -> None:
        super().__init__(message)
        self.report = report


@dataclass(frozen=True)
class BuildResult:
    """What a build wrote and what it had to leave out."""

    out: Path
    assembly: Assembly
    manifest: Mapping[str, Any]
    validation: ValidationReport
    notes: tuple[str, ...] = ()


def created_stamp(data: bytes) -> str:
    """The manifest's ``created``: SOURCE_DATE_EPOCH if set, else the input's SHA-256."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        when = _dt.datetime.fromtimestamp(int(epoch), tz=_dt.UTC)
        return when.strftime("%Y-%m-%dT%H:%M:%SZ")
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _carry_over(old: Path, staging: Path, skip: set[str], data_changed: bool,
                notes: list[str]) -> None:
    if not old.is_dir():
        return
    for entry in sorted(old.iterdir()):
        if entry.name in skip:
            continue
        if entry.name == "embeddings" and data_changed:
            notes.append(f"removed {entry}: the queries or corpus changed, so its vectors "
                         f"were stale")
            continue
        target = staging / entry.name
        if entry.is_dir():
            shutil.copytree(entry, target, copy_function=shutil.copy2)
        else:
            shutil.copy2(entry, target)


def _readable(folder: Path) -> None:
    """Give the staged files ordinary modes (temporary files are created owner-only)."""
    umask = os.umask(0)
    os.umask(umask)
    folder.chmod(0o777 & ~umask)
    for path in folder.rglob("*"):
        path.chmod((0o777 if path.is_dir() else 0o666) & ~umask)


def _summary(report: ValidationReport, limit: int = 8) -> str:
    lines = []
    for gate in report.gates:
        for failure in gate.failures[:limit]:
            where = " ".join(x for x in (failure.query_id, failure.corpus_id) if x)
            lines.append(f"  {gate.name}: {where}: {failure.reason}")
        if len(gate.failures) > limit:
            lines.append(f"  {gate.name}: ... and {len(gate.failures) - limit} more")
    return "\n".join(lines)


def write_folder(out: str | Path, assembly: Assembly, fields: Mapping[str, Any],
                 oracle: Oracle, *, files: Mapping[str, bytes] | None = None,
                 progress: Progress | None = None,
                 should_stop: ShouldStop | None = None) -> BuildResult:
    """Write the benchmark, extra ``files`` (name -> bytes) and the manifest, validated.

    ``fields`` are the manifest's descriptive fields (name, version, source, license,
    created, ...); counts, mutant statistics, drops and gate verdicts are added here.
    Raises BuildValidationError (folder untouched) if a gate fails.
    """
    from ..benchmark.gates import validate

    out = Path(out)
    files = dict(files or {})
    notes: list[str] = []
    manifest = {
        **fields,
        "builder_version": BUILDER_VERSION,
        "counts": assembly.counts(),
        "mutants": dict(assembly.stats),
        "dropped": [d.to_dict() for d in assembly.dropped],
        "short_of_distractors": list(assembly.short),
    }
    with atomic_directory(out) as staging:
        write_benchmark(assembly.benchmark, staging)
        changed = any((out / name).read_bytes() != (staging / name).read_bytes()
                      if (out / name).is_file() else True
                      for name in ("queries.jsonl", "corpus.jsonl"))
        _carry_over(out, staging, {*_OWNED, *files}, changed, notes)
        for name, data in files.items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_bytes(data)
        report = validate(load_benchmark(staging), oracle, progress=progress,
                          should_stop=should_stop)
        if not report.passed:
            raise BuildValidationError(
                f"the built benchmark fails validation; {out} was left unchanged:\n"
                + _summary(report), report)
        manifest["validation"] = {g.name: g.passed for g in report.gates}
        text = json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        (staging / "manifest.json").write_text(text, encoding="utf-8")
        _readable(staging)
    return BuildResult(out, assembly, manifest, report, tuple(notes))


def _previous_fields(out: Path) -> dict[str, Any]:
    """Descriptive fields of the manifest already in ``out`` (empty if none or unreadable)."""
    try:
        old = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(old, dict):
        return {}
    return {k: old[k] for k in ("name", "version", "license") if isinstance(old.get(k), str)}


def build(seed_path: str | Path, out: str | Path, *, oracle: Oracle,
          mutant_oracle: Oracle | None = None, seed: int = 0, name: str | None = None,
          version: str | None = None, license: str | None = None, max_distractors: int = 4,
          candidate_limit: int | None = 40, progress: Progress | None = None,
          should_stop: ShouldStop | None = None) -> BuildResult:
    """Build a benchmark folder ``out`` from a seed file (see the module docstring).

    ``name``, ``version`` and ``license`` default to those of the manifest already in
    ``out`` (so rebuilding in place reproduces it), else to the folder's name, "1.0" and
    "unspecified". Raises InputFormatError for a malformed seed line, CancelledError if
    stopped, BuildValidationError if the result fails a gate; in every case ``out`` is
    unchanged.
    """
    seed_path, out = Path(seed_path), Path(out)
    tasks, data = read_seed(seed_path)
    # a test's names are the candidate's unless it binds them: it gets the canonical's
    # imports of those it reads (see execretrieval.build.testnames)
    tasks = [replace(t, test_suite=with_imports(t.test_suite, t.canonical, t.function_name))
             for t in tasks]
    if seed < 0:
        raise BuildError(f"the seed must be a non-negative integer, got {seed}")
    assembly = assemble(tasks, oracle, mutant_oracle=mutant_oracle, seed=seed,
                        max_distractors=max_distractors, candidate_limit=candidate_limit,
                        progress=progress, should_stop=should_stop)
    if not assembly.benchmark.queries:
        raise BuildError(f"{seed_path}: no task could be used; "
                         + "; ".join(f"{d.origin}: {d.reason}" for d in assembly.dropped[:5]))
    files: dict[str, bytes] = {}
    try:
        inside = seed_path.resolve().relative_to(out.resolve())
        files[inside.as_posix()] = data
    except ValueError:
        pass
    previous = _previous_fields(out)
    fields = {
        "name": name or previous.get("name") or out.resolve().name,
        "version": version or previous.get("version") or "1.0",
        "source": seed_path.name,
        "source_sha256": hashlib.sha256(data).hexdigest(),
        "license": license or previous.get("license") or "unspecified",
        "created": created_stamp(data),
        "seed": seed,
        "settings": {"max_distractors": max_distractors, "candidate_limit": candidate_limit},
    }
    return write_folder(out, assembly, fields, oracle, files=files, progress=progress,
                        should_stop=should_stop)
