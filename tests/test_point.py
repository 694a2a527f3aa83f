"""Every auction a person can legally make is answerable (issues 23 and 24): random legal
auctions, each call drawn among the calls the engine allows at that turn (the calls the page
and the CLI offer), for 13 rule configurations; at a random turn the seat to call asks
``odds``, which must answer — never "no deal fits the calls heard" — and offers exactly the
calls the engine allows there."""

import random

import pytest

from analyzer.compute.effort import Effort
from analyzer.compute.point import auction_turn, state_of, turn_of
from analyzer.game.decision_point import DecisionPoint
from analyzer.game.heard import Heard, may_go_alone
from analyzer.game.notation import card_ids
from analyzer.game.variants import make_rules
from analyzer.questions.odds.answer import odds_at
from analyzer.questions.odds.options import point_options
from analyzer.questions.odds.play_model import PlayModel
from analyzer.strategy.best_response import SHIPPED
from kernels.cards import layout as L

pytestmark = [pytest.mark.engine, pytest.mark.odds]

# the shipped strategies' rules (the analyzer strategy, as shipped), and four more (the
# point count: no strategy to build in a test)
CONFIGS = [(variant, opts, "analyzer") for variant, opts in SHIPPED] + [
    ("bid", {"joker": True}, "points"),
    ("bid", {"double_deck": True}, "points"),
    ("cutthroat", {"deck32": True, "stick_the_dealer": True, "name_turned_down": True},
     "points"),
    ("knock", {"name_turned_down": True, "stick_the_dealer": False}, "points"),
]


def _random_point(rules, rng):
    """A random legal auction, stopped at a random turn: the decision point of the seat to
    call there (its cards and the upcard drawn at random), or None if the bidding ended."""
    deck = card_ids(int(L.deck_mask(rules.deck)))
    rng.shuffle(deck)
    upcard = deck.pop() if rules.has_upcard else -1
    dealer = rng.randrange(rules.players)
    heard = Heard()
    while True:
        turn = auction_turn(DecisionPoint(rules, dealer, 0, 0, upcard, heard))
        if turn is None:
            return None
        state = state_of(DecisionPoint(rules, dealer, turn, 0, upcard, heard))
        if state.kind != "call":
            return None
        if rng.random() < 0.3:
            hand = 0
            for c in deck[:rules.hand_size]:
                hand |= 1 << c
            return DecisionPoint(rules, dealer, turn, hand, upcard, heard), state.codes()
        call = rng.choice(state.codes())
        heard = heard.then(turn, call, may_go_alone(rules, call) and rng.random() < 0.2)


@pytest.mark.parametrize("variant,opts,others", CONFIGS,
                         ids=[f"{v}-{'-'.join(o) or 'default'}" for v, o, _ in CONFIGS])
def test_random_legal_auctions_are_answered(variant, opts, others, monkeypatch):
    for name in ("EUCHRE_STRATEGY_DEALS", "EUCHRE_STRATEGY_ROUNDS"):
        monkeypatch.delenv(name, raising=False)  # the shipped strategy, not a test build
    rules = make_rules(variant, **opts)
    rng = random.Random(f"auctions-{variant}-{sorted(opts)}")
    asked = 0
    while asked < 3:
        found = _random_point(rules, rng)
        if found is None:
            continue
        point, legal = found
        offered = {o.call for o in point_options(point, state_of(point))}
        assert offered == set(legal), point.heard
        r = odds_at(point, PlayModel(others, "heuristic"), Effort(60, seed=asked))
        assert r.deals == 60, (point.heard, r.notes)
        asked += 1


@pytest.mark.parametrize("variant,opts", [("bid", {}), ("ghost", {}), ("knock", {}),
                                          ("knock", {"joker": True}), ("cutthroat", {})])
def test_the_next_call_is_read_from_one_run_whoever_makes_it(variant, opts):
    """Issue 52: the page's server opened a point up to three times a request (whose turn it
    is, that seat's calls, then the play). One run, asked as any seat, says whose call comes
    next and the calls it may make: what that seat's own point says."""
    rules = make_rules(variant, **opts)
    rng = random.Random(f"turns-{variant}-{sorted(opts)}")
    compared = 0
    for _ in range(30):
        deck = card_ids(int(L.deck_mask(rules.deck)))
        rng.shuffle(deck)
        upcard = deck.pop() if rules.has_upcard else -1
        dealer, heard = rng.randrange(rules.players), Heard()
        while True:
            asker = rng.randrange(rules.players)
            turn = turn_of(DecisionPoint(rules, dealer, asker, 0, upcard, heard))
            if turn.seat is None or turn.state.kind != "call":
                break
            own = state_of(DecisionPoint(rules, dealer, turn.seat, 0, upcard, heard))
            assert (turn.state.kind, turn.state.allowed) == (own.kind, own.allowed), heard
            compared += turn.seat != asker
            call = rng.choice(own.codes())
            heard = heard.then(turn.seat, call, may_go_alone(rules, call) and rng.random() < 0.2)
    assert compared > 30
