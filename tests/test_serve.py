"""``euchre serve``'s API in-process (FastAPI's test client): the answers against the CLI's,
hostile requests, one question at a time, progress and cancel, orphaned questions, and a
bounded load. The guard against other sites is tested over raw HTTP in test_serve_guard.py,
the page in a real browser in test_serve_page.py."""

import json
import subprocess
import sys
import threading
import time
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient

from analyzer.cli import run
from analyzer.errors import UserError
from analyzer.serve.jobs import JobRunner
from analyzer.serve.requests import Limits, odds_request_of, served_text, table_state
from analyzer.serve.routes import create_app

pytestmark = pytest.mark.serve

KNOCK = {"hand": "JS AS KS 9H TD", "variant": "knock", "upcard": "QS", "seat": "E",
         "dealer": "N", "deals": "3000", "seed": "5", "others": "points"}
LOCAL = "http://127.0.0.1:8000"
MID_PLAY = {"hand": "AS KS TD QD", "variant": "knock", "upcard": "QS", "seat": "W",
            "dealer": "N", "auction": "E pass, S pass, W pass, N pick up",
            "played": "E 9C, S 9D, W 9H, N AC; N KC, E QC, S AD", "deals": "100"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Limits(max_deals=300_000)), base_url=LOCAL) as c:
        yield c


def _cli_json(capsys, argv) -> dict:
    capsys.readouterr()
    assert run(argv) == 0
    return json.loads(capsys.readouterr().out)


def _without_time(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "seconds"}


@pytest.mark.parametrize("params, argv", [
    ({**KNOCK, "auction": "", "stick_the_dealer": "false"},
     ["JS", "AS", "KS", "9H", "TD", "--variant", "knock", "--upcard", "QS", "--seat", "E",
      "--dealer", "N", "--no-stick-the-dealer"]),
    # the page's most common question: after calls were heard (it failed on the page)
    ({**KNOCK, "seat": "N", "auction": "E pass, S pass, W pass"},
     ["JS", "AS", "KS", "9H", "TD", "--variant", "knock", "--upcard", "QS", "--seat", "N",
      "--dealer", "N", "--auction", "E pass, S pass, W pass"]),
    # in the middle of the hand (issue 42): a card to play after the first trick
    ({**KNOCK, "hand": "AS KS 9H TD", "seat": "S", "dealer": "W",
      "auction": "N pass, E pass, S order", "played": "N 9C, E TC, S JC, W AC"},
     ["AS", "KS", "9H", "TD", "--variant", "knock", "--upcard", "QS", "--seat", "S",
      "--dealer", "W", "--auction", "N pass, E pass, S order", "--played",
      "N 9C, E TC, S JC, W AC"]),
])
def test_api_odds_equals_the_cli_for_the_same_question_and_seed(client, capsys, params, argv):
    got = client.get("/api/odds", params=params)
    assert got.status_code == 200, got.text
    cli = _cli_json(capsys, ["odds", *argv, "--deals", "3000", "--seed", "5", "--others",
                             "points", "--json"])
    # the same object, its notes naming the fields in the server's words, not as flags
    worded = {k: [served_text(n) for n in v] if k in ("notes", "inferred") else v
              for k, v in cli.items()}
    assert _without_time(got.json()) == _without_time(worded)
    assert got.json()["best"]["sentence"]


def test_the_discards_parameter_plays_every_detail_as_the_clis_flag():
    base = {"variant": "bid", "hand": "JH AH KH QD 9S TC"}
    assert odds_request_of({**base, "discards": "true"}, Limits()).all_details is True
    assert odds_request_of(base, Limits()).all_details is False


