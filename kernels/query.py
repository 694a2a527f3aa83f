"""The odds engine's kernel: deal a chunk of deals and answer every question of a query on each
one (common random numbers: every option is judged on the same deals).

The deals are the unseen cards of a decision point, dealt consistent with the conditions
given and, with inference, with the calls heard: a deal where a seat's strategy would not
have made a call it made is dealt again from the same stream (``point`` slots ``PT``).

A scenario is one int64 row (slots ``S``): trump, declarer, the seats that play, the
declaring side, the leader, what happens to the hands before the first lead (``SK_*`` flags:
the n-ask exchange, the dealer's pick-up and discard, the dummy) and the question (at least
``target`` tricks, or the exact count when -1). The answer for deal ``i`` and scenario ``s`` is
``outcomes[i, s]``: tricks of the declaring side, or 1/0 for a threshold; ``aux[i, s]`` is the
card a choice produced (the card received in an n-ask, the dealer's discard), -1 otherwise.

An option is one int64 row (slots ``OPT``): a call the asker can make at the point and its
own choices that follow (going alone, a discard, the card given in an n-ask, the trump, a
lone defence). Each option is played out to the end of the hand: the calls heard, the
option, then every later decision by the seats' policies and the cards by their play
policies, or (``PT.SOLVE``) the tricks by the double-dummy solver. ``results[i, o]`` (slots
``X``) say how it ended.
"""

import numpy as np
from numba import get_thread_id, njit, prange

from .bidding import give_card
from .bits import highest_bit, lowest_bit
from .codes import E_INCONSISTENT, MODE_FORCED, STOP_NEXT
from .config import JIT, PARALLEL_JIT
from .dealing import binomial_table, passes, shuffle_into_groups, unrank_layout
from .engine import new_agents, next_hand, normalised_decks, play_hand, play_out, solver_arrays
from .exchange_heuristics import discard_card, keep_best
from .layout import DECK_DOUBLE, SLOT_MASKS, TRUMP_SLOT, deck_mask, normalise_mask
from .record import reset_record
from .rng import GOLDEN, STREAM_DEAL, STREAM_SCENARIO, mix64, stream_state
from .slots import OPT, PT, C, K, M, R, S, X
from .solver import W, at_least, new_deal, set_position, solve_exact

ONE = np.uint64(1)


# What happens to the hands before the first lead (S.KIND flags).
SK_ASK = 1
SK_PICKUP = 2
SK_DUMMY = 4


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
def _answer(w, tt, hands, scen, trump, to_norm, from_norm, double, ag, cfg, rec):
    """The declaring side's tricks (or 1/0 for a threshold): solved double dummy when ``ag``
    plays nothing (method dd), else played out by ``ag``'s players."""
    if ag.policies[0, 1] == 0:
        return _solve(w, tt, hands, trump, scen[S.ACTIVE], scen[S.DECL], scen[S.LEADER],
                      scen[S.TARGET], to_norm, double)
    before = ag.know.copy()  # the play turns the knowledge into the play phase's form
    tricks = play_out(ag, cfg, hands, trump, scen[S.DECLARER], scen[S.ACTIVE], scen[S.LEADER],
                      to_norm, from_norm, rec)
    ag.know[:] = before
    if scen[S.TARGET] >= 0:
        return 1 if tricks >= scen[S.TARGET] else 0
    return tricks


