"""The ``execretrieval`` command line: one module per group of subcommands.

The top layer: may import every other part of the engine; nothing imports it.
"""

from __future__ import annotations

from .entry import build_parser, main

__all__ = ["build_parser", "main"]
