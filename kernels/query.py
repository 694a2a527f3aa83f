"""The odds engine's kernel: deal a chunk of deals and solve every scenario of a query on each
one (common random numbers: every option is judged on the same deals).

A scenario is one int64 row (slots ``S``): trump, declarer, the seats that play, the
declaring side, the leader, what happens to the hands before the first lead (``SK_*`` flags:
the 6-ask exchange, the dealer's pick-up and discard, the cutthroat dummy) and the question
(at least ``target`` tricks, or the exact count when -1). The answer for deal ``i`` and
scenario ``s`` is ``outcomes[i, s]``: tricks of the declaring side, or 1/0 for a threshold;
``aux[i, s]`` is the card a choice produced (the card received in a 6-ask, the dealer's
discard), -1 otherwise.
"""

from enum import IntEnum

import numpy as np
from numba import get_thread_id, njit, prange

from .bidding import give_card
from .bits import highest_bit, lowest_bit
from .config import JIT, PARALLEL_JIT
from .dealing import binomial_table, deal_groups
from .engine import new_agents, next_hand, normalised_decks, play_out
from .heuristics import discard_card, keep_best
from .layout import SLOT_MASKS, TRUMP_SLOT, normalise_mask
from .slots import C, K, R
from .solver import TT_WORDS, W, at_least, exact, guess_tricks, set_position

ONE = np.uint64(1)


class S(IntEnum):
    """Slots of a scenario row (int64)."""

    TRUMP = 0
    DECLARER = 1
    ACTIVE = 2
    DECL = 3
    LEADER = 4
    KIND = 5  # SK_* flags
    ARG = 6  # the card given away in an n-ask, the dealer's discard (-1: by rule of thumb)
    DEALER = 7
    TARGET = 8  # k: "at least k tricks?" (answer 1/0); -1: the exact number
    LEN = 9


# What happens to the hands before the first lead (S.KIND flags).
SK_ASK = 1
SK_PICKUP = 2
SK_DUMMY = 4


@njit(**JIT)
def _solve(w, tt, hands, trump, active, decl, leader, target, to_norm, double):
    nh = np.empty(4, dtype=np.uint64)
    for s in range(4):
        nh[s] = normalise_mask(hands[s], to_norm[trump])
    set_position(w, nh, active, decl, double)
    empty = np.zeros(4, dtype=np.int64)
    if target >= 0:
        return 1 if at_least(w, tt, leader, empty, empty, 0, target) else 0
    return exact(w, tt, leader, empty, empty, 0, guess_tricks(w))


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


@njit(**PARALLEL_JIT)
def run_chunk(seed, first, n, exact_mode, known, upcard, cards, sizes, group_seat, cons_group,
              cons_mask, cons_op, cons_value, max_tries, scenarios, hand_size, to_norm,
              from_norm, double, tt_bits, nthreads, cfg, policies, params):
    """Deal deals ``first .. first+n-1`` (random from ``seed``, or layouts when
    ``exact_mode``) and answer every scenario on each.

    ``known[4]`` natural masks of the cards the asker knows in each seat (its own hand);
    ``cards`` the unseen natural ids, dealt in groups of ``sizes`` to ``group_seat`` (-1: the
    kitty or a dead hand); constraint rows as in ``kernels.dealing``. Returns
    ``(outcomes[n, S] int8, aux[n, S] int8, tries[n] int32, nodes[n] int64, dealt[n, 4])``
    (``dealt``: each seat's natural mask as dealt, the asker's known cards included); a deal
    whose constraints never passed in ``max_tries`` has negative tries and outcomes -1.

    ``policies``/``params`` (4 seats) choose the method: play policy 0 everywhere solves
    double dummy; otherwise every scenario is played out by those players (``cfg`` the rules
    vector), with a policy stream per deal and scenario."""
    n_scen = scenarios.shape[0]
    outcomes = np.full((n, n_scen), -1, dtype=np.int8)
    aux = np.full((n, n_scen), -1, dtype=np.int8)
    tries = np.zeros(n, dtype=np.int32)
    nodes = np.zeros(n, dtype=np.int64)
    dealt_out = np.zeros((n, 4), dtype=np.uint64)
    works = np.zeros((nthreads, np.int64(W.LEN)), dtype=np.uint64)
    tables = np.zeros((nthreads, 1 << tt_bits, TT_WORDS), dtype=np.uint64)
    for t in range(nthreads):
        works[t, W.TT_MASK] = (ONE << np.uint64(tt_bits)) - ONE
    binom = binomial_table(cards.shape[0])
    n_groups = sizes.shape[0]
    decks = normalised_decks(cfg[C.DECK], to_norm)
    for i in prange(n):
        tid = get_thread_id()
        w = works[tid]
        tt = tables[tid]
        ag = new_agents(policies, params, np.zeros(1, dtype=np.uint64), w, tt, decks)
        rec = np.zeros(np.int64(R.LEN), dtype=np.int64)
        groups = np.empty(n_groups, dtype=np.uint64)
        t = deal_groups(seed, first + i, exact_mode, cards, sizes, binom, cons_group, cons_mask,
                        cons_op, cons_value, max_tries, groups)
        tries[i] = t
        if t < 0:
            continue
        dealt = known.copy()
        for g in range(n_groups):
            if group_seat[g] >= 0:
                dealt[group_seat[g]] |= groups[g]
        dealt_out[i] = dealt
        for s in range(n_scen):
            next_hand(ag, seed, (first + i) * 64 + s)
            v, a, k = play_scenario(w, tt, dealt, scenarios[s], upcard, hand_size, to_norm,
                                    from_norm, double, ag, cfg, rec)
            outcomes[i, s] = v
            aux[i, s] = a
            nodes[i] += k
    return outcomes, aux, tries, nodes, dealt_out
