"""Bidding strategies as data: each seat's parameter row ``params[seat]`` (slots ``PR``) holds
its card points, its thresholds per seat and call, and for the analyzer strategy its table of
expected net points. Natural masks in; only the seat's own hand and public facts are read.

The point count (``points``): every card of the hand is worth the points of its row in
``PR.PTS`` for the trump suit (by default right bower 3, left bower 2.5, ace 2, king 1.5, queen
1.25, ten and nine 1, eight and seven 0.75, joker 3.5; each side-suit ace 1), plus ``PR.VOID``
for each side-suit void when holding at least ``PR.VOID_MIN`` trumps. A typical hand is worth
about 3. A call is made from the seat's threshold for it (``threshold``), by the seat's place
relative to the dealer: 0 the dealer, 1 the seat on its left, 2 the next, 3 the last.

The analyzer strategy (``analyzer_*``) makes the call with the best expected net points in its
table, by option, context (``ladder_context``, ``round1_context``, ``round2_context``) and the
hand's point count in half points; in the upcard auction a seat may read them from its fitted
model instead (``kernels.bidding.upcard_model``, the one home of the upcard calls' values).

Playing to the score (``score_value``): a seat whose row says it plays to the score
(``PR.TO_SCORE``) and knows it (``PR.SCORED``) makes the call with the best chance of winning
the game instead: its row's lens holds, for each kind of call, place and value in net points,
the chance of each outcome of the hand (the points each side scores), and ``PR.WORTH`` the
chance of winning the game after each outcome at this hand's score; a call is worth
``sum_k P_k(call) * worth_k``.
"""

import numpy as np
from numba import njit

from ..cards.bits import ONE, lowest_bit, popcount
from ..cards.codes import ASK, MOON, NAME, ORDER, PASS
from ..cards.layout import JOKER, RANK_A, RANK_J, natural_suit, partnered, same_colour_suit
from ..cards.seating import partner
from ..config import JIT, NRT_FREE
from ..slots import FM, LENS_BIN_MAX, LENS_K, PR, T

# card weights (``points_table``): trump by rank, then side cards by rank
W_TRUMP = 0  # right, left, A, K, Q, T, 9, 8, 7, joker
W_SIDE = 10  # A, K, Q, J, T, 9, 8, 7
W_COUNT = 18
TRUMP_RANKS = (-1, -2, 7, 6, 5, 3, 2, 1, 0)  # natural rank of each trump weight (-1 right, -2 left)
SIDE_RANKS = (7, 6, 5, 4, 3, 2, 1, 0)


STRAT_OPTIONS = 8
STRAT_CONTEXTS = 256
STRAT_BINS = 33  # half points 0 .. 16
N_PARAMS = int(PR.LEN)
# options of the analyzer's table: a ladder auction's calls ...
L_PASS, L_BID3, L_BID4, L_BID5, L_ASK, L_MOON, L_SWAP = 0, 1, 2, 3, 4, 5, 6
# ... and the upcard auction's (round 1 and round 2 are told apart by the context)
U_ORDER, U_ALONE, U_PASS, U_NAME, U_NAME_ALONE = 0, 1, 2, 3, 4

DEFAULT_WEIGHTS = np.array([3.0, 2.5, 2.0, 1.5, 1.25, 1.0, 1.0, 0.75, 0.75, 3.5,
                            1.0, 0, 0, 0, 0, 0, 0, 0])
DEFAULT_THRESHOLDS = np.array([4.0, 5.5, 7.0, 8.5, 11.0, 4.5, 8.5, 4.5, 8.5, 99.0, 2.5])


@njit(**NRT_FREE)
def is_trump(card, trump):
    """Whether natural card ``card`` is a trump (the bowers and the joker included)."""
    if card == JOKER:
        return True
    suit = natural_suit(card)
    rank = card & 7
    return suit == trump or (rank == RANK_J and suit == same_colour_suit(trump))


@njit(**NRT_FREE)
def card_slot(card, trump):
    """The class of natural card ``card`` under ``trump``: its slot of the ``W_*`` layout
    (right, left, trump by rank, joker; side cards by rank), -1 for none."""
    if card == JOKER:
        return W_TRUMP + 9
    suit = natural_suit(card)
    rank = card & 7
    if rank == RANK_J and suit == trump:
        return W_TRUMP
    if rank == RANK_J and suit == same_colour_suit(trump):
        return W_TRUMP + 1
    if suit == trump:
        for i in range(2, 9):
            if TRUMP_RANKS[i] == rank:
                return W_TRUMP + i
    for i in range(8):
        if SIDE_RANKS[i] == rank:
            return W_SIDE + i
    return -1


