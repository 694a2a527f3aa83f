"""Hostile input, for every command: generated malformed cards, hands, deals, auctions,
records, hand files and option values are run through the CLI entry point in-process, and
each must give exit code 2, exactly one ``error:`` line, no traceback, and leave nothing under
the output path. The slow suite runs ten times as many cases."""

import contextlib
import io
import json
import os
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cli import run

pytestmark = pytest.mark.cli

SLOW = os.environ.get("EUCHRE_HOSTILE_SLOW") == "1"
SCALE = 10 if SLOW else 1

KNOCK_HAND = ["AH", "JH", "KD", "QD", "JD"]
BID_HAND = ["JH", "JD", "AH", "KH", "QH", "9S"]
RECORD = {"variant": "knock", "dealer": "N",
          "hands": {"N": "9S KH QH 9H 9C", "E": "AS JS TH KD QC", "S": "KS AD QD 9D AC",
                    "W": "TS AH JD KC JC"},
          "upcard": "QS", "kitty": "JH TD TC",
          "auction": ["E pass", "S pass", "W pass", "N pass", "E name C"], "trump": "C",
          "tricks": ["AS KS TS 9S", "KD AD JD 9H", "QD KC QH TH", "JC 9C QC AC",
                     "AH KH JS 9D"]}
DEAL = "N: JH JD AH KH QH / E: 9D TD QD KD AD / S: 9C TC JC QC KC / W: 9S TS JS QS KS"

# text that can never be a card, a seat, a suit, a variant or a number: it starts with "zq"
junk = st.text(alphabet="xyzq!?#%&~*", min_size=0, max_size=12).map(lambda s: "zq" + s)