def test_the_calls_offered_are_the_engines_legal_calls(client):
    t = client.get("/api/table", params={"variant": "knock", "seat": "N", "dealer": "N",
                                         "upcard": "QS", "auction": "E pass, S pass"}).json()
    assert (t["turn"], t["your_turn"]) == ("W", False)
    assert t["calls"] == ["pass", "order", "order alone"]
    # round 2: the turned-down suit cannot be named (unless the house rule allows it)
    r2 = {"variant": "knock", "seat": "E", "dealer": "N", "upcard": "QS",
          "auction": "E pass, S pass, W pass, N pass"}
    assert "name S" not in table_state(r2)["calls"]
    assert "name S" in table_state({**r2, "name_turned_down": "true"})["calls"]
    bid = table_state({"variant": "bid", "seat": "S", "dealer": "W", "auction": "N 4"})
    assert bid["turn"] == "E" and "3" not in bid["calls"] and "5" in bid["calls"]
    assert len(table_state({"variant": "bid", "double_deck": "true"})["deck"]) == 48
    bad = client.get("/api/table", params={"variant": "knock", "seat": "N", "dealer": "N",
                                           "upcard": "QS", "auction": "E order, S pass"})
    assert bad.status_code == 422 and "error" in bad.json()


def test_the_table_says_each_call_as_the_answers_do():
    """Issue 51: the page said "name C alone" where the answers say "name alone C", and the
    dealer's lone pick-up read "W order alone". The calls offered, the calls heard and the
    contract are in the answers' words (their value stays the calls heard's notation)."""
    t = table_state({"variant": "knock", "seat": "N", "dealer": "W", "upcard": "QS",
                     "auction": "N pass, E pass, S pass"})
    assert t["turn"] == "W" and t["calls"] == ["pass", "order", "order alone"]
    assert t["call_words"] == ["pass", "pick it up S", "pick it up alone S"]
    assert t["heard"] == ["N pass", "E pass", "S pass"]
    lone = table_state({"variant": "knock", "seat": "N", "dealer": "W", "upcard": "QS",
                        "auction": "N pass, E pass, S pass, W order alone",
                        "dealt": "AS KS 9H TD JC"})
    assert lone["heard"][-1] == "W pick it up alone S"
    assert lone["play"]["contract"]["text"] == "W pick it up alone, trump spades"
    named = table_state({"variant": "knock", "seat": "N", "dealer": "W", "upcard": "QS",
                         "auction": "N pass, E pass, S pass, W pass, N pass, E name C alone"})
    assert named["heard"][-1] == "E name alone C"
    bid = table_state({"variant": "bid", "seat": "S", "dealer": "W", "auction": "N 3, E 4"})
    assert bid["heard"] == ["N bid 3", "E bid 4"] and "bid 5" in bid["call_words"]


def test_the_servers_words_name_its_own_fields_not_the_command_lines_flags(client):
    """Issue 51: the page showed "--score '11-3': the game is over" and "--all-calls plays
    every one": the server's errors and notes name a field as the page and the API do."""
    got = client.get("/api/odds", params={**KNOCK, "score": "11-3"})
    assert got.status_code == 422
    assert got.json()["error"].startswith("the score '11-3': the game is over")
    answer = client.get("/api/odds", params={**KNOCK, "deals": "3000"}).json()
    dropped = [n for n in answer["notes"] if "stopped being played" in n]
    assert dropped and "all_calls=true" in dropped[0]
    assert not [n for n in answer["notes"] + answer["inferred"] if "--" in n]
    assert "--" not in json.dumps(client.get("/api/spec").json())
    assert served_text("*: ... (--all-calls plays every one; --no-infer deals any; "
                       "--tremble 0; add --joker)") == (
        '*: ... (all_calls=true plays every one; infer=false deals any; tremble 0; add '
        '"joker")')


def test_the_table_says_the_rules_in_force_and_the_dealers_discard():
    """The form's number boxes show the rule in force (a double deck's failed moon costs 12,
    the box said 6); ordered up, the dealer's decision is the discard."""
    assert table_state({"variant": "bid", "double_deck": "true"})["rules"][
        "failed_moon_points"] == 12
    assert table_state({"variant": "bid"})["rules"]["failed_moon_points"] == 6
    t = table_state({"variant": "knock", "seat": "N", "dealer": "N", "upcard": "AD",
                     "auction": "E pass, S order"})
    assert t["your_turn"] and t["decision"] == "discard" and t["calls"] == []


