"""A decision point as the engine's input, and one option played out from it: the one home of
both. The odds engine's query (``kernels.query``), the strategy tables' decision rows
(``kernels.decisions``) and the Python callers (``analyzer.compute.engine``, the rollout
bidder) all start a forced run here, so a point means the same thing everywhere.

A forced run (``MODE_FORCED``) replays the calls heard, then lets the seats' policies decide,
except the asker's own choices after its call, which the ``R.F_*`` slots give (-1: its
policy's)."""

from numba import njit

from .codes import MODE_FORCED
from .config import NRT_FREE
from .engine import play_hand
from .record import reset_record
from .slots import OPT, PT, R, X


@njit(**NRT_FREE)
def force_calls(rec, seats, calls, n, alone, asker):
    """Make ``rec`` a forced run: the ``n`` calls ``calls`` of ``seats`` replayed (the makers in
    the 4-bit mask ``alone`` going alone), ``asker`` the seat whose later choices the
    ``R.F_*`` slots give (-1: none)."""
    rec[R.MODE] = MODE_FORCED
    rec[R.ASKER] = asker
    rec[R.HEARD_ALONE] = alone
    for j in range(n):
        rec[R.CALL_SEAT + j] = seats[j]
        rec[R.CALL + j] = calls[j]
    rec[R.NCALLS] = n
    rec[R.FORCED] = n


@njit(**NRT_FREE)
def force_choices(rec, option):
    """The asker's own choices after its call, from an option row (slots ``OPT``; -1: its
    policy's): going alone, the discard, the card given away, the trump, a lone defence."""
    rec[R.F_ALONE] = option[OPT.ALONE]
    rec[R.F_DISCARD] = option[OPT.DISCARD]
    rec[R.F_GIVE] = option[OPT.GIVE]
    rec[R.F_TRUMP] = option[OPT.TRUMP]
    rec[R.F_DEFEND] = option[OPT.DEFEND]


@njit(**NRT_FREE)
def start_point(hm, rec, deal_hm, point):
    """A fresh record of the dealt cards ``deal_hm`` (slots ``M``) at the decision point
    ``point`` (slots ``PT``): its dealer and upcard (-1: none) set, the calls heard forced and
    its asker named (see :func:`force_calls`)."""
    reset_record(hm, rec)
    for i in range(hm.shape[0]):  # not hm[:] = deal_hm: a slice copy needs NRT
        hm[i] = deal_hm[i]
    rec[R.DEALER] = point[PT.DEALER]
    rec[R.UPCARD] = point[PT.UPCARD]
    n = point[PT.NCALLS]
    force_calls(rec, point[PT.CALL_SEAT:PT.CALL_SEAT + n], point[PT.CALL:PT.CALL + n], n,
                point[PT.HEARD_ALONE], point[PT.ASKER])


@njit(**NRT_FREE)
def play_option(rules, ag, hm, rec, point, option, out):
    """From ``point`` started by :func:`start_point`: the asker's ``option`` (its call, when
    ``option[OPT.CALL] >= 0``, then its choices), every later decision by the seats' policies
    and the cards by their play policies or, with ``point[PT.SOLVE]``, the tricks double
    dummy; ``out`` (slots ``X``) says how the hand ended (``X.STATUS`` -1: the option could
    not be played)."""
    if option[OPT.CALL] >= 0:
        j = rec[R.NCALLS]
        rec[R.CALL_SEAT + j] = rec[R.ASKER]
        rec[R.CALL + j] = option[OPT.CALL]
        rec[R.NCALLS] = j + 1
        rec[R.FORCED] = j + 1
    force_choices(rec, option)
    rec[R.SOLVE] = point[PT.SOLVE]
    ok = play_hand(rules, ag, hm, rec)
    out[X.STATUS] = rec[R.STATUS] if ok else -1
    out[X.DECLARER] = rec[R.DECLARER]
    out[X.CONTRACT] = rec[R.CONTRACT]
    out[X.ROUND] = rec[R.ROUND]
    out[X.TRICKS] = rec[R.DECL_TRICKS]
    out[X.AUX] = rec[R.ASK_RECEIVE] if rec[R.ASK_RECEIVE] >= 0 else rec[R.DEALER_DISCARD]
