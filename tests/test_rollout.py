"""The rollout bidder (issue 24): its game loop is the kernel's (with no rollout seat it plays
exactly the games of ``kernels.drivers.games.play_games``), and a rollout seat's call is the one its
own decision-point query finds best. Also the march counts of a simulation."""

import numpy as np
import pytest

from analyzer.compute.engine import GameLoop, Match, play_game_chunk
from analyzer.game.heard import Heard
from analyzer.game.variants import make_rules
from analyzer.questions.simulate.rollout import (
    best_option,
    play_rollout_games,
    play_rollout_hand,
    rollout_deals,
    rollout_for,
)
from analyzer.questions.simulate.whole_games import simulate
from analyzer.strategy.seats import seat_policies
from kernels.cards import codes as K
from kernels.slots import M, R

pytestmark = [pytest.mark.engine, pytest.mark.strategy]


def _match(rules):
    pa, ra = seat_policies("points", "heuristic", rules=rules)
    pb, rb = seat_policies("random", "heuristic", rules=rules)
    return Match(np.stack([pa[0], pb[0]]), np.stack([ra[0], rb[0]]))


@pytest.mark.parametrize("variant", ["bid", "ghost", "cutthroat", "knock"])
def test_the_game_loop_is_the_kernels(variant):
    rules = make_rules(variant)
    match = _match(rules)
    copies = 2 if rules.partnership else 3
    ours = play_rollout_games(rules, match, None, None, 5, 0, 3 * copies)
    theirs = play_game_chunk(rules, match, 5, 0, 3 * copies)
    for key in ("wins", "hands", "redeals", "points_a", "points_b"):
        assert ours[key] == theirs[key], key
    assert (ours["tally"] == theirs["tally"]).all()


def test_a_rollout_seat_makes_its_querys_best_call():
    rules = make_rules("knock")
    match = _match(rules)
    roll = rollout_for(rules, 40, "heuristic")
    pols = np.stack([match.policies[s & 1] for s in range(4)])
    pars = np.stack([match.params[s & 1] for s in range(4)])
    checked = 0
    for index in range(6):
        dealer = index % 4
        loop = GameLoop(rules, pols, pars)
        rec = play_rollout_hand(loop, 0b0101, roll, 11, index, index, dealer)
        calls = [(int(rec[R.CALL_SEAT + j]), int(rec[R.CALL + j]))
                 for j in range(int(rec[R.NCALLS]))]
        j = next((j for j, (s, _) in enumerate(calls) if s in (0, 2)), None)
        if j is None:
            continue
        seat, call = calls[j]
        heard = Heard()
        for s, c in calls[:j]:
            heard = heard.then(s, c, False)
        hm, dealt = loop.deal(11, index, dealer)
        option = best_option(rules, roll, dealer, seat, int(hm[M.DEALT + seat]),
                             int(dealt[R.UPCARD]), heard, (1 << 40) + index * 16 + j)
        assert option is not None and option.call == call, (index, calls)
        if call != K.PASS and j == len(calls) - 1:
            assert ((rec[R.ALONE_SEATS] >> seat) & 1) == (option.alone == 1)
        checked += 1
    assert checked >= 4


def test_rollout_names_are_checked():
    assert rollout_deals("rollout") == 200 and rollout_deals("rollout:50") == 50
    assert rollout_deals("analyzer") is None
    for bad in ("rollout:", "rollout:x", "rollout:5"):
        with pytest.raises(Exception, match="rollout:DEALS"):
            rollout_deals(bad)


def test_a_simulation_counts_marches_and_lone_hands():
    r = simulate(make_rules("knock"), 200, "points", "random", seed=3)
    d = r.decisions
    assert (d["marched"] <= d["made"]).all() and d["marched"].sum() > 0
    lone = d[d["alone"]]
    assert len(lone) and set(lone["contract"]) <= {c for c in d["contract"] if "alone" in c}
    a = r.lone_hands["A"]
    rows = lone[lone["side"] == "A"]
    assert a["declared"] == rows["declared"].sum()
    assert a["march_rate"] == pytest.approx(rows["marched"].sum() / rows["declared"].sum())
    assert a["march_rate_low"] <= a["march_rate"] <= a["march_rate_high"]
    assert "lone_hands" in r.to_dict() and "march_rate" in r.to_dict()["decisions"][0]
    # every played hand is in the tally once
    assert d["declared"].sum() == r.hands - r.redeals
