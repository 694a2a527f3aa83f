"""Runs a query's chunks of deal indices, here or on a Dask cluster, and adds up what each
returns.

A chunk is ``(first, n)``; ``work(first, n)`` returns a dict of count arrays. The results are
added **in chunk order**, whichever backend ran them and in whatever order they finished, so
the totals are identical (bit for bit, floats included) whatever the thread count, the number
of workers or a worker lost mid-run. ``enough`` is checked after each chunk in that order, so
a run that stops early (``--precision``) stops at the same chunk everywhere.

Backends: by default chunks run here, one after another, as pieces on one helper thread per
numba thread (``lanes``; a chunk that must run whole is spread over the numba threads).
Inside ``with cluster.scheduler("local:2")`` (or ``"tcp://host:port"``, see
``analyzer.compute.cluster``) they run as Dask tasks, a few consecutive chunks per task, with a
bounded number of tasks in flight. Instead of summing, a ``store`` (a :class:`ChunkStore`)
may take each chunk's result and say which chunks it already holds (the strategy tables save
theirs and resume). A run may change its work part-way (``then``, a :class:`Switch`): the
odds query chooses each call's detail on its first deals and plays only the chosen ones on
the rest; the progress, the size estimate and Ctrl-C see one run. A progress bar appears for
runs longer than a second; Ctrl-C stops (cancelling tasks in flight) and returns the totals
of the chunks finished so far, marked interrupted.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn

from kernels.threads import max_threads, num_threads, set_threads

from ..errors import TooLong, UserError
from .lanes import lane_results, piece_ranges
from .notices import report as _report
from .notices import thread_setting

DEFAULT_CHUNK = 2048
MAX_TOTAL = 2**62  # deal and game indices are 64-bit integers in the kernels
_backend = None  # the active cluster backend (analyzer.compute.cluster), None for this process


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


# per thread (a server's job thread has its own): the observer of ``observed``, the limit of
# ``size_limit``
_local = threading.local()


def observed(on_progress: Callable[[int, int], None], stop: threading.Event,
             on_left: Callable[[float | None], None] | None = None):
    """Within this block (in this thread) every ``run_chunks`` reports ``on_progress(done,
    total)`` after each chunk (``done`` of ``total``: the share of the work done, of what is
    likely left, see :class:`Course`), and ``on_left(seconds)`` its estimate of the seconds
    left (None until it has one, see :class:`_TimeLeft`), and stops, as on Ctrl-C (the
    totals so far, marked interrupted), once ``stop`` is set: how a caller without a
    terminal (the web page) shows progress and cancels."""
    return thread_setting(_local, "observer", (on_progress, stop, on_left))


def set_backend(backend) -> None:
    """Make ``backend`` (an object with ``results(work, chunks, skip)``, or None for this
    process) run every following ``run_chunks``."""
    global _backend
    _backend = backend


def current_backend():
    """The backend ``run_chunks`` uses now (None: this process)."""
    return _backend


def local_results(work: Callable, chunks: list, skip: Callable | None,
                  waiting: Callable[[int, int, float], None] | None = None,
                  pace: Pace | None = None) -> Iterator:
    """This process's backend: ``(first, n, result, whole)`` for each piece of each chunk in
    order (``result`` None for a skipped chunk; ``whole`` at a chunk's last piece). With a
    ``pace``, a chunk runs as pieces sized to take about ``PIECE_SECONDS`` each, so progress
    and Ctrl-C come within a second or two whatever a deal costs; otherwise whole.
    ``waiting(first, n, seconds)`` hears each step of a wait for a piece. With a pace, on
    the main thread and more than one numba thread, once a piece shows deals slower than
    ``LANE_DEAL_SECONDS`` the rest run on that many helper threads at once, one numba thread
    each (see ``lanes``); quick deals stay on all threads a piece (a lane's hand-offs cost
    the default ghost question 0.25 -> 0.28 s)."""
    if pace is None:
        for first, n in chunks:
            if skip is not None and skip(first, n):
                yield first, n, None, True
            else:
                yield first, n, _waited(work, first, n, waiting), True
        return
    lanes = num_threads() if threading.current_thread() is threading.main_thread() else 1
    pieces = piece_ranges(chunks, pace)
    for at, size, whole in pieces:
        began = time.perf_counter()
        part = _waited(work, at, size, waiting)
        seconds = time.perf_counter() - began
        pace.timed(size, seconds)
        yield at, size, part, whole
        if lanes > 1 and seconds > LANE_DEAL_SECONDS * size:
            yield from lane_results(work, pieces, pace, lanes, _launch, waiting)
            return


def in_whole_chunks(work: Callable[[int, int], dict]) -> Callable[[int, int], dict]:
    """Mark ``work`` as one that must run whole chunks, never pieces (see :func:`run_chunks`);
    returns it."""
    work.whole_chunks = True
    return work


PIECE_SECONDS = 0.5  # what a piece of a chunk should take (progress, Ctrl-C, the page's cancel)
LANE_DEAL_SECONDS = 0.002  # deals slower than this (on all threads) run in lanes
FIRST_PIECE = 4  # deals of a run's first piece: a double-deck deal of every call takes 0.2 s


class Pace:
    """The size of a chunk's next piece: it starts small (a double-deck deal can take a tenth
    of a second, a PIMC one seconds) and doubles while a piece takes under a quarter of
    ``PIECE_SECONDS``, halves when one takes over twice it. Pieces only split the chunks:
    the counts are sums of integers (and of quarters, exact in any order), so the totals do
    not depend on them."""

    def __init__(self, chunk: int, first: int = FIRST_PIECE):
        self.chunk, self.size = chunk, max(1, min(first, chunk))

    def timed(self, n: int, seconds: float) -> None:
        """A piece of ``n`` took ``seconds``: size the next one."""
        if n < self.size:
            return  # a chunk's short last piece says little
        if seconds < PIECE_SECONDS / 4:
            self.size = min(self.chunk, self.size * 2)
        elif seconds > PIECE_SECONDS * 2:
            self.size = max(1, self.size // 2)


class _Helper:
    """A daemon thread that runs the chunks handed to it one after another: one thread for
    many chunks, so the kernels' OpenMP team is made once (a thread per chunk cost ~4%)."""

    def __init__(self):
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.last = threading.Event()
        self.last.set()
        threading.Thread(target=self._loop, name="chunks", daemon=True).start()

    def _loop(self) -> None:
        while True:
            job = self.jobs.get()
            job()

    def free(self) -> bool:
        """True when no chunk of it is running (none was left running by a Ctrl-C)."""
        return self.last.is_set()

    def run(self, job: Callable[[], None], done: threading.Event) -> None:
        """Queue ``job``; ``done`` is set when it returns."""
        self.last = done
        self.jobs.put(job)


