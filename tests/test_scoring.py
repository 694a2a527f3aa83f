"""The points tables, case by case from RULES.md, and option validation."""

import numpy as np
import pytest

from analyzer.game.records import Record, to_json
from analyzer.game.scoring import net_points
from analyzer.game.variants import RulesError, make_rules
from analyzer.questions.simulate.play import play_hands
from kernels.cards.codes import ASK, CT_DEFENDER_ALONE, CT_MAKER_ALONE, MOON
from kernels.slots import R
from tests.conftest import PLAY_CONFIGS, config_id
from tests.reference import SEATS, referee

pytestmark = pytest.mark.engine

BOTH = CT_MAKER_ALONE | CT_DEFENDER_ALONE


@pytest.mark.parametrize("bid, tricks, points", [
    (3, 3, (3, 3)), (3, 6, (6, 0)), (4, 5, (5, 1)), (4, 3, (-4, 3)), (5, 4, (-5, 2)),
    (5, 5, (5, 1)), (ASK, 6, (12, 0)), (ASK, 5, (-6, 1)), (MOON, 6, (24, 0)),
    (MOON, 5, (-6, 1)), (MOON, 0, (-6, 6)),
])
def test_bid(bid, tricks, points):
    assert make_rules("bid").score(bid, tricks) == points


def test_bid_options():
    assert make_rules("bid", failed_moon_points=24).score(MOON, 4) == (-24, 2)
    assert make_rules("bid", failed_moon_points=24).score(ASK, 4) == (-6, 2)
    dd = make_rules("bid", double_deck=True)
    assert dd.hand_size == 12 and dd.bid_ladder[0] == 3 and dd.bid_ladder[-3] == 11
    assert dd.score(7, 9) == (9, 3)
    assert dd.score(7, 6) == (-7, 6)
    assert dd.score(ASK, 12) == (24, 0)
    assert dd.score(MOON, 12) == (48, 0)
    assert dd.score(MOON, 11) == (-12, 1)


@pytest.mark.parametrize("bid, tricks, points", [
    (3, 4, (4, 0)), (3, 2, (-3, 0)), (5, 5, (5, 0)), (MOON, 6, (24, 0)), (MOON, 5, (-6, 0)),
])
def test_ghost(bid, tricks, points):
    assert make_rules("ghost").score(bid, tricks) == points


@pytest.mark.parametrize("contract, tricks, points", [
    (0, 3, (1, 0)), (0, 4, (1, 0)), (0, 5, (2, 0)), (0, 2, (0, 2)), (0, 0, (0, 2)),
    (CT_MAKER_ALONE, 5, (4, 0)), (CT_MAKER_ALONE, 3, (1, 0)), (CT_MAKER_ALONE, 1, (0, 2)),
])
def test_knock(contract, tricks, points):
    assert make_rules("knock").score(contract, tricks) == points


def test_knock_lone_defender():
    r = make_rules("knock", lone_defender=True)
    assert r.score(CT_DEFENDER_ALONE, 2) == (0, 4)
    assert r.score(BOTH, 0) == (0, 4)
    assert r.score(CT_DEFENDER_ALONE, 3) == (1, 0)
    assert make_rules("knock", lone_defender=True, lone_defender_points=3).score(
        CT_DEFENDER_ALONE, 1) == (0, 3)
    with pytest.raises(RulesError):
        make_rules("knock").score(CT_DEFENDER_ALONE, 1)


@pytest.mark.parametrize("contract, tricks, points", [
    (0, 3, (1, 0)), (0, 4, (1, 0)), (0, 5, (3, 0)), (0, 2, (0, 2)), (CT_MAKER_ALONE, 5, (3, 0)),
    (CT_DEFENDER_ALONE, 2, (0, 2)), (CT_DEFENDER_ALONE, 1, (0, 2)), (CT_DEFENDER_ALONE, 0, (0, 4)),
    (BOTH, 0, (0, 4)),
])
def test_cutthroat(contract, tricks, points):
    assert make_rules("cutthroat").score(contract, tricks) == points


def test_cutthroat_lone_maker_option():
    assert make_rules("cutthroat", lone_maker_march_points=5).score(CT_MAKER_ALONE, 5) == (5, 0)
    assert make_rules("cutthroat", lone_maker_march_points=5).score(0, 5) == (3, 0)


