"""ExecRetrieval Inspector: the desktop GUI over the ``execretrieval`` engine."""

from . import qtcompat as _qtcompat  # noqa: F401  (binding work-arounds, before any emit)
