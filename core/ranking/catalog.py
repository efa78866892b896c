"""Model names without the models: what a benchmark offers, and which files decide a model.

Imports neither numpy nor any retriever, so a window can list the models and key what it
keeps of a ranking before any scoring code loads (:mod:`.registry` resolves a name to a
retriever and ranks; it reads the names registered here).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["available_models", "dense_extra_installed", "model_label", "model_sources",
           "register_retriever", "shipped_embeddings"]

#: run-file suffixes a path model may have (also :data:`.ranking.RUN_SUFFIXES`)
RUN_SUFFIXES = (".trec", ".run", ".txt")


#: name -> factory of a retriever registered at run time; None: the built-in lexical one
#: (:class:`.lexical.LexicalRetriever`, which :mod:`.registry` builds)
REGISTRY: dict[str, Callable[[], Any] | None] = {"bm25": None, "tfidf": None}


def register_retriever(name: str, factory: Callable[[], Any]) -> None:
    """Make ``rank(benchmark, name)`` use ``factory()``; replaces an existing name."""
    REGISTRY[name] = factory


def dense_extra_installed() -> bool:
    """True if torch and sentence-transformers can be imported (without importing them)."""
    return all(importlib.util.find_spec(m) is not None
               for m in ("torch", "sentence_transformers"))


def shipped_embeddings(benchmark: Benchmark) -> dict[str, Path]:
    """``embeddings/<name>.npz`` files of the benchmark's folder, by name."""
    if benchmark.path is None:
        return {}
    folder = Path(benchmark.path) / "embeddings"
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.npz"))}


def available_models(benchmark: Benchmark) -> list[str]:
    """Model names :func:`~.registry.rank` accepts for this benchmark without a path.

    ``bm25`` and ``tfidf`` always; ``minilm`` when ``embeddings/minilm.npz`` is shipped or
    the ``dense`` extra is installed; then every other ``embeddings/<name>.npz``.
    """
    names = list(REGISTRY)
    shipped = shipped_embeddings(benchmark)
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


def model_sources(benchmark: Benchmark, model: str) -> tuple[Path, ...] | None:
    """The files that, with the benchmark itself, decide ``model``'s scores: ``()`` for a
    built-in lexical model, the ``.npz`` or run file for a shipped name or a path; None
    when they are not a fixed set of files (a model folder encoded on this machine, a
    name registered at run time, a served model known only by its service). Whoever keeps
    a ranking for later keys it on these files' bytes, so a rewritten file is never
    mistaken for the old one."""
    if model in REGISTRY:
        return () if REGISTRY[model] is None else None
    shipped = shipped_embeddings(benchmark)
    if model in shipped:   # minilm included: the shipped file wins when it matches
        return (shipped[model],)
    path = Path(model).expanduser()
    if path.is_file() and (path.suffix == ".npz" or path.suffix in RUN_SUFFIXES):
        return (path,)
    return None
