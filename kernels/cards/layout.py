"""Card bit layouts: the natural layout used for dealing and notation, and the trump-normalised
layout the play engine and the solver work in.

Natural layout (one uint64 bit per card, the same for every trump):
    bit = suit * 8 + rank            suits C D H S = 0..3, ranks 7 8 9 T J Q K A = 0..7
    bit 32                           the joker
    bit = 32 + suit * 8 + rank       the second copy of a card in the 48-card double deck
A deck code says which cards exist: DECK_LOW (7s and 8s), DECK_JOKER, DECK_DOUBLE (flags).

Trump-normalised layout (one per trump suit): each *effective* suit is a 16-bit slot whose bits
run in power order from low to high, so "cards I may play" is ``hand & SLOT[led]``, "the best
card of a suit" is the top set bit, and comparing two cards of one suit compares bit positions.
    slot 3 (bits 48..63)   trump: 9 10 Q K A, left bower, right bower, joker (7 and 8 below 9)
    slots 0, 1, 2          the other three suits in natural order (C D H S without trump);
                           the suit of the left bower has no jack
In the double deck the two copies of a card sit next to each other (copy 0 at 2p, copy 1 at
2p + 1) and share the power p = position >> 1.
"""

import numpy as np
from numba import njit

from ..config import JIT, NRT_FREE
from .bits import lowest_bit

N_SUITS = 4
RANKS_PER_SUIT = 8  # natural layout reserves 7 8 9 T J Q K A in every suit
RANK_7, RANK_8, RANK_9, RANK_T, RANK_J, RANK_Q, RANK_K, RANK_A = range(8)
JOKER = 32
COPY_OFFSET = 32

DECK_LOW = 1
DECK_JOKER = 2
DECK_DOUBLE = 4

TRUMP_SLOT = 3
SLOT_MASKS = np.array([np.uint64(0xFFFF) << np.uint64(16 * s) for s in range(4)], dtype=np.uint64)
TRUMP_MASK = SLOT_MASKS[TRUMP_SLOT]  # the trumps, in the normalised layout
NO_CARD = -1


@njit(**NRT_FREE)
def natural_suit(card):
    """Printed suit of natural card id ``card`` (the joker has none: -1). The one home of
    this rule: kernels and analyzer call it (a structure test bans the spelled-out form)."""
    if card == JOKER:
        return -1
    return (card & 31) >> 3


@njit(**NRT_FREE)
def partnered(players):
    """Whether ``players`` seats play as two partnerships, partners opposite: four players
    in every variant (``VariantSpec.partnership``; a structure test checks they agree). For
    the kernels that see only the player count; the others read ``cfg[C.PARTNERS]``."""
    return players == 4


@njit(**NRT_FREE)
def same_colour_suit(suit):
    """The other suit of the same colour (clubs<->spades, diamonds<->hearts)."""
    return suit ^ 3


@njit(**JIT)
def deck_natural_ids(deck):
    """Natural bit ids of every card in the deck with code ``deck``, as an int64 array in
    increasing order."""
    low = 0 if (deck & DECK_LOW) else RANK_9
    out = np.empty(64, dtype=np.int64)
    n = 0
    for s in range(N_SUITS):
        for r in range(low, RANKS_PER_SUIT):
            out[n] = s * RANKS_PER_SUIT + r
            n += 1
    if deck & DECK_JOKER:
        out[n] = JOKER
        n += 1
    if deck & DECK_DOUBLE:
        for s in range(N_SUITS):
            for r in range(low, RANKS_PER_SUIT):
                out[n] = COPY_OFFSET + s * RANKS_PER_SUIT + r
                n += 1
    return out[:n].copy()


@njit(**JIT)
def deck_mask(deck):
    """uint64 natural mask of every card in the deck with code ``deck``."""
    ids = deck_natural_ids(deck)
    m = np.uint64(0)
    for i in ids:
        m |= np.uint64(1) << np.uint64(i)
    return m


@njit(**JIT)
def normalised_decks(deck, to_norm):
    """The deck's mask in the normalised layout of each trump (uint64[4])."""
    decks = np.zeros(4, dtype=np.uint64)
    m = deck_mask(deck)
    for t in range(4):
        decks[t] = normalise_mask(m, to_norm[t])
    return decks


