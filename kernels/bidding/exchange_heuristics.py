"""Rules of thumb for choices the asking player cannot see being made: the dealer's discard
after a pick-up, the cutthroat maker's best five of ten with the dummy. Natural masks in,
natural cards out; each works in the trump-normalised layout of ``trump``."""

import numpy as np
from numba import njit

from ..cards.bits import ONE, lowest_bit, popcount
from ..cards.layout import JOKER, RANK_A, SLOT_MASKS, TRUMP_SLOT, normalise_mask
from ..config import NRT_FREE


@njit(**NRT_FREE)
def keep_value(b, hand_n, card):
    """How much a player wants to keep normalised card ``b`` (natural id ``card``) of
    normalised hand ``hand_n``: trumps by power above everything, then side aces, then other
    side cards by rank, less in long side suits (shortening a short suit makes a void)."""
    slot = b >> 4
    pos = b & 15
    if slot == TRUMP_SLOT:
        return 1000 + pos
    length = popcount(hand_n & SLOT_MASKS[slot])
    value = 10 * pos - 5 * length
    if card != JOKER and (card & 7) == RANK_A:
        value += 200
    return value


@njit(**NRT_FREE)
def discard_card(hand, trump, rules):
    """The natural card a player with natural ``hand`` throws away (the dealer's discard
    after taking the upcard): the card with the lowest ``keep_value``."""
    to_norm = rules.to_norm
    from_norm = rules.from_norm
    return from_norm[trump, _worst(normalise_mask(hand, to_norm[trump]), from_norm[trump])]


@njit(**NRT_FREE)
def _worst(hn, from_norm_t):
    """The normalised bit of the card with the lowest ``keep_value`` in normalised ``hn``."""
    worst = -1
    worst_value = 1 << 30
    m = hn
    while m:
        b = lowest_bit(m)
        m &= m - ONE
        v = keep_value(b, hn, from_norm_t[b])
        if v < worst_value:
            worst_value = v
            worst = b
    return worst


@njit(**NRT_FREE)
def keep_best(hand, keep, trump, rules):
    """The natural mask of the ``keep`` cards a player keeps from natural ``hand`` (the
    cutthroat maker's best five of ten with the dummy): drop the lowest ``keep_value`` one by
    one, re-valuing as suits shorten."""
    to_norm = rules.to_norm
    from_norm = rules.from_norm
    hn = normalise_mask(hand, to_norm[trump])
    while popcount(hn) > keep:
        hn &= ~(ONE << np.uint64(_worst(hn, from_norm[trump])))
    out = np.uint64(0)
    m = hn
    while m:
        b = lowest_bit(m)
        m &= m - ONE
        out |= ONE << np.uint64(from_norm[trump, b])
    return out
