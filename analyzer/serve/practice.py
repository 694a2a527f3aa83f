"""Practice positions: a decision the page deals for a player to make, then prices.

Position ``n`` of a practice ``seed`` is found by dealing and bidding hands with the
analyzer's own engine and strategy (``questions.play.play_hands``: the positions real games
produce), taking each of the player's calls in them as a candidate (the hand as dealt, the
dealer, the upcard, the calls heard before it), and keeping the candidate whose call is the
closest to call on a quick look (a few hundred deals of each): practice should be spent on
decisions that need thought, not on passing a hand of nines. Everything is a function of
the rules, the seat, the seed and ``n``: the same link deals the same positions, and nothing
is stored on the server."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..errors import UserError
from ..game.notation import SEATS, NotationError, parse_seat
from ..game.records import Record, to_json
from ..questions.odds import odds
from ..questions.play import play_hands
from .requests import _int, _one, rules_of

HANDS = 12  # hands dealt for each position: its candidates
LOOKS = 4  # candidates given a quick look
LOOK_DEALS = 300  # deals of a quick look
MAX_PRACTICE = 10**6  # positions of one seed


def candidates(rules, seat: int, seed: int, n: int) -> list[dict]:
    """The player's calls in the hands dealt for position ``n``: each as the question it was
    (hand, dealer, upcard, the calls heard before it), in the order dealt."""
    masks, recs = play_hands(rules, HANDS, seed=seed, first=n * HANDS)  # dealers in turn
    me = SEATS[seat]
    out = []
    for i in range(HANDS):
        data = to_json(Record(rules, masks[i], recs[i]))
        heard = []
        for item in data["auction"]:
            who, _, call = item.partition(" ")
            if who == me:
                if call == "swap":  # the hand changes: later calls are not from this hand
                    break
                out.append({"hand": data["hands"][me], "dealer": data["dealer"],
                            "upcard": data.get("upcard"), "auction": ", ".join(heard)})
            heard.append(item)
    return out


def closest(rules, seat: str, looks: list[dict], seed: int) -> dict:
    """The candidate whose best call beats the runner-up by the fewest net points on a quick
    look (the first on a tie), or the first when a look would take long (the double deck)."""
    if len(looks) == 1 or rules.hand_size > 6:
        return looks[0]
    margins = []
    for c in looks:
        r = odds(c["hand"], rules.variant, rules=rules, seat=seat, dealer=c["dealer"],
                 upcard=c["upcard"], auction=c["auction"] or None, deals=LOOK_DEALS,
                 seed=seed, play_check=False)
        margins.append(abs(r.best["margin"]) if r.best.get("margin") is not None else 1e9)
    return looks[int(np.argmin(margins))]


def practice_position(params: Mapping) -> dict:
    """The position a practice request names (parameters: the variant and house rules,
    ``seat``, ``seed``, ``n``): the rules, seat, dealer, hand, upcard and the calls heard.
    UserError when bad."""
    rules = rules_of(params)
    try:
        seat = parse_seat(_one(params, "seat") or "S")
    except NotationError as e:
        raise UserError(str(e)) from None
    if seat >= rules.players:
        raise UserError(f"{SEATS[seat]} does not play in {rules.variant}")
    seed = _int("seed", _one(params, "seed") or "0")
    n = _int("n", _one(params, "n") or "0", MAX_PRACTICE)
    for tries in range(8):  # a seat that never speaks in a dozen hands is rare; deal more
        found = candidates(rules, seat, seed, n * 8 + tries)
        if found:
            break
    else:
        raise UserError("no position found for this seat: try another seed")
    pick = closest(rules, SEATS[seat], found[:LOOKS], seed)
    return {"variant": rules.variant, "rules": rules.options, "seat": SEATS[seat],
            "seed": seed, "n": n, **pick}
