"""The odds engine's kernel: deal a chunk of deals and answer every question of a query on each
one (common random numbers: every option is judged on the same deals).

The deals are the unseen cards of a decision point, dealt consistent with the conditions
given and, with inference, with the calls heard: a deal where a seat's strategy would not
have made a call it made is dealt again from the same stream (``point`` slots ``PT``).

A scenario is one int64 row (slots ``S``): trump, declarer, the seats that play, the
declaring side, the leader and the question (at least ``target`` tricks, or the exact count
when -1), asked of the hands as dealt. The answer for deal ``i`` and scenario ``s`` is
``outcomes[i, s]``: tricks of the declaring side, or 1/0 for a threshold.

An option is one int64 row (slots ``OPT``): a call the asker can make at the point and its
own choices that follow (going alone, a discard, the card given in an n-ask, the trump, a
lone defence). Each option is played out to the end of the hand: the calls heard, the
option, then every later decision by the seats' policies and the cards by their play
policies, or (``PT.SOLVE``) the tricks by the double-dummy solver. ``results[i, o]`` (slots
``X``) say how it ended.
"""

import numpy as np
from numba import get_thread_id, njit, prange

from .codes import E_INCONSISTENT, STOP_NEXT
from .config import JIT, PARALLEL_JIT
from .dealing import binomial_table, passes, shuffle_into_groups, unrank_layout
from .engine import new_agents, next_hand, normalised_decks, play_hand, play_out, solver_arrays
from .forced import play_option, start_point
from .layout import DECK_DOUBLE, deck_mask, normalise_mask
from .rng import GOLDEN, STREAM_DEAL, STREAM_SCENARIO, mix64, stream_state
from .slots import PT, C, M, R, S, X
from .solver import W, at_least, new_deal, set_position, solve_exact


@njit(**JIT)
def _solve(w, tt, hands, trump, active, decl, leader, target, to_norm, double):
    nh = np.empty(4, dtype=np.uint64)
    for s in range(4):
        nh[s] = normalise_mask(hands[s], to_norm[trump])
    if target >= 0:
        set_position(w, nh, active, decl, double)
        empty = np.zeros(4, dtype=np.int64)
        return 1 if at_least(w, tt, leader, empty, empty, 0, target) else 0
    return solve_exact(w, tt, nh, active, decl, leader, double)


@njit(**JIT)
def play_scenario(w, tt, dealt, scen, solve, to_norm, from_norm, double, ag, cfg, rec):
    """Answer one scenario row on one deal (natural masks ``dealt`` by seat): the declaring
    side's tricks (or 1/0 for a threshold), solved double dummy with ``solve``, else played
    out by ``ag``'s players. Returns ``(outcome, nodes)``."""
    trump = scen[S.TRUMP]
    if solve == 1:
        v = _solve(w, tt, dealt, trump, scen[S.ACTIVE], scen[S.DECL], scen[S.LEADER],
                   scen[S.TARGET], to_norm, double)
        return v, np.int64(w[W.NODES])
    hands = dealt.copy()
    before = ag.know.copy()  # the play turns the knowledge into the play phase's form
    tricks = play_out(ag, cfg, hands, trump, scen[S.DECLARER], scen[S.ACTIVE], scen[S.LEADER],
                      to_norm, from_norm, rec)
    ag.know[:] = before
    if scen[S.TARGET] >= 0:
        return (1 if tricks >= scen[S.TARGET] else 0), 0
    return tricks, 0


@njit(**JIT)
def _start(hm, rec, deal_hm, point):
    """A fresh record of the deal ``deal_hm`` at the decision point ``point``: the calls
    heard forced."""
    n = point[PT.NCALLS]
    start_point(hm, rec, deal_hm, point[PT.DEALER], point[PT.UPCARD],
                point[PT.CALL_SEAT:PT.CALL_SEAT + n], point[PT.CALL:PT.CALL + n], n,
                point[PT.HEARD_ALONE], point[PT.ASKER])


@njit(**JIT)
def _deal_masks(deal_hm, dealt, deck):
    """The engine's card masks (slots ``M``) of a deal: each seat's cards, the rest of the
    deck in the kitty."""
    deal_hm[:] = 0
    kitty = deck
    for s in range(4):
        deal_hm[M.DEALT + s] = dealt[s]
        kitty &= ~dealt[s]
    deal_hm[M.KITTY] = kitty


@njit(**JIT)
def heard_is_consistent(cfg, score_table, to_norm, from_norm, ag, hm, rec, deal_hm, point,
                        seed, index, key):
    """Whether every seat but the asker makes the calls heard with the cards of ``deal_hm``
    by its policy, or keeps a call it would not make as a tremble (``point[PT.TREMBLE]``;
    the draws from ``key``); the engine stops at the asker's turn."""
    _start(hm, rec, deal_hm, point)
    rec[R.CHECK] = 1
    rec[R.TREMBLE] = point[PT.TREMBLE]
    rec[R.TREMBLE_KEY] = np.int64(key)
    rec[R.STOP] = STOP_NEXT
    next_hand(ag, seed, index)
    play_hand(cfg, score_table, to_norm, from_norm, ag, hm, rec)
    return rec[R.ERROR] != E_INCONSISTENT


