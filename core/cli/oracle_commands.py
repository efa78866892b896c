"""CLI command of the execution oracle: ``run-tests`` (``validate`` lives in ``_cli_validate``).

``execretrieval run-tests --code FILE.py --tests TESTS.json [--timeout S] [--no-cache]
[--output] [--json]`` exits 0 when every test passes, 1 when any does not, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..errors import InputFormatError
from .args import add_oracle_options, make_oracle

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add this module's subcommands to the ``execretrieval`` parser."""
    _register_run_tests(subparsers)


# ---------------------------------------------------------------------------------------
# run-tests


def _register_run_tests(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run-tests", help="run a test suite against one code file in the sandbox",
        description="Run each assert test of TESTS.json against the code in FILE.py, in the "
                    "execution oracle's sandbox. Exit 0 if every test passes, 1 if any does "
                    "not, 2 on bad input.")
    parser.add_argument("--code", required=True, metavar="FILE.py", type=Path,
                        help="the Python code under test")
    parser.add_argument("--tests", required=True, metavar="TESTS.json", type=Path,
                        help="a JSON array of test strings (each usually one assert)")
    add_oracle_options(parser,
                       timeout_help="time limit for the whole suite, in seconds (default 5)",
                       cache_help="do not read or write the result cache", dask=False)
    parser.add_argument("--output", action="store_true",
                        help="print what each test printed (stdout and stderr) under it, and "
                             "what loading the code printed above the tests")
    parser.add_argument("--json", action="store_true",
                        help="print the outcome as JSON (always with each test's output)")
    # one suite, nothing left open at the end: skip the interpreter's teardown (entry.main)
    parser.set_defaults(handler=_run_tests, exit_at_once=True)


def _read_inputs(code_path: Path, tests_path: Path) -> tuple[str, list[str]]:
    """Read the code file and the tests file, or raise InputFormatError naming the file."""
    try:
        code = code_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFormatError(f"cannot read the code file: {_reason(exc)}",
                               file=code_path) from exc
    try:
        text = tests_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFormatError(f"cannot read the tests file: {_reason(exc)}",
                               file=tests_path) from exc
    try:
        tests = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        raise InputFormatError(f"not valid JSON: {exc}", file=tests_path, line=line) from exc
    if not isinstance(tests, list):
        raise InputFormatError(f"expected a JSON array of test strings, found "
                               f"{_json_type(tests)}", file=tests_path)
    for i, test in enumerate(tests):
        if not isinstance(test, str):
            raise InputFormatError(f"test {i} is not a string (found {_json_type(test)})",
                                   file=tests_path, field=f"[{i}]")
    return code, tests


def _json_type(value: object) -> str:
    """The JSON name of a parsed value's type: object, array, string, number, ..."""
    if value is None:
        return "null"
    names = {bool: "boolean", dict: "an object", list: "an array", str: "a string",
             int: "a number", float: "a number"}
    return names.get(type(value), type(value).__name__)


def _reason(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def _run_tests(args: argparse.Namespace) -> int:
    from ..oracle.pool import ForkServerPool

    # The server sets itself up (its own interpreter, namespaces, probes) while this
    # process loads the rest of the oracle and reads the inputs.
    servers = ForkServerPool(1)
    servers.prestart()
    try:
        oracle = make_oracle(args, workers=1, runner=servers)
    except BaseException:
        servers.close()
        raise
    with oracle:
        code, tests = _read_inputs(args.code, args.tests)
        result = oracle.run(code, tests)
    if args.json:
        print(json.dumps({"passed": result.passed, "setup_output": result.setup_output,
                          "tests": [{"test": o.test, "status": o.status, "detail": o.detail,
                                     "output": o.output}
                                    for o in result.outcomes]}, indent=2))
    else:
        _print_table(result, output=args.output)
    return 0 if result.passed else 1


def _print_output(text: str, label: str) -> None:
    """``text`` indented under a rule naming what printed it."""
    print(f"{'':>14}--- {label} ---")
    for line in text.rstrip("\n").splitlines():
        print(f"{'':>14}| {line}")


def _print_table(result: Any, *, output: bool = False) -> None:
    """One row per test: number, status, the test's first line, the detail below it, and
    with ``output`` what the test printed (or that it printed nothing)."""
    rows = result.outcomes
    if output and result.setup_output:
        _print_output(result.setup_output, "loading the code printed")
    for i, outcome in enumerate(rows, 1):
        first = outcome.test.strip().splitlines()[0] if outcome.test.strip() else "(empty)"
        if len(first) > 70:
            first = first[:67] + "..."
        print(f"{i:>3}  {outcome.status.upper():<7}  {first}")
        if outcome.detail and outcome.status != "pass":
            for line in outcome.detail.splitlines()[:5]:
                print(f"{'':>14}{line}")
        if output:
            if outcome.output:
                _print_output(outcome.output, f"test {i} printed")
            else:
                print(f"{'':>14}(test {i} printed nothing)")
    from ..oracle.results import STATUSES

    counts = {s: sum(o.status == s for o in rows) for s in STATUSES}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    verdict = "PASSED" if result.passed else "NOT PASSED"
    cached = " (cached)" if result.cached else ""
    print(f"{verdict}: {summary or 'no tests'}{cached}")

