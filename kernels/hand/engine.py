"""The hand engine: one hand from the deal to the points, phase by phase (``kernels.hand.auction``,
``kernels.hand.exchanges``, ``kernels.hand.tricks``), into a record of what happened (``rec`` int64
slots ``R`` and ``hm`` uint64 masks ``M``, see ``kernels.slots``), run as its instructions
say (``ag.ins``, slots ``IN``). In ``MODE_PLAY`` every decision is the seats' policies'; in
``MODE_REPLAY`` (``replay_hand``) every decision is read from the record and checked,
stopping at the first illegal one with an ``E_*`` code in ``rec[R.ERROR]``; a card that fails
to follow suit is kept and counted as a renege; in ``MODE_FORCED`` (``kernels.drivers.forced``) the
calls heard at a decision point are replayed and the rest is played. ``play_batch`` plays
many hands in parallel with no Python in the loop.
"""

import numpy as np
from numba import get_thread_id, njit, prange

from ..bidding.bidding import COUNT_PARAMS, N_PARAMS
from ..cards.codes import (
    AUCTION_LADDER,
    E_NO_DECISION,
    E_NONE,
    MODE_PLAY,
    MODE_REPLAY,
    NOBODY,
    RENEGE_PENALTY,
    STOP_NEXT,
)
from ..cards.layout import DECK_DOUBLE, normalise_mask
from ..cards.seating import contract_needs, declaring_mask, first_leader, on_declaring_side, partner
from ..config import JIT, NRT_FREE, PARALLEL_JIT
from ..deal.dealing import deal_hand
from ..deal.record import clear_outcome, fail, new_instructions, stopping
from ..deal.rng import STREAM_PLAY, reseed, stream_state
from ..slots import IN, C, K, M, R
from ..solver import new_deal, solve_exact, solver_arrays
from .auction import auction_ladder, auction_upcard, before_auction
from .exchanges import exchanges
from .policies import D_POINTS, Agents
from .tricks import play_tricks


@njit(**NRT_FREE)
def score_hand(rules, rec):
    """Points of every seat from the contract and tricks in ``rec`` (table lookup; defenders
    who score their own tricks add them), minus RENEGE_PENALTY for each side that reneged (in the
    three-player variants the player who reneged)."""
    cfg = rules.cfg
    score_table = rules.score_table
    decl = rec[R.DECLARER]
    won = rec[R.DECL_TRICKS]
    decl_pts = score_table[rec[R.CONTRACT], won, 0]
    def_pts = score_table[rec[R.CONTRACT], won, 1]
    players = cfg[C.PLAYERS]
    for s in range(players):
        if on_declaring_side(cfg, s, decl):
            rec[R.POINTS + s] = decl_pts
        elif cfg[C.DEF_OWN_TRICKS] == 1:
            rec[R.POINTS + s] = def_pts + rec[R.TRICKS + s]
        else:
            rec[R.POINTS + s] = def_pts
    for s in range(players):
        if rec[R.RENEGES + s] > 0:
            if cfg[C.PARTNERS] == 1:
                other = partner(s)
                if s < other or rec[R.RENEGES + other] == 0:
                    rec[R.POINTS + s] -= RENEGE_PENALTY
                    rec[R.POINTS + other] -= RENEGE_PENALTY
            else:
                rec[R.POINTS + s] -= RENEGE_PENALTY


@njit(**JIT)
def play_hand(rules, ag, hm, rec):
    """Play (or replay, by ``ag.ins[IN.MODE]``) one dealt hand in ``hm``/``rec`` to the end and
    score it.

    ``rules`` is the ``kernels.cards.rules.RuleArrays`` of the rule set, ``ag`` the
    ``policies.Agents`` of the table. Returns True if the hand was played out or ended by a
    legal redeal; False on a replay error (``rec[R.ERROR]`` says which)."""
    cfg = rules.cfg
    hands = np.empty(4, dtype=np.uint64)
    for s in range(4):
        hands[s] = hm[M.DEALT + s]
    ok = True
    if cfg[C.ACE_NO_FACE] == 1 or cfg[C.AUCTION] == AUCTION_LADDER and cfg[C.KITTY] > 0 or \
            rec[R.REDEAL_SEAT] >= 0:  # the phase is rare: most hands skip the call
        ok = before_auction(ag, hands, rules, hm, rec)
    if ok:
        if cfg[C.AUCTION] == AUCTION_LADDER:
            ok = auction_ladder(ag, hands, cfg, hm, rec)
        else:
            ok = auction_upcard(ag, hands, rules, hm, rec)
    if not ok:
        if rec[R.ERROR] == E_NONE and stopping(ag.ins):
            return fail(rec, E_NO_DECISION, rec[R.NCALLS])  # everyone passed first
        return rec[R.ERROR] == E_NONE
    active = exchanges(ag, hands, rules, hm, rec)
    if active < 0:
        return False
    if stopping(ag.ins) and ag.ins[IN.STOP] != STOP_NEXT:  # stopping at a call: none is left
        return fail(rec, E_NO_DECISION, rec[R.NCALLS])
    for s in range(4):
        hm[M.PLAY + s] = hands[s] if (active >> s) & 1 else np.uint64(0)
    leader = first_leader(cfg, rec[R.DECLARER], rec[R.DEALER], rec[R.MAKER_ALONE] == 1,
                          rec[R.DEFENDER_ALONE], active)
    if ag.ins[IN.SOLVE] == 1 and ag.ins[IN.FORCED_PLAYS] == 0 and ag.ins[IN.F_CARD] < 0:
        solved_tricks(ag, hands, rules, rec, active, leader)  # (else the play solves the rest)
        return True
    if not play_tricks(ag, hands, rules, rec, active, leader):
        return False
    score_hand(rules, rec)
    return True


