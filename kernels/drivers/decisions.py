"""Decision points as they come up in play, for the strategy tables: on random deals, seat N's
first call (and, after an upcard auction's first round, its round-2 call), found by letting
every seat bid by its policy up to N's turn; there each legal call of N is played out to the
end of the hand (the rest by the policies, the cards by their play policies or the solver).

Each row (slots ``RW``) is one call at one point: which point, the analyzer table's option and
context for it (``kernels.bidding.bidding``), the trump its hand features are read for, the value
N's strategy gives it (its table's or fitted model's net points), and how the hand ended (slots
``kernels.slots.X``).
"""

import numpy as np
from numba import get_thread_id, njit, prange

from ..bidding.bidding import (
    L_PASS,
    L_SWAP,
    N_CODES,
    U_ALONE,
    U_NAME,
    U_NAME_ALONE,
    U_ORDER,
    U_PASS,
    best_suit,
    ladder_context,
    ladder_option,
    ladder_tricks,
    round1_context,
    round2_context,
    strat,
    trump_bucket,
)
from ..bidding.upcard_model import upcard_raw_values
from ..cards.bits import ONE, lowest_bit
from ..cards.codes import (
    AUCTION_LADDER,
    E_STOPPED,
    NAME,
    ORDER,
    PASS,
    STOP_CALL,
    STOP_IN_PLAY,
    SWAP,
)
from ..cards.layout import JOKER, natural_suit
from ..config import JIT, NRT_FREE, PARALLEL_JIT
from ..deal.dealing import deal_hand
from ..hand.engine import new_agents, next_hand, solver_arrays
from ..slots import IN, OPT, PT, RW, VALUE_SCALE, C, M, R, X
from ..solver import new_deal
from .forced import hear_call, new_point, play_option, start_point

MAX_ROWS = 16
ASKER = 0  # the tables are seen from seat N


@njit(**NRT_FREE)
def find_point(rules, ag, hm, rec, deal_hm, point, seed, index, engine):
    """Play the policies from the calls of ``point`` (slots ``PT``) up to N's next call;
    returns the calls allowed there (0 when N has no call to make), with every call heard
    before it now in ``point`` (``engine``: ``kernels.hand.pointers.engine_of(rules)``)."""
    start_point(hm, rec, ag.ins, deal_hm, point)
    ag.ins[IN.STOP] = STOP_IN_PLAY
    next_hand(ag, seed, index)
    engine.play_hand(rules, ag, hm, rec)
    if rec[R.ERROR] != E_STOPPED or rec[R.STOP_KIND] != STOP_CALL:
        return np.uint64(0)
    for j in range(point[PT.NCALLS], rec[R.NCALLS]):  # the calls made since, now heard
        hear_call(point, rec[R.CALL_SEAT + j], rec[R.CALL + j], False)
    return np.uint64(rec[R.ALLOWED])


@njit(**NRT_FREE)
def ladder_rows(cfg, ag, allowed, hand, dealer, holder, swapped, rows, k):
    """The rows of N's ladder call, one per call the engine allows (``allowed``): pass, the
    bids (one per row of the table, the lowest allowed: bids it values alike are one
    option), the n-ask, the moon (in N's best suit) and the swap. Returns the next free
    row."""
    place = (ASKER - dealer) % cfg[C.PLAYERS]
    bids = allowed & ~(ONE << np.uint64(SWAP))
    points, trump = best_suit(hand, 15, ag.params, ASKER)
    tricks = ladder_tricks(hand)
    ctx = ladder_context(bids, place, ASKER, holder, swapped, cfg[C.PLAYERS],
                         trump_bucket(hand, trump), tricks)
    options = 0  # the table's options given a row so far
    left = allowed
    while left and k < MAX_ROWS:
        code = np.int64(lowest_bit(left))
        left &= left - ONE
        option = L_SWAP if code == SWAP else ladder_option(code, tricks)
        if (options >> option) & 1:
            continue
        options |= 1 << option
        rows[k, RW.POINT] = 0
        rows[k, RW.OPTION] = option
        rows[k, RW.CONTEXT] = ctx
        rows[k, RW.TRUMP] = trump
        rows[k, RW.VALUE] = fixed_value(strat(ag.params, ASKER, option, ctx, points))
        rows[k, RW.RESULT + X.STATUS] = code  # the call, until played
        k += 1
    return k


