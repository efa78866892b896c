"""``execretrieval leaderboard`` as a file: .md, .html, .tex (the LaTeX table) or .json."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from ..fileio import atomic_write_text
from .html import CSS
from .latex import latex_table
from .nway import nway_html, nway_markdown

__all__ = ["BOARD_FORMATS", "board_html", "board_markdown", "board_text", "write_board"]

BOARD_FORMATS = (".md", ".html", ".tex", ".json")


def _intro(data: Mapping[str, Any]) -> tuple[str, list[str]]:
    b = data["benchmark"]
    s = data["settings"]
    title = f"ExecRetrieval leaderboard: {b.get('name')}"
    facts = [f"benchmark fingerprint {str(b.get('fingerprint'))[:16]}…, "
             f"{b.get('queries')} queries; tie policy {s.get('ties', 'expected')}; "
             f"{s.get('bootstrap')} bootstrap replicates, seed {data.get('seed')}; "
             f"correction {s.get('correction')}"]
    facts += [f"{label}: {src['model']} from {src['file']}"
              for label, src in data["sources"].items()]
    facts += [f"note: {n}" for n in data.get("notes") or ()]
    return title, facts


def board_markdown(data: Mapping[str, Any]) -> str:
    title, facts = _intro(data)
    return "\n".join([f"# {title}", "", *(f"- {f}" for f in facts), *nway_markdown(data),
                      ""])


def board_html(data: Mapping[str, Any]) -> str:
    title, facts = _intro(data)
    items = "".join(f"<li>{escape(f)}</li>" for f in facts)
    return "\n".join(["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
                      f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
                      f"<h1>{escape(title)}</h1><ul>{items}</ul>", *nway_html(data),
                      "</body></html>", ""])


def write_board(data: Mapping[str, Any], path: str | Path,
                metrics: Sequence[str] | None = None, *, ci: bool = False) -> Path:
    """Write the combined leaderboard in the format its suffix names (atomically)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".md":
        text = board_markdown(data)
    elif suffix == ".html":
        text = board_html(data)
    elif suffix == ".tex":
        text = latex_table(data, metrics, ci=ci)
    elif suffix == ".json":
        text = json.dumps(data, indent=2, allow_nan=False) + "\n"
    else:
        raise ValueError(f"{path}: unknown leaderboard format {suffix or '(none)'}; use one "
                         f"of {', '.join(BOARD_FORMATS)}")
    atomic_write_text(path, text)
    return path


def board_text(data: Mapping[str, Any]) -> list[str]:
    """The leaderboard as terminal lines, per metric best first."""
    lines = []
    metrics = list(dict.fromkeys(s["metric"] for s in data["leaderboard"]))
    for metric in metrics:
        lines.append(f"{metric} [--ties {data['settings'].get('ties', 'expected')}, "
                     f"--correction {data['settings'].get('correction')}]")
        for s in data["leaderboard"]:
            if s["metric"] != metric:
                continue
            interval = (f"{s['rank_low']}" if s["rank_low"] == s["rank_high"]
                        else f"{s['rank_low']}-{s['rank_high']}")
            lines.append(f"  tier {s['tier']}  {s['system']:<22} {s['mean']:.3f} "
                         f"[{s['ci_low']:.3f}, {s['ci_high']:.3f}]  rank {s['rank']} "
                         f"(95% {interval})")
    return lines
