"""The load benchmark of ``euchre serve`` (``euchre bench serve``): a server started as a
person starts it, asked by many clients at once over loopback, each request timed; the
answers counted by status (200, or 409 with Retry-After when the queue's wait ran out), the
server's peak memory read from /proc."""

from __future__ import annotations

import http.client
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

QUESTION = {"hand": "JS AS KS 9H TD", "variant": "knock", "upcard": "QS", "seat": "E",
            "dealer": "N"}  # the README's knock question, 10,000 deals


def _peak_mb(pid: int) -> float | None:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    found = re.search(r"VmHWM:\s+(\d+) kB", text)
    return int(found[1]) / 1024 if found else None


def bench_serve(clients: int = 10, requests: int = 50, progress=None) -> dict:
    """Start ``euchre serve``, send ``requests`` odds questions from ``clients`` threads at
    once (each its own seed), and return the figures: answered and refused counts, the
    median and slowest request, the wall time, questions a second, the server's peak memory
    and how long it took to stop on SIGTERM."""
    progress = progress or (lambda what: None)
    log = Path(tempfile.mkstemp(suffix=".log")[1])
    with open(log, "w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0"],
                                stderr=err)
    try:
        progress("the server's start")
        deadline = time.monotonic() + 600
        while not (found := re.search(r"http://\S+", log.read_text())):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {log.read_text()[-300:]}")
            time.sleep(0.1)
        where = urlsplit(found.group(0))
        times, codes, lock = [], [], threading.Lock()
        per_client = [requests // clients + (k < requests % clients) for k in range(clients)]

        def client(k: int) -> None:
            for i in range(per_client[k]):
                conn = http.client.HTTPConnection(where.hostname, where.port, timeout=600)
                started = time.perf_counter()
                conn.request("GET", "/api/odds?" + urlencode({**QUESTION,
                                                             "seed": str(1000 * k + i)}))
                response = conn.getresponse()
                response.read()
                with lock:
                    times.append(time.perf_counter() - started)
                    codes.append((response.status, response.getheader("Retry-After")))
                conn.close()

        progress(f"{requests} questions from {clients} clients")
        began = time.perf_counter()
        threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - began
        peak = _peak_mb(proc.pid)
        proc.terminate()
        stopping = time.perf_counter()
        proc.wait(timeout=60)
        stopped = time.perf_counter() - stopping
    finally:
        if proc.poll() is None:
            proc.kill()
        log.unlink(missing_ok=True)
    answered = [t for t, (code, _) in zip(times, codes, strict=True) if code == 200]
    return {"clients": clients, "requests": requests,
            "answered": len(answered),
            "refused_with_retry_after": sum(c == 409 and r is not None for c, r in codes),
            "other": sum(c not in (200, 409) for c, _ in codes),
            "median_s": statistics.median(times), "slowest_s": max(times),
            "wall_s": wall, "per_s": len(answered) / wall,
            "peak_memory_mb": peak, "stop_s": stopped}
