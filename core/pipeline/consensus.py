"""The ``consensus`` stage: agreement between candidates' behaviour, no expected outputs.

For each query, the previous stage's first ``depth`` candidates that define the query's
function are run (sandboxed, cached) on the *call expressions* of its visible tests only
(``f(12)`` out of ``assert f(12) == 4``, ``f(-1)`` out of ``with pytest.raises(...)``),
plus ``inputs`` (default :data:`DEFAULT_INPUTS`) inputs that the input engine generates
around the visible tests' own arguments (:mod:`execretrieval.pipeline.consensus_inputs`;
never from a held-out test, and without the canonical: the stage does not know which
candidate that is). Each call becomes the probe ``assert False, repr(CALL)``, so the
oracle's verdict carries the output's ``repr`` (or the exception, for a call that raises)
and the expected values are never read. A candidate's consensus score is its weighted
agreement with every candidate that ran, itself included (MBR-exec, Shi et al. 2022;
CodeT's agreement)::

    consensus(i) = sum over j that ran of  w_j * (probes where i and j behave alike)
                                               / (probes)
    w_j = 1 / (previous rank of j; a tied group shares its mean rank)

so the behavioural centre of the pool rises: the mutants of one canonical each differ from
it on a few inputs, and from each other on more. Candidates that behave alike on every
probe get the same score and keep the previous order among themselves. (Summing over the
*others* only, as this stage first did, gives a lower-ranked member of a group a higher
score -- it lacks its own, smaller weight -- and so reversed the previous order inside
every group: on this benchmark, where the first stage ranks mutants above their
canonical, that reversal alone lifted exec@1; README "Second stages".)
Candidates are ordered by (defines the function, consensus score, the previous order);
equal ones stay tied. Outputs are compared as the oracle reports them (truncated repr).

It needs a held-out split, like ``exec``: it executes what the visible tests call.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..hooks import Progress, ShouldStop
from ..inputs.batches import CHUNK, derived_oracle
from .consensus_inputs import DEFAULT_INPUTS, generated_calls
from .stages import RerankStage, StageLog, in_parts, reorder_row

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["DEFAULT_INPUTS", "ConsensusStage", "agreement", "call_probes", "defines",
           "prior_weights"]


def prior_weights(previous: np.ndarray) -> np.ndarray:
    """``1 / previous rank`` for candidates whose previous scores are ``previous`` (in
    previous order); a tied group shares its mean rank, so the weights do not depend on
    the order of the corpus's lines."""
    ranks = np.arange(1, len(previous) + 1, dtype=np.float64)
    _, group = np.unique(-np.asarray(previous, dtype=np.float64), return_inverse=True)
    group = group.ravel()
    mean = np.array([ranks[group == g].mean() for g in range(int(group.max()) + 1)]) \
        if len(previous) else np.zeros(0)
    return 1.0 / mean[group] if len(previous) else np.zeros(0)


