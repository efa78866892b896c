"""TREC run and qrels files, so outside systems and trec_eval can meet this benchmark.

A run file has one line per retrieved snippet, whitespace-separated::

    qid Q0 docid rank score tag

Reading a run builds a score matrix from the ``score`` column; snippets a query's run does
not list score ``-inf`` (they rank after every listed one, in corpus order, and count as
not retrieved: never a hit, see ``Ranking.retrieved``; a query the run leaves out scores
0 on every metric), and the
``rank`` column is checked to be an integer but otherwise ignored, as trec_eval does.
A qrels file has ``qid 0 docid 1`` for every id in a query's ``correct_corpus_ids``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputFormatError, ModelNotFoundError
from ..fileio import atomic_write_text, read_utf8
from .ranking import Ranking, stack_blocks

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..hooks import Progress, ShouldStop

__all__ = [
    "RunFileRetriever",
    "from_qrels",
    "from_run",
    "read_run",
    "run_blocks",
    "qrels_text",
    "run_text",
    "to_qrels",
    "to_run",
]


def run_text(benchmark: Benchmark, ranking: Ranking, *, depth: int = 100,
             tag: str | None = None) -> str:
    """The TREC run of a ranking: the top ``depth`` snippets of every query."""
    tag = _safe_tag(tag or ranking.model)
    lines: list[str] = []
    depth = max(1, int(depth))
    ranking.check_depth(depth, "the run's depth")
    for qi, query in enumerate(benchmark.queries):
        for r, cj in enumerate(ranking.top(qi, depth)):
            score = float(ranking.keys[qi, r])
            lines.append(f"{query.query_id} Q0 {benchmark.corpus[cj].corpus_id} {r + 1} "
                         f"{score!r} {tag}\n")
    return "".join(lines)


def _safe_tag(tag: str) -> str:
    cleaned = "".join(c if not c.isspace() else "_" for c in tag)
    return cleaned or "run"


def to_run(path: str | Path, benchmark: Benchmark, ranking: Ranking, *, depth: int = 100,
           tag: str | None = None) -> int:
    """Write :func:`run_text` to ``path`` atomically; return the number of lines."""
    text = run_text(benchmark, ranking, depth=depth, tag=tag)
    atomic_write_text(path, text)
    return text.count("\n")


def qrels_text(benchmark: Benchmark) -> str:
    """``qid 0 docid 1`` for every correct corpus id of every query."""
    return "".join(f"{q.query_id} 0 {cid} 1\n"
                   for q in benchmark.queries for cid in q.correct_corpus_ids)


def to_qrels(path: str | Path, benchmark: Benchmark) -> None:
    """Write :func:`qrels_text` to ``path`` atomically."""
    atomic_write_text(path, qrels_text(benchmark))


def _read_lines(path: Path) -> list[str]:
    try:
        return read_utf8(path).splitlines()
    except FileNotFoundError as exc:
        raise ModelNotFoundError(f"{path}: run file not found") from exc
    except OSError as exc:
        raise InputFormatError(f"cannot read ({exc.strerror})", file=path) from exc


def from_run(path: str | Path, benchmark: Benchmark) -> np.ndarray:
    """Score matrix (queries x corpus) from a TREC run file; unlisted pairs score -inf.

    Raises InputFormatError naming file and line for a malformed line, an unknown query or
    snippet id, a non-numeric score, or a (query, snippet) pair listed twice.
    """
    q, n = len(benchmark.queries), len(benchmark.corpus)
    return stack_blocks(run_blocks(read_run(path, benchmark), q, n, rows=max(1, q)), q, n)


def run_blocks(listed: dict[int, dict[int, float]], n_queries: int, n_corpus: int, *,
               rows: int) -> Iterator[np.ndarray]:
    """The scores of :func:`read_run`'s pairs ``rows`` queries at a time (-inf elsewhere)."""
    for start in range(0, n_queries, max(1, rows)):
        block = np.full((min(rows, n_queries - start), n_corpus), -np.inf)
        for i in range(block.shape[0]):
            for j, score in listed.get(start + i, {}).items():
                block[i, j] = score
        yield block


