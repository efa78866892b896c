"""The N-way sections of reports: leaderboard (rank intervals, tiers) and significance matrix.

Both read the report JSON (``pairs`` and ``leaderboard``), so that the evaluation report and
``execretrieval leaderboard`` over several reports print the same tables. A matrix cell is
the row system minus the column system: the mean difference and the corrected p-value, with
a mark where the corrected test rejects at 0.05 (``▲`` row above, ``▼`` row below).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from .tables import fmt_cell

__all__ = ["ALPHA", "leaderboard_table", "matrix_table", "nway_html", "nway_markdown",
           "p_text", "shown_metrics", "test_sentence"]

ALPHA = 0.05
TEST_SENTENCES = {
    "mcnemar_exact": "exact McNemar",
    "sign_flip_exact": "exact sign-flip",
    "sign_flip_monte_carlo": "sign-flip (Monte Carlo, 100,000 patterns)",
}


def p_text(p: float | None) -> str:
    """"p=0.042", "p<0.001", or "p=–" for a missing value."""
    if p is None or p != p:
        return "p=–"
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


def shown_metrics(data: Mapping[str, Any]) -> list[str]:
    """The metrics the N-way tables show: every exec@k of the leaderboard (all of its
    metrics when it has no exec@k)."""
    metrics = list(dict.fromkeys(s["metric"] for s in data.get("leaderboard") or ()))
    execs = [m for m in metrics if m.startswith("exec@")]
    return execs or metrics


def test_sentence(pairs: Sequence[Mapping[str, Any]], correction: str | None) -> str:
    """"exact McNemar / exact sign-flip, Holm-corrected over each metric's 3 pairs"."""
    tests = sorted({p.get("test", "") for p in pairs})
    names = " / ".join(TEST_SENTENCES.get(t, t) for t in tests if t) or "paired"
    family = len({(p["a"], p["b"]) for p in pairs})
    how = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg"}.get(
        correction or "", None)
    corrected = (f"{how}-corrected over each metric's {family} pairs" if how
                 else "p-values not corrected for multiple comparisons")
    return f"{names} tests on per-query figures, {corrected}"


def leaderboard_table(board: Sequence[Mapping[str, Any]], metric: str
                      ) -> tuple[list[str], list[list[str]]]:
    """Header and rows (best first) of one metric's leaderboard."""
    header = ["tier", "system", f"{metric} [95% CI]", "rank", "rank 95% interval"]
    rows = []
    for s in board:
        if s["metric"] != metric:
            continue
        interval = (str(s["rank_low"]) if s["rank_low"] == s["rank_high"]
                    else f"{s['rank_low']}–{s['rank_high']}")
        rows.append([str(s["tier"]), str(s["system"]),
                     f"{fmt_cell(s['mean'])} [{fmt_cell(s['ci_low'])}, "
                     f"{fmt_cell(s['ci_high'])}]", str(s.get("rank", "")), interval])
    return header, rows


def _oriented(pairs: Sequence[Mapping[str, Any]], metric: str
              ) -> dict[tuple[str, str], tuple[float, float]]:
    """(row, column) -> (row - column difference, corrected p-value)."""
    out = {}
    for p in pairs:
        if p["metric"] != metric:
            continue
        diff = p["diff"] if p["diff"] is not None else float("nan")
        p_adj = p["p_adjusted"] if p["p_adjusted"] is not None else float("nan")
        out[(p["a"], p["b"])] = (diff, p_adj)
        out[(p["b"], p["a"])] = (-diff, p_adj)
    return out


def matrix_table(pairs: Sequence[Mapping[str, Any]], systems: Sequence[str], metric: str
                 ) -> tuple[list[str], list[list[tuple[str, int]]]]:
    """Header and rows of the significance matrix; each cell is (text, sign): sign +1 where
    the row is significantly above the column after correction, -1 below, 0 otherwise."""
    cells = _oriented(pairs, metric)
    rows = []
    for row in systems:
        line: list[tuple[str, int]] = [(row, 0)]
        for col in systems:
            if row == col or (row, col) not in cells:
                line.append(("·", 0))
                continue
            diff, p_adj = cells[(row, col)]
            sign = 0
            if p_adj < ALPHA and diff != 0:
                sign = 1 if diff > 0 else -1
            mark = {1: " ▲", -1: " ▼", 0: ""}[sign]
            line.append((f"{diff:+.3f} ({p_text(p_adj)}){mark}", sign))
        rows.append(line)
    return [f"{metric}: row − column", *systems], rows


