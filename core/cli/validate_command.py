"""``execretrieval validate DIR``: run the five gates and report every failure."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import BenchmarkNotFoundError
from .args import BENCHMARK_HELP, add_oracle_options, make_oracle


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate", help="run the five validation gates on a benchmark",
        description="Run the five validation gates (schema, AST semantics, canonical "
                    "execution, distractor execution, corpus integrity). Exit 0 if every "
                    "gate passes, 1 if any fails, 2 if the folder cannot be read.")
    parser.add_argument("directory", metavar="DIR", help=BENCHMARK_HELP)
    add_oracle_options(parser)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..benchmark.gates import validate_folder
    from .progress import TerminalProgress

    try:
        with make_oracle(args) as oracle, TerminalProgress("executing") as progress:
            report = validate_folder(args.directory, oracle, progress=progress)
    except BenchmarkNotFoundError as exc:
        print(f"execretrieval validate: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        for gate in report.gates:
            verdict = "PASS" if gate.passed else ("FAIL" if gate.ran else "NOT RUN")
            print(f"{verdict:7} {gate.name} ({len(gate.failures)} failures)")
            for failure in gate.failures:
                where = " ".join(x for x in (failure.query_id, failure.corpus_id) if x)
                print(f"        {where + ': ' if where else ''}{failure.reason}")
        print("all gates passed" if report.passed else "validation FAILED")
    return 0 if report.passed else 1
