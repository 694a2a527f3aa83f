"""The drivers over the search: ``exact``, the declaring side's tricks by zero-window probes
(MTD-style, sharing the table) from a first guess (``guess_tricks``, a linear fit to exact
answers); ``solve_exact``, one deal's answer from its first lead, the last answers
remembered; ``card_values``, every legal card's value, one search per run of cards with no
card out between them.
"""

import numpy as np
from numba import njit

from ..cards.bits import EVEN_BITS, ODD_BITS, ONE, highest_bit, lowest_bit, popcount
from ..cards.layout import SLOT_MASKS, TRUMP_MASK, beats
from ..cards.rules import next_active
from ..config import JIT, NRT_FREE
from ..slots import MEMO_ENTRIES, MEMO_WORDS, W
from .position import set_position, tricks_left
from .search import at_least

RELATED_KEY = np.uint64(0xF | (1 << 12) | (1 << 20))  # the key's seats and deck: not decl, leader


@njit(**NRT_FREE)
def exact(w, tt, leader, table_cards, table_seats, n_table, guess):
    """The number of tricks still to come that the declaring side takes with best play by
    everyone, found by zero-window probes starting from ``guess``."""
    return exact_within(w, tt, leader, table_cards, table_seats, n_table, 0,
                        tricks_left(w, leader, n_table), guess)


@njit(**NRT_FREE)
def exact_within(w, tt, leader, table_cards, table_seats, n_table, lo, hi, guess):
    """``exact`` when the answer is known to lie in ``lo .. hi``."""
    g = min(max(guess, lo + 1), hi)
    while lo < hi:
        w[W.PROBES] += ONE
        if at_least(w, tt, leader, table_cards, table_seats, n_table, g):
            lo = g
            g = g + 1
        else:
            hi = g - 1
            g = g - 1
        g = min(max(g, lo + 1), hi)
    return lo


@njit(**JIT)
def solve_exact(w, tt, hands, active, decl, leader, double, need):
    """The declaring side's tricks from the first lead, everyone playing double dummy:
    normalised ``hands`` (4 masks), the masks of playing seats and of the declaring side;
    ``need`` the tricks the contract needs (-1: no contract). A contract that needs every
    trick (a moon, an n-ask) is probed there first and counted exactly only when it fails
    (its defenders then score their tricks): one probe when it makes. A lower need is not
    probed first: the fitted guess takes fewer probes (measured on the double deck's bids).
    Each search starts with no history of cut-offs: the solves of a deal (other trumps,
    other seats) misled each other's lead ordering (the double-deck trick table took twice
    the nodes). The last MEMO_ENTRIES answers are remembered, since the options of one
    decision often end in the same contract on the same cards (``w[W.NODES]`` is 0 on a
    remembered one); ``w[W.SOLVES]`` and ``w[W.MEMO_HITS]`` count both kinds, and
    ``w[W.MEMO_OFF]`` = 1 turns the memo off (a test checks the answers are the same). A
    remembered answer on the same cards and seats for another leader or the other side is
    the first guess (its tricks, or the rest of them): an overcall's contract after the
    trick table's row of its trump, or another seat's lead, mostly ends within a trick of
    it (the double deck's every-call question -4.5% time; the fitted guess is 1.1-1.7 tricks
    off there)."""
    key = ONE << np.uint64(20) | np.uint64(active | (decl << 4) | (leader << 8) |
                                         (double << 12))
    related = -1  # a remembered answer on the same cards with the same seats playing
    same_side = False  # ... for the same declaring side (another leader)
    for e in range(MEMO_ENTRIES if w[W.MEMO_OFF] == 0 else 0):
        at = W.MEMO + e * MEMO_WORDS
        if w[at] == hands[0] and w[at + 1] == hands[1] and w[at + 2] == hands[2] and \
                w[at + 3] == hands[3]:
            if w[at + 4] == key:
                w[W.NODES] = 0
                w[W.MEMO_HITS] += ONE
                return np.int64(w[at + 5])
            if (w[at + 4] ^ key) & RELATED_KEY == 0:
                same = (w[at + 4] >> np.uint64(4)) & np.uint64(15) == decl
                if related < 0 or same:
                    related = at
                    same_side = same
    w[W.SOLVES] += ONE
    w[W.HISTORY:W.HISTORY + 4 * 64] = 0
    set_position(w, hands, active, decl, double)
    empty = np.zeros(4, dtype=np.int64)
    lo = 0
    hi = n = tricks_left(w, leader, 0)
    if need >= hi:
        w[W.PROBES] += ONE
        if at_least(w, tt, leader, empty, empty, 0, hi):
            lo = hi
        else:
            hi -= 1
    if related >= 0:  # its tricks for the same side, the rest of them for the other
        t = np.int64(w[related + 5])
        g = t if same_side else n - t
    else:
        g = guess_tricks(w, leader)
    tricks = exact_within(w, tt, leader, empty, empty, 0, lo, hi, g)
    at = W.MEMO + np.int64(w[W.MEMO_NEXT]) * MEMO_WORDS
    for s in range(4):
        w[at + s] = hands[s] if (active >> s) & 1 else np.uint64(0)
    w[at + 4] = key
    w[at + 5] = np.uint64(tricks)
    w[W.MEMO_NEXT] = (w[W.MEMO_NEXT] + ONE) % np.uint64(MEMO_ENTRIES)
    return tricks


