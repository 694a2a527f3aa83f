"""The odds engine's kernel: deal a chunk of deals and answer every question of a query on each
one (common random numbers: every option is judged on the same deals).

The deals are the unseen cards of a decision point, dealt consistent with the conditions
given and, with inference, with the calls heard: a deal where a seat's strategy would not
have made a call it made is dealt again from the same stream (``point`` slots ``PT``).

A scenario is one int64 row (slots ``S``): trump, declarer, the seats that play, the
declaring side and the leader, asked of the hands as dealt (and, when a question plays only
some of its scenarios, which one of how many it is: its play stream is the full run's). The
answer for deal ``i`` and scenario ``s`` is ``outcomes[i, s]``: the declaring side's tricks.

An option is one int64 row (slots ``OPT``): a call the asker can make at the point and its
own choices that follow (going alone, a discard, the card given in an n-ask, the trump, a
lone defence). Each option is played out to the end of the hand: the calls heard, the
option, then every later decision by the seats' policies and the cards by their play
policies, or (``PT.SOLVE``) the tricks by the double-dummy solver. ``results[i, o]`` (slots
``X``) say how it ended.
"""

from collections import namedtuple

import numpy as np
from numba import get_thread_id, njit, prange

from ..cards.codes import E_INCONSISTENT, STOP_NEXT
from ..cards.layout import DECK_DOUBLE, normalise_mask
from ..config import JIT, NRT_FREE, PARALLEL_JIT
from ..deal.dealing import deal_try
from ..deal.rng import GOLDEN, STREAM_DEAL, STREAM_SCENARIO, mix64, stream_state
from ..hand.engine import new_agents, next_hand, play_out
from ..slots import IN, PT, C, M, R, S, W, X
from ..solver import new_deal, next_deal_same_table, solve_exact
from .forced import play_option, start_point

# Which deals a chunk plays: ``first .. first + n - 1`` of the stream ``seed``.
DealRange = namedtuple("DealRange", ["seed", "first", "n"])

# Exact mode: runs of this many consecutive layouts (aligned to the layout number, so node
# counts do not depend on chunks or threads) share one table generation. Consecutive
# layouts differ in a few cards, so most positions of a layout were solved in the one before:
# the bid benchmark's exact mode took 2.3x less time. Random deals share too few (0.3%).
LAYOUT_RUN = 512


@njit(**JIT)
def play_scenario(w, tt, dealt, scen, solve, rules, ag, rec, engine):
    """Answer one scenario row on one deal (natural masks ``dealt`` by seat): the declaring
    side's tricks, solved double dummy with ``solve``, else played out by ``ag``'s players.
    Returns ``(tricks, nodes)``. ``engine``: ``kernels.hand.pointers.engine_of(rules)``."""
    trump = scen[S.TRUMP]
    if solve == 1:
        nh = np.empty(4, dtype=np.uint64)
        for s in range(4):
            nh[s] = normalise_mask(dealt[s], rules.to_norm[trump])
        double = 1 if (rules.cfg[C.DECK] & DECK_DOUBLE) else 0
        tricks = solve_exact(w, tt, nh, scen[S.ACTIVE], scen[S.DECL], scen[S.LEADER], double,
                             np.int64(-1))
        return tricks, np.int64(w[W.NODES])
    hands = dealt.copy()
    before = ag.know.copy()  # the play turns the knowledge into the play phase's form
    tricks = play_out(ag, rules, hands, trump, scen[S.DECLARER], scen[S.ACTIVE],
                      scen[S.LEADER], rec, engine)
    ag.know[:] = before
    return tricks, 0


@njit(**NRT_FREE)
def _deal_masks(deal_hm, dealt, deck):
    """The engine's card masks (slots ``M``) of a deal: each seat's cards, the rest of the
    deck in the kitty."""
    deal_hm[:] = 0
    kitty = deck
    for s in range(4):
        deal_hm[M.DEALT + s] = dealt[s]
        kitty &= ~dealt[s]
    deal_hm[M.KITTY] = kitty


