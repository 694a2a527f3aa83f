"""The chunk runner: pieces, Ctrl-C and SIGTERM, lanes, switches, progress by work, and the
size limit (a run refused with its estimate, the seconds spent compiling left out)."""

import os
import re
import signal
import sys
import threading
import time

import numpy as np
import pytest

from analyzer.compute.runner import DEFAULT_CHUNK, Course, in_whole_chunks, observed, run_chunks
from tests.child import FIRST_CHUNK, Child
from tests.test_hostile import assert_one_error

pytestmark = [pytest.mark.odds, pytest.mark.cli]


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


def test_a_second_ctrl_c_stops_a_chunk_of_minutes_at_once(monkeypatch):
    """A chunk can run for minutes (a double-deck or PIMC table): the first Ctrl-C says the run
    stops once it is done, a second stops at once with the chunks finished before it (the
    signal used to wait for the kernel: minutes with no answer)."""
    import io

    import numpy as np

    from analyzer.compute import runner
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
        piece = min(runner.FIRST_PIECE, 10)  # the first piece of the chunk of minutes
        assert totals.interrupted and totals.done == piece and \
            totals.counts["deals"][0] == piece
        assert left_running()  # the launcher then ends the process without waiting for it
    finally:
        release.set()


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
    assert f"the first {min(runner.FIRST_PIECE, 10)} of 1,000 deals have taken" in err


def test_runaway_sizes_are_refused_with_an_estimate():
    chunks = []  # (games done, games asked) after each chunk run (the runner's progress hook)
    with observed(lambda done, total: chunks.append((done, total)), threading.Event()):
        line = assert_one_error(["odds", "JH", "JD", "AH", "KH", "QH", "9S", "--variant",
                                 "bid", "--deals", "9000000000000000000"])
        assert "too many" in line and chunks == []  # refused before dealing any
        line = assert_one_error(["simulate", "--variant", "knock", "--games",
                                 "99999999999999"])
    assert "would take about" in line and "--force" in line
    # timed within the first chunk (its first pieces) and refused then, not after playing on
    assert chunks[0][0] == 0 and chunks[0][1] >= 99999999999999 and len(chunks) > 1, chunks
    assert all(done <= DEFAULT_CHUNK for done, _ in chunks), chunks


def test_interrupt_keeps_the_chunks_done():
    calls = []

    def work(first, n):
        calls.append(first)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return {"x": np.array([n])}

    totals = run_chunks(10_000, in_whole_chunks(work), chunk=100, progress=False)
    assert totals.interrupted and totals.done == 200 and int(totals.counts["x"][0]) == 200


