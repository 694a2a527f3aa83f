"""``euchre match`` (issue 53): duplicate hands between card players. The seats swap between a
deal's seatings (the figures are checked against each record's points per seat), a player
against itself scores exactly nothing, the same seed gives the same numbers on 1 and 2
threads, stronger players beat weaker ones, the ladder ranks them, every kernel play policy
is a player, and the command line's JSON, errors and Ctrl-C."""

import json
import re
import signal

import numpy as np
import pytest

from analyzer.cli import run
from analyzer.compute.engine import play_hands
from analyzer.errors import UserError
from analyzer.game.notation import format_card
from analyzer.game.variants import make_rules
from analyzer.questions.advise.advise_games import card_choices, plays_of
from analyzer.questions.simulate.card_match import (
    MatchSettings,
    card_player,
    ladder,
    lineup,
    match,
    seating_records,
)
from analyzer.strategy.named import PLAYS
from analyzer.strategy.seats import seat_policies
from kernels.slots import M, R
from tests import reference as ref
from tests.child import FIRST_CHUNK, Child
from tests.test_hostile import assert_one_error

pytestmark = [pytest.mark.engine, pytest.mark.cli]

FAST = MatchSettings(bidding="points", worlds=8)  # no strategy to build; pimc quick


def _same(one, two) -> None:
    """Two results alike but for the time they took."""
    a, b = one.to_dict(), two.to_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b


@pytest.mark.parametrize("a, b, pairs", [("heuristic", "random", 3000), ("pimc", "dd", 24)])
def test_the_same_seed_gives_the_same_numbers_on_one_and_two_threads(a, b, pairs):
    """3,000 pairs are two chunks of the runner; pimc's and dd's pieces run in lanes."""
    rules = make_rules("knock")
    one = match(rules, a, b, pairs, 7, FAST, workers=1)
    _same(one, match(rules, a, b, pairs, 7, FAST, workers=2))
    assert one.played.pairs == pairs and one.to_dict()["points_diff"] != 0
    assert match(rules, a, b, pairs, 8, FAST, workers=1).to_dict() != one.to_dict()


@pytest.mark.parametrize("variant", ["knock", "cutthroat", "bid"])
def test_the_figures_are_each_seatings_points_per_seat(variant):
    """A's points a hand less B's, recomputed from each seating's records seat by seat: A at
    N/S then E/W (partners carry their side's points); with three players A in N, E, S
    against the mean of the two B's."""
    rules = make_rules(variant)
    line = lineup(rules, ["heuristic", "random"], [(0, 1)], FAST, 3)
    recs = [seating_records(line, (0, 1), k, 3, 0, 200)[0] for k in range(len(line.sides))]
    diffs, points_a = [], []
    for k, rec in enumerate(recs):
        pts = rec[:, R.POINTS:R.POINTS + 4].astype(float)
        if rules.partnership:
            a, b = pts[:, k], pts[:, 1 - k]
        else:
            a = pts[:, k]
            b = (pts[:, :3].sum(axis=1) - a) / 2
        diffs.append(a - b)
        points_a.append(a)
    got = match(rules, "heuristic", "random", 200, 3, FAST).to_dict()
    want = np.mean(diffs, axis=0)
    assert got["points_diff"] == pytest.approx(want.mean())
    half = 1.959963984540054 * want.std(ddof=1) / np.sqrt(200)
    assert got["points_diff_low"] == pytest.approx(want.mean() - half)
    assert got["points_a"] == pytest.approx(np.mean(points_a))
    assert got["hands"] == 200 * len(recs) and got["seatings"] == (2 if rules.partnership else 3)


