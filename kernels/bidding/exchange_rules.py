"""The rules of the exchanges between trump and the first lead, the one home of each: whom the
upcard goes to and the cards a dealer or a cutthroat maker then keeps (``exchange_pool``), and
what a partner passes back in an n-ask (``ask_returns``). The engine's phases
(``kernels.hand.auction``, ``kernels.hand.exchanges``) apply them with the seats' choices; the
solver's whole-deal answers (``analyzer.questions.tables.solve``) try every choice they leave."""

from numba import njit

from ..cards.bits import highest_bit
from ..cards.layout import JOKER, TRUMP_MASK, natural_suit, normalise_mask
from ..config import NRT_FREE
from ..deal.record import card_bit
from ..slots import C


@njit(**NRT_FREE)
def made_on_upcard(upcard, trump, round_made=0):
    """Whether ``trump`` is made on the natural card ``upcard`` (-1: none), so the dealer takes
    it. An auction knows it by its round (``round_made``: trump made in round 1, not 2: with
    the option to name the turned-down suit, a round-2 name of it is not a pick-up); a deal
    without an auction (``round_made`` 0), or a player who reads only the upcard and trump,
    by the rule: the upcard's suit, or a turned-up joker (the dealer names trump, British
    rule). The one home of this rule (a structure test fails on a second spelling)."""
    if round_made > 0:
        return round_made == 1
    return upcard >= 0 and (upcard == JOKER or natural_suit(upcard) == trump)


@njit(**NRT_FREE)
def exchange_pool(rules, hand, taken):
    """``(cards, keep)``: the cards a player chooses among after taking the natural mask
    ``taken`` (the dealer the upcard, a cutthroat maker the dummy's hand) into ``hand``, and
    how many of them it keeps, a hand's worth (the rest are discarded, dead)."""
    return hand | taken, rules.cfg[C.HAND]


@njit(**NRT_FREE)
def best_trump(hand, trump, rules):
    """Natural id of the best trump in natural mask ``hand`` under ``trump``, or -1."""
    nh = normalise_mask(hand, rules.to_norm[trump]) & TRUMP_MASK
    if nh == 0:
        return -1
    return rules.from_norm[trump, highest_bit(nh)]


@njit(**NRT_FREE)
def ask_returns(hand, trump, rules):
    """The cards a partner may give back in an n-ask from natural mask ``hand``: their best
    trump, or any card when they hold no trump (a natural mask)."""
    best = best_trump(hand, trump, rules)
    return card_bit(best) if best >= 0 else hand
