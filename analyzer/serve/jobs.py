"""One question at a time, off the request thread: a long question reports its progress and
can be cancelled, and a second question while one runs is refused with a clear message (two
runs would each take every core, and the kernels' thread pool serves one caller at a time)."""

from __future__ import annotations

import threading
import time
import traceback
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from ..compute.runner import observed
from ..errors import UserError

KEEP_JOBS = 32  # finished jobs remembered, for a page that polls late


class Busy(UserError):
    """Another question is running."""


@dataclass
class Job:
    """A question run in the background: ``state`` is running, done, failed or cancelled;
    ``done``/``total`` deals so far; ``result`` the answer's JSON-ready dict (the estimate so
    far when cancelled), ``error`` one line when it failed."""

    id: str
    label: str
    state: str = "running"
    done: int = 0
    total: int = 0
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0
    result: dict | None = None
    error: str | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)

    def status(self) -> dict:
        """What the page shows: the state, deals done of total, seconds so far and the
        estimated seconds left, and the result or error once there is one."""
        elapsed = self.seconds or (time.monotonic() - self.started)
        left = None
        if self.state == "running" and 0 < self.done < self.total:
            left = elapsed / self.done * (self.total - self.done)
        return {"id": self.id, "label": self.label, "state": self.state, "done": self.done,
                "total": self.total, "seconds": elapsed, "seconds_left": left,
                "result": self.result, "error": self.error}


class JobRunner:
    """Runs at most one job at a time, each in its own thread."""

    def __init__(self):
        self._lock = threading.Lock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._running: Job | None = None

    def start(self, label: str, work: Callable[[], dict]) -> Job:
        """Start ``work`` (returning the answer's dict) as a job; Busy when one is running."""
        with self._lock:
            if self._running is not None and not self._running.finished.is_set():
                raise Busy(f"another question is running ({self._running.label}); wait for it "
                           f"or cancel it")
            job = Job(uuid.uuid4().hex[:12], label)
            self._running = job
            self._jobs[job.id] = job
            while len(self._jobs) > KEEP_JOBS:
                self._jobs.popitem(last=False)
        threading.Thread(target=self._run, args=(job, work), daemon=True,
                         name=f"question-{job.id}").start()
        return job

    def _run(self, job: Job, work: Callable[[], dict]) -> None:
        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        try:
            with observed(progress, job.stop):
                job.result = work()
            job.state = "cancelled" if job.stop.is_set() else "done"
        except UserError as e:
            job.state, job.error = ("cancelled" if job.stop.is_set() else "failed"), str(e)
        except Exception as e:  # noqa: BLE001 - the page gets one line, the log the trace
            traceback.print_exc()
            job.state, job.error = "failed", f"internal error: {type(e).__name__}: {e}"
        finally:
            job.seconds = time.monotonic() - job.started
            job.finished.set()

    def get(self, job_id: str) -> Job | None:
        """The job ``job_id`` (None when unknown or forgotten)."""
        return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Ask job ``job_id`` to stop after the chunk it is on (its answer is the estimate so
        far)."""
        job = self._jobs.get(job_id)
        if job is not None:
            job.stop.set()
        return job

    def cancel_all(self) -> None:
        """Stop every job (the server is shutting down)."""
        for job in list(self._jobs.values()):
            job.stop.set()
