"""The first screen as the last run left it: shown at once, then replaced by the real ranking.

Opening a benchmark asks the model for its ranking (numpy, the retriever, the ``.npz``:
about half of the time to a usable window). What the first screen shows of a ranking is
small: the query list's columns (rank 1 right, the canonical's rank, deceived, tied) and,
per query, the ranked candidates at the list's depth with their tie ranges and the
canonical's tie facts. After a model's ranking is shown, :func:`write` keeps exactly that
in the cache folder (``first-screen/<key>.json``); the next start :func:`read`\\ s it back
without numpy, the window is usable from it, and the ranking computed again replaces it
(a test compares every cell of both screens).

The key is a SHA-256 over the format, the package version, the benchmark's content (the
digest of its two files as they were read, else its fingerprint: every query and
snippet), the model name, the depth and the bytes of every file that
decides the model's scores (:func:`execretrieval.ranking.catalog.model_sources`); a model
without such a fixed set of files (a folder encoded here, a pipeline, a served model) is
never kept. A file that does not read, parse or fit the benchmark is ignored: the window
waits for the ranking as it would without it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execretrieval import __version__
from execretrieval.benchmark.dataset import Benchmark, Snippet
from execretrieval.dirs import user_cache_dir
from execretrieval.fileio import atomic_write_text
from execretrieval.ranking.catalog import model_sources

from .engine import CanonicalTie, mixed_share, tie_from
from .models import CandidateRow, role_of
from .state_types import listed_rows

__all__ = ["Preview", "PreviewStatus", "key_for", "read", "snapshot", "write"]

_log = logging.getLogger(__name__)

FORMAT = 1
KEEP = 32   # first screens kept at most (the most recently written or shown)
_FIELDS = ("top1_correct", "canonical_rank", "deceived", "top1_index", "top1_share",
           "canonical_tied")


def key_for(bench: Benchmark, model: str, depth: int) -> str | None:
    """The snapshot key of ``model`` on ``bench`` at ``depth``; None if it is never kept."""
    try:
        sources = model_sources(bench, model)
        if sources is None:
            return None
        # the files' digest, read with them, where there is one: the fingerprint would be
        # computed first (~15 ms on builtin, before the first query is usable)
        content = (f"files:{bench.source_digest}" if bench.source_digest is not None
                   else bench.fingerprint)
        digest = hashlib.sha256(json.dumps(
            [FORMAT, __version__, content, model, int(depth)]).encode())
        for path in sources:
            digest.update(f"\n{path.name}\n".encode())
            digest.update(path.read_bytes())
    except (OSError, ValueError):
        return None
    return digest.hexdigest()


def _path(key: str) -> Path:
    return user_cache_dir() / "first-screen" / f"{key}.json"


class PreviewStatus:
    """The query list's columns as plain lists, shaped like ``engine.QueryStatus``."""

    def __init__(self, model: str, columns: dict[str, list[Any]]) -> None:
        self.model = model
        self.top1_correct: list[bool] = [bool(x) for x in columns["top1_correct"]]
        self.canonical_rank: list[int] = [int(x) for x in columns["canonical_rank"]]
        self.deceived: list[bool] = [bool(x) for x in columns["deceived"]]
        self.top1_index: list[int] = [int(x) for x in columns["top1_index"]]
        self.top1_share: list[float] = [float(x) for x in columns["top1_share"]]
        self.canonical_tied: list[bool] = [bool(x) for x in columns["canonical_tied"]]
        self.top1_mixed = [bool(mixed_share(s)) for s in self.top1_share]
        self.tied = [m or t for m, t in zip(self.top1_mixed, self.canonical_tied, strict=True)]


@dataclass(frozen=True)
class Preview:
    """A kept first screen: ``rows[query_id]``: (corpus index, score, rank, best rank,
    worst rank, below the cut) per listed candidate, best first."""

    model: str
    depth: int
    status: PreviewStatus
    rows: dict[str, list[tuple[int, float, int, int, int, bool]]]
    ties: dict[str, CanonicalTie]

    def candidate_rows(self, bench: Benchmark, query_id: str,
                       known: Callable[[Snippet], Any]) -> list[CandidateRow]:
        """The query's candidate rows, as ``state_types.ranked_rows`` builds them."""
        query = bench.query(query_id)
        canon_score = self.ties[query_id].score
        rows = []
        for j, score, rank, best, worst, below in self.rows[query_id]:
            snippet = bench.corpus[j]
            rows.append(CandidateRow(rank, j, snippet, score, score - canon_score,
                                     role_of(query, snippet), known(snippet),
                                     below_cut=below, rank_best=best, rank_worst=worst))
        return rows


def read(bench: Benchmark, model: str, depth: int) -> Preview | None:
    """The kept first screen of ``model`` on ``bench`` at ``depth``, or None (never raises)."""
    key = key_for(bench, model, depth)
    if key is None:
        return None
    path = _path(key)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return _parse(doc, bench, key, depth)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        _log.warning("ignoring the kept first screen %s: %s", path, exc)
        return None


