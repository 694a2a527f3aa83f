"""Bit primitives, per-trump tables, legal moves and trick winners against the reference."""

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.game.variants import make_rules
from kernels.cards.bits import highest_bit, lowest_bit, popcount
from kernels.cards.layout import build_normalisation, deck_natural_ids, natural_suit_tables
from kernels.cards.rules import legal_mask_natural, trick_winner_natural
from tests import reference as ref
from tests.cards import DECKS, card_name, deck_ids

pytestmark = [pytest.mark.solver, pytest.mark.engine]

u64 = st.integers(min_value=0, max_value=2**64 - 1)


@given(u64)
def test_bit_primitives(x):
    assert popcount(np.uint64(x)) == bin(x).count("1")
    if x:
        assert lowest_bit(np.uint64(x)) == (x & -x).bit_length() - 1
        assert highest_bit(np.uint64(x)) == x.bit_length() - 1
    else:
        assert highest_bit(np.uint64(0)) == -1


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_deck_ids(deck):
    assert sorted(deck_natural_ids(deck).tolist()) == sorted(deck_ids(*DECKS[deck]))


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_suit_tables_match_reference(deck):
    eff, power, masks = natural_suit_tables(deck)
    ids = deck_ids(*DECKS[deck])
    for t, trump in enumerate("CDHS"):
        for a in ids:
            assert "CDHS"[eff[t, a]] == ref.effective_suit(card_name(a), trump)
            assert (masks[t, eff[t, a]] >> np.uint64(a)) & np.uint64(1)
            for b in ids:
                if eff[t, a] != eff[t, b]:
                    continue
                s = "CDHS"[eff[t, a]]
                ra = ref.strength(card_name(a), s, trump)
                rb = ref.strength(card_name(b), s, trump)
                assert (power[t, a] > power[t, b]) == (ra > rb)
                assert (power[t, a] == power[t, b]) == (ra == rb)


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_normalisation_is_a_bijection(deck):
    to_norm, from_norm = build_normalisation(deck)
    ids = deck_ids(*DECKS[deck])
    for t in range(4):
        bits = [to_norm[t, c] for c in ids]
        assert len(set(bits)) == len(ids)
        assert all(from_norm[t, b] == c for b, c in zip(bits, ids, strict=True))


def _random_case(rng, deck, n_cards):
    ids = deck_ids(*DECKS[deck])
    rng.shuffle(ids)
    return ids[:n_cards]


RULES_OF_DECK = {0: ("knock", {}), 1: ("knock", {"deck32": True}), 2: ("knock", {"joker": True}),
                 3: ("knock", {"joker": True, "deck32": True}), 4: ("bid", {"double_deck": True})}


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_legal_moves_match_reference(deck):
    variant, options = RULES_OF_DECK[deck]
    rules = make_rules(variant, **options)
    assert rules.deck == deck
    rng = random.Random(deck)
    for _ in range(3000):
        cards = _random_case(rng, deck, 13)
        hand, led = cards[:12 if DECKS[deck][2] else 6], cards[-1]
        t = rng.randrange(4)
        mask = sum(1 << c for c in hand)
        lead = rng.random() < 0.1
        got = int(legal_mask_natural(np.uint64(mask), -1 if lead else led, t, rules.arrays))
        want = ref.legal_cards([card_name(c) for c in hand], None if lead else card_name(led),
                               "CDHS"[t])
        assert sorted(card_name(c) for c in hand if (got >> c) & 1) == sorted(want)


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_trick_winner_matches_reference(deck):
    to_norm, _ = build_normalisation(deck)
    double = 1 if DECKS[deck][2] else 0
    rng = random.Random(100 + deck)
    ids = deck_ids(*DECKS[deck])
    for _ in range(5000):
        n = rng.choice((2, 3, 4))
        if double and rng.random() < 0.5:  # force identical cards into the trick
            c = rng.choice(ids[:24])
            cards = [c, c + 32] + rng.sample([i for i in ids if i % 32 != c], n - 2)
            rng.shuffle(cards)
        else:
            cards = rng.sample(ids, n)
        t = rng.randrange(4)
        got = trick_winner_natural(np.array(cards, dtype=np.int64), n, t, to_norm, double)
        assert got == ref.trick_winner([card_name(c) for c in cards], "CDHS"[t])
