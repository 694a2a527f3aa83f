"""What a long run tells a person waiting for it, as facts the front end words (the command
line on stderr; the page shows progress instead). Light to import: the command line installs
its reporter before any command runs."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

_local = threading.local()  # per thread: a server's job thread reports nothing


@contextlib.contextmanager
def thread_setting(local: threading.local, name: str, value):
    """Within this block ``local.name`` (this thread's) is ``value``, then what it was."""
    before = getattr(local, name, None)
    setattr(local, name, value)
    try:
        yield
    finally:
        setattr(local, name, before)


def reporting(reporter: Callable[[str, dict], None]):
    """Within this block (in this thread) the runner tells ``reporter(kind, facts)`` what a
    person waiting should know: ``"slow_start"`` (``label``, ``first``, ``total``,
    ``seconds``, ``unit``: a first part still running after ``SLOW_START`` seconds) and
    ``"stopping"`` (a first Ctrl-C while a part runs: the run stops once it is done).
    Without a reporter nothing is said."""
    return thread_setting(_local, "reporter", reporter)


def report(kind: str, **facts) -> None:
    """Tell this thread's reporter (if any) ``kind`` with ``facts``."""
    reporter = getattr(_local, "reporter", None)
    if reporter is not None:
        reporter(kind, facts)
