"""Every example in the README, in docs/ and in each command's --help runs, in-process through
the CLI, with deal and game counts cut down (the examples show real sizes). An example shown
with its output prints the figures shown, at the size shown; one in docs/ shown without output
is checked, cut down, for what the prose around it says it prints. The benchmarks' examples run
in the slow suite: they take minutes by design."""

import io
import json
import re
import shlex
import sys
from pathlib import Path

import pandas as pd
import pytest

from analyzer.cli import app, run
from analyzer.strategy.toml_files import strategy_text

pytestmark = pytest.mark.cli

ROOT = Path(__file__).resolve().parent.parent
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CAPS = {"--deals": 200, "--games": 30, "--pairs": 100}
HANDS_CSV = ("hand,seat,dealer,upcard,auction\nAH JH KD QD JD,E,N,9H,\n"
             "9S TS QH KH AC,S,N,JH,E pass\n")
HANDS_TXT = "JH JD AH KH QH 9S\nAS KS QS 9H TD JC seat=E  # a comment\n"


def console_commands(path: Path) -> list[tuple[str, list[str]]]:
    """The commands of the console blocks of ``path`` (``$ ...``, a line ending in ``\\``
    continued on the next), each with the output shown under it: the lines up to the next
    command or the block's end, but blank ones, ``...`` (output left out) and ``# `` comments."""
    out = []
    in_console = False
    pending = ""
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            in_console = line.strip() == "```console"
            out.append(None)  # a block's end ends its last command's output
            continue
        if not in_console:
            continue
        text = line.strip()
        if pending:
            text, pending = pending + " " + text, ""
        if text.startswith("$ ") and text.endswith("\\"):
            pending = text[:-1].strip()
            continue
        if text.startswith("$ "):
            out.append((text[2:], []))
        elif out and out[-1] is not None and text not in ("", "...") and \
                not text.startswith("# "):
            out[-1][1].append(line)
    return [item for item in out if item is not None]


def doc_examples(paths=DOC_FILES) -> list[str]:
    """Commands shown in console blocks (``$ euchre ...``) of the README and docs/."""
    return [command for path in paths for command, _ in console_commands(path)
            if command.startswith("euchre ")]


def help_examples() -> list[str]:
    """Commands in the examples of every command's --help (docstring lines starting with
    ``euchre``, continued on the following lines until a blank one)."""
    callbacks = [c.callback for c in app.registered_commands]
    callbacks += [c.callback for g in app.registered_groups
                  for c in g.typer_instance.registered_commands]
    out = []
    for cb in callbacks:
        current = None
        for line in (cb.__doc__ or "").splitlines() + [""]:
            text = line.strip()
            if current is not None:
                if text:
                    current += " " + text
                    continue
                out.append(current)
                current = None
            if text.startswith("euchre "):
                current = text
    return out


def shrink(args: list[str]) -> list[str]:
    """The example's arguments with deal and game counts capped and a --precision target
    replaced by a small deal count."""
    out = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in CAPS and i + 1 < len(args):
            out += [a, str(min(int(args[i + 1].replace("_", "")), CAPS[a]))]
            i += 2
        elif a == "--precision":
            out += ["--deals", str(CAPS["--deals"])]
            i += 2
        elif a == "--scheduler" and args[i + 1].startswith("tcp://"):
            i += 2  # a cluster of the reader's own; the test runs it here
        else:
            out.append(a)
            i += 1
    if out and out[0] in ("odds", "table") and not {"--deals", "--exact"} & set(out):
        out += ["--deals", str(CAPS["--deals"])]
    if out and out[0] == "review" and "--call-deals" not in out:
        out += ["--call-deals", "50"]
    return out


def run_line(line: str, capsys, monkeypatch, shrunk: bool = True) -> list[tuple[str, str]]:
    """Run a shell line of one or more piped ``euchre`` commands (their sizes cut down by
    :func:`shrink` unless not ``shrunk``); every stage must exit 0. Returns each stage's
    ``(stdout, stderr)``."""
    stdin = None
    printed = []
    line, _, target = line.partition(" > ")
    for stage in line.split(" | "):
        args = shlex.split(stage)
        assert args[0] == "euchre", line
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        code = run(shrink(args[1:]) if shrunk else args[1:])
        out, err = capsys.readouterr()
        assert code == 0, f"{line}\n{err[-800:]}"
        printed.append((out, err))
        stdin = out
    if target:
        Path(target.strip()).write_text(stdin)
    return printed


