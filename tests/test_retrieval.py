"""Retrieval: rankings and ties, model resolution, shipped embeddings and clear failures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _rankdata import small_benchmark

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.errors import (
    CancelledError,
    InputFormatError,
    ModelNotFoundError,
    RetrieverError,
)
from execretrieval.ranking import catalog
from execretrieval.ranking.embeddings import EmbeddingSet, from_npz, text_sha, to_npz
from execretrieval.ranking.ranking import Ranking
from execretrieval.ranking.registry import available_models, rank


def test_ties_are_broken_by_corpus_order_and_nan_ranks_last() -> None:
    ranking = Ranking.from_scores("m", np.array([[0.5, 0.9, 0.5, np.nan, 0.9]]))
    assert ranking.order.tolist() == [[1, 4, 0, 2]]   # NaN: never retrieved, not stored
    assert ranking.known_scores()[0, 3] == -np.inf
    assert ranking.order.dtype == np.int32
    assert ranking.top(0, 2).tolist() == [1, 4]
    assert [ranking.rank_of(0, j) for j in range(5)] == [3, 1, 4, 5, 2]


def test_ranking_arrays_are_read_only() -> None:
    ranking = Ranking.from_scores("m", np.zeros((2, 3)))
    with pytest.raises(ValueError):
        ranking.keys[0, 0] = 1.0
    with pytest.raises(ValueError):
        ranking.order[0, 0] = 1


@pytest.mark.parametrize("model", ["bm25", "tfidf"])
def test_lexical_models_rank_the_tiny_benchmark(tiny_dir: Path, model: str) -> None:
    bench = load_benchmark(tiny_dir)
    calls: list[tuple[int, int]] = []
    ranking = rank(bench, model, progress=lambda d, t: calls.append((d, t)))
    assert ranking.model == model
    assert ranking.shape == (len(bench.queries), len(bench.corpus))
    assert calls[-1] == (len(bench.queries), len(bench.queries))   # queries scored
    assert np.isfinite(ranking.known_scores()).all()
    for qi in range(len(bench.queries)):
        assert sorted(ranking.order[qi].tolist()) == list(range(len(bench.corpus)))
        scores = ranking.keys[qi]
        assert (np.diff(scores) <= 0).all()
    # lowest_set_bit's query shares words with its own snippets, not the others'
    assert bench.corpus[int(ranking.order[0, 0])].query_id == "q_0001"


def test_same_input_gives_the_same_ranking(tiny_dir: Path) -> None:
    bench = load_benchmark(tiny_dir)
    a, b = rank(bench, "bm25"), rank(bench, "bm25")
    assert np.array_equal(a.order, b.order) and np.array_equal(a.keys, b.keys)


def test_should_stop_cancels(tiny_dir: Path) -> None:
    with pytest.raises(CancelledError):
        rank(load_benchmark(tiny_dir), "bm25", should_stop=lambda: True)


def test_unknown_model_names_the_available_ones(tmp_path: Path) -> None:
    bench = small_benchmark(tmp_path / "b")
    with pytest.raises(ModelNotFoundError, match="unknown model 'nope'.*bm25, tfidf"):
        rank(bench, "nope")


def _embeddings(bench, dim: int = 4, seed: int = 0, **meta) -> EmbeddingSet:
    rng = np.random.default_rng(seed)
    return EmbeddingSet(
        query_ids=tuple(q.query_id for q in bench.queries),
        corpus_ids=tuple(s.corpus_id for s in bench.corpus),
        queries=rng.normal(size=(len(bench.queries), dim)).astype(np.float32),
        corpus=rng.normal(size=(len(bench.corpus), dim)).astype(np.float32),
        metadata={"model": "toy", **meta},
        query_sha=tuple(text_sha(q.query) for q in bench.queries),
        corpus_sha=tuple(text_sha(s.code) for s in bench.corpus),
    )


def test_shipped_npz_is_listed_and_ranked_by_dot_product(tmp_path: Path) -> None:
    bench = small_benchmark(tmp_path / "b")
    emb = _embeddings(bench)
    to_npz(tmp_path / "b" / "embeddings" / "toy.npz", emb)
    assert "toy" in available_models(bench)
    ranking = rank(bench, "toy")
    expected = emb.queries.astype(np.float64) @ emb.corpus.astype(np.float64).T
    assert np.allclose(ranking.known_scores(), expected)
    again = rank(bench, str(tmp_path / "b" / "embeddings" / "toy.npz"))
    assert again.model == "toy" and np.array_equal(again.order, ranking.order)


def test_npz_rows_are_matched_by_id_not_position(tmp_path: Path) -> None:
    bench = small_benchmark(tmp_path / "b")
    emb = _embeddings(bench, similarity="cosine")
    flipped = EmbeddingSet(emb.query_ids[::-1], emb.corpus_ids[::-1], emb.queries[::-1],
                           emb.corpus[::-1], emb.metadata, emb.query_sha[::-1],
                           emb.corpus_sha[::-1])
    assert np.allclose(flipped.scores_for(bench), emb.scores_for(bench))
    assert np.abs(emb.scores_for(bench)).max() <= 1 + 1e-9


def test_npz_round_trip_keeps_everything(tmp_path: Path) -> None:
    bench = small_benchmark()
    emb = _embeddings(bench, query_prefix="q: ", normalize=True)
    to_npz(tmp_path / "e.npz", emb)
    back = from_npz(tmp_path / "e.npz")
    assert back.query_ids == emb.query_ids and back.corpus_sha == emb.corpus_sha
    assert np.array_equal(back.corpus, emb.corpus)
    assert back.metadata["query_prefix"] == "q: "


def test_stale_npz_is_refused(tmp_path: Path) -> None:
    bench = small_benchmark(tmp_path / "b")
    emb = _embeddings(bench)
    stale = EmbeddingSet(emb.query_ids, emb.corpus_ids, emb.queries, emb.corpus,
                         emb.metadata, emb.query_sha, ("0" * 16,) + emb.corpus_sha[1:])
    to_npz(tmp_path / "stale.npz", stale)
    with pytest.raises(RetrieverError, match="stale"):
        rank(bench, str(tmp_path / "stale.npz"))


def test_broken_npz_names_the_file(tmp_path: Path) -> None:
    bench = small_benchmark()
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(InputFormatError, match="bad.npz"):
        rank(bench, str(bad))
    np.savez(tmp_path / "half.npz", query_ids=np.array(["q1"]))
    with pytest.raises(InputFormatError, match="field 'corpus_ids': missing"):
        rank(bench, str(tmp_path / "half.npz"))


def test_minilm_uses_the_shipped_file_without_the_dense_extra(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "dense_extra_installed", lambda: False)
    bench = small_benchmark(tmp_path / "b")
    assert "minilm" not in available_models(bench)
    with pytest.raises(ModelNotFoundError, match="dense extra"):
        rank(bench, "minilm")
    to_npz(tmp_path / "b" / "embeddings" / "minilm.npz", _embeddings(bench))
    assert available_models(bench)[:3] == ["bm25", "tfidf", "minilm"]
    assert rank(bench, "minilm").model == "minilm"


def test_minilm_with_a_mismatched_shipped_file_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "dense_extra_installed", lambda: False)
    bench = small_benchmark(tmp_path / "b")
    other = small_benchmark()
    emb = _embeddings(other)
    partial = EmbeddingSet(emb.query_ids[:1], emb.corpus_ids, emb.queries[:1], emb.corpus,
                           emb.metadata)
    to_npz(tmp_path / "b" / "embeddings" / "minilm.npz", partial)
    with pytest.raises(ModelNotFoundError, match="does not match.*no vectors for 2 queries"):
        rank(bench, "minilm")


def test_a_file_of_unknown_kind_is_refused(tmp_path: Path) -> None:
    (tmp_path / "model.bin").write_bytes(b"")
    with pytest.raises(ModelNotFoundError, match="not a model"):
        rank(small_benchmark(), str(tmp_path / "model.bin"))


def test_a_default_install_without_torch_ranks_tiny_with_shipped_minilm(tiny_dir: Path) -> None:
    import subprocess
    import sys

    script = (
        "import sys\n"
        "for name in ('torch', 'sentence_transformers', 'transformers'):\n"
        "    sys.modules[name] = None  # unimportable, as on an install without the extra\n"
        "from execretrieval import available_models, load_benchmark, rank\n"
        f"bench = load_benchmark({str(tiny_dir)!r})\n"
        "assert 'minilm' in available_models(bench)\n"
        "ranking = rank(bench, 'minilm')\n"
        "assert 'torch' not in [m for m, v in sys.modules.items() if v is not None]\n"
        "print(ranking.order[0, 0])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr


def test_embed_without_the_dense_extra_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    from execretrieval.cli import entry as cli
    from execretrieval.ranking import _dense

    monkeypatch.setattr(cli, "COMMAND_MODULES", ("execretrieval.cli.embed_command",))
    monkeypatch.setattr(_dense, "_LOADED", {})
    for name in ("torch", "sentence_transformers"):
        monkeypatch.setitem(sys.modules, name, None)
    small_benchmark(tmp_path / "b")
    assert cli.main(["embed", str(tmp_path / "b"), "--model", "minilm"]) == 2
    assert "not installed" in capsys.readouterr().err
    assert not (tmp_path / "b" / "embeddings" / "minilm.npz").exists()
