"""Benchmarks from real code: the functions a Python source holds, sliced into tasks."""

from .builder import FROMCODE_VERSION, FromCodeResult, build_from_code
from .discover import Discovery, Example, FunctionSource, SourceInfo, discover_functions
from .report import FunctionReport, summary_table

__all__ = ["Discovery", "Example", "FunctionSource", "SourceInfo", "discover_functions",
           "FROMCODE_VERSION", "FromCodeResult", "FunctionReport", "build_from_code",
           "summary_table"]
