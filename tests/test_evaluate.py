"""``euchre evaluate``: reading hand files, bad rows with line numbers, agreement with direct
odds queries, and a run killed mid-way that resumes to the same output."""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from analyzer.cli import run
from analyzer.errors import UserError
from analyzer.game.variants import make_rules
from analyzer.questions.odds.answer import odds
from analyzer.questions.odds.options import option_label
from analyzer.questions.review.evaluate import BadRow, Row, evaluate_file, read_rows
from analyzer.strategy.defaults import DEFAULT_METHOD
from tests.paths import KNOCK_ROW, hands_file
from tests.test_hostile import assert_one_error, run_cli

pytestmark = [pytest.mark.review, pytest.mark.cli]

KNOCK = make_rules("knock")
DECK = [r + s for s in "CDHS" for r in "9TJQKA"]


def heard_before(seat: str) -> str:
    """With W dealing, the first-round passes before ``seat`` speaks."""
    return ", ".join(f"{s} pass" for s in "NESW"[:"NESW".index(seat)])


def knock_file(path: Path, n: int, seed: int = 1) -> Path:
    rng = random.Random(seed)
    lines = ["# knock hands: five cards, then the upcard, the seats and the calls heard"]
    for i in range(n):
        cards = rng.sample(DECK, 6)
        seat = "NESW"[i % 4]
        heard = f' auction="{heard_before(seat)}"' if seat != "N" else ""
        lines.append(" ".join(cards[:5]) + f" upcard={cards[5]} seat={seat} dealer=W{heard}")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_csv_rows_and_bad_rows_keep_their_line_numbers(tmp_path):
    f = tmp_path / "h.csv"
    f.write_text("hand,seat,upcard\n\nAH JH KD QD JD,E,9H\nAH JH,E\n9S TS QS KS AD,W,AS\n")
    rows = list(read_rows(f))
    assert [type(r) for r in rows] == [Row, BadRow, Row]
    assert [r.line for r in rows] == [3, 4, 5]
    assert rows[0].fields == {"hand": "AH JH KD QD JD", "seat": "E", "upcard": "9H"}
    assert "2 fields" in rows[1].message


def test_jsonl_and_text_rows(tmp_path):
    j = tmp_path / "h.jsonl"
    j.write_text('{"hand": ["AH", "JH", "KD", "QD", "JD"], "upcard": "9H"}\n[1]\n{oops\n'
                 '{"hand": "AH JH KD QD JD", "colour": "red"}\n')
    rows = list(read_rows(j))
    assert rows[0].fields == {"hand": "AH JH KD QD JD", "upcard": "9H"}
    assert [(type(r).__name__, r.line) for r in rows[1:]] == [("BadRow", 2), ("BadRow", 3),
                                                             ("BadRow", 4)]
    assert "colour" in rows[3].message
    t = tmp_path / "h.txt"
    t.write_text("# comment\nAH, JH KD QD JD upcard=9H seat=e  # trailing\n\nAH JH x=1\n")
    rows = list(read_rows(t))
    assert rows[0].line == 2 and rows[0].fields == {"hand": "AH JH KD QD JD", "upcard": "9H",
                                                    "seat": "e"}
    assert isinstance(rows[1], BadRow) and rows[1].line == 4


def test_rows_agree_with_direct_odds_queries(tmp_path):
    f = knock_file(tmp_path / "h.txt", 6)
    got = []
    evaluate_file(f, KNOCK, None, deals=300, seed=4, on_row=got.append)
    assert len(got) == 6
    for row, spec in zip(got, [r for r in read_rows(f)], strict=True):
        seat = spec.fields["seat"]
        direct = odds(spec.fields["hand"], rules=KNOCK, upcard=spec.fields["upcard"],
                      seat=seat, dealer="W", auction=heard_before(seat), deals=300, seed=4)
        assert row["auction"] == heard_before(seat)
        assert row["ev"] == pytest.approx(direct.best["ev"])
        assert row["best_option"] == direct.best["best"]
        values = json.loads(row["options"])
        assert values == {option_label(r.option, r.trump, r.detail): pytest.approx(r.ev, abs=0.01)
                          for r in direct.details.itertuples()}  # every option, discards too
        assert values[option_label(row["best_option"], row["best_trump"], row["best_detail"])] \
            == pytest.approx(row["ev"], abs=0.01)