def test_chunks_run_as_timed_pieces_with_the_same_totals_and_stops(monkeypatch):
    """A chunk runs as pieces that start small and grow while they are quick (progress and
    Ctrl-C within a second, whatever a deal costs); the totals are those of whole chunks, a
    precision stop happens at the same chunk, and Ctrl-C keeps the pieces done."""
    from analyzer.compute import runner

    monkeypatch.setattr(runner, "PIECE_SECONDS", 0.05)
    sizes = []

    def work(first, n):
        sizes.append(n)
        indices = np.arange(first, first + n)
        return {"x": np.array([n, indices.sum()]), "sq": np.array([(indices * 0.25).sum()])}

    whole = run_chunks(5_000, in_whole_chunks(lambda first, n: work(first, n)), chunk=1024,
                       progress=False)
    sizes.clear()
    cut = run_chunks(5_000, work, chunk=1024, progress=False)
    assert sizes[0] == runner.FIRST_PIECE and max(sizes) == 1024 and len(sizes) > 5
    for key in whole.counts:
        assert np.array_equal(whole.counts[key], cut.counts[key])

    def enough(totals):
        return totals.done >= 1500
    for each in (in_whole_chunks(lambda first, n: work(first, n)), work):
        assert run_chunks(5_000, each, chunk=1024, progress=False,
                          course=Course(enough)).done == 2048

    slow_sizes = []

    def slow(first, n):
        slow_sizes.append(n)
        time.sleep(0.05 * 5 * n / runner.FIRST_PIECE)  # a first piece takes five pieces' time
        if len(slow_sizes) == 4:
            raise KeyboardInterrupt
        return {"x": np.array([n])}

    with runner.using_threads(1):  # one lane: each piece sized after the one before
        totals = run_chunks(1_000, slow, chunk=512, progress=False)
    f = runner.FIRST_PIECE
    assert slow_sizes[:3] == [f, f // 2, f // 4] and totals.interrupted
    assert totals.done == f + f // 2 + f // 4 == int(totals.counts["x"][0])


def overlap_counted(now: list):
    """A decorator for a work function: ``now[0]`` its calls running, ``now[1]`` the most
    that ran at once."""
    lock = threading.Lock()

    def wrap(work):
        def counted(first, n):
            with lock:
                now[0] += 1
                now[1] = max(now[1], now[0])
            try:
                return work(first, n)
            finally:
                with lock:
                    now[0] -= 1
        return counted
    return wrap


def test_pieces_run_in_lanes_and_are_added_in_order(monkeypatch):
    """On two threads the pieces run on two lanes at once (a slow deal holds up its own lane
    only), and are still handed on in order: the totals, the precision stop and the deals
    kept by a Ctrl-C are those of one lane."""
    from analyzer.compute import runner

    monkeypatch.setattr(runner, "PIECE_SECONDS", 0.05)
    monkeypatch.setattr(runner, "LANE_DEAL_SECONDS", 0.0)  # lanes after the first piece
    now = [0, 0]

    @overlap_counted(now)
    def work(first, n):
        time.sleep(0.3 if first <= 8 < first + n else 0.002 * n)  # a slow deal
        indices = np.arange(first, first + n)
        return {"x": np.array([n, indices.sum()]), "sq": np.array([(indices * 0.25).sum()])}

    seen = []
    with runner.using_threads(2), \
            observed(lambda done, total: seen.append(done), threading.Event()):
        lanes = run_chunks(3_000, work, chunk=1024, progress=False)
    with runner.using_threads(1):
        one = run_chunks(3_000, work, chunk=1024, progress=False)
    assert now[1] == 2 and lanes.done == one.done == 3_000
    for key in one.counts:
        assert np.array_equal(one.counts[key], lanes.counts[key])
    assert seen == sorted(seen) and seen[-1] == 3_000  # handed on in order

    def enough(totals):
        return totals.done >= 1500
    with runner.using_threads(2):
        assert run_chunks(5_000, work, chunk=1024, progress=False,
                          course=Course(enough)).done == 2048

    stopped_at = []

    def stopped(first, n):  # Ctrl-C in the slow piece: the pieces before it are kept
        if first <= 12 < first + n:
            stopped_at.append(first)
            time.sleep(0.2)
            raise KeyboardInterrupt
        return work(first, n)
    with runner.using_threads(2):
        totals = run_chunks(3_000, stopped, chunk=1024, progress=False)
    assert totals.interrupted and stopped_at[0] > 0
    assert totals.done == stopped_at[0] == int(totals.counts["x"][0])


def test_quick_deals_stay_on_all_threads_a_piece(monkeypatch):
    """Lanes only once a piece shows slow deals: quick ones run each piece on all threads
    (a lane's hand-offs would cost a short single-deck question a tenth of its time)."""
    from analyzer.compute import runner

    now = [0, 0]

    @overlap_counted(now)
    def work(first, n):
        time.sleep(0.0001 * n)
        return {"x": np.array([n])}

    with runner.using_threads(2):
        totals = run_chunks(5_000, work, chunk=1024, progress=False)
    assert totals.done == 5_000 and now[1] == 1  # one piece at a time: no lanes
    monkeypatch.setattr(runner, "LANE_DEAL_SECONDS", 0.00005)
    with runner.using_threads(2):
        totals = run_chunks(5_000, work, chunk=1024, progress=False)
    assert totals.done == 5_000 and now[1] == 2  # lanes


def test_a_run_whose_work_changes_part_way_is_one_run():
    """``then=Switch(at, change)``: the chunks starting below ``at`` run the first work, then
    ``change`` (told their totals, which it may reshape) gives the work of the rest; progress
    counts one run of the whole total, and a run stopped before the switch never switches."""
    import threading

    from analyzer.compute.runner import Switch, observed

    seen, told = [], []

    def first_work(first, n):
        return {"x": np.array([n, n, n]), "n": np.array([n])}

    def second_work(first, n):
        assert first >= 250 and (first - 250) % 100 == 0  # chunks start again at the switch
        return {"x": np.array([2 * n]), "n": np.array([n])}

    def change(totals):
        told.append(totals.done)
        totals.counts["x"] = totals.counts["x"][[1]]
        return second_work

    with observed(lambda done, total: seen.append((done, total)), threading.Event()):
        totals = run_chunks(1_000, in_whole_chunks(first_work), chunk=100, progress=False,
                            course=Course(then=Switch(250, change)))
    assert told == [250] and totals.done == 1_000 and not totals.interrupted
    assert totals.counts["x"].tolist() == [250 + 2 * 750] and int(totals.counts["n"][0]) == 1000
    assert seen[-1] == (1_000, 1_000) and {t for _, t in seen} == {1_000}

    def stopping(first, n):
        if first == 100:
            raise KeyboardInterrupt
        return first_work(first, n)

    totals = run_chunks(1_000, in_whole_chunks(stopping), chunk=100, progress=False,
                        course=Course(then=Switch(250, change)))
    assert totals.interrupted and totals.done == 100 and told == [250]


def test_progress_counts_the_work_not_the_deals():
    """Issue 44: a run whose deals get cheaper part-way (racing drops options) reports its
    progress as the share of the work: after the switch the deals left cost less, so the
    progress runs ahead of the deals done, and it ends at the total."""
    import threading

    import numpy as np

    from analyzer.compute.runner import Switch, in_whole_chunks, observed, run_chunks

    cost = [10.0]
    seen = []

    def work():  # whole chunks of 50: a progress report each
        return in_whole_chunks(lambda first, n: {"x": np.array([n])})

    def change(totals):
        cost[0] = 1.0
        return work()

    with observed(lambda done, total: seen.append(done), threading.Event()):
        run_chunks(1_000, work(), chunk=50, progress=False,
                   course=Course(then=[Switch(100, change)], cost=lambda: cost[0]))
    assert seen[0] == 0 and seen[-1] == 1_000 and seen == sorted(seen)
    assert seen[2] == 100  # 100 deals of cost 10 of 1,000 (900 more at 10): a tenth
    assert seen[3] > 500  # 150 deals, the rest now cost 1 each: over half the work is done


def test_a_size_estimate_leaves_out_the_seconds_spent_compiling(monkeypatch):
    """A first run after the kernels changed compiles inside its first piece; its size is
    judged on the seconds that were not compiling (the command line counts them), else the
    double-deck bid question's first 4 deals were once 'about 20 hours' and refused."""
    from analyzer.compute import runner
    from analyzer.errors import TooLong

    def work(first, n):
        if first == 0:
            time.sleep(0.3)  # the first piece compiles; the rest are quick
        return {"x": np.array([n])}

    monkeypatch.setattr(runner, "ESTIMATE_AFTER", 0.2)
    for compiling in (lambda a, b: min(b - a, 0.3), None):
        monkeypatch.setattr(runner, "compile_seconds", compiling)
        with runner.size_limit(60.0):
            if compiling is None:  # 0.3 s for 4 deals: 10,000 would take 750 s
                with pytest.raises(TooLong, match="would take about"):
                    run_chunks(10_000, work, chunk=4, progress=False)
            else:
                assert run_chunks(10_000, work, chunk=4, progress=False).done == 10_000


def test_a_first_piece_that_compiles_is_not_refused_and_one_that_is_slow_is(monkeypatch):
    """A fresh machine's first run compiles the kernels inside its first piece (30 s and more
    on two cores): ``make demo``'s 20,000-deal bid question was refused as "more than 41.9
    hours" after its first 4 deals had compiled for 30 s. With numba's compile events
    watched (as the command line watches them), a first piece that is compiling is not the
    question's pace; a first piece that is genuinely slow is still refused within seconds."""
    from numba import njit
    from numba.core import event
    from numba.extending import overload

    from analyzer.compute import runner
    from analyzer.errors import TooLong
    from kernels.compile_events import watch_compiles

    def slow_to_type(x):
        pass

    @overload(slow_to_type)
    def _typed_slowly(x):  # runs while numba compiles its caller: a compile of 1.2 s
        time.sleep(1.2)
        return lambda x: x + 1

    @njit(cache=False)
    def compiled_on_first_call(x):
        return slow_to_type(x)

    release = threading.Event()

    def compiling(first, n):
        if first == 0:
            compiled_on_first_call(1)
        return {"x": np.array([n])}

    def slow(first, n):
        if first == 0:
            release.wait(30)  # a first piece that takes ever so long, not compiling
        return {"x": np.array([n])}

    monkeypatch.setattr(runner, "SLOW_START", 0.1)  # refused after 0.3 s of its own pace
    watch = watch_compiles(lambda: None)
    monkeypatch.setattr(runner, "compile_seconds", watch.seconds_within)
    try:
        with runner.size_limit(60.0):
            assert run_chunks(4_000, compiling, chunk=4, progress=False).done == 4_000
            assert watch.seconds >= 1.2  # it did compile inside the first piece
            began = time.perf_counter()
            with pytest.raises(TooLong, match="would take more than"):
                run_chunks(4_000, slow, chunk=4, progress=False)
            assert time.perf_counter() - began < 5
    finally:
        release.set()
        event.unregister("numba:compile", watch)


def test_progress_counts_the_work_likely_left_not_every_deal_left():
    """Issue 55: a run that will likely stop early (racing, stopping once clear) said "about
    14 min left" for 23 s: the share of the work done counted every deal of its most.
    ``Course.left`` says what is likely left, and the share follows it: here half the work
    after the first chunk, as ``left`` says, where every deal left would make it a tenth."""
    seen, asked = [], []

    def likely_left(totals, at):
        asked.append((totals.done, at))
        return 100.0 if at == 100 else 0.0  # one more chunk's worth, then done

    def work(first, n):
        return {"n": np.array([n])}

    with observed(lambda done, total: seen.append((done, total)), threading.Event()):
        run_chunks(1_000, in_whole_chunks(work), chunk=100, progress=False,
                   course=Course(left=likely_left))
    assert asked[0] == (100, 100)
    assert seen[1] == (500, 1_000)  # half, not 100 of 1,000


def test_the_time_left_is_the_work_left_at_the_recent_pace(monkeypatch):
    """Issue 55: the first pieces of a run are small and dear a deal, so the whole run's
    pace said 50-100 times the time left of the default bid question. On a fake clock: the
    first chunk takes 10 s, each later one 1 s; the estimate (none before a second of the
    run, nor on its first piece alone: its tables are first touched there) is the work left
    at the last ``RATE_WINDOW`` seconds' pace."""
    from analyzer.compute import runner

    clock = [0.0]
    monkeypatch.setattr(runner.time, "perf_counter", lambda: clock[0])
    left = []

    def work(first, n):
        clock[0] += 10.0 if first == 0 else 1.0
        return {"n": np.array([n])}

    with observed(lambda done, total: None, threading.Event(), left.append):
        run_chunks(1_000, in_whole_chunks(work), chunk=100, progress=False)
    assert left[0] is None  # the first chunk's pace is not the run's
    assert left[1] == 1.0 * 8  # 8 chunks left at 1 s each (not at 11/2 s)
    assert left[4] == 1.0 * 5
    assert left[-1] == 0.0
