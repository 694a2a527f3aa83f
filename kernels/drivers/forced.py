"""A decision point as the engine's input, and one option played out from it: the one home of
both. The odds engine's query (``kernels.drivers.query``), the strategy tables' decision rows
(``kernels.drivers.decisions``) and the Python callers (``analyzer.compute.engine``, the rollout
bidder) all start a forced run here, so a point means the same thing everywhere.

A forced run (instructions ``IN.MODE`` = ``MODE_FORCED``) replays the calls heard, then lets
the seats' policies decide, except the asker's own choices after its call, which the
``IN.F_*`` slots give (-1: its policy's). The record (``R``) holds only what happened."""

from numba import njit

from ..cards.codes import MODE_FORCED
from ..config import NRT_FREE
from ..deal.record import reset_instructions, reset_record
from ..slots import IN, OPT, PT, R, X


@njit(**NRT_FREE)
def new_point(point, dealer, upcard, asker, solve):
    """Make ``point`` (int64, slots ``PT``) a decision point with no call heard yet: the
    ``dealer``, the ``upcard`` (-1: none), the ``asker`` whose decision it is (-1: none) and
    ``solve`` (1: the tricks by the double-dummy solver, not by card play); no inference. The
    one home of a point's slots, with :func:`hear_call`, :func:`set_inference`,
    :func:`set_play_inference` and :func:`set_solving`."""
    for i in range(point.shape[0]):
        point[i] = 0
    point[PT.DEALER] = dealer
    point[PT.UPCARD] = upcard
    point[PT.ASKER] = asker
    point[PT.SOLVE] = solve
    point[PT.NAMED] = -1
    point[PT.OWN_DISCARD] = -1
    point[PT.OWN_GIVE] = -1
    point[PT.OWN_RECEIVE] = -1


@njit(**NRT_FREE)
def hear_call(point, seat, call, alone):
    """Add to ``point`` a call heard: ``seat`` called ``call`` (a maker going alone when
    ``alone``)."""
    n = point[PT.NCALLS]
    point[PT.CALL_SEAT + n] = seat
    point[PT.CALL + n] = call
    point[PT.NCALLS] = n + 1
    if alone:
        point[PT.HEARD_ALONE] |= 1 << seat


@njit(**NRT_FREE)
def hear_play(point, seat, card):
    """Add to ``point`` a card played: ``seat`` played natural card ``card`` (in play order
    from the first lead)."""
    n = point[PT.NPLAYS]
    point[PT.PLAYS + n] = (seat << 8) | card
    point[PT.NPLAYS] = n + 1


@njit(**NRT_FREE)
def set_own_play(point, named, discard, give, drop, receive):
    """What the asker knows of the hand since the auction beyond the cards played: the trump
    a ladder auction's winner ``named`` (-1: not known), and its own put-away cards: its
    ``discard`` as the dealer, the card it ``give``s in an n-ask (-1: none), the cards it
    ``drop``ped as a cutthroat maker (a natural mask; 0: none); and the card its partner
    passed it in its n-ask (``receive``, -1: none)."""
    point[PT.NAMED] = named
    point[PT.OWN_DISCARD] = discard
    point[PT.OWN_GIVE] = give
    point[PT.OWN_DROP] = drop
    point[PT.OWN_RECEIVE] = receive


@njit(**NRT_FREE)
def set_inference(point, infer, tremble):
    """Whether deals are dealt to fit the calls heard (only when some were heard), each seat
    keeping a call its strategy would not make with chance ``tremble`` per million (0 without
    inference)."""
    point[PT.CHECK] = 1 if infer and point[PT.NCALLS] > 0 else 0
    point[PT.TREMBLE] = tremble if point[PT.CHECK] == 1 else 0


@njit(**NRT_FREE)
def set_play_inference(point, infer):
    """Whether deals are weighed by the cards heard played too (only with inference of the
    calls, :func:`set_inference`, and when some were played): each seat but the asker plays
    the card its heuristic card play would, or another legal card with the calls' chance
    ``PT.TREMBLE`` spread evenly over them (``kernels.hand.tricks``)."""
    point[PT.CHECK_PLAY] = 1 if infer and point[PT.CHECK] == 1 and point[PT.NPLAYS] > 0 else 0


@njit(**NRT_FREE)
def set_solving(point, solve):
    """Whether the tricks of ``point``'s hands come from the double-dummy solver (1) or from
    the seats' card play (0)."""
    point[PT.SOLVE] = solve