ORDERED = {"variant": "knock", "seat": "S", "dealer": "W", "upcard": "QS",
           "auction": "N pass, E pass, S order", "dealt": "AS KS 9H TD JC"}


def _table(client, **params) -> dict:
    got = client.get("/api/table", params={**ORDERED, **params})
    assert got.status_code == 200, got.text
    return got.json()


def test_the_table_says_whose_turn_it_is_in_the_play_and_the_cards_it_may_play(client):
    """After the calls, the engine says the contract, whose turn it is to play and what that
    seat may play: the player its legal cards (following suit, the left bower a trump), any
    other seat the cards it may hold (unseen, less the suits it showed out of; the upcard
    only for the dealer who took it)."""
    t = _table(client)
    assert (t["phase"], t["turn"], t["your_turn"], t["decision"]) == ("play", "N", False, "card")
    play = t["play"]
    assert play["contract"] == {"maker": "S", "call": "order", "alone": False, "trump": "S",
                                "text": "S order up, trump spades"}
    assert play["held"] == play["dealt"] == "AS KS 9H TD JC" and play["tricks"] == []
    deck = {c["text"] for c in t["deck"]}
    assert set(play["cards"]) == deck - {"AS", "KS", "9H", "TD", "JC", "QS"}
    t = _table(client, played="N 9C, E TC")
    assert (t["turn"], t["your_turn"]) == ("S", True)
    assert set(t["play"]["cards"]) == {"AS", "KS", "9H", "TD", "JC"}  # JC is a spade now
    assert _table(client, played="N AH, E KH")["play"]["cards"] == ["9H"]  # follow suit
    t = _table(client, played="N 9C, E TC, S JC")
    assert t["turn"] == "W" and "QS" in t["play"]["cards"]  # the dealer took the upcard
    assert not {"9C", "TC", "JC", "AS"} & set(t["play"]["cards"])
    # E shows out of clubs in trick 1: from then on E is offered no club
    t = _table(client, played="N 9C, E 9D, S JC, W AC; S 9H, W TH, N KH")
    assert t["turn"] == "E" and t["play"]["held"] == "AS KS TD"
    assert t["play"]["tricks"][0]["winner"] == "S" and t["play"]["tricks"][1]["winner"] is None
    assert t["play"]["played"] == "N 9C, E 9D, S JC, W AC; S 9H, W TH, N KH"
    assert t["play"]["cards"] and not [c for c in t["play"]["cards"] if c.endswith("C")]
    assert "AH" in t["play"]["cards"] and "QS" not in t["play"]["cards"]
    # the hand held now (a shared link) gives the same, and the hand as dealt
    same = _table(client, dealt=None, hand="AS KS TD",
                  played="N 9C, E 9D, S JC, W AC; S 9H, W TH, N KH")
    assert same["play"] == t["play"]


def test_the_dealers_discard_then_the_play(client):
    dealer = {"seat": "N", "dealer": "N", "auction": "E pass, S order", "dealt": "JS AS KS 9H TD"}
    t = _table(client, **dealer)
    assert (t["your_turn"], t["decision"]) == (True, "discard")
    assert set(t["play"]["cards"]) == {"JS", "AS", "KS", "QS", "9H", "TD"}
    assert t["play"]["held"] == "AS KS QS JS 9H TD"
    t = _table(client, **dealer, discarded="9H", played="E AD, S KD, W QD")
    assert (t["turn"], t["your_turn"], t["decision"]) == ("N", True, "card")
    assert t["play"]["cards"] == ["TD"] and t["play"]["discarded"] == "9H"
    t = _table(client, **dealer, discarded="9H", played="E AH, S KH, W QH")
    assert set(t["play"]["cards"]) == {"JS", "AS", "KS", "QS", "TD"}
    # an ordered-up dealer's question is the six cards
    got = client.get("/api/odds", params={**KNOCK, "seat": "N", "auction": "E pass, S order",
                                          "hand": t["play"]["held"], "deals": "200",
                                          "discarded": "9H", "played": "E AH, S KH, W QH"})
    assert got.status_code == 200, got.text
    assert sorted(o["label"] for o in got.json()["options"]) == \
        ["play AS", "play JS", "play KS", "play QS", "play TD"]


