"""rrf and combsum against a brute-force reading of their definitions (ties, unkept
snippets) and, where ranx is installed, against ranx itself on tie-free runs."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import DATA
from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.pipeline import combsum_scores, rank_system, rrf_scores
from execretrieval.ranking.registry import get_retriever

BUILTIN = DATA / "builtin"


def _brute_kept_ranks(row: np.ndarray, depth: int) -> dict[int, float]:
    """Snippet -> mean rank of its tie group, for the snippets the row keeps."""
    out = {}
    for j, s in enumerate(row):
        if not np.isfinite(s):
            continue
        above = sum(1 for t in row if np.isfinite(t) and t > s)
        ties = sum(1 for t in row if t == s)
        if above < depth:
            out[j] = above + (ties + 1) / 2
    return out


def _brute_rrf(rows: list[np.ndarray], k: float, depth: int) -> np.ndarray:
    n = len(rows[0])
    total = [0.0] * n
    seen = [False] * n
    for row in rows:
        for j, r in _brute_kept_ranks(row, depth).items():
            total[j] += 1.0 / (k + r)
            seen[j] = True
    return np.array([t if s else -np.inf for t, s in zip(total, seen, strict=True)])


def _brute_combsum(rows: list[np.ndarray], depth: int) -> np.ndarray:
    n = len(rows[0])
    total = [0.0] * n
    seen = [False] * n
    for row in rows:
        kept = _brute_kept_ranks(row, depth)
        if not kept:
            continue
        values = [row[j] for j in kept]
        low, high = min(values), max(values)
        for j in kept:
            total[j] += (row[j] - low) / (high - low) if high > low else 0.0
            seen[j] = True
    return np.array([t if s else -np.inf for t, s in zip(total, seen, strict=True)])


def _random_rows(rng: np.random.Generator, n_models: int, n: int) -> list[np.ndarray]:
    rows = []
    for _ in range(n_models):
        row = rng.integers(0, 5, size=n).astype(float)   # few values: many ties
        row[rng.random(n) < 0.2] = -np.inf                 # not retrieved
        rows.append(row)
    return rows


@pytest.mark.parametrize("seed", range(40))
def test_rrf_and_combsum_match_the_definition_on_tied_truncated_runs(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_models, n, depth = int(rng.integers(2, 4)), int(rng.integers(3, 12)), int(rng.integers(1, 8))
    rows = _random_rows(rng, n_models, n)
    blocks = [r[None, :] for r in rows]
    np.testing.assert_allclose(rrf_scores(blocks, k=60, depth=depth)[0],
                               _brute_rrf(rows, 60, depth))
    np.testing.assert_allclose(combsum_scores(blocks, depth=depth)[0],
                               _brute_combsum(rows, depth))


def test_a_tied_group_shares_its_mean_rank_and_unkept_snippets_add_nothing() -> None:
    a = np.array([[3.0, 3.0, 1.0, -np.inf]])
    b = np.array([[-np.inf, 2.0, 1.0, -np.inf]])
    fused = rrf_scores([a, b], k=60, depth=2)[0]
    # a keeps both 3.0s (mean rank 1.5); 1.0 is past depth 2 in a but rank 2 in b
    assert fused[0] == pytest.approx(1 / 61.5)
    assert fused[1] == pytest.approx(1 / 61.5 + 1 / 61)
    assert fused[2] == pytest.approx(1 / 62)
    assert fused[3] == -np.inf   # kept by no model: not retrieved


def test_fusion_agrees_with_ranx_on_tie_free_runs() -> None:
    ranx = pytest.importorskip("ranx")
    rng = np.random.default_rng(7)
    for _ in range(5):
        rows = [rng.permutation(30).astype(float) + rng.random() for _ in range(3)]
        depth = 10
        runs = []
        for m, row in enumerate(rows):
            kept = np.argsort(-row)[:depth]
            runs.append(ranx.Run({"q": {f"d{j}": float(row[j]) for j in kept}}, name=f"r{m}"))
        blocks = [r[None, :] for r in rows]
        ours_rrf = rrf_scores(blocks, k=60, depth=depth)[0]
        ours_sum = combsum_scores(blocks, depth=depth)[0]
        theirs_rrf = ranx.fuse(runs, method="rrf", params={"k": 60}).to_dict()["q"]
        theirs_sum = ranx.fuse(runs, norm="min-max", method="sum").to_dict()["q"]
        assert {f"d{j}" for j in np.flatnonzero(np.isfinite(ours_rrf))} == set(theirs_rrf)
        for doc, score in theirs_rrf.items():
            assert ours_rrf[int(doc[1:])] == pytest.approx(score)
        for doc, score in theirs_sum.items():
            assert ours_sum[int(doc[1:])] == pytest.approx(score)


def test_a_fusion_pipeline_ranks_the_bundled_benchmark_as_its_members_say() -> None:
    benchmark = load_benchmark(BUILTIN)
    fused = rank_system(benchmark, "rrf:bm25,tfidf", keep=800)
    assert fused.model == "rrf:bm25,tfidf"
    members = [get_retriever(benchmark, m).score(benchmark) for m in ("bm25", "tfidf")]
    for q in (0, 17, 159):
        expected = _brute_rrf([m[q] for m in members], 60, 100)
        order = fused.order[q][fused.order[q] >= 0]
        np.testing.assert_allclose(fused.keys[q][:len(order)], expected[order])
        assert set(order) == set(np.flatnonzero(np.isfinite(expected)))