def run_cli(args: list[str]) -> tuple[int, str, str]:
    """Run the CLI in-process; ``(exit code, stdout, stderr)``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = run(args)
        except SystemExit as e:  # never expected: run() returns codes
            code = f"SystemExit({e.code})"
    return code, out.getvalue(), err.getvalue()


def assert_one_error(args: list[str], out_path: Path | None = None) -> str:
    """The command fails as a user error should; returns the error line."""
    code, out, err = run_cli(args)
    assert "Traceback" not in err + out, (args, err[-800:])
    assert code == 2, (args, code, err[-400:])
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, (args, err)
    if out_path is not None:
        assert not out_path.exists(), (args, "created", out_path)
    return errors[0]


# ---------------------------------------------------------------------------- generators

def _mutate_hand(cards: list[str], draw) -> list[str]:
    cards = list(cards)
    kind = draw(st.sampled_from(["junk", "twice", "short", "long"]))
    i = draw(st.integers(0, len(cards) - 1))
    if kind == "junk":
        cards[i] = draw(junk)
    elif kind == "twice":
        cards[i] = cards[(i + 1) % len(cards)]
    elif kind == "short":
        del cards[i]
    else:
        cards.append(draw(st.sampled_from(["TS", "9S", "QS", "KS", "AS", "TC"])))
        cards.append(draw(st.sampled_from(["9C", "QC", "KC", "AC"])))
    return cards


@st.composite
def odds_args(draw):
    """An odds question with one thing wrong."""
    bid = draw(st.booleans())
    hand = BID_HAND if bid else KNOCK_HAND
    base = ["odds", *hand, "--variant", "bid" if bid else "knock", "--deals", "100"]
    if not bid:
        base += ["--upcard", "9H", "--seat", "E", "--dealer", "N"]
    what = draw(st.sampled_from(["hand", "option", "value", "flag", "auction", "upcard",
                                 "given", "score"]))
    if what == "hand":
        return ["odds", *_mutate_hand(hand, draw), *base[1 + len(hand):]]
    if what == "option":
        return base + [draw(st.sampled_from(["--seat", "--dealer", "--trump", "--variant",
                                             "--method", "--others", "--bid"])), draw(junk)]
    if what == "value":
        return base + [draw(st.sampled_from(["--deals", "--seed", "--precision", "--workers",
                                             "--worlds"])),
                       draw(st.sampled_from(["-5", "0x", "", "1e999", "nan", "-1"])
                            | junk)]
    if what == "flag":
        return base + ["--" + draw(junk)]
    if what == "auction":
        return base + ["--auction", draw(st.sampled_from(["N ", "E ", "W 4, "])) + draw(junk)]
    if what == "score":  # above the target, negative in knock, malformed, too many scores
        bad = ["10-6", "99-0", "33-40", "-2-5", "9-6-7", "9:6:7:1", "nine-six", "9-", "-"] if \
            not bid else ["32-20", "40-39", "9-6-7", "x-1", "9", "- -"]
        return base + ["--score", draw(st.sampled_from(bad) | junk)]
    if what == "upcard":
        return [*base, "--upcard", draw(st.sampled_from(hand) | junk)] if not bid else \
            [*base, "--upcard", "9H"]
    return base + ["--given", draw(st.sampled_from(["S: has ", "W: ", "Q: has AH", "E: has "]))
                   + draw(junk)]


MID_HAND = ["AS", "KS", "TD", "QD"]  # W's, after N picked up QS: W's turn in trick 2
MID_TRICKS = [["E 9C", "S 9D", "W 9H", "N AC"], ["N KC", "E QC", "S AD"]]


@st.composite
def played_args(draw):
    """An odds question in the play with one thing wrong in the play so far: a card twice,
    a card both held and played, a renege, a seat out of turn, a trick too long, the auction
    incomplete, junk for a card, a seat or the put-away cards, a dummy outside cutthroat."""
    tricks = [list(t) for t in MID_TRICKS]
    auction = "E pass, S pass, W pass, N pick up"
    extra: list[str] = []
    what = draw(st.sampled_from(["twice", "held", "renege", "turn", "long", "auction",
                                 "card", "seat", "discarded", "dummy"]))
    t = draw(st.integers(0, 1))
    i = draw(st.integers(0, len(tricks[t]) - 1))
    seat, card = tricks[t][i].split()
    if what == "twice":
        others = [p.split()[1] for tr in tricks for p in tr if p.split()[1] != card]
        tricks[t][i] = f"{seat} {draw(st.sampled_from(others))}"
    elif what == "held":
        tricks[t][i] = f"{seat} {draw(st.sampled_from(MID_HAND))}"
    elif what == "renege":
        tricks[1][2] = f"S {draw(st.sampled_from(['TC', '9C']))}"  # S showed out of clubs
    elif what == "turn":
        a = draw(st.integers(0, 1))
        tricks[1][a], tricks[1][a + 1] = tricks[1][a + 1], tricks[1][a]
    elif what == "long":
        tricks[0].append(draw(st.sampled_from(["E TC", "S KH", "N 9S"])))
    elif what == "auction":
        auction = draw(st.sampled_from(["E pass, S pass", "", "E pass"]))
    elif what == "card":
        tricks[t][i] = f"{seat} {draw(junk)}"
    elif what == "seat":
        tricks[t][i] = f"{draw(junk)} {card}"
    elif what == "discarded":
        extra = ["--discarded", draw(junk | st.sampled_from(["9H", "AS", "QS KH"]))]
    else:
        extra = ["--dummy", draw(junk | st.just("9C TC QC KH AD"))]
    played = "; ".join(", ".join(tr) for tr in tricks)
    return ["odds", *MID_HAND, "--variant", "knock", "--upcard", "QS", "--seat", "W",
            "--dealer", "N", "--auction", auction, "--played", played, "--deals", "100",
            *extra]


@st.composite
def record_text(draw):
    """A recorded hand as text with one thing wrong."""
    rec = json.loads(json.dumps(RECORD))
    what = draw(st.sampled_from(["drop", "type", "card", "twice", "truncate", "seat",
                                 "call", "variant", "binary"]))
    if what == "drop":
        del rec[draw(st.sampled_from(["variant", "hands", "tricks", "auction", "dealer"]))]
    elif what == "type":
        rec[draw(st.sampled_from(["hands", "tricks", "auction", "dealer", "upcard"]))] = \
            draw(st.sampled_from([7, None, [1, 2], {"a": 1}, 2.5, True]))
    elif what == "card":
        t = draw(st.integers(0, 4))
        cards = rec["tricks"][t].split()
        cards[draw(st.integers(0, 3))] = draw(junk)
        rec["tricks"][t] = " ".join(cards)
    elif what == "twice":
        rec["tricks"][1] = rec["tricks"][0]
    elif what == "seat":
        rec["dealer"] = draw(junk)
    elif what == "call":
        rec["auction"][draw(st.integers(0, 4))] = "E " + draw(junk)
    elif what == "variant":
        rec["variant"] = draw(junk)
    text = json.dumps(rec)
    if what == "truncate":
        text = text[:draw(st.integers(0, len(text) - 2))]
    if what == "binary":
        return b"\xff\xfe\x00" + draw(st.binary(max_size=40))
    return text.encode()


@st.composite
def hand_file(draw):
    """A hand file (name, bytes) in which no row can be priced."""
    kind = draw(st.sampled_from(["csv", "txt", "jsonl"]))
    bom = b"\xef\xbb\xbf" if draw(st.booleans()) else b""
    nl = draw(st.sampled_from([b"\n", b"\r\n"]))
    rows = [" ".join(_mutate_hand(KNOCK_HAND, draw)) for _ in range(draw(st.integers(0, 4)))]
    damage = draw(st.sampled_from(["rows", "header", "binary", "huge", "empty"]))
    if damage == "binary":
        return kind, b"\xff\xfe\x00\x81" + draw(st.binary(max_size=64))
    if damage == "huge":
        return kind, bom + b"zq" * 300_000 + nl
    if damage == "empty":
        return kind, bom + nl * draw(st.integers(0, 3))
    if kind == "csv":
        header = b"hand,upcard,seat" if damage == "rows" else \
            draw(st.sampled_from([b"seat,upcard", b"hand,hand", b"hand,colour"]))
        body = nl.join(f"{r},9S,E".encode() for r in rows)
        return kind, bom + header + nl + body + nl
    if kind == "jsonl":
        lines = [json.dumps({"hand": r, "upcard": "9S", "seat": "E"}).encode() for r in rows]
        if damage == "header":
            lines.append(b'{"hand": "AH JH KD QD JD", "colour": 1}')
        return kind, bom + nl.join(lines) + nl
    lines = [f"{r} upcard=9S seat=E".encode() for r in rows]
    if damage == "header":
        lines.append(b"AH JH KD QD JD upcard=9S seat=E seat=W")
    return kind, bom + nl.join(lines) + nl


@st.composite
def other_args(draw):
    """Another command with one thing wrong: play, solve, rules, simulate, match, table,
    report, strategy."""
    command = draw(st.sampled_from(["play", "solve", "rules", "simulate", "match", "table",
                                    "report", "strategy"]))
    if command == "play":
        return ["play", "--variant", draw(st.sampled_from(["knock", "bid"])),
                draw(st.sampled_from(["--seed", "--dealer", "--strategy", "--play"])),
                draw(junk)]
    if command == "solve":
        cards = DEAL.split()
        i = draw(st.sampled_from([k for k, c in enumerate(cards) if len(c) == 2 and
                                  not c.endswith(":")]))
        cards[i] = draw(junk | st.just(cards[i - 1]))
        return ["solve", " ".join(cards), "--variant", "knock", "--trump", "H"]
    if command == "rules":
        return ["rules", draw(st.sampled_from(["bid", "knock"])),
                draw(st.sampled_from(["--failed-moon-points", "--lone-defender-points",
                                      "--target"])), draw(junk)]
    if command == "simulate":
        return ["simulate", "--variant", "knock", draw(st.sampled_from(
            ["--games", "--strategy", "--vs", "--play", "--vs-play", "--worlds"])), draw(junk)]
    if command == "match":
        args = {"--a": "heuristic", "--b": "random", "--pairs": "20", "--bidding": "points"}
        args[draw(st.sampled_from(["--a", "--b", "--pairs", "--bidding", "--worlds",
                                   "--players"]))] = draw(junk)
        return ["match", "--variant", "knock", *(x for kv in args.items() for x in kv)]
    if command == "strategy":
        return ["strategy", "show", draw(junk)]
    return [command, "--variant", draw(st.sampled_from(["knock", "zqx"])), "--deals",
            draw(st.sampled_from(["0", "-3", "zq"]))]


# ---------------------------------------------------------------------------- the suite

def _cases(n: int):
    return settings(max_examples=n * SCALE, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


@_cases(350)
@given(odds_args())
def test_hostile_odds_questions(args):
    assert_one_error(args)


@_cases(120)
@given(played_args())
def test_hostile_questions_in_the_play(args):
    assert_one_error(args)


def test_the_play_question_the_mutations_start_from_answers():
    played = "; ".join(", ".join(tr) for tr in MID_TRICKS)
    code, out, err = run_cli(["odds", *MID_HAND, "--variant", "knock", "--upcard", "QS",
                              "--seat", "W", "--dealer", "N", "--auction",
                              "E pass, S pass, W pass, N pick up", "--played", played,
                              "--deals", "100"])
    assert code == 0 and "play AS" in out, err


@_cases(200)
@given(record_text(), st.sampled_from(["score", "review"]))
def test_hostile_records(data, command):
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "hand.json"
        f.write_bytes(data)
        out = Path(tmp) / "decisions.csv"
        args = [command, str(f)] + (["-o", str(out), "--call-deals", "0"]
                                    if command == "review" else [])
        assert_one_error(args, out if command == "review" else None)


@_cases(200)
@given(hand_file(), st.sampled_from([".csv", ".parquet"]))
def test_hostile_hand_files(named, suffix):
    kind, data = named
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / f"hands.{kind}"
        f.write_bytes(data)
        out = Path(tmp) / f"priced{suffix}"
        assert_one_error(["evaluate", str(f), "--variant", "knock", "--deals", "50",
                          "-o", str(out)], out)
        assert sorted(p.name for p in Path(tmp).iterdir()) == [f.name]  # no scratch left


@_cases(150)
@given(record_text())
def test_hostile_record_files(data):
    """A file of records none of which can be reviewed."""
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "club.jsonl"
        f.write_bytes(data + b"\n" + data + b"\n")
        out = Path(tmp) / "decisions.csv"
        assert_one_error(["review", str(f), "-o", str(out), "--call-deals", "0"], out)


@_cases(150)
@given(other_args())
def test_hostile_other_commands(args):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        if args[0] in ("table", "report"):
            args = args + ["-o", str(out) + (".html" if args[0] == "report" else "")]
        assert_one_error(args)
        assert list(Path(tmp).iterdir()) == []


@pytest.mark.slow
def test_the_slow_suite_runs_ten_times_as_many_cases():
    """``make test-slow`` runs this module again with EUCHRE_HOSTILE_SLOW=1 (10,500 cases)."""
    import subprocess
    import sys

    env = dict(os.environ, EUCHRE_HOSTILE_SLOW="1")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           __file__, "-k", "hostile and not slow_suite"], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:]


def _strict_json(text: str):
    """Parse ``text`` as a browser's JSON.parse would: NaN and Infinity are errors."""
    def reject(name):
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, parse_constant=reject)


