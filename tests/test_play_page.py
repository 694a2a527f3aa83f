"""The page's "Play a hand" tab (issue 54) in a real headless Chromium, by clicking as a person
would: a whole hand of each variant (and the double deck) played by tapping the options, at a
desktop's width and at a phone's (390 px), every decision's grade shown, the end's review of
every decision; a link deals the same hand again. Every test fails on an error the page
shows or the browser logs."""

import random
from urllib.parse import urlencode

import pytest

from tests import test_serve_page
from tests.served import PHONE, console_errors, server, wait_for

desktop, phone = test_serve_page.desktop, test_serve_page.phone  # the browsers, as fixtures

pytestmark = pytest.mark.serve

HANDS = [("knock", "S", 11, {}), ("bid", "N", 12, {}), ("ghost", "E", 13, {}),
         ("cutthroat", "S", 14, {}), ("bid", "W", 15, {"double_deck": "true"})]


@pytest.fixture(scope="module")
def url():
    with server(log_name="play-page.log") as (address, proc, log):
        yield address


def _css(chrome, selector):
    return chrome.find_elements("css selector", selector)


def _text(chrome, element_id: str) -> str:
    return chrome.find_element("css selector", "#" + element_id).text


def _open(chrome, url: str, variant: str, seat: str, seed: int, rules: dict) -> None:
    chrome.get(url + "?" + urlencode({"tab": "play", "variant": variant, "seat": seat,
                                      "seed": seed, **rules}))
    wait_for(lambda: _css(chrome, "#play-choices button") or
             _css(chrome, "#play-end:not([hidden])"), 120, "the deal")


def _play_by_tapping(chrome, rnd: random.Random) -> int:
    """Tap a random option at every decision until the hand ends; the decisions made."""
    made = 0
    while not _css(chrome, "#play-end:not([hidden])"):
        buttons = wait_for(lambda: [b for b in _css(chrome, "#play-choices button")
                                    if b.is_enabled()] or
                           _css(chrome, "#play-end:not([hidden])"), 60, "a decision")
        if _css(chrome, "#play-end:not([hidden])"):
            break
        button = rnd.choice(buttons)
        action = button.get_attribute("data-action")
        button.click()
        made += 1
        grade = wait_for(lambda a=action: (t := _text(chrome, "play-grade")).startswith(a)
                         and "grading" not in t and t, 60, f"the grade of {action}")
        assert " — " in grade
        assert not _text(chrome, "play-error"), _text(chrome, "play-error")
    return made


@pytest.mark.parametrize("variant, seat, seed, rules", HANDS)
def test_a_whole_hand_by_tapping(url, desktop, variant, seat, seed, rules):
    _open(desktop, url, variant, seat, seed, rules)
    first_hand = _text(desktop, "play-hand")
    made = _play_by_tapping(desktop, random.Random(seed))
    rows = _css(desktop, "#play-review tbody tr")
    assert len(rows) == made and made > 0
    assert "points a hand given away" in _text(desktop, "play-summary")
    assert _text(desktop, "play-points") and "Hands as dealt" in _text(desktop, "play-hands")
    assert console_errors(desktop) == []
    _open(desktop, url, variant, seat, seed, rules)  # the link: the same deal
    assert _text(desktop, "play-hand") == first_hand
    assert console_errors(desktop) == []


def test_a_whole_hand_on_a_phone(url, phone):
    _open(phone, url, "knock", "W", 21, {})
    made = _play_by_tapping(phone, random.Random(21))
    assert len(_css(phone, "#play-review tbody tr")) == made
    width = phone.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0] + 1  # nothing wider than the phone
    assert console_errors(phone) == []


def test_deal_from_the_form(url, desktop):
    desktop.get(url)
    wait_for(lambda: _css(desktop, "#tab-play"), 60)
    desktop.find_element("css selector", "#tab-play").click()
    from selenium.webdriver.support.ui import Select
    Select(desktop.find_element("css selector", "#play-variant")).select_by_value("cutthroat")
    Select(desktop.find_element("css selector", "#play-seat")).select_by_value("E")
    desktop.find_element("css selector", "#play-deal").click()
    wait_for(lambda: _css(desktop, "#play-choices button") or
             _css(desktop, "#play-end:not([hidden])"), 120, "the deal")
    link = desktop.find_element("css selector", "#play-link").get_attribute("href")
    assert "variant=cutthroat" in link and "seat=E" in link and "seed=" in link
    assert console_errors(desktop) == []


def _open_game(chrome, url: str, seed: int) -> None:
    _open(chrome, url, "knock", "S", seed, {"game": "true"})


def _score_line(chrome) -> str:
    return _text(chrome, "play-score")


def test_a_game_by_tapping(url, desktop):
    """A game's first hand by tapping: the score line above the table, each cost in the
    review in win chance, after the hand the game's panel with the score, and the next hand
    dealt by the button, its line the second hand's."""
    _open_game(desktop, url, 31)
    assert _score_line(desktop).startswith("Game to 10, hand 1. Score: NS 0, EW 0; your "
                                           "chance of winning the game: ")
    made = _play_by_tapping(desktop, random.Random(31))
    assert len(_css(desktop, "#play-review tbody tr")) == made
    costs = [row.text for row in _css(desktop, "#play-review tbody td:nth-child(4)")]
    assert costs and all(c.endswith("%") for c in costs if c), costs  # in the chance of winning
    assert "points of win chance" in _text(desktop, "play-game-summary")
    rows = _css(desktop, "#play-game-hands tbody tr")
    assert len(rows) == 1
    score = rows[0].find_elements("css selector", "td")[-1].text  # after the hand
    assert _text(desktop, "play-game-result") == f"After hand 1: {score}."
    assert f"Score: {score}" in _score_line(desktop)
    desktop.find_element("css selector", "#play-again").click()
    wait_for(lambda: "hand 2." in _score_line(desktop), 60, "the next hand")
    wait_for(lambda: _css(desktop, "#play-choices button"), 60, "the next hand's decision")
    assert _css(desktop, "#play-end[hidden]") and f"Score: {score}" in _score_line(desktop)
    assert console_errors(desktop) == []


def test_a_game_on_a_phone(url, phone):
    _open_game(phone, url, 32)
    made = _play_by_tapping(phone, random.Random(32))
    assert len(_css(phone, "#play-review tbody tr")) == made
    assert _css(phone, "#play-game-end:not([hidden])")
    width = phone.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0] + 1
    assert console_errors(phone) == []
