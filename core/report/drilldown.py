"""The HTML report's per-query drill-down: one collapsible ``<details>`` section per query.

Each section (no script: the browser's own ``<details>`` folds it) holds the ranked
candidates of every model with their scores, roles and pass/fail, the canonical against the
best-ranked paired mutant as a line diff, the top-k × tests matrix when per-test outcomes are
at hand (``outcomes``: a lookup such as the oracle cache's, never an execution), the failing
tests of the listed candidates explained (``results``: the same kind of lookup, giving whole
suite results), and the query's flags. The summary line says what a reader scans for: the
canonical's rank under each model and whether a mutant outranks it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

import numpy as np

from ..measure.ties import rank_range
from .failures import failing_tests, role_of

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark, Query

__all__ = ["DRILL_CSS", "Outcomes", "Results", "cached_outcomes", "cached_results",
           "drilldown_html", "failures_html", "slices_html"]

# (code, tests) -> per-test statuses ('pass' | 'fail' | 'error' | 'timeout'), or None
Outcomes = Callable[[str, Sequence[str]], Sequence[str] | None]
# (code, tests) -> the suite's result (outcomes with their explanations), or None
Results = Callable[[str, Sequence[str]], Any]

_SYMBOL = {"pass": "✓", "fail": "✗", "error": "!", "timeout": "⏱"}
DRILL_CSS = """
details.q{border:1px solid #ddd;border-radius:4px;margin:.3em 0;padding:.2em .6em}
details.q summary{cursor:pointer}details.q[open]{background:#fcfcfc}
.pass{background:#dff0e0}.fail{background:#f8dede}.other{color:#777}
pre.diff{line-height:1.3}.del{background:#dbe9f7}.ins{background:#fde7c8}
td.m{text-align:center;padding:1px 4px}
ul.why{margin:.2em 0 .6em;padding-left:1.2em}ul.why li{margin:.15em 0}
ul.why code{white-space:pre-wrap}.why .st{font-weight:bold;color:#a33}
"""


def cached_outcomes(oracle: Any) -> Outcomes:
    """The per-test statuses an oracle's cache holds for a suite (None: not cached);
    never executes anything, so a report can be written after the measurement."""
    def lookup(code: str, tests: Sequence[str]) -> Sequence[str] | None:
        try:
            result = oracle.cached(code, tests)
        except Exception:  # noqa: BLE001 - a report must not fail for want of detail
            return None
        return None if result is None else [o.status for o in result.outcomes]
    return lookup


def cached_results(oracle: Any) -> Results:
    """The whole suite result an oracle's cache holds (None: not cached); never executes."""
    def lookup(code: str, tests: Sequence[str]) -> Any:
        try:
            return oracle.cached(code, tests)
        except Exception:  # noqa: BLE001 - a report must not fail for want of detail
            return None
    return lookup


def failures_html(bench: Benchmark, evs: Sequence[Any], qi: int, depth: int,
                  results: Results) -> str:
    """The failing tests, explained, of each model's rank-1 candidate and of the first
    model's listed candidates that belong to the query (its canonical and own mutants):
    test number (1-based), the test and what went wrong. Candidates of other queries fail
    for defining another function and are left out unless ranked first."""
    query = bench.queries[qi]
    tests = tuple(query.test_suite)
    picked: dict[int, list[str]] = {}
    for ev in evs:
        top = ev.ranking.top(qi, 1)
        if len(top):
            picked.setdefault(int(top[0]), []).append(
                f"rank {_rank_labels(ev.ranking, qi, top)[0]} under {escape(ev.model)}")
    if evs:
        top = evs[0].ranking.top(qi, depth)
        for r, (j, label) in enumerate(zip(top, _rank_labels(evs[0].ranking, qi, top),
                                           strict=True)):
            if r and bench.corpus[int(j)].query_id == query.query_id:
                picked.setdefault(int(j), []).append(
                    f"rank {label} under {escape(evs[0].model)}")
    items, unknown = [], 0
    for j, where in picked.items():
        snippet = bench.corpus[j]
        result = results(snippet.code, tests)
        if result is None:
            unknown += 1
            continue
        failing = failing_tests(result)
        if not failing:
            continue
        kind = role_of(query.query_id, snippet) + (
            f", {snippet.bug_type}" if snippet.bug_type else "")
        lines = "".join(
            f"<li>test {t['number']} <code>{escape(t['test'])}</code> — <span class=\"st\">"
            f"{escape(t['status'])}</span>: {escape(t['explanation'] or t['status'])}</li>"
            for t in failing)
        items.append(f"<li><code>{escape(snippet.corpus_id)}</code> ({escape(kind)}; "
                     f"{', '.join(where)}) fails {len(failing)} of {len(tests)}:"
                     f"<ul class=\"why\">{lines}</ul></li>")
    if not items and not unknown:
        return "<p class=\"other\">Failing tests: none among the candidates listed.</p>"
    note = f" ({unknown} not run, so not explained)" if unknown else ""
    return (f"<p>Failing tests explained{note}:</p>"
            f"<ul class=\"why\">{''.join(items)}</ul>")


def _role(query: Query, snippet: Any) -> str:
    """:func:`role_of`, with where a background snippet comes from and which query another
    query's snippet belongs to."""
    role = role_of(query.query_id, snippet)
    if role == "background":
        return f"background ({escape(str(snippet.extra.get('source', '')))})"
    if role == "other query":
        return f"other query ({escape(snippet.query_id)})"
    return role


def _rank_labels(ranking: Any, qi: int, corpus_indices: Any) -> list[str]:
    """Each snippet's rank: "3", or "≡ 10-13" for one tied with others (any of those ranks,
    equally likely: the table lists tied candidates in corpus order); "?" if not kept."""
    best, worst = rank_range(ranking, qi, corpus_indices)
    return [f'<span title="tied: any rank from {b} to {w}">≡ {b}-{w}</span>' if w > b
            else (str(b) if b else "?") for b, w in zip(best, worst, strict=True)]


def _candidates(bench: Benchmark, ev: Any, qi: int, depth: int) -> str:
    query = bench.queries[qi]
    rows = []
    top = ev.ranking.top(qi, depth)
    labels = _rank_labels(ev.ranking, qi, top)
    for r, j in enumerate(top):
        snippet = bench.corpus[int(j)]
        passed = ev.passes is not None and r < ev.passes.shape[1] and bool(ev.passes[qi, r])
        verdict = ("PASS" if passed else "FAIL") if ev.passes is not None else "–"
        rows.append(f"<tr><td>{labels[r]}</td>"
                    f"<td><code>{escape(snippet.corpus_id)}</code></td>"
                    f"<td>{_role(query, snippet)}</td><td>{escape(snippet.bug_type or '')}</td>"
                    f"<td>{float(ev.ranking.keys[qi, r]):.4f}</td>"
                    f"<td class=\"{'pass' if passed else 'fail'}\">{verdict}</td></tr>")
    return ("<table><thead><tr><th>rank</th><th>snippet</th><th>role</th><th>bug type</th>"
            "<th>score</th><th>tests</th></tr></thead><tbody>" + "".join(rows)
            + "</tbody></table>")


def _diff(canonical: Any, mutant: Any) -> str:
    """The canonical against a mutant, line by line: removed lines blue, added orange."""
    lines = []
    for line in difflib.unified_diff(canonical.code.splitlines(), mutant.code.splitlines(),
                                     lineterm="", n=2):
        if line.startswith(("---", "+++")):
            continue
        cls = {"-": "del", "+": "ins", "@": "other"}.get(line[:1], "")
        text = escape(line)
        lines.append(f'<span class="{cls}">{text}</span>' if cls else text)
    return (f"<p>canonical <code>{escape(canonical.corpus_id)}</code> against "
            f"<code>{escape(mutant.corpus_id)}</code> ({escape(mutant.bug_type or '')}: "
            f"{escape(mutant.bug_description or '')})</p>"
            f"<pre class=\"diff\">{chr(10).join(lines)}</pre>")


def _matrix(bench: Benchmark, ev: Any, qi: int, depth: int, outcomes: Outcomes) -> str:
    query = bench.queries[qi]
    tests = query.test_suite
    head = "".join(f"<th title=\"{escape(t)}\">t{i + 1}</th>" for i, t in enumerate(tests))
    rows = []
    for r, j in enumerate(ev.ranking.top(qi, depth)):
        snippet = bench.corpus[int(j)]
        statuses = outcomes(snippet.code, tests)
        cells = "".join(
            f'<td class="m {"pass" if s == "pass" else "fail"}" title="{escape(s)}">'
            f"{_SYMBOL.get(s, '?')}</td>" for s in statuses) if statuses else \
            f'<td colspan="{len(tests)}" class="other">not run</td>'
        rows.append(f"<tr><td>{r + 1} <code>{escape(snippet.corpus_id)}</code></td>{cells}</tr>")
    legend = "".join(f"<li>t{i + 1}: <code>{escape(t)}</code></li>" for i, t in enumerate(tests))
    return (f"<table><thead><tr><th>{escape(ev.model)} top-{depth}</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table><ol class=\"other\" style=\"list-style:"
            f"none;padding-left:0\">{legend}</ol>")


def drilldown_html(bench: Benchmark, evaluations: Mapping[str, Any], depth: int = 10,
                   outcomes: Outcomes | None = None,
                   flags: Mapping[str, Sequence[str]] | None = None,
                   results: Results | None = None) -> str:
    """One ``<details>`` per query measured (excluded queries left out), in benchmark
    order: ranked candidates per model, the diff, the tests matrix, the failing tests
    explained (with ``results``, see :func:`failures_html`) and the flags."""
    evs = [ev for ev in evaluations.values() if getattr(ev, "ranking", None) is not None]
    if not evs:
        return ""
    flags = flags or {}
    measured = set(evs[0].query_ids)
    out = ["<h2>Queries</h2><p>Each query opens to its ranked candidates, the canonical "
           "against its best-ranked paired mutant and, when known, every candidate's "
           "outcome on every test.</p>"]
    for qi, query in enumerate(bench.queries):
        if query.query_id not in measured:
            continue
        canon = bench.canonical_for(query.query_id)
        summary = []
        for ev in evs:
            best, worst = rank_range(ev.ranking, qi, [bench.corpus_index(canon.corpus_id)]) \
                if canon else ([0], [0])
            label = f"{best[0]}" if worst[0] <= best[0] else f"{best[0]}-{worst[0]} (tied)"
            mark = "✓" if worst[0] == 1 else ("≡" if best[0] == 1 else "✗")
            summary.append(f"{escape(ev.model)}: canonical at {label} {mark}")
        noted = flags.get(query.query_id, ())
        if noted:
            summary.append(f"⚑ {len(noted)}")
        parts = [f'<details class="q" id="{escape(query.query_id)}"><summary><b>'
                 f"{escape(query.function_name)}</b> ({escape(query.query_id)} · "
                 f"{escape(query.domain)}) — {' · '.join(summary)}</summary>",
                 f"<p>{escape(query.query)}</p>"]
        for ev in evs:
            parts += [f"<h4>{escape(ev.model)}</h4>", _candidates(bench, ev, qi, depth)]
        mutants = list(bench.distractors_for(query.query_id))
        if canon is not None and mutants:
            first = evs[0]
            ranks = first.ranking.lookup(np.full(len(mutants), qi),
                                         [bench.corpus_index(s.corpus_id) for s in mutants])
            unknown = np.iinfo(np.int64).max
            closest = mutants[int(np.argmin(np.where(ranks.found, ranks.rank, unknown)))]
            parts.append(_diff(canon, closest))
        if outcomes is not None:
            parts.append(_matrix(bench, evs[0], qi, depth, outcomes))
        if results is not None:
            parts.append(failures_html(bench, evs, qi, depth, results))
        if noted:
            parts.append("<p>Flags:</p><ul>" + "".join(f"<li>{escape(n)}</li>" for n in noted)
                         + "</ul>")
        parts.append("</details>")
        out.append("".join(parts))
    return "\n".join(out)


def slices_html(evaluations: Mapping[str, Any],
                slices: Mapping[str, tuple[str, Sequence[str]]]) -> str:
    """A table of every saved slice (name -> (description, query ids)) measured for every
    model: the mean of exec@1, exec@10 and nDCG@10 over the slice's measured queries."""
    if not slices or not evaluations:
        return ""
    metrics = ("exec@1", "exec@10", "ndcg@10")
    rows = []
    for name, (description, ids) in slices.items():
        for model, ev in evaluations.items():
            index = {q: i for i, q in enumerate(ev.query_ids)}
            picked = [index[q] for q in ids if q in index]
            cells = []
            for m in metrics:
                column = ev.per_query.get(m)
                mean = (sum(float(column[i]) for i in picked) / len(picked)
                        if picked and column is not None else None)
                cells.append("–" if mean is None else f"{mean:.3f}")
            rows.append(f"<tr><td>{escape(name)}</td><td>{escape(description)}</td>"
                        f"<td>{escape(model)}</td><td>{len(picked)}</td>"
                        + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("slice", "filter", "model", "queries",
                                              *(m.replace("ndcg", "nDCG") for m in metrics)))
    return ("<h2>Saved slices</h2><p>Means over each slice's measured queries (intervals "
            "are for all queries only).</p>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