def test_every_json_output_is_strict_json(tmp_path):
    """Every --json output parses with a strict parser (review and evaluate printed bare NaN
    for a cost or a margin that does not exist)."""
    code, out, err = run_cli(["play", "--variant", "knock", "--seed", "3", "--json"])
    assert code == 0, err
    record = tmp_path / "hand.json"
    record.write_text(out)
    code, out2, err = run_cli(["play", "--variant", "knock", "--seed", "4", "--json"])
    records = tmp_path / "hands.jsonl"
    records.write_text(out + out2)
    hands = tmp_path / "hands.csv"
    hands.write_text("hand,upcard,seat,dealer\nJS AS KS 9H TD,QS,E,N\n9H TD QC KC 9D,9S,E,N\n")
    commands = {
        "odds": ["odds", "JS", "AS", "KS", "9H", "TD", "--variant", "knock", "--upcard", "QS",
                 "--deals", "200", "--json"],
        "review": ["review", str(record), "--call-deals", "100", "--json"],
        "review of a file": ["review", str(records), "--call-deals", "0", "--json"],
        "score": ["score", str(record), "--json"],
        "solve": ["solve", "N: JH JD AH KH QH / E: 9D TD QD KD AD / S: 9C TC JC QC KC / "
                  "W: 9S TS JS QS KS", "--variant", "knock", "--trump", "H", "--json"],
        "simulate": ["simulate", "--variant", "knock", "--games", "20", "--json"],
        "match of one pair (no interval)": ["match", "--variant", "knock", "--a", "dd", "--b",
                                            "random", "--pairs", "1", "--json"],
    }
    for name, args in commands.items():
        code, out, err = run_cli(args)
        assert code == 0, (name, err[-400:])
        _strict_json(out)
    code, out, err = run_cli(["evaluate", str(hands), "--variant", "knock", "--deals", "100",
                              "--json"])
    assert code == 0, err[-400:]
    rows = [_strict_json(line) for line in out.splitlines() if line.strip()]
    assert len(rows) == 2


