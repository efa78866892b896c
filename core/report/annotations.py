"""The annotators' part of a report: their flags (who, what, open or resolved, stale or not)
and, when an audit result is given, the suite audit's summary and top suspects.

:func:`report_annotations` builds the plain data (stored in the report JSON under
``annotations``); :func:`annotations_markdown` and :func:`annotations_html` render it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..audit.results import AuditResult
    from ..benchmark.dataset import Benchmark
    from ..benchmark.flags import Flag

__all__ = ["annotations_html", "annotations_markdown", "report_annotations"]


def report_annotations(benchmark: Benchmark, flags: Sequence[Flag] | None = None,
                       audit: AuditResult | None = None, top: int = 5) -> dict[str, Any]:
    """``{"flags": [...], "audit": {...}}`` with only the parts given."""
    out: dict[str, Any] = {}
    if flags is not None:
        rows = []
        for f in flags:
            query = benchmark.query(f.query_id) if benchmark.has_query(f.query_id) else None
            rows.append({**f.to_dict(), "function_name": query.function_name if query else "",
                         "on": f.describe_target(), "category_label": f.category_label})
        out["flags"] = rows
    if audit is not None:
        qs = audit.queries
        out["audit"] = {
            "queries": len(qs),
            "mutants": sum(q.mutants for q in qs),
            "suites_with_survivors": audit.suites_with_survivors,
            "flaky_suites": sum(1 for q in qs if q.flaky_tests),
            "failing_canonicals": sum(1 for q in qs if q.canonical_fails),
            "seeds": list(audit.settings.get("seeds", [])),
            "top_suspects": [q.to_dict() for q in audit.top(top)],
        }
    return out


def _flag_line(f: Mapping[str, Any]) -> tuple[str, ...]:
    state = f["status"] + (", changed since flagged" if f["stale"] else "")
    return (f"{f['function_name'] or '?'} ({f['query_id']})", f["on"], f["category_label"],
            f["note"].replace("\n", " ⏎ ") if f["note"] else "", f["annotator"] or "?", state,
            f["created"][:10])


_FLAG_HEAD = ("query", "on", "category", "note", "who", "status", "flagged")


def annotations_markdown(annotations: Mapping[str, Any]) -> list[str]:
    """Markdown lines of the flags and audit sections (none for an empty mapping)."""
    lines: list[str] = []
    flags = annotations.get("flags")
    if flags is not None:
        stale = sum(1 for f in flags if f["stale"])
        lines += ["", "## Flags", "",
                  f"{len(flags)} flag{'s' if len(flags) != 1 else ''}"
                  + (f", {stale} on queries changed since they were flagged" if stale else "")
                  + "."]
        if flags:
            lines += ["", "| " + " | ".join(_FLAG_HEAD) + " |", "|---" * len(_FLAG_HEAD) + "|"]
            for f in flags:
                cells = [c.replace("|", "\\|") for c in _flag_line(f)]
                lines.append("| " + " | ".join(cells) + " |")
    audit = annotations.get("audit")
    if audit is not None:
        lines += ["", "## Suite audit: top suspects", "",
                  f"{audit['queries']} suites, {audit['mutants']} single-edit mutants; "
                  f"{audit['suites_with_survivors']} suites let a mutant pass, "
                  f"{audit['flaky_suites']} have flaky tests, {audit['failing_canonicals']} "
                  "canonicals fail.", "",
                  "| query | suspicion | mutation score | reasons |", "|---|---|---|---|"]
        for q in audit["top_suspects"]:
            reasons = "; ".join(q["reasons"]).replace("|", "\\|")
            lines.append(f"| {q['function_name']} ({q['query_id']}) | {q['suspicion']:.3f} | "
                         f"{q['mutation_score']:.2f} ({q['killed']}/{q['mutants']}) | "
                         f"{reasons} |")
    return lines


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td style=\"text-align:left\">{escape(c)}</td>"
                                    for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def annotations_html(annotations: Mapping[str, Any]) -> list[str]:
    """HTML fragments of the flags and audit sections (none for an empty mapping)."""
    out: list[str] = []
    flags = annotations.get("flags")
    if flags is not None:
        stale = sum(1 for f in flags if f["stale"])
        out += ["<h2>Flags</h2>",
                f"<p>{len(flags)} flag{'s' if len(flags) != 1 else ''}"
                + (f", {stale} on queries changed since they were flagged" if stale else "")
                + ".</p>"]
        if flags:
            out.append(_table(_FLAG_HEAD, [_flag_line(f) for f in flags]))
    audit = annotations.get("audit")
    if audit is not None:
        out += ["<h2>Suite audit: top suspects</h2>",
                f"<p>{audit['queries']} suites, {audit['mutants']} single-edit mutants; "
                f"<b>{audit['suites_with_survivors']}</b> suites let a mutant pass, "
                f"{audit['flaky_suites']} have flaky tests, {audit['failing_canonicals']} "
                "canonicals fail.</p>",
                _table(("query", "suspicion", "mutation score", "reasons"),
                       [(f"{q['function_name']} ({q['query_id']})", f"{q['suspicion']:.3f}",
                         f"{q['mutation_score']:.2f} ({q['killed']}/{q['mutants']})",
                         "; ".join(q["reasons"])) for q in audit["top_suspects"]])]
    return out
