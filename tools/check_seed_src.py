#!/usr/bin/env python3
"""Check the hand-written seed tasks in tools/seed_src/*.py.

For every module: DOMAIN and TASKS exist; every task has a query, a unique
function_name, a canonical that defines that function, and 7-10 tests; every
test passes when run against the canonical in a fresh namespace (with a
minimal ``pytest.raises`` shim available). Exit status 1 on any problem.
"""
import ast
import importlib.util
import pathlib
import sys

SEED_DIR = pathlib.Path(__file__).resolve().parent / "seed_src"
REQUIRED = ("query", "function_name", "canonical", "test_suite")


class _Raises:
    def __init__(self, expected):
        self.expected = expected

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            raise AssertionError(f"DID NOT RAISE {self.expected!r}")
        return issubclass(exc_type, self.expected)


class _PytestShim:
    @staticmethod
    def raises(expected):
        return _Raises(expected)


def _load(path):
    spec = importlib.util.spec_from_file_location(f"seed_src_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _defines(code, name):
    tree = ast.parse(code)
    return any(isinstance(n, ast.FunctionDef) and n.name == name for n in tree.body)


def check():
    problems = []
    seen = {}
    counts = {}
    for path in sorted(SEED_DIR.glob("*.py")):
        if path.name.startswith("_"):
            continue
        try:
            module = _load(path)
        except Exception as exc:  # report and go on
            problems.append(f"{path.name}: import failed: {type(exc).__name__}: {exc}")
            continue
        domain = getattr(module, "DOMAIN", None)
        tasks = getattr(module, "TASKS", None)
        if not isinstance(domain, str) or not isinstance(tasks, list):
            problems.append(f"{path.name}: needs DOMAIN (str) and TASKS (list)")
            continue
        counts[domain] = counts.get(domain, 0) + len(tasks)
        for i, task in enumerate(tasks):
            name = task.get("function_name", f"<task {i}>")
            where = f"{domain}/{name}"
            missing = [k for k in REQUIRED if k not in task]
            if missing:
                problems.append(f"{where}: missing fields {missing}")
                continue
            if not isinstance(task["query"], str) or not task["query"].strip():
                problems.append(f"{where}: empty query")
            if name in seen:
                problems.append(f"{where}: function name also used in {seen[name]}")
            seen[name] = domain
            tests = task["test_suite"]
            if not (isinstance(tests, list) and 7 <= len(tests) <= 10):
                problems.append(f"{where}: needs 7-10 tests, has {len(tests) if isinstance(tests, list) else tests!r}")
                continue
            code = task["canonical"]
            try:
                if not _defines(code, name):
                    problems.append(f"{where}: canonical does not define {name}()")
                    continue
            except SyntaxError as exc:
                problems.append(f"{where}: canonical syntax error: {exc}")
                continue
            if not code.endswith("\n"):
                problems.append(f"{where}: canonical must end with a newline")
            for test in tests:
                if name not in test:
                    problems.append(f"{where}: test does not call the function: {test!r}")
                namespace = {"pytest": _PytestShim()}
                try:
                    exec(compile(code, f"<{name}>", "exec"), namespace)
                    exec(compile(test, f"<test {name}>", "exec"), namespace)
                except BaseException as exc:
                    problems.append(f"{where}: test failed ({type(exc).__name__}: {exc}): {test!r}")
    return problems, counts


def main():
    problems, counts = check()
    for domain in sorted(counts):
        print(f"{domain}: {counts[domain]} tasks")
    for problem in problems:
        print("FAIL", problem)
    print(f"{sum(counts.values())} tasks, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
