"""A real ``euchre serve`` for the tests that need one (raw HTTP, signals, the browser): the
command started as a person starts it, its address read from what it prints, stopped with
SIGTERM at the end; and a headless Chromium (Debian's chromium and chromium-driver, which
.ci/run installs) at a desktop's or a phone's size, whose log the tests read."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

SHOTS = Path(__file__).parent / "output"
ROOT = Path(__file__).resolve().parent.parent
PHONE = (390, 844)


def wait_for(condition, seconds: float = 120, what: str = "the page"):
    """``condition()``'s first true value, polled; the test fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = condition()
        except Exception:  # noqa: BLE001 - a page redrawn under us: ask again
            value = None
        if value:
            return value
        time.sleep(0.15)
    raise AssertionError(f"{what} did not get there in {seconds} s")


@contextlib.contextmanager
def server(*args: str, log_name: str = "serve.log"):
    """``euchre serve --port 0 *args`` running: yields ``(url, process, log path)``; the
    warm-up may compile kernels on a cold cache, so the address may take minutes."""
    SHOTS.mkdir(exist_ok=True)
    log = SHOTS / f"{os.getpid()}-{log_name}"
    with open(log, "w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0",
                                 *args], stderr=err, cwd=ROOT)
    try:
        found = wait_for(lambda: re.search(r"http://\S+", log.read_text()) or proc.poll(),
                         600, "the server")
        if not isinstance(found, re.Match):
            raise AssertionError(f"the server ended: {log.read_text()[-800:]}")
        yield found.group(0), proc, log
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


def browser(width: int = 1280, height: int = 1800):
    """A headless Chromium whose page is ``width`` × ``height`` CSS pixels (a phone's size
    through device emulation: a window cannot be made that narrow), its console log kept;
    skips the test without Chromium."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    if chromium is None or driver is None:
        pytest.skip("no chromium and chromium-driver here: .ci/run installs Debian's packages")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"):
        options.add_argument(flag)
    if width < 600:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {
            "width": width, "height": height, "pixelRatio": 1.0}})
        options.add_argument("--window-size=600,1000")
    else:
        options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chrome = webdriver.Chrome(service=Service(driver), options=options)
    chrome.implicitly_wait(0)
    return chrome


# Chromium logs every 4xx answer to a fetch: the API's refusal of a bad question, which the
# page shows (a test that asks one expects it; any other error still fails)
REFUSED = re.compile(r"/api/\S* - Failed to load resource: the server responded with a "
                     r"status of 4\d\d ")


def console_errors(chrome, refused: bool = False) -> list[str]:
    """The browser log's errors since the last call (a script's exception, a failed load);
    with ``refused``, not the API's 4xx refusals of a bad question."""
    return [e["message"] for e in chrome.get_log("browser") if e["level"] == "SEVERE"
            and not (refused and REFUSED.search(e["message"]))]


def full_screenshot(chrome, path: Path) -> None:
    """A screenshot of the whole page, not only the window."""
    import base64

    metrics = chrome.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = metrics["cssContentSize"]
    shot = chrome.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(base64.b64decode(shot["data"]))