_helpers: list[_Helper] = []  # more than one only after a chunk was left running


def _waited(work: Callable, first: int, n: int,
            waiting: Callable[[int, int, float], None] | None = None):
    """``work(first, n)`` run by a helper thread and waited for here in short steps, so the
    main thread handles a signal at once even when one chunk takes minutes (the kernels
    release the GIL; a double-deck or PIMC chunk can run for hours): a second Ctrl-C raises
    KeyboardInterrupt here and leaves the chunk to its thread (see ``left_running``). The
    helper uses the caller's numba thread count (it is per thread). Off the main thread (a
    server's job) the work runs in place."""
    if threading.current_thread() is not threading.main_thread():
        return work(first, n)
    box: dict = {}
    threads = num_threads()
    done = threading.Event()  # waited on, not a thread: an interrupted Thread.join marks a
    #                           running thread stopped (CPython 3.11)

    def job() -> None:
        try:
            set_threads(threads)
            box["value"] = work(first, n)
        except BaseException as error:  # noqa: BLE001  (re-raised in the caller's thread)
            box["error"] = error
        finally:
            done.set()

    _launch(job, done)
    start = time.perf_counter()
    while not done.wait(0.2):
        if waiting is not None:
            waiting(first, n, time.perf_counter() - start)
    if "error" in box:
        raise box["error"]
    return box["value"]


