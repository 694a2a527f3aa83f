"""Playing a whole game against the analyzer (issue 54's "Play a game"): hand after hand to
the game's end over the HTTP API and in the terminal, the score kept, every grade at the
score (in the chance of winning the game), the game's summary, the same seed the same game."""

import random

import pytest

from analyzer.cli import run
from analyzer.game.game_score import score_rules_of
from analyzer.game.variants import make_rules
from analyzer.questions.simulate.graded_game import NEXT
from analyzer.questions.simulate.graded_hand import VERDICTS, WIN_THRESHOLDS, verdict_of
from tests import test_play_hand

pytestmark = [pytest.mark.serve, pytest.mark.cli]

client, fewer_deals = test_play_hand.client, test_play_hand.fewer_deals  # the fixtures
# the games played by random legal actions: knock from 0-0 (a whole game), the others from
# near their end (short); the units in seat order
GAMES = [({"variant": "knock", "seat": "S", "seed": 7}, ("NS", "EW")),
         ({"variant": "bid", "seat": "E", "seed": 8, "score": "27-28"}, ("NS", "EW")),
         ({"variant": "ghost", "seat": "N", "seed": 9, "score": "28-27-29"}, ("N", "E", "S"))]


def _post(client, url: str, body: dict) -> dict:
    r = client.post(url, json=body)
    assert r.status_code == 200, r.text
    return r.json()


def _public(table: dict) -> dict:
    return {k: v for k, v in table.items() if k != "id"}


def _play_game(client, body: dict, rnd: random.Random) -> list[tuple[dict, str, dict]]:
    """A game played to its end by random legal actions: ``(table, action, next table)``
    for each action."""
    table = _post(client, "/api/play", {**body, "game": True})
    steps = []
    while not table["done"]:
        action = rnd.choice(table["decision"]["options"])
        after = _post(client, f"/api/play/{table['id']}", {"action": action})
        steps.append((table, action, after))
        table = after
    return steps


def _check_grade(after: dict, options: list, action: str) -> None:
    """A grade at the score: in the chance of winning the game, by the win thresholds."""
    grade = after["grade"]
    if grade is None:
        assert after["ungraded"].startswith("not graded"), after["ungraded"]
        return
    assert grade["unit"] == "win" and grade["best"] in options
    assert 0 <= grade["low"] <= grade["cost"] + 1e-9 and grade["cost"] <= grade["high"] + 1e-9 <= 1
    assert grade["points"] >= 0
    assert grade["verdict"] == verdict_of(grade["cost"], grade["low"], WIN_THRESHOLDS)
    if grade["best"] == action:
        assert grade["verdict"] == "best" and grade["cost"] == 0


def _start_score(body: dict, units: tuple) -> dict:
    if "score" not in body:
        return dict.fromkeys(units, 0)
    scores = [int(s) for s in body["score"].split("-")]
    if len(units) == 2 and body["seat"] in "EW":  # US-THEM from the seat's side
        scores.reverse()
    return dict(zip(units, scores, strict=True))


@pytest.mark.parametrize("body, units", GAMES)
def test_api_plays_a_game_by_random_legal_actions(client, fewer_deals, body, units):
    """A game to its end: every hand's points add up to the score, nobody has won before the
    last hand and the winner has at the end, each hand is dealt by the next seat, between
    hands the one option is the next hand, every grade is at the score and the summary
    counts them."""
    rules = make_rules(body["variant"])
    judge = score_rules_of(rules)
    steps = _play_game(client, body, random.Random(body["seed"]))
    final = steps[-1][2]
    game = final["game"]
    score = _start_score(body, units)
    dealers = []
    for row in game["hands"]:
        score = {u: score[u] + row["points"][u] for u in units}
        assert row["score"] == score
        dealers.append(row["dealer"])
        won = int(judge.winner(tuple(score[u] for u in units)))
        assert (won >= 0) == (row is game["hands"][-1])
    assert game["score"] == score and game["winner"] == units[won]
    assert max(score.values()) >= rules.target and final["hand_done"]
    assert "decision" not in final and final["points"]
    seats = "NESW"[:rules.players]
    assert all(seats[(seats.index(a) + 1) % rules.players] == b
               for a, b in zip(dealers, dealers[1:], strict=False))
    counts, points, win = dict.fromkeys(VERDICTS, 0), 0.0, 0.0
    for before, action, after in steps:
        if before["hand_done"]:
            assert before["decision"]["options"] == [NEXT] and after["grade"] is None
            assert after["game"]["hand"] == before["game"]["hand"] + 1
            continue
        assert after["score"] == before["game"]["score"]  # the hand's: before it
        _check_grade(after, before["decision"]["options"], action)
        if after["grade"] is None:
            counts["ungraded"] = counts.get("ungraded", 0) + 1
            continue
        counts[after["grade"]["verdict"]] += 1
        points += after["grade"]["points"]
        win += after["grade"]["cost"]
    summary = game["summary"]
    assert summary["by_verdict"] == counts
    assert summary["points_given_away"] == pytest.approx(points, abs=1e-6)
    assert summary["win_given_away"] == pytest.approx(win, abs=1e-6)
    hands = sum(1 for before, _, _ in steps if before["hand_done"]) + 1
    assert len(game["hands"]) == hands == game["hand"]