@pytest.fixture
def example_dir(tmp_path, monkeypatch, capsys):
    """A working directory with the files the examples name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    (tmp_path / "hands.csv").write_text(HANDS_CSV)
    (tmp_path / "hands.txt").write_text(HANDS_TXT)
    records = []
    for seed in range(3):
        assert run(["play", "--variant", "knock", "--seed", str(seed), "--json"]) == 0
        records.append(json.dumps(json.loads(capsys.readouterr().out)))
    (tmp_path / "hand.json").write_text(records[0])
    (tmp_path / "club-night.jsonl").write_text("\n".join(records) + "\n")
    (tmp_path / "mine.toml").write_text(strategy_text())
    return tmp_path


EXAMPLES = sorted(set(doc_examples() + help_examples()))
# a server runs until it is stopped: tests/test_serve.py starts `euchre serve` and stops it
SERVED = [e for e in EXAMPLES if e.startswith("euchre serve")]
QUICK = [e for e in EXAMPLES if not e.startswith("euchre bench") and e not in SERVED]


def test_the_examples_were_found():
    assert len(doc_examples()) >= 20 and len(help_examples()) >= 25
    names = {e.split()[1] for e in EXAMPLES}
    assert names >= {"rules", "play", "score", "solve", "odds", "simulate", "table", "report",
                     "evaluate", "review", "bench"}


@pytest.mark.parametrize("line", QUICK)
def test_example_runs(line, example_dir, capsys, monkeypatch):
    """Each example runs (cut down); a docs/ example whose output the docs do not show is
    also checked for what its prose says it prints (``CHECKS``)."""
    printed = run_line(line, capsys, monkeypatch)
    if line in CHECKS:
        CHECKS[line](printed)


@pytest.mark.slow
@pytest.mark.parametrize("line", [e for e in EXAMPLES if e not in QUICK + SERVED])
def test_benchmark_example_runs(line, example_dir, capsys, monkeypatch):
    run_line(line, capsys, monkeypatch)


def test_shrink_caps_sizes():
    assert shrink(["odds", "--deals", "1_000_000", "--games", "5", "--precision", "0.01"]) == \
        ["odds", "--deals", "200", "--games", "5", "--deals", "200"]
    assert re.search("200", " ".join(shrink(["table", "--deals", "1000000"])))


def shown_outputs(paths=DOC_FILES) -> list[tuple[str, list[str]]]:
    """The examples of the README and docs/ shown with their output: ``(command, printed
    lines)``."""
    return [(command, lines) for path in paths for command, lines in console_commands(path)
            if command.startswith("euchre ") and lines]


TIMING = re.compile(r"\d[\d.]* (s|min)\b")
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")


def figures(lines) -> list[str]:
    """Every number printed in ``lines``, in order, but the timings (they vary by machine)."""
    return [n for line in lines for n in NUMBER.findall(TIMING.sub("", line))]


def test_the_readme_shows_outputs():
    assert len(shown_outputs([ROOT / "README.md"])) >= 3


def test_console_blocks_are_read_with_their_output(tmp_path):
    """How an example and the output shown under it are found (in docs/ as in the README): a
    command continued on the next line, its output up to the next command, not a ``...``, a
    comment or another program's output, and nothing outside the console blocks."""
    path = tmp_path / "doc.md"
    path.write_text("\n".join([
        "```console", "$ euchre solve 'N: JH' \\", "      --variant knock", "knock: 5 tricks",
        "...", "$ dask scheduler", "tcp://x:1", "# a comment", "$ euchre rules knock", "```",
        "prose 7", "```console", "$ euchre play --seed 1", "```"]))
    assert shown_outputs([path]) == [("euchre solve 'N: JH' --variant knock",
                                      ["knock: 5 tricks"])]
    assert doc_examples([path]) == ["euchre solve 'N: JH' --variant knock",
                                    "euchre rules knock", "euchre play --seed 1"]


