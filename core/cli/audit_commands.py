"""``execretrieval audit DIR``: rank the queries' test suites by how suspect they are.

``--json`` prints the audit (stable keys, see README "Suite audit"); ``--out FILE`` writes
it as HTML, Markdown or JSON by extension. Exit 0 when the audit ran (whatever it found),
2 on bad input, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputFormatError
from .args import add_oracle_options, make_oracle, non_negative_int, positive_int
from .choices import AUDIT_DEFAULT_SEEDS as DEFAULT_SEEDS

if TYPE_CHECKING:
    from ..audit.results import AuditResult

__all__ = ["register"]

_FORMATS = {".html": "audit_html", ".htm": "audit_html", ".md": "audit_markdown",
            ".json": "audit_json"}   # output suffix -> writer in report.audit_pages


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "audit", help="rank test suites by how suspect they are (mutation analysis)",
        description="For each query run every single-edit mutant of its canonical (all six "
                    "operators) against its tests, plus the canonical under N hash seeds; "
                    "rank the suites most suspect first, with reasons (surviving mutants, "
                    "flaky tests, tests that kill nothing, crash-only kills, a failing "
                    "canonical). Results are cached; Ctrl+C cancels.")
    parser.add_argument("directory", metavar="DIR", type=Path, help="benchmark folder")
    parser.add_argument("--json", action="store_true", help="print the audit as JSON")
    parser.add_argument("--out", metavar="FILE", type=Path,
                        help="write the audit to FILE (.html, .md or .json)")
    parser.add_argument("--seeds", type=non_negative_int, default=DEFAULT_SEEDS, metavar="N",
                        help=f"hash seeds to run each canonical under, to find flaky tests "
                             f"(default {DEFAULT_SEEDS}; 0 skips this)")
    parser.add_argument("--limit", type=positive_int, metavar="N",
                        help="audit only the first N queries")
    parser.add_argument("--query", action="append", metavar="ID", dest="queries",
                        help="audit only this query (repeatable)")
    parser.add_argument("--top", type=positive_int, default=10, metavar="N",
                        help="queries listed in the text summary (default 10)")
    add_oracle_options(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..audit.run import run_audit
    from ..benchmark.dataset import load_benchmark
    from ..fileio import atomic_write_text
    from ..report import audit_pages
    from .progress import TerminalProgress

    writer = None
    if args.out is not None:
        name = _FORMATS.get(args.out.suffix.lower())
        if name is None:
            raise InputFormatError("unknown output format; use .html, .md or .json",
                                   file=args.out)
        writer = getattr(audit_pages, name)
    bench = load_benchmark(args.directory)
    started = time.monotonic()
    with make_oracle(args) as oracle, TerminalProgress("auditing") as progress:
        audit = run_audit(bench, oracle, seeds=args.seeds, limit=args.limit,
                          query_ids=args.queries, progress=progress)
    executed = audit.executed
    elapsed = time.monotonic() - started
    if writer is not None:
        atomic_write_text(args.out, writer(audit))
    if args.json:
        print(audit_pages.audit_json(audit), end="")
    else:
        _print_summary(audit, args.top)
    print(f"audit: {len(audit.queries)} queries in {elapsed:.1f}s, {executed} suites executed"
          f" (the rest from the cache)" + (f"; wrote {args.out}" if writer else ""),
          file=sys.stderr)
    return 0


def _print_summary(audit: AuditResult, top: int) -> None:
    qs = audit.queries
    print(f"{len(qs)} queries, {sum(q.mutants for q in qs)} mutants: "
          f"{audit.suites_with_survivors} suites let a mutant pass, "
          f"{sum(1 for q in qs if q.flaky_tests)} have flaky tests, "
          f"{sum(1 for q in qs if q.canonical_fails)} canonicals fail")
    shown = audit.top(top)
    if not shown:
        print("no suspect suite")
        return
    print(f"most suspect {len(shown)}:")
    for rank, q in enumerate(shown, 1):
        print(f"{rank:>3}. {q.query_id} {q.function_name}  suspicion {q.suspicion:.3f}  "
              f"score {q.mutation_score:.2f} ({q.killed}/{q.mutants})")
        for reason in q.reasons:
            print(f"       - {reason}")
