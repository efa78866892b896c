"""``execretrieval compare``: two or more models, every pair, corrected, with tiers.

It shares ``evaluate``'s options (:mod:`execretrieval.cli.rank_commands`) and pipeline.

``--json`` prints ``{"metrics", "correction", "pairs", "leaderboard"}``; with exactly two
models and one metric it also carries, at the top level, the fields the two-model command
always printed (``metric``, ``a``, ``b``, ``a_mean``, ``b_mean``, ``a_only``, ``b_only``,
``p_value``, ``diff``, ``ci_low``, ``ci_high``, ``discordant_queries``, ``test``).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from .args import BENCHMARK_HELP, add_oracle_options, make_oracle
from .pipeline_options import (
    PIPELINE_HELP,
    OptionError,
    add_split_options,
    rank_systems,
    split_from_args,
)
from .rank_commands import (
    CORRECTION_CHOICES,
    TEST_NAMES,
    _keep_option,
    _load,
    _pool_option,
    _stats_options,
    read_exclusions,
)

__all__ = ["parse_metric", "register", "run_compare"]

OUT_FORMATS = (".tex", ".json", ".md", ".html")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "compare", help="paired comparisons of two or more models, corrected, with tiers",
        description="Every pair of models on every --metric: the exact paired test, its "
                    "p-value corrected over the metric's pairs (--correction), and the "
                    "paired-bootstrap difference (a - b) with its 95%% interval; then each "
                    "model's rank interval and tier. The test is an exact sign-flip "
                    "(randomisation) test on the per-query differences, which on 0/1 "
                    "outcomes is exact McNemar on the discordant queries; with tied scores "
                    "the per-query figures are expectations over tie orders (see --ties).")
    p.add_argument("directory", metavar="DIR", help=BENCHMARK_HELP)
    p.add_argument("--model", action="append", default=[], metavar="NAME",
                   help="model name or path, or " + PIPELINE_HELP + "; give two or more")
    p.add_argument("--metric", action="append", default=[], metavar="M",
                   help="metric to compare, repeatable (default exec@1; for a .tex table "
                        "exec@1, exec@5 and exec@10)")
    p.add_argument("--correction", choices=CORRECTION_CHOICES, default="holm",
                   help="multiple-comparison correction over each metric's pairs: holm "
                        "(default), bonferroni, bh (Benjamini-Hochberg) or none")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--out", metavar="FILE",
                   help="also write the comparison: .tex (a booktabs table), .json, .md or "
                        ".html (a report of the compared models)")
    p.add_argument("--latex-ci", action="store_true",
                   help="in a .tex table, print each mean's 95%% bootstrap interval")
    _stats_options(p)
    add_split_options(p)
    _pool_option(p)
    _keep_option(p, "the metrics' k and 5")
    add_oracle_options(p)
    p.set_defaults(handler=run_compare)


def parse_metric(metric: str) -> int | None:
    """The k of ``exec@k`` / ``execp@k`` / ``ndcg@k``, or None for anything else."""
    kind, _, k = metric.partition("@")
    if kind not in ("exec", "execp", "ndcg") or not k.isdigit() or int(k) < 1:
        return None
    return int(k)


def _error(message: str) -> int:
    print(f"execretrieval compare: error: {message}", file=sys.stderr)
    return 2


def run_compare(args: argparse.Namespace) -> int:
    from ..ranking.ranking import resolve_keep
    from ..report.evaluation import evaluate_models
    from .progress import TerminalProgress

    if len(args.model) < 2:
        return _error("give two or more --model options")
    suffix = Path(args.out).suffix.lower() if args.out else ""
    default = ["exec@1", "exec@5", "exec@10"] if suffix == ".tex" else ["exec@1"]
    metrics = list(dict.fromkeys(args.metric or default))
    ks = []
    for metric in metrics:
        k = parse_metric(metric)
        if k is None:
            return _error(f"unknown metric {metric!r}; expected exec@k, execp@k or ndcg@k")
        ks.append(k)
    if args.out and suffix not in OUT_FORMATS:
        return _error(f"{args.out}: unknown output format; use one of "
                      f"{', '.join(OUT_FORMATS)}")
    if args.latex_ci and suffix != ".tex":
        return _error("--latex-ci needs --out FILE.tex")
    benchmark = _load(args.directory, args.pool)
    exclude = read_exclusions(args.exclude_queries, benchmark)
    try:
        keep = resolve_keep(args.keep, max(max(ks), 5))
    except ValueError as exc:
        return _error(f"--keep: {exc}")
    command = shlex.join(["execretrieval", *sys.argv[1:]]) if sys.argv[1:] else \
        "execretrieval compare"
    try:
        split = split_from_args(args, benchmark)
    except OptionError as exc:
        return _error(str(exc))
    with make_oracle(args) as oracle:
        rankings = rank_systems(benchmark, args.model, keep=keep, oracle=oracle, split=split)
        with TerminalProgress("executing") as progress:
            report = evaluate_models(benchmark, rankings, oracle, ks=sorted(set(ks)),
                                     n_boot=args.bootstrap, seed=args.seed, exclude=exclude,
                                     compare_metric=metrics[0], ties=args.ties,
                                     progress=progress, correction=args.correction,
                                     metrics=metrics, command=command, split=split)
    data = report.to_dict()
    result: dict[str, Any] = {"metrics": metrics, "correction": args.correction,
                              "pairs": data["pairs"], "leaderboard": data["leaderboard"]}
    if len(report.models) == 2 and len(metrics) == 1 and report.comparisons:
        result = {**report.comparisons[0].to_dict(), **result}
        result["p_adjusted"] = data["pairs"][0]["p_adjusted"]
    if args.out:
        _write(report, data, args, metrics)
    if args.json:
        print(json.dumps(result, indent=2, allow_nan=False))
        return 0
    names = list(report.models)
    for metric in metrics:
        print(f"{metric} [--ties {args.ties}, --correction {args.correction}]")
        for s in data["leaderboard"]:
            if s["metric"] != metric:
                continue
            interval = (f"{s['rank_low']}" if s["rank_low"] == s["rank_high"]
                        else f"{s['rank_low']}-{s['rank_high']}")
            print(f"  tier {s['tier']}  {s['system']:<16} {s['mean']:.3f} "
                  f"[{s['ci_low']:.3f}, {s['ci_high']:.3f}]  rank {s['rank']} "
                  f"(95% {interval})")
        for p in data["pairs"]:
            if p["metric"] != metric:
                continue
            star = " *" if p["p_adjusted"] is not None and p["p_adjusted"] < 0.05 else ""
            print(f"  {p['a']} - {p['b']} = {p['diff']:+.3f} [{p['ci_low']:+.3f}, "
                  f"{p['ci_high']:+.3f}]; {p['a_only']} vs {p['b_only']} queries higher; "
                  f"{TEST_NAMES.get(p['test'], p['test'])} p = {p['p_value']:.4g}, "
                  f"corrected {p['p_adjusted']:.4g}{star}")
    if len(names) > 2:
        print(f"(* significant at 0.05 after {args.correction} correction over each "
              f"metric's {len(names) * (len(names) - 1) // 2} pairs)")
    return 0


def _write(report: Any, data: dict[str, Any], args: argparse.Namespace,
           metrics: list[str]) -> None:
    from ..fileio import atomic_write_text
    from ..report.latex import latex_table
    from ..report.writers import write_report

    if Path(args.out).suffix.lower() == ".tex":
        atomic_write_text(Path(args.out), latex_table(data, metrics, ci=args.latex_ci))
    else:
        write_report(report, args.out)
    print(f"wrote {args.out}", file=sys.stderr, flush=True)
