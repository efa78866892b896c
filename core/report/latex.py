"""LaTeX tables a paper can print: systems x metrics, booktabs, significance superscripts.

:func:`latex_table` reads the report JSON (``leaderboard``, ``pairs``, ``settings``,
``benchmark``) and writes a document that compiles with plain ``pdflatex`` and the
``booktabs`` package; the ``table`` environment between the two ``% ---`` comment lines is
what goes into a paper. Each system gets a letter; a superscript on a cell lists the
letters of the systems that row beats significantly on that metric after the report's
correction (as ranx's ``to_latex`` does); the best mean per column is bold; ``ci=True``
adds each mean's 95% bootstrap interval. The caption names the test, the correction, the
tie policy and the benchmark.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from .nway import ALPHA, shown_metrics, test_sentence

__all__ = ["latex_escape", "latex_table"]

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def latex_escape(text: str) -> str:
    """Plain text safe in LaTeX text mode."""
    return "".join(_SPECIAL.get(c, c) for c in str(text))


def _letters(n: int) -> list[str]:
    alphabet = string.ascii_lowercase
    return [alphabet[i] if i < 26 else alphabet[i // 26 - 1] + alphabet[i % 26]
            for i in range(n)]


def _fmt(value: Any, digits: int) -> str:
    if value is None or not isinstance(value, int | float) or value != value:
        return "--"
    return f"{value:.{digits}f}"


def latex_table(data: Mapping[str, Any], metrics: Sequence[str] | None = None, *,
                ci: bool = False, digits: int = 3, label: str | None = None) -> str:
    """A standalone LaTeX document holding the systems x ``metrics`` table (default: the
    report's exec@k). Raises ValueError when the report has no leaderboard (one system)."""
    board = list(data.get("leaderboard") or ())
    if not board:
        raise ValueError("a LaTeX table needs a report of two or more systems")
    shown = list(metrics) if metrics else shown_metrics(data)
    known = {s["metric"] for s in board}
    missing = [m for m in shown if m not in known]
    if missing:
        raise ValueError(f"the report has no leaderboard for {', '.join(missing)}; it has "
                         f"{', '.join(sorted(known))}")
    first = shown[0]
    systems = [s["system"] for s in board if s["metric"] == first]   # best first on `first`
    letters = dict(zip(systems, _letters(len(systems)), strict=True))
    cell = {(s["system"], s["metric"]): s for s in board}
    beats: dict[tuple[str, str], list[str]] = {}
    pairs = [p for p in data.get("pairs") or () if p["metric"] in shown]
    for p in pairs:
        if p.get("p_adjusted") is None or p["p_adjusted"] >= ALPHA or not p["diff"]:
            continue
        winner, loser = (p["a"], p["b"]) if p["diff"] > 0 else (p["b"], p["a"])
        beats.setdefault((winner, p["metric"]), []).append(loser)
    best = {}
    for m in shown:
        values = [round(cell[(s, m)]["mean"], digits) for s in systems
                  if cell.get((s, m), {}).get("mean") is not None]
        best[m] = max(values) if values else None
    settings = data.get("settings") or {}
    b = data.get("benchmark") or {}
    lines = [r"\documentclass{article}", r"\usepackage{booktabs}",
             r"\begin{document}", "% --- the table", r"\begin{table}[t]", r"\centering",
             r"\caption{" + _caption(data, pairs, settings, b, ci) + "}",
             r"\label{" + (label or f"tab:execretrieval-{_label(str(b.get('name', '')))}")
             + "}",
             r"\begin{tabular}{ll" + "r" * len(shown) + "}", r"\toprule",
             " & System & " + " & ".join(latex_escape(m) for m in shown) + r" \\",
             r"\midrule"]
    for s in systems:
        cells = []
        for m in shown:
            entry = cell.get((s, m))
            if entry is None:
                cells.append("--")
                continue
            text = _fmt(entry["mean"], digits)
            if entry["mean"] is not None and best[m] is not None \
                    and round(entry["mean"], digits) == best[m]:
                text = r"\textbf{" + text + "}"
            losers = sorted(letters[x] for x in beats.get((s, m), ()) if x in letters)
            if losers:
                text += r"$^{\mathrm{" + "".join(losers) + "}}$"
            if ci:
                text += (r" {\scriptsize[" + _fmt(entry["ci_low"], digits) + ", "
                         + _fmt(entry["ci_high"], digits) + "]}")
            cells.append(text)
        lines.append(f"{letters[s]} & {latex_escape(s)} & " + " & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", "% ---", r"\end{document}",
              ""]
    return "\n".join(lines)


def _label(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name).strip("-") or "benchmark"


def _caption(data: Mapping[str, Any], pairs: Sequence[Mapping[str, Any]],
             settings: Mapping[str, Any], b: Mapping[str, Any], ci: bool) -> str:
    """The caption, in LaTeX: every value from the report is escaped."""
    esc = latex_escape
    ties = str(settings.get("ties", "expected"))
    tie_words = {"expected": "the exact expectation over every order of tied scores",
                 "optimistic": "ties broken in favour of correct code",
                 "pessimistic": "ties broken against correct code",
                 "corpus": "ties broken by corpus order"}.get(ties, "")
    version = f" {esc(b['version'])}" if b.get("version") else ""
    fingerprint = esc(str(b.get("fingerprint") or "")[:12])
    parts = [f"Mean over the {esc(b.get('queries', '?'))} queries of benchmark "
             f"{esc(b.get('name', '?'))}{version} (fingerprint {fingerprint}).",
             "Best per column in bold; a superscript lists the systems (by letter) the row "
             "beats significantly: "
             f"{esc(test_sentence(pairs, settings.get('correction')))}, "
             f"$\\alpha = {ALPHA}$.",
             f"Tie policy: {esc(ties)}" + (f" ({tie_words})." if tie_words else ".")]
    if ci:
        parts.append("Brackets: 95\\% percentile bootstrap intervals over queries "
                     f"({esc(settings.get('bootstrap', '?'))} replicates, seed "
                     f"{esc(data.get('seed', '?'))}).")
    return " ".join(parts)