def _systems(data: Mapping[str, Any], metric: str) -> list[str]:
    """Systems best first on ``metric``."""
    return [s["system"] for s in data.get("leaderboard") or () if s["metric"] == metric]


def _shown(data: Mapping[str, Any]) -> tuple[list[Any], list[Any], Any]:
    """The leaderboard, the pairs on the metrics shown, and the correction they used."""
    shown = shown_metrics(data)
    return (list(data.get("leaderboard") or []),
            [p for p in data.get("pairs") or [] if p["metric"] in shown],
            (data.get("settings") or {}).get("correction"))


def nway_markdown(data: Mapping[str, Any]) -> list[str]:
    """The leaderboard and significance-matrix sections, or [] with fewer than two systems."""
    board, pairs, correction = _shown(data)
    if not board:
        return []
    lines = ["", "## Leaderboard", "",
             "Rank intervals are the 2.5% and 97.5% quantiles of each system's rank over the "
             "bootstrap replicates (the ones the intervals use); a tier is the best remaining "
             "system and every system not significantly below it "
             f"({test_sentence(pairs, correction)}, α = {ALPHA}).", ""]
    for metric in shown_metrics(data):
        header, rows = leaderboard_table(board, metric)
        lines += [f"### {metric}", "", "| " + " | ".join(header) + " |",
                  "|---|" + "---|" * (len(header) - 1)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        lines.append("")
    lines += ["## Significance matrix", "",
              "Row minus column: mean difference and corrected p-value; ▲ the row is "
              "significantly above the column, ▼ below.", ""]
    for metric in shown_metrics(data):
        header, mrows = matrix_table(pairs, _systems(data, metric), metric)
        lines += ["| " + " | ".join(header) + " |", "|---|" + "---|" * (len(header) - 1)]
        lines += ["| " + " | ".join(text for text, _ in r) + " |" for r in mrows]
        lines.append("")
    return lines


def _html_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def nway_html(data: Mapping[str, Any]) -> list[str]:
    """The leaderboard and significance-matrix sections as HTML, or []."""
    board, pairs, correction = _shown(data)
    if not board:
        return []
    out = ["<h2>Leaderboard</h2>",
           "<p>Rank intervals are the 2.5% and 97.5% quantiles of each system's rank over "
           "the bootstrap replicates (the ones the intervals use); a tier is the best "
           "remaining system and every system not significantly below it "
           f"({escape(test_sentence(pairs, correction))}, α = {ALPHA}).</p>"]
    for metric in shown_metrics(data):
        header, rows = leaderboard_table(board, metric)
        out += [f"<h3>{escape(metric)}</h3>",
                f'<div data-table="leaderboard" data-metric="{escape(metric)}">'
                + _html_table(header, [[escape(c) for c in r] for r in rows]) + "</div>"]
    out += ["<h2>Significance matrix</h2>",
            "<p>Row minus column: mean difference and corrected p-value; "
            '<span style="background:#d8f0d8">▲</span> the row is significantly above the '
            'column, <span style="background:#f6d8d8">▼</span> below.</p>']
    colours = {1: ' style="background:#d8f0d8"', -1: ' style="background:#f6d8d8"', 0: ""}
    for metric in shown_metrics(data):
        header, mrows = matrix_table(pairs, _systems(data, metric), metric)
        head = "".join(f"<th>{escape(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td{colours[sign]}>{escape(text)}</td>"
                                        for text, sign in r) + "</tr>" for r in mrows)
        out.append(f'<table data-table="significance" data-metric="{escape(metric)}">'
                   f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    return out
