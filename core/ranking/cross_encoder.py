"""A local sentence-transformers ``CrossEncoder`` folder as a scorer of (query, code) pairs.

Needs the ``dense`` extra (torch, sentence-transformers); never downloads: the folder must
hold the model's config, weights and tokenizer (``HF_HUB_OFFLINE`` is set while loading).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelNotFoundError, RetrieverError
from ._dense import pin_cpu_environment, pinned_numerics

__all__ = ["CrossEncoderScorer"]


@dataclass
class CrossEncoderScorer:
    """Loads ``path`` on first use and scores pairs in batches of ``batch`` on the CPU."""

    path: Path
    batch: int = 32
    _model: Any = None
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    pairs: int = 0

    def load(self) -> Any:
        if self._model is not None:
            return self._model
        where = f"cross-encoder {self.path}"
        if not self.path.is_dir():
            raise ModelNotFoundError(f"{where}: no such folder (expected a "
                                     "sentence-transformers CrossEncoder folder)")
        if not (self.path / "config.json").is_file():
            raise ModelNotFoundError(f"{where}: no config.json in the folder; it is not a "
                                     "saved model (CrossEncoder.save or save_pretrained)")
        pin_cpu_environment()
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as exc:
            raise ModelNotFoundError(f"{where}: needs the dense extra (pip install "
                                     "'execretrieval-inspector[dense]')") from exc
        from transformers.utils import logging as hf_logging

        old = os.environ.get("HF_HUB_OFFLINE")
        os.environ["HF_HUB_OFFLINE"] = "1"
        bars = hf_logging.is_progress_bar_enabled()
        hf_logging.disable_progress_bar()   # no "Loading weights" bar on the CLI's stderr
        try:
            self._model = CrossEncoder(str(self.path), device="cpu", local_files_only=True)
        except Exception as exc:  # noqa: BLE001 - transformers raises many kinds
            raise ModelNotFoundError(f"{where}: cannot load it: {type(exc).__name__}: "
                                     f"{str(exc).splitlines()[0] if str(exc) else ''}"
                                     ) from exc
        finally:
            if bars:
                hf_logging.enable_progress_bar()
            if old is None:
                os.environ.pop("HF_HUB_OFFLINE", None)
            else:
                os.environ["HF_HUB_OFFLINE"] = old
        return self._model

    def score(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """One score per (query, text) pair (the model's own activation, e.g. a sigmoid)."""
        model = self.load()
        if not pairs:
            return np.zeros(0)
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            with pinned_numerics():
                scores = model.predict([list(p) for p in pairs], batch_size=self.batch,
                                       show_progress_bar=False, convert_to_numpy=True)
        except Exception as exc:  # noqa: BLE001
            raise RetrieverError(f"cross-encoder {self.path}: scoring failed: "
                                 f"{type(exc).__name__}: {exc}") from exc
        finally:
            self.cpu_seconds += time.process_time() - cpu
            self.wall_seconds += time.perf_counter() - wall
        out = np.asarray(scores, dtype=np.float64).reshape(len(pairs), -1)
        if out.shape[1] != 1:
            raise RetrieverError(f"cross-encoder {self.path}: the model gives {out.shape[1]} "
                                 "scores per pair; a reranker gives one (num_labels=1)")
        if not np.isfinite(out).all():
            raise RetrieverError(f"cross-encoder {self.path}: non-finite scores")
        self.pairs += len(pairs)
        return out[:, 0]
