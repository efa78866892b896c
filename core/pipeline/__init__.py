"""Pipelines: a first-stage model (or a fusion of several) followed by second stages, named
``BASE+STAGE+STAGE...`` and measured like any model on held-out tests.

- :mod:`~execretrieval.pipeline.names`: the grammar of a pipeline name;
- :mod:`~execretrieval.pipeline.fusion`: ``rrf`` and ``combsum``;
- :mod:`~execretrieval.pipeline.split`: visible / held-out tests per query;
- :mod:`~execretrieval.pipeline.stages`: ``exec``;
- :mod:`~execretrieval.pipeline.consensus`: ``consensus``, on the visible tests' calls and
  the inputs :mod:`~execretrieval.pipeline.consensus_inputs` generates around them;
- :mod:`~execretrieval.pipeline.rerankers`: ``api``, ``cross-encoder``, ``llm`` (model
  scores, no tests read);
- :mod:`~execretrieval.pipeline.systems`: :func:`rank_system`, the one resolver of names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:   # the names load on first use (PEP 562): importing the package is cheap
    from .fusion import FusionRetriever, combsum_scores, rrf_scores
    from .names import FUSIONS, STAGES, PipelineNameError, PipelineSpec, is_pipeline, parse_pipeline
    from .rerankers import MODEL_STAGES, ModelStage
    from .split import Split, held_out_benchmark, make_split, parse_visible
    from .stages import ExecStage, SplitRequiredError, StageLog
    from .systems import PipelineRanking, get_system, rank_system, system_cost

# Where each public name lives: module (relative to this package) -> names.
_EXPORTS: dict[str, tuple[str, ...]] = {
    ".fusion": ("FusionRetriever", "combsum_scores", "rrf_scores"),
    ".names": (
        "FUSIONS", "STAGES", "PipelineNameError", "PipelineSpec", "is_pipeline", "parse_pipeline",
    ),
    ".rerankers": ("MODEL_STAGES", "ModelStage"),
    ".split": ("Split", "held_out_benchmark", "make_split", "parse_visible"),
    ".stages": ("ExecStage", "SplitRequiredError", "StageLog"),
    ".systems": ("PipelineRanking", "get_system", "rank_system", "system_cost"),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), submodules=True)


__all__ = [
    "FUSIONS",
    "MODEL_STAGES",
    "STAGES",
    "ExecStage",
    "FusionRetriever",
    "ModelStage",
    "PipelineNameError",
    "PipelineRanking",
    "PipelineSpec",
    "Split",
    "SplitRequiredError",
    "StageLog",
    "combsum_scores",
    "get_system",
    "held_out_benchmark",
    "is_pipeline",
    "make_split",
    "parse_pipeline",
    "parse_visible",
    "rank_system",
    "rrf_scores",
    "system_cost",
]
