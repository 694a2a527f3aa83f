"""What changes with the score, shown (issue 43, item 4): the thresholds of the analyzer's
calls at a score against a brute-force count, the table a player reads, ``euchre strategy
score``, and the report's section (the equity heat map and the calls that change)."""

import numpy as np
import pandas as pd
import pytest

from analyzer.cli import run
from analyzer.game.variants import make_rules
from analyzer.questions.equity import score_calls as SC
from reports.report import write_html, write_markdown

pytestmark = pytest.mark.strategy


def test_a_threshold_is_the_cut_with_the_fewest_decisions_on_the_wrong_side():
    """Against every cut counted by hand: the calls under it and the passes from it."""
    rng = np.random.default_rng(3)
    for _ in range(40):
        points = rng.integers(0, 40, size=300) / 4
        made = rng.random(300) < 1 / (1 + np.exp(-(points - rng.uniform(2, 8)) * 2))
        t = SC.threshold(points, made)
        wrong = {c: sum(1 for p, m in zip(points, made, strict=True) if (p < c) == m)
                 for c in sorted(set(points))}
        assert wrong[t] == min(wrong.values()) and t == min(c for c in wrong
                                                           if wrong[c] == wrong[t])
    assert np.isnan(SC.threshold(np.arange(1000.0), np.arange(1000) == 3))  # rare: never


def test_the_readable_table_marks_what_changes():
    frame = pd.DataFrame([
        {"score": "9-6", "deals": "we", "seat": "dealer", "call": "order up",
         "from_points": 3.75, "share": 0.74, "blind_from": 4.25, "blind_share": 0.62},
        {"score": "9-9", "deals": "we", "seat": "dealer", "call": "order up",
         "from_points": 4.25, "share": 0.63, "blind_from": 4.25, "blind_share": 0.62},
        {"score": "9-6", "deals": "they", "seat": "first", "call": "alone (round 1)",
         "from_points": np.nan, "share": 0.001, "blind_from": np.nan, "blind_share": 0.002},
        {"score": "9-9", "deals": "they", "seat": "first", "call": "alone (round 1)",
         "from_points": 7.4, "share": 0.015, "blind_from": np.nan, "blind_share": 0.002}])
    t = SC.readable(frame)
    assert list(t.columns) == ["call", "seat", "score-blind", "9-6", "9-9"]
    assert t.iloc[0].tolist() == ["order up", "we deal: dealer", "4.2 62%", "3.8 74%*",
                                  "4.2 63%"]
    assert t.iloc[1].tolist() == ["alone (round 1)", "they deal: first", "never", "never",
                                  "7.4 2%*"]
    assert len(SC.readable(frame.iloc[[1]], only_changed=True)) == 0


def test_strategy_score_prints_the_calls_at_each_score(capsys):
    assert run(["strategy", "score", "--variant", "knock", "--hands", "2000"]) == 0
    out = capsys.readouterr().out
    for words in ("order up", "alone (round 1)", "we deal: dealer", "they deal: first",
                  "score-blind", "9-6", "8-9", "9-9"):
        assert words in out
    assert run(["strategy", "score", "--variant", "ghost"]) == 2
    assert "does not play to the score" in capsys.readouterr().err


def test_the_report_has_the_score_section(tmp_path, small_tables):
    """The section: the heat map of the table (one panel per side dealing next) and the
    calls that change, in HTML and Markdown."""
    from analyzer.questions.tables.report import score_section

    tables = dict(small_tables["knock"])
    tables["score"] = score_section(make_rules("knock"), hands=2000)
    assert set(tables["score"]["calls"].columns) >= {"call", "seat", "score-blind", "9-9"}
    text = write_html(tables, tmp_path / "r.html").read_text()
    assert "<section id='score'>" in text and "id='plot-equity'" in text
    assert "we deal: dealer" in text and "Playing to the score" in text
    md = write_markdown(tables, tmp_path / "r.md").read_text()
    assert "## Playing to the score" in md and "r_images/equity.png" in md
    assert (tmp_path / "r_images" / "equity.png").read_bytes()[:4] == b"\x89PNG"
    ghost = dict(small_tables["ghost"])
    ghost["score"] = score_section(make_rules("ghost"), hands=2000)
    text = write_html(ghost, tmp_path / "g.html").read_text()
    assert "id='plot-equity'" in text and "we deal: dealer" not in text
