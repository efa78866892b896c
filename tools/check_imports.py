"""Check the import graph: no cycles in the engine or the GUI, and the engine's layers run one way.

Every import counts, including those inside functions; only imports under
``if TYPE_CHECKING:`` are left out (they never run). ``from pkg import name`` is an edge to
``pkg.name`` when that is a module, else to ``pkg``. Run from anywhere:

    python tools/check_imports.py        # exit 0: "no import cycles, layers respected"

Exit status 1 prints every cycle (as a chain of modules) and every import that reaches up a
layer. `make lint` runs it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"execretrieval": ROOT / "core", "execretrieval_gui": ROOT / "execretrieval_gui"}

# The engine's layers, lowest first: what each part may import (besides itself). "base" is
# the top-level modules (errors, fileio, hooks); "top" is the package's own __init__.
ENGINE_ALLOWED = {
    "base": {"base"},
    "oracle": {"base"},
    "benchmark": {"base", "oracle"},
    "mutation": {"base", "benchmark"},
    "ranking": {"base", "benchmark"},
    "build": {"base", "oracle", "benchmark", "mutation"},
    "measure": {"base", "benchmark", "ranking"},
    "report": {"base", "oracle", "benchmark", "ranking", "measure"},
    "cli": {"base", "oracle", "benchmark", "mutation", "ranking", "build", "measure", "report",
            "top"},
    "top": {"base", "oracle", "benchmark", "mutation", "ranking", "build", "measure", "report"},
}


def modules(package: str, folder: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file of a package folder."""
    out = {}
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join([package, *parts])] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def edges(name: str, path: Path, known: set[str]) -> set[str]:
    """The known modules that module ``name`` (file ``path``) imports."""
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            if node.level:
                base_parts = here.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        for target in targets:
            while target and target not in known:  # import a.b.c -> the deepest known
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component with more than one module, as a sample cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative Tarjan
        nonlocal counter
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def layer(module: str) -> str:
    """The engine layer of a module: its subpackage, "base" or "top" (the package itself)."""
    parts = module.split(".")
    if len(parts) == 1:
        return "top"
    return parts[1] if (PACKAGES["execretrieval"] / parts[1]).is_dir() else "base"


def main() -> int:
    problems: list[str] = []
    for package, folder in PACKAGES.items():
        files = modules(package, folder)
        known = set(files)
        graph = {name: edges(name, path, known) for name, path in files.items()}
        for component in find_cycles(graph):
            problems.append(f"cycle in {package}: " + " <-> ".join(component))
        if package == "execretrieval":
            for name, targets in sorted(graph.items()):
                mine = layer(name)
                for target in sorted(targets):
                    theirs = layer(target)
                    if theirs != mine and theirs not in ENGINE_ALLOWED[mine]:
                        problems.append(f"layer: {name} ({mine}) imports {target} ({theirs})")
        print(f"{package}: {len(files)} modules, "
              f"{sum(len(t) for t in graph.values())} internal imports")
    if problems:
        print("\n".join(problems))
        return 1
    print("no import cycles, layers respected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
