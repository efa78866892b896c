"""Pipeline names: the grammar, shell safety and errors that name what exists."""

from __future__ import annotations

import pytest

from execretrieval.errors import ModelNotFoundError
from execretrieval.pipeline import PipelineNameError, is_pipeline, parse_pipeline


def test_plus_binds_loosest_so_a_stage_follows_the_fusion() -> None:
    spec = parse_pipeline("rrf:bm25,minilm+exec")
    assert spec.base.fusion == "rrf"
    assert spec.base.models == ("bm25", "minilm")
    assert [s.name for s in spec.stages] == ["exec"]
    assert spec.text == "rrf:bm25,minilm+exec"


def test_stage_and_fusion_options() -> None:
    spec = parse_pipeline("rrf:bm25,tfidf,minilm,k=30+exec:depth=20")
    assert spec.base.models == ("bm25", "tfidf", "minilm")
    assert spec.base.option("k") == "30"
    assert spec.stages[0].option("depth") == "20"
    assert parse_pipeline("combsum:bm25,minilm").base.fusion == "combsum"


def test_plain_model_names_and_paths_pass_through_unchanged() -> None:
    for name in ("bm25", "BAAI/bge-small-en-v1.5", "/tmp/run (1).trec", "emb.npz"):
        spec = parse_pipeline(name)
        assert spec.is_plain_model and spec.base.model == name
        assert not is_pipeline(name)
    assert is_pipeline("minilm+exec") and is_pipeline("rrf:bm25,minilm")


@pytest.mark.parametrize(("name", "says"), [
    ("minilm+rerank", ["'rerank'", "stages: api, consensus, cross-encoder, exec, llm"]),
    ("minilm+", ["empty stage", "stages: api, consensus, cross-encoder, exec, llm"]),
    ("minilm++exec", ["empty stage"]),
    ("+exec", ["no base model"]),
    ("minilm+exec:depth", ["stage 'exec'", "malformed option 'depth'"]),
    ("minilm+exec:width=3", ["stage 'exec'", "unknown option 'width'", "depth"]),
    ("minilm+exec:", ["stage 'exec'", "nothing after ':'"]),
    ("minilm+exec:depth=3,depth=4", ["given twice"]),
    ("rrf:bm25", ["two or more models"]),
    ("rrf:bm25,,minilm+exec", ["empty model name"]),
    ("rrf:bm25,k=60,minilm", ["after the options"]),
    ("rrf:bm25,minilm,q=1", ["unknown option 'q'", "k, depth"]),
    ("minilm+exec>out.txt", ["not allowed", ">"]),
    ("minilm+exec;rm", ["not allowed", ";"]),
    ("minilm+$(id)", ["not allowed"]),
])
def test_malformed_names_say_what_and_what_exists(name: str, says: list[str]) -> None:
    with pytest.raises(PipelineNameError) as caught:
        parse_pipeline(name)
    for part in says:
        assert part in str(caught.value)
    assert isinstance(caught.value, ModelNotFoundError)   # the CLI's error path for models


def test_an_existing_path_with_a_plus_is_a_model_not_a_pipeline(tmp_path) -> None:
    run = tmp_path / "bm25+ce.trec"
    run.write_text("q_0001 Q0 c_00001 1 1.0 x\n", encoding="utf-8")
    assert parse_pipeline(str(run)).is_plain_model
    with pytest.raises(PipelineNameError, match="unknown stage 'ce.trec'"):
        parse_pipeline(str(tmp_path / "missing+ce.trec"))
