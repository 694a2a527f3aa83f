"""A decision point: the moment a player has to choose, with what they know — the rules, the
dealer, their seat and the cards they hold now, the upcard, the calls heard so far
(``analyzer.game.heard`` reads and writes them) and, once the play has begun, the cards
played, the trump a bid's winner named and the cards the player put away."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kernels.bidding.exchange_rules import made_on_upcard
from kernels.cards import codes as K
from kernels.cards import layout as L

from ..errors import UserError
from .heard import Heard, heard_text
from .notation import (
    SEATS,
    CardReader,
    CardUsedUp,
    NotationError,
    format_card,
    format_hand,
    parse_seat,
)
from .variants import Rules


@dataclass(frozen=True)
class DecisionPoint:
    """A player's decision: the rules, the dealer, the player's seat and the cards it holds
    now (a natural mask: at a call the hand as dealt, a dealer about to discard the six with
    the upcard), the upcard (-1: none), the calls heard so far, the cards played since
    (``played``: ``(seat, card)`` in play order from the first lead), the trump a ladder
    auction's winner named (``named``, -1: not known) and the cards the player put away
    (``discarded``, a natural mask: its discard as the dealer, the cards a cutthroat maker
    dropped, the card an n-asker gave); a cutthroat maker who took the dummy knows its cards
    (``dummy``); an n-asker knows the card its partner passed it (``received``, a natural
    mask of one card; 0: none); a player who swapped for the ghost hand knows the hand it
    gave up (``swapped``: its cards as dealt, now dead; 0: none)."""

    rules: Rules
    dealer: int
    seat: int
    hand: int
    upcard: int = -1
    heard: Heard = field(default_factory=Heard)
    played: tuple = ()
    named: int = -1
    discarded: int = 0
    trick_sizes: tuple = ()  # the cards of each trick of ``played`` as written (checked later)
    dummy: int = 0  # a cutthroat maker who took it: the dummy's cards (natural mask)
    score: tuple = ()  # the game's score before the hand, per unit (``game.game_score``); () none
    received: int = 0  # an n-asker: the card its partner passed it (natural mask)
    swapped: int = 0  # a player who took the ghost hand: the hand it gave up (natural mask)

    def describe(self) -> str:
        """The point in words: seat, dealer, upcard, the calls heard and the cards played."""
        where = f"{SEATS[self.seat]} ({format_hand(self.hand)}), dealer {SEATS[self.dealer]}"
        if self.upcard >= 0:
            where += f", upcard {format_card(self.upcard)}"
        calls = heard_text(self.heard, self.rules)
        where += f"; heard: {calls}" if calls else "; first to speak"
        return where + (f"; played: {played_text(self.played)}" if self.played else "")

    @property
    def in_play(self) -> bool:
        """Whether the play has begun for the player (cards played, or its own cards put away,
        or a bid's trump named)."""
        return bool(self.played) or self.named >= 0 or self.discarded != 0 or \
            self.received != 0

    def dealt_hand(self) -> int:
        """The player's cards as dealt (natural mask): those it holds now, has played and has
        put away, less the upcard when it is the dealer who took it and the card its partner
        passed it in an n-ask; a player who swapped for the ghost hand: the hand it gave up."""
        if self.swapped:
            return self.swapped
        mine = 0
        for seat, card in self.played:
            if seat == self.seat:
                mine |= 1 << card
        dealt = (self.hand | mine | self.discarded) & ~self.received
        if self.seat == self.dealer and self.upcard >= 0 and dealer_took_upcard(self):
            dealt &= ~(1 << self.upcard)
        return dealt


def swapper_of(heard: Heard) -> int:
    """The seat that swapped for the ghost hand in the calls ``heard`` (-1: nobody)."""
    return next((s for s, c in zip(heard.seats, heard.calls, strict=True) if c == K.SWAP), -1)


def ghost_taken(point: DecisionPoint) -> tuple[int, int]:
    """Who swapped for the ghost hand in the calls heard at ``point`` (-1: nobody), and the
    ghost hand's cards the player knows (a natural mask: when it swapped itself, the ghost
    hand as dealt — those it holds and has played; else none)."""
    swapper = swapper_of(point.heard)
    if swapper != point.seat:
        return swapper, 0
    return swapper, point.hand | sum(1 << c for s, c in point.played if s == point.seat)


def n_asker(point: DecisionPoint) -> int:
    """The seat that won the auction heard at ``point`` with an n-ask (its partner passed it a
    card for the one it gave), or -1."""
    calls = [(seat, c) for seat, c in zip(point.heard.seats, point.heard.calls, strict=True)
             if c != K.PASS]
    if calls and calls[-1][1] == K.ASK and point.rules.partnership:
        return calls[-1][0]
    return -1


def dealer_took_upcard(point: DecisionPoint) -> bool:
    """Whether the calls heard at ``point`` made trump on the upcard, so the dealer took it:
    an order (round 1), or a turned-up joker's name (``kernels.bidding.exchange_rules``)."""
    if not point.rules.has_upcard or point.upcard < 0:
        return False
    making = [c for c in point.heard.calls if c not in (K.PASS, K.SWAP)]
    if not making:
        return False
    round_made = 1 if making[0] == K.ORDER or point.upcard == L.JOKER else 2
    return bool(made_on_upcard(point.upcard, int(K.call_trump(making[0], point.upcard)),
                               round_made))


_TRICKS = re.compile(r"\s*;\s*")
_PLAYS = re.compile(r"\s*,\s*")


def parse_played(text: str, rules: Rules, reader: CardReader | None = None
                 ) -> tuple[tuple, list[int]]:
    """The cards played so far, from text like ``"E JC, S 9C, W 9S, N AS; E 9H"`` (tricks in
    order, ``;`` between them, each play ``SEAT CARD``): ``(plays, sizes)``, the ``(seat,
    card)`` plays in order and the number of cards of each trick as written. ``reader``
    (the question's cards so far) refuses a card used twice. UserError naming the bad
    play."""
    reader = reader or CardReader(rules)
    plays, sizes = [], []
    for t, trick in enumerate(_TRICKS.split((text or "").strip()), start=1):
        items = [i for i in _PLAYS.split(trick.strip()) if i]
        if not items:
            if trick.strip() or t > 1:
                raise UserError(f"--played: trick {t} is empty")
            continue
        for item in items:
            words = item.split()
            if len(words) != 2:
                raise UserError(f"--played: trick {t}: write each play as 'SEAT CARD', e.g. "
                                f"'E JC', not {item!r}")
            try:
                seat = parse_seat(words[0])
                card = reader.card(words[1])
            except CardUsedUp:
                raise UserError(f"--played: trick {t}: {words[1]} is in your hand or played "
                                f"before: a card is played once") from None
            except NotationError as e:
                raise UserError(f"--played: trick {t}: {e}") from None
            if seat >= rules.players:
                raise UserError(f"--played: trick {t}: {SEATS[seat]} does not play in "
                                f"{rules.variant}")
            plays.append((seat, card))
        sizes.append(len(items))
    return tuple(plays), sizes


def played_text(plays) -> str:
    """Plays as the notation writes them, ``"E JC, S 9C"`` (tricks not marked)."""
    return ", ".join(f"{SEATS[s]} {format_card(c)}" for s, c in plays)