def _parse(doc: dict[str, Any], bench: Benchmark, key: str, depth: int) -> Preview:
    if doc.get("format") != FORMAT or doc.get("key") != key or doc.get("depth") != depth:
        raise ValueError("written for another benchmark, model or version")
    ids = [q.query_id for q in bench.queries]
    if doc["queries"] != ids:
        raise ValueError("its queries are not the benchmark's")
    columns = doc["status"]
    if any(len(columns[f]) != len(ids) for f in _FIELDS):
        raise ValueError("a status column does not have one value per query")
    n = len(bench.corpus)
    rows: dict[str, list[tuple[int, float, int, int, int, bool]]] = {}
    for qid, listed in zip(ids, doc["rows"], strict=True):
        parsed = [(int(j), float(s), int(r), int(b), int(w), bool(c))
                  for j, s, r, b, w, c in listed]
        if any(not 0 <= row[0] < n for row in parsed):
            raise ValueError(f"{qid}: a corpus index out of range")
        rows[qid] = parsed
    ties = {qid: CanonicalTie(int(b), int(w), float(s), int(m), int(o))
            for qid, (b, w, s, m, o) in zip(ids, doc["ties"], strict=True)}
    return Preview(str(doc["model"]), depth, PreviewStatus(str(doc["model"]), columns),
                   rows, ties)


def snapshot(bench: Benchmark, ranking: Any, status: Any, depth: int, key: str
             ) -> dict[str, Any]:
    """The document :func:`read` takes back, built from the real ranking and status: the
    rows ``state_types.ranked_rows`` lists and the facts ``engine.canonical_tie`` gives,
    for every query from one lookup of the ranking (a test checks both, query by query);
    a worker runs it while the user switches queries, so it is kept to a few milliseconds."""
    import numpy as np

    tops = [[int(j) for j in ranking.top(qi, depth)] for qi in range(len(bench.queries))]
    owns = [[bench.corpus_index(s.corpus_id) for s in bench.snippets_for(q.query_id)]
            for q in bench.queries]
    pairs = [(qi, j) for qi, (top, own) in enumerate(zip(tops, owns, strict=True))
             for j in top + own]
    at = ranking.lookup(np.array([q for q, _ in pairs], dtype=np.int64),
                        np.array([j for _, j in pairs], dtype=np.int64))
    found, scores, ranks = at.found.tolist(), at.key.tolist(), at.rank.tolist()
    best, worst = at.best.tolist(), at.worst.tolist()
    rows, ties, pos = [], [], 0
    for query, top, own in zip(bench.queries, tops, owns, strict=True):
        listed, _ = listed_rows(top, own, found, ranks, pos)
        rows.append([[j, scores[n], ranks[n], best[n], worst[n], ranks[n] > len(top)]
                     for j, n in listed])
        ties.append(_tie(bench, query.query_id, own, pos + len(top), scores, best, worst))
        pos += len(top) + len(own)
    columns = {f: [v.item() if hasattr(v, "item") else v for v in
                   (getattr(status, f) if getattr(status, f) is not None
                    else [False] * len(bench.queries))]
               for f in _FIELDS}
    return {"format": FORMAT, "key": key, "model": str(ranking.model), "depth": depth,
            "queries": [q.query_id for q in bench.queries], "status": columns,
            "rows": rows, "ties": ties}


def _tie(bench: Benchmark, query_id: str, own: list[int], at: int, scores: list[float],
         best: list[int], worst: list[int]) -> list[Any]:
    """``engine.canonical_tie``'s fields from the lookup of the query's own snippets
    (``own`` in corpus order, their lookup from index ``at``)."""
    canon = bench.canonical_for(query_id)
    if canon is None:
        return [0, 0, float("nan"), 0, 0]
    index = {j: at + n for n, j in enumerate(own)}
    c = index[bench.corpus_index(canon.corpus_id)]
    tie = tie_from(best[c], worst[c], scores[c],
                   [scores[index[bench.corpus_index(s.corpus_id)]]
                    for s in bench.distractors_for(query_id)])
    return [tie.best, tie.worst, tie.score, tie.mutants, tie.others]


def write(bench: Benchmark, model: str, ranking: Any, status: Any, depth: int) -> bool:
    """Keep the first screen of this ranking (atomically; run it off the UI thread).
    False when the model is never kept or the file is already what it would write;
    a cache folder that cannot be written is logged, not raised."""
    key = key_for(bench, model, depth)
    if key is None:
        return False
    text = json.dumps(snapshot(bench, ranking, status, depth, key), separators=(",", ":"))
    path = _path(key)
    try:
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            os.utime(path)   # shown again: the newest, the last to be pruned
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
    except OSError as exc:
        _log.warning("cannot keep the first screen in %s: %s", path, exc)
        return False
    _prune(path.parent, keep=KEEP)
    return True


def _prune(folder: Path, keep: int) -> None:
    """Remove all but the ``keep`` most recently written or shown screens (each benchmark,
    model file and depth has its own, and an edited file leaves the old one behind)."""
    try:
        kept = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in kept[keep:]:
            old.unlink(missing_ok=True)
    except OSError as exc:   # another window pruning at once, a read-only folder
        _log.warning("cannot prune the kept first screens in %s: %s", folder, exc)
