"""Pieces of a run on several helper threads at once, one numba thread each ("lanes").

A run split into pieces over all the numba threads waits, at the end of each piece, for its
slowest deal: a double-deck deal's time is heavy-tailed (one of the bid question's deals
took 60 times the median), and two threads were busy 71% of such a run (the double-deck
question with every call, 400 deals: 30.4 s on two threads against 43.1 s on one). Here each
helper thread runs whole pieces on one numba thread and takes the next piece when it is
free, so a slow deal holds up its own lane only. The results are still handed on **in
order** (a piece finished early waits for those before it), so the totals, a stop when the
answer is clear and a Ctrl-C's "deals done" are those of the run on one thread. The runner
switches to lanes once a piece shows slow deals (``runner.LANE_DEAL_SECONDS``): quick ones
gain nothing from them and pay for the hand-offs.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from kernels.threads import set_threads

LOOKAHEAD = 16  # pieces a lane may finish ahead of the oldest one still running


@dataclass
class _Piece:
    """One piece in flight: deal indices ``first .. first+n-1``, the last of its chunk when
    ``whole``; ``done`` is set once ``box`` holds its ``value`` (or ``error``)."""

    first: int
    n: int
    whole: bool
    began: float
    done: threading.Event = field(default_factory=threading.Event)
    box: dict = field(default_factory=dict)
    timed: bool = False


def piece_ranges(chunks, pace) -> Iterator[tuple[int, int, bool]]:
    """``(first, n, whole)`` for each piece of each chunk, each sized by ``pace`` when it is
    asked for (so the later pieces follow the times of those finished)."""
    for first, n in chunks:
        at, end = first, first + n
        while at < end:
            size = min(pace.size, end - at)
            yield at, size, at + size == end
            at += size


def lane_results(work: Callable[[int, int], dict], pieces: Iterator, pace, lanes: int,
                 launch: Callable[[Callable[[], None], threading.Event], None],
                 waiting: Callable[[int, int, float], None] | None = None) -> Iterator:
    """``(first, n, result, whole)`` for each of ``pieces`` (``piece_ranges`` of ``pace``) in
    order, run on ``lanes`` helper threads at once (``launch(job, done)`` starts ``job`` on a
    free one); ``pace`` is told each piece's time as it ends, so the pieces asked for later
    follow it. ``waiting(first, n, seconds)`` hears each step of a wait for the oldest piece.
    When the caller stops early (closes this), the pieces still running are waited for,
    unless a second Ctrl-C comes first: they are then left to their threads."""
    flight: deque[_Piece] = deque()
    ended = threading.Event()  # set by any piece that ends
    more = True
    try:
        while True:
            ended.clear()  # before looking: a piece ending after it is then not missed
            running = 0
            for p in flight:
                if p.done.is_set():
                    if not p.timed:
                        p.timed = True
                        pace.timed(p.n, p.box.get("seconds", 0.0))
                else:
                    running += 1
            while more and running < lanes and len(flight) < LOOKAHEAD:
                nxt = next(pieces, None)
                if nxt is None:
                    more = False
                    break
                flight.append(_start(work, *nxt, launch, ended))
                running += 1
            if not flight:
                return
            head = flight[0]
            if head.done.is_set():
                flight.popleft()
                if "error" in head.box:
                    raise head.box["error"]
                yield head.first, head.n, head.box["value"], head.whole
                continue
            if not ended.wait(0.2) and waiting is not None:
                waiting(head.first, head.n, time.perf_counter() - head.began)
    except GeneratorExit:
        _wait_for(flight)
        raise


def _start(work, first: int, n: int, whole: bool, launch, ended: threading.Event) -> _Piece:
    """Launch ``work(first, n)`` on a lane (one numba thread); returns its piece."""
    piece = _Piece(first, n, whole, time.perf_counter())

    def job() -> None:
        try:
            set_threads(1)
            began = time.perf_counter()
            piece.box["value"] = work(first, n)
            piece.box["seconds"] = time.perf_counter() - began
        except BaseException as error:  # noqa: BLE001  (re-raised in the caller's thread)
            piece.box["error"] = error
        finally:
            piece.done.set()
            ended.set()

    launch(job, piece.done)
    return piece


def _wait_for(flight: deque) -> None:
    """Wait for the pieces still running, in short steps; a (second) Ctrl-C leaves them."""
    try:
        for p in flight:
            while not p.done.wait(0.2):
                pass
    except KeyboardInterrupt:
        pass
