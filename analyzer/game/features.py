"""Features of hands for the strategy tables, vectorised over natural masks: trump count,
bowers, trump ace and king, side aces, voids, and the point count (``kernels.bidding.bidding``); and
hand classes, hands equal up to renaming suits of the same colour role."""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels.bidding.bidding import POINTS, SIDES, TRUMPS
from kernels.cards import layout as L

FEATURES = ["n_trumps", "right", "left", "ace", "king", "side_aces", "voids"]


def _popcount(a: np.ndarray) -> np.ndarray:
    return np.bitwise_count(a.astype(np.uint64)).astype(np.int64)


def hand_features(hands: np.ndarray, trump: int) -> pd.DataFrame:
    """Features of each natural hand mask in ``hands`` when ``trump`` is trump."""
    h = hands.astype(np.uint64)
    right = np.uint64(1 << (trump * 8 + L.RANK_J))
    left = np.uint64(1 << (L.same_colour_suit(trump) * 8 + L.RANK_J))
    ace = np.uint64(1 << (trump * 8 + L.RANK_A))
    king = np.uint64(1 << (trump * 8 + L.RANK_K))
    side_aces = np.uint64(sum(1 << (s * 8 + L.RANK_A) for s in range(4) if s != trump))
    voids = np.zeros(len(h), dtype=np.int64)
    for s in range(4):
        if s != trump:
            voids += ((h & np.uint64(SIDES[trump, s])) == 0).astype(np.int64)
    points = np.zeros(len(h))
    for c in range(64):
        if POINTS[trump, c]:
            points += ((h >> np.uint64(c)) & np.uint64(1)).astype(np.float64) * POINTS[trump, c]
    n_trumps = _popcount(h & np.uint64(TRUMPS[trump]))
    points += np.where(n_trumps >= 2, 0.5 * voids, 0.0)
    return pd.DataFrame({
        "n_trumps": n_trumps,
        "right": ((h & right) != 0).astype(np.int64),
        "left": ((h & left) != 0).astype(np.int64),
        "ace": ((h & ace) != 0).astype(np.int64),
        "king": ((h & king) != 0).astype(np.int64),
        "side_aces": _popcount(h & side_aces),
        "voids": voids,
        "strength": np.floor(points * 2) / 2,
    })


SUIT_PERMUTATIONS = np.array([(0, 1, 2, 3), (3, 1, 2, 0), (0, 2, 1, 3), (3, 2, 1, 0),
                              (1, 0, 3, 2), (2, 0, 3, 1), (1, 3, 0, 2), (2, 3, 0, 1)])
# the colour-preserving renamings of the suits (clubs-spades and diamonds-hearts stay pairs)


def relabel(masks: np.ndarray, perm) -> np.ndarray:
    """Natural masks with suit ``s`` renamed ``perm[s]`` (vectorised; the joker stays)."""
    masks = masks.astype(np.uint64)
    out = masks & np.uint64(1 << L.JOKER)
    for copy in (0, 32):
        for suit in range(4):
            block = (masks >> np.uint64(copy + 8 * suit)) & np.uint64(0xFF)
            if copy and suit == 0:
                block &= np.uint64(0xFE)  # bit 32 is the joker, not a second-copy card
            out |= block << np.uint64(copy + 8 * int(perm[suit]))
    return out


def hand_classes(masks: np.ndarray, fixed_trump: int | None = None):
    """``(class masks, permutation index)`` of each hand: the smallest mask among its
    renamings (only those keeping ``fixed_trump`` when given), and which renaming gave it."""
    perms = [i for i, p in enumerate(SUIT_PERMUTATIONS)
             if fixed_trump is None or p[fixed_trump] == fixed_trump]
    candidates = np.stack([relabel(masks, SUIT_PERMUTATIONS[i]) for i in perms])
    best = np.argmin(candidates, axis=0)
    return candidates[best, np.arange(len(masks))], np.array(perms)[best]