@njit(**NRT_FREE)
def guess_tricks(w, leader):
    """A cheap first guess at the declaring side's tricks for the exact search, from a linear
    fit to exact answers (single deck, every seating, where it halves the mean error of the
    trump share; the double deck has its own fit): the declaring side's trumps and the
    opponents', its run of top trumps, the side suits whose top card it holds, and whether
    it leads."""
    decl = np.int64(w[W.DECL])
    ours = w[W.HANDS] & np.uint64(0)
    for s in range(4):
        if (decl >> s) & 1:
            ours |= w[W.HANDS + s]
    allc = w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3]
    mine = popcount(ours & TRUMP_MASK)
    theirs = popcount(allc & TRUMP_MASK) - mine
    top = 0
    t = allc & TRUMP_MASK
    while t and (ours >> np.uint64(highest_bit(t))) & ONE:
        top += 1
        t ^= ONE << np.uint64(highest_bit(t))
    aces = 0
    for slot in range(3):
        sl = allc & SLOT_MASKS[slot]
        if sl and (ours >> np.uint64(highest_bit(sl))) & ONE:
            aces += 1
    n = popcount(w[W.HANDS + leader])
    leads = (decl >> leader) & 1
    if w[W.DOUBLE] != 0:  # refitted on 160 random double-deck deals: mean error 2.1 -> 1.4
        g = (4 + 76 * mine - 26 * theirs + 49 * top + 92 * aces + 112 * leads + 50) // 100
    else:
        g = (30 + 60 * mine - 32 * theirs + 65 * top + 70 * aces + 40 * leads + 50) // 100
    return min(max(g, 0), n)


@njit(**JIT)
def card_values(w, tt, leader, table_cards, table_seats, n_table, out):
    """Double-dummy value of every legal card of the seat to play: ``out[bit]`` = tricks still
    to come (counting the current trick) that the declaring side takes if that card is played
    and everyone plays best afterwards; -1 for cards that cannot be played. Returns the mask
    of legal cards. Cards with no card out between them share one search, and each search
    starts from the value of the card before (most cards of a hand are worth the same)."""
    active = np.int64(w[W.ACTIVE])
    decl = np.int64(w[W.DECL])
    double = np.int64(w[W.DOUBLE])
    out[:] = -1
    if n_table == 0:
        seat = leader
        led = -1
    else:
        seat = next_active(table_seats[n_table - 1], active)
        led = table_cards[0] >> 4
    hand = w[W.HANDS + seat]
    legal = hand
    if led >= 0 and hand & SLOT_MASKS[led]:
        legal = hand & SLOT_MASKS[led]
    nactive = np.int64(w[W.NACTIVE])
    cards = np.empty(4, dtype=np.int64)
    seats = np.empty(4, dtype=np.int64)
    table = np.uint64(0)
    for i in range(n_table):
        cards[i] = table_cards[i]
        seats[i] = table_seats[i]
        table |= ONE << np.uint64(table_cards[i])
    others = (w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3] | table) & ~hand
    if double:
        others |= ((others & EVEN_BITS) << ONE) | ((others & ODD_BITS) >> ONE)
    prev = -1
    m = legal
    while m:
        b = lowest_bit(m)
        m &= m - ONE
        if prev >= 0 and (b >> 4) == (prev >> 4):
            span = ((ONE << np.uint64(b + 1)) - ONE) & ~((ONE << np.uint64(prev)) - ONE)
            if not (others & span):  # no card out between them: the same value
                out[b] = out[prev]
                prev = b
                continue
        w[W.HANDS + seat] = hand ^ (ONE << np.uint64(b))
        cards[n_table] = b
        seats[n_table] = seat
        if n_table + 1 == nactive:
            wi = 0
            for i in range(1, nactive):
                if beats(cards[i], cards[wi], double):
                    wi = i
            won = (decl >> seats[wi]) & 1
            g = guess_tricks(w, seats[wi]) if prev < 0 else out[prev] - won
            v = won + exact(w, tt, seats[wi], cards, seats, 0, g)
        else:
            g = guess_tricks(w, leader) + 1 if prev < 0 else out[prev]
            v = exact(w, tt, leader, cards, seats, n_table + 1, g)
        out[b] = v
        prev = b
        w[W.HANDS + seat] = hand
    return legal