def test_a_bids_play_starts_with_the_trump_named(client):
    bid = {"variant": "bid", "seat": "S", "dealer": "W", "auction": "N 3, E 4, S pass, W pass",
           "dealt": "AS KS 9H TD JC QC"}
    t = table_state(bid)
    assert t["play"]["need_trump"] and t["turn"] == "E" and t["play"]["cards"] == []
    lead = table_state({**bid, "auction": "N pass, E pass, S 4, W pass", "trump": "C"})
    assert lead["your_turn"] and len(lead["play"]["cards"]) == 6
    asked = client.get("/api/odds", params={"variant": "bid", "seat": "S", "dealer": "W",
                                            "auction": "N pass, E pass, S 4, W pass",
                                            "trump": "C", "hand": "AS KS 9H TD JC QC",
                                            "deals": "100"})
    assert asked.status_code == 200 and asked.json()["decision"] == "card", asked.text
    t = table_state({**bid, "trump": "H", "played": "E AH"})
    assert t["turn"] == "S" and t["play"]["cards"] == ["9H"]
    assert t["play"]["contract"]["text"] == "E bid 4, trump hearts"


@pytest.mark.parametrize("params, words", [
    ({"played": "N 9C, E 9C"}, "played once"),
    ({"played": "N 9C, S JC"}, "it is E's turn"),
    ({"played": "N AD, E KD, S AS"}, "renege"),
    ({"hand": "AS KS 9H TD JC"}, "not both"),
    ({"dealt": "AS KS 9H TD QS"}, "upcard"),
    ({"played": "N XX"}, "XX"),
])
def test_bad_play_on_the_table_gets_422_and_one_line(client, params, words):
    got = client.get("/api/table", params={**ORDERED, **params})
    assert got.status_code == 422, got.text
    error = got.json()["error"]
    assert words.lower() in error.lower() and "\n" not in error


def _opened(monkeypatch) -> list:
    """The decision points the engine opens from now on: every run of the kernel that plays
    a forced record up to a decision (``compute.point``'s one trip down), as its arrays."""
    import analyzer.compute.point as point

    runs, run = [], point.point_state

    def counted(rules, hm, rec, ins, engine):
        runs.append((hm.tobytes(), rec.tobytes(), ins.tobytes()))
        return run(rules, hm, rec, ins, engine)
    monkeypatch.setattr(point, "point_state", counted)
    return runs


@pytest.mark.parametrize("params", [
    {"variant": "knock", "seat": "N", "dealer": "N", "upcard": "QS", "auction": "E pass"},
    {"variant": "knock", "seat": "N", "dealer": "N", "upcard": "QS",
     "auction": "E pass, S pass, W pass"},
    {"variant": "bid", "seat": "S", "dealer": "W", "auction": "N 4"},
    {"variant": "knock", "seat": "N", "dealer": "N", "upcard": "AD", "auction": "E pass, S order"},
    ORDERED,
    {**ORDERED, "dealt": "AS KS 9H"},
    {**ORDERED, "played": "N 9C, E TC"},
    {**ORDERED, "played": "N 9C, E 9D, S JC, W AC; S 9H, W TH, N KH"},
    {"variant": "bid", "seat": "S", "dealer": "W", "auction": "N pass, E pass, S 4, W pass",
     "dealt": "AS KS 9H TD JC QC", "trump": "C"},
    {"variant": "bid", "seat": "S", "dealer": "W", "auction": "N 3, E 4, S pass, W pass",
     "dealt": "AS KS 9H TD JC QC"},
], ids=["your-call", "another-call", "bid", "discard", "lead", "hand-short", "your-card",
        "another-card", "bid-lead", "need-trump"])
