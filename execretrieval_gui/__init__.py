"""ExecRetrieval Inspector: the desktop GUI over the ``execretrieval`` engine."""

# qtcompat first: it marks this package's modules for PySide6's import hook before the
# hook meets one of them (see qtcompat)
from . import qtcompat as _qtcompat  # noqa: F401, I001  (binding work-arounds, before any emit)
from . import collector as _collector

_collector.hold()   # until the first query is usable: see collector
