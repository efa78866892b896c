"""``evaluate``, ``export-run`` and ``export-qrels``; ``compare`` lives in
:mod:`execretrieval.cli.compare_command` and ``embed`` in :mod:`execretrieval.cli.embed_command`."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from ..errors import InputFormatError
from ..fileio import read_utf8
from .args import BENCHMARK_HELP, add_oracle_options, make_oracle, non_negative_int, positive_int
from .choices import TIE_POLICIES
from .pipeline_options import (
    PIPELINE_HELP,
    OptionError,
    add_split_options,
    rank_systems,
    split_from_args,
)


def _ks(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(x) for x in text.split(",") if x.strip()}))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") \
            from exc
    if not ks or ks[0] < 1:
        raise argparse.ArgumentTypeError("k values must be positive integers")
    return ks


CORRECTION_CHOICES = ("holm", "bonferroni", "bh", "none")   # measure.multiple.CORRECTIONS


def _stats_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bootstrap", type=positive_int, default=5000, metavar="N",
                        help="bootstrap replicates (default 5000)")
    parser.add_argument("--seed", type=non_negative_int, default=0, metavar="S",
                        help="bootstrap seed (default 0)")
    parser.add_argument("--exclude-queries", metavar="FILE",
                        help="leave out the query ids listed in FILE, one a line")
    parser.add_argument("--ties", choices=TIE_POLICIES, default="expected",
                        help="how tied scores count: expected (default; the exact "
                             "expectation over every order of the ties, so no figure "
                             "depends on line order), optimistic / pessimistic (ties "
                             "broken for / against correct code), corpus (by line order in "
                             "corpus.jsonl)")


def _pool_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pool", metavar="POOL.jsonl",
                        help="a background pool (execretrieval pool) whose functions join the "
                             "corpus as role 'background', ranked and executed like any "
                             "other snippet")


def _keep_option(parser: argparse.ArgumentParser, needed: str) -> None:
    parser.add_argument("--keep", type=positive_int, metavar="K",
                        help="candidates kept per query (default 100, and never fewer than "
                             f"{needed}): scores stream a few queries at a time and each "
                             "query keeps its top K, the tie group at the cut and its own "
                             "snippets, so memory does not grow with queries x corpus")


def _pool_sizes(text: str) -> tuple[int | None, ...]:
    from ..report.pool_scaling import parse_pool_sizes

    try:
        return parse_pool_sizes(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "evaluate", help="rank, execute and measure models; write a report",
        description="Rank the benchmark with each model, execute every model's top "
                    "candidates through the oracle (cached), and write exec@k / execp@k / "
                    "nDCG@k with bootstrap CIs plus the deception analyses. The format "
                    "follows the --out extension: .json, .csv, .md or .html.")
    p.add_argument("directory", metavar="DIR", help=BENCHMARK_HELP)
    p.add_argument("--model", action="append", default=[], metavar="NAME",
                   help="model name or path (repeatable): bm25, tfidf, minilm, an "
                        "embeddings/<name>.npz name, a .npz, a sentence-transformers folder; "
                        "or " + PIPELINE_HELP)
    p.add_argument("--run", action="append", default=[], metavar="FILE.trec",
                   help="TREC run file of an outside system (repeatable)")
    p.add_argument("--k", type=_ks, default=(1, 3, 5, 10), metavar="LIST",
                   help="cut-offs, comma-separated (default 1,3,5,10)")
    _stats_options(p)
    add_split_options(p)
    p.add_argument("--correction", choices=CORRECTION_CHOICES, default="holm",
                   help="with two or more models: correction of the pairwise p-values over "
                        "each metric's pairs (default holm; bonferroni, bh, none)")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="report file: .json, .csv, .md or .html")
    p.add_argument("--flags", action="store_true",
                   help="add a section with the benchmark's flags (who, what, stale or not)")
    p.add_argument("--store", metavar="FILE", type=Path,
                   help="annotation store for --flags (default: the user's)")
    p.add_argument("--audit", metavar="FILE.json", type=Path,
                   help="add the top suspects of this audit (execretrieval audit --out "
                        "FILE.json)")
    _pool_option(p)
    p.add_argument("--pool-sizes", type=_pool_sizes, metavar="LIST",
                   help="with --pool: also measure every --model with these many pool "
                        "functions, e.g. 0,1000,5000,all (seeded nested subsets, --seed)")
    _keep_option(p, "the deepest cut, max(k, 5)")
    add_oracle_options(p)
    p.set_defaults(handler=_evaluate)

    p = subparsers.add_parser("export-run", help="write a model's ranking as a TREC run")
    p.add_argument("directory", metavar="DIR", help=BENCHMARK_HELP)
    p.add_argument("--model", required=True, metavar="NAME",
                   help="model name or path, or " + PIPELINE_HELP)
    p.add_argument("--out", required=True, metavar="FILE", help="run file to write")
    p.add_argument("--depth", type=positive_int, default=100, metavar="N",
                   help="snippets per query (default 100); exec@k and nDCG@k need only "
                        "k, but the deception analyses judge a canonical/mutant pair only "
                        "if the run ranks one of them, so give the corpus size to "
                        "reproduce them exactly")
    p.epilog = ("Ties: the run lists snippets best first with ranks 1..depth in this tool's "
                "order (tied scores in corpus order), but trec_eval ignores the rank column "
                "and re-sorts tied scores by document id (descending), so trec_eval's "
                "figures for a tied run can differ from `execretrieval evaluate --ties "
                "corpus`; the default --ties expected is independent of any order.")
    _pool_option(p)
    _keep_option(p, "--depth")
    add_split_options(p)
    add_oracle_options(p)
    p.set_defaults(handler=_export_run)

    p = subparsers.add_parser("export-qrels", help="write the benchmark's TREC qrels")
    p.add_argument("directory", metavar="DIR", help=BENCHMARK_HELP)
    p.add_argument("--out", required=True, metavar="FILE", help="qrels file to write")
    p.set_defaults(handler=_export_qrels)


def _load(directory: str, pool: str | None = None) -> Any:
    """The benchmark, with the background pool file joined to its corpus if given."""
    from ..benchmark.dataset import load_benchmark
    from ..benchmark.pool import read_pool, with_pool

    benchmark = load_benchmark(directory)
    if pool is None:
        return benchmark
    joined = with_pool(benchmark, read_pool(pool))
    info = joined.manifest["pool"]
    _status(f"background pool {pool}: {info['joined']} functions joined "
            f"({info['dropped_same_name']} named like a query left out)")
    return joined


def read_exclusions(path: str | None, benchmark: Any) -> frozenset[str]:
    """Query ids from a file, one a line ('#' comments and blank lines ignored).

    An unknown id, or a list that leaves no query to measure, is bad input."""
    if path is None:
        return frozenset()
    file = Path(path)
    try:
        lines = read_utf8(file).splitlines()
    except OSError as exc:
        raise InputFormatError(f"cannot read the exclusion list ({exc.strerror or exc})",
                               file=file) from exc
    ids: set[str] = set()
    for lineno, line in enumerate(lines, start=1):
        qid = line.split("#", 1)[0].strip()
        if not qid:
            continue
        if not benchmark.has_query(qid):
            raise InputFormatError(f"unknown query id {qid!r}", file=file, line=lineno)
        ids.add(qid)
    if ids and len(ids) >= len(benchmark.queries):
        raise InputFormatError(f"excludes all {len(benchmark.queries)} queries of the "
                               "benchmark; nothing is left to measure", file=file)
    return frozenset(ids)


def _status(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _with_annotations(report: Any, benchmark: Any, args: argparse.Namespace) -> Any:
    """The report with its flags and audit sections (``--flags``, ``--audit``)."""
    import dataclasses

    from ..audit.results import read_audit
    from ..benchmark.annotations import AnnotationStore
    from ..report.annotations import report_annotations

    flags = None
    if args.flags:
        with AnnotationStore(benchmark, args.store) as store:
            flags = store.flags()
    audit = read_audit(args.audit) if args.audit is not None else None
    return dataclasses.replace(report, annotations=report_annotations(benchmark, flags, audit))


def _evaluate(args: argparse.Namespace) -> int:
    from ..ranking.ranking import resolve_keep
    from ..ranking.registry import rank_retriever
    from ..ranking.trec import RunFileRetriever
    from ..report.drilldown import cached_outcomes, cached_results
    from ..report.evaluation import evaluate_models
    from ..report.writers import FORMATS, write_report
    from .progress import TerminalProgress

    suffix = Path(args.out).suffix.lower()
    if suffix not in FORMATS:
        print(f"execretrieval evaluate: error: {args.out}: unknown report format; use one "
              f"of {', '.join(FORMATS)}", file=sys.stderr)
        return 2
    models = [*args.model, *args.run]
    if not models:
        print("execretrieval evaluate: error: give at least one --model or --run",
              file=sys.stderr)
        return 2
    for run in args.run:
        if not Path(run).is_file():
            print(f"execretrieval evaluate: error: {run}: run file not found", file=sys.stderr)
            return 2
    if args.pool_sizes and not args.pool:
        print("execretrieval evaluate: error: --pool-sizes needs --pool", file=sys.stderr)
        return 2
    if args.pool_sizes and args.visible is not None:
        print("execretrieval evaluate: error: --pool-sizes does not judge on held-out tests "
              "yet; leave out --visible or --pool-sizes", file=sys.stderr)
        return 2
    benchmark = _load(args.directory, args.pool)
    exclude = read_exclusions(args.exclude_queries, benchmark)
    command = shlex.join(["execretrieval", *sys.argv[1:]]) if sys.argv[1:] else \
        "execretrieval evaluate"
    try:
        keep = resolve_keep(args.keep, max(max(args.k), 5))
    except ValueError as exc:
        print(f"execretrieval evaluate: error: --keep: {exc}", file=sys.stderr)
        return 2
    try:
        split = split_from_args(args, benchmark)
    except OptionError as exc:
        print(f"execretrieval evaluate: error: {exc}", file=sys.stderr)
        return 2
    with make_oracle(args) as oracle:
        # before any judging execution, so a bad model fails fast; a pipeline's stages run
        # on the visible tests here
        rankings = rank_systems(benchmark, args.model, keep=keep, oracle=oracle, split=split)
        for run in args.run:  # a run file whatever its extension (.tsv, none, ...)
            label = Path(run).stem or run
            rankings.append(rank_retriever(benchmark, RunFileRetriever(Path(run), label),
                                           label=label, source=run, keep=keep))
        with TerminalProgress("executing") as progress:
            report = evaluate_models(benchmark, rankings, oracle, ks=args.k,
                                     n_boot=args.bootstrap, seed=args.seed, exclude=exclude,
                                     command=command, ties=args.ties, status=_status,
                                     progress=progress, correction=args.correction,
                                     split=split)
            if args.pool_sizes and args.model:
                report = _with_scaling(report, benchmark, args, oracle, exclude, progress)
        if args.flags or args.audit is not None:
            report = _with_annotations(report, benchmark, args)
        # the HTML drill-down's tests matrix reads the outcomes just measured from the cache
        write_report(report, args.out, benchmark, outcomes=cached_outcomes(oracle),
                     results=cached_results(oracle))
    for name, ev in report.models.items():
        ci = ev.metrics.get("exec@1")
        if ci is not None:
            low_high = ev.tie_report.get("range", {}).get("exec@1", {})
            spread = (f" (ties: {low_high['pessimistic']:.3f}-{low_high['optimistic']:.3f})"
                      if low_high else "")
            print(f"{name}: exec@1 = {ci.mean:.3f} [{ci.ci_low:.3f}, {ci.ci_high:.3f}]"
                  f"{spread}, deception rate = {ev.deception_rate:.3f} "
                  f"(strict {ev.deception_strict:.3f}, tied {ev.deception_tied:.3f}) "
                  f"[--ties {ev.ties}]")
    _status(f"wrote {args.out}")
    return 0


def _with_scaling(report: Any, benchmark: Any, args: argparse.Namespace, oracle: Any,
                  exclude: frozenset[str], progress: Any) -> Any:
    """The report with its pool-scaling curve over ``--pool-sizes`` for every --model."""
    import dataclasses

    from ..benchmark.pool import read_pool
    from ..report.pool_scaling import pool_point, pool_scaling

    base = _load(args.directory)
    pool = read_pool(args.pool)
    full = benchmark.manifest["pool"]["size"]
    done = [pool_point(benchmark, ev, full, exclude) for name, ev in report.models.items()
            if name in args.model]
    points = pool_scaling(base, pool, args.model, oracle, sizes=args.pool_sizes,
                          seed=args.seed, ks=args.k, n_boot=args.bootstrap, exclude=exclude,
                          ties=args.ties, done=done, status=_status, progress=progress,
                          keep=args.keep)
    settings = {**report.settings, "pool_sizes": sorted({p.pool_size for p in points}),
                "pool_seed": args.seed}
    return dataclasses.replace(report, pool_scaling=tuple(points), settings=settings)


TEST_NAMES = {"mcnemar_exact": "exact McNemar", "sign_flip_exact": "exact sign-flip test",
              "sign_flip_monte_carlo": "sign-flip test (Monte Carlo)"}


def _export_run(args: argparse.Namespace) -> int:
    from ..ranking.ranking import resolve_keep
    from ..ranking.trec import to_run

    benchmark = _load(args.directory, args.pool)
    try:
        keep = resolve_keep(args.keep, args.depth)
    except ValueError as exc:
        print(f"execretrieval export-run: error: --keep: {exc}", file=sys.stderr)
        return 2
    try:
        split = split_from_args(args, benchmark)
    except OptionError as exc:
        print(f"execretrieval export-run: error: {exc}", file=sys.stderr)
        return 2
    with make_oracle(args) as oracle:
        ranking = rank_systems(benchmark, [args.model], keep=keep, oracle=oracle,
                               split=split)[0]
    lines = to_run(args.out, benchmark, ranking, depth=args.depth)
    _status(f"wrote {args.out}: {lines} lines for {len(benchmark.queries)} queries, at most "
            f"{min(args.depth, len(benchmark.corpus))} each")
    return 0


def _export_qrels(args: argparse.Namespace) -> int:
    from ..ranking.trec import to_qrels

    benchmark = _load(args.directory)
    to_qrels(args.out, benchmark)
    _status(f"wrote {args.out}")
    return 0
