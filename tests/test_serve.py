"""``euchre serve``: the API against the CLI, hostile requests, progress and cancel, and the page
driven in a real headless Chromium (Debian's chromium and chromium-driver, which .ci/run
installs; the browser test skips without them)."""

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient

from analyzer.cli import run
from analyzer.serve.app import create_app
from analyzer.serve.questions import table_state

KNOCK = {"hand": "JS AS KS 9H TD", "variant": "knock", "upcard": "QS", "seat": "E",
         "dealer": "N", "deals": "3000", "seed": "5", "others": "points"}
SHOTS = Path(__file__).parent / "output"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(max_deals=300_000)) as c:
        yield c


def _cli_json(capsys, argv) -> dict:
    capsys.readouterr()
    assert run(argv) == 0
    return json.loads(capsys.readouterr().out)


def _without_time(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "seconds"}


def test_api_odds_equals_the_cli_for_the_same_question_and_seed(client, capsys):
    got = client.get("/api/odds", params={**KNOCK, "auction": "", "stick_the_dealer": "false"})
    assert got.status_code == 200, got.text
    cli = _cli_json(capsys, ["odds", "JS", "AS", "KS", "9H", "TD", "--variant", "knock",
                             "--upcard", "QS", "--seat", "E", "--dealer", "N", "--deals",
                             "3000", "--seed", "5", "--others", "points",
                             "--no-stick-the-dealer", "--json"])
    assert _without_time(got.json()) == _without_time(cli)
    assert got.json()["best"]["label"] in [o["label"] for o in got.json()["options"]]


def test_the_discards_parameter_plays_every_detail_as_the_clis_flag():
    from analyzer.serve.questions import odds_arguments

    base = {"variant": "bid", "hand": "JH AH KH QD 9S TC"}
    assert odds_arguments({**base, "discards": "true"}, 10**6, 100)["all_details"] is True
    assert "all_details" not in odds_arguments(base, 10**6, 100)


def test_the_calls_offered_are_the_engines_legal_calls(client):
    t = client.get("/api/table", params={"variant": "knock", "seat": "N", "dealer": "N",
                                         "upcard": "QS", "auction": "E pass, S pass"}).json()
    assert (t["turn"], t["your_turn"]) == ("W", False)
    assert t["calls"] == ["pass", "order", "order alone"]
    # round 2: the turned-down suit cannot be named (unless the house rule allows it)
    r2 = {"variant": "knock", "seat": "E", "dealer": "N", "upcard": "QS",
          "auction": "E pass, S pass, W pass, N pass"}
    assert "name S" not in table_state(r2)["calls"]
    assert "name S" in table_state({**r2, "name_turned_down": "true"})["calls"]
    bid = table_state({"variant": "bid", "seat": "S", "dealer": "W", "auction": "N 4"})
    assert bid["turn"] == "E" and "3" not in bid["calls"] and "5" in bid["calls"]
    assert len(table_state({"variant": "bid", "double_deck": "true"})["deck"]) == 48
    bad = client.get("/api/table", params={"variant": "knock", "seat": "N", "dealer": "N",
                                           "upcard": "QS", "auction": "E order, S pass"})
    assert bad.status_code == 422 and "error" in bad.json()


@pytest.mark.parametrize("params, words", [
    ({**KNOCK, "hand": "JS AS"}, "the hand has 2 cards"),
    ({**KNOCK, "hand": "JS AS KS 9H XX"}, "XX"),
    ({**KNOCK, "deals": "10000000"}, "deals must be between"),
    ({**KNOCK, "deals": "many"}, "whole number"),
    ({**KNOCK, "worlds": "5000"}, "worlds must be between"),
    ({**KNOCK, "precision": "0.01"}, "not offered"),
    ({**KNOCK, "bogus": "1"}, "unknown parameter"),
    ({**KNOCK, "variant": "rook"}, "rook"),
    ({**KNOCK, "joker": "maybe"}, "true or false"),
    ({**KNOCK, "auction": "E fly"}, "auction"),
    ({k: v for k, v in KNOCK.items() if k != "hand"}, "hand is required"),
])
def test_hostile_odds_requests_get_422_and_one_line(client, params, words):
    got = client.get("/api/odds", params=params)
    assert got.status_code == 422
    error = got.json()["error"]
    assert words.lower() in error.lower() and "\n" not in error and "Traceback" not in error


@pytest.mark.parametrize("body, words", [
    (b"not json", "not JSON"),
    (b"[1, 2]", "JSON object"),
    (b'{"record": 5}', "JSON object"),
    (b'{"record": {"variant": "knock"}}', ""),
    (b'{"record": "{}", "seed": -1}', ""),
    (b'{"record": {}, "hack": 1}', "unknown field"),
])
def test_hostile_review_bodies_get_422(client, body, words):
    got = client.post("/api/review", content=body)
    assert got.status_code == 422, got.text
    assert words in got.json()["error"]