@njit(**NRT_FREE)
def card_weight(weights, card, trump):
    """The points ``weights`` (``W_*`` layout) give natural card ``card`` under ``trump``."""
    k = card_slot(card, trump)
    return weights[k] if k >= 0 else 0.0


@njit(**JIT)
def points_table(weights):
    """``points[trump, card]``: the points of every natural card for each trump suit."""
    points = np.zeros((4, 64), dtype=np.float64)
    for t in range(4):
        for card in range(64):
            points[t, card] = card_weight(weights, card, t)
    return points


@njit(**JIT)
def _masks():
    """``(trumps[trump], sides[trump, suit])``: the natural mask of trumps (bowers and joker
    included), and of each suit's side cards (without the left bower), for every trump."""
    trumps = np.zeros(4, dtype=np.uint64)
    sides = np.zeros((4, 4), dtype=np.uint64)
    for t in range(4):
        for card in range(64):
            if is_trump(card, t):
                trumps[t] |= ONE << np.uint64(card)
            elif card != JOKER:
                sides[t, natural_suit(card)] |= ONE << np.uint64(card)
    return trumps, sides


TRUMPS, SIDES = _masks()
POINTS = points_table(DEFAULT_WEIGHTS)  # the default point count (the tables' strength)


# Net points a lone call must gain over the same call with the partner before the analyzer
# goes alone: its table's two values are noisy estimates pooled over hands that count alike,
# and taking the larger favours the lone call (it went alone 16 times in 100 hands and marched
# 20%, where the rollout bidder goes alone 10 times and marches 34%). Measured, knock against
# the point count, 4,000 games: margin 0 54.5%, 0.6 54.9% (9.5 loners, 27% march); the call
# values and the alone choice both take it (``with_or_alone``, ``goes_alone``), from
# the seat's row (``PR.ALONE_MARGIN``).
ALONE_MARGIN = 0.6

DEFAULT_PARAMS = np.zeros(N_PARAMS)  # the built-in point count (analyzer.strategy builds others)
for _slot, _value in ((PR.WORLDS, 20.0), (PR.VOID, 0.5), (PR.VOID_MIN, 2.0),
                      (PR.UP_DEALER, 0.5), (PR.UP_PARTNER, 0.75), (PR.UP_OPPONENT, 0.5),
                      (PR.ALONE_MARGIN, ALONE_MARGIN)):
    DEFAULT_PARAMS[_slot] = _value
DEFAULT_PARAMS[PR.TH:PR.PTS] = np.tile(DEFAULT_THRESHOLDS, 4)
DEFAULT_PARAMS[PR.PTS:PR.STRAT] = POINTS.reshape(-1)
# its only non-zero slots (before the analyzer's table): what a kernel copies into a row of
# zeros (a global array as long as a whole row is too large for numba to cache a kernel
# that reads it)
COUNT_PARAMS = DEFAULT_PARAMS[:PR.STRAT].copy()


@njit(**NRT_FREE)
def threshold(params, seat, place, kind):
    """The points ``seat`` needs for a call of ``kind`` (``T``) from ``place``."""
    return params[seat, PR.TH + place * T.COUNT + kind]


@njit(**NRT_FREE)
def hand_points(hand, trump, params, seat):
    """Points of natural mask ``hand`` for ``trump`` by ``seat``'s card points (see the module
    docstring)."""
    total = 0.0
    base = PR.PTS + trump * 64
    m = np.uint64(hand)
    while m:
        total += params[seat, base + lowest_bit(m)]
        m &= m - ONE
    if popcount(hand & TRUMPS[trump]) >= params[seat, PR.VOID_MIN]:
        for s in range(4):
            if s != trump and (hand & SIDES[trump, s]) == 0:
                total += params[seat, PR.VOID]
    return total


@njit(**NRT_FREE)
def best_suit(hand, allowed, params, seat):
    """``(points, suit)`` of the best-scoring suit among the 4-bit mask ``allowed``."""
    best = -1.0
    suit = -1
    for t in range(4):
        if (allowed >> t) & 1:
            p = hand_points(hand, t, params, seat)
            if p > best:
                best = p
                suit = t
    return best, suit


