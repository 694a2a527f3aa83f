"""Positions that happened: hands dealt and played by the engine with random legal calls and
cards, and every decision of one seat of each as the view a bot would send ``advise`` (its
calls, its discard as the dealer, its cards). Each view is a position some deal reaches, so
advise must answer every one (issue 51)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.compute.engine import play_hands
from analyzer.game.heard import Heard, heard_text
from analyzer.game.notation import SEATS, SUITS, format_card, format_hand
from analyzer.game.record_points import card_points, heard_of
from analyzer.game.records import Record
from analyzer.game.variants import LADDER, Rules
from analyzer.strategy.seats import seat_policies
from kernels.cards import codes as K
from kernels.slots import M, R


def random_views(rules: Rules, hands: int, seed: int) -> Iterator[dict]:
    """The views of ``hands`` hands of ``seed`` (random calls and cards by every seat), each
    hand's seat ``i % 4`` (of the players) asking at each of its decisions, in order."""
    policies, params = seat_policies("random", "random", rules=rules)
    hm, rec = play_hands(rules, hands, policies, params, seed)
    for i in range(hands):
        record = Record(rules, hm[i], rec[i])
        yield from hand_views(record, i % rules.players)


def hand_views(record: Record, seat: int) -> Iterator[dict]:
    """Every decision of ``seat`` in ``record`` (a played hand) as a view: its calls, its
    discard as the dealer who took the upcard, its cards (one legal card or more)."""
    rules, rec, hm = record.rules, record.rec, record.hm
    base = {"variant": rules.variant, "rules": rules.options, "seat": SEATS[seat],
            "dealer": SEATS[int(rec[R.DEALER])]}
    if rules.has_upcard:
        base["upcard"] = format_card(int(rec[R.UPCARD]))
    heard = heard_of(record)
    dealt = int(hm[M.DEALT + seat])
    for j in range(len(heard)):
        if heard.seats[j] == seat:
            swapped = any(heard.seats[k] == seat and heard.calls[k] == K.SWAP for k in range(j))
            view = {**base, "hand": format_hand(int(hm[M.DEALT + 3]) if swapped else dealt),
                    "auction": _prefix(heard, j, rules)}
            yield {**view, "swapped": format_hand(dealt)} if swapped else view
    if rec[R.STATUS] != K.ST_PLAYED:
        return
    if seat == int(rec[R.DEALER]) and rec[R.DEALER_DISCARD] >= 0 and hm[M.PLAY + seat]:
        six = int(hm[M.PLAY + seat]) | 1 << int(rec[R.DEALER_DISCARD])
        yield {**base, "hand": format_hand(six), "auction": heard_text(heard, rules)}
    active = sum(1 for s in range(4) if hm[M.PLAY + s])
    for point in card_points(record):
        if point.seat != seat:
            continue
        view = {**base, "hand": format_hand(point.hand), "auction": heard_text(heard, rules)}
        if point.played:
            plays = [f"{SEATS[s]} {format_card(c)}" for s, c in point.played]
            view["played"] = "; ".join(", ".join(plays[k:k + active])
                                       for k in range(0, len(plays), active))
        if point.discarded:
            view["discarded"] = format_hand(point.discarded)
        if point.received:
            view["received"] = format_hand(point.received)
        if point.swapped:
            view["swapped"] = format_hand(point.swapped)
        if rules.auction == LADDER:
            view["trump"] = SUITS[int(rec[R.TRUMP])]
        yield view


def _prefix(heard: Heard, j: int, rules: Rules) -> str:
    """The first ``j`` calls of ``heard`` as the auction writes them."""
    alone = heard.alone & sum(1 << s for s, c in zip(heard.seats[:j], heard.calls[:j],
                                                      strict=True) if c != K.PASS)
    return heard_text(Heard(heard.seats[:j], heard.calls[:j], alone), rules)