def test_a_huge_body_is_refused_before_it_is_read(client):
    got = client.post("/api/review", content=b"x" * (2 << 20))
    assert got.status_code == 413 and "over" in got.json()["error"]


def test_review_endpoint_equals_the_cli(client, capsys, tmp_path):
    record = subprocess.run([sys.executable, "-m", "analyzer", "play", "--variant", "knock",
                             "--seed", "3", "--json"], capture_output=True, text=True,
                            check=True).stdout.splitlines()[0]
    path = tmp_path / "hand.json"
    path.write_text(record)
    got = client.post("/api/review", json={"record": record, "call_deals": 200,
                                           "others": "points"})
    assert got.status_code == 200, got.text
    cli = _cli_json(capsys, ["review", str(path), "--call-deals", "200", "--others", "points",
                             "--json"])
    assert got.json() == cli and got.json()["decisions"]


def test_a_long_question_reports_progress_cancels_and_keeps_the_estimate(client):
    params = {**KNOCK, "variant": "bid", "hand": "JH JD AH KH QH 9S", "deals": "300000",
              "upcard": "", "seat": "N", "dealer": "W"}
    started = client.post("/api/jobs/odds?" + urlencode(params))
    assert started.status_code == 202, started.text
    job = started.json()["id"]
    busy = client.get("/api/odds", params=KNOCK)
    assert busy.status_code == 409 and "another question is running" in busy.json()["error"]
    deadline = time.monotonic() + 120
    while client.get(f"/api/jobs/{job}").json()["done"] == 0:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    status = client.get(f"/api/jobs/{job}").json()
    assert status["total"] == 300_000 and status["seconds_left"] > 0
    client.delete(f"/api/jobs/{job}")
    while (status := client.get(f"/api/jobs/{job}").json())["state"] == "running":
        time.sleep(0.1)
    assert status["state"] == "cancelled"
    result = status["result"]
    assert result["interrupted"] and 0 < result["deals"] < 300_000
    assert any("interrupted" in n for n in result["notes"])
    assert client.get("/api/jobs/nope").status_code == 404


# ---------------------------------------------------------------- the page in a real browser

def _driver_paths():
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    return browser, driver


@pytest.fixture(scope="module")
def page():
    browser, driver = _driver_paths()
    if browser is None or driver is None:
        pytest.skip("no chromium and chromium-driver here: .ci/run installs Debian's packages")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    log = SHOTS / "serve.log"
    SHOTS.mkdir(exist_ok=True)
    with open(log, "w") as err:
        server = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0"],
                                  stderr=err)
    url = _wait(lambda: re.search(r"http://\S+/", log.read_text()), 60)
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1800",
                 "--disable-dev-shm-usage"):
        options.add_argument(flag)
    chrome = webdriver.Chrome(service=Service(driver), options=options)
    chrome.implicitly_wait(2)
    try:
        yield chrome, url.group(0)
    finally:
        chrome.quit()
        server.terminate()
        server.wait(timeout=30)


