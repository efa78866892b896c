"""Argument types shared by the ``execretrieval`` subcommands.

Each raises ``argparse.ArgumentTypeError``, so a bad value is reported by argparse as
``argument --X: ...`` with exit code 2 (bad input) before any work starts, never as a
traceback from deep inside the engine.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

__all__ = ["BENCHMARK_HELP", "add_dask_option", "add_oracle_options", "dask_connection",
           "make_oracle", "non_negative_int", "positive_int", "seconds"]

BENCHMARK_HELP = ("benchmark folder, or the name of a bundled benchmark (builtin, tiny, stdlib, "
                  "humaneval: see `execretrieval benchmarks`); a folder of that name wins")


def add_oracle_options(parser: argparse.ArgumentParser, *,
                       timeout_help: str = "per-suite timeout in seconds (default 5)",
                       cache_help: str = "execute everything, ignoring and not updating the "
                                         "result cache", dask: bool = True) -> None:
    """The ``--no-cache``, ``--timeout S`` (and ``--dask``) options of executing commands."""
    parser.add_argument("--no-cache", action="store_true", help=cache_help)
    parser.add_argument("--timeout", type=seconds, default=5.0, metavar="S", help=timeout_help)
    if dask:
        add_dask_option(parser)


def add_dask_option(parser: argparse.ArgumentParser) -> None:
    """``--dask local|SCHEDULER_ADDRESS``: run the suites on a Dask cluster."""
    parser.add_argument("--dask", metavar="local|ADDRESS", default=None,
                        help="execute the suites on Dask workers: 'local' starts one worker "
                             "process per core on this machine, an address such as "
                             "tcp://host:8786 uses a running scheduler (workers need this "
                             "project installed). Results and cache are a local run's.")


def dask_connection(args: argparse.Namespace) -> Any:
    """A Dask connection for ``--dask`` to share between oracles, or None without it."""
    if not getattr(args, "dask", None):
        return None
    from ..oracle.distributed import DaskConnection

    return DaskConnection(args.dask)


def make_oracle(args: argparse.Namespace, *, timeout: float | None = None,
                connection: Any = None, **options: Any) -> Any:
    """An Oracle for the command's ``--timeout`` (or ``timeout``), ``--no-cache`` and
    ``--dask`` (a :class:`DaskOracle` on ``connection``, or on its own connection)."""
    if args.no_cache:
        options["cache"] = None
    timeout = args.timeout if timeout is None else timeout
    if getattr(args, "dask", None):
        from ..oracle.distributed import DaskOracle

        options.pop("workers", None)
        return DaskOracle(connection or args.dask, timeout=timeout, **options)
    from ..oracle.execution import Oracle

    return Oracle(timeout=timeout, **options)


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
