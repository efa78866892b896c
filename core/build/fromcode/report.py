"""What became of every function a build from code considered: ``build_report.json`` and
the summary table (tasks, and skipped by reason, per module)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["FunctionReport", "report_json", "summary_table"]


@dataclass(frozen=True)
class FunctionReport:
    """One function: ``source`` is ``module:file:line``; ``status`` ``"task"`` (then
    ``query_id`` names it) or ``"skipped"`` (then ``reason`` says why)."""

    name: str
    module: str
    file: str
    line: int
    status: str
    reason: str = ""
    query_id: str = ""

    @property
    def source(self) -> str:
        return f"{self.module}:{self.file}:{self.line}"

    def to_dict(self) -> dict[str, str]:
        out = {"name": self.name, "source": self.source, "status": self.status,
               "reason": self.reason}
        if self.query_id:
            out["query_id"] = self.query_id
        return out


def report_json(functions: Sequence[FunctionReport]) -> bytes:
    """``build_report.json``'s bytes: every function in the order considered."""
    body = {"functions": [f.to_dict() for f in functions],
            "counts": {"considered": len(functions),
                       "tasks": sum(f.status == "task" for f in functions),
                       "skipped": dict(sorted(Counter(f.reason for f in functions
                                                      if f.status != "task").items()))}}
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _reason_key(reason: str) -> str:
    """Reasons that name a detail (``reads the clock (time.time)``, ``function name already
    used by m:f.py:3``) grouped without it."""
    return reason.split(" (", 1)[0].split(" by ", 1)[0]


def summary_table(functions: Sequence[FunctionReport]) -> str:
    """Per module: functions considered, tasks, and the skip reasons with counts;
    then the totals."""
    modules: dict[str, list[FunctionReport]] = {}
    for f in functions:
        modules.setdefault(f.module, []).append(f)
    width = max([len("module"), *(len(m) for m in modules)])
    lines = [f"{'module':<{width}}  functions  tasks  skipped by reason"]
    for module, items in modules.items():
        reasons = Counter(_reason_key(f.reason) for f in items if f.status != "task")
        tasks = sum(f.status == "task" for f in items)
        text = ", ".join(f"{r} {n}" for r, n in sorted(reasons.items(),
                                                     key=lambda kv: (-kv[1], kv[0])))
        lines.append(f"{module:<{width}}  {len(items):>9}  {tasks:>5}  {text}")
    total = Counter(_reason_key(f.reason) for f in functions if f.status != "task")
    tasks = sum(f.status == "task" for f in functions)
    lines.append(f"{'total':<{width}}  {len(functions):>9}  {tasks:>5}  "
                 + ", ".join(f"{r} {n}" for r, n in sorted(total.items(),
                                                          key=lambda kv: (-kv[1], kv[0]))))
    return "\n".join(lines)
