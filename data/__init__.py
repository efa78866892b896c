"""The benchmarks bundled with ExecRetrieval Inspector, installed as ``execretrieval.bundled``.

Each folder here is a benchmark (``queries.jsonl``, ``corpus.jsonl``, ``manifest.json``,
``embeddings/*.npz``). This file only makes the folder a package, so the wheel carries the
folders as package data and :mod:`execretrieval.benchmark.bundled` finds them with
:mod:`importlib.resources`, installed or editable.
"""