@njit(**NRT_FREE)
def in_play(point):
    """Whether ``point`` is in the play (cards heard, or the asker's own put-away cards or a
    ladder's named trump known): a deal must then be checked against them, inference or not."""
    return point[PT.NPLAYS] > 0 or point[PT.NAMED] >= 0 or point[PT.OWN_DISCARD] >= 0 or \
        point[PT.OWN_GIVE] >= 0 or point[PT.OWN_DROP] != 0 or point[PT.OWN_RECEIVE] >= 0


@njit(**NRT_FREE)
def heard_is_consistent(rules, ag, hm, rec, deal_hm, point, seed, index, trembles, engine):
    """Whether every seat but the asker makes the calls heard with the cards of ``deal_hm``
    by its policy, or keeps a call it would not make as a tremble (``point[PT.TREMBLE]``;
    ``trembles`` is ``(key, weigh)``: the draws from ``key``, or with ``weigh`` none, every
    tremble kept and counted in ``rec[R.UNLIKELY]``), with inference (``PT.CHECK``);
    likewise the cards heard played by its heuristic card play with ``PT.CHECK_PLAY``; and
    whether the cards heard and the asker's own put-away cards fit the deal (always); the
    engine stops at the asker's turn. ``engine``: ``kernels.hand.pointers.engine_of(rules)``."""
    key, weigh = trembles
    start_point(hm, rec, ag.ins, deal_hm, point)
    ag.ins[IN.CHECK] = point[PT.CHECK]
    ag.ins[IN.TREMBLE] = point[PT.TREMBLE]
    ag.ins[IN.TREMBLE_KEY] = np.int64(key)
    ag.ins[IN.CHECK_PLAY] = point[PT.CHECK_PLAY]
    ag.ins[IN.WEIGH] = weigh
    ag.ins[IN.STOP] = STOP_NEXT
    next_hand(ag, seed, index)
    engine.play_hand(rules, ag, hm, rec)
    return rec[R.ERROR] != E_INCONSISTENT


@njit(**JIT)
def deal_point(seed, index, dealing, rules, ag, scratch, point, engine):
    """Deal ``index`` into ``dealt`` (natural masks by seat, the known cards included) and
    ``deal_hm`` (its engine masks) of ``scratch = (hm, rec, dealt, deal_hm)`` (``hm``/``rec``
    the engine's, for the calls heard; ``engine``: ``kernels.hand.pointers.engine_of(rules)``),
    as ``dealing`` says (``kernels.deal.dealing.Dealing``): random
    shuffles from ``(seed, index)`` until its conditions hold and, with inference, the calls
    heard of ``point`` follow; exact mode: layout ``index``, one try, its trembles weighed
    (``rec[R.UNLIKELY]``), not drawn. Returns the tries, or minus them when none passed."""
    hm, rec, dealt, deal_hm = scratch
    n_groups = dealing.sizes.shape[0]
    groups = np.empty(n_groups, dtype=np.uint64)
    state = stream_state(seed, STREAM_DEAL, index)
    work = dealing.cards.copy()
    tries = 1 if dealing.exact else dealing.max_tries
    for t in range(1, tries + 1):
        if not deal_try(dealing, index, state, work, groups):
            continue
        dealt[:] = dealing.known
        for g in range(n_groups):
            if dealing.group_seat[g] >= 0:
                dealt[dealing.group_seat[g]] |= groups[g]
        _deal_masks(deal_hm, dealt, rules.deck)
        if point[PT.CHECK] == 0 and not in_play(point):
            return t
        # the tremble draws of this try, from (seed, index, try): the deal stream is untouched
        key = mix64(mix64(np.uint64(seed)) + np.uint64(index) * GOLDEN + np.uint64(t))
        if heard_is_consistent(rules, ag, hm, rec, deal_hm, point, seed, index,
                               (key, 1 if dealing.exact else 0), engine):
            return t
    return -tries


