"""``--visible`` / ``--split-seed`` and the ranking of system names (models or pipelines),
shared by ``evaluate``, ``compare`` and ``export-run``. Nothing heavy is imported until a
command runs."""

from __future__ import annotations

import argparse
from typing import Any

from .args import non_negative_int

PIPELINE_HELP = ("a model name or path, or a pipeline BASE+STAGE+...: e.g. minilm+exec, "
                 "bm25+exec:depth=20, minilm+consensus, minilm+consensus:inputs=0, "
                 "rrf:bm25,minilm+exec, "
                 "combsum:bm25,minilm (stages: exec, consensus; both need --visible)")


def add_split_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--visible", metavar="N|FRACTION",
                        help="split every query's suite: N tests (or a fraction, e.g. 0.5) "
                             "are visible to stages that execute tests; every system is then "
                             "judged on the held-out rest only")
    parser.add_argument("--split-seed", type=non_negative_int, default=0, metavar="S",
                        help="seed of the visible/held-out split (default 0)")


class OptionError(ValueError):
    """A bad value of a command-line option (the message names the option)."""


def split_from_args(args: argparse.Namespace, benchmark: Any) -> Any:
    """The held-out split the options ask for, or None without ``--visible``."""
    if args.visible is None:
        return None
    from ..pipeline.split import make_split, parse_visible

    try:
        visible = parse_visible(args.visible)
    except ValueError as exc:
        raise OptionError(f"--visible: {exc}") from exc
    return make_split(benchmark, visible, args.split_seed)


def rank_systems(benchmark: Any, names: list[str], *, keep: int, oracle: Any,
                 split: Any) -> list[Any]:
    """Each name's ranking (pipelines' stages executed on the visible tests), with a
    progress line per system."""
    from ..pipeline.systems import rank_system
    from .progress import TerminalProgress

    rankings = []
    for name in names:
        with TerminalProgress(f"scoring with {name}") as scoring:
            rankings.append(rank_system(benchmark, name, keep=keep, oracle=oracle,
                                        split=split, progress=scoring))
    return rankings