@njit(**JIT)
def build_normalisation(deck):
    """Per-trump maps between the natural and the trump-normalised layout.

    Returns ``(to_norm, from_norm)``, both int64 arrays of shape (4, 64): ``to_norm[t, id]`` is
    the normalised bit of natural card ``id`` when suit ``t`` is trump, ``from_norm[t, bit]`` the
    inverse; -1 where no card maps."""
    to_norm = np.full((4, 64), NO_CARD, dtype=np.int64)
    from_norm = np.full((4, 64), NO_CARD, dtype=np.int64)
    double = 1 if (deck & DECK_DOUBLE) else 0
    low = 0 if (deck & DECK_LOW) else RANK_9
    order = np.empty(16, dtype=np.int64)  # base ids (copy 0) in power order, low to high
    for t in range(N_SUITS):
        left_suit = same_colour_suit(t)
        slot = 0
        for s in range(N_SUITS):
            n = 0
            if s == t:
                for r in range(low, RANKS_PER_SUIT):
                    if r != RANK_J:
                        order[n] = t * RANKS_PER_SUIT + r
                        n += 1
                order[n] = left_suit * RANKS_PER_SUIT + RANK_J
                n += 1
                order[n] = t * RANKS_PER_SUIT + RANK_J
                n += 1
                if deck & DECK_JOKER:
                    order[n] = JOKER
                    n += 1
                base = TRUMP_SLOT * 16
            else:
                for r in range(low, RANKS_PER_SUIT):
                    if not (s == left_suit and r == RANK_J):
                        order[n] = s * RANKS_PER_SUIT + r
                        n += 1
                base = slot * 16
                slot += 1
            for p in range(n):
                for c in range(double + 1):
                    card = order[p] + c * COPY_OFFSET
                    b = base + (p << double) + c
                    to_norm[t, card] = b
                    from_norm[t, b] = card
    return to_norm, from_norm


@njit(**JIT)
def natural_suit_tables(deck):
    """Per-trump tables in the natural layout.

    Returns ``(eff_suit, power, suit_masks)``: ``eff_suit[t, id]`` is the effective suit of
    card ``id`` under trump ``t`` (the bowers and the joker count as trump), ``power[t, id]``
    its rank inside that effective suit (higher beats lower; equal for the two copies of a
    card), ``suit_masks[t, s]`` the natural mask of every card whose effective suit is ``s``.
    Cards outside the deck have eff_suit -1."""
    to_norm, _ = build_normalisation(deck)
    double = 1 if (deck & DECK_DOUBLE) else 0
    eff_suit = np.full((4, 64), -1, dtype=np.int64)
    power = np.full((4, 64), -1, dtype=np.int64)
    suit_masks = np.zeros((4, 4), dtype=np.uint64)
    for t in range(N_SUITS):
        slot_suit = np.empty(4, dtype=np.int64)
        slot = 0
        for s in range(N_SUITS):
            if s == t:
                slot_suit[TRUMP_SLOT] = s
            else:
                slot_suit[slot] = s
                slot += 1
        for card in range(64):
            b = to_norm[t, card]
            if b < 0:
                continue
            s = slot_suit[b >> 4]
            eff_suit[t, card] = s
            power[t, card] = (b & 15) >> double
            suit_masks[t, s] |= np.uint64(1) << np.uint64(card)
    return eff_suit, power, suit_masks


@njit(**NRT_FREE)
def beats(b, w, double):
    """True if normalised card ``b`` beats the card ``w`` currently winning a trick (``w`` is
    of the led suit or trump). Equal double-deck cards do not beat each other."""
    sb = b >> 4
    sw = w >> 4
    if sb == sw:
        return (b >> double) > (w >> double)
    return sb == TRUMP_SLOT


@njit(**NRT_FREE)
def remap_mask(mask, to):
    """The mask whose bit ``to[b]`` is set for each set bit ``b`` of ``mask``."""
    out = np.uint64(0)
    m = np.uint64(mask)
    while m:
        out |= np.uint64(1) << np.uint64(to[lowest_bit(m)])
        m &= m - np.uint64(1)
    return out


@njit(**NRT_FREE)
def normalise_mask(mask, to_norm_t):
    """Map a natural-layout mask to the normalised layout of one trump (``to_norm[t]``)."""
    return remap_mask(mask, to_norm_t)


@njit(**NRT_FREE)
def denormalise_mask(mask, from_norm_t):
    """Map a normalised mask of one trump back to the natural layout (``from_norm[t]``)."""
    return remap_mask(mask, from_norm_t)
