"""Whole games to the variant's target between two strategies, A and B, in parallel.

Games are played in duplicate sets on the same deals: with four players, set game ``2k`` has
A in N/S and game ``2k + 1`` A in E/W; with three, game ``3k + i`` has A in seat ``i`` against
two B players. Hand ``h`` of a set is dealt from ``(seed, set * MAX_HANDS + h)`` whatever
the strategies, so both sides meet the same cards. A game ends when a side reaches the
target with the strictly highest score (ties play on), and with ``win_by`` 2 a lead of two
(``C.TARGET`` and ``C.WIN_BY`` of the rules).

A seat that plays to the score (``PR.TO_SCORE``) is told the score before each hand: the
game's ``Lens`` holds, for every score state, each seat's chance of winning the game after
each outcome of the hand (``set_worth`` copies them into ``PR.WORTH`` of the seats' rows; each
thread plays with its own copy of the rows).
"""

from collections import namedtuple

import numpy as np
from numba import get_thread_id, njit, prange

from ..cards.codes import AUCTION_LADDER, ST_PLAYED
from ..cards.seating import contract_needs
from ..config import JIT, NRT_FREE, PARALLEL_JIT
from ..deal.dealing import deal_hand
from ..hand.engine import new_agents, next_hand, solver_arrays
from ..hand.exchanges import plays_alone
from ..slots import PR, SC, TALLY, C, G, M, R
from ..solver import new_deal

MAX_HANDS = 1000  # a game longer than this stops (it never happens in practice)
N_CODES = 32

# A game's score lens (``analyzer.strategy.score_lens.game_lens``): ``geom`` (int64, slots ``SC``)
# and ``worth[cell, position, k]``: at the score state of box cell ``cell`` (the units' scores
# in deal order, the dealer's first: ``score_cell``), the chance that the unit ``position``
# places after the dealer's wins the game after outcome ``k`` of the hand, seen from that
# unit (``analyzer.strategy.score_lens.outcome_points``), less the slope times its net points
# (``PR.WORTH``); after the last outcome the slope (``PR.SLOPE``).
Lens = namedtuple("Lens", ["geom", "worth"])


@njit(**NRT_FREE)
def contract_code(cfg, rec):
    """A small code for the contract of a played hand: the winning call of a ladder auction;
    in the upcard auction the alone flags plus 4 when trump was named in round 2."""
    if cfg[C.AUCTION] == AUCTION_LADDER:
        return rec[R.CONTRACT]
    return rec[R.CONTRACT] + (4 if rec[R.ROUND] == 2 else 0)


@njit(**NRT_FREE)
def made(cfg, rec):
    """Whether the declaring side made its contract."""
    return rec[R.DECL_TRICKS] >= contract_needs(cfg, rec[R.CONTRACT])


@njit(**NRT_FREE)
def add_points(cfg, rec, scores):
    """Add a played hand's points to the game's ``scores``: per team (N-S first) with
    partners, else per player."""
    for u in range(2 if cfg[C.PARTNERS] == 1 else cfg[C.PLAYERS]):
        scores[u] += rec[R.POINTS + u]


@njit(**NRT_FREE)
def game_winner(scores, units, target, win_by):
    """The unit (team or player, ``scores[:units]``) that has won the game, or -1: it has
    reached ``target`` with the strictly highest score, ahead by at least ``win_by``."""
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
        return best
    return -1


@njit(**NRT_FREE)
def score_cell(geom, scores, dealer):
    """The cell of the lens's box of the units' ``scores`` (teams or players) with the unit of
    seat ``dealer`` dealing, in deal order (``analyzer.game.match_equity.ScoreRules.in_box`` and
    ``cell``: a game past the box's top moved down whole, a score under its floor raised to
    it)."""
    units = geom[SC.UNITS]
    low = geom[SC.LOW]
    size = geom[SC.HIGH] - low + 1
    top = scores[0]
    for u in range(1, units):
        top = max(top, scores[u])
    over = max(top - geom[SC.HIGH], 0)
    first = dealer % units
    cell = 0
    for j in range(units):
        cell = cell * size + max(scores[(first + j) % units] - over, low) - low
    return cell


@njit(**NRT_FREE)
def set_worth(lens, scores, dealer, players, params):
    """Tell every seat of ``params`` (rows ``[4, PR.LEN]``) the score of the hand ``dealer``
    deals at the units' ``scores``: ``PR.SCORED`` and each outcome's chance of winning the
    game for the seat's unit (``PR.WORTH``, from the lens)."""
    units = lens.geom[SC.UNITS]
    cell = score_cell(lens.geom, scores, dealer)
    first = dealer % units
    for s in range(players):
        position = (s % units - first) % units
        n = lens.geom[SC.OUTCOMES]
        for k in range(n):
            params[s, PR.WORTH + k] = lens.worth[cell, position, k]
        params[s, PR.SLOPE] = lens.worth[cell, position, n]
        params[s, PR.SCORED] = 1.0


@njit(**NRT_FREE)
def count_hand(cfg, rec, row):
    """Add a played hand to its row ``TALLY.*`` of the tally: declared, made, marched (every
    trick), played alone, and the net points to the declaring side."""
    row[TALLY.DECLARED] += 1
    if made(cfg, rec):
        row[TALLY.MADE] += 1
    if rec[R.DECL_TRICKS] == cfg[C.HAND]:
        row[TALLY.MARCHED] += 1
    if plays_alone(cfg, rec):
        row[TALLY.ALONE] += 1
    decl = rec[R.DECLARER]
    if cfg[C.PARTNERS] == 1:  # the two teams' points are in the first two slots
        row[TALLY.NET] += rec[R.POINTS + (decl & 1)] - rec[R.POINTS + 1 - (decl & 1)]
    else:
        for s in range(cfg[C.PLAYERS]):
            row[TALLY.NET] += rec[R.POINTS + s] if s == decl else -rec[R.POINTS + s]


