"""Dealing: a whole hand for the engine (``deal_hand``), and conditioned dealing of the cards
the asking player cannot see into groups (the other hands, the ghost hand or dummy, the kitty).

Random mode: deal ``i`` is a Fisher-Yates shuffle from the stream ``(seed, STREAM_DEAL, i)``;
when constraints reject it, the same stream keeps shuffling until a deal passes, so deal ``i``
still depends on ``(seed, i)`` alone. Exact mode: deal ``i`` is layout number ``i`` of every
way to split the unseen cards into the groups (multinomial unranking), so enumerating
``0 .. count-1`` visits each layout once.

A constraint is ``popcount(group's cards & mask) OP value`` with OP one of ``OP_*``; the
analyzer turns "E: void H", "S: >=2 trump", "W: has AS" into such rows.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ..cards.bits import popcount
from ..cards.codes import AUCTION_UPCARD
from ..config import JIT, NRT_FREE
from ..slots import C, M, R
from .record import card_bit, reset_record
from .rng import STREAM_DEAL, reseed, shuffle, stream_state

OP_EQ = 0
OP_GE = 1
OP_LE = 2

# How a query deals the cards its asker cannot see: ``exact`` (every layout, one try each)
# or random; ``known[4]`` the natural masks of the cards known in each seat; the unseen
# natural ids ``cards`` dealt in groups of ``sizes`` to ``group_seat`` (-1: the kitty or a
# dead hand), ``binom`` their binomial table; the constraint rows ``cons_*`` (see
# ``passes``; flat, since a parallel kernel cannot take a tuple nested in a tuple); at most
# ``max_tries`` shuffles a deal.
Dealing = namedtuple("Dealing", ["exact", "known", "cards", "sizes", "group_seat", "binom",
                                 "cons_group", "cons_mask", "cons_op", "cons_value",
                                 "max_tries"])


@njit(**JIT)
def binomial_table(n):
    """``C[a, b]`` = a choose b for 0 <= a, b <= n (int64)."""
    c = np.zeros((n + 1, n + 1), dtype=np.int64)
    for a in range(n + 1):
        c[a, 0] = 1
        for b in range(1, a + 1):
            c[a, b] = c[a - 1, b - 1] + c[a - 1, b]
    return c


@njit(**NRT_FREE)
def layout_count(sizes, binom):
    """Number of ways to split ``sum(sizes)`` distinct cards into groups of ``sizes``."""
    left = 0
    for g in range(sizes.shape[0]):
        left += sizes[g]
    count = 1
    for g in range(sizes.shape[0]):
        count *= binom[left, sizes[g]]
        left -= sizes[g]
    return count


@njit(**JIT)
def unrank_layout(rank, cards, sizes, binom, out):
    """Write layout number ``rank`` of ``cards`` (natural ids) split into groups of ``sizes``
    as natural masks into ``out[g]``. Groups are filled in order; within a group the subset
    is the ``k``-th combination of the cards still free in lexicographic order."""
    free = np.ones(cards.shape[0], dtype=np.bool_)
    left = cards.shape[0]
    r = rank
    for g in range(sizes.shape[0]):
        rest = 1
        after = left - sizes[g]
        for h in range(g + 1, sizes.shape[0]):
            rest *= binom[after, sizes[h]]
            after -= sizes[h]
        k = r // rest
        r = r % rest
        need = sizes[g]
        mask = np.uint64(0)
        avail = left
        for j in range(cards.shape[0]):
            if need == 0:
                break
            if not free[j]:
                continue
            avail -= 1
            # combinations that take this card: choose the other need-1 from the rest
            with_it = binom[avail, need - 1]
            if k < with_it:
                mask |= np.uint64(1) << np.uint64(cards[j])
                free[j] = False
                need -= 1
            else:
                k -= with_it
        out[g] = mask
        left -= sizes[g]


@njit(**NRT_FREE)
def passes(groups, cons_group, cons_mask, cons_op, cons_value):
    """True if the dealt ``groups`` (natural masks) meet every constraint row."""
    for c in range(cons_group.shape[0]):
        n = popcount(groups[cons_group[c]] & cons_mask[c])
        op = cons_op[c]
        if op == OP_EQ and n != cons_value[c]:
            return False
        if op == OP_GE and n < cons_value[c]:
            return False
        if op == OP_LE and n > cons_value[c]:
            return False
    return True


@njit(**NRT_FREE)
def shuffle_into_groups(state, work, sizes, out):
    """One more shuffle of the unseen card ids ``work`` (in place, from ``state``) dealt into
    groups of ``sizes`` as natural masks in ``out``."""
    shuffle(state, work)
    k = 0
    for g in range(sizes.shape[0]):
        m = np.uint64(0)
        for _ in range(sizes[g]):
            m |= np.uint64(1) << np.uint64(work[k])
            k += 1
        out[g] = m


@njit(**NRT_FREE)
def deal_try(dealing, index, state, work, groups):
    """One try at deal ``index`` of ``dealing`` into ``groups`` (natural masks, one per
    group): exact mode, layout ``index``; random mode, the next shuffle of ``work`` (the
    unseen cards, shuffled in place) from the stream ``state``. Returns whether the
    constraints pass."""
    if dealing.exact:
        unrank_layout(index, dealing.cards, dealing.sizes, dealing.binom, groups)
    else:
        shuffle_into_groups(state, work, dealing.sizes, groups)
    return passes(groups, dealing.cons_group, dealing.cons_mask, dealing.cons_op,
                  dealing.cons_value)


@njit(**JIT)
def deal_groups(seed, index, dealing, out):
    """Deal ``index`` of ``dealing`` into ``out`` (natural masks, one per group), with no
    calls heard to fit: reshuffled from the stream ``(seed, index)`` until the constraints
    pass, at most ``dealing.max_tries`` times (exact mode: one try). Returns the number of
    tries when the deal passes, or minus that number when it does not."""
    state = stream_state(seed, STREAM_DEAL, index)
    work = dealing.cards.copy()
    tries = 1 if dealing.exact else dealing.max_tries
    for t in range(1, tries + 1):
        if deal_try(dealing, index, state, work, out):
            return t
    return -tries


@njit(**NRT_FREE)
def deal_hand(cfg, seed, index, dealer, hm, rec, deck_ids, cards, state):
    """Deal hand ``index`` of stream ``seed`` into ``hm``/``rec`` (cleared): a shuffle of the
    whole deck ``deck_ids`` from the counter-based generator, ``C.DEAL`` cards to each of the
    four hands (seat W holds the ghost hand or the dummy in the 3-player variants), the rest to
    the kitty with the upcard on top. ``cards`` (as long as the deck) and ``state`` (one uint64)
    are scratch."""
    for i in range(cards.shape[0]):  # not cards[:] = deck_ids: a slice copy needs NRT
        cards[i] = deck_ids[i]
    reseed(state, seed, STREAM_DEAL, index)
    shuffle(state, cards)
    reset_record(hm, rec)
    rec[R.DEALER] = dealer
    deal = cfg[C.DEAL]
    k = 0
    for seat in range(4):
        m = np.uint64(0)
        for _ in range(deal):
            m |= card_bit(cards[k])
            k += 1
        hm[M.DEALT + seat] = m
    kitty = np.uint64(0)
    for i in range(k, cards.shape[0]):
        kitty |= card_bit(cards[i])
    hm[M.KITTY] = kitty
    if cfg[C.AUCTION] == AUCTION_UPCARD:
        rec[R.UPCARD] = cards[k]
