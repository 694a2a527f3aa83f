"""Move generation and ordering: one candidate per run of equivalent cards (adjacent among
the cards still out and on the table, held by the same hand), written to the trick's move
list in ``w`` best first. On lead (``lead_moves``): a lead that decided the position before,
then the leads with the most history of cut-offs this deal, top cards, low cards to the
partner's top card, low cards; trumps first for the declarers, a suit an opponent can ruff
later, one the partner can ruff earlier. Following (``follow_moves``): the cheapest card
that wins when an opponent is winning, the hand before last covering its partner's card
when the last hand can beat it, else the lowest. ``with_run``: a tried card stands for its
whole run, for the partition table.
"""

import numpy as np
from numba import njit

from ..cards.bits import EVEN_BITS, ODD_BITS, ONE, highest_bit, lowest_bit, popcount
from ..cards.layout import SLOT_MASKS, TRUMP_MASK, TRUMP_SLOT, beats
from ..cards.rules import next_active
from ..config import NRT_FREE
from ..slots import W
from .partition_table import pdep, pext
from .quick_tricks import ruffable_suits

HISTORY_WEIGHT = 32  # a lead's ordering score per doubling of its history: the history leads
# the double deck's, measured in nodes against 32: the every-call question at 1,000 deals
# -8.0% (400 other deals -6.0%), bench solve's random deals -3.3% and +10.7% (500 and 200
# solves: +0.7% in all); 16 gave -4.6% on the question, 0 gave -2.5% and +47% at random
DOUBLE_HISTORY_WEIGHT = 8


@njit(inline="always", **NRT_FREE)
def _best_reply(w, seat, led):
    """The strongest card the next hand after ``seat`` can play to a trick led in ``led``:
    its highest of that suit or, void in it, its highest trump; -1 when it has neither."""
    hand = w[W.HANDS + next_active(seat, np.int64(w[W.ACTIVE]))]
    reach = hand & SLOT_MASKS[led]
    if not reach:
        reach = hand & TRUMP_MASK
    return np.int64(highest_bit(reach)) if reach else np.int64(-1)


@njit(**NRT_FREE)
def _order_leads(w, base, n, seat):
    """Sort the ``n`` candidate leads of ``seat`` at ``w[base:]`` best first: each becomes
    ``score << 8 | card`` and the list is insertion-sorted on that, so no scratch is needed.
    The leads with the most history first (``w[W.HISTORY]``, see ``_trick``), then top cards
    of a suit, then low cards to the partner's top card, then low cards; trumps first for the
    declarers, last for the defenders; a side suit an opponent can ruff later, one the
    partner can ruff (and no opponent) earlier."""
    decl = np.int64(w[W.DECL])
    double = np.int64(w[W.DOUBLE])
    side = (decl >> seat) & 1
    allc = w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3]
    ours = np.uint64(0)
    # the side suits an opponent can ruff (void, holding a trump); in the double deck only the
    # next hand counts (every opponent: single deck -3% nodes, but one hard double-deck deal
    # took twice the nodes)
    ruffed = 0
    partner_ruffs = 0
    lho = next_active(seat, np.int64(w[W.ACTIVE]))
    history_weight = HISTORY_WEIGHT if double == 0 else DOUBLE_HISTORY_WEIGHT
    for s in range(4):
        h = w[W.HANDS + s]
        if ((decl >> s) & 1) == side:
            ours |= h
            if s != seat:
                partner_ruffs |= ruffable_suits(h)
        elif double == 0 or s == lho:
            ruffed |= ruffable_suits(h)
    for i in range(n):
        b = np.int64(w[base + i])
        power = b & 15
        hi = highest_bit(allc & SLOT_MASKS[b >> 4])
        if hi == b or (double != 0 and (hi ^ 1) == b):  # double deck: the top class
            sc = 100 + power
        elif (ours >> np.uint64(hi)) & ONE:
            sc = 60 - power  # low, to the partner's top card of the suit
        else:
            sc = -power
        if b >> 4 == TRUMP_SLOT:
            sc += 20 if side == 1 else -20
        elif (ruffed >> (b >> 4)) & 1:
            sc -= 30  # an opponent can ruff it
        elif (partner_ruffs >> (b >> 4)) & 1:
            # the partner can ruff it: before the top cards (double deck: after them; before
            # them one hard deal of the 50 seeded took 2.8 s, not 1.0)
            sc += 150 if double == 0 else 30
        history = w[W.HISTORY + 64 * seat + b]
        if history:
            sc += history_weight * (highest_bit(history) + 1)
        w[base + i] = (np.uint64(sc + 1024) << np.uint64(8)) | np.uint64(b)
    for i in range(1, n):
        key = w[base + i]
        j = i - 1
        while j >= 0 and w[base + j] < key:
            w[base + j + 1] = w[base + j]
            j -= 1
        w[base + j + 1] = key


