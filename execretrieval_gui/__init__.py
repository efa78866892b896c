"""ExecRetrieval Inspector: the desktop GUI over the ``execretrieval`` engine."""

from . import collector as _collector

_collector.hold()   # until the first query is usable: see collector

from . import qtcompat as _qtcompat  # noqa: E402, F401  (binding work-arounds, before any emit)
