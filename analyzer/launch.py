"""The ``euchre`` console script: says at once when this run will compile the kernels (an
empty numba cache: a first run, or a new version of the kernels), before the seconds the
imports take, then runs the command line (``analyzer.cli``)."""

import os
import signal
import sys
from pathlib import Path

QUICK = {"rules", "--help", "-h"}  # commands that never compile a kernel


def first_run(argv: list[str]) -> bool:
    """True when the command in ``argv`` computes and no kernel has been compiled into the
    numba cache yet."""
    if not argv or QUICK & set(argv):
        return False
    import kernels.config  # noqa: F401  (light: sets NUMBA_CACHE_DIR, imports no numba)

    cache = Path(os.environ["NUMBA_CACHE_DIR"])
    return not cache.is_dir() or not any(cache.rglob("*.nbi"))


class Interrupts:
    """The handler of Ctrl-C (SIGINT) and SIGTERM for the whole run, installed first:
    KeyboardInterrupt, or, while numba compiles (its LLVM callbacks would swallow the
    KeyboardInterrupt and the run would go on), one line and exit 130 at once; the functions
    compiled so far stay cached. ``watch`` is set once numba is imported."""

    def __init__(self):
        self.watch = None

    def __call__(self, signum, frame):
        if self.watch is not None and self.watch.active:
            done = self.watch.finished
            kept = (f"the {done} kernels compiled so far are cached, the next run compiles "
                    f"the rest") if done else "no kernel was compiled yet"
            print(f"interrupted while compiling the kernels: {kept}", file=sys.stderr,
                  flush=True)
            os._exit(130)
        raise KeyboardInterrupt


def main() -> None:
    """Run ``euchre`` with the arguments of this process."""
    interrupts = Interrupts()
    signal.signal(signal.SIGINT, interrupts)
    signal.signal(signal.SIGTERM, interrupts)
    try:
        from_start = first_run(sys.argv[1:])
        if from_start:
            print("compiling the kernels for this machine: a first run only, about 3 minutes "
                  "(later runs load them in seconds)", file=sys.stderr, flush=True)
        from .cli.app import main as cli_main
    except KeyboardInterrupt:
        print("interrupted before anything was finished: nothing was kept", file=sys.stderr)
        sys.exit(130)
    cli_main(interrupts, announced=from_start)
