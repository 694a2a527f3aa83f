"""Card, hand and deal notation: round trips, alternative spellings, and clean errors."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.game.notation import (
    NotationError,
    check_hand_sizes,
    format_card,
    format_hand,
    parse_card,
    parse_deal,
    parse_hand,
)
from analyzer.game.variants import make_rules
from tests.cards import card_name, deck_ids

pytestmark = [pytest.mark.cli, pytest.mark.engine]

RULES = {
    "knock": make_rules("knock"),
    "joker": make_rules("knock", joker=True),
    "deck32": make_rules("knock", deck32=True),
    "double": make_rules("bid", double_deck=True),
    "ghost": make_rules("ghost"),
}
DECK_ARGS = {"knock": {}, "joker": {"joker": True}, "deck32": {"low": True},
             "double": {"double": True}, "ghost": {}}
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@st.composite
def hands(draw):
    name = draw(st.sampled_from(sorted(RULES)))
    ids = deck_ids(**DECK_ARGS[name])
    n = draw(st.integers(1, 12))
    chosen = draw(st.lists(st.sampled_from(range(len(ids))), min_size=n, max_size=n, unique=True))
    return name, [ids[i] for i in chosen]


def respell(name: str, rng: random.Random) -> str:
    if name == "JK":
        return rng.choice(["JK", "jk", "joker", "🃏"])
    rank, suit = name[0], name[1]
    rank = "10" if rank == "T" and rng.random() < 0.5 else rank
    suit = SYMBOLS[suit] if rng.random() < 0.3 else suit
    text = rank + suit
    return text.lower() if rng.random() < 0.5 else text


@given(hands(), st.randoms(use_true_random=False))
def test_hand_round_trip_and_spellings(case, rng):
    name, ids = case
    rules = RULES[name]
    mask = sum(1 << i for i in ids)
    text = format_hand(mask)
    assert parse_hand(text, rules) == mask or name == "double"
    # every card prints as the reference spells it
    assert sorted(text.split()) == sorted(card_name(i) for i in ids)
    spelled = [respell(card_name(i), rng) for i in ids]
    sep = rng.choice([" ", ",", ", ", "  "])
    again = parse_hand(sep.join(spelled), rules)
    assert format_hand(again) == text


@given(st.text(max_size=6))
def test_any_token_parses_or_fails_cleanly(token):
    try:
        cid = parse_card(token, RULES["joker"])
    except NotationError as e:
        assert "\n" not in str(e)
    else:
        assert format_card(cid) in {card_name(i) for i in deck_ids(joker=True)}


@given(st.text(max_size=60))
def test_any_deal_text_parses_or_fails_cleanly(text):
    try:
        parse_deal(text, RULES["knock"])
    except NotationError as e:
        assert "\n" not in str(e) and str(e)


@pytest.mark.parametrize("token, words", [
    ("XH", "not a card"), ("J", "not a card"), ("11H", "not a card"), ("JX", "not a card"),
    ("7H", "not in the 24-card deck of knock (add --deck32)"),
    ("JK", "not in the 24-card deck of knock (add --joker)"), ("", "not a card"),
])
def test_bad_cards(token, words):
    with pytest.raises(NotationError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_card(token, RULES["knock"])


def test_seven_not_in_bid_deck_gives_no_false_hint():
    with pytest.raises(NotationError) as e:
        parse_card("7H", make_rules("bid"))
    assert "deck32" not in str(e.value)


def test_deal_in_any_seat_order_with_extras():
    d = parse_deal("S: 9C TC JC QC KC; n: ah kh qh jh 10h\nup: 9H / E: AS KS QS JS TS / "
                   "W: AD KD QD JD TD", RULES["knock"])
    assert sorted(d.hands) == [0, 1, 2, 3]
    assert format_card(d.upcard) == "9H"
    check_hand_sizes(d, {0: 5, 1: 5, 2: 5, 3: 5}, "knock hands")


@pytest.mark.parametrize("text, words", [
    ("N: JH JD / E: JH", "'JH' appears more than once"),
    ("N: JH / N: JD", "seat N is given twice"),
    ("N JH JD", "has no label"),
    ("X: JH", "not a part of a deal"),
    ("", "empty"),
    ("up: 9H 9D", "one card"),
    ("ghost: 9H", "knock has no ghost hand"),
])
def test_bad_deals(text, words):
    with pytest.raises(NotationError, match=words):
        parse_deal(text, RULES["knock"])


def test_double_deck_allows_two_copies_not_three():
    rules = RULES["double"]
    assert bin(parse_hand("JH JH", rules)).count("1") == 2
    with pytest.raises(NotationError, match="more than twice"):
        parse_hand("JH JH JH", rules)


def test_wrong_hand_size():
    d = parse_deal("N: JH JD AH KH / E: 9D TD QD KD AD / S: 9C TC JC QC KC / W: 9S TS JS QS KS",
                   RULES["knock"])
    with pytest.raises(NotationError, match="N holds 4 cards; knock hands have 5"):
        check_hand_sizes(d, {s: 5 for s in range(4)}, "knock hands")


@pytest.mark.parametrize("name, text, used_up", [
    ("knock", "AS KS AS", "'AS' appears more than once"),
    ("double", "AS AS KS AS", "'AS' appears more than twice")])
def test_a_card_used_up_is_a_typed_error(name, text, used_up):
    """A card written once more than the deck has copies of it is a ``CardUsedUp`` (a
    ``NotationError``), so a caller tells it from a card that is not one by its type, not by
    its words (decision_point.parse_played matched the text, and missed the double deck's)."""
    from analyzer.game.notation import CardReader, CardUsedUp

    with pytest.raises(CardUsedUp, match=used_up) as raised:
        CardReader(RULES[name]).cards(text)
    assert isinstance(raised.value, NotationError)
    with pytest.raises(NotationError) as other:
        CardReader(RULES[name]).cards("AS ZZ")
    assert not isinstance(other.value, CardUsedUp)


@pytest.mark.parametrize("name, hand, played", [
    ("knock", "AS KS QS", "N 9C, E 9D, S AS"),
    ("double", "AS AS KS QS JS TS 9S AH KH QH JH", "N 9C, E 9D, S AS"),
])
def test_a_card_played_again_is_named_as_played_before(name, hand, played):
    """A card of ``--played`` that the player holds, or that was played before, is told as
    such ("is in your hand or played before"), in the double deck too (its third copy)."""
    from analyzer.errors import UserError
    from analyzer.game.decision_point import parse_played
    from analyzer.game.notation import CardReader

    reader = CardReader(RULES[name])
    reader.cards(hand)
    with pytest.raises(UserError, match=r"--played: trick 1: AS is in your hand or played "
                                        r"before: a card is played once"):
        parse_played(played, RULES[name], reader)
