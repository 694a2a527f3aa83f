"""The recorded-hand format (JSON) and its conversion to and from the engine's record arrays.

A record holds the rules, the dealer, the hands as dealt, the auction, the decisions after it,
and the tricks as cards in play order from each trick's leader. See the README ("Recorded
hands") for an example per variant. ``load_record`` checks everything that can be checked
without playing (cards, counts, labels, types); ``analyzer.compute.engine.replay`` then runs
the record through the engine, which checks every step; ``describe_error`` turns the engine's
error code into a sentence and ``check_replayed`` checks what the engine cannot.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from kernels.bidding.exchange_rules import made_on_upcard
from kernels.cards import codes as K
from kernels.cards import layout as L
from kernels.deal.record import reset_record
from kernels.slots import M, R

from ..errors import UserError
from ..numbers import json_loads
from .game_score import record_score, score_dict
from .notation import (
    SEATS,
    SUITS,
    CardReader,
    NotationError,
    format_card,
    format_hand,
    parse_seat,
    parse_suit,
)
from .variants import DUMMY, GHOST, LADDER, W_LABELS, Rules, RulesError, rules_from_dict

ORDER_WORDS = {"order", "order up", "order it", "help", "accept", "pick up", "pickup", "assist"}


class RecordError(UserError):
    """A record that is malformed or breaks a rule; the message is one line."""


AFTER_AUCTION = ("trump", "declarer", "ask", "discard", "alone", "dummy_discard", "tricks")


@dataclass
class Record:
    """A hand as the engine sees it: ``rules``, natural card masks ``hm`` and slots ``rec``;
    ``given`` names the fields a loaded record had; ``score`` the game's score before the
    hand, when the record gives it."""

    rules: Rules
    hm: np.ndarray
    rec: np.ndarray
    given: frozenset = frozenset()
    score: tuple = ()  # the game's score before the hand, per unit (``game.game_score``); () none


def empty_arrays() -> tuple[np.ndarray, np.ndarray]:
    """Fresh ``(hm, rec)`` with every card slot -1 and every counter 0
    (``kernels.deal.record.reset_record``)."""
    hm = np.zeros(M.LEN, dtype=np.uint64)
    rec = np.zeros(R.LEN, dtype=np.int64)
    reset_record(hm, rec)
    return hm, rec


# ---------------------------------------------------------------------------- calls


CALL_WORDS = {K.PASS: "pass", K.ASK: "ask", K.MOON: "moon", K.ORDER: "order", K.SWAP: "swap"}


def call_text(code: int, rules: Rules) -> str:
    """Text of a call code in a record (``pass``, ``4``, ``ask``, ``moon``, ``order``, ``name H``,
    ``swap``)."""
    if code in CALL_WORDS:
        return CALL_WORDS[code]
    named = int(K.call_trump(code, -1))  # a name: its suit (an order without upcard: none)
    if named >= 0:
        return f"name {SUITS[named]}"
    return str(code)


def parse_call(text: str, rules: Rules) -> int:
    """Call code of a call written in a record, for the variant; RecordError if the variant has
    no such call."""
    t = " ".join(str(text).strip().lower().split())
    if t == "pass":
        return K.PASS
    if rules.auction == LADDER:
        if t == "swap" and rules.seat_w == GHOST:
            return K.SWAP
        named = {"ask": K.ASK, "moon": K.MOON, "shoot the moon": K.MOON}
        code = named.get(t)
        if code is None and t.isascii() and t.isdigit() and len(t) < 4:
            code = int(t)
        if code is not None and code in rules.bid_ladder:
            return code
        ladder = ", ".join(call_text(c, rules) for c in rules.bid_ladder)
        raise RecordError(f"{text!r} is not a call in {rules.variant}: pass or a bid ({ladder})"
                          + (", or swap" if rules.seat_w == GHOST else ""))
    if t in ORDER_WORDS:
        return K.ORDER
    suit = t[5:] if t.startswith("name ") else t
    try:
        return K.NAME + parse_suit(suit)
    except NotationError:
        raise RecordError(f"{text!r} is not a call in {rules.variant}: pass, order, or name a "
                          f"suit (e.g. 'name H')") from None


def _parse_auction(items, rules: Rules, rec: np.ndarray) -> None:
    if not isinstance(items, list):
        raise RecordError("'auction' must be a list of calls like \"E pass\" or "
                          "{\"seat\": \"E\", \"call\": \"4\"}")
    if len(items) > K.MAX_CALLS:
        raise RecordError(f"the auction has {len(items)} calls; no hand has more than "
                          f"{K.MAX_CALLS}")
    for j, item in enumerate(items):
        if isinstance(item, dict):
            extra = sorted(set(item) - {"seat", "call"})
            if extra:
                raise RecordError(f"auction call {j + 1} has an unknown key {extra[0]!r}")
            seat_text, call = item.get("seat"), item.get("call")
        elif isinstance(item, str) and len(item.split(None, 1)) == 2:
            seat_text, call = item.split(None, 1)
        else:
            raise RecordError(f"auction call {j + 1} ({item!r}) must be \"SEAT CALL\" like "
                              f"\"E pass\", or an object with seat and call")
        if seat_text is None or call is None:
            raise RecordError(f"auction call {j + 1} needs a seat and a call")
        try:
            seat = parse_seat(str(seat_text))
        except NotationError as e:
            raise RecordError(f"auction call {j + 1}: {e}") from None
        if seat >= rules.players:
            raise RecordError(f"auction call {j + 1}: W holds the {rules.seat_w} and does "
                              f"not bid")
        rec[R.CALL_SEAT + j] = seat
        rec[R.CALL + j] = parse_call(call, rules)
    rec[R.NCALLS] = len(items)


# ---------------------------------------------------------------------------- JSON -> arrays


def _cards_field(value, reader: CardReader, name: str) -> int:
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    if not isinstance(value, str):
        raise RecordError(f"'{name}' must be cards as text like \"JH JD AH\" or a list of cards")
    try:
        return reader.cards(value)
    except NotationError as e:
        raise RecordError(f"{name}: {e}") from None


def _one_card(value, reader: CardReader, name: str) -> int:
    mask = _cards_field(value, reader, name)
    if bin(mask).count("1") != 1:
        raise RecordError(f"'{name}' must be exactly one card")
    return mask.bit_length() - 1


def _seat_field(value, name: str) -> int:
    try:
        return parse_seat(str(value))
    except NotationError as e:
        raise RecordError(f"{name}: {e}") from None


KNOWN_FIELDS = {"variant", "options", "dealer", "hands", "kitty", "upcard", "redeal",
                "joker_discard", "auction", "trump", "declarer", "ask", "discard", "alone",
                "dummy_discard", "tricks", "result", "comment", "score", *W_LABELS.values()}


def load_record(data: dict) -> Record:
    """Check a record (a parsed JSON object) and build the engine arrays. Raises RecordError."""
    rules = _record_rules(data)
    unknown = sorted(set(data) - KNOWN_FIELDS)
    if unknown:
        raise RecordError(f"unknown field {unknown[0]!r} in the record")
    hm, rec = empty_arrays()
    if "dealer" not in data:
        raise RecordError("the record has no 'dealer'")
    dealer = _seat_field(data["dealer"], "dealer")
    if dealer >= rules.players:
        raise RecordError(f"W holds the {rules.seat_w} in {rules.variant} and cannot deal")
    rec[R.DEALER] = dealer
    # Cards played are checked against the hands by the engine, so the reader that tracks
    # duplicates covers the deal only.
    reader = CardReader(rules)
    _deal(data, rules, reader, hm, dealer)
    _upcard_and_kitty(data, rules, reader, hm, rec)
    _before_play(data, rules, hm, rec)
    _parse_tricks(data.get("tricks", []), rules, rec)
    try:
        score = record_score(data["score"], rules) if "score" in data else ()
    except UserError as e:
        raise RecordError(str(e)) from None
    return Record(rules, hm, rec, frozenset(data), score)


def _record_rules(data) -> Rules:
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if "variant" not in data:
        raise RecordError("the record has no 'variant'")
    if isinstance(data["variant"], str):
        data = dict(data, variant=data["variant"].strip().lower())
    try:
        return rules_from_dict(data)
    except RulesError as e:
        raise RecordError(str(e)) from None


def _dealt_hands(data: dict, rules: Rules, reader: CardReader) -> dict:
    """Each seat's cards as dealt (W: the ghost hand or the dummy, by either name)."""
    hands = data.get("hands")
    if not isinstance(hands, dict):
        raise RecordError("'hands' must be an object of seat -> cards as dealt")
    hands = dict(hands)
    w_name = rules.seat_w_name or None
    for alias in W_LABELS.values():
        if alias in data:
            if alias != w_name:
                raise RecordError(f"{rules.variant} has no {alias} hand")
            hands["W"] = data[alias]
    dealt = {}
    for key, value in hands.items():
        if key in W_LABELS.values():
            if key != w_name:
                raise RecordError(f"hands: {rules.variant} has no {key} hand")
            seat = 3
        else:
            seat = _seat_field(key, "hands")
        if seat in dealt:
            raise RecordError(f"hands: seat {SEATS[seat]} is given twice")
        dealt[seat] = _cards_field(value, reader, f"hand {SEATS[seat]}")
    return dealt