def _wait(condition, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("the page did not get there in time")


def _click(chrome, selector, then=None):
    """Click ``selector`` (the page redraws its buttons after each click, so a button found
    may be replaced before the click lands: find it again), then wait for ``then``."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def attempt():
        try:
            chrome.find_element(By.CSS_SELECTOR, selector).click()
            return True
        except StaleElementReferenceException:
            return False
    _wait(attempt, 30)
    if then is not None:
        _wait(lambda: chrome.find_elements(By.CSS_SELECTOR, then), 30)


def _click_card(chrome, text, kind="in-hand"):
    _click(chrome, f"button.card[data-card='{text}']:not(.{kind})",
           then=f"button.card.{kind}[data-card='{text}']")


def _knock_table(chrome, url, seat):
    """A fresh page with knock chosen, ``seat`` as you, N dealing, QS turned up."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    chrome.get(url)
    Select(chrome.find_element(By.ID, "variant")).select_by_value("knock")
    _wait(lambda: chrome.find_elements(By.CSS_SELECTOR, "button.card[data-card='QS']"))
    _click(chrome, f"#you-{seat}", then=f"#you-{seat}.on")
    _click(chrome, "#dealer-N", then="#dealer-N.on")
    chrome.find_element(By.CSS_SELECTOR, "input[name=pick][value=upcard]").click()
    _click_card(chrome, "QS", "is-upcard")


def test_a_player_clicks_a_knock_question_and_gets_the_clis_verdict(page, capsys):
    from selenium.webdriver.common.by import By

    chrome, url = page
    _knock_table(chrome, url, "E")
    chrome.find_element(By.CSS_SELECTOR, "input[name=pick][value=hand]").click()
    for card in ("JS", "AS", "KS", "9H", "TD"):
        _click_card(chrome, card)
    # the upcard is greyed out for the hand, and the hand is full: the rest are greyed too
    assert not chrome.find_element(By.CSS_SELECTOR, "button.card[data-card='QS']").is_enabled()
    assert not chrome.find_element(By.CSS_SELECTOR, "button.card[data-card='AH']").is_enabled()
    _wait(lambda: "Your turn" in chrome.find_element(By.ID, "turn-line").text)
    for field, value in (("deals", "3000"), ("seed", "5"), ("others", "points")):
        box = chrome.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    chrome.find_element(By.ID, "ask-button").click()
    verdict = _wait(lambda: chrome.find_element(By.ID, "verdict").text)
    cli = _cli_json(capsys, ["odds", "JS", "AS", "KS", "9H", "TD", "--variant", "knock",
                             "--upcard", "QS", "--seat", "E", "--dealer", "N", "--deals",
                             "3000", "--seed", "5", "--others", "points", "--json"])
    best = cli["best"]
    assert verdict.startswith(f"Best: {best['label']}: {best['ev']:+.2f} net points a hand")
    rows = chrome.find_elements(By.CSS_SELECTOR, "#options-table tr")
    assert len(rows) == 1 + len(cli["options"])
    assert chrome.find_elements(By.CSS_SELECTOR, "#chart svg rect")
    SHOTS.mkdir(exist_ok=True)
    chrome.save_screenshot(str(SHOTS / "serve-knock-answer.png"))
    # the share link asks the same question again
    chrome.get(chrome.find_element(By.ID, "share-link").get_attribute("href"))
    again = _wait(lambda: chrome.find_element(By.ID, "verdict").text)
    assert again.split(" against ")[0] == verdict.split(" against ")[0]


def test_the_page_offers_only_legal_calls_in_turn(page):
    from selenium.webdriver.common.by import By

    chrome, url = page
    _knock_table(chrome, url, "W")

    def offered():
        return [b.text for b in chrome.find_elements(By.CSS_SELECTOR, "#calls button.call")]

    expected = table_state({"variant": "knock", "seat": "W", "dealer": "N", "upcard": "QS"})
    assert _wait(offered) == expected["calls"] and expected["turn"] == "E"
    _click(chrome, "#calls button[data-call='pass']")
    _wait(lambda: "S to call" in chrome.find_element(By.ID, "turn-line").text)
    _click(chrome, "#calls button[data-call='pass']")
    _wait(lambda: "Your turn" in chrome.find_element(By.ID, "turn-line").text)
    assert offered() == []
    assert chrome.find_element(By.ID, "auction-text").text == "E pass, S pass"


def test_a_long_question_shows_progress_and_cancels_in_the_page(page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    chrome, url = page
    chrome.get(url + "?" + urlencode({"variant": "bid", "seat": "N", "dealer": "W",
                                      "hand": "JH JD AH KH QH 9S", "deals": "200000",
                                      "others": "points"}))
    Select(chrome.find_element(By.ID, "variant"))  # the form is built
    _wait(lambda: len(chrome.find_elements(By.CSS_SELECTOR, "button.card.in-hand")) == 6)
    chrome.find_element(By.ID, "ask-button").click()
    _wait(lambda: re.search(r"[1-9][\d,]* / 200,000 deals",
                            chrome.find_element(By.ID, "progress-text").text))
    chrome.find_element(By.ID, "cancel-button").click()
    notes = _wait(lambda: chrome.find_element(By.ID, "answer-notes").text)
    assert "cancelled" in notes


def test_the_page_reviews_a_recorded_hand(page):
    from selenium.webdriver.common.by import By

    chrome, url = page
    record = subprocess.run([sys.executable, "-m", "analyzer", "play", "--variant", "knock",
                             "--seed", "3", "--json"], capture_output=True, text=True,
                            check=True).stdout.splitlines()[0]
    chrome.get(url)
    chrome.find_element(By.ID, "tab-review").click()
    box = chrome.find_element(By.ID, "record-text")
    chrome.execute_script("arguments[0].value = arguments[1];", box, record)
    chrome.execute_script("document.getElementById('others').value = 'points';")
    chrome.find_element(By.ID, "review-button").click()
    rows = _wait(lambda: chrome.find_elements(By.CSS_SELECTOR, "#review-table tr"), 180)
    assert len(rows) > 5
    assert "makeable" in chrome.find_element(By.CSS_SELECTOR, "#review-answer p").text


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_the_server_warns_off_localhost_and_stops_cleanly_on_a_signal(tmp_path, sig):
    import signal

    log = tmp_path / "serve.log"
    with open(log, "w") as err:
        server = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--host",
                                   "0.0.0.0", "--port", "0"], stderr=err)
    _wait(lambda: "Ctrl-C stops it" in log.read_text(), 60)
    server.send_signal(getattr(signal, sig))
    assert server.wait(timeout=30) == 0
    text = log.read_text()
    assert "warning: listening on 0.0.0.0" in text and text.rstrip().endswith("stopped")
    assert "Traceback" not in text