@njit(**JIT)
def play_scenario(w, tt, dealt, scen, upcard, hand_size, to_norm, from_norm, double, ag, cfg,
                  rec):
    """Answer one scenario row on one deal (natural masks ``dealt`` by seat). Returns
    ``(outcome, aux, nodes)``. With play policies in ``ag`` (method heuristic or pimc) the
    players learn the dealer's pick-up and discard as they would at the table."""
    hands = dealt.copy()
    trump = scen[S.TRUMP]
    decl_seat = scen[S.DECLARER]
    kind = scen[S.KIND]
    aux = -1
    if kind & SK_PICKUP:
        dealer = scen[S.DEALER]
        hands[dealer] |= ONE << np.uint64(upcard)
        d = scen[S.ARG] if scen[S.ARG] >= 0 else discard_card(hands[dealer], trump, to_norm,
                                                               from_norm)
        hands[dealer] &= ~(ONE << np.uint64(d))
        aux = d
        ag.know[K.UP_HOLDER] = dealer
        ag.know[K.UPCARD] = upcard
        ag.know[K.DEAD + dealer] |= ONE << np.uint64(d)
    if kind & SK_DUMMY:
        hands[decl_seat] = keep_best(hands[decl_seat] | hands[3], hand_size, trump, to_norm,
                                     from_norm)
        hands[3] = 0
    nodes = 0
    if kind & SK_ASK:
        partner = (decl_seat + 2) & 3
        give_card_id = scen[S.ARG] if scen[S.ARG] >= 0 else give_card(hands[decl_seat], trump)
        give = ONE << np.uint64(give_card_id)
        pn = normalise_mask(hands[partner], to_norm[trump]) & SLOT_MASKS[TRUMP_SLOT]
        options = (ONE << np.uint64(from_norm[trump, highest_bit(pn)])) if pn else hands[partner]
        best = -1
        best_card = -1
        own = hands[decl_seat]
        ag.know[K.DEAD + decl_seat] |= give
        m = options
        while m:
            c = lowest_bit(m)
            m &= m - ONE
            hands[decl_seat] = (own & ~give) | (ONE << np.uint64(c))
            v = _answer(w, tt, hands, scen, trump, to_norm, from_norm, double, ag, cfg, rec)
            nodes += np.int64(w[W.NODES])
            if v > best:
                best = v
                best_card = c
        return best, best_card, nodes
    v = _answer(w, tt, hands, scen, trump, to_norm, from_norm, double, ag, cfg, rec)
    return v, aux, nodes + np.int64(w[W.NODES])


@njit(**JIT)
def _load_deal(cfg, hm, rec, dealt, deck, upcard, point):
    """A fresh record of the deal ``dealt`` (natural masks by seat; the rest of the deck is
    the kitty) at the decision point: the calls heard are forced."""
    reset_record(hm, rec)
    kitty = deck
    for s in range(4):
        hm[M.DEALT + s] = dealt[s]
        kitty &= ~dealt[s]
    hm[M.KITTY] = kitty
    rec[R.DEALER] = point[PT.DEALER]
    rec[R.UPCARD] = upcard
    rec[R.MODE] = MODE_FORCED
    rec[R.ASKER] = point[PT.ASKER]
    rec[R.HEARD_ALONE] = point[PT.HEARD_ALONE]
    n = point[PT.NCALLS]
    for j in range(n):
        rec[R.CALL_SEAT + j] = point[PT.CALL_SEAT + j]
        rec[R.CALL + j] = point[PT.CALL + j]
    rec[R.NCALLS] = n
    rec[R.FORCED] = n


@njit(**JIT)
def heard_is_consistent(cfg, score_table, to_norm, from_norm, ag, hm, rec, dealt, deck, upcard,
                        point, seed, index, key):
    """Whether every seat but the asker makes the calls heard with the cards of ``dealt`` by
    its policy, or keeps a call it would not make as a tremble (``point[PT.TREMBLE]``; the
    draws from ``key``); the engine stops at the asker's turn."""
    _load_deal(cfg, hm, rec, dealt, deck, upcard, point)
    rec[R.CHECK] = 1
    rec[R.TREMBLE] = point[PT.TREMBLE]
    rec[R.TREMBLE_KEY] = np.int64(key)
    rec[R.STOP] = STOP_NEXT
    next_hand(ag, seed, index)
    play_hand(cfg, score_table, to_norm, from_norm, ag, hm, rec)
    return rec[R.ERROR] != E_INCONSISTENT


@njit(**JIT)
def deal_point(seed, index, exact, known, cards, sizes, group_seat, binom, cons, max_tries,
               cfg, score_table, to_norm, from_norm, ag, hm, rec, deck, upcard, point, dealt):
    """Deal ``index`` into ``dealt`` (natural masks by seat, the known cards included): random
    shuffles from ``(seed, index)`` until the conditions ``cons`` hold and, with inference,
    the calls heard follow; exact mode: layout ``index``, one try. Returns the tries, or minus
    them when none passed."""
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
        if point[PT.CHECK] == 0:
            return t
        # the tremble draws of this try, from (seed, index, try): the deal stream is untouched
        key = mix64(mix64(np.uint64(seed)) + np.uint64(index) * GOLDEN + np.uint64(t))
        if heard_is_consistent(cfg, score_table, to_norm, from_norm, ag, hm, rec, dealt, deck,
                               upcard, point, seed, index, key):
            return t
    return -tries


