"""Long and hostile runs lose nothing: the cases of issue 14, one named test each — outputs
that cannot be written, Ctrl-C mid-run, runaway sizes, an output that is the input, a dealer's
options, resuming an edited file, files of records, Excel CSVs, failed runs' scratch files,
runs where nothing could be processed, the play default, and the smaller ones."""

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from analyzer.compute.runner import DEFAULT_CHUNK, observed
from tests.test_hostile import assert_one_error, run_cli

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "records"
KNOCK_ROW = "AH JH KD QD JD,E,N,9H"


def _hands(tmp_path, rows=(KNOCK_ROW,), name="h.csv", header="hand,seat,dealer,upcard"):
    f = tmp_path / name
    f.write_text(header + "\n" + "\n".join(rows) + "\n")
    return f


# ---------------------------------------------------------------------------- 1. outputs

@pytest.mark.parametrize("where", ["missing-folder", "parent-is-a-file", "read-only"])
def test_unwritable_outputs_fail_before_any_work(tmp_path, where):
    f = _hands(tmp_path)
    if where == "missing-folder":
        base = tmp_path / "nowhere"
    elif where == "parent-is-a-file":
        base = f
    else:
        base = tmp_path / "locked"
        base.mkdir()
        base.chmod(0o500)
        if os.access(base, os.W_OK):  # root writes anywhere: use a folder nobody can write
            base = Path("/proc")
    commands = [
        ["evaluate", str(f), "--variant", "knock", "--deals", "50", "-o", str(base / "o.csv")],
        ["table", "--variant", "knock", "--deals", "200", "-o", str(base / "t")],
        ["report", "--variant", "knock", "--deals", "200", "-o", str(base / "r.html")],
        ["review", str(RECORDS / "knock_misplay.json"), "--call-deals", "50", "-o",
         str(base / "d.csv")],
    ]
    chunks = []  # every chunk of work any of them ran (the runner's progress hook)
    with observed(lambda done, total: chunks.append(done), threading.Event()):
        for args in commands:
            line = assert_one_error(args)
            assert str(base) in line or "/proc" in line, line
        assert chunks == []  # refused before the work, not after
        # the hook does see work: the same evaluate with an output it can write
        assert run_cli(commands[0][:-1] + [str(tmp_path / "o.csv")])[0] == 0
    assert chunks
    assert not (tmp_path / "nowhere").exists()