@njit(inline="always", **NRT_FREE)
def _held_elsewhere(w, hand, table, double):
    """The cards another hand holds or ``table`` shows, as a mask; in the double deck each
    with its twin (a class held elsewhere separates ``hand``'s cards around it)."""
    others = (w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3] | table) & ~hand
    if double:
        others |= ((others & EVEN_BITS) << ONE) | ((others & ODD_BITS) >> ONE)
    return others


@njit(**NRT_FREE)
def _representatives(w, hand, legal, table, double):
    """One representative (the lowest) of each run of equivalent legal cards, as a mask.
    Cards are equivalent when no card of another hand or on the table lies between them (for
    the double deck: no such card of equal or in-between power).

    Without a loop: over the cards still out (and on the table) packed in order, a legal card
    is not a representative when the card just below it, in its suit, is also a legal card
    that no other hand shares a class with."""
    others = _held_elsewhere(w, hand, table, double)
    out = legal | others
    plain = pext(legal & ~others, out)
    starts = np.uint64(0)  # the lowest card of each suit
    for q in range(4):
        suit = out & SLOT_MASKS[q]
        starts |= suit & (~suit + ONE)
    merged = plain & (plain << ONE) & ~pext(starts, out)
    return legal & ~pdep(merged, out)


@njit(inline="always", **NRT_FREE)
def with_run(w, rel, hand, card, table, double):
    """``rel``, the cards that decided a line in which ``hand`` played ``card``, and when it
    holds a card of ``card``'s run of equivalent cards, the whole run: the search tried one
    card of the run for all of them, and that holds for another position of the entry's
    partition only where its cards are still equivalent there (a card of the run in the
    region, the one tried below it, could otherwise be a move the search never tried: one
    benchmark deal came out wrong without it once the endgames were cut differently).
    ``table``: the card winning the trick so far, as when the moves were generated."""
    suit = SLOT_MASKS[card >> 4]
    if not (rel & hand & suit):
        return rel
    others = _held_elsewhere(w, hand, table, double)
    blockers = others & suit
    low = ONE << np.uint64(card)
    if blockers & low:
        return rel  # a run of one card
    above = blockers & ~(low | (low - ONE))
    below_limit = ((above & (~above + ONE)) - ONE) if above else ~np.uint64(0)
    run = hand & suit & ~(low - ONE) & below_limit
    # the card tried is the run's lowest: deciding, it puts the whole run in the region
    return rel | low if rel & run else rel


@njit(inline="always", **NRT_FREE)
def covered(w, rel, hand, card, table, double):
    """The cards of ``hand`` that a line in which it played ``card`` and did not get its side
    what it wanted answers as well: ``rel`` that line's deciding cards (after ``with_run``),
    ``table`` the card winning the trick so far, as for ``with_run``. When ``card`` lies below
    every deciding card of its suit (below their classes in the double deck), so does any
    other card of the hand in that suit below them: the line with one played and the other
    kept maps to the line with the two swapped (neither wins a trick by rank, and the
    positions agree on the region), so it ends the same way, decided by the same cards. A
    card whose run of equivalent cards reaches a deciding card stands for that card too, so
    it is left out. 0 when ``card`` is itself at or above a deciding card of its suit."""
    suit = SLOT_MASKS[card >> 4]
    d = rel & suit
    if not d:
        return hand & suit
    t = np.uint64(lowest_bit(d) & ~double)  # the lowest deciding class of the suit
    if np.uint64(card | double) >= t:
        return np.uint64(0)
    below = hand & suit & ((ONE << t) - ONE)
    cls = (ONE << t) | ((ONE << (t + ONE)) if double else np.uint64(0))
    if hand & cls:
        others = _held_elsewhere(w, hand, table, double)
        if not (others & cls):
            # the hand's cards just below t are t's run: they stand for t, keep them
            blockers = others & suit & ((ONE << t) - ONE)
            if not blockers:
                return np.uint64(0)
            below &= (ONE << np.uint64(highest_bit(blockers))) - ONE
    return below


@njit(inline="always", **NRT_FREE)
def _beating(card, double):
    """The cards that beat normalised ``card`` when it is winning a trick (it is of the led
    suit or trump): the higher classes of its suit, and every trump if it is not one."""
    k = np.uint64(card | double)  # its top copy
    above = ~(((ONE << k) - ONE) | (ONE << k))
    if card >> 4 == TRUMP_SLOT:
        return TRUMP_MASK & above
    return (SLOT_MASKS[card >> 4] & above) | TRUMP_MASK


@njit(inline="always", **NRT_FREE)
def _beaten_by(card, double):
    """The cards of the led suit or trump that normalised ``card`` beats: the lower classes
    of its suit, and if it is a trump every card but a higher trump."""
    below = (ONE << np.uint64(card & ~double)) - ONE
    if card >> 4 == TRUMP_SLOT:
        return ~TRUMP_MASK | (TRUMP_MASK & below)
    return SLOT_MASKS[card >> 4] & below


