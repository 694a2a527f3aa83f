"""x"""

import os
import signal
import time

import pytest

from tests.child import FIRST_CHUNK, Child
from tests.test_hostile import run_cli

pytestmark = pytest.mark.cli


@pytest.mark.parametrize("command, sig", [("strategy build", signal.SIGTERM),
                                          ("review", signal.SIGINT)])
def test_a_command_without_its_own_handler_says_it_was_interrupted(command, sig, tmp_path):
    """A strategy build for house rules (minutes), or a review pricing its calls: cut short,
    one line on stderr saying so and that nothing was kept, exit 130, no traceback (typer's
    own handling was silent, and the review used to finish on a shortened estimate)."""
    import kernels.config  # noqa: F401  (sets NUMBA_CACHE_DIR: the compiled kernels are kept)

    env = {k: v for k, v in os.environ.items() if not k.startswith("EUCHRE_STRATEGY_")}
    env["XDG_CACHE_HOME"] = str(tmp_path)  # no strategy cached: a full build (minutes)
    if command == "review":
        code, out, err = run_cli(["play", "--variant", "knock", "--seed", "3", "--json"])
        (tmp_path / "hand.json").write_text(out)
        args = ["review", str(tmp_path / "hand.json"), "--call-deals", "5000000", "--method",
                "pimc", "-o", str(tmp_path / "review.csv")]
    else:
        args = ["strategy", "build", "--variant", "bid", "--ace-no-face"]  # not shipped
    child = Child(args, env=env)
    child.wait_for(FIRST_CHUNK)  # under way: past start-up (and any compiling), pricing
    child.proc.send_signal(sig)
    out, err = child.finish()
    assert child.proc.returncode == 130, (out[-500:], err[-500:])
    assert "Traceback" not in err and "SystemError" not in err, err[-800:]
    last = [line for line in err.splitlines() if line.strip()][-1]
    assert last.startswith("interrupted") and "kept" in last, err[-500:]
    assert not (tmp_path / "review.csv").exists()


def test_a_first_run_says_it_compiles_and_stops_on_ctrl_c(tmp_path):
    """With an empty numba cache a command says at once that it compiles the kernels (it
    used to be silent for minutes), and Ctrl-C during the compilation stops it at once with
    one line (numba's LLVM callbacks used to swallow it: the run went on to the end)."""
    cache = tmp_path / "numba"
    start = time.perf_counter()
    child = Child(["solve", "N: JH JD AH KH QH / E: 9D TD QD KD AD / S: 9C TC JC QC KC / "
                   "W: 9S TS JS QS KS", "--variant", "knock", "--trump", "H"], under_way=False,
                  env=dict(os.environ, NUMBA_CACHE_DIR=str(cache)))
    first = child.wait_for("")  # its first line on stderr
    said = time.perf_counter() - start
    assert first.startswith("compiling the kernels") and "first run" in first, first
    # Said before the imports (0.1 s here): no start-up, however slow the machine, takes 60 s.
    # What this guards against, silence until the kernels are compiled, fails below too: the
    # Ctrl-C sent once the compilation is seen under way must find the run still compiling.
    assert said < 60, f"said after {said:.1f} s"
    # numba is compiling once the first kernel is in the cache (not after a guessed number of
    # seconds, which a slow start outlasted); the whole compilation takes 44 s here
    deadline = time.monotonic() + 600  # only so that a broken run cannot hang the suite
    while not any(cache.rglob("*.nbi")):
        assert child.proc.poll() is None, child.finish()
        if time.monotonic() > deadline:
            child.proc.kill()
            raise AssertionError(f"no kernel compiled in 600 s: {child.finish()}")
        time.sleep(0.05)
    child.proc.send_signal(signal.SIGINT)
    stopped = time.perf_counter()
    out, err = child.finish()
    # The handler ends the process as it runs (os._exit: milliseconds here), so 30 s is not
    # reached on any machine; a run that went on compiling would take the rest of the
    # compilation, and one that went on to the end would print the answer.
    assert time.perf_counter() - stopped < 30
    assert child.proc.returncode == 130, (out[-300:], err[-500:])
    assert out == ""  # no answer: the run did not go on to the end
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("interrupted")