def _deal(data: dict, rules: Rules, reader: CardReader, hm: np.ndarray, dealer: int) -> None:
    """The hands as dealt into ``hm``, each of the right size (the dealer's extra card before
    a ladder auction goes to the kitty)."""
    dealt = _dealt_hands(data, rules, reader)
    w_name = rules.seat_w_name
    for seat in range(4):
        if seat not in dealt:
            what = f"the {w_name} hand (W)" if seat == 3 and w_name else f"hand {SEATS[seat]}"
            raise RecordError(f"the record has no {what}")
        want = rules.hand_size + (rules.dealer_extra if seat == dealer else 0)
        got = bin(dealt[seat]).count("1")
        if got != want:
            raise RecordError(f"hand {SEATS[seat]} has {got} cards as dealt; it should have "
                              f"{want} in {rules.variant}")
        if want > rules.hand_size:
            top = dealt[seat].bit_length() - 1
            hm[M.KITTY] = np.uint64(1 << top)
            dealt[seat] &= ~(1 << top)
        hm[M.DEALT + seat] = np.uint64(dealt[seat])


def _upcard_and_kitty(data: dict, rules: Rules, reader: CardReader, hm: np.ndarray,
                      rec: np.ndarray) -> None:
    """The upcard and the kitty (the undealt cards when the record leaves it out)."""
    if not rules.has_upcard:
        for name in ("upcard", "kitty", "discard"):
            if name in data:
                raise RecordError(f"{rules.variant} has no {name}")
        return
    if "upcard" not in data:
        raise RecordError(f"a {rules.variant} record needs the 'upcard'")
    up = _one_card(data["upcard"], reader, "upcard")
    rec[R.UPCARD] = up
    rest = int(L.deck_mask(rules.deck)) & ~reader.used
    if "kitty" in data:
        kitty = _cards_field(data["kitty"], reader, "kitty") | (1 << up)
        if bin(kitty).count("1") != rules.kitty_size:
            raise RecordError(f"the kitty (with the upcard) has {bin(kitty).count('1')} "
                              f"cards; it should have {rules.kitty_size}")
    else:
        kitty = rest | (1 << up)
    hm[M.KITTY] = np.uint64(kitty)


