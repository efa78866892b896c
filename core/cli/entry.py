"""The ``execretrieval`` command line.

Each group of subcommands lives in its own ``*_command(s)`` module exposing
``register(subparsers)``; every handler returns the process exit code. Exit codes follow
one rule across commands: 0 success, 1 a check failed (a test, a gate), 2 bad input;
130 interrupted, 141 output pipe closed by its reader.

Start-up is part of the interface: ``--version``, ``--help`` and ``run-tests`` on a small
suite answer at once, and a test (tests/test_cli_startup.py) keeps numpy, pandas and scipy
out of them. So a command module imports at its top only the standard library, the base
layer (``..errors``) and ``.args`` / ``.choices``: its ``register`` builds the parser from
those, and its handler imports the engine parts it needs in its first lines, after the
arguments are parsed. A choice list or default owned by a heavy engine module goes in
``choices.py`` (with its equality check in that test). A command line that names a
command imports only that command's module (``COMMANDS``); ``--help`` imports them all,
``--version`` none. A new command: add its module to ``COMMAND_MODULES`` and its name(s)
to ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from ..errors import ExecRetrievalError

__all__ = ["COMMANDS", "build_parser", "main"]

# Subcommand modules, in the order their commands appear in --help.
COMMAND_MODULES = (
    "execretrieval.cli.oracle_commands",    # run-tests
    "execretrieval.cli.validate_command",  # validate
    "execretrieval.cli.build_commands",     # build, import-humaneval
    "execretrieval.cli.fromcode_command",   # build-from-code
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

# Which module registers each command (a test checks this against what each registers).
COMMANDS = {
    "run-tests": "execretrieval.cli.oracle_commands",
    "validate": "execretrieval.cli.validate_command",
    "build": "execretrieval.cli.build_commands",
    "import-humaneval": "execretrieval.cli.build_commands",
    "build-from-code": "execretrieval.cli.fromcode_command",
    "audit": "execretrieval.cli.audit_commands",
    "flags": "execretrieval.cli.flags_command",
    "evaluate": "execretrieval.cli.rank_commands",
    "compare": "execretrieval.cli.compare_command",
    "diff": "execretrieval.cli.publish_commands",
    "leaderboard": "execretrieval.cli.publish_commands",
    "export-run": "execretrieval.cli.rank_commands",
    "export-qrels": "execretrieval.cli.rank_commands",
    "embed": "execretrieval.cli.embed_command",
    "benchmarks": "execretrieval.cli.benchmarks_command",
    "doctor": "execretrieval.cli.doctor_command",
    "pool": "execretrieval.cli.pool_commands",
}


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


def modules_for(argv: Sequence[str]) -> tuple[str, ...]:
    """The command modules a parser for ``argv`` needs: the named command's only, none
    for a bare ``--version``, else all (``--help``, no command, an unknown one: argparse
    then lists them all)."""
    for token in argv:
        if token in ("-h", "--help"):
            break
        if token == "--version":   # argparse prints it and exits right there
            return ()
        if not token.startswith("-"):   # the top level has no option taking a value
            module = COMMANDS.get(token)
            if module in COMMAND_MODULES:
                return (module,)
            break
    return COMMAND_MODULES


def build_parser(modules: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with ``modules`` only those modules' commands."""
    parser = argparse.ArgumentParser(
        prog="execretrieval",
        description="Measure and inspect how code retrievers rank correct code against "
                    "near-identical buggy mutants.",
    )
    parser.add_argument("--version", action=_VersionAction,
                        help="show the version, the Python it runs on and the extras "
                             "installed, then exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES if modules is None else modules:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    program = argv is None  # the command itself (not a call from Python, such as a test)
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(modules_for(argv))
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        build_parser().print_help(sys.stderr)
        return 2
    try:
        code = int(args.handler(args))
        if program and getattr(args, "exit_at_once", False):
            _exit_at_once(code)
        return code
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


def _exit_at_once(code: int) -> None:
    """End the process now, for a command that set ``exit_at_once`` (it has closed what it
    opened): exit handlers run and output is flushed, as at any exit, but the interpreter's
    teardown of every module and object is skipped (15% of run-tests' wall time)."""
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