@njit(inline="always", **NRT_FREE)
def _emit(w, at, n, cards):
    """Write the cards of mask ``cards`` at ``w[at + n:]``, lowest first; the new count."""
    while cards:
        w[at + n] = np.uint64(lowest_bit(cards))
        cards &= cards - ONE
        n += 1
    return n


@njit(inline="always", **NRT_FREE)
def _emit_discards(w, at, n, cards):
    """Write the side-suit cards of mask ``cards`` at ``w[at + n:]`` lowest power first, the
    higher suit first between equal powers; the new count."""
    if popcount(cards) < 2 or cards == cards & SLOT_MASKS[lowest_bit(cards) >> 4]:
        return _emit(w, at, n, cards)
    keys = np.uint64(0)  # bit power * 4 + (3 - suit): the order wanted is the bits' order
    while cards:
        b = lowest_bit(cards)
        cards &= cards - ONE
        keys |= ONE << np.uint64((b & 15) * 4 + 3 - (b >> 4))
    while keys:
        k = lowest_bit(keys)
        keys &= keys - ONE
        w[at + n] = np.uint64((3 - (k & 3)) * 16 + (k >> 2))
        n += 1
    return n


@njit(**NRT_FREE)
def follow_moves(w, base, hand, led, table, win_card, win_seat, pos, seat, double):
    """Candidate cards (one per run of equivalent cards, best first) of ``seat`` playing card
    ``pos`` of a trick led in ``led``; written at ``w[base:]``, returns how many. ``table``
    need only hold the card winning the trick so far: the other cards on the table cannot
    tell two of this hand's cards apart (whatever is played, they do not win this trick,
    and after it they are gone).

    The order, from masks: when an opponent is winning, the cards that beat it, cheapest
    first (the second hand of four: first those the next hand cannot beat); the hand before
    last, when its partner's card is winning but the last hand can beat it, first the
    cheapest card that wins out of the last hand's reach; then the rest lowest first (the
    side suits by power, the higher suit first between equals), trumps last."""
    legal = hand
    follow = hand & SLOT_MASKS[led]
    if follow:
        legal = follow
        if follow & (follow - ONE) == 0:  # a single card of the suit: forced
            w[base] = np.uint64(lowest_bit(follow))
            return 1
    reps = _representatives(w, hand, legal, table, double)
    if reps & (reps - ONE) == 0:
        w[base] = np.uint64(lowest_bit(reps))
        return 1
    decl = np.int64(w[W.DECL])
    side = (decl >> seat) & 1
    first = np.uint64(0)
    second = np.uint64(0)
    winners = reps & _beating(win_card, double)
    if ((decl >> win_seat) & 1) == side:
        # the hand before last, its partner winning: if the last hand can beat the partner's
        # card, a card that wins the trick out of the last hand's reach comes first
        if pos == np.int64(w[W.NACTIVE]) - 2:
            reply = _best_reply(w, seat, led)
            if reply >= 0 and beats(reply, win_card, double):
                first = winners & ~_beaten_by(reply, double)
    else:
        first = winners
        # a hand with an opponent still to play after it and another hand after that (second
        # hand of four): the winners that opponent can beat only draw out its card
        if pos < np.int64(w[W.NACTIVE]) - 2:
            beyond = _best_reply(w, seat, led)
            if beyond >= 0:
                second = winners & _beaten_by(beyond, double)
                first = winners & ~second
    rest = reps & ~(first | second)
    n = _emit(w, base, 0, first)
    n = _emit(w, base, n, second)
    n = _emit_discards(w, base, n, rest & ~TRUMP_MASK)
    return _emit(w, base, n, rest & TRUMP_MASK)


@njit(**NRT_FREE)
def card(w, i):
    """The card of move-list entry ``w[i]``: its low 8 bits (a lead's ordering score
    sits above them, ``_order_leads``)."""
    return np.int64(w[i] & np.uint64(255))


@njit(inline="always", **NRT_FREE)
def lead_moves(w, base, leader, best):
    """The leader's candidate cards at ``w[base:]``, best first (``best``: a lead that decided
    this position before, card + 1, goes first); returns how many."""
    h0 = w[W.HANDS + leader]
    n0 = _emit(w, base, 0, _representatives(w, h0, h0, np.uint64(0), np.int64(w[W.DOUBLE])))
    if n0 > 1:
        _order_leads(w, base, n0, leader)
        if best > 0:
            for j in range(n0):
                if card(w, base + j) == best - 1:
                    first = w[base + j]
                    for k in range(j, 0, -1):
                        w[base + k] = w[base + k - 1]
                    w[base] = first
                    break
    return n0
