"""Card, hand, seat and deal notation: parsing what people type and printing one canonical form.

A card is rank + suit: ranks ``7 8 9 T J Q K A`` (``10`` for T), suits ``C D H S`` or
``♣ ♦ ♥ ♠``, any case; the joker is ``JK`` (or ``🃏``, ``joker``). Canonical output is upper case
with ``T`` for ten, e.g. ``TH``. Cards are natural ids of ``kernels.cards.layout``; in the double
deck the second time a card is written it means the second copy.

A deal is written seat by seat, parts separated by ``/``, ``;`` or new lines, cards by spaces or
commas::

    N: JH JD AH KH QH 9S / E: 9D TD QD KD AD JC / S: ... / W: ... / up: 9H

Labels: the seats ``N E S W`` (or their names), ``up`` (the upcard), ``kitty``, ``ghost`` (ghost:
seat W), ``dummy`` (cutthroat: seat W), ``discard``. Errors raise :class:`NotationError` with one
line naming the bad token and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kernels.cards import layout as L

from ..errors import UserError
from .variants import W_LABELS, Rules

SEATS = "NESW"
SEAT_NAMES = ("north", "east", "south", "west")
SUITS = "CDHS"
RED_SUITS = "DH"  # how cards are drawn: diamonds and hearts in red
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = {"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S"}
RANKS = "789TJQKA"
JOKER_WORDS = {"JK", "JOKER", "🃏"}
_SPLIT_CARDS = re.compile(r"[\s,]+")
_SPLIT_PARTS = re.compile(r"[/;\n]+")


class NotationError(UserError):
    """Input that is not a card, hand, seat or deal of the variant; the message is one line."""


class CardUsedUp(NotationError):
    """A card written once more than the deck has copies of it (once, or twice in the double
    deck): a deal, record or hand holds every card at most that often."""


def parse_seat(text: str) -> int:
    """Seat index 0..3 from ``N``/``north`` etc. (any case)."""
    t = text.strip().lower()
    for i, (letter, name) in enumerate(zip(SEATS.lower(), SEAT_NAMES, strict=True)):
        if t in (letter, name):
            return i
    raise NotationError(f"{text!r} is not a seat: use N, E, S or W")


def parse_suit(text: str) -> int:
    """Suit index 0..3 (C D H S) from a letter, symbol or name (any case)."""
    t = text.strip()
    t = SUIT_SYMBOLS.get(t, t).upper()
    if t in SUITS and len(t) == 1:
        return SUITS.index(t)
    for i, name in enumerate(SUIT_NAMES):
        if t.lower() in (name, name[:-1]):
            return i
    raise NotationError(f"{text!r} is not a suit: use C, D, H or S")


def _card_base(token: str) -> int:
    """Natural id (first copy) of a card token, whatever the deck; NotationError if none."""
    t = token.strip().replace("\ufe0f", "").replace("\ufe0e", "")
    if t.upper() in JOKER_WORDS:
        return L.JOKER
    if len(t) >= 2 and t[-1] in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS[t[-1]]
    else:
        suit = t[-1:].upper()
    rank = t[:-1].upper()
    if rank == "10":
        rank = "T"
    if len(rank) != 1 or rank not in RANKS or suit not in SUITS or not suit:
        raise NotationError(f"{token!r} is not a card: write rank + suit like JH, 10h or A♠ "
                            f"(ranks 9 T J Q K A, suits C D H S)")
    return SUITS.index(suit) * 8 + RANKS.index(rank)


def _deck_name(rules: Rules) -> str:
    extras = []
    if rules.joker:
        extras.append("joker")
    if rules.double_deck:
        extras.append("double deck")
    extra = f" ({', '.join(extras)})" if extras else ""
    return f"the {rules.deck_size}-card deck of {rules.variant}{extra}"


def _deck_hint(base: int, rules: Rules) -> str:
    """Which option would put the missing card in the deck, if the variant has one."""
    if base == L.JOKER and rules.joker is False:
        return " (add --joker)"
    if base != L.JOKER and base % 8 < L.RANK_9 and rules.deck32 is False:
        return " (add --deck32)"
    return ""


class CardReader:
    """Parses cards of one variant's deck, tracking every card already used so that a deal,
    record or hand never holds a card twice (in the double deck: never three times)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.deck = L.deck_mask(rules.deck)
        self.used = 0

    def card(self, token: str) -> int:
        """Natural id of ``token``; marks it used."""
        base = _card_base(token)
        if not self.deck & (1 << base):
            hint = _deck_hint(base, self.rules)
            raise NotationError(f"{token!r} is not in {_deck_name(self.rules)}{hint}")
        copies = (base, base + L.COPY_OFFSET) if self.rules.double_deck else (base,)
        for cid in copies:
            if not self.used & (1 << cid):
                self.used |= 1 << cid
                return cid
        times = "twice" if self.rules.double_deck else "once"
        raise CardUsedUp(f"{token!r} appears more than {times}")

    def cards(self, text: str) -> int:
        """Natural mask of the cards in ``text`` (separated by spaces or commas)."""
        mask = 0
        for token in _SPLIT_CARDS.split(text.strip()):
            if token:
                mask |= 1 << self.card(token)
        return mask


def parse_card(token: str, rules: Rules) -> int:
    """Natural id of one card of the variant's deck."""
    return CardReader(rules).card(token)


def parse_hand(text: str, rules: Rules) -> int:
    """Natural mask of a hand written as cards separated by spaces or commas."""
    return CardReader(rules).cards(text)


