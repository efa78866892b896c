"""ExecRetrieval Inspector: the desktop GUI over the ``execretrieval`` engine."""
