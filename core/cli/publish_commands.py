"""``diff`` (two runs: settings, metric deltas, rank-1 flips) and ``leaderboard`` (one
table from several reports of one benchmark)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .rank_commands import CORRECTION_CHOICES


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "diff", help="what differs between two report JSON files",
        description="Compare two reports (execretrieval evaluate --out X.json): the manifest "
                    "settings that differ, every shared system's metric deltas (B - A) with "
                    "the paired test where both runs measured the same queries, and the "
                    "queries whose rank-1 outcome flipped. Without --out a summary is "
                    "printed; --out writes .json, .md or .html (with each flipped query's "
                    "rank-1 snippets and their diff).")
    p.add_argument("report_a", metavar="A.json")
    p.add_argument("report_b", metavar="B.json")
    p.add_argument("--out", metavar="FILE", help="write the diff: .json, .md or .html")
    p.add_argument("--json", action="store_true", help="print the diff as JSON")
    p.add_argument("--benchmark", metavar="DIR",
                   help="benchmark folder for the snippets in the HTML (default: the "
                        "bundled benchmark the reports name, if its fingerprint matches)")
    p.set_defaults(handler=_diff)

    p = subparsers.add_parser(
        "leaderboard", help="one leaderboard from several reports of a benchmark",
        description="Every system of every report, all pairs tested with correction, rank "
                    "intervals and tiers from one common set of bootstrap replicates. "
                    "Reports whose benchmark fingerprint, tie policy, split or measured "
                    "queries differ are refused.")
    p.add_argument("reports", nargs="+", metavar="REPORT.json")
    p.add_argument("--out", metavar="FILE", help="write the board: .html, .md, .tex or .json")
    p.add_argument("--metric", action="append", default=[], metavar="M",
                   help="metric to rank on, repeatable (default: every exec@k the reports "
                        "share)")
    p.add_argument("--correction", choices=CORRECTION_CHOICES, default="holm",
                   help="correction over each metric's pairs (default holm)")
    p.add_argument("--latex-ci", action="store_true",
                   help="in a .tex table, print each mean's 95%% bootstrap interval")
    p.set_defaults(handler=_leaderboard)


def _error(command: str, message: str) -> int:
    print(f"execretrieval {command}: error: {message}", file=sys.stderr)
    return 2


def _benchmark_for(diff: dict[str, Any], folder: str | None) -> Any:
    """The benchmark whose snippets the HTML shows, or None when it cannot be found."""
    from ..benchmark.bundled import resolve_benchmark
    from ..benchmark.dataset import load_benchmark
    from ..errors import ExecRetrievalError

    info = diff["a"]["benchmark"]
    try:
        benchmark = load_benchmark(folder if folder else resolve_benchmark(str(info["name"])))
    except (ExecRetrievalError, OSError, KeyError):
        if folder:
            raise
        return None
    if benchmark.fingerprint != info.get("fingerprint"):
        if folder:
            print(f"execretrieval diff: note: {folder} is not the benchmark the reports "
                  "measured (fingerprint differs); snippets shown from it anyway",
                  file=sys.stderr)
            return benchmark
        return None
    return benchmark


def _diff(args: argparse.Namespace) -> int:
    from ..report.diffpages import DIFF_FORMATS, write_diff
    from ..report.rundiff import diff_reports, read_report

    if args.out and Path(args.out).suffix.lower() not in DIFF_FORMATS:
        return _error("diff", f"{args.out}: unknown format; use one of "
                              f"{', '.join(DIFF_FORMATS)}")
    diff = diff_reports(read_report(args.report_a), read_report(args.report_b))
    if args.out:
        benchmark = _benchmark_for(diff, args.benchmark) \
            if Path(args.out).suffix.lower() == ".html" else None
        write_diff(diff, args.out, benchmark)
        print(f"wrote {args.out}", file=sys.stderr)
    if args.json:
        print(json.dumps(diff, indent=2, allow_nan=False))
        return 0
    for note in diff["notes"]:
        print(f"note: {note}")
    print(f"settings that differ: {len(diff['settings'])}")
    for s in diff["settings"]:
        print(f"  {s['key']}: {json.dumps(s['a'])} -> {json.dumps(s['b'])}")
    for name, metrics in diff["systems"].items():
        for metric in ("exec@1", "exec@10"):
            m = metrics.get(metric)
            if m is None or m["diff"] is None:
                continue
            p = "not paired" if m["p_value"] is None else f"p = {m['p_value']:.4g}"
            print(f"  {name} {metric}: {m['a']:.3f} -> {m['b']:.3f} ({m['diff']:+.3f}, {p})")
    print(f"queries flipped at rank 1: {len(diff['flips'])}")
    for f in diff["flips"][:20]:
        print(f"  {f['system']} {f['query_id']}: {f['change']} "
              f"[{f['a']['rank1']} -> {f['b']['rank1']}]")
    if len(diff["flips"]) > 20:
        print(f"  ... and {len(diff['flips']) - 20} more (--out FILE.md lists them all)")
    return 0


def _leaderboard(args: argparse.Namespace) -> int:
    from ..report.boardpages import BOARD_FORMATS, board_text, write_board
    from ..report.combine import combine_reports
    from ..report.rundiff import read_report

    suffix = Path(args.out).suffix.lower() if args.out else ""
    if args.out and suffix not in BOARD_FORMATS:
        return _error("leaderboard", f"{args.out}: unknown format; use one of "
                                     f"{', '.join(BOARD_FORMATS)}")
    if args.latex_ci and suffix != ".tex":
        return _error("leaderboard", "--latex-ci needs --out FILE.tex")
    reports = [(path, read_report(path)) for path in args.reports]
    metrics = args.metric or None
    if metrics is None:   # rank on the exec@k figures the first report has
        first: dict[str, Any] = next(iter(reports[0][1]["models"].values()), {})
        metrics = [m for m in first.get("metrics", {}) if m.startswith("exec@")] or None
    try:
        data = combine_reports(reports, correction=args.correction, metrics=metrics)
    except ValueError as exc:
        return _error("leaderboard", str(exc))
    for note in data["notes"]:
        print(f"note: {note}")
    for line in board_text(data):
        print(line)
    if args.out:
        write_board(data, args.out, args.metric or None, ci=args.latex_ci)
        print(f"wrote {args.out}", file=sys.stderr)
    return 0