def _before_play(data: dict, rules: Rules, hm: np.ndarray, rec: np.ndarray) -> None:
    """The decisions before the first lead: a redeal, the dealer's extra discard, the
    auction, trump, the ask exchange, the dealer's discard, who went alone, the dummy."""
    if "redeal" in data:
        if not rules.ace_no_face:
            raise RecordError("'redeal' needs the ace_no_face option")
        rec[R.REDEAL_SEAT] = _seat_field(data["redeal"], "redeal")
    if "joker_discard" in data:
        if not rules.dealer_extra:
            raise RecordError("'joker_discard' exists only in bid with the joker")
        rec[R.JOKER_DISCARD] = _one_card(data["joker_discard"], CardReader(rules),
                                         "joker_discard")
    _parse_auction(data.get("auction", []), rules, rec)
    if "trump" in data:
        try:
            rec[R.TRUMP] = parse_suit(str(data["trump"]))
        except NotationError as e:
            raise RecordError(f"trump: {e}") from None
    if "ask" in data:
        if not rules.has_ask:
            raise RecordError(f"'ask' exists only in bid, not {rules.variant}")
        ask = data["ask"]
        if not isinstance(ask, dict) or not {"give", "receive"} <= set(ask):
            raise RecordError("'ask' must be {\"give\": CARD, \"receive\": CARD}")
        rec[R.ASK_GIVE] = _one_card(ask["give"], CardReader(rules), "ask give")
        rec[R.ASK_RECEIVE] = _one_card(ask["receive"], CardReader(rules), "ask receive")
    if "discard" in data:
        rec[R.DEALER_DISCARD] = _one_card(data["discard"], CardReader(rules), "discard")
    if "alone" in data:
        seats = data["alone"] if isinstance(data["alone"], list) else [data["alone"]]
        for s in seats:
            rec[R.ALONE_SEATS] |= 1 << _seat_field(s, "alone")
    if "dummy_discard" in data:
        if rules.seat_w != DUMMY:
            raise RecordError("'dummy_discard' exists only in cutthroat")
        hm[M.DUMMY_DISCARD] = np.uint64(_cards_field(data["dummy_discard"], CardReader(rules),
                                                       "dummy_discard"))


