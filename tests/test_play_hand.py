"""Playing a hand against the analyzer (issue 54): the hand run to each of the player's
decisions, every decision graded, the same seed the same hand; the HTTP API of the page's
"Play a hand" tab and ``euchre play --interactive``."""

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


# ---- the API: /api/play ----------------------------------------------------------------

import random  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402

from fastapi.testclient import TestClient  # noqa: E402

from analyzer.cli import run  # noqa: E402
from analyzer.questions.simulate import graded_hand  # noqa: E402
from analyzer.questions.simulate.graded_hand import (  # noqa: E402
    VERDICTS,
    GradedHand,
    verdict_of,
)
from analyzer.serve.play_store import PlayStore, UnknownHand  # noqa: E402
from analyzer.serve.routes import create_app  # noqa: E402
from tests.paths import ROOT  # noqa: E402

LOCAL = "http://127.0.0.1:8000"
# the rule sets the random hands cycle through: every variant, two house rules that add a
# decision (a lone defender), the double deck
CONFIGS = [{"variant": "knock"}, {"variant": "bid"}, {"variant": "ghost"},
           {"variant": "cutthroat"}, {"variant": "knock", "lone_defender": True},
           {"variant": "knock"}, {"variant": "bid"}, {"variant": "cutthroat"},
           {"variant": "bid", "double_deck": True}, {"variant": "ghost"}]
HANDS = 100
TEST_DEALS = 60  # a grade's deals here: the checks are of the grades' form, not their size


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), base_url=LOCAL) as c:
        yield c


@pytest.fixture
def fewer_deals(monkeypatch):
    monkeypatch.setattr(graded_hand, "GRADE_DEALS", TEST_DEALS)


