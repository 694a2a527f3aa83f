"""The one place that listens to numba's compile events, so the command line can tell a
person that numba is compiling (a first run, or after a kernel changed) instead of leaving
minutes of silence, and can stop at once on Ctrl-C while it compiles (numba's LLVM callbacks
swallow the KeyboardInterrupt a Ctrl-C raises there). Plain Python: no jitted code here."""

import time

from numba.core import event


class CompileWatch(event.Listener):
    """Counts the compilations under way (``active``), those finished (``finished``) and the
    seconds spent compiling (``seconds``; ``spans`` when, by ``time.perf_counter``), and
    calls ``on_first()`` when the first one of this process starts. Cache loads fire
    nothing."""

    def __init__(self, on_first):
        self.on_first = on_first
        self.started = False
        self.active = 0
        self.finished = 0
        self.seconds = 0.0
        self.spans: list[tuple[float, float]] = []
        self._since = 0.0

    def on_start(self, ev):
        """numba starts compiling a function."""
        if not self.active:
            self._since = time.perf_counter()
        self.active += 1
        if not self.started:
            self.started = True
            self.on_first()

    def on_end(self, ev):
        """numba finished (or gave up) compiling a function."""
        self.active -= 1
        self.finished += 1
        if not self.active:
            now = time.perf_counter()
            self.seconds += now - self._since
            self.spans.append((self._since, now))

    def seconds_within(self, start: float, end: float) -> float:
        """The seconds spent compiling between ``start`` and ``end`` (``perf_counter``), a
        compile still under way included (a first piece is often still compiling when the
        runner asks how long it has really taken)."""
        spans = self.spans + ([(self._since, time.perf_counter())] if self.active else [])
        return sum(max(0.0, min(b, end) - max(a, start)) for a, b in spans)


def watch_compiles(on_first) -> CompileWatch:
    """A :class:`CompileWatch` listening from now on in this process."""
    watch = CompileWatch(on_first)
    event.register("numba:compile", watch)
    return watch