def test_a_table_request_opens_its_point_once(monkeypatch, params):
    """Issue 52: the page's server opened one request's point up to three times (whose turn
    it is, that seat's calls, then the play) and a fourth for another seat's cards. It opens
    it once and reads whose turn it is, the decision's kind and the options from that run."""
    runs = _opened(monkeypatch)
    table_state(params)
    assert len(runs) == 1


def test_an_odds_request_is_read_and_opened_once(client, monkeypatch):
    """Issue 52: the server checked a question (its text read, the score to a tuple, its
    point opened) before it waited for its turn, then asked it from its text again: read
    twice, opened twice. The checked question itself is what the job answers."""
    import analyzer.questions.odds.answer as answer

    runs, reads, read = _opened(monkeypatch), [], answer.parse_score
    monkeypatch.setattr(answer, "parse_score", lambda *a: reads.append(a) or read(*a))
    got = client.get("/api/odds", params={**KNOCK, "score": "6-8", "deals": "200"})
    assert got.status_code == 200, got.text
    assert got.json()["score"] == "6-8"
    assert len(runs) == 1 and len(reads) == 1


def test_practice_opens_each_position_once(monkeypatch):
    """Issue 52: practice opened each card position it looked at to check it, then again to
    price it from its text. Each is read and opened once."""
    from analyzer.serve.practice import practice_position

    runs = _opened(monkeypatch)
    practice_position({"variant": "knock", "seat": "S", "seed": "2024", "decisions": "play",
                       "n": "0"})
    assert runs and len(set(runs)) == len(runs)


def test_practice_deals_the_play_as_well():
    """Practice deals the dealer's discard and cards as the engine played them, each the
    same for the same link; a link without ``decisions`` deals calls as before."""
    from analyzer.serve.practice import practice_position

    link = {"variant": "knock", "seat": "S", "seed": "2024", "decisions": "play"}
    kinds = []
    for n in range(3):
        pos = practice_position({**link, "n": str(n)})
        assert pos == practice_position({**link, "n": str(n)})
        kinds.append(pos["decision"])
        # the position is a question the engine opens at the player's turn
        t = table_state({k: v for k, v in pos.items() if k in ("variant", "seat", "dealer",
                         "upcard", "auction", "hand", "played", "discarded") and v})
        assert t["your_turn"] and t["decision"] == pos["decision"]
        assert len(t["play"]["cards"]) > 1
    assert kinds == ["card", "discard", "card"]
    assert practice_position({**link, "n": "0", "decisions": "calls"})["decision"] == "call"
    with pytest.raises(UserError, match="decisions must be"):
        practice_position({**link, "n": "0", "decisions": "cards"})