@njit(**JIT)
def play_option(cfg, score_table, to_norm, from_norm, ag, hm, rec, dealt, deck, upcard, point,
                option, seed, index, out):
    """Play the deal out from the point with the asker's ``option`` (slots ``OPT``), every
    later decision by the seats' policies; fill ``out`` (slots ``X``)."""
    _load_deal(cfg, hm, rec, dealt, deck, upcard, point)
    if option[OPT.CALL] >= 0:
        j = point[PT.NCALLS]
        rec[R.CALL_SEAT + j] = point[PT.ASKER]
        rec[R.CALL + j] = option[OPT.CALL]
        rec[R.NCALLS] = j + 1
        rec[R.FORCED] = j + 1
    rec[R.F_ALONE] = option[OPT.ALONE]
    rec[R.F_DISCARD] = option[OPT.DISCARD]
    rec[R.F_GIVE] = option[OPT.GIVE]
    rec[R.F_TRUMP] = option[OPT.TRUMP]
    rec[R.F_DEFEND] = option[OPT.DEFEND]
    rec[R.SOLVE] = point[PT.SOLVE]
    next_hand(ag, seed, index)
    ok = play_hand(cfg, score_table, to_norm, from_norm, ag, hm, rec)
    out[X.STATUS] = rec[R.STATUS] if ok else -1
    out[X.DECLARER] = rec[R.DECLARER]
    out[X.CONTRACT] = rec[R.CONTRACT]
    out[X.ROUND] = rec[R.ROUND]
    out[X.TRICKS] = rec[R.DECL_TRICKS]
    out[X.AUX] = rec[R.ASK_RECEIVE] if rec[R.ASK_RECEIVE] >= 0 else rec[R.DEALER_DISCARD]


@njit(**PARALLEL_JIT)
def run_chunk(seed, first, n, exact_mode, known, upcard, cards, sizes, group_seat, cons,
              max_tries, point, scenarios, options, cfg, score_table, to_norm, from_norm,
              policies, params, tt_bits, nthreads):
    """Deal deals ``first .. first+n-1`` (random from ``seed``, or layouts when
    ``exact_mode``) and answer every scenario and option on each.

    ``known[4]`` natural masks of the cards the asker knows in each seat (its own hand);
    ``cards`` the unseen natural ids, dealt in groups of ``sizes`` to ``group_seat`` (-1: the
    kitty or a dead hand); ``cons`` the four constraint arrays of ``kernels.dealing``;
    ``point`` the decision point (slots ``PT``), ``scenarios`` rows (slots ``S``), ``options``
    rows (slots ``OPT``); ``cfg``/``score_table``/``to_norm``/``from_norm`` the rules;
    ``policies``/``params`` the seats' strategies and play (play policy 0 everywhere: the
    scenarios are solved double dummy). Returns ``(outcomes[n, S] int8, aux[n, S] int8,
    tries[n] int32, nodes[n] int64, dealt[n, 4] uint64, results[n, O, X.LEN] int8,
    trembled[n] int8)``: a deal that never passed has negative tries and outcomes -1;
    ``trembled`` counts the calls heard its deal kept only as trembles. Every deal depends
    only on (seed, its index), whatever the threads."""
    n_scen = scenarios.shape[0]
    n_opt = options.shape[0]
    outcomes = np.full((n, n_scen), -1, dtype=np.int8)
    aux = np.full((n, n_scen), -1, dtype=np.int8)
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
    for i in prange(n):
        tid = get_thread_id()
        ag = new_agents(policies, params, np.zeros(1, dtype=np.uint64), works[tid],
                        tables[tid], decks)
        rec = np.zeros(np.int64(R.LEN), dtype=np.int64)
        hm = np.zeros(np.int64(M.LEN), dtype=np.uint64)
        dealt = np.zeros(4, dtype=np.uint64)
        t = deal_point(seed, first + i, exact_mode, known, cards, sizes, group_seat, binom,
                       cons, max_tries, cfg, score_table, to_norm, from_norm, ag, hm, rec, deck,
                       upcard, point, dealt)
        tries[i] = t
        if t < 0:
            continue
        trembled[i] = rec[R.TREMBLED] if point[PT.CHECK] == 1 else 0
        new_deal(works[tid])
        dealt_out[i] = dealt
        for s in range(n_scen):
            next_hand(ag, seed, (first + i) * n_scen + s, STREAM_SCENARIO)
            v, a, k = play_scenario(works[tid], tables[tid], dealt, scenarios[s], upcard,
                                    cfg[C.HAND], to_norm, from_norm, double, ag, cfg, rec)
            outcomes[i, s] = v
            aux[i, s] = a
            nodes[i] += k
        for o in range(n_opt):
            play_option(cfg, score_table, to_norm, from_norm, ag, hm, rec, dealt, deck, upcard,
                        point, options[o], seed, first + i, results[i, o])
    return outcomes, aux, tries, nodes, dealt_out, results, trembled