def test_json_text_writes_null_for_what_json_cannot_hold():
    """The one writer of --json: NaN and infinities (a margin with no runner-up, a cost with
    no tricks) become null, numpy numbers plain ones; anything else it cannot write fails
    loudly instead of printing text a strict parser rejects."""
    import math

    import numpy as np

    from analyzer.cli.common import json_text

    text = json_text({"margin": math.nan, "cost": [np.float64("inf"), np.int64(3)],
                      "close": np.bool_(True)}, indent=None)
    assert _strict_json(text) == {"margin": None, "cost": [None, 3], "close": True}
    with pytest.raises(TypeError):
        json_text({"x": object()})


# ---------------------------------------------------------------------------- numbers
# Issue 51: every number field of every surface — the command line's options, the HTTP API's
# parameters and review body, a bot's view, a record, a hand file's score — found from the
# descriptions that make them (the commands' options, ODDS_FIELDS, the house rules'
# OPTIONS) and given numbers no field takes: one error line and exit 2, a 4xx, an error
# line in the advise stream; never a traceback, a 500 or an "internal error". Each is
# refused before any dealing. (The page's share links: test_serve_page.py.)

BAD_NUMBERS = {"20 digits": "9" * 20, "5,000 digits": "9" * 5000, "negative": "-3",
               "other digits": "\u0669", "space-padded": " 5"}
