"""The self-contained HTML report: tables plus inline SVG charts, no script, no downloads.

Charts (each an ``<svg class="chart" data-chart="...">``): ``exec-at-k`` (exec@k per model
with 95% CI whiskers), ``exec1-by-domain``, ``deception-by-bug-type`` (under the tie
policy), ``deception-by-bug-type-strict`` and ``-tied`` (the two classes),
``density-ablation`` (exec@1 against the number of paired mutants kept),
``quality-vs-cost`` (with pipelines or a split: exec@1 with its CI against executions or
requests per query, an arrow from each base to its pipelines) and, with a background
pool, ``pool-scaling`` (exec@k, deception and background at rank 1 against the
pool size).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from .annotations import annotations_html
from .drilldown import DRILL_CSS, Outcomes, Results, drilldown_html, slices_html
from .nway import nway_html
from .pipelines import cost_points, cost_table
from .tables import blind_table, tie_table

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from .evaluation import EvaluationReport

__all__ = ["report_html"]

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")
CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2em auto;
max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:3px 8px;
text-align:right}th:first-child,td:first-child{text-align:left}th{background:#f5f5f5}
code,pre{background:#f5f5f5;padding:1px 4px;border-radius:3px}pre{padding:8px;overflow:auto}
.chart{display:block;margin:1em 0}.legend span{margin-right:1.2em}
.sw{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}
"""



def _frame(chart: str, title: str, width: int, height: int, left: int, top: int,
           plot_h: int, *, right: int) -> list[str]:
    """The opening of a chart: the <svg> element, its title and the 0..1 grid lines."""
    parts = [f'<svg class="chart" data-chart="{chart}" xmlns="http://www.w3.org/2000/svg" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(title)}">',
             f'<text x="{left}" y="18" font-size="14" font-weight="bold">{escape(title)}'
             "</text>"]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = top + plot_h * (1 - tick)
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" '
                     f'stroke="#e5e5e5"/><text x="{left - 6}" y="{y + 4:.1f}" font-size="11" '
                     f'text-anchor="end">{tick:.2f}</text>')
    return parts

def _num(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    return f"{value:.{digits}f}" if isinstance(value, float) else escape(str(value))


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def _legend(names: Sequence[str]) -> str:
    items = "".join(f'<span><i class="sw" style="background:{PALETTE[i % len(PALETTE)]}">'
                    f"</i>{escape(n)}</span>" for i, n in enumerate(names))
    return f'<div class="legend">{items}</div>'


def grouped_bars(chart: str, title: str, categories: Sequence[str],
                 series: Mapping[str, Sequence[Any]],
                 errors: Mapping[str, Sequence[tuple[Any, Any]]] | None = None) -> str:
    """Vertical grouped bars on a 0..1 axis; one group per category, one bar per series."""
    width, height, left, bottom, top = 900, 320, 50, 90, 30
    plot_w, plot_h = width - left - 10, height - bottom - top
    n_series = max(1, len(series))
    group_w = plot_w / max(1, len(categories))
    bar_w = max(2.0, group_w * 0.8 / n_series)
    parts = _frame(chart, title, width, height, left, top, plot_h, right=10)
    for c, category in enumerate(categories):
        x0 = left + c * group_w + group_w * 0.1
        for s, (name, values) in enumerate(series.items()):
            value = values[c]
            if not _finite(value):
                continue
            colour = PALETTE[s % len(PALETTE)]
            x = x0 + s * bar_w
            h = max(1.0, plot_h * max(0.0, min(1.0, float(value))))  # a 0 stays visible
            parts.append(f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bar_w - 1:.1f}"'
                         f' height="{h:.1f}" fill="{colour}"><title>{escape(name)} '
                         f"{escape(category)}: {float(value):.3f}</title></rect>")
            if errors and name in errors:
                lo, hi = errors[name][c]
                if _finite(lo) and _finite(hi):
                    cx = x + (bar_w - 1) / 2
                    y_lo = top + plot_h * (1 - float(lo))
                    y_hi = top + plot_h * (1 - float(hi))
                    parts.append(f'<line class="ci" x1="{cx:.1f}" x2="{cx:.1f}" '
                                 f'y1="{y_lo:.1f}" y2="{y_hi:.1f}" stroke="#000"/>'
                                 f'<line x1="{cx - 3:.1f}" x2="{cx + 3:.1f}" y1="{y_lo:.1f}" '
                                 f'y2="{y_lo:.1f}" stroke="#000"/><line x1="{cx - 3:.1f}" '
                                 f'x2="{cx + 3:.1f}" y1="{y_hi:.1f}" y2="{y_hi:.1f}" '
                                 f'stroke="#000"/>')
        label_x = left + c * group_w + group_w / 2
        parts.append(f'<text x="{label_x:.1f}" y="{top + plot_h + 16}" font-size="11" '
                     f'text-anchor="end" transform="rotate(-30 {label_x:.1f} '
                     f'{top + plot_h + 16})">{escape(category)}</text>')
    parts.append("</svg>")
    return "".join(parts) + _legend(list(series))