@pytest.mark.parametrize("command, lines", shown_outputs(), ids=lambda v: str(v)[:40])
def test_the_docs_print_what_the_command_prints(command, lines, example_dir, capsys,
                                               monkeypatch):
    """The figures of an example's output shown in the README or docs/ are what the command
    prints today, at the sizes shown (each is seconds here), in order — so a change of
    behaviour that moves an answer shows as a failing doc, not a stale one. Wrapping may
    differ."""
    for name in ("EUCHRE_STRATEGY_DEALS", "EUCHRE_STRATEGY_ROUNDS"):
        monkeypatch.delenv(name, raising=False)  # the shipped strategies, as a reader has
    out = run_line(command, capsys, monkeypatch, shrunk=False)[-1][0]
    printed = figures(out.splitlines())
    want = figures(lines)
    it = iter(printed)
    missing = [n for n in want if n not in it]  # a subsequence, in order
    assert not missing, f"{command}: the docs show {want}, the command printed {printed}"


# ---------------------------------------------------------------------------- what the docs'
# examples print: none of docs/ shows its output, so each example is checked, at the cut-down
# size test_example_runs runs it, for what the prose around it says it prints

CHECKS = {}


def checks(*lines):
    """Register the decorated function as the check of the documented examples ``lines``:
    it gets each stage's ``(stdout, stderr)`` and runs in the example's folder."""
    def register(fn):
        for line in lines:
            CHECKS[line] = fn
        return fn
    return register


def flat(text: str) -> str:
    """``text`` with its whitespace runs made one space (Rich wraps at the terminal width)."""
    return " ".join(text.split())


def table_rows(text: str, header: str) -> list[list[str]]:
    """The rows of the Rich table in ``text`` whose header starts with the cell ``header``,
    as cells (they are at least two spaces apart): a first cell wrapped onto the next line is
    joined to its row's. The table ends at a blank line or one at the left margin."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if re.match(rf"\s+{re.escape(header)}\s\s", line))
    indent = len(lines[start]) - len(lines[start].lstrip())
    width = len(re.split(r"\s{2,}", lines[start].strip()))
    first_end = indent + re.search(r"\s{2,}\S", lines[start][indent:]).end() - 1
    rows = []
    for line in lines[start + 1:]:
        if not line.strip() or not line[0].isspace():
            break
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) == width:
            rows.append(cells)
        elif len(line) - len(line.lstrip()) == indent and rows and len(cells) == 1 and \
                len(line.rstrip()) <= first_end:  # a first cell wrapped onto this line
            rows[-1][0] += " " + cells[0]
        else:
            break
    assert rows, f"no rows under {header!r} in\n{text}"
    return rows


def odds_answer(out: str) -> tuple[list[str], list[list[str]]]:
    """The calls an ``euchre odds`` answer lists, after checking that its verdict line names
    the call its table marks best, at that call's net points."""
    rows = table_rows(out, "call")
    verdict = re.search(r"Best: (.+?): ([-+]\d+\.\d+) net points a hand", flat(out))
    assert verdict, out
    best = [r for r in rows if r[2] == "best"]
    named = [r for r in best if r[0] == verdict[1] or r[0].startswith(verdict[1] + ",")]
    assert named and named[0][1].split("±")[0] == verdict[2], (verdict[0], best)
    return [r[0] for r in rows], rows


def trick_table(out: str, suits: str) -> None:
    """The ladder auctions' trick table: a row per trump in ``suits`` (``*`` after one that
    stopped with its calls), P(≥k) percentages that fall as k rises."""
    rows = table_rows(out, "trump")
    assert [r[0].rstrip("*") for r in rows] == list(suits), rows
    for row in rows:
        p = [float(cell.split("±")[0]) for cell in row[1:]]
        assert len(p) >= 4 and all(100 >= a >= b >= 0 for a, b in zip(p, p[1:], strict=False)), row


@checks("euchre odds JS AS KS 9H TD --variant knock --upcard QS --seat E --dealer N")
def _knock_first_to_speak(printed):
    """odds.md: the options are exactly the legal calls (knock round 1: pass, order up, order
    up alone); a line under the table gives each making call's chance of the march."""
    out = printed[-1][0]
    assert out.startswith("knock: E holds AS KS JS 9H TD (dealer N, upcard QS); first to "
                          "speak"), out
    calls, _ = odds_answer(out)
    assert calls == ["pass", "order up S", "order up alone S"]
    assert re.search(r"we march \(take every trick\), %: order up S \d.*, order up alone S \d",
                     flat(out)), out


