"""Single-edit mutants of a function: the six operators of design §5, as source edits.

Every operator works on the canonical's AST but edits its *source text* at the exact span
of one node or token, so a mutant keeps the canonical's formatting, comments and blank lines
everywhere except that one span: a diff against the canonical shows the single edit.

:func:`generate_mutants` enumerates every candidate of every operator inside the target
function (helpers and the docstring are left alone), re-parses each one and rejects those
that do not parse, whose AST equals the canonical's (a syntactic no-op such as ``x + 0``)
or that duplicate an earlier mutant. Whether a mutant is a *distractor* (wrong output on
at least one test) is decided later by executing it; see :mod:`execretrieval.mutation.select`.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

from ..benchmark.dataset import BUG_TYPES
from ..errors import BuildError
from .operators import OPERATORS
from .source import SourceMap, target_function

__all__ = ["Mutant", "MutantSet", "generate_mutants"]


@dataclass(frozen=True)
class Mutant:
    """A parsed, non-equivalent single-edit mutant of a canonical implementation."""

    bug_type: str
    code: str
    bug_description: str
    line: int
    start: int
    end: int
    replacement: str

    @property
    def location(self) -> tuple[int, int]:
        """``(start, end)`` character span of the edit in the canonical."""
        return (self.start, self.end)


@dataclass(frozen=True)
class MutantSet:
    """All mutants of one function plus how many candidates were rejected statically, why."""

    mutants: tuple[Mutant, ...]
    rejected: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def candidates(self) -> int:
        """Every edit the operators proposed, kept or not."""
        return len(self.mutants) + sum(self.rejected.values())

    def by_type(self) -> dict[str, list[Mutant]]:
        out: dict[str, list[Mutant]] = {t: [] for t in BUG_TYPES}
        for m in self.mutants:
            out[m.bug_type].append(m)
        return out


def generate_mutants(source: str, function_name: str,
                     bug_types: Sequence[str] = BUG_TYPES) -> MutantSet:
    """Every parsed, non-equivalent single-edit mutant of ``function_name`` in ``source``.

    Mutants come in operator order (``bug_types``), then source order. Raises BuildError
    if the source does not parse or does not define the function. The answer is
    remembered (it is immutable): a build asks for the same canonical's mutants once to
    choose its tests and again in each assembly pass.
    """
    return _generate(source, function_name, tuple(bug_types))


@lru_cache(maxsize=2048)
def _generate(source: str, function_name: str, bug_types: tuple[str, ...]) -> MutantSet:
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise BuildError(f"the code does not parse: {exc.msg} (line {exc.lineno})") from exc
    func = target_function(tree, function_name)
    src = SourceMap(source, tree)
    reference = ast.dump(tree)
    seen: set[str] = set()
    mutants: list[Mutant] = []
    rejected: Counter[str] = Counter()
    for bug_type in bug_types:
        for edit in OPERATORS[bug_type](src, func):
            code = source[:edit.start] + edit.replacement + source[edit.end:]
            try:
                dumped = ast.dump(ast.parse(code))
            except (SyntaxError, ValueError):
                rejected["does not parse"] += 1
                continue
            if dumped == reference:
                rejected["same AST as the canonical"] += 1
                continue
            if dumped in seen:
                rejected["duplicate of another mutant"] += 1
                continue
            seen.add(dumped)
            mutants.append(Mutant(
                bug_type=edit.bug_type, code=code,
                bug_description=f"{edit.description}, line {edit.line}", line=edit.line,
                start=edit.start, end=edit.end, replacement=edit.replacement,
            ))
    return MutantSet(tuple(mutants), MappingProxyType(dict(sorted(rejected.items()))))
