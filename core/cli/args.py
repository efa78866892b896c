"""Argument types shared by the ``execretrieval`` subcommands.

Each raises ``argparse.ArgumentTypeError``, so a bad value is reported by argparse as
``argument --X: ...`` with exit code 2 (bad input) before any work starts, never as a
traceback from deep inside the engine.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

__all__ = ["BENCHMARK_HELP", "add_oracle_options", "make_oracle", "non_negative_int",
           "positive_int", "seconds"]

BENCHMARK_HELP = ("benchmark folder, or the name of a bundled benchmark (builtin, tiny, "
                  "humaneval: see `execretrieval benchmarks`); a folder of that name wins")


def add_oracle_options(parser: argparse.ArgumentParser, *,
                       timeout_help: str = "per-suite timeout in seconds (default 5)",
                       cache_help: str = "execute everything, ignoring and not updating the "
                                         "result cache") -> None:
    """The ``--no-cache`` and ``--timeout S`` options every executing command takes."""
    parser.add_argument("--no-cache", action="store_true", help=cache_help)
    parser.add_argument("--timeout", type=seconds, default=5.0, metavar="S", help=timeout_help)


def make_oracle(args: argparse.Namespace, *, timeout: float | None = None,
                **options: Any) -> Any:
    """An Oracle for the command's ``--timeout`` (or ``timeout``) and ``--no-cache``."""
    from ..oracle.execution import Oracle

    if args.no_cache:
        options["cache"] = None
    return Oracle(timeout=args.timeout if timeout is None else timeout, **options)


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds greater than zero."""
    try:
        value = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") \
            from exc
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, "
                                         f"got {text!r}")
    return value


def positive_int(text: str) -> int:
    """An integer of at least 1."""
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer of at least 0 (seeds, limits where 0 means 'none')."""
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from exc
