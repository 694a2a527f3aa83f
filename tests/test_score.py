"""Playing to the score (issue 43, item 2): ``--score`` turns each option's value into the
chance of winning the game after the hand — the match-equity table applied to each deal's
outcome — checked by hand from the option's outcome chances on the same deals; a case where
the best call by points and by games won differ; every variant answers; bad scores are one
line."""

import pytest

from analyzer.errors import UserError
from analyzer.game.game_score import parse_score
from analyzer.game.variants import make_rules
from analyzer.questions.equity.build import equity_table
from analyzer.questions.odds.answer import odds

pytestmark = pytest.mark.odds

QUESTION = dict(upcard="9S", seat="E", dealer="N", others="points", play_check=False)


def test_a_calls_chance_is_the_table_applied_to_its_outcomes():
    """At 9-6 for E-W, E orders up (no loner, so each deal ends one of three ways for us:
    a make of 1, a march of 2, a euchre giving them 2): the option's chance of winning is
    the sum of each way's chance times the table's value after it (E deals next)."""
    r = odds("JS TS AH AD KC", "knock", score="9-6", deals=1500, all_calls=True, **QUESTION)
    row = r.options.set_index("label").loc["order up S"]
    table = equity_table(make_rules("knock"))
    after = lambda us, them: table.win_chance([them, us], 1)[1]  # noqa: E731 (N-S, E-W); E deals next
    make = row["p_we_make"] - row["p_we_march"]
    by_hand = make * after(10, 6) + row["p_we_march"] * after(11, 6) + \
        row["p_we_euchred"] * after(9, 8)
    assert row["p_we_declare"] == pytest.approx(1.0)
    assert row["p_win"] == pytest.approx(by_hand, abs=2.0 ** -16)
    # the pass: every way the hand can end, both sides declaring
    p = r.options.set_index("label").loc["pass"]
    assert 0 < p["p_win"] < 1 and r.best["win"] == pytest.approx(r.options["p_win"].max())


def test_the_best_call_by_points_and_by_games_won_differ_at_nine_all():
    """JS TS AH AD KC, E first to speak with 9S turned: by points a pass (the dealer's side
    picking up into E's trumps); at 9-9, where any make ends the game, ordering up (double
    dummy; docs/odds.md shows the default's answer)."""
    points = odds("JS TS AH AD KC", "knock", deals=3000, all_calls=True, method="dd",
                  **QUESTION)
    games = odds("JS TS AH AD KC", "knock", deals=3000, all_calls=True, score="9-9",
                 method="dd", **QUESTION)
    assert points.best["label"] == "pass" and not points.best["too_close"]
    assert games.best["label"] == "order up S" and not games.best["too_close"]
    assert games.best["margin"] > 0.03  # three points of percentage of games won
    assert "to win the game" in games.best["sentence"]


@pytest.mark.parametrize("variant, hand, question, score", [
    ("bid", "JH AH KH QD 9S TC", {}, "28-25"),
    ("ghost", "JH JD AH KH QH 9S", {}, "20-25-30"),
    ("cutthroat", "JS AS KS 9H TD", dict(upcard="QS", seat="E", dealer="N"), "9-6-8"),
    ("knock", "JS AS KS 9H TD", dict(upcard="QS", seat="E", dealer="N"), "8-9"),
])
def test_every_variant_answers_in_games_won(variant, hand, question, score):
    r = odds(hand, variant, deals=300, score=score, others="points", play_check=False,
             **question)
    assert r.score == score and 0 <= r.best["win"] <= 1
    assert r.options["p_win"].between(0, 1).all()
    assert ((r.options["p_win_low"] <= r.options["p_win"]) &
            (r.options["p_win"] <= r.options["p_win_high"])).all()


@pytest.mark.parametrize("variant, text, words", [
    ("knock", "10-6", "the game is over"),
    ("knock", "-2-5", "cannot be negative"),
    ("knock", "nine-six", "us must be a whole number"),
    ("knock", "9-", "the score of them is missing"),  # issue 51: a side left blank
    ("knock", "nine", "write it as US-THEM"),
    ("knock", "9-6-7", "keeps 2 scores"),
    ("cutthroat", "9-6", "keeps 3 scores"),
    ("bid", "32-20", "the game is over"),
])
def test_a_bad_score_is_one_clear_error(variant, text, words):
    with pytest.raises(UserError, match=words):
        parse_score(text, make_rules(variant), 0)


def test_a_score_is_read_from_the_askers_side():
    """US-THEM: E's side is E-W, so '9-6' puts E-W at 9; bid scores may be negative and
    equal scores past the target play on."""
    knock = make_rules("knock")
    assert parse_score("9-6", knock, 1) == (6, 9) and parse_score("9-6", knock, 0) == (9, 6)
    assert parse_score("-8-31", make_rules("bid"), 0) == (-8, 31)
    assert parse_score("33-33", make_rules("bid"), 0) == (33, 33)


def test_a_records_score_prices_its_calls_in_games_won():
    """A record may give the score before its hand ({"NS": .., "EW": ..}); review prices its
    calls at it, in games won, and the record keeps it; a wrong one is one line."""
    import json

    from analyzer.game.records import RecordError, load_record, to_json
    from analyzer.questions.review.review_hand import review
    from analyzer.questions.simulate.play import play_one

    data = to_json(play_one(make_rules("knock"), seed=1))
    data["score"] = {"NS": 9, "EW": 9}
    record = load_record(json.loads(json.dumps(data)))
    assert record.score == (9, 9) and to_json(record)["score"] == {"NS": 9, "EW": 9}
    calls = review(record, call_deals=200, others="points").decisions
    calls = calls[calls["kind"] == "call"]
    assert calls["value_before"].between(0, 1).all()
    assert calls["note"].str.contains("points of percentage of the game").any()
    for bad in ({"NS": 10, "EW": 3}, {"NS": 9}, [9, 9], {"NS": -1, "EW": 0}):
        with pytest.raises(RecordError, match="score"):
            load_record({**data, "score": bad})


@pytest.mark.parametrize("variant, start", [("knock", ""), ("cutthroat", "5-8-3"),
                                            ("bid", "2-5")])
def test_a_played_game_keeps_each_hands_score_before_it(variant, start):
    """``euchre play --game --json``: one record a hand, each with the score before it — the
    first the starting score, each next one the last plus its hand's points, nobody at the
    target until the last hand wins it — and each record scores again as played."""
    import json

    from typer.testing import CliRunner

    from analyzer.cli import app
    from analyzer.game.game_score import UNIT_NAMES
    from analyzer.questions.simulate.play import score_record

    args = ["play", "-v", variant, "--seed", "3", "--game", "--json"]
    result = CliRunner().invoke(app, args + (["--score", start] if start else []))
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    names = UNIT_NAMES[2 if variant != "cutthroat" else 3]
    score = [int(s) for s in start.split("-")] if start else [0] * len(names)
    target = make_rules(variant).target
    for i, data in enumerate(records):
        assert [data["score"][n] for n in names] == score
        assert max(score) < target
        assert score_record(data).score == tuple(score)
        score = [s + data["result"]["points"][n] for s, n in zip(score, names, strict=True)]
        assert data["dealer"] == "NESW"[i % (3 if variant == "cutthroat" else 4)]
    assert max(score) >= target and len(records) > 1
