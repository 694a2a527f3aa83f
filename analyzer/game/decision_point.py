"""A decision point: the moment a player has to choose, with what they know — the rules, the
dealer, their seat and cards, the upcard, and the calls heard so far (``analyzer.game.auction``
reads and writes the calls heard)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .auction import Heard, heard_text
from .notation import SEATS, format_card, format_hand
from .variants import Rules


@dataclass(frozen=True)
class DecisionPoint:
    """A player's decision: the rules, the dealer, the player's seat and cards (a natural
    mask), the upcard (-1: none) and the calls heard so far."""

    rules: Rules
    dealer: int
    seat: int
    hand: int
    upcard: int = -1
    heard: Heard = field(default_factory=Heard)

    def describe(self) -> str:
        """The point in words: seat, dealer, upcard and the calls heard."""
        where = f"{SEATS[self.seat]} ({format_hand(self.hand)}), dealer {SEATS[self.dealer]}"
        if self.upcard >= 0:
            where += f", upcard {format_card(self.upcard)}"
        calls = heard_text(self.heard, self.rules)
        return where + (f"; heard: {calls}" if calls else "; first to speak")