def _start(client, body: dict) -> dict:
    r = client.post("/api/play", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def _act(client, key: str, action: str) -> dict:
    r = client.post(f"/api/play/{key}", json={"action": action})
    assert r.status_code == 200, r.text
    return r.json()


def _public(table: dict) -> dict:
    """A table without its id (two tables of one deal are alike but for it)."""
    return {k: v for k, v in table.items() if k not in ("id", "grade", "ungraded")}


def _check_grade(table: dict, options: list[str], action: str) -> None:
    """A grade as documented: a verdict, a cost >= 0 inside its interval, the best one of
    the options; best at no cost, never worse than good inside the noise."""
    grade = table["grade"]
    assert grade is not None, table["ungraded"]  # every decision (a ghost swap, an n-ask too)
    assert grade["verdict"] in VERDICTS and grade["best"] in options
    assert grade["low"] - 1e-9 <= grade["cost"] <= grade["high"] + 1e-9
    assert grade["cost"] >= 0 and grade["low"] >= 0
    assert grade["verdict"] == verdict_of(grade["cost"], grade["low"])
    if grade["best"] == action:
        assert grade["verdict"] == "best" and grade["cost"] == 0


def _play_randomly(client, body: dict, rnd: random.Random) -> list[tuple[dict, str, dict]]:
    """A hand played to its end by random legal actions: ``(table, action, next table)``
    for each decision."""
    table = _start(client, body)
    steps = []
    while not table["done"]:
        options = table["decision"]["options"]
        action = rnd.choice(options)
        after = _act(client, table["id"], action)
        _check_grade(after, options, action)
        assert after["decisions"][-1]["action"] == action
        steps.append((table, action, after))
        table = after
    assert "decision" not in table and set(table["points"]["points"]) == set(table["sides"])
    assert sum(sum(v.values()) for v in table["summary"].values() if isinstance(v, dict)) == \
        len(steps)
    return steps


def _replay_to(client, body: dict, steps: list, k: int) -> dict:
    """The same deal played again with the same actions up to decision ``k``: its table
    there."""
    table = _start(client, body)
    for before, action, _ in steps[:k]:
        assert _public(table) == _public(before)
        table = _act(client, table["id"], action)
    return table


def test_api_plays_100_hands_by_random_legal_actions(client, fewer_deals):
    """100 hands of every variant played through the API by random legal actions: every
    grade as documented; the same seed deals the same hand and the bots make the same
    decisions (each hand replayed to a graded decision of its own), where the best action
    is graded best at no cost."""
    rnd = random.Random(54)
    forks = decisions = 0
    for n in range(HANDS):
        body = {**CONFIGS[n % len(CONFIGS)], "seed": 1000 + n}
        body["seat"] = rnd.choice("NES" if body["variant"] in ("ghost", "cutthroat")
                                  else "NESW")
        steps = _play_randomly(client, body, rnd)
        decisions += len(steps)
        graded = [k for k, (_, action, after) in enumerate(steps)
                  if after["grade"] and after["grade"]["best"] != action]
        if not graded:
            continue
        k = rnd.choice(graded)
        before, _, after = steps[k]
        again = _replay_to(client, body, steps, k)
        assert _public(again) == _public(before)
        best = _act(client, again["id"], after["grade"]["best"])
        assert best["grade"]["verdict"] == "best" and best["grade"]["cost"] == 0, \
            (body, k, after["grade"], best["grade"])
        forks += 1
    assert decisions > 4 * HANDS and forks > HANDS // 4


def test_a_finished_hand_shows_its_points_and_every_hand(client, fewer_deals):
    steps = _play_randomly(client, {"variant": "knock", "seat": "S", "seed": 3},
                           random.Random(1))
    final = steps[-1][2]
    assert final["done"] and final["points"]["status"] == "played"
    assert len(final["hands"]) == 4 and final["decisions"][-1]["action"] == steps[-1][1]
    r = client.post(f"/api/play/{final['id']}", json={"action": steps[-1][1]})
    assert r.status_code == 422 and "the hand is over" in r.json()["error"]
    assert client.get(f"/api/play/{final['id']}").json()["done"]


def test_the_table_shows_no_other_hand_before_the_end(client):
    table = _start(client, {"variant": "knock", "seat": "E", "seed": 8})
    assert "hands" not in table and "points" not in table
    assert len(table["hand"]) == 5 and table["decision"]["options"]
    assert table["calls"] == [] or table["calls"][0]["seat"] != "E"  # bots before E only


@pytest.mark.parametrize("body, status, words", [
    ({"variant": "knock", "seat": "S", "seed": 1, "bogus": 1}, 422, "unknown field 'bogus'"),
    ({"variant": "ghost", "seat": "W", "seed": 1}, 422, "W does not play in ghost"),
    ({"variant": "knock", "seat": "S", "seed": -1}, 422, "seed"),
    ({"variant": "knock", "seat": "S", "seed": 1.5}, 422, "seed is a number"),
    ({"variant": "nope", "seat": "S"}, 422, "nope"),
    ({"variant": "knock", "seat": "S", "seed": "9" * 40}, 422, "seed"),
    ([1, 2], 422, "JSON object"),
    ({"variant": "knock", "seat": "S", "seed": "١٠"}, 422, "seed"),
    ({"variant": "knock", "seat": "S", "seed": " 5"}, 422, "seed"),
    ({"variant": "knock", "seat": "S", "seed": "9" * 5000}, 422, "seed"),
    ({"variant": "knock", "seat": "S", "stick_the_dealer": "maybe"}, 422, "stick_the_dealer"),
    ({"variant": "bid", "seat": "S", "failed_moon_points": 10**30}, 422, "failed_moon_points"),
    ({"variant": "knock", "seat": "S", "dealer": "X"}, 422, "dealer"),
])
def test_a_bad_deal_is_one_line(client, body, status, words):
    r = client.post("/api/play", json=body)
    assert r.status_code == status and words in r.json()["error"], r.text


def test_an_action_not_among_the_options_is_422_with_the_reason(client):
    table = _start(client, {"variant": "bid", "seat": "N", "seed": 2})
    for body in ({"action": "play 7Z"}, {"action": 3}, {}, {"action": "pass", "x": 1}):
        r = client.post(f"/api/play/{table['id']}", json=body)
        assert r.status_code == 422 and r.json()["error"], r.text
    r = client.post(f"/api/play/{table['id']}", json={"action": "play 7Z"})
    assert "is not one of the options: " + table["decision"]["options"][0] in r.json()["error"]
    assert client.get(f"/api/play/{table['id']}").json()["decisions"] == []  # nothing made


def test_an_unknown_or_expired_hand_is_404(client):
    for key in ("nothing", "x" * 5000):
        r = client.post(f"/api/play/{key}", json={"action": "pass"})
        assert r.status_code == 404 and "expired" in r.json()["error"]
        assert len(r.json()["error"]) < 200


def test_the_store_is_bounded_expires_and_its_ids_are_unguessable():
    hands = [GradedHand(None, 0, 0, 0) for _ in range(5)]
    store = PlayStore(max_tables=3, expire=60)
    keys = [store.add(h) for h in hands]
    assert len(store) == 3 and len(set(keys)) == 5 and all(len(k) >= 22 for k in keys)
    assert store.get(keys[4]) is hands[4]
    with pytest.raises(UnknownHand):
        store.get(keys[0])  # the oldest went first
    store.expire = -1.0  # every hand is now past its time
    with pytest.raises(UnknownHand):
        store.get(keys[4])
    assert len(store) == 0


def test_verdicts_follow_the_documented_thresholds():
    assert verdict_of(0.0, 0.0) == "best"
    assert verdict_of(0.05, 0.01) == "good"
    assert verdict_of(0.2, 0.1) == "inaccuracy" and verdict_of(0.5, 0.4) == "mistake"
    assert verdict_of(2.0, 1.5) == "blunder"
    assert verdict_of(2.0, -0.1) == "good"  # inside the noise: never worse than good


# ---- the terminal: euchre play --interactive ------------------------------------------------

def test_interactive_plays_a_hand_at_the_prompt(monkeypatch, capsys, fewer_deals):
    answers = iter(["not an option", "99"] + ["1"] * 40)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert run(["play", "--variant", "knock", "--seat", "S", "--seed", "4",
                "--interactive"]) == 0
    out = capsys.readouterr().out
    assert "error: 'not an option' is not one of the options" in out
    assert "your decisions" in out and "summary: " in out and "points: NS" in out


@pytest.mark.parametrize("argv, words", [
    (["--variant", "ghost", "--seat", "W"], "W does not play in ghost"),
    (["--variant", "knock"], "give --seat"),
    (["--variant", "knock", "--seat", "S", "--json"], "leave out --json"),
    (["--variant", "knock", "--seat", "S", "--game", "--score", "10-2"], "game is over"),
    (["--variant", "knock", "--seat", "Q"], "seat"),
])
def test_interactive_bad_input_is_one_line(capsys, argv, words):
    assert run(["play", "--interactive", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err, err


def test_interactive_input_ending_is_one_line(monkeypatch, capsys):
    def ended(prompt=""):
        raise EOFError
    monkeypatch.setattr("builtins.input", ended)
    assert run(["play", "--variant", "bid", "--seat", "N", "--interactive"]) == 2
    assert capsys.readouterr().err == "error: the input ended before the hand did\n"


def test_interactive_ctrl_c_stops_cleanly():
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "play", "--variant", "knock",
                             "--seat", "S", "--interactive"], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    seen = []
    reader = threading.Thread(target=lambda: seen.extend(iter(proc.stdout.readline, "")),
                              daemon=True)
    reader.start()
    for _ in range(1200):  # the prompt's options are printed before it waits
        if any(line.startswith("  1. ") for line in seen):
            break
        threading.Event().wait(0.1)
    proc.send_signal(signal.SIGINT)
    reader.join(timeout=60)  # the output's end: the child has finished writing
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130 and "Traceback" not in err, (proc.returncode, err)
    assert "stopped: the hand was not finished" in "".join(seen)


def test_a_double_deck_card_and_its_copy_are_one_option(fewer_deals):
    """With the double deck a hand may hold both copies of a card: playing either is the same
    play, so it is one option (the page shows one button), graded by the better copy's value:
    the best option graded best, at no cost."""
    rules = make_rules("bid", double_deck=True)
    both = 0
    for seed in range(1090, 1100):
        hand = GradedHand(rules, 0, seed, 1, deals=TEST_DEALS).start()
        while not hand.done and both < 3:
            pending = hand.decision
            options = pending.options
            assert len(set(options)) == len(options), options
            if pending.kind == "card" and pending.point is not None and \
                    len(options) < pending.state.allowed.bit_count():
                both += 1
                for action in options:
                    best = hand.grade(pending, hand.grade(pending, action)["best"])
                    assert best["verdict"] == "best" and best["cost"] == 0, (action, best)
            hand.act(options[0])
    assert both >= 1
