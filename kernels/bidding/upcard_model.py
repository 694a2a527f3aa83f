"""The analyzer's values of the upcard auction's calls: read from its table
(``kernels.bidding.bidding``: a cell per option, context and point count), or, for a seat whose
parameter row says so (``PR.FITTED``), from its fitted model (slots ``FM``).

The fitted model is one linear model per call (order, order alone, pass in round 1; name, name
alone, pass in round 2) of the net points the call brings: an intercept per context of the
table, plus weights by the seat's place and trump count on the hand's features for the call's
trump (``hand_features``: the cards of each class, the voids, the top trumps by the trump
length, both bowers, the side suits' losers and shape) and, for round 1's pass, on the
features of the hand's best other suit (the suit it could name in round 2). The weights are
fitted to the tables' played-out calls by ``analyzer.strategy.fitted``. Unlike a table keyed
on one point count, the model tells a hand with both bowers from one with two aces and a
king, a guarded king from a bare one, and a pass that keeps a good round-2 suit from one that
does not.
"""

import numpy as np
from numba import njit

from ..cards.bits import ONE, lowest_bit, popcount
from ..cards.codes import NAME, ORDER, PASS
from ..cards.layout import COPY_OFFSET, N_SUITS, RANK_A, RANK_K, RANKS_PER_SUIT, natural_suit
from ..config import JIT, NRT_FREE
from ..slots import FM, PR
from .bidding import (
    N_CODES,
    NAME_KINDS,
    ORDER_KINDS,
    SIDES,
    U_ALONE,
    U_NAME,
    U_NAME_ALONE,
    U_ORDER,
    W_COUNT,
    W_SIDE,
    best_suit,
    card_slot,
    goes_alone,
    plays_to_score,
    round1_context,
    round2_context,
    strat,
    trump_bucket,
    upcard_choices,
    upcard_values,
)

F_VOIDS = W_COUNT  # the features after the card classes (``hand_features``)
F_TOP_BY_LENGTH = W_COUNT + 1  # right, left, trump ace, each times the trump length
F_BOWERS = W_COUNT + 4  # both bowers
F_SIDE_LOSERS = W_COUNT + 5  # side cards not covered by the suit's ace or guarded king
F_RUFFS = W_COUNT + 6  # voids times the trumps beyond one
F_BARE_KINGS = W_COUNT + 7  # side kings without another card of their suit
F_ACES_BY_LENGTH = W_COUNT + 8  # side aces times the trump length
F_THIRD_LOSERS = W_COUNT + 9  # side cards beyond a suit's second
N_FEATURES = int(FM.FEATURES)


def _rank_masks(rank):
    """Per natural suit, the mask of its card of ``rank`` (both copies of the double deck)."""
    return np.array([(1 << (s * RANKS_PER_SUIT + rank)) |
                     (1 << (COPY_OFFSET + s * RANKS_PER_SUIT + rank)) for s in range(N_SUITS)],
                    dtype=np.uint64)


ACES, KINGS = _rank_masks(RANK_A), _rank_masks(RANK_K)


@njit(**NRT_FREE)
def hand_features(hand, trump, out):
    """Write the ``FM.FEATURES`` features of natural mask ``hand`` for ``trump`` into ``out``:
    the cards of each class (``kernels.bidding.bidding.card_slot``), the side suits it is void in
    (holding two trumps or more), the right, left and trump ace each times the trump length,
    1 for both bowers; then the side suits' shape (model version 3): the voids times the
    trumps beyond one, the side losers (of each side suit's first two cards, those its ace
    and a king with a guard do not cover), the bare side kings, the side aces times the trump
    length, and the side cards beyond a suit's second."""
    out[:] = 0.0
    m = np.uint64(hand)
    while m:
        k = card_slot(lowest_bit(m), trump)
        if k >= 0:
            out[k] += 1.0
        m &= m - ONE
    length = 0.0  # the trumps: the classes from the right to the joker
    for k in range(W_SIDE):
        length += out[k]
    for k in range(3):
        out[F_TOP_BY_LENGTH + k] = out[k] * length
    out[F_BOWERS] = out[0] * out[1]
    out[F_ACES_BY_LENGTH] = out[W_SIDE] * length  # the side aces' class
    for s in range(4):
        if s == trump:
            continue
        side = hand & SIDES[trump, s]
        n = popcount(side)
        if n == 0:
            out[F_VOIDS] += 1.0 if length >= 2 else 0.0
            continue
        ace = (side & ACES[s]) != 0
        king = (side & KINGS[s]) != 0
        covered = (1 if ace else 0) + (1 if king and n >= 2 else 0)
        out[F_SIDE_LOSERS] += max(min(n, 2) - covered, 0)
        if king and n == 1:
            out[F_BARE_KINGS] += 1.0
        out[F_THIRD_LOSERS] += max(n - 2, 0)
    out[F_RUFFS] = out[F_VOIDS] * max(length - 1.0, 0.0)