@checks('euchre odds 9S TS AD KD 9H --variant knock --upcard QS --seat N --dealer N '
        '--auction "E pass, S pass, W pass"')
def _knock_dealer(printed):
    """odds.md: the dealer picks it up with each discard, compared as one row at its best
    discard; the calls heard are inferred from (the acceptance rate is in the header)."""
    out = printed[-1][0]
    assert flat(out).startswith("knock: N holds TS 9S 9H AD KD (dealer N, upcard QS); heard: "
                                "E pass, S pass, W pass"), out
    assert re.search(r"\d+\.\d% of [\d,]+ deals tried fit the calls heard", flat(out)), out
    calls, _ = odds_answer(out)
    held = "9S TS AD KD 9H QS".split()
    assert len(calls) == 3 and calls[0] == "pass", calls
    for call, want in zip(calls[1:], ("pick it up S", "pick it up alone S"), strict=True):
        found = re.fullmatch(rf"{want} \(discard (\w\w)\)", call)
        assert found and found[1] in held, calls


@checks('euchre odds JH AH KH QD 9S TC --variant bid --seat S --dealer W --auction "N 3, E 4"')
def _bid_over_a_bid(printed):
    """odds.md: in bid, pass or any bid above the current one (over a 4: only 5), the 6-ask
    with a card worth giving, the moon; the ladder auction's trick table; the calls heard are
    inferred from."""
    out = printed[-1][0]
    assert flat(out).startswith("bid: S holds 9S AH KH JH QD TC (dealer W); heard: N 3, E 4")
    assert re.search(r"of [\d,]+ deals tried fit the calls heard", flat(out)), out
    trick_table(out, "CDHS")
    calls, _ = odds_answer(out)
    asks = [re.fullmatch(r"6-ask (\w) \(give (\w\w)\), gets (\w\w)", c) for c in calls
            if c.startswith("6-ask")]
    assert [a[1] for a in asks] == list("CDHS"), calls
    assert all(a[2] in "JH AH KH QD 9S TC".split() for a in asks), calls
    assert [c for c in calls if not c.startswith("6-ask")] == \
        ["pass"] + [f"{call} {s}" for call in ("bid 5", "moon") for s in "CDHS"]


@checks("euchre odds JH JD AH KH QH 9S --variant bid --bid 5")
def _bid_narrowed(printed):
    """odds.md: ``--bid`` narrows the options; the dealer defaults to the seat on your
    right, the seat to N."""
    out = printed[-1][0]
    assert out.startswith("bid: N holds 9S AH KH QH JH JD (dealer W); first to speak"), out
    trick_table(out, "CDHS")
    calls, _ = odds_answer(out)
    assert calls == ["pass"] + [f"bid 5 {s}" for s in "CDHS"]


@checks('euchre odds JH JD AH KH 9S TC --variant bid --trump C --exact --given '
        '"S: has 9H QC KC AC QS JS" --others points')
def _exact(printed):
    """odds.md: ``--exact`` enumerates every layout (no intervals: nothing is sampled),
    ``--trump`` narrows the options and the trick table, later calls by ``--others``."""
    out = printed[-1][0]
    assert "every layout, analyzer play, later calls by the points strategy" in flat(out), out
    assert "±" not in out and "deals tried" not in out
    trick_table(out, "C")
    calls, _ = odds_answer(out)
    assert [re.sub(r" \(give \w\w\), gets \w\w$", "", c) for c in calls] == \
        ["pass", "bid 3 C", "bid 4 C", "bid 5 C", "6-ask C", "moon C"]


@checks('euchre solve "N: JH JD AH KH QH / E: 9D TD QD KD AD / S: 9C TC JC QC KC / '
        'W: 9S TS JS QS KS" --variant knock --trump H')
def _solve_knock(printed):
    """solver.md: the tricks of each side, the value of every opening lead (N leads, holding
    the five top trumps: every lead takes all five), the nodes searched."""
    out = printed[-1][0]
    assert "knock: trump H, declarer N, N leads." in out, out
    assert "Declaring side (NS): 5 tricks; defenders: 0." in out, out
    leads = {r[0]: r[1] for r in table_rows(out, "opening lead")}
    assert leads == dict.fromkeys("JH JD AH KH QH".split(), "5"), leads
    assert re.search(r"^Nodes searched: [1-9][\d,]*$", out, re.M), out


