"""Would a benchmark's distractors change if it were rebuilt with other test suites?

A strengthened copy (``audit --apply-suggestions``) keeps the source's corpus: its new
tests never change which mutants are the distractors. But the builder keeps a mutant as a
distractor only when a test fails by assertion, so a stronger suite can make mutants
eligible that were not, and the seeded selection may then pick others.
:func:`distractor_changes` answers how many queries that would touch, without writing
anything: it reads the seed file the benchmark's manifest names (checked against the
recorded SHA-256), runs the builder's own selection (:func:`~.assembly.assemble`, the
manifest's seed and settings) on the tasks whose suite changed, once with the shipped
suites (which must give back the shipped distractors) and once with the new ones, and
compares each query's distractors with the shipped ones. Selection is seeded per function
name, so the other tasks would be rebuilt exactly as shipped.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..benchmark.dataset import Benchmark
from ..benchmark.seedfile import read_seed
from ..errors import InputFormatError
from ..hooks import Progress, ShouldStop
from .assembly import assemble

__all__ = ["DistractorCheck", "distractor_changes"]


@dataclass(frozen=True)
class DistractorCheck:
    """``recomputed`` False means it could not be (``reason`` says why). Else, of the
    ``queries`` queries, ``checked`` had a new suite; ``changed`` (function names) would
    get other distractors; ``unreproduced`` are those whose shipped suite did not give
    back the shipped distractors (a load-dependent timeout, a changed builder), so their
    verdict is not trusted and they are left out of ``changed``."""

    recomputed: bool
    reason: str = ""
    queries: int = 0
    checked: int = 0
    changed: tuple[str, ...] = ()
    unreproduced: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        if not self.recomputed:
            return {"recomputed": False, "reason": self.reason}
        return {"recomputed": True, "queries": self.queries, "suites_checked": self.checked,
                "queries_changed": len(self.changed), "changed": list(self.changed),
                "unreproduced": list(self.unreproduced), "applied": False}

    def summary(self, name: str) -> str:
        if not self.recomputed:
            return f"distractor choice not recomputed: {self.reason}"
        text = (f"rebuilding {name}'s distractors with the strengthened suites would change "
                f"{len(self.changed)} of {self.queries} queries (of the {self.checked} with "
                f"new tests); not applied: the copy keeps {name}'s corpus")
        if self.unreproduced:
            text += (f"; {len(self.unreproduced)} not reproduced from the shipped suites, "
                     f"left out: {', '.join(self.unreproduced)}")
        return text


def _seed_tasks(benchmark: Benchmark) -> tuple[list[Any], str]:
    """The seed file's tasks, or ``([], why not)``."""
    manifest = benchmark.manifest
    source = manifest.get("source")
    if benchmark.path is None or not isinstance(source, str) or not source.endswith(".jsonl"):
        return [], f"{benchmark.name} was not built from a seed file"
    path = Path(benchmark.path) / source
    if not path.is_file():
        return [], f"its seed file {path} is missing"
    try:
        tasks, data = read_seed(path)
    except InputFormatError as exc:
        return [], f"its seed file does not read: {exc}"
    if manifest.get("source_sha256") not in (None, hashlib.sha256(data).hexdigest()):
        return [], f"{path} is not the seed file {benchmark.name} was built from"
    return tasks, ""


def _chosen(benchmark: Benchmark) -> dict[str, frozenset[str]]:
    """Per function name, the codes of its distractors."""
    return {q.function_name: frozenset(s.code for s in benchmark.distractors_for(q.query_id))
            for q in benchmark.queries}


def distractor_changes(benchmark: Benchmark, suites: Mapping[str, Sequence[str]],
                       oracle: Any, *, mutant_oracle: Any | None = None,
                       progress: Progress | None = None,
                       should_stop: ShouldStop | None = None) -> DistractorCheck:
    """Which queries of ``benchmark`` the builder would give other distractors if their
    suites were ``suites`` (query id -> tests); see the module docstring. Raises
    CancelledError once ``should_stop()`` is true."""
    tasks, why = _seed_tasks(benchmark)
    if not tasks:
        return DistractorCheck(False, why)
    by_name = {t.function_name: t for t in tasks}
    targets = []
    for q in benchmark.queries:
        new = tuple(suites.get(q.query_id, q.test_suite))
        task = by_name.get(q.function_name)
        if task is None:
            return DistractorCheck(False, f"query {q.query_id} ({q.function_name}) is not "
                                          f"in the seed file")
        if new != q.test_suite:
            targets.append((task, new))
    settings = benchmark.manifest.get("settings") or {}
    options: dict[str, Any] = {"seed": int(benchmark.manifest.get("seed", 0)),
                               "max_distractors": int(settings.get("max_distractors", 4)),
                               "candidate_limit": settings.get("candidate_limit", 40),
                               "mutant_oracle": mutant_oracle, "should_stop": should_stop}
    shipped = _chosen(benchmark)

    def hook(offset: int) -> Progress | None:
        if progress is None:
            return None
        return lambda done, total: progress(offset * total + done, 2 * total)

    again = _chosen(assemble([t for t, _ in targets], oracle, progress=hook(0), **options)
                    .benchmark)
    strong = _chosen(assemble([replace(t, test_suite=s) for t, s in targets], oracle,
                              progress=hook(1), **options).benchmark)
    names = [t.function_name for t, _ in targets]
    unreproduced = tuple(n for n in names if again.get(n) != shipped[n])
    changed = tuple(n for n in names if n not in unreproduced and strong.get(n) != shipped[n])
    return DistractorCheck(True, queries=len(benchmark.queries), checked=len(targets),
                           changed=changed, unreproduced=unreproduced)
