"""Who plays a contract, who declares, who leads and how many tricks it needs, for the
analyzer's solver positions and records. The rules themselves live in ``kernels.cards.seating``
(the engine plays by them); this module checks what the user asked for and calls them.

A contract is its declarer and ``mode``: ``normal``, ``alone`` (upcard auction: the maker's
partner or the dummy sits out), ``ask`` or ``moon`` (ladder auctions with the n-ask: the
bidder plays without the partner); plus, where the rules allow, a defender who goes alone.
"""

from __future__ import annotations

from kernels.cards import seating as KS
from kernels.cards.rules import next_active as _next_active

from ..errors import UserError
from .notation import SEATS
from .variants import LADDER, UPCARD, Rules

MODES = ("normal", "alone", "ask", "moon")


def partner(seat: int) -> int:
    """The seat opposite (``kernels.cards.seating.partner``, the rule's one home)."""
    return int(KS.partner(seat))


def next_active(seat: int, active: int) -> int:
    """The next seat clockwise after ``seat`` whose bit is set in the 4-bit mask ``active``."""
    return int(_next_active(seat, active))


def _check_mode(rules: Rules, mode: str) -> None:
    if mode not in MODES:
        raise UserError(f"unknown contract {mode!r}")
    if mode == "ask" and not rules.has_ask:
        raise UserError(f"--ask is a bid of Bid Euchre; {rules.variant} has no ask")
    if mode == "moon" and not (rules.auction == LADDER and rules.partnership):
        raise UserError(f"--moon leaves the partner out; in {rules.variant} "
                        + ("the bidder always plays alone" if rules.auction == LADDER else
                           "use --alone"))
    if mode == "alone" and rules.auction != UPCARD:
        raise UserError(f"--alone is for the upcard auction; in {rules.variant} "
                        + ("bid --ask or --moon" if rules.has_ask else
                           "the bidder always plays alone"))


def seating(rules: Rules, declarer: int, mode: str = "normal",
            defender_alone: int | None = None) -> tuple[int, int]:
    """``(active, decl)`` 4-bit seat masks for a contract: who plays, and the declaring side.
    Raises UserError for a contract the variant does not have."""
    if not 0 <= declarer < rules.players:
        raise UserError(f"{SEATS[declarer]} does not play in {rules.variant}, so it cannot "
                        f"declare")
    _check_mode(rules, mode)
    cfg = rules.config()
    lone = -1
    if defender_alone is not None:
        if not rules.lone_defender_allowed:
            raise UserError("a defender may go alone only in cutthroat, or in knock with "
                            "--lone-defender")
        players = int(KS.players_mask(cfg))
        if not (0 <= defender_alone < rules.players and
                KS.may_defend_alone(cfg, defender_alone, declarer, players)):
            raise UserError(f"{SEATS[defender_alone]} is not a defender of {SEATS[declarer]}'s "
                            f"contract")
        lone = defender_alone
    active = int(KS.contract_active(cfg, declarer, mode != "normal", lone))
    return active, int(KS.declaring_mask(cfg, declarer, active))


def default_leader(rules: Rules, declarer: int, active: int, dealer: int,
                   maker_alone: bool, defender_alone: int | None) -> int:
    """Who leads the first trick by the variant's rules (see RULES.md)."""
    lone = -1 if defender_alone is None else defender_alone
    return int(KS.first_leader(rules.config(), declarer, dealer, maker_alone, lone, active))


def declaring_mask(rules: Rules, declarer: int, active: int) -> int:
    """4-bit mask of the active seats on ``declarer``'s side."""
    return int(KS.declaring_mask(rules.config(), declarer, active))


def tricks_needed(rules: Rules, contract: int) -> int:
    """Tricks the declaring side needs to make a contract (a bid of a ladder: the bid, or
    every trick for the n-ask and the moon; the upcard auction: ``rules.make``)."""
    return int(KS.contract_needs(rules.config(), int(contract)))

