"""Practice positions: a decision the page deals for a player to make, then prices.

Position ``n`` of a practice ``seed`` is found by dealing, bidding and playing hands with the
analyzer's own engine and strategy (``questions.simulate.play.play_hands``: the positions real games
produce), taking each of the player's decisions in them as a candidate — its calls (the hand
as dealt, the dealer, the upcard, the calls heard before it), its discard as the dealer who
took the upcard (the six cards, the whole auction) and its cards (the hand held then, the
tricks played before it) — and keeping the candidate that is the closest to call on a quick
look (a few hundred deals of each): practice should be spent on decisions that need
thought, not on passing a hand of nines or playing the only card that follows suit. Which
kind position ``n`` is comes from ``decisions``: ``calls`` (the default: every position a
call, as before the play joined), ``play`` (cards, and the dealer's discard where there is
an upcard) or ``all``. Everything is a function of the rules, the seat, the seed, ``n`` and
``decisions``: the same link deals the same positions, and nothing is stored on the
server."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import numpy as np

from ..errors import UserError
from ..game.notation import SEATS, NotationError, parse_seat
from ..game.records import Record, to_json
from ..game.variants import LADDER
from ..questions.odds.answer import Question, ask, question_of
from ..questions.odds.odds_request import request
from ..questions.simulate.play import play_hands
from .requests import _int, _one, rules_of

HANDS = 12  # hands dealt for each position: its candidates
LOOKS = 4  # candidates given a quick look
LOOK_DEALS = 300  # deals of a quick look
MAX_PRACTICE = 10**6  # positions of one seed
TRIES = 8  # batches of hands dealt for a position before giving up on its kind
# the kind of position n, in turn: by ``decisions``, with an upcard and without one
CYCLES = {"calls": (("call",), ("call",)),
          "play": (("card", "discard", "card"), ("card",)),
          "all": (("call", "card", "call", "discard"), ("call", "card"))}


def candidates(rules, seat: int, seed: int, n: int) -> list[dict]:
    """The player's calls in the hands dealt for position ``n``: each as the question it was
    (hand, dealer, upcard, the calls heard before it), in the order dealt."""
    return [c for c in _all_candidates(rules, seat, seed, n) if c["decision"] == "call"]


def _all_candidates(rules, seat: int, seed: int, n: int) -> list[dict]:
    """Every decision of the player in the hands dealt for position ``n`` (``decision``:
    call, discard or card), in the order dealt."""
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
                out.append({"decision": "call", "hand": data["hands"][me],
                            "dealer": data["dealer"], "upcard": data.get("upcard"),
                            "auction": ", ".join(heard)})
            heard.append(item)
        out.extend(_play_candidates(rules, data, me))
    return out


def _play_candidates(rules, data: dict, me: str) -> list[dict]:
    """The player's discard and cards in one played hand (a record's JSON), each as the
    question it was then; none where the hand's cards changed owner in a way the questions
    do not take (a ghost swap, a cutthroat dummy, an n-ask's exchange) or where a defender
    went alone."""
    if "tricks" not in data or any(k in data for k in ("ask", "dummy_discard")) or \
            any(item.endswith(" swap") for item in data["auction"]):
        return []
    maker = data["declarer"]
    alone = data.get("alone", [])
    if any(seat != maker for seat in alone):
        return []
    auction = list(data["auction"])
    if maker in alone:  # the record keeps going alone apart from the calls
        last = max(j for j, item in enumerate(auction) if item.startswith(maker + " "))
        auction[last] += " alone"
    dealer, up = data["dealer"], data.get("upcard")
    took = "discard" in data
    owner = {c: s for s, hand in data["hands"].items() if s in SEATS for c in hand.split()}
    if took:
        owner[up] = dealer
    base = {"dealer": dealer, "upcard": up, "auction": ", ".join(auction)}
    if rules.auction == LADDER:
        base["trump"] = data["trump"]
    dealt = data["hands"][me].split()
    out = []
    held = dealt + ([up] if took and me == dealer else [])
    discarded = ""
    if took and me == dealer:
        out.append({**base, "decision": "discard", "hand": " ".join(held)})
        discarded = data["discard"]
        held = [c for c in held if c != discarded]
    tricks = [t.split() for t in data["tricks"]]
    if any(c not in owner for t in tricks for c in t):
        return out
    for t, trick in enumerate(tricks):
        for k, card in enumerate(trick):
            if owner[card] != me:
                continue
            before = [", ".join(f"{owner[c]} {c}" for c in cards)
                      for cards in tricks[:t] + [trick[:k]] if cards]
            out.append({**base, "decision": "card", "hand": " ".join(held),
                        "played": "; ".join(before), "discarded": discarded})
            held = [c for c in held if c != card]
    return out


def question(rules, seat: str, c: dict, seed: int) -> Question | None:
    """Candidate ``c`` as the odds question a quick look asks (``LOOK_DEALS`` deals on
    ``seed``), read from its fields once and opened once; None when the engine does not open
    it as the decision it is, with a choice to make (a card question with one legal card is
    no question)."""
    call = c["decision"] == "call"
    fields = {"seat": seat, "dealer": c["dealer"], "upcard": c["upcard"],
              "auction": c["auction"] or None, "deals": LOOK_DEALS, "seed": seed,
              "play_check": False, "played": c.get("played") or None,
              "discarded": c.get("discarded") or None,
              "trump": None if call else c.get("trump")}
    try:
        q = question_of(request(rules, c["hand"], fields))
    except UserError:
        if call:
            raise
        return None
    if not call and (q.state.kind != c["decision"] or q.state.allowed.bit_count() < 2):
        return None
    return q


def _margin(result, decision: str) -> float:
    """How close a quick look found a decision: the best call's lead over the runner-up; in
    the play the smallest lead over a card or discard that is not the same on every deal
    (two touching cards are one choice)."""
    if decision == "call":
        margin = result.best.get("margin")
        return abs(margin) if margin is not None else 1e9
    gaps = [abs(float(v)) for v in result.options["vs_best"] if abs(float(v)) > 0]
    return min(gaps) if gaps else 1e9


def closest(rules, looks: list[tuple[dict, Question]]) -> dict:
    """The candidate whose best choice beats the next by the fewest net points on a quick
    look at its question (the first on a tie), or the first when a look would take long (the
    double deck). ``looks``: the candidates with their questions, each read and opened
    once."""
    if len(looks) == 1 or rules.hand_size > 6:
        return looks[0][0]
    margins = [_margin(ask(q), c["decision"]) for c, q in looks]
    return looks[int(np.argmin(margins))][0]


def _shuffled(seed: int, n: int, c: dict) -> bytes:
    """A sort key that orders candidates as if shuffled, the same for the same position (no
    card is drawn: the candidates are the engine's)."""
    text = f"{seed}:{n}:{c['dealer']}:{c['hand']}:{c.get('played', '')}"
    return hashlib.blake2b(text.encode(), digest_size=8).digest()


def practice_position(params: Mapping) -> dict:
    """The position a practice request names (parameters: the variant and house rules,
    ``seat``, ``seed``, ``n``, ``decisions``): the rules, seat, dealer, hand, upcard, the
    calls heard, what is decided (``decision``: call, discard or card) and in the play the
    cards played, the player's discard and a bid's trump. UserError when bad."""
    rules = rules_of(params)
    try:
        seat = parse_seat(_one(params, "seat") or "S")
    except NotationError as e:
        raise UserError(str(e)) from None
    if seat >= rules.players:
        raise UserError(f"{SEATS[seat]} does not play in {rules.variant}")
    seed = _int("seed", _one(params, "seed") or "0")
    n = _int("n", _one(params, "n") or "0", MAX_PRACTICE)
    decisions = (_one(params, "decisions") or "calls").lower()
    if decisions not in CYCLES:
        raise UserError(f"decisions must be one of {', '.join(CYCLES)}, not {decisions[:20]!r}")
    cycle = CYCLES[decisions][0 if rules.has_upcard else 1]
    wanted = cycle[n % len(cycle)]
    me = SEATS[seat]
    for tries in range(TRIES):  # a seat with no such decision in a dozen hands: deal more
        found = [c for c in _all_candidates(rules, seat, seed, n * TRIES + tries)
                 if c["decision"] == wanted]
        if wanted != "call":  # spread the looks over the hands, not a hand's first cards
            found = sorted(found, key=lambda c: _shuffled(seed, n, c))
        looks = []
        for c in found:
            q = question(rules, me, c, seed)
            if q is not None:
                looks.append((c, q))
            if len(looks) == LOOKS:
                break
        if looks:
            break
    else:
        raise UserError(f"no {wanted} decision found for this seat in {TRIES * HANDS} hands "
                        f"(the page cannot enter every kind of play yet): try another seed "
                        f"or practise the calls")
    pick = closest(rules, looks)
    return {"variant": rules.variant, "rules": rules.options, "seat": me, "seed": seed,
            "n": n, "decisions": decisions, "played": "", "discarded": "", "trump": None,
            **pick}