@pytest.mark.parametrize("params, words", [
    ({**KNOCK, "hand": "JS AS"}, "the hand has 2 cards"),
    ({**KNOCK, "hand": "JS AS KS 9H XX"}, "XX"),
    ({**KNOCK, "deals": "10000000"}, "deals must be between"),
    ({**KNOCK, "deals": "many"}, "whole number"),
    ({**KNOCK, "deals": "١٠٠"}, "whole number"),  # int() reads Arabic-Indic digits
    ({**KNOCK, "deals": "1_000"}, "whole number"),  # ... and underscores
    ({**KNOCK, "seed": "9223372036854775808"}, "seed must be at most"),  # was HTTP 500
    ({**KNOCK, "seed": "-1"}, "whole number"),
    ({**KNOCK, "tremble": "nan"}, "must be a number"),
    ({**KNOCK, "worlds": "5000"}, "worlds must be between"),
    ({**KNOCK, "method": "pimc", "worlds": "1000", "deals": "200000"}, "more than this server"),
    ({**KNOCK, "others": "/etc/passwd.toml"}, "others must be one of"),  # never a server path
    ({**KNOCK, "others": "../x.toml"}, "others must be one of"),
    ({**KNOCK, "precision": "0.01"}, "not offered"),
    ({**KNOCK, "bogus": "1"}, "unknown parameter"),
    ({**KNOCK, "variant": "rook"}, "rook"),
    ({**KNOCK, "joker": "maybe"}, "true or false"),
    ({**KNOCK, "auction": "E fly"}, "auction"),
    ({k: v for k, v in KNOCK.items() if k != "hand"}, "hand is required"),
    ({**KNOCK, "score": "10-6"}, "the game is over"),  # issue 43: the score
    ({**KNOCK, "score": "-1-3"}, "cannot be negative"),
    ({**KNOCK, "score": "9-6-7"}, "keeps 2 scores"),
    ({**KNOCK, "score": "lots"}, "US-THEM"),
    # the play so far (issue 42): W holds AS KS TD QD after N picked up QS
    ({**MID_PLAY, "played": "E 9C, S 9C"}, "played once"),  # a card played twice
    ({**MID_PLAY, "played": "E AS"}, "played once"),  # in the hand and played
    ({**MID_PLAY, "played": "E 9C, W 9H"}, "it is S's turn"),
    ({**MID_PLAY, "played": "E 9C, S 9D, W 9H, N AC; N KC, E QC, S TC"}, "renege"),
    ({**MID_PLAY, "played": "E 9C, S TC, W 9H, N AC, E KC"}, "trick 1 has 5 cards"),
    ({**MID_PLAY, "auction": "E pass, S pass"}, "auction is not complete"),
    ({**MID_PLAY, "dummy": "TS JS TH JH QH"}, "cutthroat dummy"),
])
def test_hostile_odds_requests_get_422_and_one_line(client, params, words):
    got = client.get("/api/odds", params=params)
    assert got.status_code == 422, got.text
    error = got.json()["error"]
    assert words.lower() in error.lower() and "\n" not in error and "Traceback" not in error


def test_a_strategy_file_comes_only_from_the_folder_given_at_start(tmp_path):
    from analyzer.strategy.toml_files import strategy_text

    (tmp_path / "mine.toml").write_text(strategy_text())
    limits = Limits(strategies=tmp_path)
    assert limits.strategy("mine.toml") == str(tmp_path / "mine.toml")
    assert limits.strategy("euchrestrategy-info.toml").endswith("euchrestrategy-info.toml")
    with TestClient(create_app(limits), base_url=LOCAL) as c:
        names = [s["value"] for s in c.get("/api/spec").json()["strategies"]]
        assert "mine.toml" in names and "analyzer" in names
        ok = c.get("/api/odds", params={**KNOCK, "deals": "200", "others": "mine.toml"})
        assert ok.status_code == 200 and ok.json()["others"].endswith("mine.toml")
        gone = c.get("/api/odds", params={**KNOCK, "others": str(tmp_path / "mine.toml")})
        assert gone.status_code == 422 and str(tmp_path) not in gone.json()["error"]


@pytest.mark.parametrize("body, words", [
    (b"not json", "not JSON"),
    (b"[1, 2]", "JSON object"),
    (b'{"record": 5}', "JSON object"),
    (b'{"record": {"variant": "knock"}}', ""),
    (b'{"record": "{}", "seed": -1}', ""),
    (b'{"record": {}, "seed": 9223372036854775808}', "seed"),
    (b'{"record": {}, "hack": 1}', "unknown field"),
    (b'{"record": {}, "others": "/etc/x.toml"}', "others must be one of"),
    (b"[" * 100_000, "nested too deeply"),  # was HTTP 500 (RecursionError)
    (b'{"record": ' + b"[" * 500 + b"]" * 500 + b"}", "nested too deeply"),
    (b'{"record": "' + b"[" * 5000 + b'"}', ""),
])
def test_hostile_review_bodies_get_422(client, body, words):
    got = client.post("/api/review", content=body, headers={"content-type": "application/json"})
    assert got.status_code == 422, got.text
    assert words in got.json()["error"]


def test_bodies_over_the_limit_are_413_however_they_are_sent(client):
    big = b"x" * (2 << 20)
    assert client.post("/api/review", content=big).status_code == 413

    def chunks():  # no Content-Length: the body arrives in pieces (it answered 422)
        for _ in range(10):
            yield b"x" * (1 << 20)
    got = client.post("/api/review", content=chunks(),
                      headers={"content-type": "application/json"})
    assert got.status_code == 413 and "over" in got.json()["error"]