def test_bad_rows_are_reported_and_valid_rows_kept(tmp_path, capsys):
    f = tmp_path / "h.csv"
    f.write_text("hand,upcard,seat\nAH JH KD QD JD,9H,E\nAH AH KD QD JD,9H,E\n"
                 "9S TS QS KS AD,AS,Q\n9S TS QS KS AD,AS,W\n")
    out = tmp_path / "o.csv"
    code = run(["evaluate", str(f), "--variant", "knock", "--deals", "100", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0
    assert "line 3: 'AH' appears more than once" in err and "line 4:" in err
    assert pd.read_csv(out)["line"].tolist() == [2, 5]
    code = run(["evaluate", str(f), "--variant", "knock", "--deals", "100", "--strict"])
    err = capsys.readouterr().err
    assert code == 2 and "line 3" in err and err.count("\n") == 1


@pytest.mark.parametrize("content, message", [
    ("seat,upcard\nE,9H\n", "has no 'hand' column"),
    ("hand,upcrad\nAH JH KD QD JD,9H\n", "unknown column 'upcrad'"),
])
def test_bad_files_are_one_line_errors(tmp_path, capsys, content, message):
    f = tmp_path / "h.csv"
    f.write_text(content)
    assert run(["evaluate", str(f), "--variant", "knock"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert run(["evaluate", str(tmp_path / "missing.csv"), "--variant", "knock"]) == 2
    assert "no such file" in capsys.readouterr().err
    assert run(["evaluate", str(f), "--variant", "knock", "-o", str(tmp_path / "o.xlsx")]) == 2


def test_a_killed_run_resumes_to_the_same_output(tmp_path):
    f = knock_file(tmp_path / "h.txt", 60)
    whole = tmp_path / "whole.parquet"
    evaluate_file(f, KNOCK, whole, deals=400, seed=2)
    out = tmp_path / "part.parquet"
    journal = out.with_name(out.name + ".partial.csv")
    cmd = [sys.executable, "-m", "analyzer", "evaluate", str(f), "--variant", "knock",
           "--deals", "400", "--seed", "2", "-o", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if journal.exists() and journal.read_text().count("\n") >= 6:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    rows_before = journal.read_text().count("\n") - 1
    assert 0 < rows_before < 60
    with pytest.raises(UserError, match="--resume"):
        evaluate_file(f, KNOCK, out, deals=400, seed=2)
    with pytest.raises(UserError, match="different settings"):
        evaluate_file(f, KNOCK, out, deals=300, seed=2, resume=True)
    summary = evaluate_file(f, KNOCK, out, deals=400, seed=2, resume=True)
    assert summary.resumed >= rows_before and summary.resumed + summary.evaluated == 60
    pd.testing.assert_frame_equal(pd.read_parquet(out), pd.read_parquet(whole))
    assert not journal.exists()


def test_a_resumed_run_counts_the_rows_it_priced_and_says_when_it_starts_over(tmp_path):
    """After an interruption the resumed run counts the rows of the journal (not every line
    before it: a bad row there was never priced), and --resume with no interrupted run says
    that it started from the first row."""
    f = tmp_path / "h.txt"
    f.write_text("JS AS KS 9H TD upcard=QS seat=N dealer=W\n"
                 "9C TC JC QC KC upcard=QS seat=E dealer=W\n"  # read, then refused: not E's turn
                 "9H TD QC KC 9D upcard=9S seat=N dealer=W\nJH JD AH KH QH upcard=9H seat=N "
                 "dealer=W\nAS AD AC 9S 9D upcard=TC seat=N dealer=W\n")
    out = tmp_path / "o.csv"

    def stop_after_line_3(line):
        if line == 3:
            raise KeyboardInterrupt
    first = evaluate_file(f, KNOCK, out, deals=100, on_progress=stop_after_line_3)
    assert first.interrupted and first.evaluated == 2 and len(first.bad) == 1
    again = evaluate_file(f, KNOCK, out, deals=100, resume=True)
    assert (again.resumed, again.evaluated, again.fresh) == (2, 2, False)
    assert len(pd.read_csv(out)) == 4
    out.unlink()
    fresh = evaluate_file(f, KNOCK, out, deals=100, resume=True)
    assert fresh.fresh and (fresh.resumed, fresh.evaluated) == (0, 4)


def test_a_strict_stop_leaves_no_scratch_files(tmp_path, capsys):
    f = tmp_path / "h.txt"
    f.write_text("JS AS KS 9H TD upcard=QS seat=N dealer=W\nXX XX\n")
    out = tmp_path / "o.csv"
    code = run(["evaluate", str(f), "--variant", "knock", "--deals", "100", "--strict",
                "-o", str(out)])
    assert code == 2 and "line 2" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.txt"]


def test_an_empty_output_name_is_refused(tmp_path, capsys, monkeypatch):
    """``-o ""`` is the current folder to pathlib: it wrote a dozen table files there."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "h.txt").write_text("JS AS KS 9H TD upcard=QS seat=N dealer=W\n")
    for args in (["table", "--variant", "knock", "--deals", "100", "-o", ""],
                 ["evaluate", "h.txt", "--variant", "knock", "-o", " "]):
        assert run(args) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: -o is empty"), err  # one line, no blank line first
    assert [p.name for p in tmp_path.iterdir()] == ["h.txt"]


def test_too_close_is_a_boolean_in_csv_and_parquet(tmp_path):
    """``too_close`` reads back as a boolean column from both outputs (Parquet stored the
    strings "True"/"False")."""
    f = knock_file(tmp_path / "h.txt", 3)
    for name in ("o.csv", "o.parquet"):
        evaluate_file(f, KNOCK, tmp_path / name, deals=100)
        frame = pd.read_csv(tmp_path / name) if name.endswith("csv") else \
            pd.read_parquet(tmp_path / name)
        assert frame["too_close"].dtype == bool, name


def test_tab_separated_files_and_unclosed_quotes(tmp_path):
    """A .tsv file is read with its header (it was read as text: "knock hands need an
    upcard"), and a CSV quote never closed is reported as such at the line it opens (it was
    "2 fields, but the header has 5")."""
    tsv = tmp_path / "h.tsv"
    tsv.write_text("hand\tupcard\tseat\tdealer\nJS AS KS 9H TD\tQS\tN\tW\n")
    got = []
    evaluate_file(tsv, KNOCK, None, deals=100, on_row=got.append)
    assert len(got) == 1 and got[0]["upcard"] == "QS"
    bad = tmp_path / "h.csv"
    bad.write_text('hand,upcard,seat,dealer\nJS AS KS 9H TD,QS,N,W\n"9H TD QC KC 9D,9S,N,W\n'
                   "JH JD AH KH QH,9H,N,W\n")
    rows = list(read_rows(bad))
    assert isinstance(rows[0], Row) and isinstance(rows[1], BadRow)
    assert rows[1].line == 3 and "quote" in rows[1].message and "not closed" in rows[1].message




def test_evaluate_will_not_overwrite_its_input(tmp_path):
    f = hands_file(tmp_path)
    before = f.read_bytes()
    assert "is the input file" in assert_one_error(["evaluate", str(f), "--variant", "knock",
                                                     "-o", str(f)])
    assert f.read_bytes() == before


def test_a_dealers_options_are_keyed_by_discard(tmp_path):
    from analyzer.questions.odds.options import option_label

    f = hands_file(tmp_path, ['9S TS AD KD 9H,N,N,QS,"E pass, S pass, W pass"'],
               header="hand,seat,dealer,upcard,auction")
    out = tmp_path / "o.csv"
    code, _, err = run_cli(["evaluate", str(f), "--variant", "knock", "--deals", "200",
                            "-o", str(out)])
    assert code == 0, err
    row = pd.read_csv(out, keep_default_na=False).iloc[0]
    options = json.loads(row["options"])
    assert sum("discard" in k for k in options) >= 12  # six discards, alone or not
    best = option_label(row["best_option"], row["best_trump"], row["best_detail"])
    assert options[best] == pytest.approx(row["ev"], abs=1e-3)
    assert max(options.values()) == pytest.approx(row["ev"], abs=1e-3)


def test_resume_refuses_an_edited_input(tmp_path):
    rows = [KNOCK_ROW, "9S TS QH KH AC,E,N,JH", "AS KS QS 9H TD,E,N,JS"]
    f = hands_file(tmp_path, rows)
    out = tmp_path / "o.csv"
    assert run_cli(["evaluate", str(f), "--variant", "knock", "--deals", "50", "-o",
                    str(out)])[0] == 0
    journal = out.with_name(out.name + ".partial.csv")
    settings = out.with_name(out.name + ".partial.json")
    # an interrupted run: the first two rows priced, then the input edited
    priced = pd.read_csv(out, keep_default_na=False, dtype=str).head(2)
    priced.to_csv(journal, index=False)
    settings.write_text(json.dumps({"file": str(f.resolve()), "variant": "knock",
                                    "rules": json.loads(json.dumps(_knock_rules())),
                                    "deals": 50, "method": DEFAULT_METHOD, "seed": 0,
                                    "others": "analyzer", "worlds": 20}))
    out.unlink()
    hands_file(tmp_path, [rows[0], "9S TS QH KH AD,E,N,JH", rows[2]])
    line = assert_one_error(["evaluate", str(f), "--variant", "knock", "--deals", "50",
                             "-o", str(out), "--resume"])
    assert "line 3" in line and "changed" in line


def _knock_rules():
    from analyzer.game.variants import make_rules

    return make_rules("knock").options


def test_excel_csv_with_bom_and_crlf(tmp_path):
    f = tmp_path / "excel.csv"
    f.write_bytes(b"\xef\xbb\xbfhand,seat,dealer,upcard\r\n" + KNOCK_ROW.encode() + b"\r\n")
    code, out, err = run_cli(["evaluate", str(f), "--variant", "knock", "--deals", "50"])
    assert code == 0, err
    assert "line 2:" in out


def test_a_run_that_stops_early_leaves_no_scratch(tmp_path):
    f = hands_file(tmp_path, ["AH AH KD QD JD,E,N,9H", KNOCK_ROW])
    out = tmp_path / "o.csv"
    line = assert_one_error(["evaluate", str(f), "--variant", "knock", "--deals", "50", "-o",
                             str(out), "--strict"])
    assert "line 2" in line and "--resume" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.csv"]
    # so the next run fails (or succeeds) for its own reason, not "add --resume"
    assert run_cli(["evaluate", str(f), "--variant", "knock", "--deals", "50", "-o",
                    str(out)])[0] == 0


def test_nothing_processed_is_a_failure(tmp_path):
    f = hands_file(tmp_path, ["AH AH KD QD JD,E,N,9H", "XX"])
    assert "could be evaluated" in assert_one_error(["evaluate", str(f), "--variant",
                                                     "knock"])
    empty = tmp_path / "club.jsonl"
    empty.write_text("")
    assert "no record" in assert_one_error(["review", str(empty), "--call-deals", "0"])