@njit(**NRT_FREE)
def give_card(hand, trump):
    """The card an n-asker gives away: the lowest side card (lowest rank, from the shortest
    suit), else the lowest trump."""
    best = -1
    best_key = 1 << 30
    for card in range(64):
        if (np.uint64(hand) >> np.uint64(card)) & ONE:
            t = is_trump(card, trump)
            key = (1000 if t else 0) + (card & 7) * 10
            if not t and card != JOKER:
                suit = natural_suit(card)
                length = 0
                for r in range(8):
                    if (np.uint64(hand) >> np.uint64(suit * 8 + r)) & ONE:
                        length += 1
                key += length
            if key < best_key:
                best_key = key
                best = card
    return best


@njit(**NRT_FREE)
def partner_return(hand, trump):
    """A trumpless partner in an n-ask passes back its best card: an ace, else its highest."""
    best = -1
    best_key = -1
    for card in range(64):
        if (np.uint64(hand) >> np.uint64(card)) & ONE:
            key = (100 if (card & 7) == RANK_A else 0) + (card & 7)
            if key > best_key:
                best_key = key
                best = card
    return best


@njit(**NRT_FREE)
def pass_or_lowest(allowed):
    """Pass when passing is allowed (bit 0 of ``allowed``), else the lowest call allowed
    (stick the dealer)."""
    if allowed & ONE:
        return 0
    m = allowed
    k = 0
    while not (m & ONE):
        m >>= ONE
        k += 1
    return k


TABLE_HAND = 6  # the hand whose bids name the table's rows: 3, 4 and 5


