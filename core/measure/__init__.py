"""Measurement: exec@k / execp@k / nDCG@k, bootstrap CIs and paired tests, and the
analyses (deception, attribution, density, edit span). May import base, benchmark, ranking.
"""

from __future__ import annotations

from .analysis import (
    Pairs,
    deception_by_bug_type,
    deception_per_query,
    deception_rate,
    density_ablation,
    edit_span,
    edit_span_vs_deception,
    exec1_by_domain,
    pairs,
    query_mask,
    rank1_paired_miss_share,
)
from .metrics import (
    DEFAULT_KS,
    ModelEvaluation,
    evaluate,
    exec_at_k,
    execp_at_k,
    execution_matrices,
    execution_matrix,
    metric_names,
    ndcg_at_k,
    relevance_matrix,
)
from .multiple import (
    CORRECTIONS,
    Pair,
    Standing,
    adjust_pvalues,
    leaderboard,
    pairwise,
    significance_matrix,
)
from .statistics import (
    Comparison,
    MetricCI,
    bootstrap_ci,
    bootstrap_cis,
    bootstrap_counts,
    compare,
    mcnemar_exact,
    paired_bootstrap_diff,
)

__all__ = [
    "CORRECTIONS",
    "Pair",
    "Standing",
    "adjust_pvalues",
    "leaderboard",
    "pairwise",
    "significance_matrix",
    "Comparison",
    "MetricCI",
    "bootstrap_ci",
    "bootstrap_cis",
    "bootstrap_counts",
    "compare",
    "mcnemar_exact",
    "paired_bootstrap_diff",
    "Pairs",
    "deception_by_bug_type",
    "deception_per_query",
    "deception_rate",
    "density_ablation",
    "edit_span",
    "edit_span_vs_deception",
    "exec1_by_domain",
    "pairs",
    "query_mask",
    "rank1_paired_miss_share",
    "DEFAULT_KS",
    "ModelEvaluation",
    "evaluate",
    "exec_at_k",
    "execp_at_k",
    "execution_matrices",
    "execution_matrix",
    "metric_names",
    "ndcg_at_k",
    "relevance_matrix",
]