@njit(**JIT)
def hand_features_batch(hands, trumps):
    """``features[n, FM.FEATURES]`` of natural masks ``hands[n]``, each for ``trumps[n]``
    (a trump < 0: zeros)."""
    out = np.zeros((hands.shape[0], N_FEATURES))
    for i in range(hands.shape[0]):
        if trumps[i] >= 0:
            hand_features(hands[i], trumps[i], out[i])
    return out


@njit(**NRT_FREE)
def round1_hand(hand, place, upcard):
    """The cards round 1's features are read from: the dealer's (place 0) with the upcard it
    would take, everyone else's as held."""
    if place == 0 and upcard >= 0:
        return hand | (ONE << np.uint64(upcard))
    return hand


@njit(**JIT)
def round1_features_batch(hands, trumps, places, upcards):
    """``features[n, FM.FEATURES]`` of round-1 calls: natural masks ``hands[n]`` as
    :func:`round1_hand` reads them from ``places[n]`` with ``upcards[n]``, each for
    ``trumps[n]``."""
    out = np.zeros((hands.shape[0], N_FEATURES))
    for i in range(hands.shape[0]):
        hand_features(round1_hand(hands[i], places[i], upcards[i]), trumps[i], out[i])
    return out


@njit(**NRT_FREE)
def feature_block(place, context):
    """The block of a fitted model's weights: the seat's place and the trump bucket, the low
    two bits of every context of the upcard auction (``kernels.bidding.bidding.round1_context``)."""
    return place * 4 + (context & 3)


@njit(**NRT_FREE)
def model_value(params, seat, model, context, place, features, other):
    """The fitted model ``model`` (``FM``) of ``seat``: its net points for a call in
    ``context`` from ``place``, for a hand of ``features`` (and ``other``: its best other
    suit's, read by round 1's pass only; zeros elsewhere). The weights are those of the
    block of the place and the context's trump bucket (``feature_block``)."""
    base = PR.MODEL + model * FM.LEN
    value = params[seat, base + context]
    block = feature_block(place, context)
    mine = base + FM.CONTEXTS + block * FM.FEATURES
    theirs = base + FM.CONTEXTS + (FM.BLOCKS + block) * FM.FEATURES
    for i in range(FM.FEATURES):
        value += params[seat, mine + i] * features[i] + params[seat, theirs + i] * other[i]
    return value


@njit(**JIT)
def fitted_values(hand, allowed, params, seat, place, upcard, turned, raw):
    """As ``kernels.bidding.bidding.upcard_values``, from the seat's fitted model: the net points of
    round 1's pass and order (``raw[code, 0]``; alone ``raw[code, 1]``); of round 2's pass (in
    the context of the best suit to name by points) and each suit named."""
    raw[:, :] = -np.inf
    f = np.empty(N_FEATURES)
    g = np.zeros(N_FEATURES)
    if (allowed >> np.uint64(ORDER)) & ONE:
        hand_features(round1_hand(hand, place, upcard), turned, f)
        ctx = round1_context(place, upcard, trump_bucket(hand, turned))
        raw[ORDER, 0] = model_value(params, seat, FM.R1_ORDER, ctx, place, f, g)
        raw[ORDER, 1] = model_value(params, seat, FM.R1_ALONE, ctx, place, f, g)
        other = best_suit(hand, 15 & ~(1 << turned), params, seat)[1]
        hand_features(hand, other, g)
        raw[PASS, 0] = model_value(params, seat, FM.R1_PASS, ctx, place, f, g)
        return
    names = np.int64((allowed >> np.uint64(NAME)) & np.uint64(15))
    for t in range(4):
        if (names >> t) & 1:
            hand_features(hand, t, f)
            ctx = round2_context(place, t, turned, trump_bucket(hand, t))
            raw[NAME + t, 0] = model_value(params, seat, FM.R2_NAME, ctx, place, f, g)
            raw[NAME + t, 1] = model_value(params, seat, FM.R2_NAME_ALONE, ctx, place, f, g)
    if allowed & ONE:
        best = best_suit(hand, names, params, seat)[1]
        hand_features(hand, best, f)
        ctx = round2_context(place, best, turned, trump_bucket(hand, best))
        raw[PASS, 0] = model_value(params, seat, FM.R2_PASS, ctx, place, f, g)