def _launch(job: Callable[[], None], done: threading.Event) -> None:
    """Run ``job`` on a free helper thread (a new one when none is free: a chunk left
    running keeps its thread); ``done`` is set when it returns."""
    helper = next((h for h in _helpers if h.free()), None)
    if helper is None:
        helper = _Helper()
        _helpers.append(helper)
    helper.run(job, done)


def left_running() -> bool:
    """True when a chunk's thread is still running (abandoned by a second Ctrl-C): the
    process must then end with ``os._exit`` once its output is written, as the interpreter's
    shutdown would otherwise free memory under the running kernel."""
    return not all(h.free() for h in _helpers)


class ChunkStore(Protocol):
    """Where a run's chunk results go instead of being summed."""

    def collect(self, first: int, n: int, part: dict) -> None:
        """Take the result of chunk ``(first, n)``."""

    def skip(self, first: int, n: int) -> bool:
        """True when chunk ``(first, n)`` is already held (it is not run again)."""


@dataclass(frozen=True)
class Switch:
    """A change of a run's work part-way: once the chunks of deal indices ``0 .. at-1`` (the
    last one cut short at ``at``) are added up (in order, whatever the backend),
    ``change(totals)`` returns the work for the rest, or None to stop the run there; it may
    reshape ``totals.counts`` in place to match what that work returns. A run stopped before
    (Ctrl-C, ``enough``) never calls it. A run may have several, at fixed deal counts, so
    what each sees depends on neither the chunk size nor the backend."""

    at: int
    change: Callable[[Totals], Callable[[int, int], dict]]


@dataclass(frozen=True)
class Course:
    """How a run may change on its way: stop early when ``enough(totals)`` says so (checked
    after each chunk, in order); ``then``, the work changes part-way (:class:`Switch`, one or
    a list); ``cost()``, what a deal of the work costs now (progress then counts the work,
    not the deals); ``left(totals, at)``, the work (deals times their cost) the run is
    likely still to do from deal ``at`` on (default: every deal left at today's cost);
    ``sized``: ``enough`` only ends a run of a fixed size early (a bound on its work), so its
    size is still checked against the limit as a run without ``enough`` is."""

    enough: Callable[[Totals], bool] | None = None
    then: Switch | list[Switch] | None = None
    cost: Callable[[], float] | None = None
    left: Callable[[Totals, int], float] | None = None
    sized: bool = False


def run_chunks(total: int, work: Callable[[int, int], dict], *, chunk: int = DEFAULT_CHUNK,
               progress: bool = True, label: str = "dealing", store: ChunkStore | None = None,
               course: Course = Course()) -> Totals:
    """Run ``work`` over deal indices ``0 .. total-1`` in chunks and sum the results (or hand
    each to ``store``), the run changing on its way as ``course`` says (see
    :class:`Course`). Here (not on a cluster, not into a ``store``) each chunk runs as
    pieces (see :class:`Pace`), unless ``work`` is marked :func:`in_whole_chunks` (exact
    mode's runs of layouts must not be cut)."""
    enough, then, cost = course.enough, course.then, course.cost
    totals = Totals()
    start = time.perf_counter()
    chunks = _chunks(total, chunk)
    sized = enough is None or course.sized
    waiting = _slow_start(total, progress, label, sized)
    skip = None if store is None else store.skip
    pace = Pace(chunk) if store is None and not getattr(work, "whole_chunks", False) else None

    def results_of(work: Callable, part: _Chunks) -> Iterator:
        if _backend is None:
            return local_results(work, part, skip, waiting, pace)
        return ((first, n, result, True) for (first, n), result
                in zip(part, _backend.results(work, part, skip), strict=False))

    if not then:
        results = results_of(work, chunks)
    else:  # each switch at its ``at`` exactly, so what it sees does not depend on ``chunk``
        switches = sorted([then] if isinstance(then, Switch) else then, key=lambda w: w.at)
        results = _switched(results_of, work, switches, (total, chunk), totals)
    run = _Run(total, start, progress, label, None if store is None else store.collect,
               enough, cost, course.left, sized)
    watcher = getattr(_local, "observer", None)
    if watcher is not None:
        watcher[0](0, total)  # the size is known before the first piece is done
    try:
        with deferred_interrupts() as stop:
            totals = _gather(results, totals, run, stop)
    except KeyboardInterrupt:
        totals.interrupted = True
    finally:
        results.close()  # a cluster backend cancels the tasks still in flight
    totals.seconds = time.perf_counter() - start
    return totals