def test_review_endpoint_equals_the_cli(client, capsys, tmp_path):
    record = subprocess.run([sys.executable, "-m", "analyzer", "play", "--variant", "knock",
                             "--seed", "3", "--json"], capture_output=True, text=True,
                            check=True).stdout.splitlines()[0]
    path = tmp_path / "hand.json"
    path.write_text(record)
    got = client.post("/api/review", json={"record": record, "call_deals": 200,
                                           "others": "points"})
    assert got.status_code == 200, got.text
    cli = _cli_json(capsys, ["review", str(path), "--call-deals", "200", "--others", "points",
                             "--json"])
    assert got.json() == cli and got.json()["decisions"]


def test_review_reads_an_indented_record_and_a_file_of_several(client):
    """Issue 51: the page sent the first line of a pasted record: the docs' indented example
    was "not valid JSON". The whole text goes, read as euchre review reads a file: one
    record on one line or indented, or several (``which`` picks one)."""
    from tests.paths import RECORDS

    indented = (RECORDS / "knock_misplay.json").read_text()
    one = client.post("/api/review", json={"record": indented, "call_deals": 100,
                                           "others": "points"})
    assert one.status_code == 200, one.text
    assert one.json()["declarer"] == "E" and "records" not in one.json()
    line = json.dumps(json.loads(indented))
    several = "\n".join([line, indented, ""])  # one a line, then one indented
    second = client.post("/api/review", json={"record": several, "which": 2,
                                              "call_deals": 100, "others": "points"})
    assert second.status_code == 200, second.text
    assert (second.json()["records"], second.json()["which"]) == (2, 2)
    assert {k: v for k, v in second.json().items() if k not in ("records", "which")} == \
        one.json()
    for which, words in ((3, "from 1 to 2"), (0, "from 1 to 2"), ("2", "whole number")):
        bad = client.post("/api/review", json={"record": several, "which": which})
        assert bad.status_code == 422 and words in bad.json()["error"], bad.text
    broken = client.post("/api/review", json={"record": line + "\n{not json\n", "which": 2})
    assert broken.status_code == 422 and broken.json()["error"].startswith("record 2 of 2")


def test_a_long_question_reports_progress_cancels_and_keeps_the_estimate(client):
    params = {**KNOCK, "variant": "bid", "hand": "JH JD AH KH QH 9S", "deals": "300000",
              "upcard": "", "seat": "N", "dealer": "W"}
    started = client.post("/api/jobs/odds?" + urlencode(params))
    assert started.status_code == 202, started.text
    job = started.json()["id"]
    assert started.json()["total"] == 300_000  # known at once: the page showed '0 / 0'
    busy = client.post("/api/jobs/odds?" + urlencode(KNOCK))
    assert busy.status_code == 409 and "another question" in busy.json()["error"]
    assert int(busy.headers["Retry-After"]) >= 1
    assert "JH" not in busy.json()["error"]  # another person's cards are not shown
    running = client.get("/api/jobs").json()["running"]
    assert running["label"] == "a bid question" and "hand" not in running
    deadline = time.monotonic() + 120
    while client.get(f"/api/jobs/{job}").json()["seconds_left"] is None:  # a second's pace
        assert time.monotonic() < deadline
        time.sleep(0.1)
    status = client.get(f"/api/jobs/{job}").json()
    assert status["total"] == 300_000 and status["seconds_left"] > 0 and status["done"] > 0
    client.delete(f"/api/jobs/{job}")
    while (status := client.get(f"/api/jobs/{job}").json())["state"] == "running":
        time.sleep(0.1)
    assert status["state"] == "cancelled"
    result = status["result"]
    assert result["interrupted"] and 0 < result["deals"] < 300_000
    assert any("interrupted" in n for n in result["notes"])
    assert client.get("/api/jobs/nope").status_code == 404


