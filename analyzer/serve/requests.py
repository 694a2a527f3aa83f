"""What the page and the API ask, turned into the analyzer's own calls: the table state of a
question being built (the deck, whose turn it is and the calls they may say), the odds of a
decision point and the review of a record (its JSON body). Every rule comes from the analyzer
(variant specs, the engine's legal calls, the notation); this module only reads requests,
strictly (ASCII whole numbers in range, names from lists, never a path of the server's)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from kernels.cards import codes as KC
from kernels.cards import layout as L

from ..compute.point import Turn, turn_of
from ..compute.seeds import MAX_SEED
from ..errors import TooLong, UserError
from ..game.decision_point import DecisionPoint, dealer_took_upcard, parse_played
from ..game.game_score import units_of
from ..game.heard import call_choices, heard_text, parse_heard
from ..game.notation import (
    RED_SUITS,
    SEATS,
    SUITS,
    CardReader,
    NotationError,
    card_ids,
    format_card,
    format_hand,
    parse_seat,
)
from ..game.outcomes import SHOWN_OUTCOMES
from ..game.records import call_text
from ..game.variants import LADDER, OPTIONS, VARIANTS, Rules, make_rules
from ..numbers import json_number, read_number
from ..questions.odds.odds_request import ODDS_FIELDS, OddsRequest, request
from ..questions.odds.options import call_label, call_name
from ..strategy.defaults import (
    DECISION_NAMES,
    DEFAULT_METHOD,
    DEFAULT_STRATEGY,
    DEFAULT_WORLDS,
    METHODS,
)

DEFAULT_DEALS = 10_000
PUBLISHED = Path(__file__).resolve().parent.parent / "strategy" / "published"
# how the cards are played, in a card player's words (the page's choices)
# (each short enough for a phone's list: 390 px wide)
METHOD_WORDS = {"dd": "perfect (everyone sees every card)",
                "heuristic": "realistic (heuristic players)",
                "pimc": "sampled (PIMC players)",
                "analyzer": "learned (the analyzer's player)"}
STRATEGY_WORDS = {"analyzer": "the analyzer's best",
                  "table": "the analyzer's tables alone",
                  "points": "a point count",
                  "random": "random legal calls"}


@dataclass(frozen=True)
class Limits:
    """What one request may ask of this server: deals and PIMC worlds, the seconds a question
    may be estimated to take, and the folder of strategy files it may name (None: none
    but the shipped ones)."""

    max_deals: int = 200_000
    max_worlds: int = 1_000
    max_seconds: float = 15 * 60
    strategies: Path | None = None

    def strategy_files(self) -> dict[str, Path]:
        """The strategy files a request may name, by file name: the published ones shipped
        with the package, then those of the ``strategies`` folder."""
        files = {p.name: p for p in sorted(PUBLISHED.glob("*.toml"))}
        if self.strategies is not None:
            files.update({p.name: p for p in sorted(Path(self.strategies).glob("*.toml"))})
        return files

    def strategy(self, name: str) -> str:
        """The ``others`` a request names, as the analyzer reads it: a built-in strategy's
        name, or the path of one of :meth:`strategy_files`; UserError for anything else (a
        request never names a path of the server's)."""
        if name.lower() in DECISION_NAMES:
            return name.lower()
        files = self.strategy_files()
        if name in files:
            return str(files[name])
        choices = ", ".join([*DECISION_NAMES, *files])
        raise UserError(f"others must be one of: {choices}")


@contextlib.contextmanager
def limited(limits: Limits):
    """Within this block a question estimated to take longer than ``limits.max_seconds`` is
    refused, in the server's words (the command line's remedy, ``--force``, is not the
    page's)."""
    from ..compute.runner import duration_text, size_limit

    try:
        with size_limit(limits.max_seconds):
            yield
    except TooLong as e:
        raise UserError(f"{e}; this server answers questions of up to "
                        f"{duration_text(limits.max_seconds)}: ask for fewer deals") from None


def spec(limits: Limits | None = None) -> dict:
    """The variants and their house rules, as the page builds its form from them: per variant
    its title and short name (a phone's list shows it), whether it has an upcard, its
    seats, every house-rule option it has with its kind, help and default, and its game's
    scores (how many, the target, whether they fall); the ways to play the cards and the
    strategies the other calls may be made by, each with its words."""
    out = {}
    for name in VARIANTS:
        rules = make_rules(name)
        options = [{"name": o.name, "label": o.label or o.name.replace("_", " "),
                    "kind": o.kind.__name__, "help": served_text(o.help),
                    "default": rules.options.get(o.name)}
                   for o in OPTIONS if name in o.defaults]
        out[name] = {"title": rules.title, "short": re.split(r",| \(", rules.title)[0],
                     "upcard": rules.has_upcard,
                     "seats": list(SEATS[:rules.players]), "options": options,
                     "scores": units_of(rules), "target": rules.target,
                     "scores_fall": bool(rules.points_table.min() < 0)}
    files = (limits or Limits()).strategy_files()
    strategies = [{"value": k, "text": v} for k, v in STRATEGY_WORDS.items()] + \
        [{"value": name, "text": f"the file {name}"} for name in files]
    return {"variants": out, "suits": list(SUITS),
            "methods": [{"value": m, "text": METHOD_WORDS[m]} for m in METHODS],
            "strategies": strategies, "outcomes": SHOWN_OUTCOMES,
            "fields": page_fields(limits or Limits()),
            "others": DEFAULT_STRATEGY, "worlds": DEFAULT_WORLDS, "deals": DEFAULT_DEALS}


def _one(params: Mapping, name: str) -> str | None:
    values = params.getlist(name) if hasattr(params, "getlist") else (
        [params[name]] if name in params else [])
    if len(values) > 1:
        raise UserError(f"{name} is given {len(values)} times")
    return values[0] if values else None


def _int(name: str, text: str, top: int = MAX_SEED) -> int:
    """A parameter's whole number from 0 to ``top``, by the one rule (``analyzer.numbers``:
    ASCII digits, no spaces; int() also takes ' 5', '١٠٠' and '1_000')."""
    return read_number(text, name, int, 0, top)


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


def _value(field, text: str):
    """A request parameter's text as the field's kind, strictly (ASCII digits, numbers in
    plain notation); UserError naming it."""
    name = field.http_name
    if field.kind is bool:
        return _bool(name, text)
    if field.kind is int:
        return _int(name, text, MAX_SEED if field.high is None else int(field.high))
    if field.kind is float:
        return read_number(text, name, float, field.low or 0, field.high)
    return text


def odds_request_of(params: Mapping, limits: Limits) -> OddsRequest:
    """The odds question of a request whose parameters are the question's fields (their
    HTTP names, ``ODDS_FIELDS``), ``hand``, ``variant`` and the house rules; deals, worlds
    and their product capped by ``limits``, ``others`` one of its strategies. UserError
    naming the first bad, refused or unknown parameter."""
    fields = {f.http_name: f for f in ODDS_FIELDS}
    known = set(fields) | {"hand", "variant"} | {o.name for o in OPTIONS}
    for name in params:
        if name in fields and fields[name].served:
            raise UserError(f"{name} is not offered by the server: {fields[name].served}")
        if name not in known:
            raise UserError(f"unknown parameter {name[:40]!r}")
    rules = rules_of(params)
    options: dict = {}
    for name, f in fields.items():
        if f.repeat:
            given = params.getlist(name) if hasattr(params, "getlist") else params.get(name, [])
            options[f.name] = [g for g in ([given] if isinstance(given, str) else given) if g]
            continue
        text = _one(params, name)
        if text is not None and text != "":
            options[f.name] = _value(f, text)
    hand = _one(params, "hand")
    if not hand:
        raise UserError("hand is required, e.g. hand=JS AS KS 9H TD")
    if not options.get("exact"):
        options.setdefault("deals", DEFAULT_DEALS)
    deals, worlds = options.get("deals"), options.get("worlds", DEFAULT_WORLDS)
    if deals is not None and not 1 <= deals <= limits.max_deals:
        raise UserError(f"deals must be between 1 and {limits.max_deals:,} on this server")
    if not 1 <= worlds <= limits.max_worlds:
        raise UserError(f"worlds must be between 1 and {limits.max_worlds:,} on this server")
    if options.get("method") == "pimc" and (deals or 0) * worlds > limits.max_deals * 10:
        raise UserError(f"{deals:,} deals of {worlds:,} PIMC worlds each is more than this "
                        f"server plays for one question (deals x worlds at most "
                        f"{limits.max_deals * 10:,})")
    if "others" in options:
        options["others"] = limits.strategy(options["others"])
    return request(rules, hand, options)


def _flag_words() -> dict[str, str]:
    """Each command-line flag of the question and of the house rules (without its dashes),
    as the server names it: the field's words (``--score``: the score), a house rule's label
    in quotes, else the HTTP parameter (a switch with its value: ``all_calls=true``,
    ``no-infer``: ``infer=false``)."""
    out = {}
    for f in ODDS_FIELDS:
        flag = f.cli_flag[2:]
        out[flag] = f.words or (f"{f.http_name}=true" if f.kind is bool else f.http_name)
        if f.kind is bool:
            out["no-" + flag] = f"{f.http_name}=false"
    for o in OPTIONS:
        out[o.name.replace("_", "-")] = f'"{o.label or o.name}"'
    return out


FLAG_WORDS = _flag_words()
_FLAG = re.compile(r"--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")


def served_text(text: str) -> str:
    """An error or note of the analyzer, which names the command line's flags, in the
    server's words (the page's and the API's): each flag it knows named as
    :data:`FLAG_WORDS` has it (``--score '11-3': the game is over`` -> ``the score '11-3':
    the game is over``)."""
    return _FLAG.sub(lambda m: FLAG_WORDS.get(m.group(1), m.group(0)), text)


def served(work: Callable[[], dict]) -> Callable[[], dict]:
    """``work`` (an answer's dict, or UserError) with its error and its notes in the
    server's words (:func:`served_text`)."""
    def worded() -> dict:
        try:
            result = work()
        except UserError as e:
            raise UserError(served_text(str(e))) from None
        for key in ("notes", "inferred"):
            if isinstance(result.get(key), list):
                result[key] = [served_text(str(n)) for n in result[key]]
        return result
    return worded


def page_fields(limits: Limits) -> list[dict]:
    """The question's options the page's form offers (``Field.page``), as it builds them:
    the HTTP name, its words (the label), kind, default, help, range and choices (each
    ``{value, text}``: the ways to play and the strategies in words)."""
    words = {"method": [{"value": m, "text": METHOD_WORDS[m]} for m in METHODS],
             "others": [{"value": k, "text": v} for k, v in STRATEGY_WORDS.items()] +
             [{"value": n, "text": f"the file {n}"} for n in limits.strategy_files()]}
    return [{"name": f.http_name, "words": f.words or f.http_name, "kind": f.kind.__name__,
             "default": f.default, "help": served_text(f.help), "low": f.low, "high": f.high,
             "choices": words.get(f.name, [{"value": c, "text": c} for c in f.choices])}
            for f in ODDS_FIELDS if f.page]


def table_state(params: Mapping) -> dict:
    """The state of a question being built: the variant's deck (card ids and texts, in
    display order; both copies of a double-deck card), the hand size, and, when the seat,
    dealer and upcard are known, whose turn it is after the calls heard and the calls that
    seat may say (``your_turn``: the player's own decision is reached; ``phase``:
    ``auction``). Once the auction is over (``phase``: ``play``), ``play`` is
    :func:`play_state`'s: the contract, the cards played, whose turn it is to play and the
    cards that seat may play (parameters ``dealt`` or ``hand``, ``played``, ``discarded``,
    ``trump``). The engine is asked once (``compute.point.turn_of``), and everything but the
    deck is read from that one run."""
    rules = rules_of(params)
    deck = card_ids(int(L.deck_mask(rules.deck)))
    out = {"variant": rules.variant, "rules": rules.options, "hand_size": rules.hand_size,
           "upcard": rules.has_upcard, "deals": page_deals(rules), "decision": None,
           "seats": list(SEATS[:rules.players]),
           "deck": [{"id": c, "text": format_card(c),
                     "red": c != L.JOKER and SUITS[L.natural_suit(c)] in RED_SUITS}
                    for c in deck],
           "turn": None, "calls": [], "call_words": [], "heard": [], "your_turn": False,
           "auction": "", "phase": None,
           "play": None}
    before = _point_before(rules, deck, params)
    if before is None:
        return out
    point, note = _table_point(before, params)
    turn = turn_of(point)  # the request's one trip to the engine
    out["auction"] = heard_text(before.heard, rules)
    out["heard"] = _heard_words(rules, before.dealer, before.upcard, before.heard)
    if turn.seat is None and not point.played:
        return out
    if turn.state is not None and turn.state.kind == "call":
        out.update(turn=SEATS[turn.seat], your_turn=turn.seat == before.seat, decision="call",
                   phase="auction", calls=call_choices(rules, turn.state.codes()))
        out["call_words"] = [_choice_words(rules, before.dealer, before.upcard, turn.seat, c)
                             for c in out["calls"]]
        return out
    out["phase"] = "play"
    out.update(play_state(before, point, note, turn, params))
    return out


def _point_before(rules: Rules, deck: list[int], params: Mapping) -> DecisionPoint | None:
    """The player's point with the calls heard and no cards (``seat``, ``dealer``, the
    ``upcard`` and ``auction`` parameters), or None while one of the first three is missing.
    UserError when one is not what it should be."""
    seat_text, dealer_text = _one(params, "seat"), _one(params, "dealer")
    upcard = _one(params, "upcard")
    if not seat_text or not dealer_text or (rules.has_upcard and not upcard):
        return None
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
    return DecisionPoint(rules, dealer, seat, 0, up, parse_heard(_one(params, "auction") or "",
                                                                 rules))


def _table_point(before: DecisionPoint, params: Mapping) -> tuple[DecisionPoint, str | None]:
    """``(point, note)``: the point the request's one run opens, the player's with its cards
    and the play so far when the request gives them (:func:`_player_point`), else ``before``
    and what is missing for the play (``note``; in bid and ghost a trump not named yet, which
    the play needs first, is no note: the run says whether the bidding is over)."""
    if before.rules.auction == LADDER and not _one(params, "trump"):
        return before, None
    point = _player_point(before, params)
    return (before, point) if isinstance(point, str) else (point, None)


SUIT_WORDS = dict(zip(SUITS, ("clubs", "diamonds", "hearts", "spades"), strict=True))


def _call_words(rules: Rules, dealer: int, upcard: int, seat: int, code: int,
                alone: bool = False) -> str:
    """Call ``code`` said by ``seat`` (``alone``: going alone) in the answers' words
    (``pick it up alone S``: ``options.call_label``)."""
    trump = -1 if rules.auction == LADDER else int(KC.call_trump(code, upcard))
    return call_label(rules, code, trump, seat == dealer, alone and code != KC.PASS)


def _choice_words(rules: Rules, dealer: int, upcard: int, seat: int, call: str) -> str:
    """A call the seat may say, in the calls heard's notation (``order alone``), in the
    answers' words."""
    heard = parse_heard(f"{SEATS[seat]} {call}", rules)
    return _call_words(rules, dealer, upcard, seat, heard.calls[0], bool(heard.alone))


def _heard_words(rules: Rules, dealer: int, upcard: int, heard) -> list[str]:
    """The calls heard, each ``SEAT call`` in the answers' words."""
    return [f"{SEATS[s]} {_call_words(rules, dealer, upcard, s, c, bool(heard.alone >> s & 1))}"
            for s, c in zip(heard.seats, heard.calls, strict=True)]


def _contract(point: DecisionPoint, playing: int) -> dict:
    """The contract the calls heard at ``point`` made, in the page's words: the maker (the
    seat of the last call that is not a pass), its call, the trump (the call's, or in bid
    and ghost the suit named: ``point.named``) and whether fewer seats than the game's
    play (``playing``: someone went alone)."""
    rules, heard = point.rules, point.heard
    made = [(s, c) for s, c in zip(heard.seats, heard.calls, strict=True)
            if call_text(c, rules) not in ("pass", "swap")]
    if not made:
        return {}
    maker, call = made[-1]
    trump = point.named if rules.auction == LADDER else int(KC.call_trump(call, point.upcard))
    alone = 0 < playing < rules.players or bool(heard.alone >> maker & 1)
    # the call as the answers name it; its trump in words after it
    words = f"{SEATS[maker]} {call_name(rules, call, maker == point.dealer, alone)}"
    if trump >= 0:
        words += f", trump {SUIT_WORDS[SUITS[trump]]}"
    return {"maker": SEATS[maker], "call": call_text(call, rules), "alone": alone,
            "trump": SUITS[trump] if trump >= 0 else None, "text": words}


def _cards_text(rules: Rules, mask: int) -> list[str]:
    """The cards of ``mask`` as texts in the deck's display order (a double deck's two
    copies of a card once)."""
    out: list[str] = []
    for c in card_ids(mask & int(L.deck_mask(rules.deck))):
        text = format_card(c)
        if text not in out:
            out.append(text)
    return out


def _player_point(before: DecisionPoint, params: Mapping) -> DecisionPoint | str:
    """The player's decision point with its cards and the play so far (checked by
    ``questions.odds.answer.decision_point``: one line when wrong), from ``dealt`` (the cards as
    dealt, the page's hand: the hand held now is worked out here) or ``hand`` (the cards held
    now, as ``/api/odds`` takes them), with ``played``, ``discarded`` and, in bid and ghost,
    ``trump`` (the suit the winner named). A sentence instead when the player's cards are not
    all given yet."""
    from ..questions.odds.answer import decision_point

    rules, seat = before.rules, before.seat
    dealt_text, hand_text = _one(params, "dealt"), _one(params, "hand")
    played = _one(params, "played") or ""
    discarded = _one(params, "discarded") or None
    if dealt_text and hand_text:
        raise UserError("give dealt (the cards as dealt) or hand (the cards held now), "
                        "not both")
    if not dealt_text and not hand_text:
        return f"choose your {rules.hand_size} cards: the play needs your hand"
    if dealt_text:
        try:
            dealt = CardReader(rules).cards(dealt_text)
            away = CardReader(rules).cards(discarded) if discarded else 0
        except NotationError as e:
            raise UserError(str(e)) from None
        if dealt.bit_count() != rules.hand_size:
            return (f"choose your {rules.hand_size} cards ({dealt.bit_count()} so far): the "
                    f"play needs your hand")
        plays, _ = parse_played(played, rules) if played.strip() else ((), [])
        mine = sum(1 << c for s, c in plays if s == seat)
        took = seat == before.dealer and dealer_took_upcard(before)
        held = (dealt | (1 << before.upcard if took else 0)) & ~away & ~mine
        hand_text = format_hand(held)
    trump = _one(params, "trump") if rules.auction == LADDER else None
    point = decision_point(rules, hand_text, SEATS[seat], SEATS[before.dealer],
                           format_card(before.upcard) if before.upcard >= 0 else None,
                           heard_text(before.heard, rules),
                           {"played": played or None, "discarded": discarded,
                            "named": trump or None})
    return replace(point, trick_sizes=())  # the tricks are the engine's, as it plays them


def _others_cards(point: DecisionPoint, turn: Turn) -> int:
    """The cards another seat, ``turn``'s, may play as far as the player can tell: those not
    seen (not held, played or put away by the player, nor the upcard unless that seat is the
    dealer who took it), less the suits it showed out of (the engine's, from the run)."""
    rules, up = point.rules, point.upcard
    took = dealer_took_upcard(point)
    played = sum(1 << c for _, c in point.played)
    unseen = int(L.deck_mask(rules.deck)) & ~point.hand & ~played & ~point.discarded
    if up >= 0 and not (turn.seat == point.dealer and took):
        unseen &= ~(1 << up)
    return unseen & ~turn.state.voids[turn.seat]


def _tricks(point: DecisionPoint, playing: int, turn: int | None) -> list[dict]:
    """The cards played as the engine's tricks (``playing`` cards each), each with its
    winner where it is known: the next trick's leader, or the seat to play now after a
    trick just taken."""
    plays = point.played
    size = playing or len(plays) or 1
    tricks = [plays[i:i + size] for i in range(0, len(plays), size)]
    out = []
    for k, trick in enumerate(tricks):
        winner = None
        if len(trick) == size and k + 1 < len(tricks):
            winner = SEATS[tricks[k + 1][0][0]]
        elif len(trick) == size and turn is not None:
            winner = SEATS[turn]
        out.append({"cards": [{"seat": SEATS[s], "card": format_card(c)} for s, c in trick],
                    "winner": winner})
    return out


def play_state(before: DecisionPoint, point: DecisionPoint, note: str | None, turn: Turn,
               params: Mapping) -> dict:
    """Once the auction is over (``before``: the player's point with the calls heard and no
    cards; ``point``: the one the request's run opened, with the player's cards and the play
    so far, or ``before`` with ``note`` saying what is missing; ``turn``: what the run says
    comes next): the contract, the cards played as tricks, whose turn it is to play (or the
    player's discard as the dealer who took the upcard) and the cards that seat may play —
    the player's legal cards from its hand, another seat's the cards it may hold (unseen,
    less the suits it showed out of); the hand held now (``held``) and as dealt
    (``dealt``) for the question. In bid and ghost the trump the winner named (``trump``)
    comes first."""
    rules = before.rules
    kind = turn.state.kind if turn.state is not None else None
    out: dict = {"turn": None if turn.seat is None else SEATS[turn.seat], "decision": kind,
                 "your_turn": turn.seat == before.seat}
    play = {"contract": _contract(before, 0), "tricks": [], "played": "",
            "cards": [], "held": "", "dealt": "", "discarded": "", "note": None,
            "need_trump": False, "over": False, "tricks_in_hand": rules.hand_size}
    out["play"] = play
    if rules.auction == LADDER and not _one(params, "trump"):
        play["need_trump"] = True
        out.update(turn=play["contract"].get("maker"), your_turn=False, decision="trump")
        return out
    if rules.auction == LADDER and play["contract"].get("call") == "ask":
        play["note"] = "the play after a 6-ask is not on the page yet (use euchre odds)"
        return out
    if note is not None:
        play["note"] = note
        return out
    play.update(held=format_hand(point.hand), dealt=format_hand(point.dealt_hand()),
                discarded=format_hand(point.discarded))
    playing = turn.state.playing if turn.state is not None else 0
    play["contract"] = _contract(point, playing)
    play["tricks"] = _tricks(point, playing, turn.seat)
    play["played"] = "; ".join(", ".join(f"{p['seat']} {p['card']}" for p in t["cards"])
                               for t in play["tricks"])
    mine = turn.seat == point.seat
    out["your_turn"] = mine and kind in ("card", "discard", "defend")
    if turn.seat is None:
        play["over"] = True
        return out
    play["note"] = _unentered(kind, mine, turn.seat)
    if play["note"] is None:
        play["cards"] = _cards_text(rules, turn.state.allowed if mine else
                                    _others_cards(point, turn))
    return out


def _unentered(kind: str, mine: bool, seat: int) -> str | None:
    """What the page cannot enter yet at a decision of ``kind`` (``mine``: the player's, else
    ``seat``'s), in words; None for a card or a discard, which it can."""
    if kind == "defend":
        return ("ask whether to defend alone; the page cannot enter the play after it yet"
                if mine else f"{SEATS[seat]} decides whether to defend alone: the page "
                f"cannot enter that yet")
    if kind not in ("card", "discard"):
        return ("a cutthroat maker's dummy: the page cannot enter it yet (euchre odds "
                "--dummy takes it)")
    return None


DOUBLE_DECK_DEALS = 2_000


def page_deals(rules: Rules) -> int:
    """The deals the page asks by default: a few seconds' work with the default card play,
    the analyzer's (a double-deck deal costs about ten times a single deck's: 10,000 of them
    took 9.5 s here; double dummy, over a hundred times)."""
    return DOUBLE_DECK_DEALS if rules.hand_size > 6 else DEFAULT_DEALS



REVIEW_KEYS = {"record", "which", "method", "worlds", "seed", "call_deals", "others"}
MAX_DEPTH = 32  # a record is a few levels deep; a body nested deeper is not one


def _depth(value, limit: int) -> int:
    """How deep ``value`` nests (lists and objects), counted up to ``limit + 1``, without
    recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level > limit:
                return level
            todo.extend((v, level + 1) for v in (item.values() if isinstance(item, dict)
                                                 else item))
    return deepest


def review_work(body, limits: Limits):
    """``(label, work)``: the review job of a request body (see ``/api/review``); UserError
    when bad."""
    from ..game.records import load_record, read_json
    from ..outputs import strict
    from ..questions.review.review_calls import CALL_DEALS
    from ..questions.review.review_hand import review
    from ..strategy.defaults import REVIEW_WORLDS

    if not isinstance(body, dict) or "record" not in body:
        raise UserError('the body must be a JSON object with the record: {"record": ...}')
    if _depth(body, MAX_DEPTH) > MAX_DEPTH:
        raise UserError("the body is nested too deeply to be a record")
    unknown = set(body) - REVIEW_KEYS
    if unknown:
        raise UserError(f"unknown field {sorted(unknown)[0][:40]!r}")
    records = _record_texts(body["record"]) if isinstance(body["record"], str) \
        else [body["record"]]
    count, which = len(records), body.get("which", 1)
    if not isinstance(which, int) or isinstance(which, bool) or not 1 <= which <= count:
        raise UserError(f"which must be a whole number from 1 to {count:,} (the records "
                        f"given)")
    data = records[which - 1]
    if isinstance(data, str):
        data = read_json(data, "the record")
    if isinstance(data, UserError):
        raise UserError(f"record {which} of {count}: {data}")
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise UserError("the record is nested too deeply to be one")
    if not isinstance(data, dict):
        raise UserError("the record must be a JSON object (a record of euchre play --json)")
    method = body.get("method", DEFAULT_METHOD)
    numbers = {key: json_number(body.get(key, default), key, 0, top)
               for key, default, top in (("worlds", REVIEW_WORLDS, limits.max_worlds),
                                         ("seed", 0, MAX_SEED),
                                         ("call_deals", CALL_DEALS, limits.max_deals))}
    others = body.get("others", DEFAULT_STRATEGY)
    if not isinstance(method, str) or not isinstance(others, str):
        raise UserError("method and others are names, e.g. dd and analyzer")
    others = limits.strategy(others)
    record = load_record(data)

    def work() -> dict:
        with limited(limits):
            result = review(record, method, max(1, numbers["worlds"]), numbers["seed"],
                            numbers["call_deals"], others)
        several = {"records": count, "which": which} if count > 1 else {}
        return {**strict(result.to_dict()), **several}
    return "a review of a hand", work


def _record_texts(text: str) -> list:
    """The records a text holds, as ``euchre review`` reads a file: one JSON value (a record
    on one line or indented over several: the text itself), or several, one a line or each
    indented (each a parsed value, or the UserError of one that is not JSON)."""
    from ..game.records import json_records

    try:
        json.loads(text)
        return [text]
    except (ValueError, RecursionError):
        pass
    found = [value for _, value in json_records(io.StringIO(text))]
    return found if len(found) > 1 else [text]
