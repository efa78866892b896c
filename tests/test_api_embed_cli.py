"""``execretrieval embed --api`` as a user runs it: real subprocesses, a real local server.

Covers the end-to-end flow on a copy of data/tiny (embed, then evaluate with the written
file, no torch involved), resuming after the process is killed mid-run, Ctrl-C, clear
errors without tracebacks, and that the key is written nowhere: not in any file under the
test's folders (the .npz members decompressed), not in the cache, not in any output.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest
from _embed_server import EmbeddingServer

from conftest import copy_tiny
from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.ranking.embeddings import from_npz

KEY = "sk-test-4f9c2e7a1b8d4e6f9a0c3b5d7e1f2a4c"
TINY_TEXTS = 18   # 4 queries + 14 snippets in data/tiny


def embed(bench: Path, server: EmbeddingServer, *args: str, key: str | None = KEY,
          extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_PROXY": "*", **(extra_env or {})}
    env.pop("OPENAI_API_KEY", None)
    if key is not None:
        env["OPENAI_API_KEY"] = key
    return subprocess.run([sys.executable, "-m", "execretrieval.cli", "embed", str(bench),
                           "--api", server.base_url, *args], capture_output=True, text=True,
                          env=env, timeout=120)


def evaluate(bench: Path, model: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "execretrieval.cli", "evaluate", str(bench),
                           "--model", model, "--bootstrap", "200", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)


def cached_rows() -> int:
    db = Path(os.environ["EXECRETRIEVAL_CACHE_DIR"]) / "embeddings.sqlite"
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM vectors").fetchone()[0])


def _rows_so_far() -> int:
    """``cached_rows()`` while a client may still be creating the file: 0 until it can."""
    try:
        return cached_rows()
    except sqlite3.Error:
        return 0


def every_byte_written(*roots: Path) -> list[tuple[Path, bytes]]:
    """Each file's bytes under ``roots``, and each .npz member's, decompressed."""
    found = []
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            found.append((path, path.read_bytes()))
            if path.suffix == ".npz":
                with zipfile.ZipFile(path) as archive:
                    found.extend((path / n, archive.read(n)) for n in archive.namelist())
    return found


@pytest.mark.slow
def test_embed_then_evaluate_without_torch_and_a_repeat_sends_nothing(
        tiny_dir: Path, tmp_path: Path) -> None:
    bench = copy_tiny(tiny_dir, tmp_path)
    blocker = tmp_path / "notorch"   # "import torch" fails, as on an install without it
    blocker.mkdir()
    for name in ("torch", "sentence_transformers"):
        (blocker / f"{name}.py").write_text("raise ImportError('not installed here')\n")
    no_torch = {"PYTHONPATH": str(blocker)}
    with EmbeddingServer(key=KEY, models=("acme/code-embed",)) as server:
        first = embed(bench, server, "--model", "acme/code-embed", "--preset", "e5",
                      "--batch", "5", extra_env=no_torch)
        assert first.returncode == 0, first.stderr
        assert server.requests == 4 and len(server.texts) == TINY_TEXTS
        assert "18 texts: 0 from the cache, 18 sent in 4 requests" in first.stderr
        server.reset_counts()
        second = embed(bench, server, "--model", "acme/code-embed", "--preset", "e5")
        assert second.returncode == 0, second.stderr
        assert server.requests == 0
        assert "18 texts: 18 from the cache, 0 sent in 0 requests" in second.stderr
    npz = bench / "embeddings" / "acme_code-embed.npz"
    assert f"wrote {npz}" in second.stderr
    loaded = from_npz(npz)
    assert loaded.mismatch(load_benchmark(bench)) is None
    assert loaded.metadata["query_prefix"] == "query: "
    # a torch-less install ranks with it, by file stem or by the served model's name
    for model in ("acme_code-embed", "acme/code-embed"):
        out = tmp_path / f"{model.replace('/', '-')}.json"
        env = {**os.environ, **no_torch}
        done = subprocess.run([sys.executable, "-m", "execretrieval.cli", "evaluate",
                               str(bench), "--model", model, "--bootstrap", "200",
                               "--out", str(out)], capture_output=True, text=True,
                              timeout=300, env=env)
        assert done.returncode == 0, done.stderr
        report = json.loads(out.read_text())
        assert model in json.dumps(report["models"] if "models" in report else report)
        assert f"{model}: exec@1 = " in done.stdout


@pytest.mark.slow
def test_a_killed_run_resumes_sending_only_the_missing_texts(tiny_dir: Path,
                                                             tmp_path: Path) -> None:
    bench = copy_tiny(tiny_dir, tmp_path)
    env = {**os.environ, "NO_PROXY": "*", "OPENAI_API_KEY": KEY}
    with EmbeddingServer(key=KEY, delay=0.25) as server:
        proc = subprocess.Popen([sys.executable, "-m", "execretrieval.cli", "embed",
                                 str(bench), "--api", server.base_url, "--model", "test-embed",
                                 "--batch", "2", "--concurrency", "1"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while len(server.answered) < 6 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        proc.kill()                      # SIGKILL: no clean-up of any kind
        proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        kept = cached_rows()
        assert 4 <= kept < TINY_TEXTS
        assert not (bench / "embeddings" / "test-embed.npz").exists()
        server.delay = 0.0
        server.reset_counts()
        rerun = embed(bench, server, "--model", "test-embed", "--batch", "2")
        assert rerun.returncode == 0, rerun.stderr
        assert len(server.texts) == TINY_TEXTS - kept     # only what was missing
        assert f"{TINY_TEXTS} texts: {kept} from the cache" in rerun.stderr
        server.reset_counts()
        assert embed(bench, server, "--model", "test-embed").returncode == 0
        assert server.requests == 0
    assert from_npz(bench / "embeddings" / "test-embed.npz").mismatch(
        load_benchmark(bench)) is None


@pytest.mark.slow
def test_ctrl_c_exits_130_and_keeps_what_is_cached(tiny_dir: Path, tmp_path: Path) -> None:
    bench = copy_tiny(tiny_dir, tmp_path)
    env = {**os.environ, "NO_PROXY": "*"}
    gate = threading.Event()
    with EmbeddingServer(delay=0.3) as server:
        # two answers (four vectors), then the third request waits for the test: the
        # interrupt comes while the client waits, however long the machine takes to get there
        server.faults.extend([("slow", 0), ("slow", 0), ("hold", gate)])
        proc = subprocess.Popen([sys.executable, "-m", "execretrieval.cli", "embed",
                                 str(bench), "--api", server.base_url, "--model", "test-embed",
                                 "--batch", "2", "--concurrency", "1"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        try:
            deadline = time.monotonic() + 120
            # the interrupt comes once four vectors are in the cache (not once the server
            # has answered them: the client may not have stored the answer yet)
            while _rows_so_far() < 4 and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.02)
            proc.send_signal(signal.SIGINT)
            time.sleep(0.5)   # the answer it waits for comes after the interrupt
        finally:
            gate.set()
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "the same command sends only the rest" in err and "interrupted" in err
    assert cached_rows() >= 4


def test_refusals_exit_2_naming_the_url_without_traceback(tiny_dir: Path,
                                                          tmp_path: Path) -> None:
    bench = copy_tiny(tiny_dir, tmp_path)
    with EmbeddingServer(key="sk-other") as server:
        done = embed(bench, server, "--model", "test-embed")
        assert done.returncode == 2
        assert f"error: {server.base_url}/embeddings: model 'test-embed': HTTP 401" \
            in done.stderr
        assert "Traceback" not in done.stderr and KEY not in done.stderr + done.stdout
        assert "Incorrect API key provided: ***" in done.stderr
        done = embed(bench, server, "--model", "test-embed", "--api-key-env", "NOT_SET_VAR")
        assert done.returncode == 2 and "$NOT_SET_VAR is not set" in done.stderr
        done = embed(bench, server, "--dimensions", "4")
        assert done.returncode == 2 and "--api needs --model" in done.stderr


@pytest.mark.slow
def test_the_key_is_written_nowhere(tiny_dir: Path, tmp_path: Path) -> None:
    bench = copy_tiny(tiny_dir, tmp_path / "work")
    outputs: list[str] = []
    with EmbeddingServer(key=KEY) as server:
        # a faulty server first (retries print messages), then one echoing a wrong key
        server.faults.extend([("status", 429, {"Retry-After": "0"}, f"slow down {KEY}"),
                              ("status", 500, {}, "oops")])
        url = server.base_url.replace("http://", f"http://user:{KEY}@") + f"?key={KEY}"
        for args in (["--model", "test-embed", "--batch", "4"],
                     ["--model", "test-embed", "--dimensions", "4", "--api-key-env", "K2"]):
            env = {**os.environ, "NO_PROXY": "*", "OPENAI_API_KEY": KEY, "K2": KEY + "x"}
            done = subprocess.run([sys.executable, "-m", "execretrieval.cli", "embed",
                                   str(bench), "--api", url, *args],
                                  capture_output=True, text=True, env=env, timeout=120)
            outputs += [done.stdout, done.stderr]
        assert "HTTP 429: slow down ***" in outputs[1]
        assert "HTTP 401: Incorrect API key provided: ***" in outputs[3]
        assert server.auth[0] == f"Bearer {KEY}"
    report = tmp_path / "work" / "report.html"
    done = evaluate(bench, "test-embed", report)
    assert done.returncode == 0, done.stderr
    outputs += [done.stdout, done.stderr]
    cache = Path(os.environ["EXECRETRIEVAL_CACHE_DIR"])
    written = every_byte_written(tmp_path, cache)
    assert any(p.name == "test-embed.npz" for p, _ in written) and report.is_file()
    assert any(p.name == "embeddings.sqlite" for p, _ in written)
    for secret in (KEY, KEY[8:]):
        leaks = [str(p) for p, data in written if secret.encode() in data]
        assert leaks == []
        assert all(secret not in text for text in outputs)
    meta = from_npz(bench / "embeddings" / "test-embed.npz").metadata
    assert meta["api_url"] == f"{server.base_url}/embeddings?key=***"
