"""Nothing lost: files the program writes survive a SIGKILL mid-write; corrupt caches rebuild.

(The result cache's corruption test lives in test_cache.py, the annotation store's kill
test in test_annotations.py.)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO
from execretrieval.ranking._dense import EmbeddingCache

WRITER = textwrap.dedent(
    """
    import json, sys
    from execretrieval.fileio import atomic_write_text
    target = sys.argv[1]
    i = 0
    while True:
        i += 1
        # Large enough that a torn write would be visible as truncated JSON.
        atomic_write_text(target, json.dumps({"n": i, "rows": list(range(20000))}))
        print(i, flush=True)
    """
)


@pytest.mark.parametrize("trial", range(3))
def test_sigkill_during_atomic_report_writes_leaves_a_whole_file(tmp_path: Path, trial) -> None:
    target = tmp_path / "report.json"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], cwd=REPO,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    confirmed = 0
    for _ in range(5 + 7 * trial):  # let it confirm some writes, then kill it mid-stream
        confirmed = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    data = json.loads(target.read_text())  # whole, parseable JSON
    assert data["n"] >= confirmed
    assert data["rows"][-1] == 19999
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "report.json"]
    # A killed writer may leave its private temporary file, never a half-written target.
    assert all(name.startswith(".report.json.") and name.endswith(".tmp") for name in leftovers)


def _corrupt(path: Path) -> None:
    with path.open("r+b") as handle:
        handle.seek(0)
        handle.write(b"this is not a database" * 50)


def test_corrupt_embedding_cache_is_set_aside_and_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite"
    cache = EmbeddingCache(path)
    cache.put({"a": np.ones(4, dtype=np.float32)})
    assert set(cache.get(["a"])) == {"a"}
    for leftover in tmp_path.glob("embeddings.sqlite-*"):
        leftover.unlink()
    _corrupt(path)
    fresh = EmbeddingCache(path)
    assert fresh.get(["a"]) == {}  # not trusted
    fresh.put({"b": np.zeros(4, dtype=np.float32)})
    assert set(fresh.get(["b"])) == {"b"}
    assert fresh.moved_aside
    assert any(".corrupt-" in p.name for p in tmp_path.iterdir())
