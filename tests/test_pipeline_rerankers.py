"""Model stages against a real local server (tests/_rerank_server.py): ``api`` in TEI and
Cohere format, ``llm`` on an OpenAI-compatible chat endpoint."""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest
from _rerank_server import RerankServer, p_yes, rating, score
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATA
from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.errors import ModelNotFoundError, ServiceError
from execretrieval.pipeline import rank_system, system_cost
from execretrieval.pipeline.rerankers import order_by_scores, tied_count
from execretrieval.ranking.registry import get_retriever, rank

KEY = "sk-rerank-secret-7f3a9c"
TINY = DATA / "tiny"


@pytest.fixture(scope="module")
def tiny():
    return load_benchmark(TINY)


@pytest.fixture(scope="module")
def builtin():
    return load_benchmark(DATA / "builtin")


def _groups(ranking, benchmark, q: int, width: int) -> list[set[str]]:
    """The first ``width`` positions of query ``q`` as tie groups of corpus ids."""
    order, keys = ranking.order_to(width)[q], ranking.keys_to(width)[q]
    out: list[set[str]] = []
    last = None
    for j, k in zip(order, keys, strict=True):
        if j < 0:
            break
        if k != last:
            out.append(set())
            last = k
        out[-1].add(benchmark.corpus[int(j)].corpus_id)
    return out


_SCORES: dict[tuple[int, str], np.ndarray] = {}


