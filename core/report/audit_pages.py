"""The suite audit as a page: self-contained HTML (no script, no downloads) or Markdown.

Both lead with the summary (queries, mutants, suites with survivors, survivors per
verdict of the input engine), then the queue of queries most suspect first with their
reasons, then for each suspect query its suggested tests and its surviving mutants as
unified diffs against the canonical, each with its verdict (likely-equivalent ones greyed).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..audit.results import AuditResult, QueryAudit, Survivor

__all__ = ["audit_html", "audit_json", "audit_markdown", "survivor_diff", "top_suspects",
           "verdict_counts"]

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2em auto;
max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
h3{font-size:1.05em;margin:1.4em 0 .3em}
table{border-collapse:collapse;margin:.5em 0;width:100%}td,th{border:1px solid #ddd;
padding:3px 8px;vertical-align:top;text-align:left}th{background:#f5f5f5}
td.num{text-align:right;white-space:nowrap}table.queue{table-layout:fixed}
table.queue td{overflow-wrap:anywhere}
code,pre{background:#f5f5f5;padding:1px 4px;border-radius:3px}
pre{padding:8px;overflow:auto;margin:.3em 0}
ul.reasons{margin:0;padding-left:1.1em}
.bar{display:inline-block;height:9px;background:#d62728;border-radius:2px;
vertical-align:middle;margin-right:6px}
.add{background:#e6ffec;display:block}.del{background:#ffebe9;display:block}
.hunk{color:#777;display:block}.muted{color:#666}
.equivalent{color:#888}.equivalent pre{opacity:.6}.verdict{margin:.1em 0 .3em}
"""
#: survivors shown per query (the JSON has them all)
MAX_SURVIVORS = 8


def survivor_diff(canonical: str, survivor: Survivor, context: int = 2) -> list[str]:
    """The unified diff (lines, no headers) from the canonical to one surviving mutant."""
    lines = list(difflib.unified_diff(canonical.splitlines(), survivor.code.splitlines(),
                                      lineterm="", n=context))
    return lines[2:]


def audit_json(audit: AuditResult) -> str:
    return json.dumps(audit.to_dict(), indent=2, ensure_ascii=False) + "\n"


def _summary(audit: AuditResult) -> tuple[int, int, int, int]:
    qs = audit.queries
    return (len(qs), sum(q.mutants for q in qs), audit.suites_with_survivors,
            sum(1 for q in qs if q.flaky_tests))


def _settings_line(audit: AuditResult) -> str:
    s = audit.settings
    seeds = s.get("seeds", [])
    inputs = (f"; survivors classified on up to {s['inputs']} inputs per query (seed "
              f"{s.get('input_seed', 0)})" if s.get("inputs") else "")
    return (f"benchmark {s.get('benchmark', '?')}; all six operators; "
            f"{len(seeds)} hash seed{'s' if len(seeds) != 1 else ''}; timeout "
            f"{s.get('timeout', '?')} s"
            + (f" (mutants {s['mutant_timeout']} s)" if "mutant_timeout" in s else "")
            + inputs + (f"; first {s['limit']} queries"
                                                     if s.get("limit") else ""))


def verdict_counts(audit: AuditResult) -> dict[str, int]:
    """Survivors per verdict over the whole audit (``weak``, ``likely_equivalent``,
    ``unclassified``; survivors of an audit without the input engine count as none)."""
    out = {"weak": 0, "likely_equivalent": 0, "unclassified": 0}
    for q in audit.queries:
        for s in q.survivors:
            if s.verdict in out:
                out[s.verdict] += 1
    return out


def _verdict_line(audit: AuditResult) -> str:
    counts = verdict_counts(audit)
    if not sum(counts.values()):
        return ""
    tests = sum(len(q.suggested_tests) for q in audit.queries)
    return (f"Survivors: {counts['weak']} weak (a generated input tells them apart), "
            f"{counts['likely_equivalent']} likely equivalent, {counts['unclassified']} "
            f"unclassified; {audit.weak_suites} weak suites, {tests} suggested tests kill "
            "every distinguishable survivor.")


def _tests_text(numbers: Sequence[int]) -> str:
    return ", ".join(str(n) for n in numbers) or "–"


