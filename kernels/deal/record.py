"""Helpers on one hand's record (``rec``, slots ``kernels.slots.R``), card masks (``hm``,
slots ``M``) and instructions (``ins``, slots ``IN``) shared by the engine's phases."""

import numpy as np
from numba import njit

from ..cards.bits import ONE
from ..cards.codes import E_STOPPED, MODE_FORCED, MODE_PLAY, ST_PLAYED, UNLIKELY_STEP
from ..cards.layout import DECK_DOUBLE
from ..config import JIT, NRT_FREE
from ..slots import IN, C, M, R
from .rng import GOLDEN, mix64


@njit(**NRT_FREE)
def card_bit(card):
    """uint64 mask of natural card id ``card``."""
    return ONE << np.uint64(card)


@njit(**NRT_FREE)
def reset_record(hm, rec):
    """Clear a record for a new hand: every card slot -1, counters 0."""
    hm[:] = 0
    for i in range(R.LEN):
        rec[i] = -1
    rec[R.STATUS] = ST_PLAYED
    rec[R.NCALLS] = 0
    rec[R.ERROR] = 0
    rec[R.DECL_TRICKS] = 0
    rec[R.MAKER_ALONE] = 0
    rec[R.ALONE_SEATS] = 0
    rec[R.ALLOWED] = 0
    rec[R.TREMBLED] = 0
    rec[R.UNLIKELY] = 0
    for s in range(4):
        rec[R.TRICKS + s] = 0
        rec[R.POINTS + s] = 0
        rec[R.RENEGES + s] = 0


@njit(**NRT_FREE)
def reset_instructions(ins):
    """Instructions (slots ``IN``) for a hand played by the seats' policies alone:
    ``MODE_PLAY``, no forced calls, asker or forced choices, card play (no solver)."""
    ins[:] = 0
    ins[IN.MODE] = MODE_PLAY
    ins[IN.ASKER] = -1
    for slot in (IN.F_ALONE, IN.F_DISCARD, IN.F_GIVE, IN.F_TRUMP, IN.F_DEFEND, IN.F_CARD,
                 IN.NAMED, IN.F_RECEIVE):
        ins[slot] = -1


@njit(**JIT)
def new_instructions():
    """A fresh instruction array (see :func:`reset_instructions`)."""
    ins = np.empty(np.int64(IN.LEN), dtype=np.int64)
    reset_instructions(ins)
    return ins


@njit(**NRT_FREE)
def clear_outcome(hm, rec):
    """Clear what playing a hand fills in, keeping the deal and the recorded decisions (the
    start of a replay)."""
    for slot in (R.STATUS, R.ERROR, R.DECL_TRICKS, R.MAKER_ALONE):
        rec[slot] = 0
    for slot in (R.ERROR_AT, R.ERROR_INFO, R.SWAP_SEAT, R.DECLARER, R.CONTRACT, R.ROUND,
                 R.FIRST_LEADER, R.DEFENDER_ALONE):
        rec[slot] = -1
    for s in range(4):
        rec[R.TRICKS + s] = 0
        rec[R.POINTS + s] = 0
        rec[R.RENEGES + s] = 0
    for t in range(12):
        rec[R.TRICK_LEADER + t] = -1
        rec[R.TRICK_WINNER + t] = -1
    hm[M.DEAD] = 0
    for s in range(4):
        hm[M.PLAY + s] = 0


@njit(**NRT_FREE)
def fail(rec, code, at):
    """Record replay error ``code`` (``kernels.cards.codes.E_*``) at ``at``; returns False."""
    rec[R.ERROR] = code
    rec[R.ERROR_AT] = at
    return False


@njit(**NRT_FREE)
def held_copy(mask, card, cfg):
    """``card`` if natural mask ``mask`` holds it; in the double deck the other copy of the card
    if only that one is held (a record cannot tell the copies apart); else -1."""
    if card < 0 or card >= 64:
        return -1
    if mask & card_bit(card):
        return card
    if (cfg[C.DECK] & DECK_DOUBLE) and (mask & card_bit(card ^ 32)):
        return card ^ 32
    return -1


@njit(**NRT_FREE)
def tolerated(ins, rec, chance):
    """Whether a forced call that is not the seat's strategy's is kept as a tremble (a deal
    checked against the calls heard, ``IN.CHECK``): kept with probability ``chance``, the
    likelihood of the heard call against that of the strategy's own (see
    ``kernels.bidding.bidding.call_likelihood``; for a yes/no choice ``flip_kept``). The draws
    come from ``IN.TREMBLE_KEY``, one key per try of a deal; a kept call is counted in
    ``R.TREMBLED``. With ``IN.WEIGH`` (exact mode: each layout once) it is always kept and
    its chance weighs the deal instead (``R.UNLIKELY``)."""
    if chance <= 0.0:
        return False
    if ins[IN.WEIGH] == 1:
        rec[R.TREMBLED] += 1
        rec[R.UNLIKELY] += np.int64(np.round(-np.log2(min(chance, 1.0)) * UNLIKELY_STEP))
        return True
    x = mix64(np.uint64(ins[IN.TREMBLE_KEY]) + np.uint64(rec[R.TREMBLED] + 1) * GOLDEN)
    if np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0) < chance:
        rec[R.TREMBLED] += 1
        return True
    return False


@njit(**NRT_FREE)
def flip_kept(ins, rec):
    """Whether the other answer of a yes/no choice (go alone, take the ghost hand) than the
    strategy's is kept as a tremble: its likelihood ratio is ``e / (1 - e)``, ``e`` the
    tremble (``IN.TREMBLE`` per million); see ``tolerated``."""
    e = ins[IN.TREMBLE] / 1_000_000
    return tolerated(ins, rec, e / (1.0 - e))


@njit(**NRT_FREE)
def stopping(ins):
    """Whether the instructions ``ins`` are a forced run that stops at a decision of the asker
    (``IN.STOP``): the auction's calls and, once the play is reached, the engine ask it."""
    return ins[IN.MODE] == MODE_FORCED and ins[IN.STOP] > 0


@njit(**NRT_FREE)
def stop_here(rec, kind, seat, allowed):
    """Stop the engine at the asker's decision of ``kind`` (``STOP_*``); returns False."""
    rec[R.STOP_KIND] = kind
    rec[R.TURN] = seat
    rec[R.ALLOWED] = np.int64(allowed)
    return fail(rec, E_STOPPED, 0)
