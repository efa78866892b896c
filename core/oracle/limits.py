"""A sandboxed test process's resource limits (no sandbox code: the Oracle and the result
cache's keys need them before any server starts)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["MUTANT_TIMEOUT", "MUTANT_WALL_BACKSTOP", "Limits"]

#: seconds a suite of a candidate mutant may take by default (``build --mutant-timeout``,
#: the audit's mutants): far above what a mutant that finishes needs (the bundled
#: benchmarks' slowest takes ~0.5 s), so what it cuts short is a mutant that loops
MUTANT_TIMEOUT = 1.0

#: a mutant's suite is judged by the CPU time it used (MUTANT_TIMEOUT of it), and stopped
#: anyway after this many times MUTANT_TIMEOUT of wall-clock time (one that sleeps or
#: blocks): a CPU-bound mutant keeps its verdict up to a load of about this many
#: runnable processes per core
MUTANT_WALL_BACKSTOP = 10


@dataclass(frozen=True)
class Limits:
    """Resource limits for each test process of a suite.

    ``memory_mb`` is address space (RLIMIT_AS), ``cpu_seconds`` the CPU time of one test
    process (RLIMIT_CPU; 0 = the suite timeout + 1 s, a backstop behind the wall clock; a
    test killed by it is a ``timeout`` and the suite goes on), ``max_processes``
    RLIMIT_NPROC for the sandbox uid, ``file_size_mb`` the largest file a test may write
    (its captured output included), ``output_chars`` how much captured output is kept.
    For memory, processes and file size, 0 means no limit. ``wall_backstop`` 0 (the
    default) makes the suite's timeout wall-clock time; N >= 1 makes it the CPU time the
    suite's test processes use (user + system), with N times the timeout of wall-clock
    time as a backstop for a suite that sleeps or blocks: the builder's mutants
    (:data:`MUTANT_WALL_BACKSTOP`), so that how busy the machine is never decides which
    mutant is rejected as a timeout. ``hash_seed`` is the
    ``PYTHONHASHSEED`` candidates run under (str/bytes hashing, so set iteration order),
    fixed so outcomes reproduce; like every limit it is part of the cache key.
    """

    memory_mb: int = 1024
    cpu_seconds: int = 0
    max_processes: int = 64
    file_size_mb: int = 16
    output_chars: int = 10_000
    hash_seed: int = 0
    wall_backstop: int = 0

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"Limits.{name} must be a non-negative int, not {value!r}")
        if self.hash_seed > 4294967295:  # what PYTHONHASHSEED accepts
            raise ValueError(f"Limits.hash_seed must be at most 4294967295, not {self.hash_seed}")
