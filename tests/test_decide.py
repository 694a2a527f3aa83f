"""Decision points against the references: the legal calls at every point of random auctions
(the referee's rules, ``tests.reference.legal_calls``), and every option's outcome against a
pure-Python rollout (``tests.rollout_reference``) on deals the kernels accept by inference."""

import random

import numpy as np
import pytest

from analyzer.compute.point import state_of
from analyzer.compute.query import run_query
from analyzer.game.decision_point import DecisionPoint
from analyzer.game.heard import parse_heard
from analyzer.game.notation import SEATS
from analyzer.game.outcomes import outcome_arrays
from analyzer.game.records import call_text
from analyzer.game.variants import make_rules
from analyzer.questions.odds.decide import prepare
from analyzer.strategy.seats import others_policies
from kernels.cards import codes as K
from kernels.slots import OPT, X
from tests.cards import card_id, card_name, hand_mask
from tests.reference import deck, legal_calls, players_of
from tests.rollout_reference import Inconsistent, Option, rollout

pytestmark = pytest.mark.odds

OPTION_SETS = {
    "bid": [{}, {"stick_the_dealer": True}, {"double_deck": True}],
    "ghost": [{}],
    "knock": [{}, {"stick_the_dealer": False}, {"name_turned_down": True}, {"joker": True},
              {"deck32": True}],
    "cutthroat": [{}, {"stick_the_dealer": True}, {"name_turned_down": True}, {"deck32": True}],
}


def _kernel_calls(rules, dealer, seat, hand, up, calls):
    heard = parse_heard(", ".join(f"{s} {c}" for s, c in calls), rules)
    point = DecisionPoint(rules, SEATS.index(dealer), SEATS.index(seat), hand_mask(hand),
                          -1 if up is None else card_id(up), heard)
    state = state_of(point)
    assert state.kind == "call"
    return {call_text(c, rules) for c in state.codes()}


@pytest.mark.parametrize("variant, opts", [(v, o) for v, sets in OPTION_SETS.items()
                                           for o in sets])
def test_legal_calls_match_the_referee_at_every_point(variant, opts):
    rules = make_rules(variant, **opts)
    rng = random.Random(str((variant, opts)))
    points = 0
    for _ in range(40):
        cards = deck(variant, opts)
        rng.shuffle(cards)
        players = players_of(variant)
        dealer = rng.choice(players)
        up = cards.pop() if rules.has_upcard else None
        calls = []
        while (turn := legal_calls(variant, opts, dealer, up, calls)) is not None:
            seat, allowed = turn
            hand = cards[:rules.hand_size]
            assert _kernel_calls(rules, dealer, seat, hand, up, calls) == allowed, calls
            points += 1
            weights = [6 if c == "pass" else 1 for c in sorted(allowed)]
            calls.append((seat, rng.choices(sorted(allowed), weights)[0]))
    assert points > 100


# ---------------------------------------------------------------------------- rollouts


def _option(rules, row) -> Option:
    call = None if row[OPT.CALL] < 0 else call_text(int(row[OPT.CALL]), rules)
    return Option(call=call, alone=int(row[OPT.ALONE]),
                  discard=None if row[OPT.DISCARD] < 0 else card_name(int(row[OPT.DISCARD])),
                  give=None if row[OPT.GIVE] < 0 else card_name(int(row[OPT.GIVE])),
                  trump=None if row[OPT.TRUMP] < 0 else "CDHS"[int(row[OPT.TRUMP])],
                  defend=int(row[OPT.DEFEND]))


def _hands(rules, dealt) -> dict:
    names = ["N", "E", "S", "W"]
    return {names[s]: [card_name(c) for c in range(64) if (int(dealt[s]) >> c) & 1]
            for s in range(4) if int(dealt[s])}


def _points(variant, rng, count):
    """Random decision points whose heard calls the point count makes on some deal: a deal
    is played out by the reference strategy and cut at a random call (in cutthroat sometimes
    after the auction, at a defender's choice to go alone)."""
    rules = make_rules(variant)
    out = []
    while len(out) < count:
        cards = deck(variant, {})
        rng.shuffle(cards)
        players = players_of(variant)
        n = rules.hand_size
        hands = {s: cards[k * n:(k + 1) * n] for k, s in enumerate(["N", "E", "S", "W"])}
        up = cards[4 * n] if rules.has_upcard else None
        dealer = rng.choice(players)
        full = rollout(variant, hands, dealer, up, [], "N", Option())
        j = rng.randrange(len(full.calls) + (variant == "cutthroat"))
        if j == len(full.calls):
            if full.status != "played":
                continue
            asker = [s for s in players if s != full.declarer][0]
        else:
            asker = full.calls[j][0]
        out.append((dealer, asker, hands[asker], up, full.calls[:j],
                    {full.declarer} if full.contract == "alone" else set()))
    return out