def test_outputs_are_written_whole(tmp_path, monkeypatch):
    """A crash while writing leaves the old file, not half a new one."""
    from analyzer.outputs import written_whole

    target = tmp_path / "r.html"
    target.write_text("old")
    with pytest.raises(RuntimeError), written_whole(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("crash")
    assert target.read_text() == "old" and list(tmp_path.iterdir()) == [target]


# ---------------------------------------------------------------------------- 2. Ctrl-C

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


# each command with one signal, each signal with one command of each kind: the handler is
# one for both signals, and each of these runs waits seconds for its chunks
@pytest.mark.parametrize("args, total, sig", [
    (["odds", "JH", "AH", "KH", "QD", "9S", "TC", "--variant", "bid", "--deals", "5000000"],
     5_000_000, signal.SIGINT),
    (["simulate", "--variant", "knock", "--games", "400000000", "--play", "heuristic",
      "--force"], 400_000_000, signal.SIGTERM),
])
def test_ctrl_c_prints_the_estimate_so_far(args, total, sig):
    """Ctrl-C, or SIGTERM from a supervisor, during a long run: the estimate so far, one line
    saying so, exit 130."""
    child = Child(args)
    child.wait_for(FIRST_CHUNK)  # into the chunks
    child.proc.send_signal(sig)
    out, err = child.finish()
    assert child.proc.returncode == 130, (out[-500:], err[-500:])
    assert "Traceback" not in err and "SystemError" not in err, err[-800:]
    said = re.search(r"interrupted after ([\d,]+) (deals|games)", out + err)
    assert said, (out[-500:], err[-500:])
    done = int(said[1].replace(",", ""))
    assert 0 < done < total  # part of the run, the chunks finished before the signal
    assert re.search(rf"^{said[1]} {said[2]}, ", out, re.M), out  # the estimate is of them
    assert "%" in out  # the estimate itself: intervals were printed


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


def test_a_second_ctrl_c_stops_a_chunk_of_minutes_at_once(monkeypatch):
    """A chunk can run for minutes (a double-deck or PIMC table): the first Ctrl-C says the run
    stops once it is done, a second stops at once with the chunks finished before it (the
    signal used to wait for the kernel: minutes with no answer)."""
    import io

    import numpy as np

    from analyzer.compute.runner import left_running, run_chunks

    release = threading.Event()
    running = threading.Event()  # the chunk of minutes has started
    finished = []  # the chunks of minutes that ended (they end only when released)

    def work(first, n):
        if first > 0:
            running.set()
            release.wait(120)  # a kernel of minutes (it, too, releases the GIL)
            finished.append(first)
        return {"deals": np.array([n])}

    told = threading.Event()

    class Stderr(io.StringIO):
        def write(self, text):
            if "Ctrl-C again stops at once" in text:
                told.set()  # the first Ctrl-C was handled
            return super().write(text)

    monkeypatch.setattr(sys, "stderr", Stderr())

    def press_twice():
        # the first once the chunk of minutes runs, the second once the first was handled
        # (two signals sent together can arrive as one)
        if running.wait(60):
            os.kill(os.getpid(), signal.SIGINT)
            if told.wait(60):
                os.kill(os.getpid(), signal.SIGINT)

    from analyzer.cli.app import say
    from analyzer.compute.notices import reporting

    threading.Thread(target=press_twice, daemon=True).start()
    try:
        with reporting(say):  # the command line's words for what the runner reports
            totals = run_chunks(30, work, chunk=10, progress=False)
        assert told.is_set() and not finished  # stopped while the chunk still ran: at once
        assert totals.interrupted and totals.done == 10 and totals.counts["deals"][0] == 10
        assert left_running()  # the launcher then ends the process without waiting for it
    finally:
        release.set()


# ---------------------------------------------------------------------------- 3. sizes

def test_a_first_chunk_of_hours_is_told_and_refused_without_waiting_for_it(monkeypatch,
                                                                           capsys):
    """The size estimate came only after the first chunk, which can take hours (a double-deck
    table): the run says after ``SLOW_START`` seconds that it is still working, and once the
    first chunk has run three times that long without ending, a run whose chunks would take
    longer than the limit at that pace (a lower bound) is refused then."""
    import numpy as np

    from analyzer.compute import runner
    from analyzer.errors import TooLong

    monkeypatch.setattr(runner, "SLOW_START", 0.2)
    release = threading.Event()
    finished = []  # the first chunk ends only when released

    def work(first, n):
        release.wait(120)
        finished.append(first)
        return {"deals": np.array([n])}

    from analyzer.cli.app import say
    from analyzer.compute.notices import reporting

    try:
        with runner.size_limit(10.0), pytest.raises(TooLong, match="would take more than"), \
                reporting(say):  # the command line's words for what the runner reports
            runner.run_chunks(1000, work, chunk=10, progress=True, label="tables")
        assert not finished  # refused while the first chunk still ran, not after it
    finally:
        release.set()
    err = capsys.readouterr().err
    assert "the first 10 of 1,000 deals have taken" in err


def test_a_report_leaves_out_a_comparison_that_would_take_too_long(tmp_path, monkeypatch):
    """A report's PIMC comparison in the double deck would take hours: it is left out with a
    warning and the report is written (it used to run silently for hours)."""
    from analyzer.errors import TooLong
    from analyzer.game.variants import make_rules
    from analyzer.questions import report

    real = report.build_tables

    def slow_pimc(rules, deals, out_dir, **kw):
        if kw["method"] == "pimc":
            raise TooLong("200 deals would take about 9 hours here", 9 * 3600)
        return real(rules, deals, out_dir, **kw)

    monkeypatch.setattr(report, "build_tables", slow_pimc)
    left_out = []
    path = report.build_report(make_rules("knock"), tmp_path / "r.html", deals=300,
                               method="heuristic", on_left_out=left_out.append)
    assert path.exists() and len(left_out) == 1 and left_out[0].startswith(
        "the pimc comparison is left out") and "9 hours" in left_out[0]


def test_runaway_sizes_are_refused_with_an_estimate():
    chunks = []  # (games done, games asked) after each chunk run (the runner's progress hook)
    with observed(lambda done, total: chunks.append((done, total)), threading.Event()):
        line = assert_one_error(["odds", "JH", "JD", "AH", "KH", "QH", "9S", "--variant",
                                 "bid", "--deals", "99999999999999999999"])
        assert "too many" in line and chunks == []  # refused before dealing any
        line = assert_one_error(["simulate", "--variant", "knock", "--games",
                                 "99999999999999"])
    assert "would take about" in line and "--force" in line
    # timed within the first chunk (its first pieces) and refused then, not after playing on
    assert chunks[0][0] == 0 and chunks[0][1] >= 99999999999999 and len(chunks) > 1, chunks
    assert all(done <= DEFAULT_CHUNK for done, _ in chunks), chunks


# ---------------------------------------------------------------------------- 4-6, 8-10: evaluate

def test_evaluate_will_not_overwrite_its_input(tmp_path):
    f = _hands(tmp_path)
    before = f.read_bytes()
    assert "is the input file" in assert_one_error(["evaluate", str(f), "--variant", "knock",
                                                     "-o", str(f)])
    assert f.read_bytes() == before


def test_a_dealers_options_are_keyed_by_discard(tmp_path):
    from analyzer.questions.options import option_label

    f = _hands(tmp_path, ['9S TS AD KD 9H,N,N,QS,"E pass, S pass, W pass"'],
               header="hand,seat,dealer,upcard,auction")
    out = tmp_path / "o.csv"
    code, _, err = run_cli(["evaluate", str(f), "--variant", "knock", "--deals", "200",
                            "-o", str(out)])
    assert code == 0, err
    row = pd.read_csv(out, keep_default_na=False).iloc[0]
    options = json.loads(row["options"])
    assert sum("discard" in k for k in options) >= 12  # six discards, alone or not
    best = option_label(row["best_option"], row["best_trump"], row["best_detail"])
    assert options[best] == pytest.approx(row["ev"], abs=1e-3)
    assert max(options.values()) == pytest.approx(row["ev"], abs=1e-3)


def test_resume_refuses_an_edited_input(tmp_path):
    rows = [KNOCK_ROW, "9S TS QH KH AC,E,N,JH", "AS KS QS 9H TD,E,N,JS"]
    f = _hands(tmp_path, rows)
    out = tmp_path / "o.csv"
    assert run_cli(["evaluate", str(f), "--variant", "knock", "--deals", "50", "-o",
                    str(out)])[0] == 0
    journal = out.with_name(out.name + ".partial.csv")
    settings = out.with_name(out.name + ".partial.json")
    # an interrupted run: the first two rows priced, then the input edited
    priced = pd.read_csv(out, keep_default_na=False, dtype=str).head(2)
    priced.to_csv(journal, index=False)
    settings.write_text(json.dumps({"file": str(f.resolve()), "variant": "knock",
                                    "rules": json.loads(json.dumps(_knock_rules())),
                                    "deals": 50, "method": "dd", "seed": 0,
                                    "others": "analyzer", "worlds": 20}))
    out.unlink()
    _hands(tmp_path, [rows[0], "9S TS QH KH AD,E,N,JH", rows[2]])
    line = assert_one_error(["evaluate", str(f), "--variant", "knock", "--deals", "50",
                             "-o", str(out), "--resume"])
    assert "line 3" in line and "changed" in line


def _knock_rules():
    from analyzer.game.variants import make_rules

    return make_rules("knock").options


def test_excel_csv_with_bom_and_crlf(tmp_path):
    f = tmp_path / "excel.csv"
    f.write_bytes(b"\xef\xbb\xbfhand,seat,dealer,upcard\r\n" + KNOCK_ROW.encode() + b"\r\n")
    code, out, err = run_cli(["evaluate", str(f), "--variant", "knock", "--deals", "50"])
    assert code == 0, err
    assert "line 2:" in out


def test_a_run_that_stops_early_leaves_no_scratch(tmp_path):
    f = _hands(tmp_path, ["AH AH KD QD JD,E,N,9H", KNOCK_ROW])
    out = tmp_path / "o.csv"
    line = assert_one_error(["evaluate", str(f), "--variant", "knock", "--deals", "50", "-o",
                             str(out), "--strict"])
    assert "line 2" in line and "--resume" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.csv"]
    # so the next run fails (or succeeds) for its own reason, not "add --resume"
    assert run_cli(["evaluate", str(f), "--variant", "knock", "--deals", "50", "-o",
                    str(out)])[0] == 0


def test_nothing_processed_is_a_failure(tmp_path):
    f = _hands(tmp_path, ["AH AH KD QD JD,E,N,9H", "XX"])
    assert "could be evaluated" in assert_one_error(["evaluate", str(f), "--variant",
                                                     "knock"])
    empty = tmp_path / "club.jsonl"
    empty.write_text("")
    assert "no record" in assert_one_error(["review", str(empty), "--call-deals", "0"])


# ---------------------------------------------------------------------------- 7, 11: play, review

def test_play_json_lines_make_a_file_review_reads(tmp_path):
    club = tmp_path / "club.jsonl"
    lines = []
    for seed in range(3):
        code, out, err = run_cli(["play", "--variant", "knock", "--seed", str(seed), "--json"])
        assert code == 0, err
        assert out.count("\n") == 1  # one record, one line
        lines.append(out)
    club.write_text("".join(lines))
    code, out, err = run_cli(["review", str(club), "--call-deals", "0", "--json"])
    assert code == 0 and "warning" not in err, err
    assert json.loads(out)["records"] >= 2  # redealt hands are skipped with a warning only
    pretty = tmp_path / "pretty.jsonl"
    pretty.write_text("".join(json.dumps(json.loads(x), indent=2) + "\n" for x in lines))
    code, out2, err = run_cli(["review", str(pretty), "--call-deals", "0", "--json"])
    assert code == 0 and json.loads(out2)["records"] == json.loads(out)["records"], err


def test_play_defaults_to_the_best_strategy_and_the_readme_agrees():
    """``play`` without --strategy bids as with the analyzer strategy (a played hand, not a
    constant, is compared)."""
    plain = run_cli(["play", "--variant", "knock", "--seed", "2", "--json"])
    best, points = (run_cli(["play", "--variant", "knock", "--seed", "2", "--json",
                             "--strategy", name]) for name in ("analyzer", "points"))
    assert plain == best and plain[0] == 0
    assert points[0] == 0 and points != plain  # the hand tells the strategies apart
    readme = (ROOT / "README.md").read_text()
    assert "--policy" not in readme and "euchre play --variant V [--seed N] [--strategy" in readme


# ---------------------------------------------------------------------------- 12. smaller

def test_a_closed_pipe_is_not_an_error():
    done = subprocess.run(f"{sys.executable} -m analyzer review "
                          f"{RECORDS / 'knock_misplay.json'} --call-deals 0 | head -1",
                          shell=True, capture_output=True, text=True, cwd=ROOT,
                          executable="/bin/bash", env=dict(os.environ, SHELLOPTS="pipefail"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def test_smaller_cases(tmp_path):
    assert "end in .html or .md" in assert_one_error(
        ["report", "--variant", "knock", "--deals", "200", "-o", str(tmp_path / "r.pdf")])
    assert "is a folder" in assert_one_error(["evaluate", str(tmp_path), "--variant", "knock"])
    twice = tmp_path / "t.txt"
    twice.write_text("AH JH KD QD JD upcard=9H seat=E seat=W\n" + KNOCK_ROW.replace(",", " ")
                     .replace(" E N 9H", " seat=E dealer=N upcard=9H") + "\n")
    code, _, err = run_cli(["evaluate", str(twice), "--variant", "knock", "--deals", "50"])
    assert code == 0 and "'seat' is given twice" in err and "1 bad row skipped" in err
    assert "--ace-no-face" in assert_one_error(["rules", "knock", "--ace-no-face"])
    code, out, _ = run_cli(["review", str(RECORDS / "knock_misplay.json"), "--call-deals",
                            "0"])
    assert code == 0 and "<NA>" not in out


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
