"""``execretrieval build-from-code SOURCE ... --out DIR``: a benchmark from real code.

Exit codes: 0 built (the summary table says which functions were skipped and why), 1 no
function gave a task or a gate failed, 2 bad input (a source that is no folder, ``.py``
file or importable module), 130 interrupted (the output folder is left as it was).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import BuildError, CancelledError, ExecRetrievalError
from .args import add_dask_option, non_negative_int, positive_int
from .build_commands import _oracles, _stop_on_interrupt
from .choices import MUTANT_TIMEOUT


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "build-from-code", help="build a benchmark from the functions of Python code",
        description="Turn the documented module-level functions of Python code into "
                    "benchmark tasks: the docstring summary as the query, a self-contained "
                    "slice as the canonical, tests from doctests, the package's own tests "
                    "and type-aware generated inputs answered by the canonical in the "
                    "sandbox, chosen by the single-edit mutants they kill, and up to four "
                    "such mutants as distractors. DIR/build_report.json says what became "
                    "of every function. The same sources and --seed give the same bytes.")
    p.add_argument("sources", nargs="+", metavar="SOURCE",
                   help="a folder, a .py file or an importable module or package name "
                        "(e.g. textwrap, urllib.parse)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="benchmark folder to write (replaced atomically)")
    p.add_argument("--seed", type=non_negative_int, default=0, metavar="N",
                   help="seed for inputs, test choice and distractors (default 0)")
    p.add_argument("--limit", type=positive_int, metavar="N",
                   help="only the first N candidate functions")
    p.add_argument("--min-tests", type=positive_int, default=7, metavar="N",
                   help="skip a function with fewer distinct valid inputs (default 7)")
    p.add_argument("--max-tests", type=positive_int, default=10, metavar="N",
                   help="tests per task at most (default 10)")
    p.add_argument("--include-private", action="store_true",
                   help="also functions whose names start with an underscore")
    p.add_argument("--include-methods", action="store_true",
                   help="also @staticmethod functions of module-level classes (they run "
                        "without an instance; other methods are still skipped)")
    p.add_argument("--name", help="benchmark name (default: DIR's folder name)")
    p.add_argument("--timeout", type=float, default=5.0, metavar="S",
                   help="per-suite timeout for canonicals and validation, in CPU seconds "
                        "(default 5)")
    p.add_argument("--mutant-timeout", type=float, default=MUTANT_TIMEOUT, metavar="S",
                   help="per-suite timeout for candidate mutants, in CPU seconds "
                        f"(default {MUTANT_TIMEOUT:g})")
    p.add_argument("--no-cache", action="store_true",
                   help="execute everything, ignoring the result cache")
    add_dask_option(p)
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..build.builder import BuildValidationError
    from ..build.fromcode import build_from_code
    from .progress import TerminalProgress

    if args.min_tests > args.max_tests:
        print(f"execretrieval build-from-code: error: --min-tests {args.min_tests} is more "
              f"than --max-tests {args.max_tests}", file=sys.stderr)
        return 2
    try:
        with _stop_on_interrupt() as should_stop, _oracles(args) as (oracle, mutant_oracle), \
                TerminalProgress("building") as progress:
            result = build_from_code(args.sources, args.out, seed=args.seed, limit=args.limit,
                                     min_tests=args.min_tests, max_tests=args.max_tests,
                                     include_private=args.include_private,
                                     include_methods=args.include_methods, oracle=oracle,
                                     mutant_oracle=mutant_oracle, name=args.name,
                                     progress=progress, should_stop=should_stop)
    except CancelledError:
        print(f"execretrieval build-from-code: interrupted; {args.out} was left unchanged",
              file=sys.stderr)
        return 130
    except BuildValidationError as exc:
        print(f"execretrieval build-from-code: {exc}", file=sys.stderr)
        return 1
    except BuildError as exc:
        print(f"execretrieval build-from-code: {exc}", file=sys.stderr)
        return 1
    except ExecRetrievalError as exc:  # a source that cannot be resolved
        print(f"execretrieval build-from-code: error: {exc}", file=sys.stderr)
        return 2
    counts = result.build.manifest["counts"]
    print(result.summary())
    print(f"wrote {result.out}: {counts['queries']} tasks, {counts['snippets']} snippets "
          f"({counts['distractors']} distractors); every function's fate in "
          f"{result.out}/build_report.json")
    return 0
