"""What the page and the API ask, turned into the analyzer's own calls: the table state of a
question being built (the deck, whose turn it is and the calls they may say), the odds of a
decision point and the review of a record. Every rule comes from the analyzer (variant specs,
the engine's legal calls, the notation); this module only reads request parameters."""

from __future__ import annotations

from collections.abc import Mapping

from kernels import layout as L

from ..compute.engine import auction_turn, state_of
from ..errors import UserError
from ..game.auction import DecisionPoint, call_choices, heard_text, parse_heard
from ..game.notation import (
    RED_SUITS,
    SEATS,
    SUITS,
    NotationError,
    card_ids,
    format_card,
    parse_seat,
)
from ..game.outcomes import SHOWN_OUTCOMES
from ..game.variants import OPTIONS, VARIANTS, Rules, make_rules
from ..strategy.defaults import DEFAULT_STRATEGY, DEFAULT_WORLDS, METHODS

# the parameters of GET /api/odds: the options of `euchre odds`, dashes as underscores
ODDS_TEXT = ("hand", "variant", "upcard", "seat", "dealer", "auction", "trump", "bid",
             "method", "others")
ODDS_INT = ("deals", "seed", "worlds")
ODDS_BOOL = ("infer", "exact", "play_check", "discards")
ODDS_FLOAT = ("tremble",)
ODDS_LIST = ("given",)
NOT_SERVED = {"precision": "give deals instead: a run to a precision has no fixed size",
              "workers": "the server uses every core for one question at a time",
              "scheduler": "the server runs questions on this machine"}
DEFAULT_DEALS = 10_000


def spec() -> dict:
    """The variants and their house rules, as the page builds its form from them: per variant
    its title, whether it has an upcard, its seats, and every house-rule option it has with
    its kind, help and default."""
    out = {}
    for name in VARIANTS:
        rules = make_rules(name)
        options = [{"name": o.name, "kind": o.kind.__name__, "help": o.help,
                    "default": rules.options.get(o.name)}
                   for o in OPTIONS if name in o.defaults]
        out[name] = {"title": rules.title, "upcard": rules.has_upcard,
                     "seats": list(SEATS[:rules.players]), "options": options}
    return {"variants": out, "suits": list(SUITS), "methods": list(METHODS),
            "outcomes": SHOWN_OUTCOMES,
            "others": DEFAULT_STRATEGY, "worlds": DEFAULT_WORLDS, "deals": DEFAULT_DEALS}


def _one(params: Mapping, name: str) -> str | None:
    values = params.getlist(name) if hasattr(params, "getlist") else (
        [params[name]] if name in params else [])
    if len(values) > 1:
        raise UserError(f"{name} is given {len(values)} times")
    return values[0] if values else None


def _int(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UserError(f"{name} must be a whole number, not {text!r}") from None


def _bool(name: str, text: str) -> bool:
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise UserError(f"{name} must be true or false, not {text!r}")


def rules_of(params: Mapping) -> Rules:
    """The rules a request names: ``variant`` (default bid) and any house-rule option by its
    name (``stick_the_dealer=true``, ``failed_moon_points=4``). UserError when bad."""
    variant = (_one(params, "variant") or "bid").lower()
    given = {}
    for o in OPTIONS:
        text = _one(params, o.name)
        if text is not None and text != "":
            given[o.name] = _bool(o.name, text) if o.kind is bool else _int(o.name, text)
    return make_rules(variant, **given)


def odds_arguments(params: Mapping, max_deals: int, max_worlds: int) -> dict:
    """The keyword arguments of ``questions.odds.odds`` for a request with the options of
    ``euchre odds`` as parameters (dashes as underscores); deals and worlds capped. UserError
    naming the first bad or unknown parameter."""
    known = set(ODDS_TEXT + ODDS_INT + ODDS_BOOL + ODDS_FLOAT + ODDS_LIST) | \
        {o.name for o in OPTIONS}
    for name in params:
        if name in NOT_SERVED:
            raise UserError(f"{name} is not offered by the server: {NOT_SERVED[name]}")
        if name not in known:
            raise UserError(f"unknown parameter {name!r}")
    rules = rules_of(params)
    args: dict = {"rules": rules, "variant": rules.variant}
    for name in ODDS_TEXT:
        text = _one(params, name)
        if text is not None and text != "" and name != "variant":
            args[name] = text
    for name in ODDS_INT:
        text = _one(params, name)
        if text is not None and text != "":
            args[name] = _int(name, text)
    for name in ODDS_BOOL:
        text = _one(params, name)
        if text is not None and text != "":
            args[name] = _bool(name, text)
    for name in ODDS_FLOAT:
        text = _one(params, name)
        if text is not None and text != "":
            try:
                args[name] = float(text)
            except ValueError:
                raise UserError(f"{name} must be a number, not {text!r}") from None
    if "discards" in args:  # every detail of a call played on every deal, as the CLI's flag
        args["all_details"] = args.pop("discards")
    given = params.getlist("given") if hasattr(params, "getlist") else params.get("given", [])
    args["given"] = [g for g in given if g]
    if "hand" not in args:
        raise UserError("hand is required, e.g. hand=JS AS KS 9H TD")
    deals = args.setdefault("deals", None if args.get("exact") else DEFAULT_DEALS)
    if deals is not None and not 1 <= deals <= max_deals:
        raise UserError(f"deals must be between 1 and {max_deals:,} on this server")
    if not 1 <= args.get("worlds", DEFAULT_WORLDS) <= max_worlds:
        raise UserError(f"worlds must be between 1 and {max_worlds:,} on this server")
    if args.get("seed", 0) < 0:
        raise UserError("seed must be 0 or more")
    return args


def table_state(params: Mapping) -> dict:
    """The state of a question being built: the variant's deck (card ids and texts, in
    display order; both copies of a double-deck card), the hand size, and, when the seat,
    dealer and upcard are known, whose turn it is after the calls heard and the calls that
    seat may say (``your_turn``: the player's own decision is reached)."""
    rules = rules_of(params)
    deck = card_ids(int(L.deck_mask(rules.deck)))
    out = {"variant": rules.variant, "hand_size": rules.hand_size, "upcard": rules.has_upcard,
           "seats": list(SEATS[:rules.players]),
           "deck": [{"id": c, "text": format_card(c),
                     "red": c != L.JOKER and SUITS[L.natural_suit(c)] in RED_SUITS}
                    for c in deck],
           "turn": None, "calls": [], "your_turn": False, "auction": ""}
    seat_text, dealer_text = _one(params, "seat"), _one(params, "dealer")
    upcard = _one(params, "upcard")
    if not seat_text or not dealer_text or (rules.has_upcard and not upcard):
        return out
    try:
        seat, dealer = parse_seat(seat_text), parse_seat(dealer_text)
    except NotationError as e:
        raise UserError(str(e)) from None
    up = -1
    if rules.has_upcard:
        matches = [c for c in deck if format_card(c) == upcard.upper()]
        if not matches:
            raise UserError(f"upcard {upcard!r} is not a card of this deck")
        up = matches[0]
    heard = parse_heard(_one(params, "auction") or "", rules)
    point = DecisionPoint(rules, dealer, seat, 0, up, heard)
    turn = auction_turn(point)
    out["auction"] = heard_text(heard, rules)
    if turn is None:
        return out
    out["turn"] = SEATS[turn]
    out["your_turn"] = turn == seat
    state = state_of(DecisionPoint(rules, dealer, turn, 0, up, heard))
    if state.kind == "call":
        out["calls"] = call_choices(rules, state.codes())
    return out