@njit(**NRT_FREE)
def ladder_tricks(hand):
    """The tricks a ladder auction's ``hand`` plays for: 6, or 12 in the double deck (a joker
    dealer's extra card is discarded before the play)."""
    return TABLE_HAND * (popcount(hand) // TABLE_HAND)


@njit(**NRT_FREE)
def choose_bid(hand, allowed, params, seat, place):
    """A bid among the call codes in ``allowed`` (uint64 mask): the highest whose threshold
    the best suit's points reach, else pass (code 0) if allowed, else the lowest allowed. The
    thresholds are a ``TABLE_HAND``-card hand's: a double-deck hand's points count half, and
    its bids are the single deck's 3, 4 and 5 doubled (the same share of the tricks)."""
    points, _ = best_suit(hand, 15, params, seat)
    tricks = ladder_tricks(hand)
    if tricks != TABLE_HAND:
        points = points * TABLE_HAND / tricks
    best = -1
    for k in range(3, 6):
        code = k * tricks // TABLE_HAND
        if points >= threshold(params, seat, place, T.BID3 + k - 3) and \
                (allowed >> np.uint64(code)) & ONE:
            best = code
    if points >= threshold(params, seat, place, T.ASK) and (allowed >> np.uint64(ASK)) & ONE:
        best = ASK
    if points >= threshold(params, seat, place, T.MOON) and (allowed >> np.uint64(MOON)) & ONE:
        best = MOON
    if best >= 0:
        return best
    return pass_or_lowest(allowed)


@njit(**NRT_FREE)
def order_points(hand, trump, upcard, seat, dealer, players, params):
    """Points of ordering the upcard's suit from ``seat``: the dealer counts the upcard in
    place of its worst card, the dealer's partner gains a share of it, an opponent of the
    dealer gives a share away (three players: the dealer gains it, the others give it away)."""
    p = hand_points(hand, trump, params, seat)
    up = params[seat, PR.PTS + trump * 64 + upcard]
    if seat == dealer:
        return hand_points(hand | (ONE << np.uint64(upcard)), trump, params, seat) - \
            params[seat, PR.UP_DEALER]
    if partnered(players) and partner(seat) == dealer:
        return p + up * params[seat, PR.UP_PARTNER]
    return p - up * params[seat, PR.UP_OPPONENT]


# ---------------------------------------------------------------------------- the analyzer


@njit(**NRT_FREE)
def strat(params, seat, option, context, points):
    """The analyzer's expected net points for ``option`` in ``context`` with a hand of
    ``points`` (read from the seat's parameter row)."""
    b = np.int64(points * 2.0)
    if b < 0:
        b = 0
    if b >= STRAT_BINS:
        b = STRAT_BINS - 1
    return params[seat, PR.STRAT + (option * STRAT_CONTEXTS + context) * STRAT_BINS + b]


NEVER = -1e6  # a value at or under this is a call the strategy never makes (unseen: -1e9)


@njit(**NRT_FREE)
def plays_to_score(params, seat):
    """Whether ``seat`` chooses its calls by the chance of winning the game: its strategy
    plays to the score (``PR.TO_SCORE``) and the score of the hand is known (``PR.SCORED``)."""
    return params[seat, PR.TO_SCORE] == 1.0 and params[seat, PR.SCORED] == 1.0


@njit(**NRT_FREE)
def score_value(params, seat, kind, place, value):
    """The chance that ``seat``'s side wins the game after a call of ``kind`` (a ladder's L_*
    option, or the upcard auction's ``FM.R1_ORDER`` ... ``FM.R2_PASS``) from ``place`` that
    its strategy values at ``value`` net points: ``sum_k P_k * PR.WORTH[k]``, the chances
    ``P_k`` of the outcomes read from the seat's lens (``PR.LENS``) between the two value bins
    around ``value`` (linearly; the first or last bin beyond them). ``PR.WORTH`` holds each
    outcome's chance less ``PR.SLOPE`` times its net points, and the call's own ``value``
    counts at that slope instead: the lens gives the shape of the outcomes, the strategy's
    value their mean (at a score where each point is worth the same, the score-blind call).
    A call the strategy never makes (``value <= NEVER``) is worth -1."""
    if value <= NEVER:
        return -1.0
    n = np.int64(params[seat, PR.OUTCOMES])
    bins = np.int64(params[seat, PR.LENS_BINS])
    x = (value - params[seat, PR.LENS_LOW]) / params[seat, PR.LENS_STEP]
    x = min(max(x, 0.0), bins - 1.0)
    i = min(np.int64(x), bins - 2)
    share = x - i
    base = PR.LENS + ((kind * 4 + place) * LENS_BIN_MAX + i) * LENS_K
    low = 0.0
    high = 0.0
    for k in range(n):
        w = params[seat, PR.WORTH + k]
        low += params[seat, base + k] * w
        high += params[seat, base + LENS_K + k] * w
    return low + share * (high - low) + params[seat, PR.SLOPE] * value


@njit(**NRT_FREE)
def call_value(params, seat, scored, kind, place, value):
    """The value the analyzer compares a call by: its chance of winning the game
    (``score_value``) when ``scored``, else its ``value`` in net points."""
    if scored:
        return score_value(params, seat, kind, place, value)
    return value


@njit(**NRT_FREE)
def with_or_alone(params, seat, scored, kinds, place, together, alone):
    """The value of a call the maker may make with the partner (worth ``together`` net points)
    or alone (``alone``): the better of the two, the lone call's points less the seat's margin
    (``PR.ALONE_MARGIN``) — or, when ``scored``, the better chance of winning the game
    (``kinds``: the two calls' kinds, with the partner and alone), the lone call's read at
    its points less the margin too. (The lens makes each call's chances those that calls of
    its value brought, but not the difference of two: without the margin the analyzer went
    alone 22 times in 100 hands at a score, made 85% of them and lost 48.4% of its games
    against itself score-blind, 20,000 knock games.)"""
    alone = alone - params[seat, PR.ALONE_MARGIN]
    if scored:
        return max(score_value(params, seat, kinds[0], place, together),
                   score_value(params, seat, kinds[1], place, alone))
    return max(together, alone)


@njit(**NRT_FREE)
def goes_alone(params, seat, scored, kinds, place, together, alone):
    """Whether the maker goes alone: the lone call (``alone`` net points) beats the call with
    the partner (``together``) by the seat's margin, or, when ``scored``, has the better chance
    of winning the game read at its points less the margin (``kinds`` as in
    ``with_or_alone``)."""
    alone = alone - params[seat, PR.ALONE_MARGIN]
    if scored:
        return score_value(params, seat, kinds[1], place, alone) > \
            score_value(params, seat, kinds[0], place, together)
    return alone > together


ORDER_KINDS = (int(FM.R1_ORDER), int(FM.R1_ALONE))  # the lens's kinds of ordering up, with
NAME_KINDS = (int(FM.R2_NAME), int(FM.R2_NAME_ALONE))  # the partner or alone; of naming a suit


@njit(**NRT_FREE)
def ladder_level(allowed, tricks):
    """The current bid as a level of the table: 0 none, else 1 to 3 for the bid's row
    (``bid_row``, of a hand of ``tricks`` tricks); read from the lowest bid still allowed."""
    for k in range(3, 12):
        if (allowed >> np.uint64(k)) & ONE:
            return 0 if k == 3 else bid_row(k - 1, tricks) - 2
    return 3


@njit(**NRT_FREE)
def trump_bucket(hand, trump):
    """The hand's trumps as a context: 0 for at most one, 1 for two, 2 for three, 3 for more."""
    n = popcount(hand & TRUMPS[trump])
    return 0 if n <= 1 else min(n - 1, 3)


@njit(**NRT_FREE)
def ladder_context(allowed, place, seat, holder, swapped, players, trumps, tricks):
    """The context of a ladder call: the seat's place, who holds the current bid (nobody, the
    partner or an opponent; without partners whether the ghost hand was taken instead), the
    bid's level (``ladder_level``, for a hand of ``tricks`` tricks), and the trump bucket of
    the hand's best suit."""
    if partnered(players):
        group = 0 if holder < 0 else (1 if (holder & 1) == (seat & 1) else 2)
    else:
        group = (0 if holder < 0 else 1) + 2 * swapped
    return (place * 16 + group * 4 + ladder_level(allowed, tricks)) * 4 + trumps


@njit(**NRT_FREE)
def round1_context(place, upcard, trumps):
    """The context of a round-1 call: the seat's place, the upcard's rank and the trump
    bucket of the upcard's suit."""
    return (place * 8 + (upcard & 7)) * 4 + trumps


@njit(**NRT_FREE)
def round2_context(place, suit, turned, trumps):
    """The context of naming ``suit`` in round 2: the seat's place, whether the suit is the
    turned-down one's colour ("next") or not, and its trump bucket."""
    return 128 + (place * 2 + (0 if suit == same_colour_suit(turned) else 1)) * 4 + trumps


@njit(**NRT_FREE)
def bid_row(code, tricks):
    """The table's bid (3, 4 or 5) that values bid ``code`` of a hand of ``tricks`` tricks:
    the bid that needs the same share of a ``TABLE_HAND``-trick hand, rounded up, within 3 to
    5 — the bid itself in the single deck; in the double deck bids 3 to 6 share the row of 3,
    7 and 8 that of 4, 9 to 11 that of 5 (without it every bid from 5 up was one row, and a
    partner overcalled a cold 8)."""
    row = (code * TABLE_HAND + tricks - 1) // tricks
    return 3 if row < 3 else (5 if row > 5 else row)


@njit(**NRT_FREE)
def ladder_option(code, tricks):
    """The analyzer table's option of ladder call ``code`` of a hand of ``tricks`` tricks."""
    if code == PASS:
        return L_PASS
    if code == ASK:
        return L_ASK
    if code == MOON:
        return L_MOON
    return L_BID3 + bid_row(code, tricks) - 3


N_CODES = 44  # call codes below SWAP: PASS, the bids, ASK, MOON, ORDER, NAME + suit
TEMPERATURE = 0.25  # net points: how fast a call's chance falls with how much worse it is
TREMBLE_EVEN = 0.5  # the share of a tremble spread evenly over the other legal calls


@njit(**NRT_FREE)
def ladder_values(hand, allowed, params, seat, place, holder, swapped, players, scored, out):
    """The analyzer table's value of each allowed ladder call (``out[code]``; the others
    -inf), for the hand's best suit: net points, or with ``scored`` the chance of winning the
    game (``call_value``)."""
    p, suit = best_suit(hand, 15, params, seat)
    tricks = ladder_tricks(hand)
    context = ladder_context(allowed, place, seat, holder, swapped, players,
                             trump_bucket(hand, suit), tricks)
    out[:] = -np.inf
    for code in range(N_CODES):
        if (allowed >> np.uint64(code)) & ONE:
            option = ladder_option(code, tricks)
            out[code] = call_value(params, seat, scored, option, place,
                                   strat(params, seat, option, context, p))


@njit(**NRT_FREE)
def upcard_values(hand, allowed, params, seat, place, upcard, turned, raw):
    """The analyzer table's net points of each allowed call of the upcard auction, with the
    partner and alone (``raw[code, 0]``, ``raw[code, 1]``; see ``upcard_call_values``): round
    1 pass and order; round 2 pass (in the context of the best suit to name, by the points
    compared) and each suit named."""
    raw[:, :] = -np.inf
    if (allowed >> np.uint64(ORDER)) & ONE:
        p = hand_points(hand, turned, params, seat)
        ctx = round1_context(place, upcard, trump_bucket(hand, turned))
        raw[ORDER, 0] = strat(params, seat, U_ORDER, ctx, p)
        raw[ORDER, 1] = strat(params, seat, U_ALONE, ctx, p)
        raw[PASS, 0] = strat(params, seat, U_PASS, ctx, p)
        return
    best = -1
    best_points = 0.0
    best_value = 0.0
    for t in range(4):
        if (allowed >> np.uint64(NAME + t)) & ONE:
            p = hand_points(hand, t, params, seat)
            ctx = round2_context(place, t, turned, trump_bucket(hand, t))
            raw[NAME + t, 0] = strat(params, seat, U_NAME, ctx, p)
            raw[NAME + t, 1] = strat(params, seat, U_NAME_ALONE, ctx, p)
            value = max(raw[NAME + t, 0], raw[NAME + t, 1] - params[seat, PR.ALONE_MARGIN])
            if best < 0 or value > best_value:
                best, best_points, best_value = t, p, value
    if allowed & ONE:
        ctx = round2_context(place, best, turned, trump_bucket(hand, best))
        raw[PASS, 0] = strat(params, seat, U_PASS, ctx, best_points)


@njit(**NRT_FREE)
def upcard_choices(params, seat, scored, place, allowed, raw, out):
    """The analyzer's value of each allowed call of the upcard auction (``out[code]``; the
    others -inf) from the calls' net points ``raw`` (``upcard_values``): an order or a suit
    named the better of with the partner and alone (``with_or_alone``), a pass its own; net
    points, or with ``scored`` the chance of winning the game."""
    out[:] = -np.inf
    if (allowed >> np.uint64(ORDER)) & ONE:
        out[ORDER] = with_or_alone(params, seat, scored, ORDER_KINDS, place, raw[ORDER, 0],
                                   raw[ORDER, 1])
        out[PASS] = call_value(params, seat, scored, FM.R1_PASS, place, raw[PASS, 0])
        return
    for t in range(4):
        if (allowed >> np.uint64(NAME + t)) & ONE:
            out[NAME + t] = with_or_alone(params, seat, scored, NAME_KINDS, place,
                                          raw[NAME + t, 0], raw[NAME + t, 1])
    if allowed & ONE:
        out[PASS] = call_value(params, seat, scored, FM.R2_PASS, place, raw[PASS, 0])


@njit(**JIT)
def analyzer_ladder(hand, allowed, params, seat, place, holder, swapped, players):
    """``(call, value)``: the allowed call (pass included) with the best value in the table,
    for the hand's best suit (stuck: the best bid); playing to the score when the seat does
    (``plays_to_score``)."""
    values = np.empty(N_CODES)
    ladder_values(hand, allowed, params, seat, place, holder, swapped, players,
                  plays_to_score(params, seat), values)
    best = -1
    for code in range(N_CODES):
        if (allowed >> np.uint64(code)) & ONE and (best < 0 or values[code] > values[best]):
            best = code
    return best, values[best]


@njit(**JIT)
def call_likelihood(values, allowed, heard, strategy, tremble):
    """The chance of call ``heard`` against that of the ``strategy``'s own call, for a seat
    that makes another legal call than its strategy's with chance ``tremble``, that other call
    chosen evenly among the other legal calls with chance ``TREMBLE_EVEN``, else by a softmax
    of the ``values`` (temperature ``TEMPERATURE``; ``values`` None-like, all -inf: evenly).
    The even share keeps a call far worse than the best (a wild moon) possible: people make
    them, and a softmax alone gives them chances like 1e-10."""
    if heard < 0 or heard >= N_CODES:
        return 0.0
    n = 0
    top = -np.inf
    for code in range(N_CODES):
        if (allowed >> np.uint64(code)) & ONE:
            n += 1
            top = max(top, values[code])
    if n <= 1:
        return 0.0
    total = 0.0
    weight = np.zeros(N_CODES)
    for code in range(N_CODES):
        if (allowed >> np.uint64(code)) & ONE and code != strategy:
            w = 1.0 if top == -np.inf else np.exp((values[code] - top) / TEMPERATURE)
            weight[code] = w
            total += w
    if total <= 0.0 or not (allowed >> np.uint64(heard)) & ONE or heard == strategy:
        return 0.0
    share = TREMBLE_EVEN / (n - 1) + (1.0 - TREMBLE_EVEN) * weight[heard] / total
    return tremble * share / (1.0 - tremble)
