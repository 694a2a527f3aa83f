"""Decisions in the play (issue 42): a card question's values against a pure-Python reference
that enumerates every layout of a late position and plays it out double dummy (tests/reference,
sharing no code with the kernels); the worlds dealt keep every void shown and the upcard where
it is; card-play principles where they hold. (Wrong input in the play: tests/test_hostile.py and
the API's in tests/test_serve.py.)"""

import itertools
import random

import pytest

from analyzer.compute.query import run_query
from analyzer.errors import UserError
from analyzer.game.variants import make_rules
from analyzer.questions.odds.answer import decision_point, odds
from analyzer.questions.odds.decide import prepare
from analyzer.strategy.seats import others_policies
from tests import reference as ref
from tests.cards import card_id, card_name, deck_ids

pytestmark = pytest.mark.odds

KNOCK_NET = {5: 2, 4: 1, 3: 1, 2: -2, 1: -2, 0: -2}  # the makers' points (no one alone)


def _deal(seed: int):
    """A knock deal: four hands of five and a kitty whose top card is the upcard."""
    cards = [card_name(c) for c in deck_ids()]
    random.Random(seed).shuffle(cards)
    hands = {s: cards[5 * i:5 * i + 5] for i, s in enumerate(ref.SEATS)}
    return hands, cards[20:]


def _play_tricks(hands: dict, trump: str, leader: str, n: int, rng: random.Random):
    """Play ``n`` tricks by random legal cards (tests/reference's rules): the plays as
    ``[(seat, card)]`` per trick, the hands left and the next leader."""
    hands = {s: list(h) for s, h in hands.items()}
    tricks = []
    for _ in range(n):
        trick, seat = [], leader
        for _ in range(4):
            led = trick[0][1] if trick else None
            card = rng.choice(ref.legal_cards(hands[seat], led, trump))
            hands[seat].remove(card)
            trick.append((seat, card))
            seat = ref.left_of(seat, ref.SEATS)
        leader = trick[ref.trick_winner([c for _, c in trick], trump)][0]
        tricks.append(trick)
    return tricks, hands, leader


def _voids(tricks, trump: str) -> dict:
    out = {s: set() for s in ref.SEATS}
    for trick in tricks:
        led = ref.effective_suit(trick[0][1], trump)
        for seat, card in trick[1:]:
            if ref.effective_suit(card, trump) != led:
                out[seat].add(led)
    return out


def _reference_values(hands_left, kitty_unseen, asker, trump, leader, won, voids):
    """Every layout of the cards the asker cannot see (the others' hands left and the kitty
    but the upcard), each played double dummy for each legal card of the asker: the mean
    net points of the asker's side per card, over the layouts that keep every void."""
    others = [s for s in ref.SEATS if s != asker]
    unseen = sorted(c for s in others for c in hands_left[s]) + sorted(kitty_unseen)
    sizes = [len(hands_left[s]) for s in others]
    declarers = {"E", "W"}
    totals, count = {}, 0
    for perm in _splits(unseen, sizes):
        layout = dict(zip(others, perm, strict=False))
        if any(ref.effective_suit(c, trump) in voids[s] for s in others for c in layout[s]):
            continue
        count += 1
        hands = {asker: hands_left[asker], **{s: list(layout[s]) for s in others}}
        values = ref.dd_card_values(hands, trump, leader, ref.SEATS, declarers)
        for card, tricks in values.items():
            net = KNOCK_NET[won + tricks]
            totals[card] = totals.get(card, 0.0) + (net if asker in declarers else -net)
    return {c: v / count for c, v in totals.items()}, count


def _splits(cards, sizes):
    """Every way to deal ``cards`` into groups of ``sizes`` (the rest a last group)."""
    if not sizes:
        yield ()
        return
    for first in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in first]
        for tail in _splits(rest, sizes[1:]):
            yield (first, *tail)


