"""The analyzer's card player: its network, how it is learned, and where it is kept.

The player (``kernels.play.analyzer_player``) reads a seat's view as one-hot inputs, scores every
card place with a small network and plays its best legal card. The network is learned from
positions of self-play hands, each legal card played out to the end of the hand on the true
deal (``kernels.drivers.card_labels``): the true deal is a draw from what the seat could not see,
given all it saw, so regressing the cards' net points on the seat's view (centred within
the position: only the differences between its cards) learns each card's value with
inference from the calls and the play built in. Built once per rule set and cached; the
shipped rule sets' networks ship with the package (``make strategies``).
"""

from __future__ import annotations

import os
import sys
import zlib
from dataclasses import dataclass

import numpy as np

from kernels.drivers.card_labels import card_labels_batch
from kernels.hand.policies import P_ANALYZER
from kernels.play.analyzer_player import N_CARD, N_VIEW
from kernels.play.card_fit import epoch_order, normal_fill, scores_of, train
from kernels.slots import PR
from kernels.threads import num_threads

from ..compute.engine import uses_solver
from ..compute.first_compile import engine_for
from ..compute.solver import solves_fast, table_bits
from ..game.scoring import net_points
from ..game.variants import Rules, make_rules
from .best_response import BUILT_DIR, cache_dir, read_cached

# the stages of learning (rollout policy iteration): how a stage's positions are labelled
# (double dummy, or the last player's own rollouts), how many (a share of POSITIONS), whether
# the last stage's positions are fitted too, and the epochs; knock, 100,000 duplicate pairs
# against the heuristic (docs/card-player.md): after the first stage +0.078, the second
# +0.087, the rollouts +0.094 and +0.091 (each beating the one before)
STAGES = (("dd", 1.0, False, 8), ("dd", 1.0, True, 8), ("rollout", 0.5, False, 4),
          ("rollout", 0.5, False, 4))
POSITIONS = 2_000_000
# hands that do not solve fast (the double deck's 12 cards) are labelled by rollouts alone:
# double dummy labels of 12-card hands would take days here; the first stage's rollouts are
# the heuristic's, the later ones the last stage's player's
ROLLOUT_STAGES = (("rollout", 1.0, False, 8), ("rollout", 0.5, True, 4),
                  ("rollout", 0.5, False, 4))
ROLLOUT_POSITIONS = 1_000_000
WIDTH = 32  # hidden units
EPOCHS = 8
BATCH = 256
LEARNING_RATE = 0.002
CARD_SEED = 20261207
VERSION = 2  # of the inputs (kernels.play.analyzer_player): a new version needs a new network


@dataclass
class Positions:
    """Positions of self-play with every legal card played out: ``view[p]`` the seat's view's
    inputs that are on (-1 after them), ``cards[p, c]`` and ``value[p, c]`` each legal card's
    inputs and net points to the seat, ``n[p]`` the legal cards (padding after them),
    ``own[p]`` the index of the card the seat played."""

    view: np.ndarray
    cards: np.ndarray
    value: np.ndarray
    n: np.ndarray
    own: np.ndarray

    def __len__(self) -> int:
        return len(self.n)

    def __add__(self, other: Positions) -> Positions:
        width = max(self.value.shape[1], other.value.shape[1])  # legal cards at most

        def widened(a: np.ndarray) -> np.ndarray:
            pad = [(0, 0)] * a.ndim
            pad[1] = (0, width - a.shape[1])
            return np.pad(a, pad)

        return Positions(np.concatenate([self.view, other.view]),
                         np.concatenate([widened(self.cards), widened(other.cards)]),
                         np.concatenate([widened(self.value), widened(other.value)]),
                         np.concatenate([self.n, other.n]), np.concatenate([self.own, other.own]))

    def last(self, count: int) -> Positions:
        """The last ``count`` positions."""
        return Positions(*(getattr(self, f)[-count:]
                           for f in ("view", "cards", "value", "n", "own")))


