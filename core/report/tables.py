"""Tables shared by the Markdown and HTML reports (report JSON in, formatted cells out)."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["blind_table", "fmt_cell", "tie_table"]


def fmt_cell(value: Any, digits: int = 3) -> str:
    """A report cell as text: floats to ``digits`` places, None and NaN/inf as an en dash."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def tie_table(models: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the ties table (report JSON models in, formatted cells out):
    policy, queries tied across each cut, and the exec@1 / exec@10 (or largest k) range."""
    if not models:
        return [], []
    first = next(iter(models.values()))
    cuts = list(first.get("tie_report", {}).get("queries_tied_at_cut", {}))
    execs = [k for k in first["metrics"] if k.startswith("exec@")]
    shown = [k for k in ("exec@1", "exec@10") if k in execs] or execs[-1:]
    header = ["model", "policy", *(f"tied at k={k}" for k in cuts),
              *(f"{k} range" for k in shown)]
    rows = []
    for name, m in models.items():
        tr = m.get("tie_report", {})
        ranges = tr.get("range", {})
        rows.append([name, str(tr.get("policy", "")),
                     *(str(tr.get("queries_tied_at_cut", {}).get(k, "")) for k in cuts),
                     *(f"{fmt_cell(ranges.get(k, {}).get('pessimistic'))}–"
                       f"{fmt_cell(ranges.get(k, {}).get('optimistic'))}" for k in shown)])
    return header, rows


def blind_table(models: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the blind-spots table: paired mutants each model cannot tell
    from their canonical (past its input window, bit-identical vector, identical scores)."""
    rows = []
    for name, m in models.items():
        b = m.get("blind_spots")
        if not b:
            continue

        def count(key: str, b: dict[str, Any] = b) -> str:
            value = b.get(key)
            return "–" if value is None else str(value.get("count", ""))

        window = b.get("window")
        rows.append([name, str(b.get("pairs", "")),
                     f"{window} ({b.get('window_source', '')})" if window else "–",
                     count("past_window"), count("identical_vectors"),
                     count("identical_scores")])
    header = ["model", "paired mutants", "input window (word pieces)", "edit past the window",
              "vector identical to the canonical's", "every score equal to the canonical's"]
    return header, rows
