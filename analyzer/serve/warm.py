"""Getting the analyzer ready before the server takes a request: every kernel a page's
questions use is loaded (or, on a first run, compiled: minutes) now, while the command line
says so, instead of during the first click, which then waited a minute with no word."""

from __future__ import annotations

from ..questions.odds.answer import odds
from .requests import table_state

WARM_DEALS = 16


def warm_up() -> None:
    """Ask one small question of each kind the page asks: a table state, a knock question
    after a call (the analyzer's card play with its double-dummy check, and PIMC), a bid
    question."""
    table_state({"variant": "knock", "seat": "N", "dealer": "N", "upcard": "QS",
                 "auction": "E pass"})
    odds("JS AS KS 9H TD", "knock", upcard="QS", seat="S", dealer="N", auction="E pass",
         deals=WARM_DEALS, others="points")
    odds("JS AS KS 9H TD", "knock", upcard="QS", seat="E", dealer="N", deals=2,
         method="pimc", worlds=2, others="points", play_check=False)
    odds("JH JD AH KH QH 9S", "bid", seat="E", dealer="W", auction="N 3", deals=WARM_DEALS,
         others="points")