def label_positions(rules: Rules, policies: np.ndarray, params: np.ndarray, seed: int,
                    first: int, count: int, solve: bool = False) -> Positions:
    """Hands ``first .. first + count - 1`` of ``seed`` played by the seats' ``policies``/
    ``params``, one card decision of each with every legal card played out
    (``kernels.drivers.card_labels``; with ``solve``, double dummy); the hands with no such decision
    are left out."""
    dealers = (first + np.arange(count)) % rules.players
    view, cards, tricks, facts = card_labels_batch(
        rules.arrays, policies, params, np.int64(seed), np.int64(first),
        dealers.astype(np.int64), bool(solve),
        table_bits(rules) if solve or uses_solver(policies) else 1, num_threads(),
        engine_for(rules))
    keep = facts[:, 0] > 0
    most = int(facts[keep, 0].max(initial=1))  # the legal cards of a position at most
    view, cards, tricks, facts = view[keep], cards[keep, :most], tricks[keep, :most], \
        facts[keep]
    declaring = (facts[:, 3] == 1)[:, None]
    value = net_points(rules, facts[:, 2][:, None], tricks.astype(np.int64), declaring)
    n = facts[:, 0]
    value[np.arange(value.shape[1])[None, :] >= n[:, None]] = 0.0
    return Positions(view, cards, value, n, facts[:, 4])


def network_size(width: int) -> int:
    """The length of the network vector of ``width`` hidden units."""
    return 1 + (N_VIEW + N_CARD + 2) * width + N_CARD


def network_parts(vector: np.ndarray) -> tuple:
    """``(w_view, w_card, b1, lin, w2)`` of a network vector (the layout a parameter row
    holds at ``PR.PLAY``, the hidden width first; see ``kernels.play.analyzer_player.network``), as
    views."""
    # the kernel's network() reads the same layout; its views, handed back to Python, do not
    # type as the 2-d arrays the fitting kernel indexes (tried), so the layout is read here too
    width = int(vector[0])
    at = 1
    w_view = vector[at:at + N_VIEW * width].reshape(N_VIEW, width)
    at += N_VIEW * width
    w_card = vector[at:at + N_CARD * width].reshape(N_CARD, width)
    at += N_CARD * width
    b1 = vector[at:at + width]
    at += width
    lin = vector[at:at + N_CARD]
    at += N_CARD
    return w_view, w_card, b1, lin, vector[at:at + width]


def new_network(width: int, seed: int) -> np.ndarray:
    """A network vector of ``width`` hidden units with small random view and output weights
    (from ``seed``); the cards' rows and the linear part start at 0."""
    vector = np.zeros(network_size(width))
    vector[0] = width
    w_view, _, b1, _, w2 = network_parts(vector)
    normal_fill(w_view.reshape(-1), 0.05, seed, 0)
    # the card's rows start at 0: a row no position uses stays 0 (the file compresses)
    b1[:] = 0.01
    normal_fill(w2, 0.05, seed, 1)
    return vector


