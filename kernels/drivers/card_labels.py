"""What the analyzer card player learns from: positions of self-play with every legal card
played out.

Hand ``i`` of a batch is dealt and played by the seats' policies; one of its card decisions
(a seat holding two or more legal cards that are not all alike) is picked at random, and from
it each legal card is played out to the end of the hand, every seat (the deciding one
included) playing on by its policy, on the same deal: the hand is run again from its deal
with the cards before the decision forced and the card given (``kernels.drivers.forced``'s
instructions), so the position is exactly the one the seat met. The true deal is a draw from
what the seat could not see, given everything it saw, when the others play as in self-play:
the label of a card is an unbiased sample of its value to the seat (``analyzer.strategy.
card_player`` fits the player's weights to them over a million positions). Beside each
label, the seat's view as the player's inputs (``kernels.play.analyzer_player``): what the seat
learned before the play as the engine left it, the cards played (by whom) and the voids
shown rebuilt card by card (:func:`knowledge_at`; tests check the player's card from them is
the card it played).
"""

import numpy as np
from numba import get_thread_id, njit, prange

from ..cards.bits import ONE, lowest_bit, popcount
from ..cards.codes import MODE_FORCED, ST_PLAYED
from ..cards.layout import normalise_mask
from ..cards.rules import legal_mask, next_active
from ..cards.seating import declaring_mask
from ..config import JIT, PARALLEL_JIT
from ..deal.dealing import deal_hand
from ..deal.record import reset_instructions
from ..deal.rng import stream_state, uniform_int
from ..hand.engine import new_agents, next_hand
from ..hand.tricks import hand_facts
from ..play.analyzer_player import (
    MAX_ACTIVE,
    N_GROUPS,
    X_LEN,
    card_inputs,
    view_context,
    view_inputs,
)
from ..play.pimc import one_class, solve_card
from ..slots import IN, TR, C, K, M, R
from ..solver import new_deal, solver_arrays
from .forced import force_card

STREAM_PICK = 7  # the stream that picks a hand's decision (apart from the deal and the play)
MAX_CARDS = 12  # legal cards of a decision at most (the double deck's first lead)


