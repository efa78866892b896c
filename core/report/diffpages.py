"""``execretrieval diff`` as a file: Markdown, JSON, or self-contained HTML in which each
flipped query shows the rank-1 snippet of both runs and the diff between them."""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..fileio import atomic_write_text
from .html import CSS
from .nway import p_text
from .tables import fmt_cell

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["DIFF_FORMATS", "diff_html", "diff_markdown", "write_diff"]

DIFF_FORMATS = (".json", ".md", ".html")


def _value(value: Any) -> str:
    if isinstance(value, list | dict):
        return json.dumps(value)
    return fmt_cell(value) if isinstance(value, float) else str(value)


def _metric_rows(diff: Mapping[str, Any]) -> list[list[str]]:
    rows = []
    for name, metrics in diff["systems"].items():
        for metric, m in metrics.items():
            rows.append([name, metric, fmt_cell(m["a"]), fmt_cell(m["b"]),
                         "–" if m["diff"] is None else f"{m['diff']:+.3f}",
                         p_text(m["p_value"]) if m["p_value"] is not None else "not paired"])
    return rows


def diff_markdown(diff: Mapping[str, Any]) -> str:
    lines = ["# ExecRetrieval diff", "",
             f"- A: `{diff['a'].get('command')}`", f"- B: `{diff['b'].get('command')}`", ""]
    lines += [f"- note: {n}" for n in diff["notes"]]
    lines += ["", "## Settings that differ", ""]
    if diff["settings"]:
        lines += ["| setting | A | B |", "|---|---|---|"]
        lines += [f"| {s['key']} | {_value(s['a'])} | {_value(s['b'])} |"
                  for s in diff["settings"]]
    else:
        lines.append("None: both runs were measured the same way.")
    lines += ["", "## Metrics (B − A, paired test on per-query figures)", "",
              "| system | metric | A | B | B − A | p |", "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in _metric_rows(diff)]
    lines += ["", f"## Flips at rank 1 ({len(diff['flips'])})", ""]
    if diff["flips"]:
        lines += ["| system | query | A rank 1 | B rank 1 | change |", "|---|---|---|---|---|"]
        lines += [f"| {f['system']} | {f['query_id']} | {f['a']['rank1']} | "
                  f"{f['b']['rank1']} | {f['change']} |" for f in diff["flips"]]
    else:
        lines.append("No query changed its rank-1 outcome.")
    return "\n".join(lines) + "\n"


def _code(benchmark: Benchmark | None, corpus_id: str | None) -> str | None:
    if benchmark is None or corpus_id is None or not benchmark.has_snippet(corpus_id):
        return None
    return str(benchmark.corpus[benchmark.corpus_index(corpus_id)].code)


def _table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def diff_html(diff: Mapping[str, Any], benchmark: Benchmark | None = None) -> str:
    out = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<title>ExecRetrieval diff</title>",
           f"<style>{CSS}.del{{background:#fbe3e3}}.add{{background:#e3f6e3}}"
           ".pair{display:flex;gap:1em}.pair>div{flex:1;min-width:0}</style></head><body>",
           "<h1>ExecRetrieval diff</h1>",
           f"<p>A: <code>{escape(str(diff['a'].get('command')))}</code><br>"
           f"B: <code>{escape(str(diff['b'].get('command')))}</code></p>"]
    out += [f"<p><strong>{escape(n)}</strong></p>" for n in diff["notes"]]
    out.append("<h2>Settings that differ</h2>")
    out.append(_table(["setting", "A", "B"], [[s["key"], _value(s["a"]), _value(s["b"])]
                                             for s in diff["settings"]])
               if diff["settings"] else "<p>None: both runs were measured the same way.</p>")
    out += ["<h2>Metrics (B − A, paired test on per-query figures)</h2>",
            _table(["system", "metric", "A", "B", "B − A", "p"], _metric_rows(diff)),
            f"<h2>Flips at rank 1 ({len(diff['flips'])})</h2>"]
    if benchmark is None and diff["flips"]:
        out.append("<p>The benchmark could not be opened, so the snippets are not shown "
                   "(give --benchmark DIR).</p>")
    for f in diff["flips"]:
        out.append(f'<details data-flip="{escape(f["system"])}:{escape(f["query_id"])}">'
                   f"<summary>{escape(f['system'])} · {escape(f['query_id'])}: "
                   f"{escape(f['change'])}</summary>")
        code_a, code_b = _code(benchmark, f["a"]["rank1"]), _code(benchmark, f["b"]["rank1"])
        if code_a is not None and code_b is not None:
            out.append('<div class="pair">'
                       f"<div><b>A rank 1: {escape(str(f['a']['rank1']))}</b>"
                       f"<pre>{escape(code_a)}</pre></div>"
                       f"<div><b>B rank 1: {escape(str(f['b']['rank1']))}</b>"
                       f"<pre>{escape(code_b)}</pre></div></div>")
            lines = []
            for line in difflib.unified_diff(code_a.splitlines(), code_b.splitlines(),
                                             "A", "B", lineterm="", n=2):
                css = "del" if line.startswith("-") and not line.startswith("---") else \
                    "add" if line.startswith("+") and not line.startswith("+++") else ""
                lines.append(f'<span class="{css}">{escape(line)}</span>' if css
                             else escape(line))
            out.append("<pre>" + ("\n".join(lines) if lines else "(the same snippet)")
                       + "</pre>")
        out.append("</details>")
    out.append("</body></html>\n")
    return "\n".join(out)


def write_diff(diff: Mapping[str, Any], path: str | Path,
               benchmark: Benchmark | None = None) -> Path:
    """Write the diff as .json, .md or .html (atomically); ValueError for other suffixes."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        text = json.dumps(diff, indent=2, allow_nan=False) + "\n"
    elif suffix == ".md":
        text = diff_markdown(diff)
    elif suffix == ".html":
        text = diff_html(diff, benchmark)
    else:
        raise ValueError(f"{path}: unknown diff format {suffix or '(none)'}; use one of "
                         f"{', '.join(DIFF_FORMATS)}")
    atomic_write_text(path, text)
    return path
