"""The options at a decision point: exactly the legal choices there (the opened point's
state says which, ``compute.point``), each with the player's own follow-up choices spelled
out, as the rows the kernel plays out (``compute.point.option_row``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels.bidding.exchange_rules import exchange_pool
from kernels.cards import codes as K

from ...compute.point import PointState, option_row, option_rows
from ...errors import UserError
from ...game.decision_point import DecisionPoint
from ...game.notation import SUITS, format_card
from ...game.records import call_text
from ...game.variants import DUMMY, Rules


@dataclass(frozen=True)
class CallOption:
    """One option: what it is called, its call (-1 for a decision after the auction), the
    trump it is for (-1: none or not yet known), a detail in words, and the player's own
    choices with it (-1: the player's strategy decides): going alone (1) or not (0), the
    card discarded, the card given in an n-ask, defending alone (1) or not (0), and the
    trump it names on winning a ladder auction (``names``; -1 where the call fixes it)."""

    name: str
    call: int
    trump: int
    detail: str
    alone: int = -1
    discard: int = -1
    give: int = -1
    defend: int = -1
    names: int = -1
    card: int = -1  # the card played, at a play decision
    drop: int = 0  # the cards a cutthroat maker drops (a natural mask)

    @property
    def row(self) -> tuple:
        """The option as the kernels play it out (``compute.point.option_row``)."""
        return option_row(self.call, self.alone, self.discard, self.give, self.names,
                          self.defend, self.card, self.drop)

    @property
    def trump_text(self) -> str:
        """The trump's letter, or '' when the option has none."""
        return SUITS[self.trump] if self.trump >= 0 else ""


def option_label(name: str, trump: str, detail: str = "") -> str:
    """A call as people say it, distinct for every option of a point: its name, its trump,
    its detail (``order up S``, ``name alone C``, ``pick it up S (discard 9C)``, ``bid 4 H``).
    The one spelling of a call on every surface (:func:`call_label` for a call heard)."""
    key = f"{name} {trump}".strip()
    return f"{key} ({detail})" if detail else key


def call_name(rules: Rules, code: int, by_dealer: bool = False, alone: bool = False) -> str:
    """A call's name as the options and :func:`option_label` say it, without its trump:
    ``pass``, ``order up`` (``pick it up`` by the dealer), ``name``, ``bid 4``, ``6-ask``,
    ``moon``, ``swap for the ghost hand``; ``alone`` adds `` alone``."""
    if code == K.PASS:
        return "pass"
    if code == K.SWAP:
        return "swap for the ghost hand"
    if rules.bid_ladder:
        word = rules.bid_name(code)
    elif code == K.ORDER:
        word = "pick it up" if by_dealer else "order up"
    else:
        word = "name"  # the suit is the option's trump, as for order up
    return word + (" alone" if alone else "")


def call_label(rules: Rules, code: int, trump: int, by_dealer: bool = False,
               alone: bool = False) -> str:
    """A call heard (a call code; ``trump`` its suit index, -1 while unknown, as for a bid
    before trump is named) in the words of the answers (:func:`option_label`): ``order up
    S``, ``pick it up alone S``, ``name alone C``, ``bid 4``."""
    return option_label(call_name(rules, code, by_dealer, alone),
                        SUITS[trump] if trump >= 0 and code != K.PASS else "")


def ask_candidates(rules: Rules, hand: int, trump: int) -> list[int]:
    """The cards worth considering to give away in an n-ask: the lowest of each suit (trump
    counting the bowers). The bidder must take every trick, so keeping the higher of two
    cards of a suit is never worse than keeping the lower one."""
    to_norm, _ = rules.layout
    lowest = {}
    for c in range(64):
        if (hand >> c) & 1:
            b = int(to_norm[trump, c])
            if b >> 4 not in lowest or b < int(to_norm[trump, lowest[b >> 4]]):
                lowest[b >> 4] = c
    return sorted(lowest.values())


def _ladder_call(point: DecisionPoint, code: int, trumps: list) -> list[CallOption]:
    rules = point.rules
    name = call_name(rules, code)
    if code == K.PASS:
        return [CallOption(name, code, -1, "")]
    if code == K.SWAP:
        return [CallOption(name, code, -1, "then bid by the strategy")]
    if code != K.ASK:
        return [CallOption(name, code, t, "", names=t) for t in trumps]
    return [CallOption(name, code, t, f"give {format_card(g)}", give=g, names=t)
            for t in trumps for g in ask_candidates(rules, point.hand, t)]


def _upcard_call(point: DecisionPoint, code: int, trumps: list) -> list[CallOption]:
    rules = point.rules
    if code == K.PASS:
        return [CallOption(call_name(rules, code), code, -1, "")]
    up = point.upcard
    trump = int(K.call_trump(code, up))
    if trumps and trump not in trumps:
        return []
    with_partner = " with the dummy" if rules.seat_w == DUMMY else ""
    out = []
    for alone in (0, 1):
        name = call_name(rules, code, point.seat == point.dealer, bool(alone)) + \
            ("" if alone else with_partner)
        if code == K.ORDER and point.seat == point.dealer:
            pool, _ = exchange_pool(rules.arrays, np.uint64(point.hand), np.uint64(1 << up))
            for d in _bits(int(pool)):
                out.append(CallOption(name, code, trump, f"discard {format_card(d)}",
                                      alone=alone, discard=d))
        else:
            out.append(CallOption(name, code, trump, "", alone=alone))
    return out


def keep_options(point: DecisionPoint, state: PointState) -> list[CallOption]:
    """A cutthroat maker's keeps from its cards and the dummy's (``state.allowed``): of each
    suit (effective: the bowers are trump) the highest cards, in every split of a hand's worth
    among the suits — keeping a lower card of a suit for a higher one is never better, so
    these are every keep worth pricing."""
    rules = point.rules
    to_norm, _ = rules.layout
    trump = int(K.call_trump(next(c for c in reversed(point.heard.calls) if c != K.PASS),
                             point.upcard))
    suits: dict[int, list[int]] = {}
    for c in _bits(state.allowed):
        suits.setdefault(int(to_norm[trump, c]) >> 4, []).append(c)
    for cards in suits.values():
        cards.sort(key=lambda c: -int(to_norm[trump, c]))
    keys = sorted(suits, reverse=True)  # trump first
    out = []
    for counts in _splits([len(suits[k]) for k in keys], rules.hand_size):
        kept = [c for k, n in zip(keys, counts, strict=True) for c in suits[k][:n]]
        drop = state.allowed & ~sum(1 << c for c in kept)
        words = " ".join(format_card(c) for c in kept)
        out.append(CallOption(f"keep {words}", -1, -1, "", drop=drop))
    return out


def _splits(sizes: list[int], total: int) -> list[tuple]:
    """Every way to take ``total`` items from groups of ``sizes``, as counts per group."""
    if not sizes:
        return [()] if total == 0 else []
    return [(n, *rest) for n in range(min(sizes[0], total), -1, -1)
            for rest in _splits(sizes[1:], total - n)]


def _bits(mask: int) -> list[int]:
    return [c for c in range(64) if (mask >> c) & 1]


def point_options(point: DecisionPoint, state: PointState, trumps: list | None = None,
                  bids: set | None = None) -> list[CallOption]:
    """Every legal option at ``point`` (``state``: what is decided there), restricted to the
    ``trumps`` given (suit indices) and, in a ladder auction, to the ``bids`` given (call
    codes; passing is always kept). UserError when nothing is left."""
    trumps = list(trumps) if trumps else list(range(4))
    if state.kind == "card":
        options = [CallOption(f"play {format_card(c)}", -1, -1, "", card=c)
                   for c in state.codes()]
    elif state.kind == "keep":
        options = keep_options(point, state)
    elif state.kind == "discard":
        options = [CallOption("discard", -1, -1, format_card(c), discard=c)
                   for c in state.codes()]
    elif state.kind == "defend":
        options = [CallOption("defend with partner", -1, -1, "", defend=0),
                   CallOption("defend alone", -1, -1, "", defend=1)]
    else:
        make = _ladder_call if point.rules.bid_ladder else _upcard_call
        legal = state.codes()
        if bids and not set(bids) & set(legal):
            asked = "/".join(call_text(b, point.rules) for b in sorted(bids))
            names = ", ".join(dict.fromkeys(call_text(c, point.rules) for c in legal))
            raise UserError(f"--bid {asked} is not a legal call here; the legal calls are: "
                            f"{names}")
        codes = [c for c in legal if bids is None or c == K.PASS or c in bids]
        options = [o for c in codes for o in make(point, c, trumps)]
    if not options:
        raise UserError("no legal call at this point fits --trump and --bid")
    return options


def options_array(options: list[CallOption]) -> np.ndarray:
    """The kernel rows of ``options``, as one array."""
    return option_rows([o.row for o in options])