@checks('euchre solve "N: JH JD AH KH QH 9S / E: 9D TD QD KD AD JC / S: 9C TC QC KC AC 9H / '
        'W: TH JS QS KS AS TS" --variant bid --trump H --ask --json')
def _solve_ask(printed):
    """solver.md: ``--json`` has the keys declarer_tricks, defender_tricks, leads, nodes,
    choices and hands; with ``--ask`` the bidder gives its best card away, the partner
    returns its best trump (S's only one, 9H) and sits out."""
    got = json.loads(printed[-1][0])
    assert {"declarer_tricks", "defender_tricks", "leads", "nodes", "choices",
            "hands"} <= set(got), got
    assert got["choices"]["receive"] == "9H" and got["choices"]["give"] in \
        "JH JD AH KH QH 9S".split(), got["choices"]
    assert set(got["hands"]) == {"N", "E", "W"}, got["hands"]
    held = "JH JD AH KH QH 9S 9H".split()
    held.remove(got["choices"]["give"])
    assert sorted(got["leads"]) == sorted(held) == sorted(got["hands"]["N"].split())
    assert got["declarer_tricks"] + got["defender_tricks"] == 6
    assert got["declarer_tricks"] == max(got["leads"].values()) and got["nodes"] > 0


def simulated(out: str, header: str) -> float:
    """A simulation's A win share (%), after checking its header and that the share lies in
    its printed 95% interval, against a fair share of 50%."""
    assert out.startswith(header), out
    assert re.search(rf"^{CAPS['--games']} games, [\d,]+ hands", out, re.M), out
    won = re.search(r"A wins (\d+\.\d)% \[(\d+\.\d), (\d+\.\d)\] \(a fair share is 50%\)", out)
    assert won and float(won[2]) <= float(won[1]) <= float(won[3]), out
    return float(won[1])


@checks("euchre simulate --variant bid --games 10000 --vs random --vs-play random")
def _simulate_against_random(printed):
    """strategies-and-simulation.md: the point-count strategy with the default card play
    (the analyzer's player) beats random play in 99-100% of games (here on a few games)."""
    won = simulated(printed[-1][0], "bid: A = points bidding, analyzer play; B = random "
                                    "bidding, random play; seed 0")
    assert won >= 90


@checks("euchre simulate --variant knock --games 2000 --play pimc --vs-play heuristic")
def _simulate_pimc(printed):
    """strategies-and-simulation.md: A plays PIMC, B heuristic, both bid by the point count."""
    simulated(printed[-1][0], "knock: A = points bidding, pimc play; B = points bidding, "
                              "heuristic play; seed 0")


def priced_rows(rows: list[dict]) -> None:
    """evaluate-and-review.md: each row's ``options`` hold every legal call's net points keyed
    by call, trump and detail, the best call's under its own key."""
    for row in rows:
        options = row["options"] if isinstance(row["options"], dict) else \
            json.loads(row["options"])
        best = f"{row['best_option']} {row['best_trump'] or ''}".strip()
        best += f" ({row['best_detail']})" if row["best_detail"] else ""
        assert options[best] == pytest.approx(row["ev"], abs=1e-3), (best, row)
        assert max(options.values()) == pytest.approx(row["ev"], abs=1e-3), row
        assert row["ev_low"] <= row["ev"] <= row["ev_high"], row


@checks("euchre evaluate hands.csv --variant knock -o priced.parquet",
        "euchre evaluate hands.csv --variant knock -o priced.parquet --resume")
def _evaluate_to_parquet(printed):
    """evaluate-and-review.md: a row per hand with its input line number, at the default
    2,000 deals; the journal becomes the Parquet file (no scratch left)."""
    err = printed[-1][1]
    assert "2 hands evaluated; written to priced.parquet" in err, err
    assert sorted(p.name for p in Path().glob("priced*")) == ["priced.parquet"]
    rows = pd.read_parquet("priced.parquet")
    assert rows["line"].tolist() == [2, 3] and (rows["deals"] == 2000).all(), rows
    assert rows["hand"].str.split().map(sorted).tolist() == \
        [sorted(line.split(",")[0].split()) for line in HANDS_CSV.splitlines()[1:]]
    assert rows["seat"].tolist() == ["E", "S"] and rows["upcard"].tolist() == ["9H", "JH"]
    priced_rows(rows.to_dict("records"))