@pytest.mark.parametrize("seed", [3, 11])
def test_card_values_agree_with_every_layout_played_double_dummy(seed):
    """Knock, E named hearts in round 2 (nobody took the upcard), three tricks played: every
    legal card of S is worth, in the analyzer's exact mode (few layouts), the mean over every
    layout the pure-Python reference finds consistent with the voids shown, played out by
    brute-force double dummy."""
    hands, kitty = _deal(seed)
    trump, up = "H", kitty[0]
    rng = random.Random(seed)
    tricks, left, leader = _play_tricks(hands, trump, "E", 3, rng)
    won = sum(1 for t in tricks if t[ref.trick_winner([c for _, c in t], trump)][0] in "EW")
    played = "; ".join(", ".join(f"{s} {c}" for s, c in t) for t in tricks)
    if leader != "S":  # the asker is the seat to lead now
        asker = leader
    else:
        asker = "S"
    heard = "E pass, S pass, W pass, N pass, E name H"
    if up[1] == "H":
        pytest.skip("hearts was turned down")
    r = odds(" ".join(left[asker]), "knock", upcard=up, seat=asker, dealer="N",
             auction=heard, played=played, infer=False, others="points", deals=10_000,
             method="dd")
    assert r.exact and r.decision == "card"
    want, layouts = _reference_values(left, kitty[1:], asker, trump, leader, won,
                                      _voids(tricks, trump))
    got = {row.option.split()[1]: row.ev for row in r.options.itertuples()}
    assert r.deals == layouts and set(got) == set(want)
    for card in want:
        assert got[card] == pytest.approx(want[card], abs=1e-9), (card, got, want)


def test_the_worlds_keep_every_void_and_the_upcard_with_the_dealer():
    """10,000 worlds of a point two tricks into a hand where N ordered up and the dealer W
    took the upcard: in none does a seat hold a card of a suit it showed out of but those it
    played, and the upcard is never dealt into a hand (the dealer took it from the kitty)."""
    from tests.rollout_reference import discard_card

    rules = make_rules("knock")
    for seed in range(40):
        hands, kitty = _deal(seed)
        up, trump = kitty[0], kitty[0][1]
        hands["W"] = hands["W"] + [up]
        hands["W"].remove(discard_card(hands["W"], trump))
        tricks, left, leader = _play_tricks(hands, trump, "N", 2, random.Random(seed))
        voids = _voids(tricks, trump)
        if any(voids[s] for s in "NEW" if s != leader) and leader != "W":
            break
    played = "; ".join(", ".join(f"{s} {c}" for s, c in t) for t in tricks)
    point = decision_point(rules, " ".join(left[leader]), leader, "W", up, "N order",
                           {"played": played})
    d = prepare(point, True, infer=False)
    d.query.policies, d.query.params = others_policies("points", "dd", rules)
    chunk = run_query(d.query, 5, 0, 10_000)
    dealt = chunk.dealt[chunk.ok]
    assert len(dealt) > 5_000
    shown = [c for t in tricks for c in t]
    checked = 0
    for i, seat in enumerate(ref.SEATS):
        if seat == leader:
            continue
        own = {c for s, c in shown if s == seat}
        bad = sum(1 << card_id(c) for c in (card_name(x) for x in deck_ids())
                  if ref.effective_suit(c, trump) in voids[seat] and c not in own)
        checked += bool(bad)
        assert not any(int(w[i]) & bad for w in dealt), seat
        assert not any(int(w[i]) >> card_id(up) & 1 for w in dealt), "the upcard was dealt"
    assert checked >= 1  # some seat showed out of a suit


PRINCIPLES = [
    # a maker holding both bowers and a third trump leads trump (S ordered E up, S leads; the
    # three top trumps are a sequence, equal), not a side card
    ("JH JD AH 9C KS", dict(upcard="9H", seat="S", dealer="E", auction="S order"),
     {"play JH", "play JD", "play AH"}, {"play 9C", "play KS"}),
    # third hand high on partner's low lead when the trick is contested (KC is out): AC, not QC
    ("AC QC 9D KS TH", dict(upcard="9H", seat="S", dealer="W", auction="N order",
                            played="N 9C, E TC"), {"play AC"}, {"play QC"}),
    # a defender does not lead a lone trump into the maker (W ordered E up; S leads)
    ("9H AC KC AS QD", dict(upcard="TH", seat="S", dealer="E", auction="S pass, W order"),
     {"play AS", "play AC", "play KC"}, {"play 9H"}),
]


@pytest.mark.parametrize("hand, question, best, worse", PRINCIPLES)
def test_card_play_principles_hold(hand, question, best, worse):
    """Each principle's card is best (ties within the sequence allowed) and each card it
    warns against is worse by a margin whose whole 95% interval is below zero."""
    r = odds(hand, "knock", deals=4000, others="points", **question)
    assert r.best["label"] in best, r.options[["label", "ev"]]
    rows = r.options.set_index("label")
    for label in worse:
        assert rows.loc[label, "vs_best_high"] < 0, rows[["vs_best", "vs_best_high"]]


