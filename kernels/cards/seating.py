"""Who plays a contract, which seats declare, and who leads the first trick: the one home of
these rules. The engine plays by them and the analyzer sets up solver positions with them
(these functions are callable from plain Python too).

A contract here is its declarer, whether the maker goes alone (partner or dummy sits out; the
n-ask and the moon in bid are lone contracts too) and the seat of a lone defender (-1: none).
"""

from numba import njit

from ..config import NRT_FREE
from ..slots import C
from .codes import ASK, AUCTION_LADDER, LEAD_DECLARER, LEAD_LEFT_OF_LONE
from .rules import next_active


@njit(**NRT_FREE)
def players_mask(cfg):
    """4-bit mask of the seats that take part in the bidding (N E S, or N E S W)."""
    return (1 << cfg[C.PLAYERS]) - 1


@njit(**NRT_FREE)
def contract_needs(cfg, contract):
    """Tricks the declaring side needs to make ``contract`` (a ladder's winning call: the bid,
    or every trick for the n-ask and the moon; the upcard auction: ``cfg[C.MAKE]``)."""
    if cfg[C.AUCTION] == AUCTION_LADDER:
        return contract if contract < ASK else cfg[C.HAND]
    return cfg[C.MAKE]


@njit(**NRT_FREE)
def on_declaring_side(cfg, seat, declarer):
    """True if ``seat`` plays for the declaring side (partners in the four-player variants)."""
    if cfg[C.PARTNERS] == 1:
        return (seat & 1) == (declarer & 1)
    return seat == declarer


@njit(**NRT_FREE)
def declaring_mask(cfg, declarer, active):
    """4-bit mask of the active seats on the declaring side."""
    m = 0
    for s in range(4):
        if (active >> s) & 1 and on_declaring_side(cfg, s, declarer):
            m |= 1 << s
    return m


@njit(inline="always", **NRT_FREE)
def partner(seat):
    """The seat opposite ``seat`` (a partnership's other player). The one home of this rule:
    kernels and the analyzer call it (a structure test fails on a spelled-out form)."""
    return (seat + 2) & 3


@njit(**NRT_FREE)
def sits_out_with(cfg, seat, declarer):
    """The seat that sits out when ``seat`` goes alone: the partner in the four-player
    variants; when a defender of a three-player hand goes alone, the other defender; -1 when
    nobody does (a three-player maker going alone gives up the dummy instead)."""
    if cfg[C.PARTNERS] == 1:
        return partner(seat)
    if seat == declarer:
        return -1
    return 3 - seat - declarer


@njit(**NRT_FREE)
def contract_active(cfg, declarer, maker_alone, defender_alone):
    """4-bit mask of the seats that play a contract."""
    active = players_mask(cfg)
    if maker_alone:
        out = sits_out_with(cfg, declarer, declarer)
        if out >= 0:
            active &= ~(1 << out)
    if defender_alone >= 0:
        active &= ~(1 << sits_out_with(cfg, defender_alone, declarer))
    return active


@njit(**NRT_FREE)
def may_defend_alone(cfg, seat, declarer, active):
    """True if ``seat`` is an active defender the rules let go alone."""
    if cfg[C.LONE_DEFENDER] != 1 or not (active >> seat) & 1:
        return False
    return not on_declaring_side(cfg, seat, declarer)


@njit(**NRT_FREE)
def first_leader(cfg, declarer, dealer, maker_alone, defender_alone, active):
    """The seat that leads the first trick (``kernels.cards.codes.LEAD_*``)."""
    rule = cfg[C.LEAD]
    if rule == LEAD_DECLARER:
        return declarer
    if rule == LEAD_LEFT_OF_LONE:
        if maker_alone:
            return next_active(declarer, active)
        if defender_alone >= 0:
            return next_active(defender_alone, active)
    return next_active(dealer, active)