def test_the_same_seed_replays_the_same_game(client, fewer_deals):
    body = {"variant": "knock", "seat": "W", "seed": 21, "score": "6-7"}
    steps = _play_game(client, body, random.Random(3))
    assert any(before["hand_done"] for before, _, _ in steps)  # more than one hand
    table = _post(client, "/api/play", {**body, "game": True})
    for before, action, _ in steps:
        assert _public(table) == _public(before)
        table = _post(client, f"/api/play/{table['id']}", {"action": action})
    assert _public(table) == _public(steps[-1][2])


def test_between_hands_and_after_the_game_other_actions_are_422(client, fewer_deals):
    body = {"variant": "knock", "seat": "N", "seed": 5, "score": "7-7", "game": True}
    table = _post(client, "/api/play", body)
    r = client.post(f"/api/play/{table['id']}", json={"action": NEXT})
    assert r.status_code == 422 and "is not one of the options" in r.json()["error"]
    rnd = random.Random(5)
    while not table["done"]:
        if table["hand_done"]:
            r = client.post(f"/api/play/{table['id']}", json={"action": "pass"})
            assert r.status_code == 422 and "the one option is 'next hand'" in r.json()["error"]
        table = _post(client, f"/api/play/{table['id']}",
                      {"action": rnd.choice(table["decision"]["options"])})
    r = client.post(f"/api/play/{table['id']}", json={"action": NEXT})
    assert r.status_code == 422 and "the game is over" in r.json()["error"]


def test_a_hand_at_a_score_is_graded_in_win_chance(client, fewer_deals):
    """One hand given a score (your side first): the score on the table by side, each grade
    in the chance of winning the game, the hand's summary with the win chance given away."""
    table = _post(client, "/api/play", {"variant": "knock", "seat": "E", "seed": 3,
                                        "score": "9-8"})
    assert table["score"] == {"NS": 8, "EW": 9} and "game" not in table
    rnd = random.Random(3)
    while not table["done"]:
        options = table["decision"]["options"]
        action = rnd.choice(options)
        table = _post(client, f"/api/play/{table['id']}", {"action": action})
        _check_grade(table, options, action)
    assert "win_given_away" in table["summary"]


@pytest.mark.parametrize("body, words", [
    ({"variant": "knock", "seat": "S", "game": "maybe"}, "game must be true or false"),
    ({"variant": "knock", "seat": "S", "game": True, "score": "10-3"}, "the game is over"),
    ({"variant": "knock", "seat": "S", "game": True, "score": "3"}, "the score '3'"),
    ({"variant": "ghost", "seat": "S", "game": True, "score": "3-4"}, "keeps 3 scores"),
])
def test_a_bad_game_is_one_line(client, body, words):
    r = client.post("/api/play", json=body)
    assert r.status_code == 422 and words in r.json()["error"], r.text
    assert "--" not in r.json()["error"]


# ---- the terminal -----------------------------------------------------------------------

def test_interactive_plays_a_game_at_the_prompt(monkeypatch, capsys, fewer_deals):
    answers = iter(["1"] * 400)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert run(["play", "--variant", "knock", "--seat", "S", "--seed", "4", "--game",
                "--score", "8-8", "--interactive"]) == 0
    out = capsys.readouterr().out
    assert "score: NS 8, EW 8" in out and "hand 1" in out
    assert "game over: " in out and "the game: " in out and "win chance given away" in out