def test_the_dealers_unseen_discard_is_never_a_card_it_plays_later():
    """E picked up 9H and, two tricks in, has played TC and 9D: its strategy would throw one
    of them on most deals (the lowest), so no deal fitted ("no deal fits", found by a bot in
    a real game); an unseen discard is now its strategy's among the cards it has not played."""
    r = odds("TS JH QC", "knock", upcard="9H", seat="W", dealer="E",
             auction="S pass, W order", played="S AC, W 9C, N 9S, E TC; S AD, W TH, N QD, E 9D",
             deals=300, others="points", play_check=False)
    assert r.decision == "card" and r.deals == 300 and r.acceptance > 0.2


def test_play_inference_keeps_only_worlds_where_the_others_play_as_heuristic():
    """With --infer-play and no tremble, in every world dealt for S's lead after the first
    trick, N's lead (9C) and E's follow (TC) are the heuristic player's cards from the hands
    that world deals them (rebuilt here trick state by trick state); without it some world
    has N lead another card, so the check has something to find."""
    import numpy as np

    from kernels.cards.layout import normalise_mask
    from kernels.cards.rules import legal_mask
    from kernels.play.play_heuristic import heuristic_card

    rules = make_rules("knock")
    to_norm, _ = rules.layout
    trump = 3  # spades: S ordered up QS
    deck = int(rules.arrays.decks[trump])
    point = decision_point(rules, "AS KS 9H TD", "S", "W", "QS", "N pass, E pass, S order",
                           {"played": "N 9C, E TC, S JC, W AC"})

    def norm(card: str) -> int:
        return int(to_norm[trump, card_id(card)])

    def heuristic_agrees(world) -> list[bool]:
        hands = [int(normalise_mask(np.uint64(int(h)), to_norm[trump])) for h in world]
        n_lead = heuristic_card(np.uint64(hands[0]), np.uint64(hands[0]), np.uint64(deck), 0,
                                False, -1, -1, False, True, False)
        led = norm("9C") >> 4
        legal = int(legal_mask(np.uint64(hands[1]), led))
        e_follow = heuristic_card(np.uint64(hands[1]), np.uint64(legal),
                                  np.uint64(deck & ~(1 << norm("9C"))), 1, False, led,
                                  norm("9C"), False, False, False)
        return [n_lead == norm("9C"), legal & (legal - 1) == 0 or e_follow == norm("TC")]

    seen = {}
    for infer_play in (True, False):
        d = prepare(point, True, infer=True, tremble=0.0, infer_play=infer_play)
        d.query.policies, d.query.params = others_policies("points", "dd", rules)
        chunk = run_query(d.query, 3, 0, 1_000)
        worlds = chunk.dealt[chunk.ok]
        assert len(worlds) > 100
        seen[infer_play] = [heuristic_agrees(w) for w in worlds]
    assert all(all(a) for a in seen[True])
    assert not all(a[0] for a in seen[False])


@pytest.mark.parametrize("question", [
    # issue 51: the dealer who picked up, its discard not given, one card played
    dict(hand="TC AS 9S KH", auction="E pass, S pass, W pass, N pick up",
         played="E AD, S TD, W QD, N KD"),
    # the same before its first card, and after two tricks
    dict(hand="TC AS 9S KH KD", auction="E pass, S pass, W pass, N pick up",
         played="E AD, S TD, W QD"),
    dict(hand="TC AS 9S", auction="E pass, S pass, W pass, N pick up",
         played="E AD, S TD, W QD, N KD; E 9C, S JC, W QC, N KH"),
], ids=["after-its-card", "before-its-card", "two-tricks"])
def test_a_dealers_card_question_without_its_discard_names_the_discard(question):
    """A dealer who took the upcard asked about a card without its discard is told what is
    missing (its discard, --discarded), whatever the cards it holds and played, never that
    its cards are too few for a hand."""
    with pytest.raises(UserError) as e:
        odds(question.pop("hand"), "knock", upcard="TC", seat="N", dealer="N", deals=20,
             others="points", play_check=False, **question)
    assert "give your discard (--discarded)" in str(e.value), str(e.value)