KNOCK_QUESTION = ["JS", "AS", "KS", "9H", "TD", "--variant", "knock", "--upcard", "QS",
                  "--seat", "E", "--dealer", "N", "--deals", "50"]


def bad_scores(units: int = 2) -> dict:
    """Scores of ``units`` numbers (text), one of them bad, first or last (knock and
    cutthroat scores never fall, so a negative one is bad too)."""
    out = {}
    for name, v in BAD_NUMBERS.items():
        out[f"{name} first"] = "-".join([v] + ["1"] * (units - 1))
        out[f"{name} last"] = "-".join(["1"] * (units - 1) + [v])
    return out


def number_kind(param):
    """int or float for a number option of the command line (None for any other)."""
    desc = getattr(param, "type_descriptor", None)  # typer >= 0.16 types by annotation
    if desc is not None:
        kind = desc.annotation
    else:
        kind = {"integer": int, "integer range": int, "float": float,
                "float range": float}.get(getattr(param.type, "name", ""))
    return kind if kind in (int, float) else None


def cli_number_options() -> list[tuple[str, str]]:
    """``(command words, flag)`` of every int or float option of every command."""
    import typer

    from analyzer.cli.app import app

    def walk(command, words):
        if hasattr(command, "commands"):
            for name, sub in sorted(command.commands.items()):
                yield from walk(sub, [*words, name])
            return
        for p in command.params:
            if number_kind(p) is not None:
                yield " ".join(words), p.opts[0]
    return list(walk(typer.main.get_command(app), []))


