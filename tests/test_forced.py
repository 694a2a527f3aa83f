"""A decision point and an option played out from it (kernels/drivers/forced.py, opened by
analyzer/compute/point.py): the point's row says what was heard and who asks, a record started
from it replays exactly those calls, inference is on only where calls were heard, and an
option is played with the asker's own choices."""

import numpy as np
import pytest

from analyzer.compute.point import forced_record, open_point, point_row
from analyzer.compute.query import run_query
from analyzer.game.decision_point import DecisionPoint
from analyzer.game.heard import parse_heard
from analyzer.game.notation import SEATS
from analyzer.game.variants import make_rules
from analyzer.questions.odds.decide import prepare
from analyzer.strategy.seats import others_policies
from kernels.cards import codes as K
from kernels.slots import IN, PT, R, X
from tests.cards import card_id, hand_mask

pytestmark = [pytest.mark.engine, pytest.mark.odds]

POINTS = [  # variant, dealer, asker, hand, upcard, calls heard
    ("knock", "N", "N", "9D KH QH AC KC", "AD", "E pass, S order"),
    ("knock", "N", "E", "JS AS KS 9H TD", "QS", "E pass, S pass, W pass, N pass"),
    ("knock", "W", "S", "JS AS KS 9H TD", "QS", "N order alone, E pass"),
    ("bid", "W", "S", "JH AH KH QD 9S TC", None, "N 3, E 4"),
    ("cutthroat", "N", "S", "JS AS KS 9H TD", "QS", "E pass"),
]


def _point(variant, dealer, asker, hand, upcard, heard):
    rules = make_rules(variant)
    return DecisionPoint(rules, SEATS.index(dealer), SEATS.index(asker),
                         hand_mask(hand.split()), -1 if upcard is None else card_id(upcard),
                         parse_heard(heard, rules))


@pytest.mark.parametrize("case", POINTS, ids=lambda c: f"{c[0]}-{c[5]}")
def test_a_point_starts_a_record_that_replays_the_calls_heard(case):
    point = _point(*case)
    row = point_row(point, solve=True)
    heard = point.heard
    assert (row[PT.DEALER], row[PT.UPCARD], row[PT.ASKER], row[PT.SOLVE]) == (
        point.dealer, point.upcard, point.seat, 1)
    assert row[PT.NCALLS] == len(heard) and row[PT.CHECK] == 0  # no inference until asked
    hm, rec, ins = forced_record(point)
    assert (rec[R.DEALER], rec[R.UPCARD], rec[R.NCALLS]) == (point.dealer, point.upcard,
                                                             len(heard))
    assert [int(rec[R.CALL_SEAT + j]) for j in range(len(heard))] == list(heard.seats)
    assert [int(rec[R.CALL + j]) for j in range(len(heard))] == list(heard.calls)
    assert ins[IN.FORCED] == len(heard) and ins[IN.ASKER] == point.seat
    assert ins[IN.HEARD_ALONE] == heard.alone


def test_inference_is_on_only_where_calls_were_heard_and_solving_is_one_slot():
    heard = open_point(_point(*POINTS[0]), solve=True, infer=True, tremble=0.03)
    assert heard.infers and heard.tremble == pytest.approx(0.03)
    assert not heard.with_inference(False, 0.03).infers
    assert heard.with_inference(False, 0.03).tremble == 0
    first = _point("knock", "N", "E", "JS AS KS 9H TD", "QS", "")
    opened = open_point(first, solve=True, infer=True, tremble=0.03)
    assert not opened.infers and opened.tremble == 0  # nothing heard: nothing to infer from
    played = heard.with_solving(False)
    assert played.row[PT.SOLVE] == 0 and heard.row[PT.SOLVE] == 1  # a copy, not the original
    assert np.array_equal(np.delete(played.row, PT.SOLVE), np.delete(heard.row, PT.SOLVE))


def test_an_option_is_played_with_the_askers_own_choices():
    """Ordered up, the dealer's six discards: each option's hand ends with that card
    discarded (the result's AUX), by the dealer's side declaring in round 1."""
    point = _point(*POINTS[0])
    d = prepare(point, solve=True, infer=False)
    d.query.policies, d.query.params = others_policies("points", "dd", point.rules)
    chunk = run_query(d.query, 3, 0, 20)
    assert [o.name for o in d.options] == ["discard"] * 6
    for i, option in enumerate(d.options):
        got = chunk.results[chunk.ok][:, i]
        assert (got[:, X.AUX] == option.discard).all()
        assert (got[:, X.ROUND] == 1).all() and (got[:, X.STATUS] == K.ST_PLAYED).all()
        assert ((got[:, X.DECLARER] & 1) == 0).all()  # S ordered: N-S declare
