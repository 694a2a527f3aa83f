"""Test helpers: the natural bit layout written out independently of kernels/ (for converting
kernel ids to the reference's card strings) and random test data."""

RANKS = "789TJQKA"
SUITS = "CDHS"
JOKER_ID = 32


def card_name(cid: int) -> str:
    """Reference card string of a natural id (both double-deck copies print alike)."""
    if cid == JOKER_ID:
        return "JK"
    base = cid % 32
    return RANKS[base % 8] + SUITS[base // 8]


def deck_ids(low=False, joker=False, double=False):
    """Natural ids of a deck, written out from the layout's definition."""
    first = 0 if low else 2
    ids = [s * 8 + r for s in range(4) for r in range(first, 8)]
    if joker:
        ids.append(JOKER_ID)
    if double:
        ids += [32 + i for i in ids]
    return ids


DECKS = {  # deck code -> (low, joker, double)
    0: (False, False, False),
    1: (True, False, False),
    2: (False, True, False),
    3: (True, True, False),
    4: (False, False, True),
}


def card_id(name: str) -> int:
    """Natural id of a reference card string (the first copy in a double deck)."""
    if name == "JK":
        return JOKER_ID
    return SUITS.index(name[1]) * 8 + RANKS.index(name[0])


def hand_mask(names) -> int:
    """Natural mask of reference card strings (a card twice: both double-deck copies)."""
    mask = 0
    for name in names:
        c = card_id(name)
        mask |= 1 << (c + 32 if (mask >> c) & 1 else c)
    return mask