def _parse_tricks(tricks, rules: Rules, rec: np.ndarray) -> None:
    if not isinstance(tricks, list):
        raise RecordError("'tricks' must be a list of tricks, each the cards in play order")
    if len(tricks) > rules.hand_size:
        raise RecordError(f"the record has {len(tricks)} tricks; a {rules.variant} hand has "
                          f"{rules.hand_size}")
    for t, trick in enumerate(tricks):
        if isinstance(trick, dict):
            trick = trick.get("cards", [])
        if isinstance(trick, str):
            tokens = trick.replace(",", " ").split()
        elif isinstance(trick, list):
            tokens = [str(c) for c in trick]
        else:
            raise RecordError(f"trick {t + 1} must be cards in play order")
        if not 2 <= len(tokens) <= 4:
            raise RecordError(f"trick {t + 1} has {len(tokens)} cards")
        reader = CardReader(rules)
        for pos, token in enumerate(tokens):
            try:
                rec[R.PLAYS + 4 * t + pos] = reader.card(token)
            except NotationError as e:
                raise RecordError(f"trick {t + 1}: {e}") from None


# ---------------------------------------------------------------------------- after a replay


def check_replayed(record: Record, recorded_trump: int) -> None:
    """After the engine replayed ``record`` legally: RecordError if the trump it recorded
    (``recorded_trump``, -1 if none) does not follow from the upcard auction, a discard was
    given without a pick-up, or a redealt hand has fields of a played one."""
    rec = record.rec
    if rec[R.STATUS] == K.ST_PLAYED:
        if record.rules.has_upcard and recorded_trump >= 0 and recorded_trump != rec[R.TRUMP]:
            raise RecordError(f"trump {SUITS[recorded_trump]} does not follow from the auction, "
                              f"which makes {SUITS[rec[R.TRUMP]]} trump")
        if "discard" in record.given and not made_on_upcard(rec[R.UPCARD], rec[R.TRUMP],
                                                            rec[R.ROUND]):
            raise RecordError("the dealer discards only after taking the upcard, and trump was "
                              "not made on the upcard")
        return
    why = "everyone passed" if rec[R.STATUS] == K.ST_ALL_PASSED else "of Ace-No-Face"
    for name in AFTER_AUCTION:
        if name in record.given:
            raise RecordError(f"the hand was redealt because {why}, so the record cannot "
                              f"have '{name}'")