def _check_point(variant, point_args, deals, seed):
    rules = make_rules(variant)
    dealer, asker, hand, up, heard, alone = point_args
    text = ", ".join(f"{s} {c}" + (" alone" if s in alone and c != "pass" else "")
                     for s, c in heard)
    point = DecisionPoint(rules, SEATS.index(dealer), SEATS.index(asker),
                          hand_mask(hand),
                          -1 if up is None else card_id(up), parse_heard(text, rules))
    d = prepare(point, True, True, tremble=0.0)  # strict: the reference rejects every call
    #                                               off-strategy
    d.query.policies, d.query.params = others_policies("points", "dd", rules)
    chunk = run_query(d.query, seed, 0, deals, False)
    net = outcome_arrays(rules, point.seat, chunk.results)["net"]
    compared = 0
    for i in np.nonzero(chunk.ok)[0]:
        hands = _hands(rules, chunk.dealt[i])
        for o, opt in enumerate(d.options):
            got = rollout(variant, hands, dealer, up, heard, asker, _option(rules, opt.row),
                          alone)
            res = chunk.results[i, o]
            if got.status == "redeal":
                assert res[X.STATUS] == K.ST_ALL_PASSED, (i, opt.name)
                continue
            where = (i, opt.name, opt.detail, got.calls)
            assert SEATS[int(res[X.DECLARER])] == got.declarer, where
            assert int(res[X.TRICKS]) == got.tricks, where
            assert net[i, o] == pytest.approx(got.net), where
            compared += 1
    return compared


VARIANTS = ["bid", "ghost", "knock", "cutthroat"]
FEW = {"bid": (3, 2), "ghost": (4, 2), "knock": (10, 5), "cutthroat": (10, 5)}  # points, deals


def _agree(variant, points, deals):
    rng = random.Random(variant)
    compared = sum(_check_point(variant, p, deals, seed)
                   for seed, p in enumerate(_points(variant, rng, points)))
    assert compared >= points * deals  # every point has at least one option


@pytest.mark.parametrize("variant", VARIANTS)
def test_rollouts_agree_with_the_pure_python_reference(variant):
    _agree(variant, *FEW[variant])


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_rollouts_agree_on_200_deals_per_variant(variant):
    _agree(variant, 40, 5)


def _three_passes(tremble: float):
    rules = make_rules("knock")
    point = DecisionPoint(rules, 0, 0, hand_mask("JS AS KS 9H TD".split()),
                          card_id("QS"), parse_heard("E pass, S pass, W pass", rules))
    d = prepare(point, True, True, tremble=tremble)
    d.query.policies, d.query.params = others_policies("points", "dd", rules)
    return rules, run_query(d.query, 3, 0, 200, False)


def _reference_fits(rules, dealt) -> bool:
    try:
        rollout("knock", _hands(rules, dealt), "N", "QS",
                [("E", "pass"), ("S", "pass"), ("W", "pass")], "N", Option(call="pass"))
    except Inconsistent:
        return False
    return True


def test_inference_keeps_only_deals_that_reproduce_the_calls():
    """Strict inference (no tremble): every deal accepted for a point after three passes is
    one where the reference strategy passes with each of those hands; deals it rejects are
    found among the tries."""
    rules, chunk = _three_passes(0.0)
    assert chunk.ok.all() and np.abs(chunk.tries).sum() > 200
    assert not chunk.trembled.any()
    for i in range(200):
        assert _reference_fits(rules, chunk.dealt[i]), f"deal {i}"


def test_a_tremble_keeps_exactly_the_deals_it_counts():
    """Issue 24: with a tremble a deal where a seat would not have made its call heard may
    be kept; the kept deals the reference strategy contradicts are exactly the ones counted
    as trembled, and with a large tremble there are some."""
    rules, chunk = _three_passes(0.3)
    assert chunk.ok.all()
    fits = np.array([_reference_fits(rules, chunk.dealt[i]) for i in range(200)])
    assert ((chunk.trembled > 0) == ~fits).all()
    assert 0 < (~fits).sum() < 200


def test_every_other_legal_call_keeps_an_even_share_of_the_tremble():
    """A tremble goes to the other legal calls: half evenly, half by how good they are, so a
    call far worse than the best (a wild moon) stays possible (issue 24: a random legal
    auction was refused when a softmax alone gave the moon a chance of 1e-10)."""
    from kernels.bidding.bidding import N_CODES, TREMBLE_EVEN, call_likelihood

    values = np.full(N_CODES, -np.inf)
    worth = {K.PASS: 0.0, 3: -0.5, 4: -2.0, 5: -4.0, K.MOON: -12.0}
    allowed = np.uint64(0)
    for code, v in worth.items():
        values[code] = v
        allowed |= np.uint64(1) << np.uint64(code)
    tremble = 0.03
    others = [c for c in worth if c != K.PASS]
    ratios = [call_likelihood(values, allowed, c, K.PASS, tremble) for c in others]
    assert abs(sum(ratios) - tremble / (1 - tremble)) < 1e-12
    floor = tremble * TREMBLE_EVEN / len(others) / (1 - tremble)
    assert min(ratios) >= floor - 1e-15 and ratios == sorted(ratios, reverse=True)
    assert call_likelihood(values, allowed, K.PASS, K.PASS, tremble) == 0.0
    assert call_likelihood(values, allowed, K.ASK, K.PASS, tremble) == 0.0  # not allowed here