@njit(**NRT_FREE)
def force_calls(rec, ins, seats, calls, n, alone, asker):
    """Make ``rec``/``ins`` a forced run: the ``n`` calls ``calls`` of ``seats`` written to the
    record and replayed (the makers in the 4-bit mask ``alone`` going alone), ``asker`` the
    seat whose later choices the ``IN.F_*`` slots give (-1: none)."""
    ins[IN.MODE] = MODE_FORCED
    ins[IN.ASKER] = asker
    ins[IN.HEARD_ALONE] = alone
    for j in range(n):
        rec[R.CALL_SEAT + j] = seats[j]
        rec[R.CALL + j] = calls[j]
    rec[R.NCALLS] = n
    ins[IN.FORCED] = n


@njit(**NRT_FREE)
def force_choices(ins, option):
    """The asker's own choices after its call, from an option row (slots ``OPT``; -1, or no
    card dropped: its policy's, or what the instructions say already: the choices the asker
    made before a point in the play): going alone, the discard, the card given away, the
    trump, a lone defence, a card to play, the cards a cutthroat maker drops."""
    for slot, f_slot in ((OPT.ALONE, IN.F_ALONE), (OPT.DISCARD, IN.F_DISCARD),
                         (OPT.GIVE, IN.F_GIVE), (OPT.TRUMP, IN.F_TRUMP),
                         (OPT.DEFEND, IN.F_DEFEND), (OPT.CARD, IN.F_CARD)):
        if option[slot] >= 0:
            ins[f_slot] = option[slot]
    if option[OPT.DROP] > 0:
        ins[IN.F_DROP] = option[OPT.DROP]


@njit(**NRT_FREE)
def force_card(ins, card):
    """The asker's card at its play decision (natural), instead of its policy's."""
    ins[IN.F_CARD] = card


@njit(**NRT_FREE)
def start_point(hm, rec, ins, deal_hm, point):
    """A fresh record of the dealt cards ``deal_hm`` (slots ``M``) at the decision point
    ``point`` (slots ``PT``): its dealer and upcard (-1: none) set; fresh instructions ``ins``
    with the calls heard forced and its asker named (see :func:`force_calls`)."""
    reset_record(hm, rec)
    reset_instructions(ins)
    for i in range(hm.shape[0]):  # not hm[:] = deal_hm: a slice copy needs NRT
        hm[i] = deal_hm[i]
    rec[R.DEALER] = point[PT.DEALER]
    rec[R.UPCARD] = point[PT.UPCARD]
    n = point[PT.NCALLS]
    force_calls(rec, ins, point[PT.CALL_SEAT:PT.CALL_SEAT + n], point[PT.CALL:PT.CALL + n], n,
                point[PT.HEARD_ALONE], point[PT.ASKER])
    ins[IN.NAMED] = point[PT.NAMED]
    ins[IN.F_DISCARD] = point[PT.OWN_DISCARD]  # the asker's own choices it has made already
    ins[IN.F_GIVE] = point[PT.OWN_GIVE]
    ins[IN.F_DROP] = point[PT.OWN_DROP]
    ins[IN.F_RECEIVE] = point[PT.OWN_RECEIVE]
    ins[IN.FORCED_PLAYS] = point[PT.NPLAYS]
    for k in range(point[PT.NPLAYS]):
        ins[IN.PLAYS + k] = point[PT.PLAYS + k]


@njit(**NRT_FREE)
def play_option(rules, ag, hm, rec, point, option, out, engine):
    """From ``point`` started by :func:`start_point` (its instructions in ``ag.ins``): the
    asker's ``option`` (its call, when ``option[OPT.CALL] >= 0``, then its choices), every later
    decision by the seats' policies and the cards by their play policies or, with
    ``point[PT.SOLVE]``, the tricks double dummy; ``out`` (slots ``X``) says how the hand ended
    (``X.STATUS`` -1: the option could not be played). ``engine``:
    ``kernels.hand.pointers.engine_of(rules)``."""
    ins = ag.ins
    if option[OPT.CALL] >= 0:
        j = rec[R.NCALLS]
        rec[R.CALL_SEAT + j] = ins[IN.ASKER]
        rec[R.CALL + j] = option[OPT.CALL]
        rec[R.NCALLS] = j + 1
        ins[IN.FORCED] = j + 1
    force_choices(ins, option)
    ins[IN.SOLVE] = point[PT.SOLVE]
    ok = engine.play_hand(rules, ag, hm, rec)
    out[X.STATUS] = rec[R.STATUS] if ok else -1
    out[X.DECLARER] = rec[R.DECLARER]
    out[X.CONTRACT] = rec[R.CONTRACT]
    out[X.ROUND] = rec[R.ROUND]
    out[X.TRICKS] = rec[R.DECL_TRICKS]
    out[X.AUX] = rec[R.ASK_RECEIVE] if rec[R.ASK_RECEIVE] >= 0 else rec[R.DEALER_DISCARD]
