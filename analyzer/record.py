"""The recorded-hand format (JSON) and its conversion to and from the engine's record arrays.

A record holds the rules, the dealer, the hands as dealt, the auction, the decisions after it,
and the tricks as cards in play order from each trick's leader. See the README ("Recorded
hands") for an example per variant. ``load_record`` checks everything that can be checked
without playing (cards, counts, labels, types); ``replay`` then runs the record through the
engine, which checks every step, and ``describe_error`` turns the engine's error code into a
sentence.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from kernels import layout as L
from kernels import rules as K

from .errors import UserError
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
from .variants import Rules, RulesError, rules_from_dict

ORDER_WORDS = {"order", "order up", "order it", "help", "accept", "pick up", "pickup", "assist"}


class RecordError(UserError):
    """A record that is malformed or breaks a rule; the message is one line."""


AFTER_AUCTION = ("trump", "declarer", "ask", "discard", "alone", "dummy_discard", "tricks")


@dataclass
class Record:
    """A hand as the engine sees it: ``rules``, natural card masks ``hm`` and slots ``rec``;
    ``given`` names the fields a loaded record had."""

    rules: Rules
    hm: np.ndarray
    rec: np.ndarray
    given: frozenset = frozenset()


def empty_arrays() -> tuple[np.ndarray, np.ndarray]:
    """Fresh ``(hm, rec)`` with every card slot -1 and every counter 0."""
    hm = np.zeros(K.M_LEN, dtype=np.uint64)
    rec = np.full(K.R_LEN, -1, dtype=np.int64)
    for slot in (K.R_STATUS, K.R_NCALLS, K.R_ERROR, K.R_DECL_TRICKS, K.R_MAKER_ALONE,
                 K.R_ALONE_SEATS):
        rec[slot] = 0
    for base in (K.R_TRICKS, K.R_POINTS, K.R_RENEGES):
        rec[base:base + 4] = 0
    return hm, rec


# ---------------------------------------------------------------------------- calls


def call_text(code: int, rules: Rules) -> str:
    """Text of a call code in a record (``pass``, ``4``, ``ask``, ``moon``, ``order``, ``name H``,
    ``swap``)."""
    if code == K.PASS:
        return "pass"
    if code == K.ASK:
        return "ask"
    if code == K.MOON:
        return "moon"
    if code == K.ORDER:
        return "order"
    if code == K.SWAP:
        return "swap"
    if K.NAME <= code < K.NAME + 4:
        return f"name {SUITS[code - K.NAME]}"
    return str(code)


def parse_call(text: str, rules: Rules) -> int:
    """Call code of a call written in a record, for the variant; RecordError if the variant has
    no such call."""
    t = " ".join(str(text).strip().lower().split())
    if t == "pass":
        return K.PASS
    if rules.variant in ("bid", "ghost"):
        if t == "swap" and rules.variant == "ghost":
            return K.SWAP
        named = {"ask": K.ASK, "moon": K.MOON, "shoot the moon": K.MOON}
        code = named.get(t)
        if code is None and t.isascii() and t.isdigit() and len(t) < 4:
            code = int(t)
        if code is not None and code in rules.bid_ladder:
            return code
        ladder = ", ".join(call_text(c, rules) for c in rules.bid_ladder)
        raise RecordError(f"{text!r} is not a call in {rules.variant}: pass or a bid ({ladder})"
                          + (", or swap" if rules.variant == "ghost" else ""))
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
            raise RecordError(f"auction call {j + 1}: W holds the "
                              f"{'ghost hand' if rules.variant == 'ghost' else 'dummy'} and "
                              f"does not bid")
        rec[K.R_CALL_SEAT + j] = seat
        rec[K.R_CALL + j] = parse_call(call, rules)
    rec[K.R_NCALLS] = len(items)


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


def load_record(data: dict) -> Record:
    """Check a record (a parsed JSON object) and build the engine arrays. Raises RecordError."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if "variant" not in data:
        raise RecordError("the record has no 'variant'")
    if isinstance(data["variant"], str):
        data = dict(data, variant=data["variant"].strip().lower())
    try:
        rules = rules_from_dict(data)
    except RulesError as e:
        raise RecordError(str(e)) from None
    known = {"variant", "options", "dealer", "hands", "kitty", "upcard", "redeal", "joker_discard",
             "auction", "trump", "declarer", "ask", "discard", "alone", "dummy_discard", "tricks",
             "result", "ghost", "dummy", "comment"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise RecordError(f"unknown field {unknown[0]!r} in the record")
    hm, rec = empty_arrays()
    # Cards played are checked against the hands by the engine, so the reader that tracks
    # duplicates covers the deal only.
    reader = CardReader(rules)
    if "dealer" not in data:
        raise RecordError("the record has no 'dealer'")
    dealer = _seat_field(data["dealer"], "dealer")
    if rules.players == 3 and dealer == 3:
        raise RecordError(f"W holds the {'ghost hand' if rules.variant == 'ghost' else 'dummy'}"
                          f" in {rules.variant} and cannot deal")
    rec[K.R_DEALER] = dealer
    hands = data.get("hands")
    if not isinstance(hands, dict):
        raise RecordError("'hands' must be an object of seat -> cards as dealt")
    hands = dict(hands)
    w_name = {"ghost": "ghost", "cutthroat": "dummy"}.get(rules.variant)
    for alias in ("ghost", "dummy"):
        if alias in data:
            if alias != w_name:
                raise RecordError(f"{rules.variant} has no {alias} hand")
            hands["W"] = data[alias]
    dealt = {}
    for key, value in hands.items():
        if key in ("ghost", "dummy"):
            if key != w_name:
                raise RecordError(f"hands: {rules.variant} has no {key} hand")
            seat = 3
        else:
            seat = _seat_field(key, "hands")
        if seat in dealt:
            raise RecordError(f"hands: seat {SEATS[seat]} is given twice")
        dealt[seat] = _cards_field(value, reader, f"hand {SEATS[seat]}")
    for seat in range(4):
        if seat not in dealt:
            what = f"the {w_name} hand (W)" if seat == 3 and w_name else f"hand {SEATS[seat]}"
            raise RecordError(f"the record has no {what}")
        want = rules.hand_size + (1 if rules.variant == "bid" and rules.joker and
                                  seat == dealer else 0)
        got = bin(dealt[seat]).count("1")
        if got != want:
            raise RecordError(f"hand {SEATS[seat]} has {got} cards as dealt; it should have "
                              f"{want} in {rules.variant}")
        if want > rules.hand_size:  # bid with joker: the dealer's seventh card is the kitty
            top = dealt[seat].bit_length() - 1
            hm[K.M_KITTY] = np.uint64(1 << top)
            dealt[seat] &= ~(1 << top)
        hm[K.M_DEALT + seat] = np.uint64(dealt[seat])
    if rules.variant in ("knock", "cutthroat"):
        if "upcard" not in data:
            raise RecordError(f"a {rules.variant} record needs the 'upcard'")
        up = _one_card(data["upcard"], reader, "upcard")
        rec[K.R_UPCARD] = up
        rest = int(L.deck_mask(rules.deck)) & ~reader.used
        if "kitty" in data:
            kitty = _cards_field(data["kitty"], reader, "kitty") | (1 << up)
            if bin(kitty).count("1") != rules.kitty_size:
                raise RecordError(f"the kitty (with the upcard) has {bin(kitty).count('1')} "
                                  f"cards; it should have {rules.kitty_size}")
        else:
            kitty = rest | (1 << up)
        hm[K.M_KITTY] = np.uint64(kitty)
    else:
        for name in ("upcard", "kitty", "discard"):
            if name in data:
                raise RecordError(f"{rules.variant} has no {name}")
    if "redeal" in data:
        if not rules.ace_no_face:
            raise RecordError("'redeal' needs the ace_no_face option")
        rec[K.R_REDEAL_SEAT] = _seat_field(data["redeal"], "redeal")
    play = CardReader(rules)  # cards named after the deal: checked by the engine
    if "joker_discard" in data:
        if not (rules.variant == "bid" and rules.joker):
            raise RecordError("'joker_discard' exists only in bid with the joker")
        rec[K.R_JOKER_DISCARD] = _one_card(data["joker_discard"], play, "joker_discard")
    _parse_auction(data.get("auction", []), rules, rec)
    if "trump" in data:
        try:
            rec[K.R_TRUMP] = parse_suit(str(data["trump"]))
        except NotationError as e:
            raise RecordError(f"trump: {e}") from None
    if "ask" in data:
        if rules.variant != "bid":
            raise RecordError(f"'ask' exists only in bid, not {rules.variant}")
        ask = data["ask"]
        if not isinstance(ask, dict) or not {"give", "receive"} <= set(ask):
            raise RecordError("'ask' must be {\"give\": CARD, \"receive\": CARD}")
        rec[K.R_ASK_GIVE] = _one_card(ask["give"], CardReader(rules), "ask give")
        rec[K.R_ASK_RECEIVE] = _one_card(ask["receive"], CardReader(rules), "ask receive")
    if "discard" in data:
        if rules.variant not in ("knock", "cutthroat"):
            raise RecordError(f"{rules.variant} has no dealer's 'discard'")
        rec[K.R_DEALER_DISCARD] = _one_card(data["discard"], CardReader(rules), "discard")
    if "alone" in data:
        seats = data["alone"] if isinstance(data["alone"], list) else [data["alone"]]
        for s in seats:
            rec[K.R_ALONE_SEATS] |= 1 << _seat_field(s, "alone")
    if "dummy_discard" in data:
        if rules.variant != "cutthroat":
            raise RecordError("'dummy_discard' exists only in cutthroat")
        hm[K.M_DUMMY_DISCARD] = np.uint64(_cards_field(data["dummy_discard"], CardReader(rules),
                                                       "dummy_discard"))
    _parse_tricks(data.get("tricks", []), rules, rec)
    return Record(rules, hm, rec, frozenset(data))


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
                rec[K.R_PLAYS + 4 * t + pos] = reader.card(token)
            except NotationError as e:
                raise RecordError(f"trick {t + 1}: {e}") from None


# ---------------------------------------------------------------------------- replay


def replay(record: Record) -> Record:
    """Run a record through the engine, filling tricks and points. Raises RecordError at the
    first illegal step (reneges are not errors: they are counted and penalised)."""
    from kernels.engine import replay_hand

    rules = record.rules
    to_norm, from_norm = rules.layout
    want_trump = record.rec[K.R_TRUMP] if rules.variant in ("knock", "cutthroat") else -1
    ok = replay_hand(rules.config(), rules.points_table, to_norm, from_norm, record.hm,
                     record.rec)
    if not ok:
        raise RecordError(describe_error(record))
    rec = record.rec
    if rec[K.R_STATUS] == K.ST_PLAYED:
        if want_trump >= 0 and want_trump != rec[K.R_TRUMP]:
            raise RecordError(f"trump {SUITS[want_trump]} does not follow from the auction, "
                              f"which makes {SUITS[rec[K.R_TRUMP]]} trump")
        if "discard" in record.given and rec[K.R_ROUND] != 1:
            raise RecordError("the dealer discards only after taking the upcard, and trump was "
                              "not made on the upcard")
    else:
        why = "everyone passed" if rec[K.R_STATUS] == K.ST_ALL_PASSED else "of Ace-No-Face"
        for name in AFTER_AUCTION:
            if name in record.given:
                raise RecordError(f"the hand was redealt because {why}, so the record cannot "
                                  f"have '{name}'")
    return record


def describe_error(record: Record) -> str:
    """One sentence for the engine's replay error in ``record.rec``."""
    rec, rules = record.rec, record.rules
    code, at, info = rec[K.R_ERROR], rec[K.R_ERROR_AT], rec[K.R_ERROR_INFO]
    if code in (K.E_CALL_OUT_OF_TURN, K.E_CALL_NOT_ALLOWED):
        seat = SEATS[rec[K.R_CALL_SEAT + at]]
        call = call_text(rec[K.R_CALL + at], rules)
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
            if rec[K.R_PLAYS] < 0:
                return "the record has no 'tricks' (or an empty list)"
            if t >= rules.hand_size or rec[K.R_PLAYS + at] >= 0:
                return f"trick {t + 1} has a card too many (position {pos + 1})"
            return f"trick {t + 1} is missing the card of {SEATS[info]} (position {pos + 1})"
        card = format_card(rec[K.R_PLAYS + at])
        return f"trick {t + 1}: {SEATS[info]} plays {card} but does not hold it"
    if code == K.E_ASK_GIVE:
        return "the 6-ask card given away is not in the bidder's hand (or there was no 6-ask)"
    if code == K.E_ASK_RETURN:
        return "the card the partner passes back in a 6-ask must be their best trump"
    if code == K.E_DISCARD_NOT_HELD:
        return "the dealer's 'discard' must be one of the dealer's six cards after the pick-up"
    if code == K.E_JOKER_DISCARD:
        return "'joker_discard' must be one of the dealer's seven cards"
    if code == K.E_DUMMY_DISCARD:
        return ("'dummy_discard' must be five of the maker's ten cards with the dummy (and is "
                "empty when the maker goes alone)")
    if code == K.E_ALONE_NOT_ALLOWED:
        if rules.variant in ("bid", "ghost"):
            return f"nobody goes 'alone' in {rules.variant} (bid ask or moon instead)"
        return ("'alone' lists a seat that may not go alone here (the maker, and one defender "
                "where the rules allow it)")
    if code == K.E_SWAP_NOT_ALLOWED:
        return f"auction call {at + 1}: a swap is allowed once, before that player's bid"
    if code == K.E_REDEAL_NOT_ALLOWED:
        return "the redeal caller does not hold an ace and no J, Q or K (Ace-No-Face)"
    return f"engine error {code} at {at}"


# ---------------------------------------------------------------------------- arrays -> JSON


def side_names(rules: Rules) -> list[str]:
    """Names of the scoring sides: the partnerships, or each player in 3-player variants."""
    return ["NS", "EW"] if rules.players == 4 else ["N", "E", "S"]


def result_of(record: Record) -> dict:
    """The result part of a record: status, trump, declarer, tricks and points by side."""
    rules, rec = record.rules, record.rec
    status = {K.ST_PLAYED: "played", K.ST_ALL_PASSED: "redeal: all passed",
              K.ST_ACE_NO_FACE: "redeal: ace-no-face"}[int(rec[K.R_STATUS])]
    out = {"status": status}
    sides = side_names(rules)
    if rules.players == 4:
        tricks = {s: int(rec[K.R_TRICKS + i] + rec[K.R_TRICKS + i + 2])
                  for i, s in enumerate(sides)}
        points = {s: int(rec[K.R_POINTS + i]) for i, s in enumerate(sides)}
    else:
        tricks = {s: int(rec[K.R_TRICKS + i]) for i, s in enumerate(sides)}
        points = {s: int(rec[K.R_POINTS + i]) for i, s in enumerate(sides)}
    if status == "played":
        decl = int(rec[K.R_DECLARER])
        n = rules.hand_size
        out.update(trump=SUITS[rec[K.R_TRUMP]], declarer=SEATS[decl],
                   contract=contract_text(record), declarer_tricks=int(rec[K.R_DECL_TRICKS]),
                   defender_tricks=n - int(rec[K.R_DECL_TRICKS]), tricks=tricks)
        reneges = {SEATS[s]: int(rec[K.R_RENEGES + s]) for s in range(4) if rec[K.R_RENEGES + s]}
        if reneges:
            out["reneges"] = reneges
    out["points"] = points
    return out


def contract_text(record: Record) -> str:
    """Words for the contract: 'bid 4', '6-ask', 'moon', 'ordered up, alone', ..."""
    rules, rec = record.rules, record.rec
    c = int(rec[K.R_CONTRACT])
    if rules.variant in ("bid", "ghost"):
        n = rules.hand_size
        return {K.ASK: f"{n}-ask", K.MOON: "moon"}.get(c, f"bid {c}")
    how = "ordered up" if rec[K.R_ROUND] == 1 else "named in round 2"
    if rec[K.R_UPCARD] == L.JOKER:
        how = "named under the joker"
    parts = [how]
    if c & K.CT_MAKER_ALONE:
        parts.append("maker alone")
    if c & K.CT_DEFENDER_ALONE:
        parts.append(f"{SEATS[rec[K.R_DEFENDER_ALONE]]} defends alone")
    if rules.variant == "cutthroat" and not c & K.CT_MAKER_ALONE:
        parts.append("with the dummy")
    return ", ".join(parts)


def to_json(record: Record) -> dict:
    """The JSON object of a played (or replayed) record, in the documented format."""
    rules, hm, rec = record.rules, record.hm, record.rec
    dealer = int(rec[K.R_DEALER])
    out: dict = {"variant": rules.variant, "options": rules.options, "dealer": SEATS[dealer]}
    hands = {}
    for seat in range(4):
        mask = int(hm[K.M_DEALT + seat])
        if rules.variant == "bid" and rules.joker and seat == dealer:
            mask |= int(hm[K.M_KITTY])
        hands[SEATS[seat]] = format_hand(mask)
    if rules.players == 3:
        w = hands.pop("W")
        hands[{"ghost": "ghost", "cutthroat": "dummy"}[rules.variant]] = w
    out["hands"] = {k: hands[k] for k in hands}
    if rules.variant in ("knock", "cutthroat"):
        out["upcard"] = format_card(int(rec[K.R_UPCARD]))
        out["kitty"] = format_hand(int(hm[K.M_KITTY]) & ~(1 << int(rec[K.R_UPCARD])))
    if rec[K.R_JOKER_DISCARD] >= 0:
        out["joker_discard"] = format_card(int(rec[K.R_JOKER_DISCARD]))
    if rec[K.R_REDEAL_SEAT] >= 0:
        out["redeal"] = SEATS[rec[K.R_REDEAL_SEAT]]
    out["auction"] = [f"{SEATS[rec[K.R_CALL_SEAT + j]]} {call_text(rec[K.R_CALL + j], rules)}"
                      for j in range(int(rec[K.R_NCALLS]))]
    if rec[K.R_STATUS] == K.ST_PLAYED:
        out["trump"] = SUITS[rec[K.R_TRUMP]]
        out["declarer"] = SEATS[rec[K.R_DECLARER]]
        if rec[K.R_ASK_GIVE] >= 0:
            out["ask"] = {"give": format_card(int(rec[K.R_ASK_GIVE])),
                          "receive": format_card(int(rec[K.R_ASK_RECEIVE]))}
        if rec[K.R_DEALER_DISCARD] >= 0:
            out["discard"] = format_card(int(rec[K.R_DEALER_DISCARD]))
        alone = [SEATS[s] for s in range(4) if (rec[K.R_ALONE_SEATS] >> s) & 1]
        if alone:
            out["alone"] = alone
        if int(hm[K.M_DUMMY_DISCARD]):
            out["dummy_discard"] = format_hand(int(hm[K.M_DUMMY_DISCARD]))
        out["tricks"] = [" ".join(format_card(int(c)) for c in rec[K.R_PLAYS + 4 * t:
                                                                  K.R_PLAYS + 4 * t + 4] if c >= 0)
                         for t in range(rules.hand_size)]
    out["result"] = result_of(record)
    return out


def read_json(text: str, source: str) -> dict:
    """Parse JSON text; RecordError naming ``source`` and the position if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{source} is not valid JSON: {e.msg} at line {e.lineno} column "
                          f"{e.colno}") from None
    except (ValueError, RecursionError) as e:
        raise RecordError(f"{source} cannot be read as a record: {str(e)[:80]}") from None


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