def test_defaults_follow_rules_md():
    assert make_rules("knock").stick_the_dealer is True
    assert make_rules("cutthroat").stick_the_dealer is False
    assert make_rules("bid").stick_the_dealer is False
    targets = [make_rules(v).target for v in ("bid", "ghost", "cutthroat", "knock")]
    assert targets == [32, 32, 10, 10]
    assert make_rules("knock", deck32=True).kitty_size == 12
    assert make_rules("cutthroat", deck32=True).kitty_size == 12
    assert make_rules("bid", joker=True).deck_size == 25


@pytest.mark.parametrize("variant, opts, words", [
    ("ghost", {"joker": True}, "does not apply to ghost"),
    ("bid", {"lone_defender": True}, "does not apply to bid"),
    ("knock", {"double_deck": True}, "does not apply to knock"),
    ("cutthroat", {"ace_no_face": True}, "does not apply"),
    ("bid", {"joker": True, "double_deck": True}, "cannot be combined"),
    ("bid", {"joker": 1}, "true or false"),
    ("bid", {"failed_moon_points": "x"}, "whole number"),
    ("bid", {"failed_moon_points": -3}, "between"),
    ("knock", {"lone_defender_points": 6}, "needs --lone-defender"),
    ("euchre", {}, "unknown variant"),
    ("bid", {"colour": True}, "unknown option"),
])
def test_bad_options(variant, opts, words):
    with pytest.raises(RulesError, match=words):
        make_rules(variant, **opts)


# ---------------------------------------------------------------------------- net points


@pytest.mark.parametrize("cfg", PLAY_CONFIGS, ids=config_id)
def test_net_points_agree_with_the_referees_points(cfg):
    """Net points of every seat from the contract and the declaring side's tricks equal what
    the independent referee's points per seat give (my side minus theirs; with three players
    mine minus the mean of the other two, and where defenders score their own tricks the two
    defenders' mean)."""
    rules = make_rules(cfg[0], **cfg[1])
    masks, recs = play_hands(rules, 300, seed=7, strategy="points")
    checked = 0
    for i in range(300):
        ref = referee(to_json(Record(rules, masks[i], recs[i])))
        if ref["status"] != "played":
            continue
        pts = ref["points"]
        players = SEATS[:rules.players]
        contract, tricks = int(recs[i, R.CONTRACT]), int(recs[i, R.DECL_TRICKS])
        declarer = ref["declarer"]
        side = {declarer, SEATS[(SEATS.index(declarer) + 2) % 4]} if rules.partnership \
            else {declarer}
        nets = {}
        for seat in players:
            if rules.partnership:  # the other side (both opponents carry their team's points)
                others = [pts[s] for s in players if (s in side) != (seat in side)]
            else:
                others = [pts[s] for s in players if s != seat]
            nets[seat] = pts[seat] - sum(others) / len(others)
            got = float(net_points(rules, contract, tricks, seat in side))
            if seat in side or not rules.defenders_score_own_tricks:
                assert got == pytest.approx(nets[seat]), (i, seat)
        if rules.defenders_score_own_tricks:
            defenders = [s for s in players if s not in side]
            mean = sum(nets[s] for s in defenders) / len(defenders)
            assert float(net_points(rules, contract, tricks, False)) == pytest.approx(mean)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("variant", ["bid", "ghost", "cutthroat", "knock"])
def test_review_and_odds_price_every_contract_alike(variant):
    """The review's cost of a decision and the odds' expected points are in the same units:
    for every contract and trick count, the review's net points of each seat equal what the
    odds engine's outcome of a played-out hand gives that seat."""
    from analyzer.game.outcomes import outcome_arrays
    from analyzer.questions.review.review_hand import _Hand
    from kernels.cards import codes as K
    from kernels.slots import X

    rules = make_rules(variant)
    n = rules.hand_size
    checked = 0
    for contract in rules.contracts:
        h = _Hand(rules, 0, 0, contract, [0, 0, 0, 0], 15, 1 | 4 if rules.partnership else 1, 0)
        for tricks in range(n + 1):
            result = np.zeros((1, 1, X.LEN), dtype=np.int8)
            result[0, 0, X.STATUS], result[0, 0, X.DECLARER] = K.ST_PLAYED, 0
            result[0, 0, X.CONTRACT], result[0, 0, X.TRICKS] = contract, tricks
            for seat in range(rules.players):
                net = outcome_arrays(rules, seat, result)["net"][0, 0]
                assert net == pytest.approx(h.net(tricks, seat=seat)), (contract, tricks, seat)
                checked += 1
    assert checked >= 4 * (n + 1)