@njit(**NRT_FREE)
def upcard_raw_values(hand, allowed, params, seat, place, upcard, turned, raw):
    """The analyzer's net points of each allowed call of the upcard auction, with the partner
    (``raw[code, 0]``) and alone (``raw[code, 1]``; -inf where there is none): from the seat's
    fitted model when its row has one, else from its table."""
    if params[seat, PR.FITTED] == 1.0:
        fitted_values(hand, allowed, params, seat, place, upcard, turned, raw)
    else:
        upcard_values(hand, allowed, params, seat, place, upcard, turned, raw)


@njit(**JIT)
def upcard_call_values(hand, allowed, params, seat, place, upcard, turned, scored, out):
    """The analyzer's value of each allowed call of the upcard auction (``out[code]``; the
    others -inf; ``kernels.bidding.bidding.upcard_choices``): net points, or with ``scored`` the
    chance of winning the game."""
    raw = np.empty((N_CODES, 2))
    upcard_raw_values(hand, allowed, params, seat, place, upcard, turned, raw)
    upcard_choices(params, seat, scored, place, allowed, raw, out)


@njit(**JIT)
def analyzer_round2(hand, allowed, params, seat, place, turned):
    """Round 2: the suit to name (the best named value), or pass when passing is worth at
    least as much (stuck: the best suit); playing to the score when the seat does."""
    values = np.empty(N_CODES)
    upcard_call_values(hand, allowed, params, seat, place, -1, turned,
                       plays_to_score(params, seat), values)
    best = -1
    for t in range(4):
        if (allowed >> np.uint64(NAME + t)) & ONE and \
                (best < 0 or values[NAME + t] > values[NAME + best]):
            best = t
    if allowed & ONE and values[PASS] >= values[NAME + best]:
        return PASS
    return NAME + best


@njit(**JIT)
def analyzer_alone(params, seat, hand, trump, upcard, place, points, round1):
    """Whether the analyzer maker goes alone with ``trump`` (made on the ``upcard``, ordered up
    in round 1, when ``round1``; else named in round 2): the lone call's value against the
    same call with the partner (``kernels.bidding.bidding.goes_alone``: by the margin, or playing to
    the score when the seat does), from the seat's fitted model when it has one, else from
    its table (``points``: the hand's)."""
    tb = trump_bucket(hand, trump)
    if round1:
        ctx = round1_context(place, upcard, tb)
    else:
        ctx = round2_context(place, trump, natural_suit(upcard), tb)
    kinds = ORDER_KINDS if round1 else NAME_KINDS
    scored = plays_to_score(params, seat)
    if params[seat, PR.FITTED] == 1.0:
        f = np.empty(N_FEATURES)
        g = np.zeros(N_FEATURES)
        hand_features(hand, trump, f)
        lone, together = (FM.R1_ALONE, FM.R1_ORDER) if round1 else \
            (FM.R2_NAME_ALONE, FM.R2_NAME)
        return goes_alone(params, seat, scored, kinds, place,
                          model_value(params, seat, together, ctx, place, f, g),
                          model_value(params, seat, lone, ctx, place, f, g))
    lone, together = (U_ALONE, U_ORDER) if round1 else (U_NAME_ALONE, U_NAME)
    return goes_alone(params, seat, scored, kinds, place,
                      strat(params, seat, together, ctx, points),
                      strat(params, seat, lone, ctx, points))