def lines_chart(chart: str, title: str, xs: Sequence[str],
                series: Mapping[str, Sequence[Any]], x_label: str = "") -> str:
    """Lines with dots on a 0..1 axis, x positions evenly spaced."""
    width, height, left, bottom, top = 600, 280, 50, 40, 30
    plot_w, plot_h = width - left - 20, height - bottom - top
    step = plot_w / max(1, len(xs) - 1)
    parts = _frame(chart, title, width, height, left, top, plot_h, right=20)
    for i, x in enumerate(xs):
        parts.append(f'<text x="{left + i * step:.1f}" y="{top + plot_h + 16}" font-size="11"'
                     f' text-anchor="middle">{escape(x)}</text>')
    if x_label:
        parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" font-size="11" '
                     f'text-anchor="middle">{escape(x_label)}</text>')
    for s, (_name, values) in enumerate(series.items()):
        colour = PALETTE[s % len(PALETTE)]
        points = [(left + i * step, top + plot_h * (1 - float(v)))
                  for i, v in enumerate(values) if _finite(v)]
        if len(points) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                         'stroke-width="2"/>')
        for px, py in points:
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts) + _legend(list(series))


def cost_chart(points: Sequence[Mapping[str, Any]], metric: str = "exec@1") -> str:
    """exec@1 (0..1, CI whiskers) against executions or requests per query: one labelled
    dot per system, an arrow from a base to each of its pipelines."""
    width, height, left, bottom, top, right = 900, 360, 50, 46, 30, 230
    plot_w, plot_h = width - left - right, height - bottom - top
    shown = [p for p in points if _finite(p.get("mean"))]
    high = max([float(p["cost"]) for p in shown] + [1.0])
    # a round step (1, 2 or 5 times a power of ten) giving at most six intervals
    power = 10 ** math.floor(math.log10(high))
    step = next(power * m for m in (0.2, 0.5, 1, 2, 5) if high / (power * m) <= 6)
    high = math.ceil(high / step) * step
    parts = _frame("quality-vs-cost", f"{metric} on held-out tests vs cost", width, height,
                   left, top, plot_h, right=right)
    parts.append('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" '
                 'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
                 '<path d="M0,0 L10,5 L0,10 z" fill="#888"/></marker></defs>')
    for i in range(int(round(high / step)) + 1):
        x = left + plot_w * i * step / high
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + plot_h}" '
                     f'stroke="#f0f0f0"/><text x="{x:.1f}" y="{top + plot_h + 16}" '
                     f'font-size="11" text-anchor="middle">{i * step:g}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 6}" font-size="11" '
                 'text-anchor="middle">stage executions (or requests) per query</text>')

    def at(p: Mapping[str, Any], key: str = "mean") -> tuple[float, float]:
        return (left + plot_w * float(p["cost"]) / high,
                top + plot_h * (1 - max(0.0, min(1.0, float(p[key])))))

    by_name = {p["name"]: p for p in shown}
    for p in shown:
        base = by_name.get(p.get("base") or "")
        if base is not None:
            (x0, y0), (x1, y1) = at(base), at(p)
            parts.append(f'<line class="moved" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" '
                         f'y2="{y1:.1f}" stroke="#888" stroke-dasharray="4 3" '
                         'marker-end="url(#arrow)"/>')
    for i, p in enumerate(shown):
        colour = PALETTE[i % len(PALETTE)]
        x, y = at(p)
        if _finite(p.get("ci_low")) and _finite(p.get("ci_high")):
            _, lo = at(p, "ci_low")
            _, hi = at(p, "ci_high")
            parts.append(f'<line class="ci" x1="{x:.1f}" x2="{x:.1f}" y1="{lo:.1f}" '
                         f'y2="{hi:.1f}" stroke="{colour}"/>')
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{colour}"><title>'
                     f'{escape(p["name"])}: {metric} {float(p["mean"]):.3f}, '
                     f'{float(p["cost"]):.1f} per query</title></circle>')
        parts.append(f'<text x="{width - right + 12}" y="{top + 14 + 16 * i}" font-size="11">'
                     f'<tspan fill="{colour}">●</tspan> {escape(p["name"])} '
                     f'{float(p["mean"]):.3f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pool_scaling_html(points: list[dict[str, Any]]) -> list[str]:
    """The pool-scaling section: exec@1 / exec@k / deception vs pool size, chart and table."""
    if not points:
        return []
    ks = [k for k in points[0] if k.startswith("exec@") and "_ci_" not in k]
    top = next(k for k in points[0] if k.startswith("top") and k.endswith("_background"))
    sizes = sorted({p["pool_size"] for p in points})
    models = list(dict.fromkeys(p["model"] for p in points))
    at = {(p["model"], p["pool_size"]): p for p in points}
    shown = [k for k in ("exec@1", ks[-1]) if k in ks]
    series = {f"{m} {k}": [at[(m, n)][k] if (m, n) in at else None for n in sizes]
              for m in models for k in dict.fromkeys(shown)}
    for m in models:
        for key, label in (("deception_rate", "deception"),
                           ("rank1_background", "rank 1 is background")):
            series[f"{m} {label}"] = [at[(m, n)][key] if (m, n) in at else None
                                      for n in sizes]
    rows = [[escape(p["model"]), str(p["pool_size"]), str(p["corpus_size"]),
             *(f"{_num(p[k])} <small>[{_num(p[k + '_ci_low'])}, {_num(p[k + '_ci_high'])}]"
               "</small>" for k in ks),
             _num(p["deception_rate"]), _num(p["rank1_background"]), _num(p[top])]
            for p in points]
    return ["<h2>Pool scaling</h2>",
            "<p>The benchmark inside a corpus of real, unrelated functions: seeded, nested "
            "subsets of the background pool join the corpus; background functions in the "
            "top k are executed like every other candidate.</p>",
            lines_chart("pool-scaling", "exec@k, deception and background at rank 1 vs pool size",
                        [str(n) for n in sizes], series, "background functions in the corpus"),
            _table(["model", "pool size", "corpus", *ks, "deception rate",
                    "rank-1 background", top.replace("_", " ")], rows)]


def report_html(report: EvaluationReport, benchmark: Benchmark | None = None,
                outcomes: Outcomes | None = None,
                flags: Mapping[str, Sequence[str]] | None = None,
                slices: Mapping[str, tuple[str, Sequence[str]]] | None = None,
                results: Results | None = None) -> str:
    """One HTML page: summary, metric tables with intervals, ties, charts, environment;
    the saved ``slices`` (name -> (filter, query ids)) measured; with the ``benchmark``,
    a collapsible section per query (see :mod:`.drilldown`)."""
    data = report.to_dict()
    b, models = data["benchmark"], data["models"]
    names = list(models)
    out = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
           f"<title>ExecRetrieval report: {escape(b['name'])}</title>",
           f"<style>{CSS}{DRILL_CSS if benchmark is not None else ''}</style></head><body>",
           f"<h1>ExecRetrieval report: {escape(b['name'])}</h1>",
           f"<p>{b['queries']} queries, {b['snippets']} snippets; benchmark fingerprint "
           f"<code>{escape(b['fingerprint'][:16])}…</code>; seed {report.seed}; "
           f"{escape(str(report.settings.get('bootstrap', '?')))} bootstrap replicates "
           "(95% percentile intervals over queries).</p>",
           f"<p>Command: <code>{escape(report.command)}</code></p>",
           f"<p>Ties: <code>{escape(str(report.settings.get('ties', 'expected')))}</code> — "
           f"{escape(str(report.settings.get('ties_note', '')))}.</p>"]
    if report.exclusion_note():
        out.append(f"<p><strong>{escape(report.exclusion_note())}</strong></p>")
    if report.pool_note():
        out.append(f"<p>{escape(report.pool_note())}</p>")
    if models:
        first = models[names[0]]
        metric_keys = list(first["metrics"])
        rows = [[escape(n)] + [f"{_num(m['metrics'][k]['mean'])} "
                               f"<small>[{_num(m['metrics'][k]['ci_low'])}, "
                               f"{_num(m['metrics'][k]['ci_high'])}]</small>"
                               for k in metric_keys] for n, m in models.items()]
        out += ["<h2>Metrics</h2>", _table(["model", *metric_keys], rows)]
        ks = [k.split("@")[1] for k in metric_keys if k.startswith("exec@")]
        out.append(grouped_bars(
            "exec-at-k", "exec@k with 95% CI", [f"exec@{k}" for k in ks],
            {n: [m["metrics"][f"exec@{k}"]["mean"] for k in ks] for n, m in models.items()},
            {n: [(m["metrics"][f"exec@{k}"]["ci_low"], m["metrics"][f"exec@{k}"]["ci_high"])
                 for k in ks] for n, m in models.items()}))
        header, tie_rows = tie_table(models)
        out += ["<h2>Ties</h2>",
                "<p>Queries with a tie across the top-k cut, and the range of exec@k from "
                "ties broken against correct code (pessimistic) to ties broken for it "
                "(optimistic).</p>",
                _table(header, [[escape(c) for c in row] for row in tie_rows])]
        header, blind_rows = blind_table(models)
        if blind_rows:
            out += ["<h2>Blind spots</h2>",
                    "<p>Paired mutants the model cannot tell from their canonical: the edit "
                    "lies past its input window (the truncated inputs are identical), the "
                    "stored vectors are bit-identical, or every query scores them alike "
                    "(– : not applicable or not checkable).</p>",
                    _table(header, [[escape(c) for c in row] for row in blind_rows])]
        rows = [[escape(n), str(m["queries"]), _num(m["deception_rate"]),
                 _num(m.get("deception_strict")), _num(m.get("deception_tied")),
                 _num(m["rank1_paired_miss_share"])] for n, m in models.items()]
        out += ["<h2>Deception</h2>",
                _table(["model", "queries", "deception rate", "strict",
                        "tied with the canonical",
                        "rank-1 misses that are the query's own mutant"], rows)]
        for chart, title, key in (
                ("exec1-by-domain", "exec@1 by domain", "exec1_by_domain"),
                ("deception-by-bug-type", "Share of paired mutants ranked above their "
                 "canonical, by bug type (a tie counts by the tie policy)",
                 "deception_by_bug_type"),
                ("deception-by-bug-type-strict", "Share of paired mutants scoring strictly "
                 "above their canonical, by bug type", "deception_by_bug_type_strict"),
                ("deception-by-bug-type-tied", "Share of paired mutants tied with their "
                 "canonical, by bug type", "deception_by_bug_type_tied")):
            cats = sorted({c for m in models.values() for c in m.get(key, {})})
            values = {n: [m.get(key, {}).get(c) for c in cats] for n, m in models.items()}
            out += [f"<h2>{escape(title)}</h2>", grouped_bars(chart, title, cats, values),
                    _table(["model", *cats],
                           [[escape(n), *(_num(v) for v in vs)] for n, vs in values.items()])]
        xs = sorted({x for m in models.values() for x in m["density_ablation"]}, key=int)
        values = {n: [m["density_ablation"].get(x) for x in xs] for n, m in models.items()}
        out += ["<h2>Density ablation</h2>",
                "<p>exec@1 when only m of each query's paired mutants stay in its pool "
                "(exact mean over all subsets of kept mutants; no random draw).</p>",
                lines_chart("density-ablation", "exec@1 vs paired mutants kept", xs, values,
                            "paired mutants kept in each query's pool"),
                _table(["model", *xs],
                       [[escape(n), *(_num(v) for v in vs)] for n, vs in values.items()])]
    if data["comparisons"]:
        rows = [[escape(c["metric"]), escape(c["a"]), escape(c["b"]), _num(c["a_mean"]),
                 _num(c["b_mean"]), str(c["a_only"]), str(c["b_only"]),
                 _num(c["p_value"], 4),
                 f"{_num(c['diff'])} [{_num(c['ci_low'])}, {_num(c['ci_high'])}]"]
                for c in data["comparisons"]]
        out += ["<h2>Paired comparisons</h2>",
                _table(["metric", "a", "b", "a mean", "b mean", "a only", "b only",
                        "p (exact)", "diff [95% CI]"], rows)]
    table = cost_table(data)
    if table is not None:
        note, header, rows = table
        out += ["<h2>Quality and cost</h2>", f"<p>{escape(note)}</p>" if note else "",
                cost_chart(cost_points(data)),
                _table(header, [[escape(c) for c in row] for row in rows])]
    out += nway_html(data)
    out += _pool_scaling_html(data.get("pool_scaling") or [])
    if slices:
        out.append(slices_html(report.models, slices))
    if benchmark is not None:
        depth = int(report.settings.get("execution_depth", 10) or 10)
        out.append(drilldown_html(benchmark, report.models, depth, outcomes, flags,
                                  results=results))
    out += annotations_html(report.annotations)
    out += ["<h2>Run manifest</h2>",
            f"<pre>{escape(json.dumps(data['manifest'], indent=2))}</pre>",
            "<h2>Environment</h2>",
            f"<pre>{escape(json.dumps(data['environment'], indent=2))}</pre>",
            "</body></html>\n"]
    return "\n".join(out)
