"""Small hand-made benchmarks for the ranking and measurement tests (no oracle needed)."""

from __future__ import annotations

from pathlib import Path

from execretrieval.benchmark.dataset import Benchmark, Query, Snippet, write_benchmark


def _q(qid: str, name: str, domain: str, text: str, correct: str) -> Query:
    return Query(qid, text, name, domain, (f"assert {name}(1) == 1",), (correct,))


def _s(cid: str, qid: str, code: str, bug: str | None = None) -> Snippet:
    return Snippet(cid, qid, "distractor" if bug else "canonical", bug,
                   f"{bug} edit" if bug else "", code)


def small_benchmark(path: Path | None = None) -> Benchmark:
    """Three queries, six snippets, corpus order::

        0 c1  q1 canonical          3 c2  q2 canonical
        1 d1a q1 off_by_one         4 d2a q2 swap_arguments
        2 d1b q1 wrong_operator     5 c3  q3 canonical (q3 has no distractors)
    """
    queries = [
        _q("q1", "low_bit", "bit-manipulation", "lowest set bit of an integer", "c1"),
        _q("q2", "days_between", "date-time", "days between two dates", "c2"),
        _q("q3", "popcount", "bit-manipulation", "count the set bits of an integer", "c3"),
    ]
    corpus = [
        _s("c1", "q1", "def low_bit(n):\n    return n & -n\n"),
        _s("d1a", "q1", "def low_bit(n):\n    return n & -n + 1\n", "off_by_one"),
        _s("d1b", "q1", "def low_bit(n):\n    return n | -n\n", "wrong_operator"),
        _s("c2", "q2", "def days_between(a, b):\n    return (b - a).days\n"),
        _s("d2a", "q2", "def days_between(a, b):\n    return (a - b).days\n", "swap_arguments"),
        _s("c3", "q3", "def popcount(n):\n    return bin(n).count('1')\n"),
    ]
    bench = Benchmark(queries, corpus, name="small", path=path)
    if path is not None:
        write_benchmark(bench, path)
    return bench


def code_like_texts(n: int, seed: int = 0, words: int = 40) -> list[str]:
    """Deterministic pseudo-code snippets with Zipf-ish identifier frequencies."""
    import numpy as np

    rng = np.random.default_rng(seed)
    vocab = [f"{a}_{b}" for a in ("get", "set", "is", "to", "max", "min", "sum", "len", "idx",
                                  "val", "key", "lst")
             for b in ("item", "count", "value", "node", "bits", "date", "text", "row")]
    vocab += ["def", "return", "if", "else", "for", "in", "range", "while", "not", "and"]
    weights = 1.0 / np.arange(1, len(vocab) + 1)
    weights /= weights.sum()
    texts = []
    for _ in range(n):
        count = int(rng.integers(words // 2, words * 2))
        picked = rng.choice(len(vocab), size=count, p=weights)
        texts.append(" ".join(vocab[i] + ("(x)" if i % 3 == 0 else "") for i in picked))
    return texts


class CanonicalOracle:
    """An in-memory oracle: a suite passes exactly when the code is a canonical snippet of
    the query whose tests it is run against. Records every job it is given."""

    def __init__(self, benchmark: Benchmark) -> None:
        self._passing = {(s.code, tuple(benchmark.query(s.query_id).test_suite))
                         for s in benchmark.corpus if s.is_canonical}
        self.jobs: list[tuple[str, tuple[str, ...]]] = []

    def run_many(self, jobs, progress=None, should_stop=None):
        from types import SimpleNamespace

        self.jobs.extend((code, tuple(tests)) for code, tests in jobs)
        if progress:
            progress(len(jobs), len(jobs))
        return [SimpleNamespace(passed=(code, tuple(tests)) in self._passing)
                for code, tests in jobs]

    def containment(self) -> dict[str, bool]:
        return {"fake": True}