CLI_NUMBERS = cli_number_options()


def test_the_number_options_are_all_found():
    found = set(CLI_NUMBERS)
    assert {("odds", "--seed"), ("odds", "--deals"), ("odds", "--tremble"),
            ("simulate", "--games"), ("serve", "--port"), ("bench solve", "--rounds"),
            ("odds", "--failed-moon-points")} <= found, sorted(found)


@pytest.mark.parametrize("value", BAD_NUMBERS.values(), ids=BAD_NUMBERS.keys())
def test_every_number_option_of_every_command_refuses_numbers_no_field_takes(value):
    for words, flag in CLI_NUMBERS:
        line = assert_one_error([*words.split(), flag, value])
        assert flag in line, (words, flag, line)


@pytest.mark.parametrize("score", bad_scores().values(), ids=bad_scores().keys())
def test_a_score_on_the_command_line_is_read_by_the_one_rule(score):
    assert "score" in assert_one_error(["odds", *KNOCK_QUESTION, "--score", score])
    assert "score" in assert_one_error(["play", "--variant", "knock", "--game", "--score",
                                        score])


@pytest.mark.parametrize("score", bad_scores(3).values(), ids=bad_scores(3).keys())
def test_a_three_player_score_is_read_by_the_one_rule(score):
    assert "score" in assert_one_error(["odds", "JS", "AS", "KS", "9H", "TD", "--variant",
                                        "cutthroat", "--upcard", "QS", "--seat", "E",
                                        "--dealer", "N", "--deals", "50", "--score", score])


# the command line's text options that hold a number: a condition's count, a local
# cluster's workers, the rollout bidder's deals (the score: above)
TEXT_NUMBERS = [(["odds", *KNOCK_QUESTION, "--given", "S: >={} H"], "--given"),
                (["odds", *KNOCK_QUESTION, "--scheduler", "local:{}"], "--scheduler"),
                (["simulate", "--variant", "knock", "--games", "10", "--strategy",
                  "rollout:{}"], "rollout:DEALS")]


@pytest.mark.parametrize("value", BAD_NUMBERS.values(), ids=BAD_NUMBERS.keys())
def test_a_number_inside_a_text_option_is_read_by_the_one_rule(value):
    for args, named in TEXT_NUMBERS:
        line = assert_one_error([a.replace("{}", value) for a in args])
        assert named in line, (args, line)


def _record_with(number: str, where: str) -> bytes:
    """RECORD's text with ``number`` (JSON text) in its score or a house rule's number."""
    if where == "score":
        return json.dumps({**RECORD, "score": {"NS": "@", "EW": 1}}).replace(
            '"@"', number).encode()
    return json.dumps({**RECORD, "options": {"lone_defender": True,
                                             "lone_defender_points": "@"}}).replace(
        '"@"', number).encode()


def json_numbers() -> dict:
    """BAD_NUMBERS as JSON text: the numbers bare, the texts that are not numbers quoted."""
    return {name: v if v.lstrip("-").isascii() and v.lstrip("-").isdigit() else json.dumps(v)
            for name, v in BAD_NUMBERS.items()}


@pytest.mark.parametrize("where", ["score", "options"])
@pytest.mark.parametrize("command", ["review", "score"])
def test_a_records_numbers_are_read_by_the_one_rule(tmp_path, command, where):
    for name, number in json_numbers().items():
        f = tmp_path / f"{name}.json"
        f.write_bytes(_record_with(number, where))
        out = tmp_path / "decisions.csv"
        args = [command, str(f)] + (["-o", str(out), "--call-deals", "0"]
                                    if command == "review" else [])
        assert_one_error(args, out if command == "review" else None)


HAND_FILE_ROWS = {  # a hand file's row of each format, with its score's text
    "jsonl": lambda score: json.dumps({"hand": "JS AS KS 9H TD", "upcard": "QS", "seat": "E",
                                       "dealer": "N", "score": score}),
    "csv": lambda score: f"JS AS KS 9H TD,QS,E,N,{score}",
    "txt": lambda score: f'JS AS KS 9H TD upcard=QS seat=E dealer=N score="{score}"'}