def audit_html(audit: AuditResult, top: int = 25) -> str:
    """The audit as one self-contained HTML page; details for the ``top`` most suspect."""
    n, mutants, with_survivors, flaky = _summary(audit)
    out = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<title>Suite audit</title>", f"<style>{_CSS}</style></head><body>",
           "<h1>Suite audit</h1>",
           f"<p>{n} queries, {mutants} single-edit mutants executed; <b>{with_survivors}</b> "
           f"suites let at least one mutant pass; {flaky} have flaky tests.<br>"
           + (f"{escape(_verdict_line(audit))}<br>" if _verdict_line(audit) else "") +
           f"<span class=\"muted\">{escape(_settings_line(audit))}. \"Likely equivalent\" "
           "means no generated input told the mutant apart, not a proof; read its diff "
           "before flagging.</span></p>",
           "<h2>Queue, most suspect first</h2>",
           "<table class=\"queue\"><colgroup><col style=\"width:3%\"><col style=\"width:22%\">"
           "<col style=\"width:9%\"><col style=\"width:9%\"><col style=\"width:7%\">"
           "<col style=\"width:5%\"><col style=\"width:6%\"><col></colgroup>"
           "<tr><th>#</th><th>query</th><th>suspicion</th><th>score</th>"
           "<th>survivors</th><th>flaky</th><th>kill nothing</th><th>reasons</th></tr>"]
    peak = max((q.suspicion for q in audit.queries), default=0.0) or 1.0
    for rank, q in enumerate(audit.queries, 1):
        width = int(36 * q.suspicion / peak)
        reasons = "".join(f"<li>{escape(r)}</li>" for r in q.reasons) or "<li>none</li>"
        anchor = f'<a href="#{escape(q.query_id)}">' if rank <= top and q.reasons else "<a>"
        out.append(
            f"<tr><td class=\"num\">{rank}</td><td>{anchor}<code>{escape(q.function_name)}"
            f"</code></a><br><span class=\"muted\">{escape(q.query_id)}</span></td>"
            f"<td class=\"num\"><span class=\"bar\" style=\"width:{width}px\"></span>"
            f"{q.suspicion:.3f}</td><td class=\"num\">{q.mutation_score:.2f} "
            f"({q.killed}/{q.mutants})</td><td class=\"num\">{len(q.survivors)}</td>"
            f"<td>{_tests_text(q.flaky_tests)}</td><td>{_tests_text(q.tests_killing_nothing)}"
            f"</td><td><ul class=\"reasons\">{reasons}</ul></td></tr>")
    out.append("</table>")
    details = audit.top(top)
    if details:
        out.append("<h2>Evidence: surviving mutants of the most suspect suites</h2>")
    for q in details:
        out.append(f"<h3 id=\"{escape(q.query_id)}\"><code>{escape(q.function_name)}</code> "
                   f"<span class=\"muted\">{escape(q.query_id)} · suspicion "
                   f"{q.suspicion:.3f}</span></h3>")
        out.append("<ul class=\"reasons\">" + "".join(f"<li>{escape(r)}</li>"
                                                   for r in q.reasons) + "</ul>")
        if q.suggested_tests:
            out.append("<p><b>Suggested tests</b> (together they kill every survivor a "
                       "generated input tells apart):</p>")
            for t in q.suggested_tests:
                kills = ", ".join(f"#{k + 1} {q.survivors[k].bug_type}" for k in t.kills
                                  if k < len(q.survivors))
                domain = (f"<br><b>outside the suite's domain</b>: {escape(t.outside_domain)}"
                          if t.outside_domain else "")
                out.append(f"<pre>{escape(t.test)}</pre><p class=\"muted verdict\">kills "
                           f"{escape(kills)}{domain}</p>")
        seed = audit.settings.get("input_seed")
        for number, s in enumerate(q.survivors[:MAX_SURVIVORS], 1):
            cls = ' class="equivalent"' if s.equivalent else ""
            out.append(f"<div{cls}><p><b>#{number} {escape(s.bug_type)}</b>: "
                       f"{escape(s.description)}<br><span class=\"verdict\">"
                       f"{escape(s.verdict_text(seed))}</span></p>")
            if q.canonical_code:
                out.append("<pre>" + "".join(_diff_line(x)
                                             for x in survivor_diff(q.canonical_code, s))
                           + "</pre>")
            else:
                out.append(f"<pre>{escape(s.code)}</pre>")
            out.append("</div>")
        if len(q.survivors) > MAX_SURVIVORS:
            out.append(f"<p class=\"muted\">… and {len(q.survivors) - MAX_SURVIVORS} more "
                       "survivors (all are in the JSON output).</p>")
    out.append("</body></html>\n")
    return "\n".join(out)


def _diff_line(line: str) -> str:
    cls = {"+": "add", "-": "del", "@": "hunk"}.get(line[:1], "")
    text = escape(line) or " "
    return f'<span class="{cls}">{text}</span>' if cls else f"{text}\n"


def audit_markdown(audit: AuditResult, top: int = 25) -> str:
    """The audit as Markdown: summary, queue table, survivors of the ``top`` suspects."""
    n, mutants, with_survivors, flaky = _summary(audit)
    lines = ["# Suite audit", "",
             f"{n} queries, {mutants} single-edit mutants executed; **{with_survivors}** "
             f"suites let at least one mutant pass; {flaky} have flaky tests.",
             *([_verdict_line(audit)] if _verdict_line(audit) else []),
             f"_{_settings_line(audit)}._", "",
             "| # | query | suspicion | score | survivors | flaky | kill nothing | reasons |",
             "|---:|---|---:|---:|---:|---|---|---|"]
    for rank, q in enumerate(audit.queries, 1):
        reasons = "; ".join(q.reasons).replace("|", "\\|") or "none"
        lines.append(f"| {rank} | `{q.function_name}` ({q.query_id}) | {q.suspicion:.3f} | "
                     f"{q.mutation_score:.2f} ({q.killed}/{q.mutants}) | {len(q.survivors)} | "
                     f"{_tests_text(q.flaky_tests)} | {_tests_text(q.tests_killing_nothing)} "
                     f"| {reasons} |")
    for q in audit.top(top):
        if not q.survivors:
            continue
        lines += ["", f"## `{q.function_name}` ({q.query_id})", ""]
        if q.suggested_tests:
            lines += ["Suggested tests:", "", "```python",
                      *(t.test for t in q.suggested_tests), "```", ""]
        seed = audit.settings.get("input_seed")
        for s in q.survivors[:MAX_SURVIVORS]:
            lines += [f"- **{s.bug_type}**: {s.description} — {s.verdict_text(seed)}", "",
                      "```diff",
                      *(survivor_diff(q.canonical_code, s) if q.canonical_code
                        else s.code.splitlines()), "```", ""]
    return "\n".join(lines) + "\n"


def top_suspects(audit: AuditResult, n: int = 5) -> list[QueryAudit]:
    """The ``n`` most suspect queries (with at least one reason), for report sections."""
    return list(audit.top(n))