def fit_network(positions: Positions, width: int = WIDTH, epochs: int = EPOCHS,
                seed: int = CARD_SEED, start: np.ndarray | None = None,
                progress=None) -> np.ndarray:
    """A network fitted to ``positions`` by minibatch Adam (``kernels.play.card_fit``), from
    ``start`` (a network vector; a new one of ``width`` units when None); the positions'
    order each epoch from ``seed``. ``progress(epoch, loss)`` after each epoch."""
    vector = new_network(width, seed) if start is None else start.copy()
    params = network_parts(vector)
    grads = tuple(np.zeros_like(a) for a in params)
    moments = tuple(np.zeros(a.size) for a in params for _ in range(2))
    data = (positions.view, positions.cards, positions.value, positions.n)
    step = 0
    for epoch in range(epochs):
        lr = LEARNING_RATE * (0.5 ** (epoch // 3))
        loss, step = train(data, epoch_order(len(positions), seed, epoch), params, grads,
                           moments, lr, BATCH, step)
        if progress:
            progress(epoch + 1, loss)
    return vector


def fill_network(params_row: np.ndarray, vector: np.ndarray) -> None:
    """Write the card player's network (a vector of :func:`network_parts`' layout) into one
    seat's parameter row, with its fingerprint (``PR.PLAY_ID``: seats whose fingerprints
    agree play from one copy of it)."""
    params_row[PR.PLAY:PR.PLAY + len(vector)] = vector
    params_row[PR.PLAY_ID] = network_fingerprint(vector)


def network_fingerprint(vector: np.ndarray) -> float:
    """A network vector's fingerprint: the CRC-32 of its float64 bytes, plus one (never 0,
    which says "none"), as an exact float."""
    return float(zlib.crc32(np.ascontiguousarray(vector, dtype=np.float64).tobytes()) + 1)


def scores(positions: Positions, vector: np.ndarray) -> np.ndarray:
    """The network's score of each legal card of each position (-inf past them)."""
    return scores_of(positions.view, positions.cards, positions.n, network_parts(vector))


def agreement(positions: Positions, vector: np.ndarray) -> float:
    """The share of positions where the card with the best value is the one the network
    scores best (ties in value count as agreement)."""
    s = scores(positions, vector)
    chosen = np.argmax(s, axis=1)
    value = np.where(np.isfinite(s), positions.value, -np.inf)
    return float(np.mean(value[np.arange(len(chosen)), chosen] >= value.max(axis=1) - 1e-9))


def stages_of(rules: Rules) -> tuple[tuple, int]:
    """The stages of learning the card player of ``rules`` and the positions of a stage at
    share 1 (see :data:`STAGES`, :data:`ROLLOUT_STAGES`)."""
    if not solves_fast(rules):
        return ROLLOUT_STAGES, ROLLOUT_POSITIONS
    return STAGES, POSITIONS


def learned_on(rules: Rules) -> Rules:
    """The rules the card player of ``rules`` is learned on: the variant's defaults with the
    same deck (double or not). House rules that change the bidding or the points but not how
    a trick is played share the variant's player (a network a house-rule set would cost
    minutes to learn, and a file to ship)."""
    return make_rules(rules.variant, double_deck=rules.double_deck) if rules.double_deck \
        else make_rules(rules.variant)


def weights_path(rules: Rules, built_dir=None):
    """The cache file of the card player's network of ``rules`` (see :func:`learned_on`)."""
    base = learned_on(rules)
    deck = "-double" if base.double_deck else ""
    name = f"{base.variant}{deck}-cards{VERSION}-{stages_of(base)[1]}.npz"
    return (built_dir / name) if built_dir is not None else cache_dir() / name


# the rule sets whose card players ship with the package (``make strategies``); every other
# rule set plays with its variant's (and deck's) player (:func:`learned_on`)
SHIPPED_PLAYERS = (("knock", {}), ("bid", {}), ("ghost", {}), ("cutthroat", {}),
                   ("bid", {"double_deck": True}))


def _save(path, vector: np.ndarray) -> None:
    """Write a network to ``path`` (float32, compressed) whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    np.savez_compressed(tmp, network=vector.astype(np.float32))
    tmp.replace(path)


def ship_player(rules: Rules, players, progress=None):
    """Learn the card player of ``rules`` (:func:`learn_network` with ``players(rules)``) and
    write it where the package ships it; returns the path."""
    rules = learned_on(rules)
    path = weights_path(rules, BUILT_DIR)
    _save(path, learn_network(rules, players(rules), progress=progress))
    return path


def card_network(rules: Rules, players) -> np.ndarray:
    """The card player's network for ``rules``: cached, shipped, or learned now (minutes,
    said on stderr) and cached; ``players(rules)`` gives the seats' policy rows it learns
    from (see :func:`learn_network`)."""
    rules = learned_on(rules)
    path = weights_path(rules)
    vector = read_cached(path, weights_path(rules, BUILT_DIR), "network")
    if vector is not None:
        return vector.astype(np.float64)
    stages, positions = stages_of(rules)
    print(f"learning the analyzer's card play for {rules.variant} (first use; cached after): "
          f"{len(stages)} stages of up to {positions:,} positions, an hour or more",
          file=sys.stderr, flush=True)
    vector = learn_network(rules, players(rules), progress=lambda i, a: print(
        f"  stage {i} done ({100 * a:.1f}% of its positions' best cards)",
        file=sys.stderr, flush=True))
    _save(path, vector)
    return vector.astype(np.float32).astype(np.float64)  # as it is read back


def learn_network(rules: Rules, players: tuple, positions: int | None = None,
                  seed: int = CARD_SEED, progress=None) -> np.ndarray:
    """The card player's network for ``rules`` (see the module docstring), in the stages of
    :func:`stages_of` (``positions`` at a share of 1; None: its own): each plays that many
    hands by the last stage's player
    (``players``' policy rows first: the seats' bidding, the heuristic's play), labels each
    position's cards double dummy or by the player's own rollouts, and fits the network to them
    (with the last stage's positions where the stage says so) from the last one;
    ``progress(stage, agreement)`` after each."""
    stages, most = stages_of(rules)
    positions = most if positions is None else positions
    policies, params = (a.copy() for a in players)
    vector = None
    data = None
    for stage, (label, share, keep, epochs) in enumerate(stages):
        if vector is not None:  # the last stage's player at every seat
            policies[:, 1] = P_ANALYZER
            for seat in range(4):
                fill_network(params[seat], vector)
        fresh = label_positions(rules, policies, params, seed + stage, 0,
                                int(positions * share), solve=label == "dd")
        data = data + fresh if keep and data is not None else fresh
        vector = fit_network(data, epochs=epochs, start=vector, seed=seed + stage)
        if progress:
            progress(stage + 1, agreement(fresh, vector))
    return vector
