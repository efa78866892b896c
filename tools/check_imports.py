"""Find import cycles inside our packages, counting imports inside functions.

Usage: ``python tools/check_imports.py [DIR[=PACKAGE] ...]`` (default: ``core=execretrieval
execretrieval_gui``). Walks every ``.py`` file under each DIR with :mod:`ast`, builds the
graph "module -> modules of the same package it imports" (at any depth of the file: module
level, functions, methods; imports under ``if TYPE_CHECKING:`` aside, since they never run),
and prints every cycle. Exit status 0: no cycle; 1: cycles (each printed); 2: bad arguments.

How an import becomes an edge:

* ``import a.b.c`` -> ``a.b.c`` (its parent packages are initialised before it anyway);
* ``from P import n`` -> ``P.n`` when that is a module of ours, else ``P`` (the name comes
  from ``P``'s ``__init__``); relative imports are resolved against the importing module.

Importing a name from an ancestor package's ``__init__`` (``from execretrieval import X``
inside ``execretrieval.metrics``) is an edge like any other: it is a cycle when that
``__init__`` imports the module back, however the import order happens to work out today.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

DEFAULT = ("core=execretrieval", "execretrieval_gui")
ROOT = Path(__file__).resolve().parent.parent


def modules_of(folder: Path, package: str) -> dict[str, Path]:
    """Every module under ``folder`` by dotted name (``pkg/__init__.py`` is ``pkg``)."""
    found: dict[str, Path] = {}
    for path in sorted(folder.rglob("*.py")):
        rel = path.relative_to(folder).with_suffix("")
        parts = [package, *rel.parts]
        if parts[-1] == "__init__":
            parts.pop()
        if any(not p.isidentifier() for p in parts):
            continue   # not importable (a script folder with a dash, say)
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run (``if TYPE_CHECKING:`` bodies skipped)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name ``from <node.module> import …`` refers to, inside ``module``."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def edges_of(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Modules of ours that ``module`` imports, anywhere in its file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
            continue
        source = _resolve(module, is_package, node)
        for alias in node.names:
            sub = f"{source}.{alias.name}"
            if sub in known:
                out.add(sub)
            elif source in known:
                out.add(source)
    out.discard(module)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a closed path) per strongly connected component that has one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0

    def connect(v: str) -> None:   # Tarjan; graphs here are small, recursion is fine
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return [_path_in(graph, set(c)) + [f"(all in this cycle: {', '.join(c)})"]
            if len(c) > 2 else _path_in(graph, set(c)) for c in components]


def _path_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A closed path through the component, starting at its first module (BFS back to it)."""
    start = min(component)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & component):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start] if len(path) > 1 \
                        else [start, v, start]
                if w not in previous:
                    previous[w] = v
                    nxt.append(w)
        frontier = nxt
    return sorted(component)   # unreachable for a real component


def check(specs: Iterable[str]) -> int:
    found = 0
    for spec in specs:
        folder_name, _, package = spec.partition("=")
        folder = (ROOT / folder_name) if not Path(folder_name).is_absolute() \
            else Path(folder_name)
        package = package or folder.name
        if not folder.is_dir():
            print(f"check_imports: {folder}: no such folder", file=sys.stderr)
            return 2
        known = modules_of(folder, package)
        try:
            graph = {m: edges_of(m, p, known) for m, p in known.items()}
        except SyntaxError as exc:
            print(f"check_imports: {exc.filename}:{exc.lineno}: {exc.msg}", file=sys.stderr)
            return 2
        loops = cycles(graph)
        n_edges = sum(len(e) for e in graph.values())
        if loops:
            print(f"{package}: {len(loops)} import cycle(s) "
                  f"({len(known)} modules, {n_edges} imports):")
            for loop in loops:
                note = [x for x in loop if x.startswith("(")]
                print("  " + " -> ".join(x for x in loop if not x.startswith("("))
                      + (f"  {note[0]}" if note else ""))
        else:
            print(f"{package}: no import cycles ({len(known)} modules, {n_edges} imports)")
        found += len(loops)
    return 1 if found else 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return 0
    return check(args or DEFAULT)


if __name__ == "__main__":
    sys.exit(main())