@checks("euchre evaluate hands.txt --variant bid --deals 500 --method heuristic --json")
def _evaluate_json(printed):
    """evaluate-and-review.md: one JSON object a hand, with its line number, the fields read
    from the line (``seat=E``), the best call, runner-up, margin and acceptance."""
    rows = [json.loads(line) for line in printed[-1][0].splitlines()]
    assert [r["line"] for r in rows] == [1, 2] and [r["seat"] for r in rows] == ["N", "E"]
    assert {r["deals"] for r in rows} == {CAPS["--deals"]}  # the example's 500, cut down
    for key in ("hand", "best_option", "best_trump", "best_detail", "ev", "ev_low", "ev_high",
                "p_we_make", "p_we_make_low", "p_we_make_high", "runner_up", "margin",
                "margin_low", "margin_high", "too_close", "acceptance", "options"):
        assert all(key in r for r in rows), key
    priced_rows(rows)


def card_rows(out: str) -> list[list[str]]:
    """A review's play table: the cells of each card's row (``#, card, seat, trick, made,
    best…``)."""
    return [re.split(r"\s{2,}", line.strip()) for line in out.splitlines()
            if re.match(r"\s*\d+\s+card\s", line)]


@checks("euchre review tests/records/knock_misplay.json")
def _review_misplay_seen_from_the_seat(printed):
    """evaluate-and-review.md: by default each card is judged from its player's seat: E's JS
    at trick 3 (holding the winning AS) is flagged on every layout E could face; S's KS lead
    is not."""
    out = printed[-1][0]
    js = re.search(r"card\s+E\s+3\s+JS\s+AS\s+[\d.]+\s+[\d.]+\s+(\d+\.\d+)\s", out)
    assert js and float(js[1]) > 0.5, out  # a trick lost: the best card is AS
    assert re.search(r"card\s+S\s+3\s+KS\s+[\d.]+\s+[\d.]+\s+0\s+0\s", out), out


@checks("euchre review tests/records/knock_misplay.json --method dd")
def _review_misplay(printed):
    """evaluate-and-review.md: S leads KS at trick 3 where a trump lead (9D or QD) holds E to
    2 tricks, and E follows with JS holding the winning AS; the dd review flags exactly those
    two cards, 1 and 2 tricks, 3 points each, and says whether the contract was makeable."""
    out = printed[-1][0]
    assert "(not makeable)" in flat(out), out
    flagged = [r for r in card_rows(out) if r[-1] == "*"]
    assert [r[1:] for r in flagged] == [
        ["card", "S", "3", "KS", "9D QD", "2", "3", "1", "3", "*"],
        ["card", "E", "3", "JS", "AS", "3", "1", "2", "3", "*"]], flagged


@checks("euchre play --variant knock --seed 4 --json | euchre review -")
def _review_piped(printed):
    """evaluate-and-review.md: ``euchre play --json`` output is a record review reads: every
    card of the hand played is judged, in the order played."""
    record = json.loads(printed[0][0])
    out = printed[-1][0]
    result = record["result"]
    assert flat(out).startswith(f"knock: {result['declarer']} {result['contract']}"), out
    assert re.search(rf"\((not )?makeable\); took {result['declarer_tricks']}\b", flat(out))
    rows = card_rows(out)
    assert [r[4] for r in rows] == " ".join(record["tricks"]).split(), rows
    assert [int(r[3]) for r in rows] == [t for t in range(1, 6) for _ in range(4)], rows


@checks("euchre play --variant knock --seed 1 --game --json | euchre review -")
def _review_game(printed):
    """evaluate-and-review.md: a whole game piped to review is a batch: every hand of it
    reviewed, each record with the score before its hand, the last one's hand ending it."""
    records = [json.loads(line) for line in printed[0][0].splitlines()]
    assert len(records) > 1 and records[0]["score"] == {"NS": 0, "EW": 0}
    last = records[-1]
    assert max(last["score"][k] + last["result"]["points"][k] for k in ("NS", "EW")) >= 10
    assert flat(printed[-1][0]).startswith(f"{len(records)} hands reviewed"), printed[-1][0]