# the replay errors whose sentence names nothing of the record
FIXED_ERRORS = {
    K.E_ASK_GIVE: "the 6-ask card given away is not in the bidder's hand (or there was no "
                  "6-ask)",
    K.E_ASK_RETURN: "the card the partner passes back in a 6-ask must be their best trump",
    K.E_DISCARD_NOT_HELD: "the dealer's 'discard' must be one of the dealer's six cards after "
                          "the pick-up",
    K.E_JOKER_DISCARD: "'joker_discard' must be one of the dealer's seven cards",
    K.E_DUMMY_DISCARD: "'dummy_discard' must be five of the maker's ten cards with the dummy "
                       "(and is empty when the maker goes alone)",
    K.E_REDEAL_NOT_ALLOWED: "the redeal caller does not hold an ace and no J, Q or K "
                            "(Ace-No-Face)",
}


def describe_error(record: Record) -> str:
    """One sentence for the engine's replay error in ``record.rec``."""
    rec, rules = record.rec, record.rules
    code, at, info = rec[R.ERROR], rec[R.ERROR_AT], rec[R.ERROR_INFO]
    if code in (K.E_CALL_OUT_OF_TURN, K.E_CALL_NOT_ALLOWED):
        seat = SEATS[rec[R.CALL_SEAT + at]]
        call = call_text(rec[R.CALL + at], rules)
        if code == K.E_CALL_OUT_OF_TURN:
            return f"auction call {at + 1} is by {seat}, but it is {SEATS[info]}'s turn"
        allowed = [call_text(c, rules) for c in range(64) if (int(info) >> c) & 1]
        return (f"auction call {at + 1}: {seat} cannot call {call} here; the calls allowed "
                f"were {', '.join(allowed)}")
    if code == K.E_AUCTION_SHORT:
        return f"the auction stops after {at} calls, but the bidding is not over"
    if code == K.E_AUCTION_LONG:
        return f"the auction goes on after the bidding is over (call {at + 1})"
    if code == K.E_TRUMP_NOT_ALLOWED:
        return "the record does not say which suit the bidder named as 'trump'"
    if code in (K.E_CARD_NOT_HELD, K.E_PLAYS_MISSING):
        t, pos = divmod(int(at), 4)
        if code == K.E_PLAYS_MISSING:
            if rec[R.PLAYS] < 0:
                return "the record has no 'tricks' (or an empty list)"
            if t >= rules.hand_size or rec[R.PLAYS + at] >= 0:
                return f"trick {t + 1} has a card too many (position {pos + 1})"
            return f"trick {t + 1} is missing the card of {SEATS[info]} (position {pos + 1})"
        card = format_card(rec[R.PLAYS + at])
        return f"trick {t + 1}: {SEATS[info]} plays {card} but does not hold it"
    if code in FIXED_ERRORS:
        return FIXED_ERRORS[code]
    if code == K.E_ALONE_NOT_ALLOWED:
        if rules.auction == LADDER:
            return f"nobody goes 'alone' in {rules.variant} (bid ask or moon instead)"
        return ("'alone' lists a seat that may not go alone here (the maker, and one defender "
                "where the rules allow it)")
    if code == K.E_SWAP_NOT_ALLOWED:
        return f"auction call {at + 1}: a swap is allowed once, before that player's bid"
    if code == K.E_INCONSISTENT:
        return f"call {at + 1} is not one its player's strategy makes with these cards"
    return f"engine error {code} at {at}"


