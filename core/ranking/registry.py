"""Retrievers: a benchmark in, a queries x corpus score matrix out, and the ranking it implies.

Every retriever satisfies one small protocol, :class:`Retriever`: ``score(benchmark)``
returns a float64 matrix whose row ``i`` scores ``benchmark.queries[i]`` against every
snippet, column ``j`` being ``benchmark.corpus[j]``; the built-in ones also stream it as
``score_blocks`` (a few queries at a time). :func:`rank` turns the blocks into a bounded
:class:`Ranking` (each query's top ``keep``, the tie group at the cut, and its own
snippets wherever they rank), sorting best first; ties are broken by corpus order (a
stable sort), so the same scores always give the same ranking. NaN scores rank last.

Model names understood by :func:`rank` / :func:`get_retriever`, tried in this order:

- a registered name: ``bm25``, ``tfidf`` (lexical, see :mod:`execretrieval.ranking.bm25`);
- ``minilm``: the shipped ``embeddings/minilm.npz`` if it matches the benchmark, else
  all-MiniLM-L6-v2 encoded with the ``dense`` extra (see :mod:`execretrieval.ranking.embeddings`);
- the name of any ``embeddings/<name>.npz`` in the benchmark folder, or a served model's
  name whose file ``embed --api`` wrote (``BAAI/bge-small-en-v1.5`` -> ``BAAI_bge-small-en-v1.5``);
- a path to a ``.npz`` embedding file, to a TREC run file (``.trec``, ``.run``, ``.txt``),
  or to a local sentence-transformers model folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ModelNotFoundError
from ..hooks import Progress, ShouldStop
from . import embeddings, trec
from .catalog import (
    REGISTRY,
    available_models,
    model_label,
    register_retriever,
    shipped_embeddings,
)
from .lexical import LexicalRetriever, check_stop
from .ranking import (
    DEFAULT_KEEP,
    RUN_SUFFIXES,
    Ranking,
    Retriever,
    block_rows,
    blocks_of,
    build_ranking,
    own_groups,
)

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = [
    "available_models",
    "get_retriever",
    "model_label",
    "rank",
    "rank_retriever",
    "register_retriever",
    "score_blocks",
]


def get_retriever(benchmark: Benchmark, model: str, **options: Any) -> Retriever:
    """The retriever for a model name or path (see the module docstring).

    ``options`` go to dense models: ``query_prefix``, ``passage_prefix``, ``normalize``.
    Raises ModelNotFoundError naming the models that are available.
    """
    if model in REGISTRY and not options:
        factory = REGISTRY[model]
        return LexicalRetriever(model) if factory is None else factory()
    if model == "minilm":
        return embeddings.MiniLMRetriever(**options)
    shipped = shipped_embeddings(benchmark)
    if model in shipped:
        return embeddings.NpzRetriever(shipped[model], name=model)
    from .api_embed import safe_model_name  # here: the served-model client (http) loads late

    served = safe_model_name(model)   # "BAAI/bge-small-en-v1.5" written by embed --api
    if served in shipped and not Path(model).expanduser().exists():
        return embeddings.NpzRetriever(shipped[served], name=model)
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


def score_blocks(retriever: Retriever, benchmark: Benchmark, *, rows: int,
                 progress: Progress | None = None,
                 should_stop: ShouldStop | None = None) -> Iterator[np.ndarray]:
    """A retriever's scores ``rows`` queries at a time: its own ``score_blocks`` if it has
    one, else its whole ``score`` matrix cut into blocks (a registered third-party model);
    ``should_stop()`` is asked before each block."""
    own = getattr(retriever, "score_blocks", None)
    blocks = iter(own(benchmark, rows=rows, progress=progress, should_stop=should_stop)) \
        if own is not None else \
        blocks_of(retriever.score(benchmark, progress=progress, should_stop=should_stop), rows)
    return _stoppable(blocks, should_stop)


def rank(
    benchmark: Benchmark,
    model: str,
    *,
    keep: int = DEFAULT_KEEP,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    **options: Any,
) -> Ranking:
    """Score every snippet for every query with ``model`` and keep each query's top
    ``keep`` (plus the tie group straddling it, and its own snippets wherever they rank).

    Scores stream a block of queries at a time (:func:`~execretrieval.ranking.ranking.
    block_rows`), so memory is bounded by the block and the kept entries, not by queries x
    corpus. ``progress(done, total)`` is called while scoring (dense encoding reports per
    batch); ``should_stop()`` returning True raises CancelledError.
    """
    retriever = get_retriever(benchmark, model, **options)
    return rank_retriever(benchmark, retriever, label=model_label(model), source=model,
                          keep=keep, progress=progress, should_stop=should_stop)


def rank_retriever(benchmark: Benchmark, retriever: Retriever, *, label: str,
                   source: str = "", keep: int = DEFAULT_KEEP,
                   progress: Progress | None = None,
                   should_stop: ShouldStop | None = None) -> Ranking:
    """:func:`rank` with a retriever object (e.g. a run file of any extension)."""
    n_corpus = len(benchmark.corpus)
    blocks = score_blocks(retriever, benchmark, rows=block_rows(n_corpus), progress=progress,
                          should_stop=should_stop)
    return build_ranking(label, blocks, len(benchmark.queries), n_corpus, keep=keep,
                         own=own_groups(benchmark), source=source)


def _stoppable(blocks: Iterator[np.ndarray], should_stop: ShouldStop | None
               ) -> Iterator[np.ndarray]:
    """``blocks`` with a cancel check before each."""
    for block in blocks:
        check_stop(should_stop)
        yield block
