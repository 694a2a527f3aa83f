"""The CLI run in a child process as its console script runs it, its output read as it comes,
saying on stderr once its first deals are done (heard through the runner's progress hook):
the tests that send it a signal wait for that, not for a guessed time."""

import queue
import subprocess
import sys
import threading
import time

from tests.paths import ROOT

FIRST_CHUNK = "test: the first deals are done"


# ``euchre`` as its console script runs it, saying on stderr once its first chunk of work is
# done (heard through the runner's progress hook, as the web page hears progress): the tests
# signal a run then, not after a guessed number of seconds, which a slow start (a numba cache
# to fill: minutes) outlasted, so that the signal came before the run was under way
UNDER_WAY = f"""
import sys, threading
from analyzer.compute.runner import observed
said = []
def heard(done, total):
    if done and not said:
        said.append(True)
        print({FIRST_CHUNK!r}, file=sys.stderr, flush=True)
with observed(heard, threading.Event()):
    from analyzer.launch import main
    main()
"""


class Child:
    """The CLI run by ``args`` in a child process, its output read as it comes: as
    ``python -m analyzer`` runs it, or (``under_way``) saying when its first chunk is done."""

    def __init__(self, args: list[str], under_way: bool = True, **popen):
        start = ["-c", UNDER_WAY] if under_way else ["-m", "analyzer"]
        self.proc = subprocess.Popen([sys.executable, *start, *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, cwd=ROOT, **popen)
        self.out: list[str] = []
        self.err: list[str] = []
        self.lines: queue.Queue = queue.Queue()  # stderr's lines, then None at its end
        self.readers = [threading.Thread(target=self._read, args=(stream, kept), daemon=True)
                        for stream, kept in ((self.proc.stdout, self.out),
                                             (self.proc.stderr, self.err))]
        for reader in self.readers:
            reader.start()

    def _read(self, stream, kept: list[str]) -> None:
        for line in stream:
            kept.append(line)
            if kept is self.err:
                self.lines.put(line)
        if kept is self.err:
            self.lines.put(None)

    def wait_for(self, text: str, timeout: float = 600) -> str:
        """The first stderr line from now on that holds ``text``; the test fails (the child
        killed) when the child ends, or ``timeout`` seconds pass, first. The wait is for a
        behaviour, not a time: the bound only keeps a broken run from hanging the suite."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                self.proc.kill()
                raise AssertionError(f"no {text!r} on stderr: {''.join(self.err)[-500:]}")
            if text in line:
                return line

    def finish(self, timeout: float = 60) -> tuple[str, str]:
        """``(stdout, stderr)`` once the child ends; killed (and the test failed) when it is
        still running after ``timeout`` seconds, so no run outlives its test."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"still running {timeout} s after the signal: "
                                 f"{''.join(self.err)[-300:]}") from None
        for reader in self.readers:
            reader.join()
        return "".join(self.out), "".join(self.err)
