"""``euchre bench odds``'s random double-deck hands (issue 55): drawn by a fixed seed, never
chosen, and timed as the page watches a question (its time-left estimate's error)."""

from collections import Counter

import pytest

from analyzer.bench import random_double_deck_hands, timed_question
from analyzer.game.notation import parse_hand
from analyzer.game.variants import make_rules
from tests.test_cli import cli


def test_the_random_hands_are_twelve_double_deck_cards_drawn_by_the_seed():
    hands = random_double_deck_hands(20)
    assert hands == random_double_deck_hands(20)  # the same hands each run
    assert hands != random_double_deck_hands(20, seed=56)
    assert len(set(hands)) == 20
    rules = make_rules("bid", double_deck=True)
    for hand in hands:
        cards = hand.split()
        assert len(cards) == 12 and max(Counter(cards).values()) <= 2
        parse_hand(hand, rules)  # a hand the question reads


def test_a_timed_question_says_its_seconds_deals_and_estimate_errors():
    figures = timed_question({"hand": "JH AH KH QD 9S TC", "variant": "bid", "deals": 3000,
                              "seed": 1})
    assert figures["deals"] == 3000 and figures["seconds"] > 0
    assert figures["clear"] is False  # a run of a size asked does not stop once clear
    assert isinstance(figures["separated"], bool)
    assert figures["estimate"] is None or figures["estimate"] > 0


@pytest.mark.parametrize("hands", ["0", "201", "many"])
def test_bench_odds_refuses_a_bad_hand_count_in_one_line(capsys, hands):
    code, out, err = cli(capsys, "bench", "odds", "--hands", hands)
    assert code == 2 and out == "" and err.strip().splitlines()[-1].startswith("error: "), err


def test_a_ratio_figure_keeps_its_decimals():
    """The estimate's error and solve_deal's ratio are ratios near 1: '1×' said nothing."""
    from analyzer.cli.bench import _fmt

    assert _fmt(1.4321, "×") == "1.43×" and _fmt(12.34, "s") == "12.3 s"