def _switched(results_of: Callable, work: Callable, switches: list[Switch], size: tuple,
              totals: Totals) -> Iterator:
    """The results of the chunks of ``0 .. total-1`` (``size``: total and chunk), the work
    changing at each switch's ``at`` to what its ``change(totals)`` returns once the chunks
    before it are added to ``totals`` (the chunk loop adds each result before it asks for
    the next); a change to None ends the run."""
    total, chunk = size
    start = 0
    for switch in switches:
        at = min(switch.at, total)
        if at > start:
            yield from results_of(work, _Chunks(at, chunk, start))
            start = at
        if start >= total:
            return
        work = switch.change(totals)
        if work is None:
            return
    yield from results_of(work, _Chunks(total, chunk, start))


SLOW_START = 10.0  # seconds of a first chunk after which the run says it is still working


def _slow_start(total: int, progress: bool, label: str, sized: bool):
    """The ``waiting`` of a run: once its first chunk has taken ``SLOW_START`` seconds (the
    bar and the size estimate come only after it: a double-deck table's first chunk can take
    hours), one line on stderr saying so (with ``progress``); after three times that, a run
    of a fixed size (``sized``: not one that stops when precise enough) whose chunks would
    take longer than the size limit at the first one's pace so far is refused (TooLong)
    instead of told after the chunk. The seconds numba spent compiling (``compile_seconds``)
    count for neither: a first run compiles inside its first piece."""
    said = []

    def waiting(first: int, n: int, seconds: float) -> None:
        if first != 0:
            return
        if compile_seconds is not None:  # numba compiling is not the question's pace
            now = time.perf_counter()
            seconds -= compile_seconds(now - seconds, now)
        limit = current_limit()
        if sized and seconds >= 3 * SLOW_START and limit is not None and \
                n < total and seconds * total / n > limit:
            # a lower bound (the first chunk is not done): refused now, not in hours
            raise TooLong(f"{total:,} {_unit(label)} would take more than "
                          f"{duration_text(seconds * total / n)} here (the first {n:,} have "
                          f"taken {seconds:.0f} s and are not done)", seconds * total / n)
        if not progress or said or seconds < SLOW_START:
            return
        said.append(True)
        _report("slow_start", label=label, first=n, total=total, seconds=seconds,
                unit=_unit(label))
    return waiting


def _unit(label: str) -> str:
    """What a run of ``label`` counts: games when playing, pairs of hands for a match
    (``questions.simulate.card_match``), else deals."""
    return {"playing": "games", "pairs": "pairs"}.get(label, "deals")


def size_limit(seconds: float | None):
    """Within this block (in this thread) a run whose first part says the whole would take
    longer than ``seconds`` is refused (TooLong with the estimate) instead of started; None:
    no limit. The CLI sets one unless ``--force``, the server its own."""
    return thread_setting(_local, "limit", seconds)


def current_limit() -> float | None:
    """The size limit in force in this thread (seconds; None: none, e.g. under
    ``--force``)."""
    return getattr(_local, "limit", None)


