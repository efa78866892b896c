"""A model's blind spots: mutants it cannot tell from their canonical, whatever it learned.

Three kinds, each per paired distractor (a query's own mutant against its canonical):

- **past the window**: a dense model reads only its first ``max_seq_length`` word pieces
  (all-MiniLM-L6-v2: 256). When the edit lies past them, the truncated inputs of mutant
  and canonical are the same token ids, so their embeddings are identical: the model never
  saw the bug. Checked with the model's own tokenizer (``tokenizer.json`` through the
  ``tokenizers`` library, no torch) on ``passage_prefix + code``, exactly as encoded.
- **identical vectors**: in an embedding file (.npz), the mutant's vector is bit-identical
  to its canonical's (recorded for any .npz, whatever the reason).
- **identical scores**: every query scores the mutant exactly as its canonical (any
  model; for BM25 an argument swap leaves the bag of words unchanged).

The window is known from a sentence-transformers folder (``sentence_bert_config.json``)
or from an .npz's metadata (``max_seq_length``, written by ``execretrieval embed``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ModelNotFoundError
from ._dense import SentenceTransformerEncoder, minilm_model_path
from .embeddings import from_npz
from .ranking import RUN_SUFFIXES

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from .ranking import Ranking

__all__ = ["BlindSpots", "blind_spots", "model_window", "paired_distractors"]


@dataclass(frozen=True)
class BlindSpots:
    """What one model cannot see in one benchmark (corpus ids of paired distractors)."""

    model: str
    pairs: int                                   # paired distractors examined
    window: int | None = None                    # input window in word pieces, if known
    window_source: str = ""
    past_window: tuple[str, ...] | None = None   # None: not checked (no tokenizer/window)
    identical_vectors: tuple[str, ...] | None = None   # None: not an embedding file
    identical_scores: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def blind(self) -> dict[str, str]:
        """Distractor id -> why the model cannot tell it from its canonical (for a badge)."""
        out: dict[str, str] = {}
        for cid in self.identical_vectors or ():
            out[cid] = "its vector is bit-identical to the canonical's"
        for cid in self.past_window or ():
            out[cid] = (f"the edit lies past the model's {self.window}-token input window: "
                        "the model never reads it, its embedding equals the canonical's")
        return out

    def to_dict(self) -> dict[str, Any]:
        def ids(values: tuple[str, ...] | None) -> dict[str, Any] | None:
            return None if values is None else {"count": len(values), "ids": list(values)}

        return {"pairs": self.pairs, "window": self.window,
                "window_source": self.window_source,
                "past_window": ids(self.past_window),
                "identical_vectors": ids(self.identical_vectors),
                "identical_scores": ids(self.identical_scores),
                "notes": list(self.notes)}


def paired_distractors(benchmark: Benchmark) -> list[tuple[int, int, int]]:
    """(query index, canonical index, distractor index) of every paired distractor."""
    out = []
    for qi, query in enumerate(benchmark.queries):
        canon = benchmark.canonical_for(query.query_id)
        if canon is None:
            continue
        c = benchmark.corpus_index(canon.corpus_id)
        out += [(qi, c, benchmark.corpus_index(s.corpus_id))
                for s in benchmark.distractors_for(query.query_id)]
    return out


def _folder_window(folder: Path) -> int | None:
    try:
        config = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        value = config.get("max_seq_length")
    except (OSError, ValueError, AttributeError):
        return None
    return int(value) if isinstance(value, int) and value > 0 else None


def model_window(folder: Path) -> int | None:
    """A sentence-transformers folder's input window (``max_seq_length``), if it says."""
    return _folder_window(Path(folder))


def _resolve(benchmark: Benchmark, model: str) -> tuple[Path | None, Path | None]:
    """(embedding file, model folder) behind a model name or path, where there is one."""
    shipped = Path(benchmark.path) / "embeddings" / f"{model}.npz" if benchmark.path else None
    if model == "minilm":
        try:
            folder: Path | None = minilm_model_path()
        except ModelNotFoundError:
            folder = None
        return (shipped if shipped is not None and shipped.is_file() else None), folder
    if shipped is not None and shipped.is_file() and "/" not in model:
        return shipped, None
    path = Path(model).expanduser()
    if path.is_file() and path.suffix == ".npz":
        return path, None
    if path.is_dir():
        return None, path
    return None, None