@njit(**JIT)
def deal_point(seed, index, exact, known, cards, sizes, group_seat, binom, cons, max_tries,
               cfg, score_table, to_norm, from_norm, ag, hm, rec, deck, point, dealt, deal_hm):
    """Deal ``index`` into ``dealt`` (natural masks by seat, the known cards included) and
    ``deal_hm`` (its engine masks): random shuffles from ``(seed, index)`` until the
    conditions ``cons`` hold and, with inference, the calls heard follow; exact mode: layout
    ``index``, one try. Returns the tries, or minus them when none passed."""
    n_groups = sizes.shape[0]
    groups = np.empty(n_groups, dtype=np.uint64)
    state = stream_state(seed, STREAM_DEAL, index)
    work = cards.copy()
    tries = 1 if exact else max_tries
    for t in range(1, tries + 1):
        if exact:
            unrank_layout(index, cards, sizes, binom, groups)
        else:
            shuffle_into_groups(state, work, sizes, groups)
        if not passes(groups, cons[0], cons[1], cons[2], cons[3]):
            continue
        dealt[:] = known
        for g in range(n_groups):
            if group_seat[g] >= 0:
                dealt[group_seat[g]] |= groups[g]
        _deal_masks(deal_hm, dealt, deck)
        if point[PT.CHECK] == 0:
            return t
        # the tremble draws of this try, from (seed, index, try): the deal stream is untouched
        key = mix64(mix64(np.uint64(seed)) + np.uint64(index) * GOLDEN + np.uint64(t))
        if heard_is_consistent(cfg, score_table, to_norm, from_norm, ag, hm, rec, deal_hm,
                               point, seed, index, key):
            return t
    return -tries


@njit(**PARALLEL_JIT)
def run_chunk(seed, first, n, exact_mode, known, cards, sizes, group_seat, cons, max_tries,
              point, scenarios, options, cfg, score_table, to_norm, from_norm, policies,
              params, tt_bits, nthreads):
    """Deal deals ``first .. first+n-1`` (random from ``seed``, or layouts when
    ``exact_mode``) and answer every scenario and option on each.

    ``known[4]`` natural masks of the cards the asker knows in each seat (its own hand);
    ``cards`` the unseen natural ids, dealt in groups of ``sizes`` to ``group_seat`` (-1: the
    kitty or a dead hand); ``cons`` the four constraint arrays of ``kernels.dealing``;
    ``point`` the decision point (slots ``PT``: the upcard, the calls heard, inference, double
    dummy or card play), ``scenarios`` rows (slots ``S``), ``options`` rows (slots ``OPT``);
    ``cfg``/``score_table``/``to_norm``/``from_norm`` the rules; ``policies``/``params`` the
    seats' strategies and play. Returns ``(outcomes[n, S] int8, tries[n] int32, nodes[n]
    int64, dealt[n, 4] uint64, results[n, O, X.LEN] int8, trembled[n] int8)``: a deal that
    never passed has negative tries and outcomes -1; ``trembled`` counts the calls heard its
    deal kept only as trembles. Every deal depends only on (seed, its index), whatever the
    threads."""
    n_scen = scenarios.shape[0]
    n_opt = options.shape[0]
    outcomes = np.full((n, n_scen), -1, dtype=np.int8)
    results = np.full((n, n_opt, np.int64(X.LEN)), -1, dtype=np.int8)
    tries = np.zeros(n, dtype=np.int32)
    nodes = np.zeros(n, dtype=np.int64)
    dealt_out = np.zeros((n, 4), dtype=np.uint64)
    trembled = np.zeros(n, dtype=np.int8)
    works, tables = solver_arrays(nthreads, tt_bits)
    binom = binomial_table(cards.shape[0])
    decks = normalised_decks(cfg[C.DECK], to_norm)
    deck = deck_mask(cfg[C.DECK])
    double = 1 if (cfg[C.DECK] & DECK_DOUBLE) else 0
    solve = point[PT.SOLVE]
    for i in prange(n):
        tid = get_thread_id()
        ag = new_agents(policies, params, np.zeros(1, dtype=np.uint64), works[tid],
                        tables[tid], decks)
        rec = np.zeros(np.int64(R.LEN), dtype=np.int64)
        hm = np.zeros(np.int64(M.LEN), dtype=np.uint64)
        deal_hm = np.zeros(np.int64(M.LEN), dtype=np.uint64)
        dealt = np.zeros(4, dtype=np.uint64)
        t = deal_point(seed, first + i, exact_mode, known, cards, sizes, group_seat, binom,
                       cons, max_tries, cfg, score_table, to_norm, from_norm, ag, hm, rec, deck,
                       point, dealt, deal_hm)
        tries[i] = t
        if t < 0:
            continue
        trembled[i] = rec[R.TREMBLED] if point[PT.CHECK] == 1 else 0
        new_deal(works[tid])
        dealt_out[i] = dealt
        for s in range(n_scen):
            next_hand(ag, seed, (first + i) * n_scen + s, STREAM_SCENARIO)
            v, k = play_scenario(works[tid], tables[tid], dealt, scenarios[s], solve, to_norm,
                                 from_norm, double, ag, cfg, rec)
            outcomes[i, s] = v
            nodes[i] += k
        for o in range(n_opt):
            _start(hm, rec, deal_hm, point)
            next_hand(ag, seed, first + i)
            play_option(cfg, score_table, to_norm, from_norm, ag, hm, rec, options[o], solve,
                        results[i, o])
    return outcomes, tries, nodes, dealt_out, results, trembled
