"""Engine values the parser needs before any command runs: option choices and defaults.

Building the parser (for ``--help``, ``--version`` or any command) imports no engine part
beyond the base layer, so these few values are copied here instead of imported from the
modules that own them (which load numpy, scipy or pandas). ``tests/test_cli_startup.py``
checks each one equals its owner's, so a change there fails a test until it is made here.
"""

from __future__ import annotations

__all__ = ["AUDIT_DEFAULT_INPUTS", "AUDIT_DEFAULT_SEEDS", "EMBED_PRESETS", "FLAG_CATEGORIES",
           "MUTANT_TIMEOUT", "TIE_POLICIES"]

#: ``execretrieval.measure.ties.TIE_POLICIES``
TIE_POLICIES = ("expected", "optimistic", "pessimistic", "corpus")
#: ``execretrieval.audit.run.DEFAULT_SEEDS``
AUDIT_DEFAULT_SEEDS = 10
#: ``execretrieval.audit.run.DEFAULT_INPUTS``
AUDIT_DEFAULT_INPUTS = 100
#: ``execretrieval.oracle.limits.MUTANT_TIMEOUT`` (build, build-from-code, audit)
MUTANT_TIMEOUT = 1.0
#: the keys of ``execretrieval.benchmark.flags.CATEGORIES``
FLAG_CATEGORIES = ("test_stricter", "test_too_weak", "ambiguous_query", "not_single_edit",
                   "distractor_correct", "other")
#: the keys of ``execretrieval.ranking.api_embed.PRESETS``
EMBED_PRESETS = ("e5", "bge", "qwen3", "nomic", "openai", "gemini", "mistral", "none")