def read_run(path: str | Path, benchmark: Benchmark) -> dict[int, dict[int, float]]:
    """query index -> {corpus index: score} of every pair a TREC run file lists (the
    errors of :func:`from_run`)."""
    path = Path(path)
    listed: dict[int, dict[int, float]] = {}
    seen: dict[tuple[int, int], int] = {}
    for lineno, line in enumerate(_read_lines(path), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 6:
            raise InputFormatError(
                f"expected 6 columns 'qid Q0 docid rank score tag', got {len(parts)}",
                file=path, line=lineno)
        qid, _, docid, rank_s, score_s, _ = parts
        if not benchmark.has_query(qid):
            raise InputFormatError(f"unknown query id {qid!r}", file=path, line=lineno,
                                   field="qid")
        if not benchmark.has_snippet(docid):
            raise InputFormatError(f"unknown corpus id {docid!r}", file=path, line=lineno,
                                   field="docid")
        try:
            int(rank_s)
        except ValueError as exc:
            raise InputFormatError(f"rank {rank_s!r} is not an integer", file=path,
                                   line=lineno, field="rank") from exc
        try:
            score = float(score_s)
        except ValueError as exc:
            raise InputFormatError(f"score {score_s!r} is not a number", file=path,
                                   line=lineno, field="score") from exc
        if not math.isfinite(score):
            raise InputFormatError(f"score {score_s!r} is not a finite number", file=path,
                                   line=lineno, field="score")
        key = (benchmark.query_index(qid), benchmark.corpus_index(docid))
        if key in seen:
            raise InputFormatError(f"{qid} {docid} already listed on line {seen[key]}",
                                   file=path, line=lineno, field="docid")
        seen[key] = lineno
        listed.setdefault(key[0], {})[key[1]] = score
    if not seen:
        raise InputFormatError("the run file lists no results", file=path)
    return listed


def from_qrels(path: str | Path) -> dict[str, set[str]]:
    """Relevant ids per query id from a qrels file (judgements > 0 count as relevant)."""
    path = Path(path)
    relevant: dict[str, set[str]] = {}
    for lineno, line in enumerate(_read_lines(path), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 4:
            raise InputFormatError(f"expected 4 columns 'qid 0 docid rel', got {len(parts)}",
                                   file=path, line=lineno)
        try:
            rel = int(parts[3])
        except ValueError as exc:
            raise InputFormatError(f"relevance {parts[3]!r} is not an integer", file=path,
                                   line=lineno, field="rel") from exc
        if rel > 0:
            relevant.setdefault(parts[0], set()).add(parts[2])
    return relevant


@dataclass(frozen=True)
class RunFileRetriever:
    """A retriever that reads its scores from a TREC run file made by an outside system."""

    path: Path
    name: str

    def score(self, benchmark: Benchmark, *, progress: Progress | None = None,
              should_stop: ShouldStop | None = None) -> np.ndarray:
        """The whole score matrix (queries x corpus; unlisted pairs -inf)."""
        q, n = len(benchmark.queries), len(benchmark.corpus)
        return stack_blocks(self.score_blocks(benchmark, rows=max(1, q), progress=progress),
                            q, n)

    def score_blocks(self, benchmark: Benchmark, *, rows: int,
                     progress: Progress | None = None,
                     should_stop: ShouldStop | None = None) -> Iterator[np.ndarray]:
        """The run's scores ``rows`` queries at a time (the file is read once, sparse)."""
        if progress:
            progress(0, 1)
        listed = read_run(self.path, benchmark)
        if progress:
            progress(1, 1)
        return run_blocks(listed, len(benchmark.queries), len(benchmark.corpus), rows=rows)