@njit(**PARALLEL_JIT)
def run_chunk(deals, dealing, point, scenarios, options, rules, policies, params, solver,
              engine):
    """Deal the deals ``deals`` (a ``DealRange``: ``first .. first+n-1`` of ``seed``, random
    or the layouts of exact mode) as ``dealing`` says (``kernels.deal.dealing.Dealing``: the
    cards the asker knows, the unseen cards and the groups they are dealt in, the
    conditions) and answer every scenario and option on each.

    ``point`` is the decision point (slots ``PT``: the upcard, the calls heard, inference,
    double dummy or card play), ``scenarios`` rows (slots ``S``), ``options`` rows (slots
    ``OPT``); ``rules`` the ``kernels.cards.rules.RuleArrays``; ``policies``/``params`` the seats'
    strategies and play; ``solver`` = ``(works, tables)`` the solver's arrays, one per numba
    thread (``kernels.solver.solver_arrays``; each deal starts a new table generation);
    ``engine``: ``kernels.hand.pointers.engine_of(rules)``. Returns
    ``(outcomes[n, S] int8, tries[n] int32, nodes[n] int64, dealt[n, 4] uint64,
    results[n, O, X.LEN] int8, trembled[n] int8, unlikely[n] int64)``: a deal that never
    passed has negative tries and outcomes -1; ``trembled`` counts the calls heard its deal
    kept only as trembles, ``unlikely`` (exact mode) how unlikely they are together
    (``R.UNLIKELY``). Every deal depends only on (seed, its index), whatever the threads."""
    seed, first, n = deals
    works, tables = solver
    n_scen = scenarios.shape[0]
    n_opt = options.shape[0]
    outcomes = np.full((n, n_scen), -1, dtype=np.int8)
    results = np.full((n, n_opt, np.int64(X.LEN)), -1, dtype=np.int8)
    tries = np.zeros(n, dtype=np.int32)
    nodes = np.zeros(n, dtype=np.int64)
    dealt_out = np.zeros((n, 4), dtype=np.uint64)
    trembled = np.zeros(n, dtype=np.int8)
    unlikely = np.zeros(n, dtype=np.int64)
    decks = rules.decks
    solve = point[PT.SOLVE]
    run = LAYOUT_RUN if dealing.exact else 1
    first_run = first // run
    n_runs = (first + n - 1) // run - first_run + 1 if n > 0 else 0
    for r in prange(n_runs):
        tid = get_thread_id()
        new_deal(works[tid])
        for i in range(max(first, (first_run + r) * run) - first,
                       min(first + n, (first_run + r + 1) * run) - first):
            ag = new_agents(policies, params, np.zeros(1, dtype=np.uint64), works[tid],
                            tables[tid], decks)
            rec = np.zeros(np.int64(R.LEN), dtype=np.int64)
            hm = np.zeros(np.int64(M.LEN), dtype=np.uint64)
            deal_hm = np.zeros(np.int64(M.LEN), dtype=np.uint64)
            dealt = np.zeros(4, dtype=np.uint64)
            t = deal_point(seed, first + i, dealing, rules, ag, (hm, rec, dealt, deal_hm), point,
                           engine)
            tries[i] = t
            if t < 0:
                continue
            if point[PT.CHECK] == 1 or point[PT.CHECK_PLAY] == 1:
                trembled[i] = rec[R.TREMBLED]
                unlikely[i] = rec[R.UNLIKELY]
            next_deal_same_table(works[tid])
            dealt_out[i] = dealt
            for s in range(n_scen):
                of, number = scenarios[s, S.OF], scenarios[s, S.NUMBER]
                if of == 0:
                    of, number = n_scen, s
                next_hand(ag, seed, (first + i) * of + number, STREAM_SCENARIO)
                v, k = play_scenario(works[tid], tables[tid], dealt, scenarios[s], solve,
                                     rules, ag, rec, engine)
                outcomes[i, s] = v
                nodes[i] += k
            for o in range(n_opt):
                start_point(hm, rec, ag.ins, deal_hm, point)
                next_hand(ag, seed, first + i)
                play_option(rules, ag, hm, rec, point, options[o], results[i, o], engine)
    return outcomes, tries, nodes, dealt_out, results, trembled, unlikely