def _past_window(benchmark: Benchmark, pairs: list[tuple[int, int, int]], folder: Path,
                 window: int, prefix: str) -> tuple[str, ...] | None:
    """Distractors whose truncated token ids equal their canonical's (None: no tokenizer)."""
    try:
        from tokenizers import Tokenizer
    except ImportError:
        return None
    file = folder / "tokenizer.json"
    if not file.is_file():
        return None
    try:
        tokenizer = Tokenizer.from_file(str(file))
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=window)
    except Exception:  # noqa: BLE001 - a third-party file we only read
        return None
    needed = sorted({j for _, c, d in pairs for j in (c, d)})
    encoded = tokenizer.encode_batch([prefix + benchmark.corpus[j].code for j in needed])
    ids = {j: tuple(e.ids) for j, e in zip(needed, encoded, strict=True)}
    return tuple(benchmark.corpus[d].corpus_id for _, c, d in pairs if ids[c] == ids[d])


def identical_columns(ranking: Ranking, pairs: list[tuple[int, int]]) -> list[bool]:
    """Did each (canonical, mutant) pair score identically for every query? Recorded while
    ranking (:class:`~execretrieval.ranking.ranking.OwnGroups`); a ranking that keeps every
    score answers for pairs it was not asked about too."""
    dense: np.ndarray | None = None
    out = []
    for c, d in pairs:
        known = ranking.identical.get((c, d))
        if known is None:
            if ranking.truncated:
                raise ValueError(f"{ranking.model}: the ranking did not compare snippets "
                                 f"{c} and {d}; rank with own_groups(benchmark)")
            dense = ranking.known_scores() if dense is None else dense
            known = bool(np.array_equal(dense[:, c], dense[:, d]))
        out.append(known)
    return out


def blind_spots(benchmark: Benchmark, model: str, ranking: Ranking | None = None
                ) -> BlindSpots:
    """The blind spots of ``model`` (a name or path as :func:`rank` takes) on a benchmark.

    ``ranking`` adds the identical-score count. Nothing is encoded and torch is never
    imported; what cannot be checked here is None, with a note saying why.
    """
    pairs = paired_distractors(benchmark)
    label = Path(model).stem if Path(model).suffix in (".npz", *RUN_SUFFIXES) else model
    notes: list[str] = []
    identical_scores: tuple[str, ...] = ()
    if ranking is not None and pairs:
        same = identical_columns(ranking, [(c, d) for _, c, d in pairs])
        identical_scores = tuple(benchmark.corpus[d].corpus_id
                                 for (_, _, d), eq in zip(pairs, same, strict=True) if eq)
    npz, folder = _resolve(benchmark, model) if model else (None, None)
    window: int | None = None
    source = ""
    prefix = ""
    identical_vectors: tuple[str, ...] | None = None
    if npz is not None:
        embeddings = from_npz(npz)
        meta = dict(embeddings.metadata)
        prefix = str(meta.get("passage_prefix") or "")
        row = {cid: i for i, cid in enumerate(embeddings.corpus_ids)}
        vectors = embeddings.corpus
        identical_vectors = tuple(
            benchmark.corpus[d].corpus_id for _, c, d in pairs
            if benchmark.corpus[c].corpus_id in row and benchmark.corpus[d].corpus_id in row
            and np.array_equal(vectors[row[benchmark.corpus[c].corpus_id]],
                               vectors[row[benchmark.corpus[d].corpus_id]]))
        recorded = meta.get("max_seq_length")
        if isinstance(recorded, int) and recorded > 0:
            window, source = recorded, f"max_seq_length in {npz.name}'s metadata"
        if folder is None and meta.get("model") == "minilm":
            try:
                folder = minilm_model_path()
            except ModelNotFoundError:
                notes.append("the minilm model folder is not installed: no tokenizer")
    if folder is not None and npz is None:
        try:
            prefix = SentenceTransformerEncoder(folder).passage_prefix
        except ModelNotFoundError:
            folder = None
    if folder is not None and window is None:
        window = model_window(folder)
        source = f"max_seq_length in {label}'s sentence_bert_config.json" if window else ""
    past: tuple[str, ...] | None = None
    if folder is not None and window is not None:
        past = _past_window(benchmark, pairs, folder, window, prefix)
        if past is None:
            notes.append("no tokenizer (tokenizers library or tokenizer.json) to locate edits")
    elif window is not None:
        notes.append("no tokenizer: the model folder behind the file is unknown, so where "
                     "edits lie against the window cannot be checked")
    elif npz is not None or folder is not None:
        notes.append("input window unknown")
    return BlindSpots(model=label, pairs=len(pairs), window=window, window_source=source,
                      past_window=past, identical_vectors=identical_vectors,
                      identical_scores=identical_scores, notes=tuple(notes))