@pytest.mark.parametrize("form", HAND_FILE_ROWS)
def test_a_hand_files_score_is_read_by_the_one_rule(tmp_path, form):
    """In every form of hand file: a .csv cell and a quoted text value were read stripped of
    their spaces, so a space-padded score that the command line, the API and a .jsonl file
    refuse was taken there."""
    f = tmp_path / f"hands.{form}"
    header = "hand,upcard,seat,dealer,score\n" if form == "csv" else ""
    f.write_text(header + "".join(HAND_FILE_ROWS[form](score) + "\n"
                                  for score in bad_scores().values()))
    out = tmp_path / "priced.csv"
    assert_one_error(["evaluate", str(f), "--variant", "knock", "--deals", "50", "-o",
                      str(out)], out)


@pytest.fixture(scope="module")
def api():
    from fastapi.testclient import TestClient

    from analyzer.serve.routes import create_app

    with TestClient(create_app(), base_url="http://127.0.0.1:8000") as client:
        yield client


def _refused(response, name: str) -> None:
    """A 4xx whose one-line reason names ``name``."""
    assert 400 <= response.status_code < 500, (name, response.status_code, response.text[:300])
    _one_line(response.json()["error"], name)


def _one_line(error: str, name: str) -> None:
    assert name in error and "\n" not in error and "internal" not in error, (name, error)


def _job_refused(api, params: dict, name: str) -> None:
    """The page's way to ask (a question started, then polled) refuses ``params``: a 4xx at
    once, or the question fails with a reason naming ``name``."""
    got = api.post("/api/jobs/odds", params=params)
    if got.status_code != 202:
        return _refused(got, name)
    job = got.json()
    while job["state"] == "running":
        time.sleep(0.02)
        job = api.get(f"/api/jobs/{job['id']}").json()
    assert job["state"] == "failed" and job["result"] is None, job
    _one_line(job["error"], name)


API_KNOCK = {"variant": "knock", "hand": "JS AS KS 9H TD", "upcard": "QS", "seat": "E",
             "dealer": "N", "deals": "50"}


def api_number_params() -> list[tuple[dict, str]]:
    """``(base parameters, name)`` of every number parameter of the odds question: the
    fields of ODDS_FIELDS that are numbers, the score, and the house rules that are, each
    with a variant that has it."""
    from analyzer.questions.odds.odds_request import ODDS_FIELDS

    out = [(API_KNOCK, f.http_name) for f in ODDS_FIELDS if f.kind in (int, float)]
    out.append((API_KNOCK, "score"))
    return out + [({"variant": next(iter(o.defaults)), "hand": "JS AS KS 9H TD"}, o.name)
                  for o in _int_rules()]


def _int_rules():
    from analyzer.game.variants import OPTIONS

    return [o for o in OPTIONS if o.kind is int]


def test_every_number_parameter_of_the_api_refuses_numbers_no_field_takes(api):
    rules = {o.name for o in _int_rules()}
    for base, name in api_number_params():
        for value in (bad_scores() if name == "score" else BAD_NUMBERS).values():
            params = {**base, name: value}
            _refused(api.get("/api/odds", params=params), name)
            _job_refused(api, params, name)
            if name in rules:
                _refused(api.get("/api/table", params=params), name)


@pytest.mark.parametrize("name", ["seed", "n"])
def test_a_practice_links_numbers_are_read_by_the_one_rule(api, name):
    for value in BAD_NUMBERS.values():
        _refused(api.get("/api/practice", params={"variant": "knock", "seat": "S",
                                                  name: value}), name)


