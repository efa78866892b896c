"""BM25 at the paper's scale: 939 queries x 4,694 code-like snippets (synthetic).

Compares execretrieval's vectorised BM25Okapi against rank_bm25's BM25Okapi with a
get_scores loop over the queries, on the same tokens: the scores must be identical
(max |diff| <= 1e-9) and the target is at least 25x faster. Run: .venv/bin/python
bench/bench_bm25.py
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from execretrieval.ranking.bm25 import BM25, tokenize

N_QUERIES, N_SNIPPETS, SEED = 939, 4694, 0


def synthetic(seed: int = SEED) -> tuple[list[str], list[str]]:
    """Code-like snippets (functions over a Zipf-distributed identifier vocabulary) and
    prose-like queries that share part of that vocabulary."""
    rng = np.random.default_rng(seed)
    syllables = ["ba", "co", "di", "fe", "gu", "ka", "lo", "mi", "no", "pe", "qu", "ri", "sa",
                 "te", "vu", "xo", "ze", "st", "tr", "ch"]
    stems = sorted({"".join(rng.choice(syllables, size=int(rng.integers(2, 4))))
                    for _ in range(3000)})
    stems = ["count", "value", "index", "node", "left", "right", "total", *stems]
    pairs = rng.choice(len(stems), size=(6000, 2))
    vocab = [f"{stems[a]}_{stems[b]}" for a, b in pairs] + stems
    weights = 1.0 / np.arange(1, len(vocab) + 1) ** 0.9
    weights /= weights.sum()
    keywords = ["def", "return", "if", "else", "for", "in", "range", "while", "len", "and",
                "not", "or", "None", "True", "False"]
    snippets = []
    for _ in range(N_SNIPPETS):
        names = [vocab[i] for i in rng.choice(len(vocab), size=int(rng.integers(8, 40)),
                                                p=weights)]
        body = []
        for i, name in enumerate(names):
            kw = keywords[int(rng.integers(len(keywords)))]
            body.append(f"    {kw} {name} = {name}({i % 7}) + {names[i - 1]}")
        snippets.append(f"def {names[0]}({names[1]}, {names[-1]}):\n" + "\n".join(body))
    queries = []
    for _ in range(N_QUERIES):
        words = [vocab[i].replace("_", " ") for i in rng.choice(len(vocab),
                                                                size=int(rng.integers(5, 15)),
                                                                p=weights)]
        queries.append("Return the " + " of the ".join(words) + ".")
    return queries, snippets


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    queries, snippets = synthetic()
    t0 = time.perf_counter()
    doc_tokens = [tokenize(s) for s in snippets]
    query_tokens = [tokenize(q) for q in queries]
    t_tok = time.perf_counter() - t0

    t0 = time.perf_counter()
    index = BM25(doc_tokens)
    ours = index.scores(query_tokens)
    t_ours = time.perf_counter() - t0

    from rank_bm25 import BM25Okapi

    t0 = time.perf_counter()
    reference = BM25Okapi(doc_tokens)
    theirs = np.array([reference.get_scores(q) for q in query_tokens])
    t_ref = time.perf_counter() - t0

    diff = float(np.abs(ours - theirs).max())
    ratio = t_ref / t_ours
    print(f"BM25 {N_QUERIES} queries x {N_SNIPPETS} snippets "
          f"(vocabulary {index.vocabulary_size} terms, "
          f"{sum(map(len, doc_tokens)) / len(doc_tokens):.0f} tokens per snippet)")
    print(f"  tokenise (shared):        {t_tok:8.3f} s")
    print(f"  rank_bm25 get_scores loop: {t_ref:8.3f} s")
    print(f"  execretrieval BM25:        {t_ours:8.3f} s  (index + all scores)")
    print(f"  speed-up:                  {ratio:8.1f}x (target >= 25x)")
    print(f"  max |score difference|:    {diff:.3g} (must be <= 1e-9)")
    if diff > 1e-9:
        raise SystemExit("FAIL: scores differ from rank_bm25")
    if ratio < 25:
        print("  WARNING: below the 25x target on this machine")


if __name__ == "__main__":
    main()