def agreement(behaviour: list[tuple[Any, ...] | None],
              weights: np.ndarray | None = None) -> np.ndarray:
    """Each candidate's consensus score (module docstring) from its per-probe behaviour,
    in previous order; None for a candidate that did not run (score 0). ``weights``
    (default ``1 / (position + 1)``) are the candidates' prior weights ``w_j``."""
    n = len(behaviour)
    w = 1.0 / np.arange(1, n + 1) if weights is None else np.asarray(weights, dtype=np.float64)
    out = np.zeros(n)
    for i, mine in enumerate(behaviour):
        if mine is None or not mine:
            continue
        for j, theirs in enumerate(behaviour):
            if theirs is None:
                continue
            alike = sum(a == b for a, b in zip(mine, theirs, strict=True))
            out[i] += alike / len(mine) * w[j]
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
    """The ``consensus`` stage over ``previous`` (module docstring): ``inputs`` generated
    inputs per query on top of the visible tests' calls (0: those calls only), seeded by
    ``seed``."""

    inputs: int = DEFAULT_INPUTS
    seed: int = 0
    log: StageLog = field(default_factory=lambda: StageLog(
        "consensus", score_name="agreement with the candidates (itself included)"))

    def _rerank(self, benchmark: Benchmark, start: int, block: np.ndarray,
                should_stop: ShouldStop | None,
                progress: Progress | None = None) -> np.ndarray:
        # three parts, each a share of the block: the inputs generated, the visible calls
        # run, the generated calls run
        part = in_parts(progress, 3)
        clock = self.log.timed()
        rows = []   # (query, candidates, which define the function, visible calls' probes)
        donors: list[tuple[str, str, tuple[str, ...]] | None] = []
        for r in range(block.shape[0]):
            query = benchmark.queries[start + r]
            cands = self._candidates(query.query_id, block[r])
            visible = self.split.visible_tests(query.query_id)
            defining = [defines(benchmark.corpus[int(j)].code, query.function_name)
                        for j in cands]
            rows.append((query, cands, defining, call_probes(visible, query.function_name)))
            # the donor: the best-scored candidate that defines the function, a tie broken
            # by corpus id (not by the order of corpus lines, which must change nothing)
            row = block[r]
            donor = min((int(j) for j, ok in zip(cands, defining, strict=True) if ok),
                        key=lambda j: (-float(row[j]), benchmark.corpus[j].corpus_id),
                        default=None)
            donors.append(None if donor is None or not self.inputs else
                          (benchmark.corpus[donor].code, query.function_name, visible))
        generation: list[int] = []
        generated = generated_calls(self.oracle, donors, n=self.inputs, seed=self.seed,
                                    progress=part(0), should_stop=should_stop,
                                    executed=generation)
        # per candidate: one suite of the visible calls (as with inputs=0), then the
        # generated calls in chunks on a short per-chunk timeout (a loop costs one chunk)
        jobs: list[tuple[str, tuple[str, ...]]] = []
        chunks: list[tuple[str, tuple[str, ...]]] = []
        plan = []
        for (query, cands, defining, probes), calls in zip(rows, generated, strict=True):
            extra = tuple(p for p in (f"assert False, repr({c})" for c in calls)
                          if p not in probes)
            parts = [extra[at:at + CHUNK] for at in range(0, len(extra), CHUNK)]
            slots: list[tuple[int, list[int]] | None] = []
            for j, ok in zip(cands, defining, strict=True):
                code = benchmark.corpus[int(j)].code
                if not ok or not (probes or extra):
                    slots.append(None)
                    continue
                slots.append((len(jobs) if probes else -1,
                              list(range(len(chunks), len(chunks) + len(parts)))))
                if probes:
                    jobs.append((code, probes))
                chunks.extend((code, part) for part in parts)
            plan.append((query, cands, slots, len(extra)))
        results = self.oracle.run_many(jobs, progress=part(1),
                                       should_stop=should_stop) if jobs else []
        chunked = []
        if chunks:
            with derived_oracle(self.oracle) as runner:
                chunked = runner.run_many(chunks, progress=part(2), should_stop=should_stop)
        # the engine's suites as its oracles count them (really run, not cache hits); the
        # candidates' suites are counted by record() below, cache hits included, as exec's
        self.log.counts["input_executions"] = (self.log.counts.get("input_executions", 0)
                                               + sum(generation))
        self.log.notes.update(inputs=self.inputs, seed=self.seed)
        out = block.copy()
        for r, (query, cands, slots, n_extra) in enumerate(plan):
            suites = [[*([results[s[0]]] if s[0] >= 0 else []), *(chunked[c] for c in s[1])]
                      if s is not None else [] for s in slots]
            behaviour: list[tuple[Any, ...] | None] = [None if s is None else
                         tuple((o.status, o.detail) for res in mine for o in res.outcomes)
                         for s, mine in zip(slots, suites, strict=True)]
            support = agreement(behaviour, prior_weights(block[r][cands]))
            groups = len({b for b in behaviour if b is not None})
            self.log.record(query.query_id, [res for mine in suites for res in mine],
                            groups=groups, generated_inputs=n_extra, pass_visible=[])
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