@njit(**NRT_FREE)
def fixed_value(value):
    """A call's value in net points as ``RW.VALUE`` keeps it (1/VALUE_SCALE of a point, within
    the int16 range)."""
    return np.int64(round(min(max(value * VALUE_SCALE, -32767.0), 32767.0)))


@njit(**JIT)
def upcard_rows(cfg, ag, allowed, hand, dealer, upcard, round_no, rows, k):
    """The rows of N's call in the upcard auction: round 1 pass, order, order alone; round 2
    pass and each suit named, alone or not (``round_no`` 0 or 1: the row's ``RW.POINT``).
    Returns the next free row."""
    place = (ASKER - dealer) % cfg[C.PLAYERS]
    turned = natural_suit(upcard)
    raw = np.empty((N_CODES, 2))  # the strategy's values of the calls (RW.VALUE)
    upcard_raw_values(hand, allowed, ag.params, ASKER, place, upcard, turned, raw)
    if (allowed >> np.uint64(ORDER)) & ONE:
        ctx = round1_context(place, upcard, trump_bucket(hand, turned))
        for option, code, alone in ((U_PASS, PASS, 0), (U_ORDER, ORDER, 0),
                                    (U_ALONE, ORDER, 1)):
            k = _row(rows, k, round_no, option, ctx, turned, code, raw[code, alone])
        return k
    names = np.int64((allowed >> np.uint64(NAME)) & np.uint64(15))
    best = best_suit(hand, names, ag.params, ASKER)[1]
    if allowed & ONE:
        ctx = round2_context(place, best, turned, trump_bucket(hand, best))
        k = _row(rows, k, round_no, U_PASS, ctx, best, PASS, raw[PASS, 0])
    for t in range(4):
        if (names >> t) & 1:
            ctx = round2_context(place, t, turned, trump_bucket(hand, t))
            k = _row(rows, k, round_no, U_NAME, ctx, t, NAME + t, raw[NAME + t, 0])
            k = _row(rows, k, round_no, U_NAME_ALONE, ctx, t, NAME + t, raw[NAME + t, 1])
    return k


@njit(**NRT_FREE)
def _row(rows, k, round_no, option, ctx, trump, code, value):
    if k >= MAX_ROWS:
        return k
    rows[k, RW.POINT] = round_no
    rows[k, RW.OPTION] = option
    rows[k, RW.CONTEXT] = ctx
    rows[k, RW.TRUMP] = trump
    rows[k, RW.VALUE] = fixed_value(value)
    rows[k, RW.RESULT + X.STATUS] = code
    return k + 1


@njit(**NRT_FREE)
def _holder(point):
    """The seat holding the last bid among the calls of ``point`` (-1 none) and whether one
    swapped."""
    holder = -1
    swapped = 0
    for j in range(point[PT.NCALLS]):
        call = point[PT.CALL + j]
        if call == SWAP:
            swapped = 1
        elif call != PASS:
            holder = point[PT.CALL_SEAT + j]
    return holder, swapped


@njit(**NRT_FREE)
def deal_rows(rules, ag, hm, rec, deal_hm, point, seed, index, rows, engine):
    """Every row of one deal (``rows`` [MAX_ROWS, RW.LEN], filled with -1), from the point
    before the first call (``point``: the dealer, the upcard, N the asker, whether to
    solve; ``engine``: ``kernels.hand.pointers.engine_of(rules)``)."""
    cfg = rules.cfg
    hand = deal_hm[M.DEALT + ASKER]
    dealer = point[PT.DEALER]
    upcard = point[PT.UPCARD]
    allowed = find_point(rules, ag, hm, rec, deal_hm, point, seed, index, engine)
    if allowed == 0:
        return
    if cfg[C.AUCTION] == AUCTION_LADDER:
        holder, swapped = _holder(point)
        k = ladder_rows(cfg, ag, allowed, hand, dealer, holder, swapped, rows, 0)
        _play_rows(rules, ag, hm, rec, deal_hm, point, seed, index, rows[:k], engine)
        return
    if upcard == JOKER:
        return
    k = upcard_rows(cfg, ag, allowed, hand, dealer, upcard, 0, rows, 0)
    _play_rows(rules, ag, hm, rec, deal_hm, point, seed, index, rows[:k], engine)
    hear_call(point, ASKER, PASS, False)
    allowed = find_point(rules, ag, hm, rec, deal_hm, point, seed, index, engine)
    if allowed != 0 and not (allowed >> np.uint64(ORDER)) & ONE:
        start = k
        k = upcard_rows(cfg, ag, allowed, hand, dealer, upcard, 1, rows, k)
        _play_rows(rules, ag, hm, rec, deal_hm, point, seed, index, rows[start:k], engine)