@njit(**JIT)
def solved_tricks(ag, hands, rules, rec, active, leader):
    """Instead of playing the cards: the declaring side's tricks with every seat playing
    double dummy, from the first lead (``R.DECL_TRICKS``, ``R.FIRST_LEADER``; the points per
    seat are left out, since defenders' own tricks are not known)."""
    cfg = rules.cfg
    to_norm = rules.to_norm
    trump = rec[R.TRUMP]
    nh = np.zeros(4, dtype=np.uint64)
    for s in range(4):
        if (active >> s) & 1:
            nh[s] = normalise_mask(hands[s], to_norm[trump])
    double = 1 if (cfg[C.DECK] & DECK_DOUBLE) else 0
    rec[R.FIRST_LEADER] = leader
    rec[R.DECL_TRICKS] = solve_exact(ag.work, ag.table, nh, active,
                                     declaring_mask(cfg, rec[R.DECLARER], active), leader,
                                     double, contract_needs(cfg, rec[R.CONTRACT]))


@njit(**JIT)
def new_agents(policies, params, rng, work, table, decks):
    """The ``Agents`` of one table: a fresh knowledge array (nobody holds the upcard), hands
    played by the policies (``MODE_PLAY``)."""
    know = np.zeros(np.int64(K.LEN), dtype=np.uint64)
    know[K.UP_HOLDER] = NOBODY
    return Agents(policies, params, rng, work, table, know, decks, new_instructions())


@njit(**NRT_FREE)
def next_hand(ag, seed, index, stream=STREAM_PLAY):
    """Make ``ag`` ready for hand ``index``: its policy stream restarted at ``(seed,
    stream, index)`` and its knowledge cleared."""
    reseed(ag.rng, seed, stream, index)
    ag.know[:] = 0
    ag.know[K.UP_HOLDER] = NOBODY


@njit(**PARALLEL_JIT)
def play_batch(rules, policies, params, seed, first, dealers, tt_bits, nthreads, engine):
    """Deal and play hands ``first .. first + n - 1`` of stream ``seed`` (n = len(dealers),
    hand i dealt by ``dealers[i]``) in parallel, seat s playing ``policies[s]`` with
    ``params[s]``. Returns ``(masks[n, M.LEN], records[n, R.LEN])``; every hand depends only on
    (seed, its index), whatever the thread count. ``tt_bits``/``nthreads`` size the solver
    tables of dd and pimc players; ``engine`` is ``kernels.hand.pointers.engine_of(rules)`` (as
    for every driver: the engine called through it is compiled once, not into each driver)."""
    cfg = rules.cfg
    n = dealers.shape[0]
    masks = np.zeros((n, np.int64(M.LEN)), dtype=np.uint64)
    recs = np.zeros((n, np.int64(R.LEN)), dtype=np.int64)
    works, tables = solver_arrays(nthreads, tt_bits)
    deck_ids = rules.deck_ids
    decks = rules.decks
    for i in prange(n):
        tid = get_thread_id()
        cards = np.empty(deck_ids.shape[0], dtype=np.int64)
        state = np.zeros(1, dtype=np.uint64)
        deal_hand(cfg, seed, first + i, dealers[i], masks[i], recs[i], deck_ids, cards, state)
        ag = new_agents(policies, params, state, works[tid], tables[tid], decks)
        next_hand(ag, seed, first + i)
        new_deal(ag.work)
        engine.play_hand(rules, ag, masks[i], recs[i])
    return masks, recs


