"""Check that the engine's layers run one way: a part imports only the parts below it.

Usage: ``python tools/check_layers.py``. Uses the import graph of ``check_imports.py``
(imports inside functions included, ``if TYPE_CHECKING:`` aside). Exit status 0 when every
import of ``execretrieval`` goes down (or sideways inside one part); 1 prints each import
that reaches up. The order, lowest first, is the one docs/architecture.md draws.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_imports import ROOT, edges_of, modules_of  # noqa: E402

# What each part may import besides itself. "base" is the top-level modules (errors,
# fileio, hooks); "top" is the package's own __init__ (the public API).
ALLOWED = {
    "base": set(),
    "oracle": {"base"},
    "benchmark": {"base", "oracle"},
    "mutation": {"base", "benchmark"},
    "ranking": {"base", "benchmark"},
    "inputs": {"base", "oracle", "benchmark"},
    "build": {"base", "oracle", "benchmark", "mutation", "inputs"},
    "audit": {"base", "oracle", "benchmark", "mutation", "inputs"},
    "measure": {"base", "benchmark", "ranking"},
    "pipeline": {"base", "oracle", "benchmark", "ranking", "inputs"},
    "report": {"base", "oracle", "benchmark", "ranking", "measure", "inputs", "audit",
               "pipeline"},
    "cli": {"base", "oracle", "benchmark", "mutation", "ranking", "inputs", "build",
            "audit", "measure", "pipeline", "report", "top"},
    "top": {"base", "oracle", "benchmark", "mutation", "ranking", "inputs", "build",
            "audit", "measure", "pipeline", "report"},
}


def part(module: str, folder: Path) -> str:
    """The part a module of ``execretrieval`` belongs to."""
    parts = module.split(".")
    if len(parts) == 1:
        return "top"
    return parts[1] if (folder / parts[1]).is_dir() else "base"


def check(folder: Path = ROOT / "core", package: str = "execretrieval") -> list[str]:
    known = modules_of(folder, package)
    problems = []
    for module, path in sorted(known.items()):
        mine = part(module, folder)
        if mine not in ALLOWED:
            problems.append(f"{module}: part {mine!r} has no place in the layer order")
            continue
        for target in sorted(edges_of(module, path, known)):
            theirs = part(target, folder)
            if theirs != mine and theirs not in ALLOWED[mine]:
                problems.append(f"{module} ({mine}) imports {target} ({theirs})")
    return problems


def main() -> int:
    problems = check()
    for line in problems:
        print(line)
    if problems:
        print(f"execretrieval: {len(problems)} import(s) against the layer order")
        return 1
    print("execretrieval: layers respected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