@njit(**JIT)
def seatings(cfg, policies, params):
    """The policy rows of the four seats in each seating of a duplicate set (A in N/S, then
    E/W; with three players A in N, E, then S): ``(policies[k, 4, 2], params[k, 4, :])``,
    built once so that no game copies the parameter rows."""
    partners = cfg[C.PARTNERS] == 1
    copies = 2 if partners else 3
    pol = np.empty((copies, 4, 2), dtype=np.int64)
    par = np.empty((copies, 4, params.shape[1]), dtype=np.float64)
    for a in range(copies):
        for s in range(4):
            side = 0 if ((s & 1) == a if partners else s == a) else 1
            pol[a, s] = policies[side]
            par[a, s] = params[side]
    return pol, par


@njit(**JIT)
def play_game(rules, seat_pols, seat_pars, seed, game, solver, out, tally, lens, engine):
    """Play game ``game`` (``seat_pols``/``seat_pars``: the rows of ``seatings``, with the
    ``lens`` on this thread's own copy, whose worth it sets before each hand; ``solver`` this
    thread's ``(work, table)``; ``engine``: ``kernels.hand.pointers.engine_of(rules)``): fills
    ``out[G.*]`` and adds each played hand to ``tally[side, contract code, TALLY.*]``."""
    cfg = rules.cfg
    work, table = solver
    players = cfg[C.PLAYERS]
    partners = cfg[C.PARTNERS] == 1
    copies = 2 if partners else 3
    deal_set = game // copies
    a_seat = game % copies  # 4 players: A in N/S (0) or E/W (1); 3 players: A's seat
    side_of = np.zeros(4, dtype=np.int64)
    for s in range(4):
        if partners:
            side_of[s] = 0 if (s & 1) == a_seat else 1
        else:
            side_of[s] = 0 if s == a_seat else 1
    seat_pol = seat_pols[a_seat]
    seat_par = seat_pars[a_seat]
    scores = np.zeros(4, dtype=np.int64)
    hm = np.zeros(np.int64(M.LEN), dtype=np.uint64)
    rec = np.zeros(np.int64(R.LEN), dtype=np.int64)
    deck_ids = rules.deck_ids
    cards = np.empty(deck_ids.shape[0], dtype=np.int64)
    deal_state = np.zeros(1, dtype=np.uint64)
    ag = new_agents(seat_pol, seat_par, np.zeros(1, dtype=np.uint64), work, table, rules.decks)
    dealer = deal_set % players
    hands = 0
    redeals = 0
    winner = -1
    for h in range(MAX_HANDS):
        index = deal_set * MAX_HANDS + h
        deal_hand(cfg, seed, index, dealer, hm, rec, deck_ids, cards, deal_state)
        if lens.geom[SC.ON] == 1:
            set_worth(lens, scores, dealer, players, seat_par)
        next_hand(ag, seed, index * 3 + a_seat)
        new_deal(work)
        engine.play_hand(rules, ag, hm, rec)
        hands += 1
        dealer = (dealer + 1) % players
        if rec[R.STATUS] != ST_PLAYED:
            redeals += 1
            continue
        count_hand(cfg, rec, tally[side_of[rec[R.DECLARER]], contract_code(cfg, rec)])
        add_points(cfg, rec, scores)
        winner = game_winner(scores, 2 if partners else 3, cfg[C.TARGET], cfg[C.WIN_BY])
        if winner >= 0:
            break
    out[G.HANDS] = hands
    out[G.REDEALS] = redeals
    if partners:
        a_unit = a_seat  # team 0 = N/S, team 1 = E/W
        out[G.WINNER_IS_A] = 1 if winner == a_unit else 0
        out[G.POINTS_A] = scores[a_unit]
        out[G.POINTS_B] = scores[1 - a_unit]
    else:
        out[G.WINNER_IS_A] = 1 if winner == a_seat else 0
        out[G.POINTS_A] = scores[a_seat]
        total_b = 0
        for s in range(3):
            if s != a_seat:
                total_b += scores[s]
        out[G.POINTS_B] = total_b // 2


@njit(**PARALLEL_JIT)
def play_games(rules, policies, params, seed, first, n, tt_bits, nthreads, lens, engine):
    """Play games ``first .. first+n-1``: ``policies[side]`` and ``params[side]`` are A's
    (side 0) and B's (side 1); a seat that plays to the score is told it before each hand
    from the ``lens`` (``Lens``; off, ``SC.ON`` 0: nobody is). Returns ``(results[n, G.LEN],
    tally[n, 2, N_CODES, TALLY.LEN])`` (see ``kernels.slots.TALLY``); each game depends only
    on (seed, its number). ``engine``: ``kernels.hand.pointers.engine_of(rules)``."""
    cfg = rules.cfg
    results = np.zeros((n, np.int64(G.LEN)), dtype=np.int64)
    tally = np.zeros((n, 2, N_CODES, np.int64(TALLY.LEN)), dtype=np.int64)
    works, tables = solver_arrays(nthreads, tt_bits)
    seat_pols, seat_pars = seatings(cfg, policies, params)
    on = lens.geom[SC.ON] == 1  # each thread then writes the worth into its own rows
    thread_pars = np.empty((nthreads if on else 0,) + seat_pars.shape)
    for t in range(thread_pars.shape[0]):
        thread_pars[t] = seat_pars
    for i in prange(n):
        tid = get_thread_id()
        pars = thread_pars[tid] if on else seat_pars
        play_game(rules, seat_pols, pars, seed, first + i, (works[tid], tables[tid]), results[i],
                  tally[i], lens, engine)
    return results, tally