def test_a_bad_question_is_refused_at_once_while_another_runs(client):
    """Issue 51: a wrong-turn question got 409 after waiting 10 s for the running one, a
    'ZZ' card its 422 after 9 s. The question is checked (its point opened) before it
    queues: 422 at once, and the running question runs on."""
    params = {**KNOCK, "variant": "bid", "hand": "JH JD AH KH QH 9S", "deals": "300000",
              "upcard": "", "seat": "N", "dealer": "W"}
    job = client.post("/api/jobs/odds?" + urlencode(params)).json()["id"]
    try:
        for bad, words in (({**KNOCK, "seat": "S"}, "turn"),  # E speaks first, not S
                           ({**KNOCK, "hand": "JS AS KS 9H ZZ"}, "ZZ")):
            for method, path in (("GET", "/api/odds"), ("POST", "/api/jobs/odds")):
                started = time.monotonic()
                got = client.request(method, path + "?" + urlencode(bad))
                took = time.monotonic() - started
                assert got.status_code == 422 and words in got.json()["error"], got.text
                assert took < 3, f"{method} {path} waited {took:.1f} s"
        assert client.get(f"/api/jobs/{job}").json()["state"] == "running"
    finally:
        client.delete(f"/api/jobs/{job}")
        deadline = time.monotonic() + 30
        while client.get(f"/api/jobs/{job}").json()["state"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.1)


def test_anyone_can_cancel_the_running_question(client):
    """After a reload the page no longer knows its question's id: it sees the question
    running and cancels it (the page was locked until the question ended)."""
    params = {**KNOCK, "variant": "bid", "hand": "JH JD AH KH QH 9S", "deals": "300000",
              "upcard": "", "seat": "N", "dealer": "W"}
    job = client.post("/api/jobs/odds?" + urlencode(params)).json()["id"]
    cancelled = client.delete("/api/jobs/running")
    assert cancelled.status_code == 200
    deadline = time.monotonic() + 30
    while client.get(f"/api/jobs/{job}").json()["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert client.get("/api/jobs").json()["running"] is None
    assert client.delete("/api/jobs/running").status_code == 404


def test_a_question_nobody_polls_is_cancelled_and_finished_ones_are_forgotten():
    """A tab closed with its question running: nobody polls it, so it stops at its next
    piece and frees the server; finished questions expire, so memory stays bounded."""
    from analyzer.compute.runner import run_chunks

    runner = JobRunner(orphan_seconds=0.5, keep_seconds=0.5)

    def work():
        totals = run_chunks(10_000, lambda first, n: (time.sleep(0.05), {"x": n})[1],
                            chunk=16, progress=False)
        return {"done": totals.done, "interrupted": totals.interrupted}

    job = runner.start("a test question", work)
    assert job.finished.wait(30), "an orphaned question ran on"
    assert job.state == "cancelled" and job.result["interrupted"]
    watched = runner.start("another", lambda: {"ok": True})
    assert watched.finished.wait(10) and runner.get(watched.id) is watched
    time.sleep(0.7)
    assert runner.get(watched.id) is None and runner.get(job.id) is None


def test_many_clients_at_once_get_answers_or_a_clear_busy(client):
    """The load test of docs/serve.md, bounded: 10 clients, 50 questions on loopback. Each
    request waits its turn (up to 10 s) and is answered, or is told 409 with Retry-After;
    nothing else, and nothing is left running or remembered beyond the bound."""
    results, lock = [], threading.Lock()
    question = {**KNOCK, "deals": "2000"}

    def one_client(k):
        for i in range(5):
            started = time.perf_counter()
            got = client.get("/api/odds", params={**question, "seed": str(10 * k + i)})
            with lock:
                results.append((got.status_code, time.perf_counter() - started,
                                got.headers.get("Retry-After")))

    threads = [threading.Thread(target=one_client, args=(k,)) for k in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert len(results) == 50
    assert all(code == 200 or (code == 409 and retry) for code, _, retry in results), results
    assert sum(code == 200 for code, _, _ in results) >= 25
    assert client.get("/api/jobs").json()["running"] is None
