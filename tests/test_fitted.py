"""The analyzer's fitted model of the upcard auction (``kernels.bidding.upcard_model``,
``analyzer.strategy.fitted``): the hand's features against a count by card text, the kernel's
reading of the weights against the fit's layout, and the model in the ``analyzer`` strategy's
play (``table``: the analyzer without it)."""

import random

import numpy as np
import pytest

from analyzer.game.notation import CARD_TEXT, parse_hand
from analyzer.game.variants import make_rules
from analyzer.questions.simulate.whole_games import simulate
from analyzer.strategy.fitted import design, fill_model
from analyzer.strategy.seats import seat_policies
from kernels.bidding.bidding import DEFAULT_PARAMS
from kernels.bidding.upcard_model import hand_features_batch, model_value, round1_features_batch
from kernels.cards.codes import ORDER, PASS
from kernels.cards.layout import deck_mask
from kernels.deal.rng import stream_state
from kernels.hand.policies import D_ANALYZER, choose_upcard_call
from kernels.slots import FM, PR

pytestmark = pytest.mark.strategy

KNOCK = make_rules("knock")
SUITS = "CDHS"
PARTNER_SUIT = {"C": "S", "S": "C", "D": "H", "H": "D"}
TRUMP_ORDER = "AKQT987"  # below the bowers
SIDE_ORDER = "AKQJT987"


def plain_features(cards: list[str], trump: str) -> list[float]:
    """The features counted from the card texts: classes right, left, trump A..7, joker, side
    A..7; voids (with two trumps or more); right, left, ace times the trump count; both
    bowers; side losers, ruffs, bare kings, side aces times the trump count, side cards
    beyond a suit's second."""
    f = [0.0] * FM.FEATURES
    trumps = 0
    suits_held = set()
    for card in cards:
        if card == "JK":
            f[9] += 1
            trumps += 1
            continue
        rank, suit = card[0], card[1]
        if rank == "J" and suit == trump:
            f[0] += 1
            trumps += 1
        elif rank == "J" and suit == PARTNER_SUIT[trump]:
            f[1] += 1
            trumps += 1
        elif suit == trump:
            f[2 + TRUMP_ORDER.index(rank)] += 1
            trumps += 1
        else:
            f[10 + SIDE_ORDER.index(rank)] += 1
            suits_held.add(suit)
    if trumps >= 2:
        f[18] = sum(1 for s in SUITS if s != trump and s not in suits_held)
    for k in range(3):
        f[19 + k] = f[k] * trumps
    f[22] = f[0] * f[1]
    f[24] = f[18] * max(trumps - 1, 0)  # ruffs: voids times the trumps beyond one
    for suit in SUITS:
        ranks = [c[0] for c in cards if c != "JK" and c[1] == suit and suit != trump
                 and not (c[0] == "J" and suit == PARTNER_SUIT[trump])]
        if not ranks:
            continue
        ace, king = "A" in ranks, "K" in ranks
        # the first two cards of a suit: the ace covers one, a king with a guard another
        f[23] += max(min(len(ranks), 2) - ace - (king and len(ranks) >= 2), 0)
        f[25] += king and len(ranks) == 1  # a bare king
        f[26] += ace * trumps
        f[27] += max(len(ranks) - 2, 0)  # cards beyond the second
    return f


@pytest.mark.parametrize("options", [{}, {"joker": True}, {"deck32": True}])
def test_features_match_a_count_by_card_text(options):
    rules = make_rules("knock", **options)
    deck = [c for c in range(64) if (int(deck_mask(rules.deck)) >> c) & 1]
    rng = random.Random(5)
    hands, trumps, expected = [], [], []
    for _ in range(300):
        cards = rng.sample(deck, rules.hand_size)
        trump = rng.randrange(4)
        hands.append(sum(1 << c for c in cards))
        trumps.append(trump)
        expected.append(plain_features([CARD_TEXT[c] for c in cards], SUITS[trump]))
    got = hand_features_batch(np.array(hands, dtype=np.uint64), np.array(trumps))
    assert got.tolist() == expected