def duration_text(seconds: float) -> str:
    """A duration in words: ``40 s``, ``12 minutes``, ``3.5 hours``, ``2.1 years``."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 3 * 86400:
        return f"{seconds / 3600:.1f} hours"
    if seconds < 365 * 86400:
        return f"{seconds / 86400:.0f} days"
    return f"{seconds / (365.25 * 86400):,.1f} years"


# ``(start, end) -> seconds`` numba spent compiling between those ``perf_counter`` times, set
# by a front end that listens for compiles (the command line): a run's size estimate leaves
# them out, so a first run after the kernels changed is not refused for its compiling (the
# double-deck bid question's first 4 deals, compiling, were once "about 20 hours")
compile_seconds = None


def _check_estimate(done: int, total: int, seconds: float, label: str) -> None:
    limit = current_limit()
    if limit is None or done >= total:
        return
    estimate = seconds / done * total
    if estimate > limit:
        raise TooLong(f"{total:,} {_unit(label)} would take about {duration_text(estimate)} "
                      f"here (timed on the first {done:,}; memory stays at one chunk's)",
                      estimate)


class _Chunks:
    """The chunks ``(first, n)`` of ``start .. total-1``, made as they are needed (a huge
    total costs no memory), with a length for the backends that want one."""

    def __init__(self, total: int, chunk: int, start: int = 0):
        self.total, self.chunk, self.start = total, chunk, start

    def __len__(self) -> int:
        return -(-(self.total - self.start) // self.chunk)

    def __iter__(self):
        for first in range(self.start, self.total, self.chunk):
            yield first, min(self.chunk, self.total - first)

    def __getitem__(self, i: int) -> tuple[int, int]:
        first = self.start + i * self.chunk
        return first, min(self.chunk, self.total - first)


def _chunks(total: int, chunk: int) -> _Chunks:
    if total > MAX_TOTAL:
        raise UserError(f"{total:,} is too many: at most {MAX_TOTAL:,} deals or games a run")
    return _Chunks(total, chunk)


@contextlib.contextmanager
def deferred_interrupts():
    """Within this block Ctrl-C (SIGINT) or SIGTERM does not raise inside a kernel (where
    numba would turn it into a SystemError) but sets the yielded event, which the chunk loop
    checks between chunks; a second one raises KeyboardInterrupt at once. Outside the main
    thread the handler cannot be installed and nothing changes."""
    watcher = getattr(_local, "observer", None)
    stop = watcher[1] if watcher is not None else threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(signum, frame):
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        if left_running():
            _report("stopping")

    before = signal.signal(signal.SIGINT, handler)
    before_term = signal.signal(signal.SIGTERM, handler)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, before)
        signal.signal(signal.SIGTERM, before_term)


@dataclass(frozen=True)
class _Run:
    """What :func:`run_chunks` was asked, as its chunk loop reads it."""

    total: int
    start: float  # perf_counter at the start
    progress: bool
    label: str
    collect: Callable[[int, int, dict], None] | None
    enough: Callable[[Totals], bool] | None
    cost: Callable[[], float] | None = None  # what a deal of the current work costs
    left: Callable[[Totals, int], float] | None = None  # the work likely left (Course.left)
    sized: bool = True  # a run of a fixed size, whose size is checked (Course.sized)


ESTIMATE_AFTER = 1.0  # seconds of a run after which its size is checked against the limit
PROJECT_EVERY = 1.0  # seconds between a run's projections of the work left (Course.left)


RATE_WINDOW = 2.0  # seconds of the latest pieces whose pace the time left assumes
PACE_SECONDS = 1.0  # ... at least (after the first piece): the lanes' first pieces are slow


class _TimeLeft:
    """What a run likely still has to do: the work (``run.left``, projected at most every
    ``PROJECT_EVERY`` seconds and 20 times its own time, as it weighs every option; in
    between, the last projection less the work done since; every deal left at the current
    cost without a ``run.left``) and, once the run has taken ``ESTIMATE_AFTER`` seconds,
    the seconds: that work at the pace of the pieces of the last ``RATE_WINDOW`` seconds
    (``PACE_SECONDS`` at least), the first piece never counted. Not the pace of the whole
    run: its first pieces are small and dear a deal (the first 4 deals of the default bid
    question at its whole pace said 50-100 times its time left; the double deck's first 4
    deals, its tables first touched, 600 ms a deal, later 40)."""

    def __init__(self, run: _Run):
        self.run, self.at, self.projected, self.work = run, -PROJECT_EVERY, 0.0, 0.0
        self.every = PROJECT_EVERY  # seconds until the next projection
        self.paces: collections.deque = collections.deque()  # (perf_counter, work done)

    def work_left(self, totals: Totals, done: int, work: float, cost: float) -> float:
        """The work left after ``done`` deals, ``work`` done so far at ``cost`` a deal now."""
        if self.run.left is None:
            return (self.run.total - done) * cost
        now = time.perf_counter()
        if now - self.at >= self.every:
            self.projected = self.run.left(totals, done)
            self.at, self.work = now, work
            # a projection weighs every option (0.24 s on the double deck's first deals,
            # 5% of its run): at most a 20th of the run's time
            self.every = max(PROJECT_EVERY, 20 * (time.perf_counter() - now))
        return max(0.0, self.projected - (work - self.work))

    def seconds(self, now: float, work: float, left: float) -> float | None:
        """The seconds ``left`` (work) will take at the recent pace, ``work`` done by
        ``now`` (perf_counter); None before ``ESTIMATE_AFTER`` seconds of the run."""
        paces = self.paces
        paces.append((now, work))
        while len(paces) > 2 and now - paces[1][0] >= RATE_WINDOW:
            paces.popleft()
        then, before = paces[0]
        if now - self.run.start < ESTIMATE_AFTER or now - then < PACE_SECONDS or \
                work <= before:
            return None
        return (now - then) / (work - before) * left


def _gather(results, totals: Totals, run: _Run, stop) -> Totals:
    """The chunk loop of :func:`run_chunks`: add (or collect) each piece's result in order,
    show progress, stop when Ctrl-C set ``stop`` (after any piece) or ``run.enough`` says so
    (after a whole chunk, so where a run stops does not depend on the pieces)."""
    total, start, label = run.total, run.start, run.label
    bar = task = None
    watcher = getattr(_local, "observer", None)
    checked = not run.sized  # a run to a precision has no fixed size to refuse
    work = 0.0  # the work done, in deals times their cost (``run.cost``)
    estimate = _TimeLeft(run)
    try:
        for first, n, part, whole in results:
            if part is None:
                totals.done += n
            elif run.collect is not None:
                run.collect(first, n, part)
                totals.done += n
            else:
                totals.add(part, n)
            elapsed = time.perf_counter() - start
            cost = run.cost() if run.cost is not None else 1.0
            work += n * cost
            # the share of the work done, of what is likely left (a run that stops playing
            # some options gets cheaper a deal, one that stops once clear ends early)
            left = estimate.work_left(totals, first + n, work, cost) \
                if run.progress or watcher is not None else (total - first - n) * cost
            done = total * work / (work + left) if work else first + n
            seconds = estimate.seconds(time.perf_counter(), work, left)
            if bar is None and run.progress and elapsed > 1.0 and first + n < total:
                bar = Progress(TextColumn(f"{label}"), BarColumn(),
                               TextColumn("{task.fields[deals]:,}/{task.total:,.0f} deals"),
                               TextColumn("{task.fields[left]}"), transient=True,
                               console=Console(stderr=True))
                bar.start()
                task = bar.add_task(label, total=total, deals=0, left="")
            if bar is not None:  # the time left as the page says it
                bar.update(task, completed=done, deals=first + n, left="" if seconds is None
                           else f"about {duration_text(seconds)} left")
            if watcher is not None:
                watcher[0](int(done), total)
                if watcher[2] is not None:
                    watcher[2](seconds)
            if stop.is_set():
                totals.interrupted = True
                break
            if not checked and (elapsed >= ESTIMATE_AFTER or whole):
                checked = True
                compiled = compile_seconds(start, start + elapsed) if compile_seconds else 0
                _check_estimate(first + n, total, elapsed - compiled, label)
            if whole and run.enough is not None and run.enough(totals):
                break
    finally:
        if bar is not None:
            bar.stop()
    return totals


@contextlib.contextmanager
def using_threads(workers: int | None):
    """Within this block the kernels use ``workers`` numba threads (None: as they are);
    UserError when ``workers`` is not between 1 and the threads available."""
    if workers is not None and not 1 <= workers <= max_threads():
        raise UserError(f"--workers must be between 1 and {max_threads()}")
    before = num_threads()
    if workers is not None:
        set_threads(workers)
    try:
        yield
    finally:
        set_threads(before)