@njit(**JIT)
def _play_rows(rules, ag, hm, rec, deal_hm, point, seed, index, rows, engine):
    """Play each row's call of N out from ``point``; fill the rows' results."""
    ladder = rules.cfg[C.AUCTION] == AUCTION_LADDER
    choice = np.empty(np.int64(OPT.LEN), dtype=np.int64)
    for k in range(rows.shape[0]):
        option = rows[k, RW.OPTION]
        alone = -1  # passing: N's later calls and choices are its policy's
        if not ladder and option != U_PASS:
            alone = 1 if option == U_ALONE or option == U_NAME_ALONE else 0
        choice[:] = -1
        choice[OPT.CALL] = rows[k, RW.RESULT + X.STATUS]  # the call, until played
        choice[OPT.ALONE] = alone
        choice[OPT.TRUMP] = rows[k, RW.TRUMP] if ladder and option != L_PASS and \
            option != L_SWAP else -1
        start_point(hm, rec, ag.ins, deal_hm, point)
        next_hand(ag, seed, index)
        play_option(rules, ag, hm, rec, point, choice, rows[k, RW.RESULT:], engine)


@njit(**PARALLEL_JIT)
def decision_rows_batch(rules, policies, params, seed, first, dealers, solve, tt_bits,
                        nthreads, engine):
    """Deal hands ``first .. first+n-1`` of ``seed`` (n = len(dealers), hand i dealt by
    ``dealers[i]``) and play out every call of N at its decision points, every seat deciding
    by ``policies``/``params`` and playing its cards (``solve``: the tricks double dummy).
    Returns ``(dealt[n, 4] uint64, upcards[n] int64, rows[n, MAX_ROWS, RW.LEN] int16)``; rows
    that are not used hold -1. Every deal depends only on (seed, its index). ``engine``:
    ``kernels.hand.pointers.engine_of(rules)``."""
    cfg = rules.cfg
    n = dealers.shape[0]
    dealt = np.zeros((n, 4), dtype=np.uint64)
    upcards = np.full(n, -1, dtype=np.int64)
    rows = np.full((n, MAX_ROWS, np.int64(RW.LEN)), -1, dtype=np.int16)
    works, tables = solver_arrays(nthreads, tt_bits)
    deck_ids = rules.deck_ids
    decks = rules.decks
    for i in prange(n):
        tid = get_thread_id()
        ag = new_agents(policies, params, np.zeros(1, dtype=np.uint64), works[tid],
                        tables[tid], decks)
        hm = np.zeros(np.int64(M.LEN), dtype=np.uint64)
        rec = np.zeros(np.int64(R.LEN), dtype=np.int64)
        cards = np.empty(deck_ids.shape[0], dtype=np.int64)
        deal_hand(cfg, seed, first + i, dealers[i], hm, rec, deck_ids, cards, ag.rng)
        deal_hm = hm.copy()
        new_deal(works[tid])
        upcards[i] = rec[R.UPCARD]
        for s in range(4):
            dealt[i, s] = hm[M.DEALT + s]
        point = np.empty(np.int64(PT.LEN), dtype=np.int64)
        new_point(point, dealers[i], rec[R.UPCARD], ASKER, solve)
        deal_rows(rules, ag, hm, rec, deal_hm, point, seed, first + i, rows[i], engine)
    return dealt, upcards, rows
