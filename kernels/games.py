"""Whole games to the variant's target between two strategies, A and B, in parallel.

Games are played in duplicate sets on the same deals: with four players, set game ``2k`` has
A in N/S and game ``2k + 1`` A in E/W; with three, game ``3k + i`` has A in seat ``i`` against
two B players. Hand ``h`` of a set is dealt from ``(seed, set * MAX_HANDS + h)`` whatever
the strategies, so both sides meet the same cards. A game ends when a side reaches the
target with the strictly highest score (ties play on), and with ``win_by`` 2 a lead of two.
"""

import numpy as np
from numba import get_thread_id, njit, prange

from .config import JIT, PARALLEL_JIT
from .engine import (
    deal_hand,
    new_agents,
    next_hand,
    normalised_decks,
    play_hand,
    solver_arrays,
)
from .layout import deck_natural_ids
from .rules import (
    BID,
    C_DECK,
    C_PLAYERS,
    C_VARIANT,
    GHOST,
    M_LEN,
    R_CONTRACT,
    R_DECL_TRICKS,
    R_DECLARER,
    R_LEN,
    R_POINTS,
    R_ROUND,
    R_STATUS,
    ST_PLAYED,
)

MAX_HANDS = 1000  # a game longer than this stops (it never happens in practice)
N_CODES = 32

# per-game results
G_WINNER_IS_A = 0
G_HANDS = 1
G_POINTS_A = 2
G_POINTS_B = 3
G_REDEALS = 4
G_LEN = 5


@njit(**JIT)
def contract_code(cfg, rec):
    """A small code for the contract of a played hand: the winning call in bid and ghost; in
    knock and cutthroat the alone flags plus 4 when trump was named in round 2."""
    variant = cfg[C_VARIANT]
    if variant == BID or variant == GHOST:
        return rec[R_CONTRACT]
    return rec[R_CONTRACT] + (4 if rec[R_ROUND] == 2 else 0)


@njit(**JIT)
def made(cfg, rec, hand_size):
    """Whether the declaring side made its contract."""
    variant = cfg[C_VARIANT]
    need = 3
    if variant == BID or variant == GHOST:
        c = rec[R_CONTRACT]
        need = c if c < 20 else hand_size
    return rec[R_DECL_TRICKS] >= need


@njit(**JIT)
def play_game(cfg, score_table, to_norm, from_norm, policies, params, seed, game, target,
              win_by, hand_size, work, table, deck_ids, decks, out, decls, makes):
    """Play game ``game``: fills ``out[G_*]`` and, per side (0 = A, 1 = B) and contract code,
    how often it declared (``decls``) and made it (``makes``)."""
    players = cfg[C_PLAYERS]
    copies = 2 if players == 4 else 3
    deal_set = game // copies
    a_seat = game % copies  # 4 players: A in N/S (0) or E/W (1); 3 players: A's seat
    side_of = np.zeros(4, dtype=np.int64)
    for s in range(4):
        if players == 4:
            side_of[s] = 0 if (s & 1) == a_seat else 1
        else:
            side_of[s] = 0 if s == a_seat else 1
    seat_pol = np.empty((4, 2), dtype=np.int64)
    seat_par = np.empty((4, params.shape[1]), dtype=np.float64)
    for s in range(4):
        seat_pol[s] = policies[side_of[s]]
        seat_par[s] = params[side_of[s]]
    scores = np.zeros(4, dtype=np.int64)
    hm = np.zeros(M_LEN, dtype=np.uint64)
    rec = np.zeros(R_LEN, dtype=np.int64)
    cards = np.empty(deck_ids.shape[0], dtype=np.int64)
    deal_state = np.zeros(1, dtype=np.uint64)
    ag = new_agents(seat_pol, seat_par, np.zeros(1, dtype=np.uint64), work, table, decks)
    dealer = deal_set % players
    hands = 0
    redeals = 0
    winner = -1
    for h in range(MAX_HANDS):
        index = deal_set * MAX_HANDS + h
        deal_hand(cfg, seed, index, dealer, hm, rec, deck_ids, cards, deal_state)
        next_hand(ag, seed, index * 3 + a_seat)
        play_hand(cfg, score_table, to_norm, from_norm, ag, hm, rec, False)
        hands += 1
        dealer = (dealer + 1) % players
        if rec[R_STATUS] != ST_PLAYED:
            redeals += 1
            continue
        side = side_of[rec[R_DECLARER]]
        code = contract_code(cfg, rec)
        decls[side, code] += 1
        if made(cfg, rec, hand_size):
            makes[side, code] += 1
        for s in range(players):
            if players == 4:
                if s < 2:
                    scores[s] += rec[R_POINTS + s]
            else:
                scores[s] += rec[R_POINTS + s]
        # the leader(s)
        units = 2 if players == 4 else 3
        best = -1
        best_score = -(1 << 40)
        second = -(1 << 40)
        tie = False
        for u in range(units):
            v = scores[u]
            if v > best_score:
                second = best_score
                best_score = v
                best = u
                tie = False
            elif v == best_score:
                tie = True
                second = v
            elif v > second:
                second = v
        if best_score >= target and not tie and best_score - second >= win_by:
            winner = best
            break
    out[G_HANDS] = hands
    out[G_REDEALS] = redeals
    if players == 4:
        a_unit = a_seat  # team 0 = N/S, team 1 = E/W
        out[G_WINNER_IS_A] = 1 if winner == a_unit else 0
        out[G_POINTS_A] = scores[a_unit]
        out[G_POINTS_B] = scores[1 - a_unit]
    else:
        out[G_WINNER_IS_A] = 1 if winner == a_seat else 0
        out[G_POINTS_A] = scores[a_seat]
        total_b = 0
        for s in range(3):
            if s != a_seat:
                total_b += scores[s]
        out[G_POINTS_B] = total_b // 2


@njit(**PARALLEL_JIT)
def play_games(cfg, score_table, to_norm, from_norm, policies, params, seed, first, n, target,
               win_by, hand_size, tt_bits, nthreads):
    """Play games ``first .. first+n-1``: ``policies[side]`` and ``params[side]`` are A's
    (side 0) and B's (side 1). Returns ``(results[n, G_LEN], declared[n, 2, N_CODES],
    made[n, 2, N_CODES])``; each game depends only on (seed, its number)."""
    results = np.zeros((n, G_LEN), dtype=np.int64)
    decls = np.zeros((n, 2, N_CODES), dtype=np.int64)
    makes = np.zeros((n, 2, N_CODES), dtype=np.int64)
    works, tables = solver_arrays(nthreads, tt_bits)
    deck_ids = deck_natural_ids(cfg[C_DECK])
    decks = normalised_decks(cfg[C_DECK], to_norm)
    for i in prange(n):
        tid = get_thread_id()
        play_game(cfg, score_table, to_norm, from_norm, policies, params, seed, first + i,
                  target, win_by, hand_size, works[tid], tables[tid], deck_ids, decks,
                  results[i], decls[i], makes[i])
    return results, decls, makes
