"""The ``consensus`` stage: agreement between candidates' behaviour, no expected outputs.

For each query, the previous stage's first ``depth`` candidates that define the query's
function are run (sandboxed, cached) on the *call expressions* of its visible tests only
(``f(12)`` out of ``assert f(12) == 4``, ``f(-1)`` out of ``with pytest.raises(...)``):
each call becomes the probe ``assert False, repr(CALL)``, so the oracle's verdict carries
the output's ``repr`` (or the exception, for a call that raises) and the expected values
are never read. A candidate's consensus score is its agreement with the *other* candidates
(MBR-exec, Shi et al. 2022; CodeT's agreement without generated tests)::

    consensus(i) = sum over j != i that ran of  w_j * (probes where i and j behave alike)
                                                     / (probes)
    w_j = 1 / (previous rank of j; a tied group shares its mean rank, as in rrf)

so the behavioural centre of the pool rises: the mutants of one canonical each differ from
it on a few inputs, and from each other on more.
Candidates are ordered by (defines the function, consensus score, the previous order);
equal ones stay tied. Outputs are compared as the oracle reports them (truncated repr).

It needs a held-out split, like ``exec``: it executes what the visible tests call.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..hooks import ShouldStop
from .fusion import kept_and_mean_ranks
from .stages import RerankStage, StageLog, reorder_row

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["ConsensusStage", "agreement", "call_probes", "defines"]


def agreement(behaviour: list[tuple[Any, ...] | None],
              ranks: np.ndarray | None = None) -> np.ndarray:
    """Each candidate's consensus score (module docstring) from its per-probe behaviour,
    in previous order, and its previous (mean) rank (default 1, 2, ...); None for a
    candidate that did not run (score 0)."""
    n = len(behaviour)
    rank = np.arange(1.0, n + 1.0) if ranks is None else np.asarray(ranks, dtype=np.float64)
    out = np.zeros(n)
    for i, mine in enumerate(behaviour):
        if mine is None or not mine:
            continue
        for j, theirs in enumerate(behaviour):
            if j == i or theirs is None:
                continue
            alike = sum(a == b for a, b in zip(mine, theirs, strict=True))
            out[i] += alike / len(mine) / rank[j]
    return out


def call_probes(tests: tuple[str, ...], function: str) -> tuple[str, ...]:
    """``assert False, repr(CALL)`` for every outermost call of ``function`` in ``tests``
    (in order, duplicates once)."""
    probes: list[str] = []
    for test in tests:
        try:
            tree = ast.parse(test)
        except SyntaxError:
            continue
        inner: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == function and id(node) not in inner:
                for child in ast.walk(node):
                    if child is not node:
                        inner.add(id(child))
                probe = f"assert False, repr({ast.unparse(node)})"
                if probe not in probes:
                    probes.append(probe)
    return tuple(probes)


def defines(code: str, function: str) -> bool:
    """True if ``code`` parses and defines ``function`` at module level."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    return any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == function
               for n in tree.body)


@dataclass
class ConsensusStage(RerankStage):
    """The ``consensus`` stage over ``previous`` (module docstring)."""

    log: StageLog = field(default_factory=lambda: StageLog(
        "consensus", score_name="agreement with the other candidates"))

    def _rerank(self, benchmark: Benchmark, start: int, block: np.ndarray,
                should_stop: ShouldStop | None) -> np.ndarray:
        jobs: list[tuple[str, tuple[str, ...]]] = []
        plan: list[tuple[int, np.ndarray, list[int]]] = []  # row, candidates, job or -1
        for r in range(block.shape[0]):
            query = benchmark.queries[start + r]
            cands = self._candidates(query.query_id, block[r])
            probes = call_probes(self.split.visible_tests(query.query_id),
                                 query.function_name)
            slots = []
            for j in cands:
                code = benchmark.corpus[int(j)].code
                if probes and defines(code, query.function_name):
                    slots.append(len(jobs))
                    jobs.append((code, probes))
                else:
                    slots.append(-1)
            plan.append((r, cands, slots))
        clock = self.log.timed()
        results = self.oracle.run_many(jobs, should_stop=should_stop) if jobs else []
        out = block.copy()
        _, mean_ranks = kept_and_mean_ranks(block, self.depth)
        for r, cands, slots in plan:
            query = benchmark.queries[start + r]
            behaviour = [None if s < 0 else
                         tuple((o.status, o.detail) for o in results[s].outcomes)
                         for s in slots]
            support = agreement(behaviour, mean_ranks[r, cands])
            groups = len({b for b in behaviour if b is not None})
            self.log.record(query.query_id, [results[s] for s in slots if s >= 0],
                            groups=groups, pass_visible=[])
            if len(cands):
                runs = np.array([b is not None for b in behaviour], dtype=np.float64)
                # round so float sums of equal weights compare equal
                out[r] = reorder_row(block[r], self.depth,
                                     np.column_stack([runs, np.round(support, 12)]))
                self.report(benchmark, query.query_id, cands, block[r], out[r],
                            np.round(support, 12),
                            [f"{v:.3f}" if b is not None else "did not run"
                             for v, b in zip(support, behaviour, strict=True)])
        self.log.add_time(clock)
        return out
