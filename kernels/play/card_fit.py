"""Fitting the analyzer card player's network (``kernels.play.analyzer_player``) to positions whose
legal cards were played out (``kernels.drivers.card_labels``): minibatch Adam on the centred squared
error, serial and in a fixed order, so the same positions and order give the same network on
any machine.

A position's loss is ``Σ_c (s(c) - mean s - a(c))²`` over its legal cards c, ``s(c)`` the
network's score of the card and ``a(c)`` the card's net points less the mean of its
position's cards: only the differences between a position's cards are learned."""

import numpy as np
from numba import njit

from ..config import JIT
from ..deal.rng import next_u64, shuffle, stream_state
from .analyzer_player import card_score, view_layer

STREAM_INIT = 11  # a new network's weights (stream index: which array)
STREAM_ORDER = 12  # the positions' order in each epoch (stream index: the epoch)


@njit(**JIT)
def normal_fill(out, sd, seed, index):
    """Fill the flat array ``out`` with normal draws of deviation ``sd`` (Box-Muller) from
    the stream ``(seed, STREAM_INIT, index)``."""
    state = stream_state(seed, STREAM_INIT, index)
    for k in range(out.shape[0]):
        u1 = (np.float64(next_u64(state) >> np.uint64(11)) + 1.0) * (1.0 / 9007199254740992.0)
        u2 = np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        out[k] = sd * np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)


@njit(**JIT)
def epoch_order(n, seed, epoch):
    """The order of ``n`` positions in epoch ``epoch``: a permutation from the stream
    ``(seed, STREAM_ORDER, epoch)``."""
    order = np.arange(n)
    shuffle(stream_state(seed, STREAM_ORDER, epoch), order)
    return order


@njit(**JIT)
def _adam(param, grad, m, v, lr, step):
    """One Adam step of ``param`` (flat views) by ``grad``, which is zeroed; a weight no
    position of the batch touched (gradient and moment 0) is left as it is."""
    b1, b2, eps = 0.9, 0.999, 1e-8
    c1 = 1.0 - b1 ** step
    c2 = 1.0 - b2 ** step
    for k in range(param.shape[0]):
        g = grad[k]
        if g == 0.0 and m[k] == 0.0:
            continue
        m[k] = b1 * m[k] + (1 - b1) * g
        v[k] = b2 * v[k] + (1 - b2) * g * g
        param[k] -= lr * (m[k] / c1) / (np.sqrt(v[k] / c2) + eps)
        grad[k] = 0.0


@njit(**JIT)
def _position(view, cards, k, params, base, hidden, scores):
    """Score the ``k`` legal cards of one position (its view's inputs ``view``, -1 after
    them; its cards' inputs ``cards``), leaving each card's hidden inputs in ``hidden[c]``
    and the view's part in ``base``; returns how many view inputs are on."""
    w_view, w_card, b1, lin, w2 = params
    m = 0
    while m < view.shape[0] and view[m] >= 0:
        m += 1
    view_layer(view, m, w_view, b1, base)
    for c in range(k):
        scores[c] = card_score(cards[c], base, w_card, lin, w2, hidden[c])
    return m


@njit(**JIT)
def train(data, order, params, grads, moments, lr, batch, step):
    """One epoch over the positions in ``order`` (``data`` = (view, cards, value, n):
    ``view[p]`` its view's inputs that are on, -1 after them; ``cards[p, c]`` and ``value[p,
    c]`` each of its ``n[p]`` legal cards' inputs and net points): ``params`` = (w_view, w_card,
    b1, lin, w2) of ``kernels.play.analyzer_player.network``, ``grads`` shaped alike,
    ``moments`` Adam's two moments of each (flat), ``step`` Adam's steps before. Returns ``(mean
    loss a card, steps after)``."""
    view, cards, value, n = data
    w_view, w_card, b1, lin, w2 = params
    g_view, g_card, g_b1, g_lin, g_w2 = grads
    width = b1.shape[0]
    base = np.empty(width)
    hidden = np.empty((cards.shape[1], width))
    dbase = np.empty(width)
    scores = np.empty(cards.shape[1])
    total = 0.0
    counted = 0
    for start in range(0, order.shape[0], batch):
        end = min(start + batch, order.shape[0])
        for q in range(start, end):
            p = order[q]
            k = n[p]
            m = _position(view[p], cards[p], k, params, base, hidden, scores)
            mean_s = 0.0
            mean_v = 0.0
            for c in range(k):
                mean_s += scores[c]
                mean_v += value[p, c]
            mean_s /= k
            mean_v /= k
            for j in range(width):
                dbase[j] = 0.0
            for c in range(k):
                r = (scores[c] - mean_s) - (value[p, c] - mean_v)
                total += r * r
                counted += 1
                d = 2.0 * r / (end - start)  # dL/ds(c); the mean's part sums to zero
                for g in range(cards.shape[2]):
                    g_lin[cards[p, c, g]] += d
                for j in range(width):
                    if hidden[c, j] > 0.0:
                        g_w2[j] += d * hidden[c, j]
                        dh = d * w2[j]
                        dbase[j] += dh
                        for g in range(cards.shape[2]):
                            g_card[cards[p, c, g], j] += dh
            for j in range(width):
                if dbase[j] != 0.0:
                    g_b1[j] += dbase[j]
                    for a in range(m):
                        g_view[view[p, a], j] += dbase[j]
        step += 1
        _adam(w_view.reshape(-1), g_view.reshape(-1), moments[0], moments[1], lr, step)
        _adam(w_card.reshape(-1), g_card.reshape(-1), moments[2], moments[3], lr, step)
        _adam(b1, g_b1, moments[4], moments[5], lr, step)
        _adam(lin, g_lin, moments[6], moments[7], lr, step)
        _adam(w2, g_w2, moments[8], moments[9], lr, step)
    return total / max(counted, 1), step


@njit(**JIT)
def scores_of(view, cards, n, params):
    """The network's score of every legal card of every position (``-inf`` past ``n[p]``)."""
    width = params[2].shape[0]
    out = np.full(cards.shape[:2], -np.inf)
    base = np.empty(width)
    hidden = np.empty((cards.shape[1], width))
    scores = np.empty(cards.shape[1])
    for p in range(view.shape[0]):
        _position(view[p], cards[p], n[p], params, base, hidden, scores)
        for c in range(n[p]):
            out[p, c] = scores[c]
    return out