@checks("euchre equity --variant cutthroat")
def _equity_cutthroat(printed):
    """equity.md: the three-player table is a slice per seat dealing next, chances in %."""
    out = printed[-1][0]
    for who in ("I deal next", "the player on my left deals next",
                "the player on my right deals next"):
        assert who in out, out
    rows = [line.split() for line in out.splitlines() if re.match(r"\d\s+\d", line)]
    assert len(rows) == 30 and all(0 <= float(v) <= 100 for r in rows for v in r[1:])


@checks("euchre equity --variant bid --stick-the-dealer -o bid-equity.csv")
def _equity_bid_file(printed):
    """equity.md: -o writes every state, seen from each side: us, them, dealer, p_win."""
    t = pd.read_csv("bid-equity.csv")
    assert list(t.columns) == ["us", "them", "dealer", "p_win"] and len(t) > 1000
    assert t["p_win"].between(0, 1).all() and set(t["dealer"]) == {"us", "them"}
    assert t["us"].min() < 0  # bid scores fall below zero


@checks("euchre equity --variant knock --win-by-two --plot knock-equity.png")
def _equity_plot(printed):
    """equity.md: --plot draws the heat map."""
    assert Path("knock-equity.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@checks("euchre review club-night.jsonl -o decisions.csv")
def _review_file(printed):
    """evaluate-and-review.md: a file of records gives a summary, decisions by type (how
    many, tricks and points lost), and ``-o`` writes every decision."""
    out = printed[-1][0]
    assert out.startswith("3 hands reviewed: "), out
    decisions = pd.read_csv("decisions.csv")
    assert sorted(decisions["record_line"].unique()) == [1, 2, 3]
    for kind, rows in decisions.groupby("kind"):
        # tricks lost are fractional where a card is judged on the worlds of its seat's view
        shown = re.search(rf"^\s*{kind}\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s", out, re.M)
        assert shown, (kind, out)
        assert int(shown[1]) == len(rows), (kind, shown[0])
        assert float(shown[3]) == pytest.approx(rows["cost_tricks"].fillna(0).sum(), abs=0.001), \
            (kind, shown[0])
        assert float(shown[4]) == pytest.approx(rows["cost_points"].sum(), abs=0.01)


@checks("euchre table --variant bid --deals 1000000 -o bid-tables",
        "euchre table --variant bid --deals 100000000 -o bid-tables --scheduler "
        "tcp://SCHEDULER:8786",
        "euchre table --variant knock --method heuristic -o knock-heuristic-tables")
def _table(printed):
    """tables-and-reports.md: the tables strength, features, hands, advice and gains (and by
    upcard in knock), Parquet and CSV each, plus meta.json with the rules, method, strategy,
    deals and seed; the line printed counts them."""
    out = printed[-1][0]
    told = re.match(r"(\w+): ([\d,]+) deals, (\w+), others bid by (\w+), seed (\d+); (\d+) "
                    r"files in (\S+) ", flat(out))
    assert told, out
    variant, deals, method, others, seed, files, folder = told.groups()
    tables = ["strength", "features", "hands", "advice", "gains"]
    tables += ["gains_by_upcard"] if variant == "knock" else []
    written = {p.name for p in Path(folder).iterdir() if p.is_file()}
    assert written == {f"{t}.{ext}" for t in tables for ext in ("parquet", "csv")} | \
        {"meta.json"} and int(files) == len(written), written
    meta = json.loads((Path(folder) / "meta.json").read_text())
    assert (meta["variant"], meta["deals"], meta["method"], meta["others"], meta["seed"]) == \
        (variant, int(deals.replace(",", "")), method, others, int(seed)), meta
    assert meta["deals"] == CAPS["--deals"] and "rules" in meta
    for t in tables:
        assert len(pd.read_parquet(Path(folder) / f"{t}.parquet")) == \
            len(pd.read_csv(Path(folder) / f"{t}.csv")) > 0, t


def test_every_docs_example_shows_or_is_checked():
    """Each example in docs/ has its output shown (and compared) or a check of what it prints,
    and every check is of an example the docs still show."""
    docs = sorted((ROOT / "docs").glob("*.md"))
    shown = {command for command, _ in shown_outputs(docs)}
    unchecked = [e for e in doc_examples(docs) if e not in shown and e not in CHECKS]
    assert not unchecked, unchecked
    assert not set(CHECKS) - set(EXAMPLES), set(CHECKS) - set(EXAMPLES)
