"""The euchre command line: help, round trips, the renege penalty, and one-line errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.cli import app, run
from analyzer.strategy.defaults import DEFAULT_METHOD
from tests.conftest import PLAY_CONFIGS
from tests.paths import KNOCK_ROW, RECORDS
from tests.reference import referee
from tests.test_hostile import assert_one_error, run_cli

pytestmark = pytest.mark.cli

HERE = Path(__file__).parent
ROOT = HERE.parent


def cli(capsys, *args, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = run([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def option_args(opts):
    args = []
    for k, v in opts.items():
        flag = "--" + k.replace("_", "-")
        if v is True:
            args.append(flag)
        elif v is False:
            args.append("--no-" + flag[2:])
        else:
            args += [flag, str(v)]
    return args


def test_every_command_has_help_and_is_in_the_readme(capsys):
    readme = (ROOT / "README.md").read_text()
    names = [c.name for c in app.registered_commands]
    names += [f"{g.name} {c.name}" for g in app.registered_groups
              for c in g.typer_instance.registered_commands]
    for name in names:
        code, out, _ = cli(capsys, *name.split(), "--help")
        assert code == 0 and "Usage" in out and len(out.splitlines()) > 5, name
        assert f"euchre {name}" in readme, f"README does not show 'euchre {name}'"


def test_rules_in_words(capsys):
    code, out, _ = cli(capsys, "rules", "knock", "--joker")
    assert code == 0
    for words in ("Deck: 25 cards", "Tricks: 5 per hand", "Stick the dealer", "joker",
                  "first team to 10", "maker alone: 0-2 tricks: defenders 2; 3-4 tricks: "
                  "makers 1; 5 tricks: makers 4"):
        assert words in out
    code, out, _ = cli(capsys, "rules", "bid", "--failed-moon-points", "24")
    assert "moon: made, 24 points for all 6 tricks; set, -24" in out
    assert "Ladder: 3 < 4 < 5 < 6-ask < 6-moon" in out
    code, out, _ = cli(capsys, "rules")
    assert code == 0 and all(t in out for t in ("Bid Euchre", "Ghost", "Cutthroat", "Knock"))


@pytest.mark.parametrize("variant, opts", PLAY_CONFIGS)
def test_play_json_round_trips_through_score(capsys, monkeypatch, variant, opts):
    for seed in range(8):
        code, out, err = cli(capsys, "play", "--variant", variant, "--seed", seed,
                             *option_args(opts), "--json")
        assert code == 0, err
        record = json.loads(out)
        assert referee(record)["points"] is not None
        code, scored, err = cli(capsys, "score", "-", "--json", stdin=out, monkeypatch=monkeypatch)
        assert code == 0, err
        assert json.loads(scored) == record["result"]


def test_renege_costs_two(capsys):
    code, out, err = cli(capsys, "score", HERE / "records" / "knock_renege.json", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["reneges"] == {"E": 1}
    assert result["tricks"] == {"NS": 4, "EW": 1}
    assert result["points"] == {"NS": 2, "EW": -2}
    code, out, _ = cli(capsys, "score", HERE / "records" / "knock_renege.json")
    assert "Renege: E" in out and "EW -2" in out


def _record():
    return json.loads((HERE / "records" / "knock_renege.json").read_text())


def _edit(**changes):
    data = _record()
    for k, v in changes.items():
        if v is None:
            data.pop(k, None)
        else:
            data[k] = v
    return json.dumps(data)


BAD_RECORDS = [
    (_edit(variant="poker"), "unknown variant 'poker'"),
    (_edit(options={"double_deck": True}), "does not apply to knock"),
    (_edit(hands={"N": "9S KH QH 9H", "E": "AS JS TH KD QC", "S": "KS AD QD 9D AC",
                  "W": "TS AH JD KC JC"}), "hand N has 4 cards"),
    (_edit(hands={"N": "9S KH QH 9H XX", "E": "AS JS TH KD QC", "S": "KS AD QD 9D AC",
                  "W": "TS AH JD KC JC"}), "'XX' is not a card"),
    (_edit(hands={"N": "9S KH QH 9H AS", "E": "AS JS TH KD QC", "S": "KS AD QD 9D AC",
                  "W": "TS AH JD KC JC"}), "'AS' appears more than once"),
    (_edit(auction=["E pass", "S 4"]), "'4' is not a call in knock"),
    (_edit(auction=["E pass", "S pass", "W pass", "N pass", "E name S"]),
     "E cannot call name S here"),
    (_edit(auction=["S pass"]), "by S, but it is E's turn"),
    (_edit(tricks=["TH AD AH QH", "AC JC 9C QD"]), "trick 2: E plays QD but does not hold it"),
    (_edit(upcard=None), "needs the 'upcard'"),
    (_edit(trump="H"), "does not follow from the auction"),
    (_edit(alone=["N"]), "may not go alone"),
    (_edit(extra=1), "unknown field 'extra'"),
    ("{not json", "is not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    # found by adversarial testing
    ('{"variant": "bid", "dealer": "N", "options": {"failed_moon_points": ' + "1" * 5000 + "}}",
     "a number of 5,000 digits is more than any field takes"),
    ("[" * 100000 + "]" * 100000, "cannot be read as a record"),
    (_edit(declarer="Nonsense"), "'declarer' must be a seat"),
    (_edit(declarer="N"), "the auction makes E the declarer"),
    (_edit(ask={"give": "9C", "receive": "AH"}), "'ask' exists only in bid"),
    (_edit(discard="9S"), "the dealer discards only after taking the upcard"),
    (_edit(hands={"N": "9S KH QH 9H 9C", "E": "AS JS TH KD QC", "S": "KS AD QD 9D AC",
                  "dummy": "TS AH JD KC JC"}), "knock has no dummy hand"),
    (_edit(result={"defender_tricks": 0}), "defender_tricks = 0"),
    (_edit(result={"winner": "NS"}), "unknown key 'winner'"),
    (_edit(auction=[{"seat": "E", "call": "pass", "alone": True}]), "unknown key 'alone'"),
    (_edit(tricks=None), "the record has no 'tricks'"),
    (_edit(variant=None), "the record has no 'variant'"),
    (_edit(options={"stick_the_dealer": False},
           auction=["E pass", "S pass", "W pass", "N pass"] * 2), "cannot have 'trump'"),
]


@pytest.mark.parametrize("text, words", BAD_RECORDS)
def test_bad_records_give_one_line(capsys, monkeypatch, text, words):
    code, out, err = cli(capsys, "score", "-", stdin=text, monkeypatch=monkeypatch)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert words in err


def test_ghost_and_unicode_oddities(capsys, monkeypatch):
    code, out, _ = cli(capsys, "play", "--variant", "ghost", "--seed", "1", "--json")
    data = json.loads(out)
    data["auction"] = ["E pass", "W swap"]
    code, _, err = cli(capsys, "score", "-", stdin=json.dumps(data), monkeypatch=monkeypatch)
    assert code == 2 and "W holds the ghost hand and does not bid" in err
    code, out, _ = cli(capsys, "play", "--variant", "bid", "--seed", "1", "--json")
    data = json.loads(out)
    data["auction"][0] = data["auction"][0].split()[0] + " ²"
    code, _, err = cli(capsys, "score", "-", stdin=json.dumps(data), monkeypatch=monkeypatch)
    assert code == 2 and "is not a call in bid" in err
    record = _record()
    record["hands"]["N"] = "9S K♥️ QH 9H 9C"  # the emoji form of a suit symbol
    code, out, err = cli(capsys, "score", "-", stdin="\ufeff" + json.dumps(record),
                         monkeypatch=monkeypatch)
    assert code == 0, err


def test_bid_below_current(capsys, tmp_path):
    code, out, _ = cli(capsys, "play", "--variant", "bid", "--seed", "3", "--json")
    data = json.loads(out)
    data["auction"] = ["E 4", "S 3", "W pass", "N pass"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    code, _, err = cli(capsys, "score", path)
    assert code == 2 and "S cannot call 3 here; the calls allowed were pass, 5, ask, moon" in err


@pytest.mark.parametrize("args, words", [
    (["play", "--variant", "poker"], "'poker' is not one of"),
    (["play", "--variant", "ghost", "--joker"], "does not apply to ghost"),
    (["play", "--variant", "ghost", "--dealer", "W"], "cannot deal"),
    (["play", "--variant", "knock", "--dealer", "Q"], "'Q' is not a seat"),
    (["play", "--variant", "knock", "--seed", "-1"], "--seed"),
    (["play", "--variant", "knock", "--strategy", "genius"], "unknown strategy"),
    (["play", "--variant", "knock", "--play", "genius"], "unknown play policy"),
    (["rules", "knock", "--failed-moon-points", "3"], "does not apply to knock"),
    (["rules", "--joker"], "name the variant"),
    (["rules", "bid", "--failed-moon-points", "many"], "--failed-moon-points"),
    (["score", "/no/such/file.json"], "cannot read /no/such/file.json"),
    (["frobnicate"], "No such command"),
    (["play", "--variant", "knock", "--seed", str(2**64)], "--seed"),
    (["play"], "Missing option '--variant'"),
    (["score", "/"], "is a directory"),
])
def test_bad_command_lines_give_one_line(capsys, args, words):
    code, out, err = cli(capsys, *args)
    assert code == 2, (out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert words in err


def test_real_pipe_round_trip():
    exe = Path(sys.executable).parent / "euchre"
    play = subprocess.run([exe, "play", "--variant", "cutthroat", "--seed", "4", "--json"],
                          capture_output=True, text=True, check=True)
    score = subprocess.run([exe, "score", "-", "--json"], input=play.stdout,
                           capture_output=True, text=True)
    assert score.returncode == 0, score.stderr
    assert json.loads(score.stdout) == json.loads(play.stdout)["result"]
    bad = subprocess.run([exe, "score", "-"], input="{}", capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    latin1 = subprocess.run([exe, "score", "-"], input=b'{"variant": "\xe9"}',
                            capture_output=True)
    assert latin1.returncode == 2 and b"is not UTF-8" in latin1.stderr


KNOCK_DEAL = "N: JH JD AH KH QH / E: 9D TD QD KD AD / S: 9C TC JC QC KC / W: 9S TS JS QS KS"


def test_solve_json(capsys):
    code, out, err = cli(capsys, "solve", KNOCK_DEAL, "--variant", "knock", "--trump", "H",
                         "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["declarer_tricks"] == 5 and result["defender_tricks"] == 0
    assert set(result["leads"]) == {"JH", "JD", "AH", "KH", "QH"}
    assert result["nodes"] > 0
    code, out, err = cli(capsys, "solve", KNOCK_DEAL, "--variant", "knock", "--trump", "S",
                         "--declarer", "E", "--json")
    assert json.loads(out)["declarer_tricks"] + json.loads(out)["defender_tricks"] == 5
    code, out, _ = cli(capsys, "solve", KNOCK_DEAL, "--variant", "knock", "--trump", "H")
    assert code == 0 and "Declaring side (NS): 5 tricks" in out


def test_solve_picks_the_dealers_discard(capsys):
    deal = ("N: 9H TH 9C TC 9S / E: 9D TD QD KD AD / S: JC QC KC AC QS / W: TS JS KS AS AH / "
            "up: JH")
    code, out, err = cli(capsys, "solve", deal, "--variant", "knock", "--trump", "H",
                         "--dealer", "N", "--declarer", "N", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert "discard" in result["choices"] and "JH" in result["hands"]["N"]


@pytest.mark.parametrize("args, words", [
    ([KNOCK_DEAL.replace("QH", "QH QS"), "--variant", "knock", "--trump", "H"],
     "'QS' appears more than once"),
    ([KNOCK_DEAL.replace(" QH", ""), "--variant", "knock", "--trump", "H"],
     "N holds 4 cards"),
    ([KNOCK_DEAL, "--variant", "knock", "--trump", "H", "--alone", "--leader", "S"],
     "S sits out this hand, so it cannot lead"),
    ([KNOCK_DEAL, "--variant", "knock", "--trump", "H", "--ask"], "--ask is a bid of Bid Euchre"),
    ([KNOCK_DEAL, "--variant", "knock", "--trump", "X"], "'X' is not a suit"),
    ([KNOCK_DEAL, "--variant", "knock", "--trump", "H", "--defender-alone", "E"],
     "--lone-defender"),
    (["N: JH JD AH KH QH 9S / E: 9D TD QD KD AD JC", "--variant", "bid", "--trump", "H"],
     "the deal has no hand for S, who plays"),
    (["N: JH JD AH KH QH 9S / E: 9D TD QD KD AD JC / S: 9C TC QC KC AC 9H",
      "--variant", "ghost", "--trump", "H", "--declarer", "W"], "W does not play in ghost"),
])
def test_solve_rejects_impossible_deals(capsys, args, words):
    code, out, err = cli(capsys, "solve", *args)
    assert code == 2 and err.count("\n") == 1, err
    assert words in err


def test_odds_json_is_stable(capsys):
    args = ["odds", "JH", "JD", "AH", "KH", "QH", "9S", "--variant", "bid", "--deals", "300",
            "--trump", "H", "--others", "points", "--json"]
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    data = json.loads(out)
    for key in ("variant", "rules", "hand", "method", "seed", "deals", "options", "tricks",
                "best", "exact", "seconds", "auction", "others", "inference", "acceptance"):
        assert key in data
    assert data["deals"] == 300 and data["method"] == DEFAULT_METHOD and data["others"] == "points"
    row = data["options"][0]
    for key in ("trump", "option", "detail", "p_we_make", "p_we_make_low", "p_we_make_high",
                "p_they_make", "p_redeal", "ev", "ev_low", "ev_high", "vs_best"):
        assert key in row
    for key in ("best", "runner_up", "margin", "margin_low", "margin_high", "too_close"):
        assert key in data["best"]
    again = json.loads(cli(capsys, *args)[1])
    data.pop("seconds")
    again.pop("seconds")
    assert again == data


def test_odds_table_and_bid(capsys):
    code, out, err = cli(capsys, "odds", "JH JD AH KH QH 9S", "--variant", "bid", "--deals",
                         "300", "--bid", "5", "--others", "points")
    assert code == 0, err
    assert "bid 5" in out and "bid 4" not in out and "P(≥5)" in out and "pass" in out
    code, out, err = cli(capsys, "odds", "AH", "JH", "KD", "QD", "JD", "--variant", "knock",
                         "--upcard", "9H", "--seat", "E", "--dealer", "N", "--deals", "300",
                         "--others", "points")
    assert code == 0 and "order up" in out and "Best:" in out
    header = [line.split() for line in out.splitlines() if line.split()[:1] == ["call"]][0]
    # every way a hand ends is a column (two-line headers: "they / make %"), so a row adds
    # up to 100%
    assert header == ["call", "points", "best", "make", "%", "set", "%", "make", "%", "set", "%"]
    code, out, err = cli(capsys, "odds", "9S TS AD KD 9H", "--variant", "knock", "--upcard",
                         "QS", "--seat", "N", "--dealer", "N", "--auction",
                         "E pass, S pass, W pass", "--deals", "300", "--others", "points")
    assert code == 0, err
    assert "pick it up" in out and "discard" in out and "fit the calls heard" in out


@pytest.mark.parametrize("args, words", [
    (["JH", "JD", "--variant", "bid"], "the hand has 2 cards"),
    (["JH JD AH KH QH 9S", "--variant", "bid", "--given", "E: >=4 C", "--given", "W: >=3 C",
      "--deals", "5", "--others", "points"], "no deal fits the --given conditions"),
    (["JH JD AH KH QH 9S", "--variant", "bid", "--given", "E: >=7 C"], "at most 6"),
    (["JH JD AH KH QH 9S", "--variant", "bid", "--given", "E: has AC KC", "--given",
      "E: void C"], "already has 2"),
    (["JH JD AH KH QH", "--variant", "knock"], "need the --upcard"),
    (["JH JD AH KH QH 9S", "--variant", "bid", "--joker", "--upcard", "9C"], "no upcard"),
    (["JH JD AH KH QH 9S", "--variant", "ghost", "--stick-the-dealer"], "does not apply"),
    (["JH JD AH KH QH 9S", "--variant", "bid", "--deals", "0"], "--deals"),
    (["JH JD AH KH QH 9S", "--variant", "bid", "--auction", "N 4"], "turn"),
    (["JH JD AH KH QH 9S", "--variant", "bid", "--others", "mine.toml"], "mine.toml"),
])
def test_odds_errors(capsys, args, words):
    code, out, err = cli(capsys, "odds", *args)
    *before, last = err.strip().splitlines()
    assert code == 2 and last.startswith("error: ") and words in last, err
    # one error line; before it only the note a slow first chunk gives (a cold numba cache)
    assert len(before) <= 1 and all(line.startswith("dealing: the first") for line in before), err


def test_bench_against_a_revision_that_does_not_exist_is_one_line(capsys):
    code, out, err = cli(capsys, "bench", "play", "--against", "no-such-revision-xyz")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "error: --against: 'no-such-revision-xyz' is not a commit of this repository"]


def test_bench_figures_flatten_and_take_medians():
    from analyzer.bench_against import flatten, medians

    runs = [flatten({"bid": {"solves_per_s": v, "threads": 2}, "hand": "JH", "ok": True,
                     "peak_memory_mb": m}) for v, m in ((10.0, 5), (30.0, 7), (20.0, 6))]
    assert runs[0] == {"bid.solves_per_s": 10.0, "bid.threads": 2.0, "peak_memory_mb": 5.0}
    assert medians(runs) == {"bid.solves_per_s": 20.0, "bid.threads": 2.0,
                             "peak_memory_mb": 6.0}
    assert medians([{"a": 1.0}, {"b": 2.0}]) == {"a": 1.0, "b": 2.0}


def test_a_narrow_terminal_never_cuts_a_number():
    """In a narrow terminal the odds tables cut numbers ('-11.74±0.…'); now the labels wrap
    and every number is whole."""
    import io

    from rich.console import Console

    from analyzer.cli.views import print_odds
    from analyzer.questions.odds.answer import odds

    r = odds("9S TS 9C TC 9D QD", "bid", deals=300, others="points")  # weak: -11.xx asks
    console = Console(width=60, record=True, file=io.StringIO())  # narrower still
    print_odds(console, r)
    text = console.export_text()
    assert "…" not in text
    for row in r.options.itertuples():
        assert f"{row.ev:+.2f}±{(row.ev_high - row.ev_low) / 2:.2f}" in text


def test_help_does_not_load_the_heavy_modules():
    """``euchre --help`` and every typo answered in seconds because the command modules
    imported pandas, pyarrow and every kernel up front; they now import them in the command
    that uses them (the time itself is in docs/performance.md, not in a test)."""
    code = ("import sys, analyzer.cli\n"
            "heavy = [m for m in ('pandas', 'pyarrow', 'matplotlib', 'kernels.hand.policies',"
            " 'analyzer.questions.odds.answer') if m in sys.modules]\n"
            "print(','.join(heavy))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parent.parent).stdout
    assert out.strip() == "", out


def test_a_header_counts_the_compilation_apart(monkeypatch):
    """A first run's header said '67.8 s' for a run of 200 s, then '29.9 s (+104 s
    compiling)' for one of 107 s: the seconds numba spent compiling are counted (nested
    compilations once), said apart, and taken out of the question's own time when they
    happened during it."""
    import importlib

    from kernels import compile_events

    app = importlib.import_module("analyzer.cli.app")  # the module (the package's 'app' is typer's)
    clock = iter([10.0, 130.0, 131.0, 140.0])  # start, end; start, end
    monkeypatch.setattr(compile_events.time, "perf_counter", lambda: next(clock))
    said = []
    watch = compile_events.CompileWatch(lambda: said.append(1))
    watch.on_start(None)
    watch.on_start(None)  # a function compiled while compiling another: counted once
    watch.on_end(None)
    watch.on_end(None)
    watch.on_start(None)
    watch.on_end(None)
    assert said == [1] and watch.seconds == 129.0 and watch.active == 0
    assert watch.finished == 3 and watch.seconds_within(120.0, 135.0) == 14.0
    monkeypatch.setattr(app, "COMPILES", watch)
    import time
    monkeypatch.setattr(time, "perf_counter", lambda: 150.0)
    # a run of 30 s that ended at 150 (began at 120): 10 + 9 s of it were compiling
    assert app.timing_text(30.0) == "11.0 s (+129 s compiling the kernels, a first run only)"
    monkeypatch.setattr(app, "COMPILES", None)
    assert app.timing_text(30.0) == "30.0 s"


def test_a_rare_acceptance_is_not_printed_as_zero():
    from analyzer.stats import percent_text

    assert [percent_text(x) for x in (0.154, 0.000326, 0.0099, 0.0, 0.03)] == \
        ["15.4%", "0.033%", "0.99%", "0.0%", "3.0%"]


def test_odds_json_says_which_play_the_later_calls_were_valued_with(capsys):
    """The built strategies were valued with heuristic play (the header says so when the query
    plays double dummy); a point count was valued with none."""
    for others, play in (("analyzer", "heuristic"), ("points", None)):
        code, out, err = cli(capsys, "odds", "JH AH KH QD 9S TC", "--variant", "bid", "--deals",
                             "200", "--others", others, "--json")
        assert code == 0, err
        assert json.loads(out)["others_play"] == play
    code, out, err = cli(capsys, "odds", "JH AH KH QD 9S TC", "--variant", "bid", "--deals",
                         "200")
    assert code == 0, err
    assert "(its values from heuristic play)" in " ".join(out.split())


def test_play_defaults_to_the_best_strategy_and_the_readme_agrees():
    """``play`` without --strategy bids as with the analyzer strategy (a played hand, not a
    constant, is compared)."""
    plain = run_cli(["play", "--variant", "knock", "--seed", "2", "--json"])
    best, points = (run_cli(["play", "--variant", "knock", "--seed", "2", "--json",
                             "--strategy", name]) for name in ("analyzer", "points"))
    # stdout only: the first of the three may build the strategy (a note on stderr)
    assert plain[:2] == best[:2] and plain[0] == 0
    assert points[0] == 0 and points[1] != plain[1]  # the hand tells the strategies apart
    readme = (ROOT / "README.md").read_text()
    assert "--policy" not in readme and "euchre play --variant V [--seed N] [--strategy" in readme


def test_smaller_cases(tmp_path):
    assert "end in .html or .md" in assert_one_error(
        ["report", "--variant", "knock", "--deals", "200", "-o", str(tmp_path / "r.pdf")])
    assert "is a folder" in assert_one_error(["evaluate", str(tmp_path), "--variant", "knock"])
    twice = tmp_path / "t.txt"
    twice.write_text("AH JH KD QD JD upcard=9H seat=E seat=W\n" + KNOCK_ROW.replace(",", " ")
                     .replace(" E N 9H", " seat=E dealer=N upcard=9H") + "\n")
    code, _, err = run_cli(["evaluate", str(twice), "--variant", "knock", "--deals", "50"])
    assert code == 0 and "'seat' is given twice" in err and "1 bad row skipped" in err
    assert "--ace-no-face" in assert_one_error(["rules", "knock", "--ace-no-face"])
    code, out, _ = run_cli(["review", str(RECORDS / "knock_misplay.json"), "--call-deals",
                            "0"])
    assert code == 0 and "<NA>" not in out


def _trick_result(hand_size: int):
    """An odds result's fields the trick table reads: a double deck's four trumps, each
    P(>=k) for k = 3 .. hand_size at 95.5% ± 15.5."""
    import types

    import pandas as pd

    figures = {f"p_at_least_{k}{end}": p for k in range(3, hand_size + 1)
               for end, p in (("", 0.955), ("_low", 0.8), ("_high", 1.0))}
    return types.SimpleNamespace(rules=types.SimpleNamespace(hand_size=hand_size), exact=False,
                                 method=DEFAULT_METHOD,
                                 tricks=pd.DataFrame([{"trump": t, **figures} for t in "CDHS"]))


@pytest.mark.parametrize("width", [80, 50])
def test_a_narrow_pipe_keeps_every_column_and_label_of_the_trick_table(width):
    """Issue 51: piped at 80 columns the double deck's trick table lost its trump column
    (rows without labels) and every column past P(>=9). Now the columns that do not fit go
    on under the table, each row labelled again, and no line is wider than the terminal."""
    import io

    from rich.console import Console

    from analyzer.cli.views import _tricks_table, whole_numbers

    console = Console(width=width, record=True, file=io.StringIO())
    console.print(whole_numbers(_tricks_table(_trick_result(12))))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= width, lines
    text = "\n".join(lines)
    assert all(f"P(≥{k}) %" in text for k in range(3, 13)), text
    assert text.count("95.5 ±15.5") == 4 * 10, text  # every figure, whole
    rows = [line.split() for line in lines if "±" in line]
    assert all(row[0] in "CDHS" for row in rows), text  # every row has its trump


def test_a_narrow_pipe_keeps_every_column_of_the_review(monkeypatch):
    """Issue 51: piped at 80 columns `euchre review`'s call table cut its last column
    ("within noi") and lost its first (the step); now, however narrow, every column of
    every call is there, each row under its step."""
    from analyzer.cli import common

    monkeypatch.setattr(common.console, "width", 56)  # the call table cannot fit in one
    code, out, err = run_cli(["review", str(RECORDS / "knock_misplay.json"), "--call-deals",
                              "100"])
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 56, out
    calls = lines[:next(i for i, line in enumerate(lines) if "The play" in line)]
    for header in ("seat", "call", "net points", "best call", "its net points", "cost"):
        assert sum(header in line.split("  ") or f" {header} " in f" {line} "
                   for line in calls) >= 1, (header, out)
    rows = [line.split() for line in calls if line.split()[:1] in ([str(k)] for k in
                                                                   range(1, 6))]
    assert len(rows) >= 2 * 5, out  # two blocks at least, each of the five calls
    assert all(r[0].isdigit() for r in rows) and "…" not in out, out
    costs = [r for r in rows if r[-1] in ("-", "*", "noise")]
    assert len(costs) == 5, out  # every call's cost, whole