def _base_top(benchmark, model: str, q: int, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Brute force: the base model's full score row, sorted by a stable sort."""
    if (id(benchmark), model) not in _SCORES:
        _SCORES[id(benchmark), model] = np.asarray(
            get_retriever(benchmark, model).score(benchmark), dtype=np.float64)
    row = _SCORES[id(benchmark), model][q]
    finite = np.flatnonzero(np.isfinite(row))
    return finite[np.argsort(-row[finite], kind="stable")], row


def _first(order: np.ndarray, row: np.ndarray, depth: int) -> np.ndarray:
    """The first ``depth`` of ``order`` and the rest of a tie group straddling the cut (a
    stage takes it whole, so the set never depends on the corpus order)."""
    cut = row[order[depth - 1]]
    return order[:depth + int(np.count_nonzero(row[order[depth:]] == cut))]


@pytest.mark.parametrize("fmt", ["tei", "cohere"])
def test_api_reorders_the_top_depth_by_the_servers_scores_ties_kept(builtin, fmt) -> None:
    depth = 10
    with RerankServer(levels=4) as server:
        name = f"bm25+api:url={server.url},model=m,format={fmt},depth={depth}"
        ranking = rank_system(builtin, name)
    base = rank(builtin, "bm25")
    checked_ties = 0
    for q, query in enumerate(builtin.queries):
        order, row = _base_top(builtin, "bm25", q, depth)
        top = _first(order, row, depth)
        scores = {builtin.corpus[int(j)].corpus_id: score(query.query, builtin.corpus[int(j)].code,
                                                          4) for j in top}
        expected = [{c for c, s in scores.items() if s == level}
                    for level in sorted(set(scores.values()), reverse=True)]
        width = len(top)
        got = _groups(ranking, builtin, q, width)
        assert got == expected, query.query_id
        checked_ties += sum(len(g) > 1 for g in expected)
        # below the block: the base order, untouched
        assert list(ranking.order_to(width + 10)[q][width:]) == \
            list(base.order_to(width + 10)[q][width:])
    assert checked_ties > 100   # levels=4 ties most blocks: the tie rule was exercised
    cost = system_cost(ranking)
    stage = cost["stages"][0]
    assert stage["counts"]["tied"] == cost["tied"] > 0
    per_query = ranking.logs[0].per_query[builtin.queries[0].query_id]
    first = _first(*_base_top(builtin, "bm25", 0, depth), depth)
    assert per_query["tied"] == sum(len(g) for g in _groups(ranking, builtin, 0, len(first))
                                    if len(g) > 1)
    assert per_query["scores"] == {builtin.corpus[int(j)].corpus_id:
                                   score(builtin.queries[0].query,
                                         builtin.corpus[int(j)].code, 4)
                                   for j in _first(*_base_top(builtin, "bm25", 0, depth), depth)}


def test_tei_and_cohere_request_shapes(tiny, monkeypatch) -> None:
    monkeypatch.setenv("RERANK_API_KEY", KEY)
    with RerankServer(key=KEY) as server:
        server.models.add("bge")
        rank_system(tiny, f"minilm+api:url={server.url},model=m,format=tei,depth=3")
        rank_system(tiny, f"minilm+api:url={server.url},model=bge,format=cohere,depth=3")
        bodies, paths, auth = server.bodies, server.paths, server.auth
    tei = [b for b, p in zip(bodies, paths, strict=True) if p == "/rerank"]
    cohere = [b for b, p in zip(bodies, paths, strict=True) if p == "/v1/rerank"]
    assert len(tei) == len(tiny.queries)
    assert all(set(b) == {"query", "texts", "raw_scores"} and b["raw_scores"] is True
               and len(b["texts"]) == 3 for b in tei)
    assert {b["query"] for b in tei} == {q.query for q in tiny.queries}
    q0 = tiny.queries[0]
    top = _base_top(tiny, "minilm", 0, 3)[0][:3]
    assert next(b for b in tei if b["query"] == q0.query)["texts"] == \
        [tiny.corpus[int(j)].code for j in top]
    assert all(set(b) == {"model", "query", "documents", "top_n"} and b["model"] == "bge"
               and b["top_n"] == len(b["documents"]) == 3 for b in cohere)
    assert set(auth) == {f"Bearer {KEY}"}


def test_413_halves_the_request_and_the_run_keeps_the_size_that_worked(tiny) -> None:
    with RerankServer(max_batch=3) as server:
        ranking = rank_system(tiny, f"minilm+api:url={server.url},model=m,format=tei,batch=8")
        sizes = list(server.sizes)
    log = ranking.logs[0]
    assert log.notes["batch_after_413"] == 2          # 8 -> 4 (413) -> 2
    assert any("HTTP 413 for 8 texts" in m for m in log.notes["messages"])
    answered = [s for s in sizes if s <= 3]
    assert sum(answered) == len(tiny.queries) * 10   # every text scored exactly once
    assert max(sizes) == 8 and sizes.count(8) <= len(tiny.queries)
    for query in tiny.queries:        # the scores are still the server's
        entry = log.per_query[query.query_id]
        assert entry["scores"] == {c: score(query.query, tiny.snippet(c).code)
                                   for c in entry["scores"]}
        assert entry["texts_sent"] == 10


def test_429_is_retried_after_the_servers_retry_after(tiny) -> None:
    with RerankServer() as server:
        server.faults.append(("status", 429, {"Retry-After": "2"}, "slow down"))
        ranking = rank_system(tiny, f"minilm+api:url={server.url},model=m,format=cohere")
        assert server.requests == len(tiny.queries) + 1
    log = ranking.logs[0]
    assert log.counts["retries"] == 1 and log.counts["requests"] == len(tiny.queries) + 1
    assert any("HTTP 429: slow down (Retry-After 2s); attempt 2 of 6 in 2.0s" in m
               for m in log.notes["messages"])


def test_a_warm_run_sends_nothing_and_the_key_is_nowhere(tiny, tmp_path, monkeypatch,
                                                          run_cli) -> None:
    monkeypatch.setenv("RERANK_API_KEY", KEY)
    with RerankServer(key=KEY, max_batch=4) as server:
        server.faults.append(("status", 503, {"Retry-After": "0"}, f"busy, key {KEY}"))
        name = f"minilm+api:url={server.url},model=m,format=tei"
        outs = [tmp_path / f"r{n}.json" for n in (1, 2)]
        code, out1, err1 = run_cli("evaluate", TINY, "--model", "minilm", "--model", name,
                                   "--out", outs[0])
        assert run_cli("evaluate", TINY, "--model", name, "--out", tmp_path / "r.md")[0] == 0
        assert code == 0, err1
        cold = server.requests
        code, out2, err2 = run_cli("evaluate", TINY, "--model", name, "--out", outs[1])
        assert code == 0, err2
        assert run_cli("evaluate", TINY, "--model", name, "--out", tmp_path / "r.html")[0] == 0
        assert server.requests == cold          # warm: no request at all
    first, second = (json.loads(p.read_text()) for p in outs)
    assert first["cost"][name]["requests"] == cold > len(tiny.queries)
    assert first["cost"][name]["cache_hits"] == 0
    assert second["cost"][name]["requests"] == 0
    assert second["cost"][name]["cache_hits"] == 10 * len(tiny.queries)
    assert first["models"][name]["metrics"]["exec@1"] == \
        second["models"][name]["metrics"]["exec@1"]
    assert "busy, key ***" in " ".join(first["cost"][name]["stages"][0]["notes"]["messages"])
    for report in (tmp_path / "r.md", tmp_path / "r.html"):   # the cost table shows them
        text = report.read_text()
        assert "requests / query" in text and "reranker ties" in text
        assert f"{first['cost'][name]['tied']:g} in " in text
    blobs = [out1, err1, out2, err2] + [p.read_text() for p in outs] + \
        [(tmp_path / "r.md").read_text(), (tmp_path / "r.html").read_text()]
    from execretrieval.dirs import user_cache_dir

    for db in user_cache_dir().glob("*.sqlite*"):
        blobs.append(db.read_bytes().decode("latin-1"))
    with sqlite3.connect(user_cache_dir() / "rerank.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == \
            10 * len(tiny.queries)
    assert not any(KEY in b for b in blobs)


def test_a_wrong_key_fails_clearly_without_echoing_it(tiny, monkeypatch) -> None:
    monkeypatch.setenv("MY_KEY", KEY + "-wrong")
    with RerankServer(key=KEY) as server:
        with pytest.raises(ServiceError) as err:
            rank_system(tiny, f"minilm+api:url={server.url},model=m,format=tei,key_env=MY_KEY")
    message = str(err.value)
    assert "HTTP 401" in message and "$MY_KEY" in message and f"{server.url}/rerank" in message
    assert KEY not in message


@pytest.mark.parametrize("fault, words", [
    (("malformed",), "not JSON"), (("count",), "sent 10 texts, got 9 scores"),
    (("index",), "out of range"), (("nan",), "not a finite number")])
@pytest.mark.parametrize("fmt", ["tei", "cohere"])
def test_a_bad_answer_is_a_clear_error_naming_the_url(tiny, fault, words, fmt) -> None:
    with RerankServer() as server:
        server.faults.append(fault)
        with pytest.raises(ServiceError) as err:
            rank_system(tiny, f"minilm+api:url={server.url},model=m,format={fmt}")
    assert words in str(err.value) and server.url in str(err.value)


@pytest.mark.parametrize("name, words", [
    ("minilm+api:url=http://127.0.0.1:9,model=m,format=tei,colour=red",
     ["stage 'api'", "unknown option 'colour'", "url, model, format, key_env, depth, batch"]),
    ("minilm+api:url=http://127.0.0.1:9,model=m", ["stage 'api'", "needs format="]),
    ("minilm+api:url=http://127.0.0.1:9,model=m,format=onnx", ["formats: tei, cohere"]),
    ("minilm+api:model=m,format=tei", ["needs url="]),
    ("minilm+api:url=http://user:hunter22@127.0.0.1:9,model=m,format=tei", ["user info",
                                                                         "key_env="]),
    ("minilm+api:url=ftp://host,model=m,format=tei", ["not an http(s) URL"]),
    ("minilm+api:url=http://127.0.0.1:9,model=m,format=tei,depth=0", ["depth", "positive"]),
    ("minilm+llm:url=http://127.0.0.1:9,model=m,format=tei", ["stage 'llm'",
                                                            "url, model, key_env, depth"]),
    ("minilm+cross-encoder:path=/no/such/folder", ["/no/such/folder", "no such folder"]),
    ("minilm+reranker", ["unknown stage 'reranker'", "api", "cross-encoder", "llm"]),
])
def test_a_malformed_stage_names_the_stage_and_what_exists(tiny, name, words) -> None:
    with pytest.raises(ModelNotFoundError) as err:
        rank_system(tiny, name)
    assert all(w in str(err.value) for w in words), str(err.value)
    assert "hunter22" not in str(err.value)


def test_llm_scores_are_the_answers_probability_of_yes(tiny) -> None:
    with RerankServer() as server:
        ranking = rank_system(tiny, f"minilm+llm:url={server.url},model=m,depth=5")
        bodies = list(server.bodies)
    assert len(bodies) == 5 * len(tiny.queries)
    assert all(b["temperature"] == 0 and b["logprobs"] is True and b["top_logprobs"] == 5
               for b in bodies)
    log = ranking.logs[0]
    for q, query in enumerate(tiny.queries):
        entry = log.per_query[query.query_id]
        assert entry["scores"] == pytest.approx(
            {c: p_yes(query.query, tiny.snippet(c).code) for c in entry["scores"]}, abs=1e-12)
        expected = sorted(entry["scores"], key=lambda c: -entry["scores"][c])
        assert [set(g) for g in _groups(ranking, tiny, q, 5)] == [{c} for c in expected]
    prompt_tokens = sum(len(b["messages"][-1]["content"]) for b in bodies)
    assert log.counts["prompt_tokens"] > 0 and log.counts["completion_tokens"] == len(bodies)
    assert log.counts["prompt_tokens"] < prompt_tokens      # the server counts query + code
    assert log.notes["modes"] == ["logprobs"] and "yes or no" in log.notes["prompts"]["logprobs"]


def test_llm_without_logprobs_asks_for_ratings_and_counts_unparseable_answers(tiny) -> None:
    with RerankServer(logprobs=False) as server:
        # the first pair: asked for yes/no (no logprobs come back), then for a rating;
        # the next answer is no rating at all
        server.faults.extend([("none",), ("none",), ("garbage",)])
        ranking = rank_system(tiny, f"minilm+llm:url={server.url},model=m,depth=5")
        bodies = list(server.bodies)
    log = ranking.logs[0]
    assert log.counts["failures"] == 1
    assert log.notes["modes"] == ["rating"]
    assert any("asking for 0-10 ratings" in m for m in log.notes["messages"])
    assert sum("logprobs" in b for b in bodies) == 1      # asked once, then never again
    scores = [s for e in log.per_query.values() for s in e["scores"].values()]
    assert scores.count(-1.0) == 1 and all(0 <= s <= 10 for s in scores if s != -1.0)
    for query in tiny.queries:
        for c, s in log.per_query[query.query_id]["scores"].items():
            if s != -1.0:
                assert s == rating(query.query, tiny.snippet(c).code)


def test_llm_prompt_and_tokens_in_the_report(tiny, tmp_path, run_cli) -> None:
    with RerankServer() as server:
        name = f"minilm+llm:url={server.url},model=m,depth=3"
        code, _, err = run_cli("evaluate", TINY, "--model", "minilm", "--model", name,
                               "--out", tmp_path / "r.json")
        assert code == 0, err
        assert run_cli("evaluate", TINY, "--model", name, "--out", tmp_path / "r.md")[0] == 0
        cold = server.requests
        code, _, err = run_cli("evaluate", TINY, "--model", name, "--out", tmp_path / "w.json")
        assert server.requests == cold
    report = json.loads((tmp_path / "r.json").read_text())
    cost = report["cost"][name]
    assert cost["requests"] == 3 * len(tiny.queries) and cost["prompt_tokens"] > 0
    notes = cost["stages"][0]["notes"]
    assert notes["temperature"] == 0 and "{query}" in notes["prompts"]["rating"]
    assert name in (tmp_path / "r.md").read_text()
    assert json.loads((tmp_path / "w.json").read_text())["cost"][name]["cache_hits"] == \
        3 * len(tiny.queries)


def test_model_stages_are_judged_on_held_out_tests_when_a_split_is_given(tiny, tmp_path,
                                                                         run_cli) -> None:
    with RerankServer() as server:
        name = f"minilm+api:url={server.url},model=m,format=tei"
        code, _, err = run_cli("evaluate", TINY, "--model", "minilm", "--model", name,
                               "--visible", "0.5", "--split-seed", "0",
                               "--out", tmp_path / "r.json")
    assert code == 0, err
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["split"]["seed"] == 0
    assert report["against_base"][name]["base"] == "minilm"


@given(st.lists(st.sampled_from([-np.inf, 0.0, 0.5, 1.0, 2.0]), min_size=1, max_size=12),
       st.integers(1, 8), st.data())
@settings(max_examples=200, deadline=None)
def test_order_by_scores_against_a_brute_force_sort(row, depth, data) -> None:
    """The stored row reproduces: the block's tie groups by model score, best first, all
    above the rest, and the rest's scores untouched."""
    row = np.array(row)
    finite = [i for i in sorted(range(len(row)), key=lambda i: -row[i]) if np.isfinite(row[i])]
    cands = np.array(finite[:depth], dtype=np.int64)
    model = np.array(data.draw(st.lists(st.sampled_from([0.1, 0.2, 0.3]), min_size=len(cands),
                                        max_size=len(cands))))
    out = order_by_scores(row, cands, model)
    rest = [i for i in range(len(row)) if i not in set(cands.tolist())]
    assert np.array_equal(out[rest], row[rest])
    if len(cands):
        assert out[cands].min() > max([row[i] for i in rest if np.isfinite(row[i])],
                                      default=-np.inf)
        for a in range(len(cands)):
            for b in range(len(cands)):   # same order, same ties, as the model's scores
                assert (out[cands[a]] > out[cands[b]]) == (model[a] > model[b])
                assert (out[cands[a]] == out[cands[b]]) == (model[a] == model[b])
        assert tied_count(model) == sum(int((model == m).sum()) for m in set(model.tolist())
                                        if (model == m).sum() > 1)