def test_round_1_features_count_the_upcard_in_the_dealers_hand_only():
    """The dealer (place 0) is read with the upcard it would take; the other places, and the
    dealer without an upcard, as they hold their five cards."""
    deck = [c for c in range(64) if (int(deck_mask(KNOCK.deck)) >> c) & 1]
    rng = random.Random(7)
    hands, trumps, places, upcards, expected = [], [], [], [], []
    for _ in range(400):
        cards = rng.sample(deck, 6)
        own, up = cards[:5], cards[5]
        place = rng.randrange(4)
        trump = CARD_TEXT[up][1]
        seen = own + [up] if place == 0 else own
        hands.append(sum(1 << c for c in own))
        trumps.append(SUITS.index(trump))
        places.append(place)
        upcards.append(up)
        expected.append(plain_features([CARD_TEXT[c] for c in seen], trump))
    got = round1_features_batch(np.array(hands, dtype=np.uint64), np.array(trumps),
                                np.array(places), np.array(upcards))
    assert got.tolist() == expected


def test_the_kernel_reads_the_weights_where_the_fit_writes_them():
    rng = np.random.default_rng(1)
    weights = rng.normal(size=(FM.MODELS, FM.LEN))
    params = np.tile(DEFAULT_PARAMS, (4, 1))
    fill_model(params[2], weights)
    for _ in range(200):
        model = int(rng.integers(FM.MODELS))
        place = int(rng.integers(4))
        ctx = int(rng.integers(FM.CONTEXTS))
        f, g = rng.normal(size=FM.FEATURES), rng.normal(size=FM.FEATURES)
        row = design(f[None], g[None], np.array([ctx]), np.array([place]))[0]
        assert model_value(params, 2, model, ctx, place, f, g) == pytest.approx(
            row @ weights[model], rel=1e-12, abs=1e-12)


def _call(params, hand: str, upcard: str, place: int) -> int:
    dealer = (0 - place) % 4
    allowed = np.uint64((1 << ORDER) | (1 << PASS))
    return int(choose_upcard_call(D_ANALYZER, params, stream_state(1, 0, 0), 0, allowed,
                                  np.uint64(parse_hand(hand, KNOCK)), 4,
                                  parse_hand(upcard, KNOCK).bit_length() - 1, dealer))


def test_the_fitted_seat_orders_a_strong_hand_and_passes_trash():
    policies, params = seat_policies("analyzer", "heuristic", rules=KNOCK)
    assert (params[:, PR.FITTED] == 1).all() and (policies[:, 0] == D_ANALYZER).all()
    assert _call(params, "JH JD AH KH QH", "9H", 1) == ORDER
    assert _call(params, "9C TC 9D TS 9S", "AH", 1) == PASS


def test_the_analyzer_is_its_table_on_a_ladder_and_without_partners():
    """No fitted model in bid or cutthroat: the analyzer score-blind (in a game the analyzer
    itself plays to the score) bids as its table."""
    bid = make_rules("bid")
    a = simulate(bid, 40, "analyzer-points", "points", seed=3)
    b = simulate(bid, 40, "table", "points", seed=3)
    same = {"seconds": 0, "strategy": ""}
    assert a.to_dict() | same == b.to_dict() | same
    for rules in (bid, make_rules("cutthroat")):
        _, params = seat_policies("analyzer", "heuristic", rules=rules)
        assert (params[:, PR.FITTED] == 0).all()


def test_the_fitted_model_changes_knock_calls():
    a = simulate(KNOCK, 200, "analyzer", "points", seed=3)
    b = simulate(KNOCK, 200, "table", "points", seed=3)
    _, params = seat_policies("table", "heuristic", rules=KNOCK)
    assert (params[:, PR.FITTED] == 0).all()
    assert a.points_per_hand != b.points_per_hand