@pytest.mark.parametrize("name", ["seed", "worlds", "call_deals", "score", "options"])
def test_a_review_bodys_numbers_are_read_by_the_one_rule(api, name):
    for number in json_numbers().values():
        if name in ("score", "options"):
            body = b'{"record": ' + _record_with(number, name) + b"}"
        else:
            body = b'{"record": ' + json.dumps(RECORD).encode() + b', "' + name.encode() + \
                b'": ' + number.encode() + b"}"
        got = api.post("/api/review", content=body,
                       headers={"content-type": "application/json"})
        assert 400 <= got.status_code < 500, (name, number[:30], got.text[:300])
        assert "internal" not in got.json()["error"], got.text[:300]


def advise_number_fields() -> list[str]:
    """The number fields of a bot's view: those of the odds question it holds, the score,
    and (under ``rules``) the house rules that are numbers."""
    from analyzer.game.variants import OPTIONS
    from analyzer.questions.advise.bot_view import ODDS_NAMES
    from analyzer.questions.odds.odds_request import FIELD_BY_NAME

    return [n for n in ODDS_NAMES if FIELD_BY_NAME[n].kind in (int, float)] + ["score"] + \
        [f"rules.{o.name}" for o in OPTIONS if o.kind is int and "knock" in o.defaults]


def test_every_number_field_of_a_view_gets_an_error_line_and_the_stream_goes_on():
    from analyzer.questions.advise.advise_stream import answer_line

    view = {"variant": "knock", "seat": "E", "dealer": "N", "hand": "JS AS KS 9H TD",
            "upcard": "QS", "deals": 20}
    for name in advise_number_fields():
        numbers = {k: json.dumps(v) for k, v in bad_scores().items()} if name == "score" \
            else json_numbers()
        for number in numbers.values():
            if name.startswith("rules."):
                changed = {**view, "rules": {"lone_defender": True, name[6:]: "@"}}
            else:
                changed = {**view, name: "@"}
            answer = answer_line(json.dumps(changed).replace('"@"', number), 7)
            assert answer["line"] == 7 and "internal" not in answer["error"], (name, answer)
            bare = number.isdigit() and len(number) >= 5000  # refused as it is read
            named = "5,000 digits" if bare else name.split(".")[-1]
            assert named in answer["error"], (name, answer)


def page_links() -> list[tuple[str, dict, str]]:
    """``(where the page shows its error, link parameters, the name the reason gives)`` for
    every number a share link of the page can carry: the question's fields the page offers
    that are numbers, the score, the house rules that are numbers (each with a variant that
    has it) and a practice link's seed and position."""
    from analyzer.serve.requests import Limits, page_fields

    ask = {"variant": "knock", "seat": "E", "dealer": "N", "upcard": "QS",
           "hand": "JS AS KS 9H TD", "deals": "50", "ask": "1"}
    out = []
    for value in BAD_NUMBERS.values():
        out += [("error", {**ask, f["name"]: value}, f["name"]) for f in page_fields(Limits())
                if f["kind"] in ("int", "float")]
        out.append(("error", {**ask, "score": f"{value}-1"}, "score"))
        out += [("error", {**ask, "variant": next(iter(o.defaults)), o.name: value}, o.name)
                for o in _int_rules()]
        out += [("practice-error", {"tab": "practice", "variant": "knock", "seat": "S",
                                    "decisions": "calls", "seed": "1", "n": "0", name: value},
                 name) for name in ("seed", "n")]
    return out


@pytest.mark.serve
def test_a_share_links_numbers_are_refused_on_the_page_with_the_servers_reason():
    """A link's number the page's number boxes could not hold (' 5', '٩') was dropped and
    the question asked without it; the page now sends every number as the link gives it,
    and shows the server's reason for refusing it."""
    from urllib.parse import urlencode

    from tests.served import browser, console_errors, server, wait_for

    with server(log_name="hostile-links.log") as (url, proc, log):
        chrome = browser()
        try:
            for where, params, name in page_links():
                chrome.get(url + "?" + urlencode(params))
                shown = wait_for(lambda w=where: chrome.find_element(
                    "css selector", "#" + w).text, 60, f"{name}={params[name][:20]!r}")
                assert name in shown and "internal" not in shown, (params, shown)
                assert console_errors(chrome, refused=True) == []
        finally:
            chrome.quit()