# ---------------------------------------------------------------------------- arrays -> JSON


def side_names(rules: Rules) -> list[str]:
    """Names of the scoring sides: the partnerships, or each player in 3-player variants."""
    return ["NS", "EW"] if rules.partnership else ["N", "E", "S"]


def result_of(record: Record) -> dict:
    """The result part of a record: status, trump, declarer, tricks and points by side."""
    rules, rec = record.rules, record.rec
    status = {K.ST_PLAYED: "played", K.ST_ALL_PASSED: "redeal: all passed",
              K.ST_ACE_NO_FACE: "redeal: ace-no-face"}[int(rec[R.STATUS])]
    out = {"status": status}
    sides = side_names(rules)
    if rules.partnership:
        tricks = {s: int(rec[R.TRICKS + i] + rec[R.TRICKS + i + 2])
                  for i, s in enumerate(sides)}
        points = {s: int(rec[R.POINTS + i]) for i, s in enumerate(sides)}
    else:
        tricks = {s: int(rec[R.TRICKS + i]) for i, s in enumerate(sides)}
        points = {s: int(rec[R.POINTS + i]) for i, s in enumerate(sides)}
    if status == "played":
        decl = int(rec[R.DECLARER])
        n = rules.hand_size
        out.update(trump=SUITS[rec[R.TRUMP]], declarer=SEATS[decl],
                   contract=contract_text(record), declarer_tricks=int(rec[R.DECL_TRICKS]),
                   defender_tricks=n - int(rec[R.DECL_TRICKS]), tricks=tricks)
        reneges = {SEATS[s]: int(rec[R.RENEGES + s]) for s in range(4) if rec[R.RENEGES + s]}
        if reneges:
            out["reneges"] = reneges
    out["points"] = points
    return out


def contract_text(record: Record) -> str:
    """Words for the contract: 'bid 4', '6-ask', 'moon', 'ordered up, alone', ..."""
    rules, rec = record.rules, record.rec
    c = int(rec[R.CONTRACT])
    if rules.auction == LADDER:
        return rules.bid_name(c)
    how = "ordered up" if made_on_upcard(rec[R.UPCARD], rec[R.TRUMP], rec[R.ROUND]) \
        else "named in round 2"
    if rec[R.UPCARD] == L.JOKER:
        how = "named under the joker"
    parts = [how]
    if c & K.CT_MAKER_ALONE:
        parts.append("maker alone")
    if c & K.CT_DEFENDER_ALONE:
        parts.append(f"{SEATS[rec[R.DEFENDER_ALONE]]} defends alone")
    if rules.seat_w == DUMMY and not c & K.CT_MAKER_ALONE:
        parts.append("with the dummy")
    return ", ".join(parts)


