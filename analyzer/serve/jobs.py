"""One question at a time, off the request thread: a long question reports its progress and
can be cancelled by anyone using the page; a second question waits a little for the first,
then is refused with how long to wait (the kernels spread one question over every core, and
their thread pool serves one caller at a time).

Nobody is left locked out: a background question whose page stopped asking about it (a tab
closed, a reload) is cancelled, as is a request's question when its client goes away (the
route says so with :meth:`Job.abandon`); finished questions are forgotten after a while; a
question's label names its kind, never its cards (another person may read it)."""

from __future__ import annotations

import math
import secrets
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from ..compute.runner import observed
from ..errors import UserError

KEEP_JOBS = 32  # finished jobs remembered, for a page that polls late
KEEP_SECONDS = 600.0  # ... and for how long
ORPHAN_SECONDS = 20.0  # a background job nobody asked about for this long is cancelled


class Busy(UserError):
    """Another question is running: ``retry_after`` seconds is a fair wait."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class Job:
    """A question run in the background: ``state`` is running, done, failed or cancelled;
    ``done``/``total`` deals so far; ``result`` the answer's JSON-ready dict (the estimate so
    far when cancelled), ``error`` one line when it failed. ``id`` is the starter's handle
    (it reads the answer); ``label`` is what anyone may see."""

    id: str
    label: str
    watched: bool = True  # a page polls it: cancelled when it stops asking
    state: str = "running"
    done: int = 0
    total: int = 0
    started: float = field(default_factory=time.monotonic)
    seen: float = field(default_factory=time.monotonic)
    seconds: float = 0.0
    result: dict | None = None
    error: str | None = None
    internal: bool = False  # the error is the server's fault, not the question's
    left: float | None = None  # the runner's estimate of the seconds left ...
    left_at: float = 0.0  # ... made at this time.monotonic()
    stop: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)

    def seconds_left(self) -> float | None:
        """The estimated seconds left: the runner's last estimate less the time since (None
        until it has one)."""
        if self.state != "running" or self.left is None:
            return None
        return max(0.0, self.left - (time.monotonic() - self.left_at))

    def public(self) -> dict:
        """What anyone may see of it: its kind, progress and time, no cards, no answer."""
        elapsed = self.seconds or (time.monotonic() - self.started)
        return {"label": self.label, "state": self.state, "done": self.done,
                "total": self.total, "seconds": elapsed, "seconds_left": self.seconds_left()}

    def status(self) -> dict:
        """What its starter's page shows: :meth:`public` with the id, and the result or
        error once there is one (asking counts as watching it)."""
        self.seen = time.monotonic()
        return {"id": self.id, **self.public(), "result": self.result, "error": self.error}


class JobRunner:
    """Runs at most one job at a time, each in its own thread (see the module)."""

    def __init__(self, orphan_seconds: float = ORPHAN_SECONDS,
                 keep_seconds: float = KEEP_SECONDS):
        self._lock = threading.Condition()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._running: Job | None = None
        self.orphan_seconds, self.keep_seconds = orphan_seconds, keep_seconds
        self.closing = False

    def start(self, label: str, work: Callable[[], dict], watched: bool = True,
              wait: float = 0.0, total: int = 0) -> Job:
        """Start ``work`` (returning the answer's dict) as a job, waiting up to ``wait``
        seconds for a running one to finish; Busy when one still runs. ``watched``: a page
        polls it (a request that waits for it says so by not watching); ``total``: the deals
        it will play, when known before it starts."""
        deadline = time.monotonic() + wait
        with self._lock:
            while self.running() is not None:
                left = deadline - time.monotonic()
                if left <= 0 or self.closing:
                    raise self._busy()
                self._lock.wait(min(left, 0.5))
            if self.closing:
                raise UserError("the server is stopping")
            job = Job(secrets.token_hex(8), label, watched, total=total)
            self._running = job
            self._jobs[job.id] = job
            self._forget_old()
        threading.Thread(target=self._run, args=(job, work), daemon=True,
                         name=f"question-{job.id[:6]}").start()
        return job

    def _busy(self) -> Busy:
        job = self._running
        left = job.seconds_left() if job is not None else None
        wait = max(1, math.ceil(left)) if left is not None else 5
        what = f"another question ({job.label}) is running" if job else "a question is running"
        return Busy(f"{what}: wait about {wait} s, or cancel it", wait)

    def running(self) -> Job | None:
        """The job running now (None: none), after cancelling it when its page went away."""
        job = self._running
        if job is None or job.finished.is_set():
            return None
        if job.watched and time.monotonic() - job.seen > self.orphan_seconds:
            job.stop.set()  # nobody is waiting for it any more: it stops at its next piece
        return job

    def _forget_old(self) -> None:
        now = time.monotonic()
        for key in [k for k, j in self._jobs.items()
                    if j.finished.is_set() and now - j.started - j.seconds > self.keep_seconds]:
            del self._jobs[key]
        while len(self._jobs) > KEEP_JOBS:
            key = next((k for k, j in self._jobs.items() if j.finished.is_set()), None)
            if key is None:
                break
            del self._jobs[key]

    def _run(self, job: Job, work: Callable[[], dict]) -> None:
        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total
            if job.watched and time.monotonic() - job.seen > self.orphan_seconds:
                job.stop.set()  # its page went away: stop at the next piece

        def heard_left(seconds: float | None) -> None:
            job.left, job.left_at = seconds, time.monotonic()

        try:
            with observed(progress, job.stop, heard_left):
                job.result = work()
            job.state = "cancelled" if job.stop.is_set() else "done"
        except UserError as e:
            job.state, job.error = ("cancelled" if job.stop.is_set() else "failed"), str(e)
        except Exception as e:  # noqa: BLE001 - the page gets one line, the log the trace
            traceback.print_exc()
            job.state, job.error = "failed", f"internal error: {type(e).__name__}: {e}"
            job.internal = True
        finally:
            job.seconds = time.monotonic() - job.started
            job.finished.set()
            with self._lock:
                self._lock.notify_all()

    def get(self, job_id: str) -> Job | None:
        """The job ``job_id`` (None when unknown or forgotten)."""
        with self._lock:
            self._forget_old()
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Ask job ``job_id`` to stop after the piece it is on (its answer is the estimate so
        far)."""
        job = self.get(job_id)
        if job is not None:
            job.stop.set()
        return job

    def cancel_running(self) -> Job | None:
        """Ask the running job, whoever started it, to stop (None: none runs)."""
        job = self.running()
        if job is not None:
            job.stop.set()
        return job

    def cancel_all(self) -> None:
        """Stop every job and start no more (the server is shutting down)."""
        with self._lock:
            self.closing = True
            for job in list(self._jobs.values()):
                job.stop.set()
            self._lock.notify_all()

    def busy(self) -> bool:
        """Whether a job's kernel may still be running (shutting down must not wait on it)."""
        return any(not j.finished.is_set() for j in list(self._jobs.values()))