@njit(**JIT)
def _seat_at(rec, k, active):
    """The seat that played card ``k`` of the hand (in play order from the first lead)."""
    n_active = popcount(np.uint64(active))
    seat = rec[R.TRICK_LEADER + k // n_active]
    for _ in range(k % n_active):
        seat = next_active(seat, active)
    return seat


@njit(**JIT)
def position_at(rules, hm, rec, k, active, trick):
    """The normalised hand of the seat to play card ``k`` of the played hand ``hm``/``rec``,
    with ``trick`` (slots ``TR``) filled as the engine's trick array was at that moment; the
    natural cards played before it as a mask in the second value."""
    cfg = rules.cfg
    trump = rec[R.TRUMP]
    t_of = rules.to_norm[trump]
    n_active = popcount(np.uint64(active))
    t, pos = k // n_active, k % n_active
    seat = _seat_at(rec, k, active)
    played = np.uint64(0)
    for j in range(k):
        played |= ONE << np.uint64(rec[R.PLAYS + 4 * (j // n_active) + j % n_active])
    decl_won = 0
    for j in range(t):
        if (declaring_mask(cfg, rec[R.DECLARER], active) >> rec[R.TRICK_WINNER + j]) & 1:
            decl_won += 1
    trick[:] = 0
    trick[TR.LEADER] = rec[R.TRICK_LEADER + t]
    trick[TR.COUNT] = pos
    s = trick[TR.LEADER]
    for i in range(pos):
        trick[TR.CARDS + i] = t_of[rec[R.PLAYS + 4 * t + i]]
        trick[TR.SEATS + i] = s
        s = next_active(s, active)
    trick[TR.NUMBER] = t
    trick[TR.DECL_WON] = decl_won
    hand_facts(rules, rec, active, trick)
    hand = normalise_mask(hm[M.PLAY + seat] & ~played, t_of)
    return hand, played


@njit(**JIT)
def knowledge_at(rules, rec, k, active, know):
    """Set the play's part of ``know`` (slots ``K``: the cards played and by whom, the voids
    shown; what the seats learned before the play is kept) to what it was before card ``k``
    of the played hand ``rec``, as the engine builds it card by card (``kernels.hand.tricks``)."""
    t_of = rules.to_norm[rec[R.TRUMP]]
    n_active = popcount(np.uint64(active))
    know[K.PLAYED] = 0
    for s in range(4):
        know[K.VOIDS + s] = 0
        know[K.PLAYED_BY + s] = 0
    for j in range(k):
        t, pos = j // n_active, j % n_active
        b = t_of[rec[R.PLAYS + 4 * t + pos]]
        seat = _seat_at(rec, j, active)
        know[K.PLAYED] |= ONE << np.uint64(b)
        know[K.PLAYED_BY + seat] |= ONE << np.uint64(b)
        led = t_of[rec[R.PLAYS + 4 * t]] >> 4
        if pos > 0 and (b >> 4) != led:
            know[K.VOIDS + seat] |= ONE << np.uint64(led)


@njit(**JIT)
def _choices(rules, hm, rec, k, active, trick):
    """The legal cards (normalised) of decision ``k`` when they are not all alike, else 0."""
    hand, played = position_at(rules, hm, rec, k, active, trick)
    pos = trick[TR.COUNT]
    legal = legal_mask(hand, -1 if pos == 0 else trick[TR.CARDS] >> 4)
    if legal & (legal - ONE) == 0:
        return np.uint64(0)
    out = np.uint64(0)  # the cards other seats may hold, and those on the table
    for s in range(4):
        if s != trick[TR.SEATS + pos] or pos == 0:
            out |= normalise_mask(hm[M.PLAY + s] & ~played, rules.to_norm[rec[R.TRUMP]])
    out &= ~hand
    for i in range(pos):
        out |= ONE << np.uint64(trick[TR.CARDS + i])
    if one_class(legal, out, trick[TR.DOUBLE]):
        return np.uint64(0)
    return legal


@njit(**JIT)
def _force_to(ins, rec_played, k, active, asker):
    """Instructions replaying a hand's first ``k`` cards (from the played record
    ``rec_played``) and then asking ``asker``: every call by the seats' policies again."""
    reset_instructions(ins)
    ins[IN.MODE] = MODE_FORCED
    ins[IN.ASKER] = asker
    ins[IN.FORCED_PLAYS] = k
    n_active = popcount(np.uint64(active))
    for j in range(k):
        seat = _seat_at(rec_played, j, active)
        card = rec_played[R.PLAYS + 4 * (j // n_active) + j % n_active]
        ins[IN.PLAYS + j] = (seat << 8) | card


@njit(**PARALLEL_JIT)
def card_labels_batch(rules, policies, params, seed, first, dealers, solve, tt_bits, nthreads,
                      engine):
    """Positions ``first .. first + n - 1`` of ``seed`` (n = len(dealers); hand i dealt by
    ``dealers[i]``, played by ``policies``/``params`` as ``play_batch`` plays it). Returns
    ``(inputs[n, MAX_ACTIVE] int16, cards[n, MAX_CARDS, N_GROUPS] int16, tricks[n,
    MAX_CARDS] int8, facts[n, 5] int64)``: the seat's view's inputs that are on at the
    position picked in hand i (``kernels.play.analyzer_player.view_inputs``; -1 past them), and for
    each of its legal cards (lowest first) the card's inputs and the declaring side's tricks
    when it is played and every seat plays on (with ``solve``, every seat seeing every card:
    double dummy); ``facts[i]`` = (how many legal cards, 0 for a hand with no decision
    picked; the seat; the contract; 1 when the seat is on the declaring side; the index of
    the card the seat played in self-play). ``engine``:
    ``kernels.hand.pointers.engine_of(rules)``."""
    cfg = rules.cfg
    n = dealers.shape[0]
    inputs = np.full((n, MAX_ACTIVE), -1, dtype=np.int16)
    cards_in = np.zeros((n, MAX_CARDS, N_GROUPS), dtype=np.int16)
    tricks = np.zeros((n, MAX_CARDS), dtype=np.int8)
    facts = np.zeros((n, 5), dtype=np.int64)
    works, tables = solver_arrays(nthreads, tt_bits)
    deck_ids = rules.deck_ids
    for i in prange(n):
        tid = get_thread_id()
        cards = np.empty(deck_ids.shape[0], dtype=np.int64)
        state = np.zeros(1, dtype=np.uint64)
        deal_hm = np.zeros(np.int64(M.LEN), dtype=np.uint64)
        deal_rec = np.zeros(np.int64(R.LEN), dtype=np.int64)
        deal_hand(cfg, seed, first + i, dealers[i], deal_hm, deal_rec, deck_ids, cards, state)
        ag = new_agents(policies, params, state, works[tid], tables[tid], rules.decks)
        hm = deal_hm.copy()
        rec = deal_rec.copy()
        next_hand(ag, seed, first + i)
        new_deal(ag.work)
        if not engine.play_hand(rules, ag, hm, rec) or rec[R.STATUS] != ST_PLAYED:
            continue
        played_rec = rec.copy()
        played_hm = hm.copy()
        active = 0
        for s in range(4):
            if played_hm[M.PLAY + s]:
                active |= 1 << s
        trick = np.zeros(np.int64(TR.LEN), dtype=np.int64)
        total = cfg[C.HAND] * popcount(np.uint64(active))
        candidates = 0
        for k in range(total):
            if _choices(rules, played_hm, played_rec, k, active, trick):
                candidates += 1
        if candidates == 0:
            continue
        pick = uniform_int(stream_state(seed, STREAM_PICK, first + i), candidates)
        k = 0
        for j in range(total):
            if _choices(rules, played_hm, played_rec, j, active, trick):
                if pick == 0:
                    k = j
                    break
                pick -= 1
        legal = _choices(rules, played_hm, played_rec, k, active, trick)
        hand, played = position_at(rules, played_hm, played_rec, k, active, trick)
        seat = _seat_at(played_rec, k, active)
        trump = played_rec[R.TRUMP]
        decl_mask = declaring_mask(cfg, played_rec[R.DECLARER], active)
        know = ag.know.copy()  # what the seats learned before the play stays as it was
        knowledge_at(rules, played_rec, k, active, know)
        view_inputs(hand, know, trick, seat, decl_mask, inputs[i])
        x = np.empty(np.int64(X_LEN), dtype=np.int64)
        live = view_context(hand, know, trick, seat, decl_mask, x)
        n_active = popcount(np.uint64(active))
        own = rules.to_norm[trump, played_rec[R.PLAYS + 4 * (k // n_active) + k % n_active]]
        if solve:
            nh = np.zeros(4, dtype=np.uint64)
            for s in range(4):
                nh[s] = normalise_mask(played_hm[M.PLAY + s] & ~played, rules.to_norm[trump])
            totals = np.zeros(64, dtype=np.int64)
            values = np.empty(64, dtype=np.int64)
            solve_card(ag.work, ag.table, nh, decl_mask, trick[TR.DOUBLE], trick, seat, legal,
                       totals, values)
        c = 0
        m = legal
        while m:
            b = lowest_bit(m)
            m &= m - ONE
            card_inputs(b, hand, legal, live, know, trick, seat, decl_mask, x, cards_in[i, c])
            if b == own:
                facts[i, 4] = c
            if solve:
                tricks[i, c] = trick[TR.DECL_WON] + totals[b]
                c += 1
                continue
            _force_to(ag.ins, played_rec, k, active, seat)
            force_card(ag.ins, rules.from_norm[trump, b])
            hm[:] = deal_hm
            rec[:] = deal_rec
            next_hand(ag, seed, first + i)
            new_deal(ag.work)
            engine.play_hand(rules, ag, hm, rec)
            tricks[i, c] = rec[R.DECL_TRICKS]
            c += 1
        facts[i, 0] = c
        facts[i, 1] = seat
        facts[i, 2] = played_rec[R.CONTRACT]
        facts[i, 3] = (decl_mask >> seat) & 1
    return inputs, cards_in, tricks, facts