@pytest.mark.parametrize("variant", ["knock", "ghost"])
def test_a_player_against_itself_scores_exactly_nothing(variant):
    """Each seating plays the same cards (the same deal, dealer and policy stream), so A's
    points in one are B's in the other: the difference is 0 on every deal."""
    rules = make_rules(variant)
    line = lineup(rules, ["heuristic", "heuristic"], [(0, 1)], FAST, 5)
    recs = [seating_records(line, (0, 1), k, 5, 0, 300)[0] for k in range(len(line.sides))]
    assert all(np.array_equal(recs[0], rec) for rec in recs[1:])
    got = match(rules, "heuristic", "heuristic", 300, 5, FAST).to_dict()
    assert got["points_diff"] == got["points_diff_low"] == got["points_diff_high"] == 0
    assert got["points_a"] == got["points_b"] > 0


@pytest.mark.parametrize("a, b", [("dd", "heuristic"), ("heuristic", "random")])
def test_the_stronger_player_wins(a, b):
    got = match(make_rules("knock"), a, b, 400, 1, FAST)
    diff, low, _ = got.played.diff(0)
    assert low > 0, (a, b, diff, low)
    points_a, points_b = got.played.points(0)
    assert points_a - points_b == pytest.approx(diff)


def test_the_ladder_ranks_the_players_and_agrees_with_its_matches():
    rules = make_rules("knock")
    got = ladder(rules, ["random", "heuristic", "dd"], 300, 2, FAST)
    assert [r["player"] for r in got.ratings] == ["dd", "heuristic", "random"]
    assert sum(r["rating"] for r in got.ratings) == pytest.approx(0, abs=1e-12)
    assert all(r["rating_low"] < r["rating"] < r["rating_high"] for r in got.ratings)
    # each match of the ladder is the match of those two on the same deals
    row = next(r for r in got.table if (r["a"], r["b"]) == ("random", "heuristic"))
    alone = match(rules, "random", "heuristic", 300, 2, FAST).to_dict()
    assert row["points_diff"] == alone["points_diff"] < 0
    # a rating is the player's mean diff against the others
    diff = {(r["a"], r["b"]): r["points_diff"] for r in got.table}
    heuristic = (diff[("heuristic", "dd")] - diff[("random", "heuristic")]) / 2
    assert next(r["rating"] for r in got.ratings if r["player"] == "heuristic") == \
        pytest.approx(heuristic)


def test_every_play_policy_is_a_player():
    """A play policy named in ``strategy.named.PLAYS`` is a match player with nothing else
    to change (the analyzer's card player joins so)."""
    rules = make_rules("knock")
    for name in PLAYS:
        assert card_player(name.upper()).play == name
        got = match(rules, name, "heuristic", 4, 1, FAST).to_dict()
        assert got["a"] == name and got["pairs"] == 4


def test_the_advise_player_asks_the_card_question_for_its_cards():
    """advise asks at its seats' cards with a choice, in both seatings; with nobody asking
    the same hand engine plays the kernels' hands."""
    rules = make_rules("knock")
    settings = MatchSettings(bidding="points", method="heuristic", deals=20)
    got = match(rules, "advise", "heuristic", 2, 3, settings, workers=1).to_dict()
    assert got["questions"] > 8 and got["fallbacks"] == 0
    assert got["method"] == "heuristic" and got["deals"] == 20
    _same(match(rules, "advise", "heuristic", 2, 3, settings, workers=1),
          match(rules, "advise", "heuristic", 2, 3, settings, workers=2))


def test_card_choices_count_the_plays_with_two_legal_cards():
    """bench play's decisions: the plays of a hand made from two legal cards or more, by
    the referee's legal cards."""
    rules = make_rules("knock")
    policies, params = seat_policies("points", "random", rules=rules)
    masks, recs = play_hands(rules, 60, policies, params, 4)
    total = plays = 0
    for hm, rec in zip(masks, recs, strict=True):
        played, want = plays_of(rec, hm), 0
        active = sum(1 for s in range(4) if hm[M.PLAY + s])
        for k, (seat, _) in enumerate(played):
            held = [format_card(c) for c in range(64) if int(hm[M.PLAY + seat]) >> c & 1
                    and (seat, c) not in played[:k]]
            led = format_card(played[k - k % active][1]) if k % active else None
            want += len(ref.legal_cards(held, led, "CDHS"[rec[R.TRUMP]])) > 1
        assert card_choices(rules, hm, rec) == want
        total, plays = total + want, plays + len(played)
    assert 0 < total < plays