def to_json(record: Record) -> dict:
    """The JSON object of a played (or replayed) record, in the documented format."""
    rules, hm, rec = record.rules, record.hm, record.rec
    dealer = int(rec[R.DEALER])
    out: dict = {"variant": rules.variant, "options": rules.options, "dealer": SEATS[dealer]}
    hands = {}
    for seat in range(4):
        mask = int(hm[M.DEALT + seat])
        if rules.dealer_extra and seat == dealer:
            mask |= int(hm[M.KITTY])
        hands[SEATS[seat]] = format_hand(mask)
    if rules.seat_w_name:
        hands[rules.seat_w_name] = hands.pop("W")
    out["hands"] = {k: hands[k] for k in hands}
    if rules.has_upcard:
        out["upcard"] = format_card(int(rec[R.UPCARD]))
        out["kitty"] = format_hand(int(hm[M.KITTY]) & ~(1 << int(rec[R.UPCARD])))
    if rec[R.JOKER_DISCARD] >= 0:
        out["joker_discard"] = format_card(int(rec[R.JOKER_DISCARD]))
    if rec[R.REDEAL_SEAT] >= 0:
        out["redeal"] = SEATS[rec[R.REDEAL_SEAT]]
    out["auction"] = [f"{SEATS[rec[R.CALL_SEAT + j]]} {call_text(rec[R.CALL + j], rules)}"
                      for j in range(int(rec[R.NCALLS]))]
    if rec[R.STATUS] == K.ST_PLAYED:
        out["trump"] = SUITS[rec[R.TRUMP]]
        out["declarer"] = SEATS[rec[R.DECLARER]]
        if rec[R.ASK_GIVE] >= 0:
            out["ask"] = {"give": format_card(int(rec[R.ASK_GIVE])),
                          "receive": format_card(int(rec[R.ASK_RECEIVE]))}
        if rec[R.DEALER_DISCARD] >= 0:
            out["discard"] = format_card(int(rec[R.DEALER_DISCARD]))
        alone = [SEATS[s] for s in range(4) if (rec[R.ALONE_SEATS] >> s) & 1]
        if alone:
            out["alone"] = alone
        if int(hm[M.DUMMY_DISCARD]):
            out["dummy_discard"] = format_hand(int(hm[M.DUMMY_DISCARD]))
        out["tricks"] = [" ".join(format_card(int(c)) for c in rec[R.PLAYS + 4 * t:
                                                                  R.PLAYS + 4 * t + 4] if c >= 0)
                         for t in range(rules.hand_size)]
    out["result"] = result_of(record)
    if record.score:
        out["score"] = score_dict(record.score)
    return out


def read_json(text: str, source: str) -> dict:
    """Parse JSON text; RecordError naming ``source`` and the position if it is not JSON,
    or what is wrong with a number too long for any field (``analyzer.numbers``)."""
    try:
        return json_loads(text)
    except UserError as e:
        raise RecordError(f"{source}: {e}") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"{source} is not valid JSON: {e.msg} at line {e.lineno} column "
                          f"{e.colno}") from None
    except (ValueError, RecursionError) as e:
        raise RecordError(f"{source} cannot be read as a record: {str(e)[:80]}") from None


MAX_RECORD_LINES = 10_000  # an indented record longer than this is not one


def json_records(handle) -> Iterator[tuple[int, object]]:
    """The JSON values of a file of records, one a line (JSON Lines) or indented over several
    lines (``euchre play --json`` before it wrote one line, or a pretty-printed file): ``(first
    line, value)``, or ``(line, RecordError)`` for text that is not JSON, and reading goes on
    at the next line."""
    buf, start = [], 0
    for line, text in enumerate(handle, start=1):
        if buf:
            buf.append(text)
            if text.rstrip() in ("}", "},"):
                yield start, _parsed("".join(buf).rstrip().rstrip(","))
                buf = []
            elif len(buf) > MAX_RECORD_LINES:
                yield start, RecordError("not JSON: a record that does not end")
                buf = []
            continue
        if not text.strip():
            continue
        if text.strip() == "{":
            buf, start = [text], line
            continue
        yield line, _parsed(text)
    if buf:
        yield start, RecordError("not JSON: the file ends inside a record")


def _parsed(text: str):
    try:
        return read_json(text, "the record")
    except RecordError as e:
        return e


def check_result(record: Record, claimed) -> None:
    """RecordError if a record's own 'result' disagrees with what replaying it gives."""
    if claimed is None:
        return
    actual = result_of(record)
    if not isinstance(claimed, dict):
        raise RecordError("'result' must be an object")
    for key, value in claimed.items():
        if key not in RESULT_KEYS:
            raise RecordError(f"unknown key {key!r} in 'result'")
        want = actual.get(key)
        same = value == want
        if isinstance(value, str) and isinstance(want, str):
            same = value.strip().lower() == want.lower()
        if not same:
            raise RecordError(f"the recorded result says {key} = {value}, but the hand as "
                              f"played gives {want}")


RESULT_KEYS = ("status", "trump", "declarer", "contract", "declarer_tricks", "defender_tricks",
               "tricks", "reneges", "points")
