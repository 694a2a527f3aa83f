"""Rule primitives in the trump-normalised layout: the cards a player may play, which card wins
a trick, and the next seat to play. Natural-layout forms are for the tests and the analyzer.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ..config import JIT, NRT_FREE
from .layout import SLOT_MASKS, TRUMP_SLOT, denormalise_mask, normalise_mask

# The rules as the engine's kernels take them, built once per rule set
# (``analyzer.game.variants.Rules.arrays``): the configuration vector (slots ``C``), the
# points table ``[contract, declaring side's tricks, side]``, the natural <-> normalised
# maps of the deck, the deck's natural ids, its natural mask and its mask in the normalised
# layout of each trump.
RuleArrays = namedtuple("RuleArrays", ["cfg", "score_table", "to_norm", "from_norm",
                                       "deck_ids", "deck", "decks"])


@njit(**NRT_FREE)
def legal_mask(hand, led_slot):
    """Cards of ``hand`` (normalised mask) that may be played to a trick led in ``led_slot``
    (-1 when this card leads): the cards of the led effective suit if any, else every card."""
    if led_slot < 0:
        return hand
    follow = hand & SLOT_MASKS[led_slot]
    if follow:
        return follow
    return hand


@njit(**NRT_FREE)
def card_strength(b, led_slot, double):
    """Comparable strength of normalised card ``b`` in a trick led in ``led_slot``: trumps beat
    cards of the led suit, which beat everything else (-1). The two copies of a double-deck card
    are equal."""
    s = b >> 4
    power = (b & 15) >> double
    if s == TRUMP_SLOT:
        return 64 + power
    if s == led_slot:
        return power
    return -1


@njit(**NRT_FREE)
def trick_winner(cards, n, double):
    """Position (0..n-1) of the winning card among ``cards[:n]`` (normalised bits in play
    order). Ties go to the card played first, which is the double-deck rule."""
    led = cards[0] >> 4
    best = 0
    best_strength = card_strength(cards[0], led, double)
    for i in range(1, n):
        st = card_strength(cards[i], led, double)
        if st > best_strength:
            best = i
            best_strength = st
    return best


@njit(**NRT_FREE)
def next_active(seat, active):
    """The next seat clockwise after ``seat`` whose bit is set in the 4-bit mask ``active``."""
    s = (seat + 1) & 3
    while not ((active >> s) & 1):
        s = (s + 1) & 3
    return s


@njit(**NRT_FREE)
def legal_mask_natural(hand, led_card, trump, rules):
    """Natural-layout form of ``legal_mask``: the cards of natural mask ``hand`` that may be
    played when natural card ``led_card`` was led (-1: this card leads) and ``trump`` is trump."""
    to_norm = rules.to_norm
    from_norm = rules.from_norm
    led_slot = -1 if led_card < 0 else to_norm[trump, led_card] >> 4
    return denormalise_mask(legal_mask(normalise_mask(hand, to_norm[trump]), led_slot),
                            from_norm[trump])


@njit(**JIT)
def trick_winner_natural(cards, n, trump, to_norm, double):
    """Natural-layout form of ``trick_winner``: position of the winner among natural ids
    ``cards[:n]`` in play order under ``trump``."""
    bits = np.empty(n, dtype=np.int64)
    for i in range(n):
        bits[i] = to_norm[trump, cards[i]]
    return trick_winner(bits, n, double)
