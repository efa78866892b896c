"""Retrievers: a benchmark in, a queries x corpus score matrix out, and the ranking it implies.

Every retriever satisfies one small protocol, :class:`Retriever`: ``score(benchmark)``
returns a float64 matrix whose row ``i`` scores ``benchmark.queries[i]`` against every
snippet, column ``j`` being ``benchmark.corpus[j]``. :func:`rank` turns it into a
:class:`Ranking`, sorting each row best first; ties are broken by corpus order (a stable
sort), so the same scores always give the same ranking. NaN scores rank last.

Model names understood by :func:`rank` / :func:`get_retriever`, tried in this order:

- a registered name: ``bm25``, ``tfidf`` (lexical, see :mod:`execretrieval.bm25`);
- ``minilm``: the shipped ``embeddings/minilm.npz`` if it matches the benchmark, else
  all-MiniLM-L6-v2 encoded with the ``dense`` extra (see :mod:`execretrieval.embeddings`);
- the name of any ``embeddings/<name>.npz`` in the benchmark folder;
- a path to a ``.npz`` embedding file, to a TREC run file (``.trec``, ``.run``, ``.txt``),
  or to a local sentence-transformers model folder.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .errors import CancelledError, ModelNotFoundError, RetrieverError

if TYPE_CHECKING:
    from .dataset import Benchmark

__all__ = [
    "Progress",
    "Ranking",
    "Retriever",
    "ShouldStop",
    "available_models",
    "get_retriever",
    "model_label",
    "order_from_scores",
    "rank",
    "register_retriever",
]

Progress = Callable[[int, int], None]
ShouldStop = Callable[[], bool]

RUN_SUFFIXES = (".trec", ".run", ".txt")


def order_from_scores(scores: np.ndarray) -> np.ndarray:
    """Corpus indices of each row, best score first, ties in corpus order (int32).

    ``order[q] = stable_argsort(-scores[q])``; NaN is treated as -inf.
    """
    matrix = np.asarray(scores, dtype=np.float64)
    keys = -np.where(np.isnan(matrix), -np.inf, matrix)
    return np.argsort(keys, axis=1, kind="stable").astype(np.int32)


@dataclass(frozen=True, eq=False)
class Ranking:
    """One model's scores for every (query, snippet) pair and the ranking they imply.

    ``scores[q, j]`` is the score of ``corpus[j]`` for ``queries[q]``; ``order[q]`` lists
    corpus indices best first, ties broken by corpus order.
    """

    model: str
    scores: np.ndarray
    order: np.ndarray

    @classmethod
    def from_scores(cls, model: str, scores: np.ndarray) -> Ranking:
        """The ranking implied by a score matrix (copied, made read-only)."""
        matrix = np.array(scores, dtype=np.float64, copy=True)
        if matrix.ndim != 2:
            raise RetrieverError(f"{model}: expected a 2-D score matrix, got {matrix.ndim}-D")
        order = order_from_scores(matrix)
        matrix.flags.writeable = False
        order.flags.writeable = False
        return cls(model=model, scores=matrix, order=order)

    @property
    def shape(self) -> tuple[int, int]:
        """(queries, snippets)."""
        return (int(self.scores.shape[0]), int(self.scores.shape[1]))

    @cached_property
    def retrieved(self) -> np.ndarray:
        """(Q x N) bool: did the model retrieve each snippet for each query at all?

        Every snippet an in-process model scores is retrieved; a TREC run retrieves only the
        snippets it lists (the others score -inf and fill the tail of ``order`` in corpus
        order). Unretrieved snippets never count as hits (trec_eval semantics): they are
        not executed, not relevant, and not anybody's rank-1 candidate.
        """
        out = np.asarray(self.scores > -np.inf)  # NaN compares False too
        out.flags.writeable = False
        return out

    @cached_property
    def ranks(self) -> np.ndarray:
        """1-based rank of every snippet for every query: ``ranks[q, order[q, r]] = r + 1``."""
        q, n = self.order.shape
        out = np.empty((q, n), dtype=np.int32)
        np.put_along_axis(out, self.order.astype(np.intp),
                          np.broadcast_to(np.arange(1, n + 1, dtype=np.int32), (q, n)), axis=1)
        out.flags.writeable = False
        return out

    def top(self, query_index: int, k: int) -> np.ndarray:
        """Corpus indices of the ``k`` best snippets for a query, best first."""
        return self.order[query_index, : max(0, int(k))]

    def rank_of(self, query_index: int, corpus_index: int) -> int:
        """1-based rank of a snippet in a query's ranking."""
        return int(self.ranks[query_index, corpus_index])


class Retriever(Protocol):
    """Anything that scores every snippet of a benchmark for every query."""

    @property
    def name(self) -> str:
        """The model name rankings are labelled with."""
        ...

    def score(
        self,
        benchmark: Benchmark,
        *,
        progress: Progress | None = None,
        should_stop: ShouldStop | None = None,
    ) -> np.ndarray:
        """Score matrix (queries x corpus), float64."""
        ...


