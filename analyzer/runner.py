"""Runs a query's chunks of deal indices and adds up what each returns.

A chunk is ``(first, n)``; ``work(first, n)`` returns a dict of integer count arrays that are
summed over chunks, so the total is the same whatever the chunk size, the thread count or
the order chunks finish in. A progress bar appears for runs longer than a second; Ctrl-C
stops after the chunk in progress and returns the totals so far, marked interrupted.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

DEFAULT_CHUNK = 2048


@dataclass
class Totals:
    """Summed counts of the chunks done, how many deal indices they covered, and whether the
    run was cut short."""

    counts: dict = field(default_factory=dict)
    done: int = 0
    interrupted: bool = False
    seconds: float = 0.0

    def add(self, part: dict, n: int) -> None:
        """Add one chunk's counts."""
        for key, value in part.items():
            if key in self.counts:
                self.counts[key] = self.counts[key] + value
            else:
                self.counts[key] = np.array(value, copy=True)
        self.done += n


def run_chunks(total: int, work: Callable[[int, int], dict], *, chunk: int = DEFAULT_CHUNK,
               enough: Callable[[Totals], bool] | None = None, progress: bool = True,
               label: str = "dealing") -> Totals:
    """Run ``work`` over deal indices ``0 .. total-1`` in chunks and sum the results; stop
    early when ``enough(totals)`` says so (checked after each chunk)."""
    totals = Totals()
    start = time.perf_counter()
    bar = None
    task = None
    try:
        first = 0
        while first < total:
            n = min(chunk, total - first)
            totals.add(work(first, n), n)
            first += n
            if bar is None and progress and time.perf_counter() - start > 1.0 and first < total:
                bar = Progress(TextColumn(f"{label}"), BarColumn(),
                               TextColumn("{task.completed:,}/{task.total:,} deals"),
                               TimeRemainingColumn(), transient=True,
                               console=Console(stderr=True))
                bar.start()
                task = bar.add_task(label, total=total)
            if bar is not None:
                bar.update(task, completed=first)
            if enough is not None and enough(totals):
                break
    except KeyboardInterrupt:
        totals.interrupted = True
    finally:
        if bar is not None:
            bar.stop()
    totals.seconds = time.perf_counter() - start
    return totals