def test_the_command_prints_the_json_keys():
    code, out = _run(["match", "--variant", "knock", "--a", "heuristic", "--b", "random",
                      "--pairs", "50", "--seed", "3", "--bidding", "points", "--json"])
    got = json.loads(out)
    assert code == 0 and {"points_diff", "points_diff_low", "points_diff_high", "pairs",
                          "hands", "a", "b", "variant", "seed", "seconds", "points_a",
                          "points_b"} <= set(got)
    assert got["pairs"] == 50 and got["hands"] == 100 and got["a"] == "heuristic"
    code, out = _run(["match", "--variant", "knock", "--a", "heuristic", "--b", "random",
                      "--games", "4", "--bidding", "points", "--json"])
    got = json.loads(out)
    assert code == 0 and got["games"] == 4 and got["play"] == "heuristic"
    assert got["win_rate_low"] <= got["win_rate"] <= got["win_rate_high"]
    code, out = _run(["match", "--variant", "cutthroat", "--players", "random,heuristic",
                      "--pairs", "100", "--bidding", "points"])
    assert code == 0 and "100 sets of hands" in out
    assert re.search(r"heuristic\s+\+\d\.\d+ \[\+", out), out


def _run(args):
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = run(args)
    return code, out.getvalue()


@pytest.mark.parametrize("args, says", [
    (["--a", "cheater", "--b", "random"], "unknown player 'cheater': choose one of random"),
    (["--a", "mine.toml", "--b", "random"], "mine.toml is a strategy file"),
    (["--a", "heuristic"], "give both --a and --b"),
    (["--players", "random,random"], "names random twice"),
    (["--players", "random"], "at least two players"),
    (["--players", "random,dd", "--a", "dd"], "not both"),
    (["--a", "advise", "--b", "dd", "--games", "2"], "plays duplicate hands"),
    (["--a", "advise", "--b", "dd", "--method", "oracle"], "--method must be one of analyzer, dd"),
    (["--a", "dd", "--b", "random", "--pairs", "99999999999999"], "would take about"),
])
def test_bad_input_is_one_line(args, says):
    line = assert_one_error(["match", "--variant", "knock", "--bidding", "points", *args])
    assert says in line, line


def test_advise_refuses_the_auctions_it_cannot_ask():
    line = assert_one_error(["match", "--variant", "bid", "--a", "advise", "--b", "dd"])
    assert "upcard auction of four players" in line and line.endswith("not bid")


def test_ctrl_c_keeps_the_pairs_played():
    child = Child(["match", "--variant", "knock", "--a", "pimc", "--b", "heuristic",
                   "--pairs", "1000000", "--worlds", "4", "--bidding", "points", "--force"])
    child.wait_for(FIRST_CHUNK)
    child.proc.send_signal(signal.SIGINT)
    out, err = child.finish()
    assert child.proc.returncode == 130 and "Traceback" not in err, err[-800:]
    done = int(re.search(r"interrupted after ([\d,]+) pairs", err)[1].replace(",", ""))
    assert 0 < done < 1_000_000
    assert re.search(rf"^{done:,} pairs of hands", out, re.M), out
    assert "A's points a hand minus B's: " in out


def test_an_advise_player_may_name_its_own_method():
    """``advise:METHOD`` answers by that method whatever the match's; a method that is not
    one is refused naming the choices."""
    assert card_player("advise:analyzer").method == "analyzer"
    assert card_player("Advise:DD").method == "dd" and card_player("advise").method is None
    with pytest.raises(UserError, match="unknown method in player 'advise:best'"):
        card_player("advise:best")
    line = lineup(make_rules("knock"), ["advise:heuristic", "advise"], [(0, 1)], FAST, 3)
    assert line.ask and all(a is not None for a in line.asks)