@dataclass(frozen=True)
class _LexicalRetriever:
    name: str

    def score(self, benchmark: Benchmark, *, progress: Progress | None = None,
              should_stop: ShouldStop | None = None) -> np.ndarray:
        from .bm25 import bm25_scores
        from .tfidf import tfidf_scores

        _check_stop(should_stop)
        if progress:
            progress(0, 1)
        if not benchmark.corpus:
            raise RetrieverError(f"{self.name}: the benchmark has no snippets")
        fn = bm25_scores if self.name == "bm25" else tfidf_scores
        scores = fn([q.query for q in benchmark.queries], [s.code for s in benchmark.corpus])
        _check_stop(should_stop)
        if progress:
            progress(1, 1)
        return scores


_REGISTRY: dict[str, Callable[[], Retriever]] = {
    "bm25": lambda: _LexicalRetriever("bm25"),
    "tfidf": lambda: _LexicalRetriever("tfidf"),
}


def register_retriever(name: str, factory: Callable[[], Retriever]) -> None:
    """Make ``rank(benchmark, name)`` use ``factory()``; replaces an existing name."""
    _REGISTRY[name] = factory


def _check_stop(should_stop: ShouldStop | None) -> None:
    if should_stop is not None and should_stop():
        raise CancelledError("ranking cancelled")


def dense_extra_installed() -> bool:
    """True if torch and sentence-transformers can be imported (without importing them)."""
    return all(importlib.util.find_spec(m) is not None
               for m in ("torch", "sentence_transformers"))


def _shipped(benchmark: Benchmark) -> dict[str, Path]:
    if benchmark.path is None:
        return {}
    folder = Path(benchmark.path) / "embeddings"
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.npz"))}


def available_models(benchmark: Benchmark) -> list[str]:
    """Model names :func:`rank` accepts for this benchmark without a path.

    ``bm25`` and ``tfidf`` always; ``minilm`` when ``embeddings/minilm.npz`` is shipped or
    the ``dense`` extra is installed; then every other ``embeddings/<name>.npz``.
    """
    names = list(_REGISTRY)
    shipped = _shipped(benchmark)
    if "minilm" not in names and ("minilm" in shipped or dense_extra_installed()):
        names.append("minilm")
    names.extend(n for n in shipped if n not in names)
    return names


def model_label(model: str) -> str:
    """The name a model appears under in reports: the file or folder stem for a path."""
    path = Path(model)
    if ("/" in model or "\\" in model or path.suffix) and path.exists():
        return path.stem if path.is_file() else path.name
    return model


def get_retriever(benchmark: Benchmark, model: str, **options: Any) -> Retriever:
    """The retriever for a model name or path (see the module docstring).

    ``options`` go to dense models: ``query_prefix``, ``passage_prefix``, ``normalize``.
    Raises ModelNotFoundError naming the models that are available.
    """
    from . import embeddings, trec

    if model in _REGISTRY and not options:
        return _REGISTRY[model]()
    if model == "minilm":
        return embeddings.MiniLMRetriever(**options)
    shipped = _shipped(benchmark)
    if model in shipped:
        return embeddings.NpzRetriever(shipped[model], name=model)
    path = Path(model).expanduser()
    if path.is_file():
        if path.suffix == ".npz":
            return embeddings.NpzRetriever(path, name=path.stem)
        if path.suffix in RUN_SUFFIXES:
            return trec.RunFileRetriever(path, name=path.stem)
        raise ModelNotFoundError(
            f"{path}: not a model (expected a .npz embedding file, a TREC run file "
            f"{'/'.join(RUN_SUFFIXES)}, or a sentence-transformers folder)")
    if path.is_dir():
        return embeddings.DenseRetriever(path, name=path.name, **options)
    raise ModelNotFoundError(
        f"unknown model {model!r}; available for {benchmark.name}: "
        f"{', '.join(available_models(benchmark))} (or a path to a .npz, a TREC run file, "
        f"or a sentence-transformers model folder)")


def rank(
    benchmark: Benchmark,
    model: str,
    *,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    **options: Any,
) -> Ranking:
    """Score every snippet for every query with ``model`` and rank them best first.

    ``progress(done, total)`` is called while scoring (dense encoding reports per batch);
    ``should_stop()`` returning True raises CancelledError.
    """
    retriever = get_retriever(benchmark, model, **options)
    scores = retriever.score(benchmark, progress=progress, should_stop=should_stop)
    expected = (len(benchmark.queries), len(benchmark.corpus))
    if scores.shape != expected:
        raise RetrieverError(f"{model}: score matrix has shape {scores.shape}, "
                             f"expected {expected}")
    return Ranking.from_scores(model_label(model), scores)
