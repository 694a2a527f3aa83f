"""Playing a hand against the analyzer (issue 54): the hand run to each of the player's
decisions, every decision graded, the same seed the same hand; the HTTP API of the page's
"Play a hand" tab and ``euchre play --interactive``."""

import numpy as np
import pytest

from analyzer.compute.engine import play_hands
from analyzer.game.variants import make_rules
from analyzer.questions.advise.advise_games import plays_of
from analyzer.strategy.seats import seat_policies
from kernels.slots import M, R

pytestmark = [pytest.mark.serve, pytest.mark.cli]


@pytest.mark.parametrize("variant", ["ghost", "cutthroat", "knock"])
def test_plays_of_reads_every_card_when_three_seats_play(variant):
    """A hand of three seats (three players, or a lone maker's side) records three cards a
    trick: every card played is read, not the first trick's alone."""
    rules = make_rules(variant)
    policies, params = seat_policies("points", "heuristic", rules=rules)
    masks, recs = play_hands(rules, 200, policies, params, 7)
    seen = 0
    for hm, rec in zip(masks, recs, strict=True):
        active = sum(1 for s in range(4) if hm[M.PLAY + s])
        if rec[R.DECLARER] < 0 or active != 3:
            continue
        seen += 1
        played = plays_of(rec, hm)
        assert len(played) == 3 * rules.hand_size
        for seat, card in played:
            assert int(hm[M.PLAY + seat]) >> card & 1
    assert seen > 0
