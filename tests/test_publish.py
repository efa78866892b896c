"""Run manifests, `execretrieval diff` and `execretrieval leaderboard` on real reports of
the bundled tiny benchmark, written by the real `evaluate` command."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.measure.multiple import leaderboard, pairwise
from execretrieval.measure.statistics import sign_flip_test
from execretrieval.ranking.embeddings import EmbeddingSet, from_npz, to_npz
from execretrieval.report.manifest import folder_sha256, system_identity


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Reports of tiny: bm25+tfidf under two tie policies, and bm25 / tfidf alone."""
    tiny_dir = Path(__file__).resolve().parents[1] / "data" / "tiny"
    folder = tmp_path_factory.mktemp("reports")
    runs = {"expected": ["--model", "bm25", "--model", "tfidf"],
            "pessimistic": ["--model", "bm25", "--model", "tfidf", "--ties", "pessimistic"],
            "bm25": ["--model", "bm25"], "tfidf": ["--model", "tfidf"],
            "excluded": ["--model", "bm25", "--exclude-queries", str(folder / "ex.txt")]}
    (folder / "ex.txt").write_text("q_0001\n")
    out = {}
    # the real command in a subprocess, with private cache and data dirs (as conftest's)
    env = {**os.environ, "EXECRETRIEVAL_CACHE_DIR": str(folder / "cache"),
           "EXECRETRIEVAL_DATA_DIR": str(folder / "data")}
    for name, args in runs.items():
        out[name] = folder / f"{name}.json"
        done = subprocess.run([sys.executable, "-m", "execretrieval.cli", "evaluate",
                               str(tiny_dir), *args, "--bootstrap", "300", "--out",
                               str(out[name])], env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
    return out


def _same_rows(got: list[dict], want: list[dict]) -> None:
    key = lambda s: (s["metric"], s["system"])  # noqa: E731
    got, want = sorted(got, key=key), sorted(want, key=key)
    assert [key(s) for s in got] == [key(s) for s in want]
    for g, w in zip(got, want, strict=True):
        assert set(g) == set(w)
        for field in g:
            if isinstance(g[field], float):
                assert g[field] == pytest.approx(w[field], rel=1e-12), (key(g), field)
            else:
                assert g[field] == w[field], (key(g), field)


def _json(path: Path) -> dict:
    return json.loads(path.read_text())


def test_reports_record_a_complete_manifest(reports: dict[str, Path], tiny_dir: Path) -> None:
    data = _json(reports["expected"])
    m = data["manifest"]
    bench = load_benchmark(tiny_dir)
    assert m["benchmark"]["fingerprint"] == bench.fingerprint
    assert m["benchmark"]["version"] == bench.manifest["version"]
    assert m["systems"]["bm25"] == {"kind": "builtin", "retriever": "BM25Okapi", "k1": 1.5,
                                    "b": 0.75, "epsilon": 0.25}
    meas = m["measurement"]
    assert (meas["ties"], meas["bootstrap_replicates"], meas["seed"]) == ("expected", 300, 0)
    assert meas["kept_per_query"] == min(100, data["benchmark"]["snippets"])
    assert meas["split"] is None
    assert meas["correction"] == "holm" and "sign-flip" in meas["paired_test"]
    assert m["oracle"]["runner_version"] and m["oracle"]["limits"]["memory_mb"] > 0
    assert m["oracle"]["containment"]["rlimits"]
    assert m["packages"]["numpy"] == np.__version__
    assert m["command"].startswith("execretrieval evaluate ") and "--bootstrap 300" in \
        m["command"]
    # per-query figures are the report's own means
    per = data["per_query"]
    assert len(per["query_ids"]) == data["benchmark"]["queries"]
    for name, model in data["models"].items():
        for metric, ci in model["metrics"].items():
            assert np.mean(per["models"][name]["metrics"][metric]) == pytest.approx(ci["mean"])


def test_system_identities_hash_what_decides_the_scores(tmp_path: Path, tiny_dir: Path) -> None:
    bench = load_benchmark(tiny_dir)
    shipped = tiny_dir / "embeddings" / "minilm.npz"
    ident = system_identity(bench, "minilm")
    assert ident["sha256"] == hashlib.sha256(shipped.read_bytes()).hexdigest()
    assert ident["similarity"] == "cosine" and ident["query_prefix"] == ""
    # a served model's file: endpoint (never credentials), model, prefixes, dimensions
    base = from_npz(shipped)
    served = EmbeddingSet(base.query_ids, base.corpus_ids, base.queries, base.corpus,
                          {"model": "acme-embed-64d", "source": "openai-compatible API",
                           "api_url": "https://api.example.com/v1", "api_model": "acme-embed",
                           "query_prefix": "query: ", "passage_prefix": "passage: ",
                           "dimensions": 64, "created": "2026-01-01"},
                          base.query_sha, base.corpus_sha)
    to_npz(tmp_path / "acme.npz", served)
    ident = system_identity(bench, str(tmp_path / "acme.npz"))
    assert ident["kind"] == "served embeddings"
    assert (ident["api_url"], ident["api_model"], ident["dimensions"]) == \
        ("https://api.example.com/v1", "acme-embed", 64)
    assert (ident["query_prefix"], ident["passage_prefix"]) == ("query: ", "passage: ")
    assert "created" not in ident
    run = tmp_path / "mine.trec"
    run.write_text("q_0001 Q0 c_0001 1 2.0 mine\n")
    assert system_identity(bench, str(run)) == {
        "kind": "trec run", "file": "mine.trec",
        "sha256": hashlib.sha256(run.read_bytes()).hexdigest()}
    model = tmp_path / "model"
    (model / "sub").mkdir(parents=True)
    (model / "config.json").write_text("{}")
    (model / "sub" / "w.bin").write_bytes(b"\0\1")
    first = system_identity(bench, str(model))
    assert first["kind"] == "local model folder"
    assert first["files_sha256"] == folder_sha256(model)
    (model / "sub" / "w.bin").write_bytes(b"\0\2")
    assert folder_sha256(model) != first["files_sha256"]


def test_diff_of_two_tie_policies_names_the_setting_and_lists_the_flips(
        run_cli, reports: dict[str, Path], tmp_path: Path) -> None:
    code, out, err = run_cli("diff", reports["expected"], reports["pessimistic"], "--json")
    assert code == 0, err
    diff = json.loads(out)
    keys = {s["key"]: s for s in diff["settings"]}
    assert keys["measurement.ties"]["a"] == "expected"
    assert keys["measurement.ties"]["b"] == "pessimistic"
    assert set(keys) <= {"measurement.ties", "command"}   # nothing else changed
    a, b = _json(reports["expected"]), _json(reports["pessimistic"])
    for name in ("bm25", "tfidf"):
        m = diff["systems"][name]["exec@1"]
        assert m["a"] == a["models"][name]["metrics"]["exec@1"]["mean"]
        assert m["diff"] == pytest.approx(m["b"] - m["a"])
        xa = a["per_query"]["models"][name]["metrics"]["exec@1"]
        xb = b["per_query"]["models"][name]["metrics"]["exec@1"]
        assert m["p_value"] == sign_flip_test(xb, xa)[0]
    # every query whose exec@1 moved is listed, with both runs' rank-1 candidates
    expected_flips = {(name, q) for name in ("bm25", "tfidf")
                      for q, x, y in zip(a["per_query"]["query_ids"],
                                         a["per_query"]["models"][name]["metrics"]["exec@1"],
                                         b["per_query"]["models"][name]["metrics"]["exec@1"],
                                         strict=True) if x != y}
    assert expected_flips
    assert {(f["system"], f["query_id"]) for f in diff["flips"]} >= expected_flips
    for f in diff["flips"]:
        assert set(f["a"]) >= {"exec@1", "rank1"} and f["b"]["outcome"] in (
            "correct", "own mutant", "other query", "background", "wrong", "none")
    # the pessimistic run's rank 1 in a flipped tie is the failing snippet
    assert any(f["b"]["outcome"] == "own mutant" and f["b"]["exec@1"] == 0
               for f in diff["flips"])
    html = tmp_path / "d.html"
    assert run_cli("diff", reports["expected"], reports["pessimistic"], "--out", html)[0] == 0
    text = html.read_text()
    HTMLParser().feed(text)
    assert text.count("<details") == len(diff["flips"])
    assert "measurement.ties" in text and "def " in text   # the snippets are shown
    md = tmp_path / "d.md"
    assert run_cli("diff", reports["expected"], reports["pessimistic"], "--out", md)[0] == 0
    assert "| measurement.ties | expected | pessimistic |" in md.read_text()


def test_diff_over_different_queries_tests_nothing_and_says_so(
        run_cli, reports: dict[str, Path]) -> None:
    code, out, _ = run_cli("diff", reports["bm25"], reports["excluded"], "--json")
    assert code == 0
    diff = json.loads(out)
    assert any("different queries" in n for n in diff["notes"])
    assert all(m["p_value"] is None for m in diff["systems"]["bm25"].values())
    assert any(s["key"] == "measurement.excluded_queries" for s in diff["settings"])


def test_leaderboard_of_separate_reports_equals_one_report_of_all(
        run_cli, reports: dict[str, Path], tmp_path: Path) -> None:
    board = tmp_path / "board.json"
    code, out, err = run_cli("leaderboard", reports["bm25"], reports["tfidf"], "--out", board)
    assert code == 0, err
    combined = _json(board)
    together = _json(reports["expected"])
    shown = {s["metric"] for s in combined["leaderboard"]}
    assert shown == {"exec@1", "exec@3", "exec@5", "exec@10"}
    want = [s for s in together["leaderboard"] if s["metric"] in shown]
    _same_rows(combined["leaderboard"], want)
    # and both equal the engine run directly on the per-query figures
    per = {n: {m: np.array(v) for m, v in e["metrics"].items()}
           for n, e in together["per_query"]["models"].items()}
    pairs = pairwise(per, ["exec@1"], n_boot=300)
    direct = [s.to_dict() for s in leaderboard(per, ["exec@1"], pairs, n_boot=300)]
    _same_rows([s for s in combined["leaderboard"] if s["metric"] == "exec@1"], direct)
    assert "tier 1" in out
    for suffix in (".md", ".html", ".tex"):
        path = tmp_path / f"board{suffix}"
        assert run_cli("leaderboard", reports["bm25"], reports["tfidf"], "--out", path)[0] == 0
        assert "tfidf" in path.read_text()
    if shutil.which("pdflatex"):
        assert r"\toprule" in (tmp_path / "board.tex").read_text()


@pytest.mark.parametrize(("other", "message"), [
    ("pessimistic", "tie policy 'pessimistic' differs"),
    ("excluded", "measured queries 3 queries differs"),
])
def test_leaderboard_refuses_reports_measured_differently(run_cli, reports: dict[str, Path],
                                                          other: str, message: str,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "b.md"
    code, _, err = run_cli("leaderboard", reports["bm25"], reports[other], "--out", out)
    assert code == 2 and message in err and str(reports[other]) in err
    assert not out.exists()


def test_leaderboard_refuses_another_benchmark(run_cli, reports: dict[str, Path],
                                               tmp_path: Path) -> None:
    data = _json(reports["tfidf"])
    data["benchmark"]["fingerprint"] = "0" * 64
    other = tmp_path / "other.json"
    other.write_text(json.dumps(data))
    code, _, err = run_cli("leaderboard", reports["bm25"], other)
    assert code == 2 and "benchmark fingerprint" in err


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "not JSON"),
    ('{"a": 1}', "not an execretrieval report"),
    ('{"benchmark": {}, "models": {}}', "older version"),
])
def test_bad_report_files_are_named(run_cli, tmp_path: Path, reports: dict[str, Path],
                                    content: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    code, _, err = run_cli("diff", reports["bm25"], bad)
    assert code == 2 and message in err and "bad.json" in err


def test_markdown_and_html_reports_show_the_leaderboard_and_matrix(
        reports: dict[str, Path], tmp_path: Path) -> None:
    from execretrieval.report.nway import nway_html, nway_markdown

    data = _json(reports["expected"])
    md = "\n".join(nway_markdown(data))
    assert "## Leaderboard" in md and "## Significance matrix" in md
    for s in data["leaderboard"]:
        if s["metric"] == "exec@1":
            interval = (str(s["rank_low"]) if s["rank_low"] == s["rank_high"]
                        else f"{s['rank_low']}–{s['rank_high']}")
            assert f"| {s['tier']} | {s['system']} | {s['mean']:.3f} [" in md
            assert f"| {s['rank']} | {interval} |" in md
    pair = next(p for p in data["pairs"] if p["metric"] == "exec@1")
    assert f"{pair['diff']:+.3f}" in md and f"{-pair['diff']:+.3f}" in md
    html = "\n".join(nway_html(data))
    HTMLParser().feed(html)
    assert html.count('data-table="leaderboard"') == 4     # exec@1, 3, 5, 10
    assert html.count('data-table="significance"') == 4
    # one system: no N-way sections
    assert nway_markdown(_json(reports["bm25"])) == []
