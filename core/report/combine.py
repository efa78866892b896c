"""One leaderboard from several reports of the same benchmark.

:func:`combine_reports` refuses reports that were not measured alike -- another benchmark
fingerprint, tie policy, split or set of measured queries -- with a message naming the
difference and the files, then runs every pair of all their systems with the correction
and builds rank intervals and tiers from one common set of bootstrap replicates (the first
report's replicates and seed), exactly as a single report over all of them would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputFormatError
from ..measure.multiple import CORRECTIONS, leaderboard, pairwise

__all__ = ["combine_reports"]

_MUST_AGREE = (("benchmark fingerprint", lambda d: (d.get("benchmark") or {}).get("fingerprint")),
               ("tie policy", lambda d: (d.get("settings") or {}).get("ties", "expected")),
               ("split", lambda d: (d.get("settings") or {}).get("split")),
               ("measured queries", lambda d: tuple((d.get("per_query") or {})
                                                    .get("query_ids") or ())))


def _short(value: Any) -> str:
    if isinstance(value, tuple):
        return f"{len(value)} queries"
    return repr(value)


def combine_reports(reports: Sequence[tuple[str | Path, Mapping[str, Any]]], *,
                    correction: str = "holm", metrics: Sequence[str] | None = None
                    ) -> dict[str, Any]:
    """``{"benchmark", "settings", "seed", "sources", "notes", "pairs", "leaderboard"}``
    over ``(file, report JSON)`` pairs (read with :func:`.rundiff.read_report`)."""
    if not reports:
        raise ValueError("give at least one report")
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}; expected one of "
                         f"{', '.join(CORRECTIONS)}")
    first_file, first = reports[0]
    for what, get in _MUST_AGREE:
        for file, data in reports[1:]:
            if get(data) != get(first):
                raise InputFormatError(
                    f"{what} {_short(get(data))} differs from {first_file}'s "
                    f"{_short(get(first))}; a leaderboard needs reports measured alike",
                    file=Path(file))
    per_query: dict[str, dict[str, np.ndarray]] = {}
    sources: dict[str, dict[str, Any]] = {}
    for file, data in reports:
        stem = Path(file).stem
        models = (data.get("per_query") or {}).get("models") or {}
        for name, entry in models.items():
            label = name if name not in per_query else f"{name} ({stem})"
            n = 2
            while label in per_query:
                label, n = f"{name} ({stem} #{n})", n + 1
            per_query[label] = {m: np.asarray(v, dtype=np.float64)
                                for m, v in (entry.get("metrics") or {}).items()}
            sources[label] = {"file": str(file), "model": name,
                              "identity": ((data.get("manifest") or {}).get("systems") or {})
                              .get(name)}
    if len(per_query) < 2:
        raise ValueError("a leaderboard needs two or more systems across the reports")
    common = [m for m in next(iter(per_query.values()))
              if all(m in v for v in per_query.values())]
    shown = list(metrics) if metrics else common
    unknown = [m for m in shown if m not in common]
    if unknown:
        raise ValueError(f"not every report has {', '.join(unknown)}; they share "
                         f"{', '.join(common)}")
    settings = dict(first.get("settings") or {})
    n_boot = int(settings.get("bootstrap", 5000))
    seed = int(first.get("seed", 0))
    notes = [f"{file}: its intervals used {(data.get('settings') or {}).get('bootstrap')} "
             f"replicates with seed {data.get('seed')}; this board resamples every system "
             f"with {first_file}'s ({n_boot}, seed {seed})"
             for file, data in reports[1:]
             if ((data.get("settings") or {}).get("bootstrap"), data.get("seed"))
             != (settings.get("bootstrap"), first.get("seed"))]
    pairs = pairwise(per_query, shown, correction=correction, n_boot=n_boot, seed=seed)
    standings = leaderboard(per_query, shown, pairs, n_boot=n_boot, seed=seed)
    settings.update(correction=correction, correction_note=CORRECTIONS[correction])
    return {"benchmark": dict(first.get("benchmark") or {}), "settings": settings,
            "seed": seed, "sources": sources, "notes": notes,
            "pairs": [p.to_dict() for p in pairs],
            "leaderboard": [s.to_dict() for s in standings]}
