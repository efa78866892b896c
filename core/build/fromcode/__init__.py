"""Benchmarks from real code: the functions a Python source holds, sliced into tasks."""

from .discover import Discovery, Example, FunctionSource, SourceInfo, discover_functions

__all__ = ["Discovery", "Example", "FunctionSource", "SourceInfo", "discover_functions"]
