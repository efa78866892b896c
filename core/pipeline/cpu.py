"""CPU seconds a stage spends: its own (``time.process_time``) and its sandbox runs'.

The sandbox runs a suite three processes below this one (the server, the server inside
its namespaces, one forked child per suite), and the servers live for the whole Oracle,
so ``resource.getrusage(RUSAGE_CHILDREN)`` alone would see none of it until they exit.
:func:`descendants_cpu` therefore adds, to this process's reaped children, every *live*
descendant's own and reaped-children CPU read from ``/proc/PID/stat`` (utime, stime,
cutime, cstime). Each second is counted once: a live process's own time by itself, a
reaped one's in its reaper's ``c`` times. The difference of two readings is the CPU the
descendants spent in between, whatever process did it -- two oracles busy at once in one
process are counted together. Without ``/proc`` only reaped children count.
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass

__all__ = ["CpuClock", "descendants_cpu"]

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _proc_table() -> dict[int, tuple[int, float]]:
    """pid -> (parent pid, utime + stime + cutime + cstime in seconds), every readable
    process; empty without ``/proc``."""
    out: dict[int, tuple[int, float]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                raw = fh.read()
        except OSError:   # ended meanwhile, or not ours to read
            continue
        fields = raw[raw.rindex(b")") + 2:].split()
        try:
            out[int(name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]) / _TICK)
        except (IndexError, ValueError):
            continue
    return out


def descendants_cpu() -> float:
    """CPU seconds used so far by every descendant of this process (module docstring)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = used.ru_utime + used.ru_stime
    table = _proc_table()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    todo = list(children.get(os.getpid(), ()))
    seen: set[int] = set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += table[pid][1]
        todo.extend(children.get(pid, ()))
    return total


@dataclass
class CpuClock:
    """Wall, own-CPU and descendants'-CPU seconds of a stretch of work::

        clock = CpuClock.start(); ...; wall, cpu, sandbox = clock.stop()
    """

    wall: float
    cpu: float
    sandbox: float

    @classmethod
    def start(cls) -> CpuClock:
        return cls(time.perf_counter(), time.process_time(), descendants_cpu())

    def stop(self) -> tuple[float, float, float]:
        """(wall seconds, this process's CPU seconds, the descendants' CPU seconds) since
        :meth:`start`."""
        return (time.perf_counter() - self.wall, time.process_time() - self.cpu,
                max(0.0, descendants_cpu() - self.sandbox))