def format_card(cid: int) -> str:
    """Canonical text of natural card id ``cid`` (both double-deck copies print alike)."""
    return CARD_TEXT[cid]


# the rule read in Python (py_func): calling the kernel here would compile or load it at import
CARD_TEXT = tuple("JK" if c == L.JOKER else RANKS[c % 8] + SUITS[L.natural_suit.py_func(c)]
                  for c in range(64))


def card_ids(mask: int) -> list[int]:
    """Natural ids of the cards in ``mask``, in canonical display order: the joker, then
    spades, hearts, diamonds, clubs, each from ace down (a double deck's two copies of a card
    together, the first copy first)."""
    m = int(mask)
    ids = []
    if (m >> L.JOKER) & 1:
        ids.append(L.JOKER)
        m ^= 1 << L.JOKER
    for suit in (3, 2, 1, 0):  # natural suits S H D C; a second copy is 32 ids up
        first, second = (m >> (8 * suit)) & 255, (m >> (32 + 8 * suit)) & 255
        for rank in _RANKS_DOWN[first | second]:
            if (first >> rank) & 1:
                ids.append(8 * suit + rank)
            if (second >> rank) & 1:
                ids.append(32 + 8 * suit + rank)
    return ids


# the ranks (0-7) set in each byte of a mask, from the highest down
_RANKS_DOWN = tuple(tuple(r for r in range(7, -1, -1) if (v >> r) & 1) for v in range(256))


def format_hand(mask: int) -> str:
    """Canonical text of a hand mask: cards separated by spaces."""
    return " ".join([CARD_TEXT[c] for c in card_ids(mask)])


@dataclass
class Deal:
    """A parsed deal: natural masks of each seat that was given (0..3), the upcard, kitty,
    discards; ``labels`` keeps what each part was called, for messages."""

    hands: dict[int, int] = field(default_factory=dict)
    upcard: int | None = None
    kitty: int | None = None
    discard: int | None = None

    def seats(self) -> list[int]:
        """The seats that were given, in N E S W order."""
        return sorted(self.hands)

    def all_cards(self) -> int:
        """Union of every card written in the deal."""
        m = 0
        for h in self.hands.values():
            m |= h
        for extra in (self.kitty, self.discard):
            m |= extra or 0
        if self.upcard is not None:
            m |= 1 << self.upcard
        return m


def parse_deal(text: str, rules: Rules) -> Deal:
    """Parse a deal in the seat-by-seat notation of the module docstring for ``rules``' deck.
    Checks every card and that no card is given twice; hand sizes are checked by the caller,
    which knows what point of the hand the deal describes (see :func:`check_hand_sizes`)."""
    reader = CardReader(rules)
    deal = Deal()
    parts = [p.strip() for p in _SPLIT_PARTS.split(text) if p.strip()]
    if not parts:
        raise NotationError("the deal is empty: write it like 'N: JH JD AH KH QH 9S / E: ...'")
    for part in parts:
        if ":" not in part:
            raise NotationError(f"{part!r} has no label: write each part as 'N: cards', "
                                f"'up: 9H', 'kitty: ...'")
        label, _, cards = part.partition(":")
        key = label.strip().lower()
        if key in ("up", "upcard", "turned", "turn-up"):
            if not rules.has_upcard:
                raise NotationError(f"{rules.variant} has no upcard, so {label.strip()!r} "
                                    f"is not a part of its deals")
            tokens = [t for t in _SPLIT_CARDS.split(cards.strip()) if t]
            if len(tokens) != 1:
                raise NotationError(f"the upcard is one card, not {len(tokens)}")
            deal.upcard = reader.card(tokens[0])
            continue
        if key in ("kitty", "discard", "discards"):
            if key == "kitty" and not rules.has_upcard:
                raise NotationError(f"{rules.variant} has no kitty")
            mask = reader.cards(cards)
            if key == "kitty":
                deal.kitty = (deal.kitty or 0) | mask
            else:
                deal.discard = (deal.discard or 0) | mask
            continue
        if key in W_LABELS.values():
            if rules.seat_w_name != key:
                raise NotationError(f"{rules.variant} has no {key} hand, so {key!r} is not a "
                                    f"part of its deals")
            seat = 3
        else:
            try:
                seat = parse_seat(label)
            except NotationError:
                raise NotationError(f"{label.strip()!r} is not a part of a deal: use N, E, S, W, "
                                    f"up, kitty, ghost, dummy or discard") from None
        if seat in deal.hands:
            raise NotationError(f"seat {SEATS[seat]} is given twice")
        deal.hands[seat] = reader.cards(cards)
    return deal


def check_hand_sizes(deal: Deal, sizes: dict[int, int], what: str) -> None:
    """Raise NotationError unless each seat in ``sizes`` is given with exactly that many cards
    (``what`` names the situation for the message, e.g. 'knock hands at the first lead')."""
    for seat, n in sizes.items():
        if seat not in deal.hands:
            raise NotationError(f"seat {SEATS[seat]} is missing: {what} need "
                                f"{', '.join(SEATS[s] for s in sizes)}")
        got = bin(deal.hands[seat]).count("1")
        if got != n:
            raise NotationError(f"{SEATS[seat]} holds {got} cards; {what} have {n}")
    extra = set(deal.hands) - set(sizes)
    if extra:
        raise NotationError(f"seat {SEATS[min(extra)]} has no hand here: {what} are "
                            f"{', '.join(SEATS[s] for s in sizes)}")
