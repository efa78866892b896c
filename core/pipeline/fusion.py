"""Rank fusion of several models' scores: reciprocal rank fusion and CombSUM (as ranx).

Each model contributes only the snippets it *kept*: those ranked within its first
``depth`` positions (a tie group straddling the cut is kept whole), with a finite score.
A snippet no model kept is not retrieved by the fusion (score -inf).

- ``rrf`` (Cormack, Clarke & Buettcher 2009; ranx ``rrf``)::

      rrf(d) = sum over models m that kept d of 1 / (k + rank_m(d)),   k = 60

  where a tied group shares its mean rank (ranks ``above + 1 .. above + size`` average to
  ``above + (size + 1) / 2``), so the fusion does not depend on the order of tied lines.
- ``combsum`` (Fox & Shaw 1994; ranx ``combsum`` with ``min-max`` normalisation)::

      combsum(d) = sum over models m that kept d of (s_m(d) - min_m) / (max_m - min_m)

  min and max over the snippets model m kept for that query; when they are equal every
  kept snippet normalises to 0, as in ranx (it stays retrieved, contributing nothing).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import RetrieverError
from ..hooks import Progress, ShouldStop
from ..ranking.ranking import DEFAULT_KEEP, Retriever, StreamingRetriever
from ..ranking.registry import score_blocks

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["FusionRetriever", "combsum_scores", "kept_and_mean_ranks", "rrf_scores"]

RRF_K = 60


def kept_and_mean_ranks(scores: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """For a (b x N) score block: which snippets each row keeps within ``depth`` (tie group
    at the cut kept whole, -inf / NaN never) and every snippet's mean rank among ties."""
    keys = np.where(np.isnan(scores), -np.inf, np.asarray(scores, dtype=np.float64))
    kept = np.zeros(keys.shape, dtype=bool)
    mean_rank = np.zeros(keys.shape)
    for r in range(keys.shape[0]):
        ordered = np.sort(-keys[r])                      # ascending negated: best first
        above = np.searchsorted(ordered, -keys[r], side="left")
        at_least = np.searchsorted(ordered, -keys[r], side="right")
        mean_rank[r] = (above + at_least + 1) / 2.0
        kept[r] = (above < depth) & np.isfinite(keys[r])
    return kept, mean_rank


def rrf_scores(blocks: Sequence[np.ndarray], *, k: float = RRF_K,
               depth: int = DEFAULT_KEEP) -> np.ndarray:
    """Reciprocal rank fusion of same-shaped score blocks (module docstring)."""
    out = np.zeros(np.shape(blocks[0]))
    any_kept = np.zeros(out.shape, dtype=bool)
    for block in blocks:
        kept, ranks = kept_and_mean_ranks(block, depth)
        out += np.where(kept, 1.0 / (k + ranks), 0.0)
        any_kept |= kept
    return np.where(any_kept, out, -np.inf)


def combsum_scores(blocks: Sequence[np.ndarray], *, depth: int = DEFAULT_KEEP) -> np.ndarray:
    """CombSUM of min-max-normalised same-shaped score blocks (module docstring)."""
    out = np.zeros(np.shape(blocks[0]))
    any_kept = np.zeros(out.shape, dtype=bool)
    for block in blocks:
        kept, _ = kept_and_mean_ranks(block, depth)
        keys = np.where(kept, np.asarray(block, dtype=np.float64), np.nan)
        with np.errstate(all="ignore"):
            low = np.nanmin(np.where(kept, keys, np.inf), axis=1, keepdims=True)
            high = np.nanmax(np.where(kept, keys, -np.inf), axis=1, keepdims=True)
            span = high - low
            norm = np.where(span > 0, (keys - low) / np.where(span > 0, span, 1.0), 0.0)
        out += np.where(kept, norm, 0.0)
        any_kept |= kept
    return np.where(any_kept, out, -np.inf)


@dataclass(frozen=True)
class FusionRetriever(StreamingRetriever):
    """A retriever fusing several retrievers' scores, block by block (``rrf`` / ``combsum``)."""

    name: str
    method: str
    members: tuple[Retriever, ...]
    k: float = RRF_K
    depth: int = DEFAULT_KEEP

    def score_blocks(self, benchmark: Benchmark, *, rows: int,
                     progress: Progress | None = None,
                     should_stop: ShouldStop | None = None) -> Iterator[np.ndarray]:
        """Fused scores ``rows`` queries at a time; the members stream in lockstep."""
        streams = [_rechunk(score_blocks(m, benchmark, rows=rows, should_stop=should_stop),
                            rows) for m in self.members]
        total, done = len(benchmark.queries), 0
        for parts in zip(*streams, strict=True):
            if len({p.shape for p in parts}) != 1:
                raise RetrieverError(f"{self.name}: members gave blocks of shapes "
                                     f"{[p.shape for p in parts]}")
            if self.method == "rrf":
                yield rrf_scores(parts, k=self.k, depth=self.depth)
            else:
                yield combsum_scores(parts, depth=self.depth)
            done += len(parts[0])
            if progress:
                progress(done, total)


def _rechunk(blocks: Iterator[np.ndarray], rows: int) -> Iterator[np.ndarray]:
    """The same rows in blocks of exactly ``rows`` (the last may be shorter), so members
    that stream differently line up."""
    buffer: list[np.ndarray] = []
    held = 0
    for block in blocks:
        buffer.append(np.asarray(block, dtype=np.float64))
        held += len(block)
        while held >= rows:
            joined = np.concatenate(buffer)
            yield joined[:rows]
            rest = joined[rows:]
            buffer, held = ([rest] if len(rest) else []), len(rest)
    if held:
        yield np.concatenate(buffer)
