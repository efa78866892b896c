"""The ``execretrieval`` command line.

Each group of subcommands lives in its own ``_cli_*`` module exposing
``register(subparsers)``; every handler returns the process exit code. Exit codes follow
one rule across commands: 0 success, 1 a check failed (a test, a gate), 2 bad input;
130 interrupted, 141 output pipe closed by its reader.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from ..errors import ExecRetrievalError

__all__ = ["build_parser", "main"]

# Subcommand modules, in the order their commands appear in --help.
COMMAND_MODULES = (
    "execretrieval.cli.oracle_commands",    # run-tests
    "execretrieval.cli.validate_command",  # validate
    "execretrieval.cli.build_commands",     # build, import-humaneval
    "execretrieval.cli.audit_commands",     # audit
    "execretrieval.cli.flags_command",      # flags
    "execretrieval.cli.rank_commands",      # evaluate, export-run, export-qrels
    "execretrieval.cli.compare_command",    # compare
    "execretrieval.cli.publish_commands",   # diff, leaderboard
    "execretrieval.cli.embed_command",      # embed (local or served models)
    "execretrieval.cli.benchmarks_command",  # benchmarks
    "execretrieval.cli.doctor_command",     # doctor
    "execretrieval.cli.pool_commands",      # pool
)


class _VersionAction(argparse.Action):
    """``--version`` printed as written (argparse's own action re-wraps the lines)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help=str(kwargs.get("help") or ""))

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(version_text())
        parser.exit()


def version_text() -> str:
    """``execretrieval 0.1.0 (Python 3.11.7 at /usr/bin/python3)`` and the extras line."""
    import platform

    from .. import __version__
    from ..distribution import installed_extras

    extras = installed_extras()
    have = ", ".join(e for e, ok in extras.items() if ok) or "none"
    lacking = [e for e, ok in extras.items() if not ok]
    return (f"execretrieval {__version__} (Python {platform.python_version()} at "
            f"{sys.executable})\nextras installed: {have}"
            + (f"; not installed: {', '.join(lacking)}" if lacking else ""))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="execretrieval",
        description="Measure and inspect how code retrievers rank correct code against "
                    "near-identical buggy mutants.",
    )
    parser.add_argument("--version", action=_VersionAction,
                        help="show the version, the Python it runs on and the extras "
                             "installed, then exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.handler(args))
    except ExecRetrievalError as exc:
        print(f"execretrieval {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"execretrieval {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # whoever read our output stopped early (``... --json | head``): not worth a
        # traceback; point stdout at /dev/null so the final flush at exit stays quiet
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141  # 128 + SIGPIPE, what the shell reports for a writer killed by it
    except OSError as exc:  # a file or folder that cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"execretrieval {args.command}: error: {where}{exc.strerror or exc}",
              file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
