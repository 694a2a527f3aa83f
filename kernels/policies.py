"""Decision policies, dispatched on an integer policy id per seat.

``policies[seat, 0]`` chooses everything but cards (bids, trump, swaps, discards, alone),
``policies[seat, 1]`` chooses cards. Every ``choose_*`` receives the whole hand state; a policy
must read only what its seat may see (its own hand, public calls, cards played, the upcard).
"""

import numpy as np
from numba import njit

from .bits import popcount
from .config import JIT
from .rng import random_set_bit, uniform_int

P_RANDOM = 1  # uniformly random among the legal choices

DECIDE = 0
PLAY = 1


@njit(**JIT)
def choose_call(policies, params, rng, seat, allowed, hands, cfg, rec):
    """The call of ``seat`` among ``allowed`` (uint64 bit mask over call codes)."""
    return random_set_bit(rng, allowed)


@njit(**JIT)
def choose_yes_no(policies, params, rng, seat, question, hands, cfg, rec):
    """A yes/no decision of ``seat``: ghost swap, Ace-No-Face redeal, going alone, defending
    alone (``question`` is one of the Q_* codes). Returns True for yes."""
    return uniform_int(rng, 2) == 1


Q_SWAP = 0
Q_ACE_NO_FACE = 1
Q_ALONE = 2
Q_DEFEND_ALONE = 3


@njit(**JIT)
def choose_trump(policies, params, rng, seat, allowed, hands, cfg, rec):
    """The suit ``seat`` names as trump among ``allowed`` (4-bit mask of suits)."""
    return random_set_bit(rng, np.uint64(allowed))


@njit(**JIT)
def choose_card_from(policies, params, rng, seat, purpose, candidates, hands, cfg, rec):
    """A natural card id from the natural mask ``candidates`` for a non-play purpose: a discard,
    the card given away in a 6-ask, the card a trumpless partner passes back (``purpose`` is
    one of the K_* codes)."""
    return random_set_bit(rng, candidates)


K_DISCARD = 0
K_ASK_GIVE = 1
K_ASK_RETURN = 2
K_JOKER_DISCARD = 3


@njit(**JIT)
def choose_dummy_discard(policies, params, rng, seat, combined, keep, hands, cfg, rec):
    """Cutthroat: which cards of the maker's ``combined`` hand+dummy (natural mask) to drop so
    that ``keep`` remain. Returns the natural mask of dropped cards."""
    dropped = np.uint64(0)
    left = combined
    for _ in range(popcount(combined) - keep):
        b = random_set_bit(rng, left)
        dropped |= np.uint64(1) << np.uint64(b)
        left &= ~(np.uint64(1) << np.uint64(b))
    return dropped


@njit(**JIT)
def choose_card(policies, params, rng, seat, legal, nhands, trick, trump, cfg, rec):
    """The normalised card ``seat`` plays among ``legal``. ``nhands`` are the normalised hands,
    ``trick`` the cards on the table (see engine.TRICK_*)."""
    return random_set_bit(rng, legal)