@njit(**JIT)
def deal_one(rules, seed, index, dealer, hm, rec):
    """Deal hand ``index`` of stream ``seed`` (dealer ``dealer``) into ``hm``/``rec``, as
    ``play_batch`` deals it."""
    cards = np.empty(rules.deck_ids.shape[0], dtype=np.int64)
    deal_hand(rules.cfg, seed, index, dealer, hm, rec, rules.deck_ids, cards,
              np.zeros(1, dtype=np.uint64))


@njit(**JIT)
def play_forced_hand(rules, policies, params, seed, index, hm, rec, ins, tt_bits, engine):
    """Play hand ``index`` of stream ``seed`` from a dealt ``hm`` and a ``rec`` whose first
    ``IN.FORCED`` calls are forced by ``ins`` (``IN.MODE`` MODE_FORCED; the asker's ``IN.F_*``
    choices where ``IN.ASKER`` is a seat): every other decision by ``policies[s]``/
    ``params[s]``, the policy streams as in ``play_batch``. Returns whether the hand was played
    without error (``engine``: ``kernels.hand.pointers.engine_of(rules)``)."""
    works, tables = solver_arrays(1, tt_bits)
    ag = new_agents(policies, params, np.zeros(1, dtype=np.uint64), works[0], tables[0],
                    rules.decks)
    ag.ins[:] = ins
    next_hand(ag, seed, index)
    new_deal(ag.work)
    return engine.play_hand(rules, ag, hm, rec)


@njit(**JIT)
def replay_hand(rules, hm, rec, engine):
    """Check and score a recorded hand (``hm`` dealt cards, ``rec`` decisions and plays;
    ``engine``: ``kernels.hand.pointers.engine_of(rules)``). Returns True if every step is
    legal (reneges are legal here, and penalised)."""
    clear_outcome(hm, rec)
    works, tables = solver_arrays(1, 1)
    ag = new_agents(np.zeros((4, 2), dtype=np.int64), np.zeros((4, N_PARAMS)),
                    stream_state(0, 0, 0), works[0], tables[0],
                    rules.decks)
    ag.ins[IN.MODE] = MODE_REPLAY
    return engine.play_hand(rules, ag, hm, rec)


@njit(**JIT)
def point_state(rules, hm, rec, ins, engine):
    """Run a forced record (instructions ``ins``: ``IN.MODE`` MODE_FORCED with ``IN.STOP``, the
    asker; the calls heard in ``rec``, the asker's hand in ``hm``) up to the asker's decision:
    afterwards ``rec[R.ERROR]`` is E_STOPPED with ``R.STOP_KIND``, ``R.TURN`` and ``R.ALLOWED``
    saying what the decision is, or the error that prevents it (an illegal call heard, another
    seat's turn: ``R.TURN`` whose, and at a call ``R.STOP_KIND`` and ``R.ALLOWED`` its calls
    too; no decision left). Seats whose decisions come between are played by the point-count
    policy (``engine``: ``kernels.hand.pointers.engine_of(rules)``)."""
    works, tables = solver_arrays(1, 1)
    policies = np.zeros((4, 2), dtype=np.int64)
    params = np.zeros((4, N_PARAMS))
    for s in range(4):
        policies[s, 0] = D_POINTS
        params[s, :COUNT_PARAMS.size] = COUNT_PARAMS
    ag = new_agents(policies, params, stream_state(0, 0, 0), works[0], tables[0],
                    rules.decks)
    ag.ins[:] = ins
    engine.play_hand(rules, ag, hm, rec)


@njit(**JIT)
def play_out(ag, rules, hands, trump, declarer, active, leader, rec, engine):
    """Play the tricks of natural ``hands`` (the seats in ``active``) from ``leader``'s lead
    with the play policies of ``ag``, ``declarer`` declaring ``trump``; ``ag.know`` holds what
    the seats learned before the lead. Returns the declaring side's tricks. ``rec`` is scratch
    (its tricks part is filled); ``engine``: ``kernels.hand.pointers.engine_of(rules)``."""
    for i in range(R.LEN):
        rec[i] = -1
    for s in range(4):
        rec[R.TRICKS + s] = 0
    rec[R.DECL_TRICKS] = 0
    rec[R.TRUMP] = trump
    rec[R.DECLARER] = declarer
    mode = ag.ins[IN.MODE]
    ag.ins[IN.MODE] = MODE_PLAY
    work = hands.copy()
    engine.play_tricks(ag, work, rules, rec, np.int64(active), np.int64(leader))
    ag.ins[IN.MODE] = mode
    return rec[R.DECL_TRICKS]
