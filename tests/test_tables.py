"""Strategy tables and reports: agreement with direct odds queries, counts that add up,
resuming after an interrupt, report structure, and rendering in a real headless browser."""

import html.parser
import math
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from analyzer.game.features import FEATURES, hand_features
from analyzer.game.notation import parse_hand
from analyzer.game.variants import make_rules
from analyzer.questions.odds import odds
from analyzer.questions.tables import build_tables, table_meta, write_tables
from kernels import query as Q
from reports.report import how_to_bid, write_html, write_markdown


def _close(p1, n1, p2, n2):
    se = math.sqrt(max(p1 * (1 - p1), 1e-4) / n1 + max(p2 * (1 - p2), 1e-4) / n2)
    return abs(p1 - p2) <= 4 * se + 1e-9


@pytest.mark.parametrize("hand", ["JH JD AH KH 9S TC", "AS KS QS 9H TD JC", "JC JS 9D TD QH AH"])
def test_tables_agree_with_odds_queries(hand):
    rules = make_rules("bid")
    mask = parse_hand(hand, rules)
    tables = build_tables(rules, 3000, hand=mask, seed=5)
    direct = odds(hand, "bid", deals=3000, seed=6, defend=False)
    feats = {t: tuple(hand_features(np.array([mask], dtype=np.uint64), t)
                      .iloc[0][FEATURES]) for t in range(4)}
    checked = 0
    for t, key in feats.items():
        if list(feats.values()).count(key) > 1:
            continue  # two trumps with the same features share a table row
        rows = tables["features"]
        for col, value in zip(FEATURES, key, strict=True):
            rows = rows[rows[col] == value]
        for option in ("bid 3", "bid 4", "bid 5", "moon"):
            row = rows[rows["option"] == option].iloc[0]
            want = direct.options[(direct.options["trump"] == "CDHS"[t]) &
                                  (direct.options["option"] == option)].iloc[0]
            assert row["deals"] == 3000
            assert _close(row["p_made"], 3000, want["p_make"], 3000), (t, option)
            se = ((row["ev_high"] - row["ev_low"]) + (want["ev_high"] - want["ev_low"])) / 3.92
            assert abs(row["ev"] - want["ev"]) <= 4 * se
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize("variant", ["bid", "ghost", "knock", "cutthroat"])
def test_every_deal_lands_in_exactly_one_row(variant):
    rules = make_rules(variant)
    tables = build_tables(rules, 1200, seed=2, chunk=200)
    deals = tables["meta"]["deals"]
    per_deal = 4 if variant in ("bid", "ghost") else 1  # trumps tried on each deal
    for name in ("features", "strength"):
        frame = tables[name]
        for option, grp in frame.groupby("option"):
            if option.startswith("pass"):
                continue  # only when N is not the dealer
            assert grp["deals"].sum() == deals * per_deal, (name, option)
    assert tables["hands"]["deals"].sum() <= deals * (per_deal if variant in ("knock",
                                                                               "cutthroat")
                                                      else 1) + 1
    assert (tables["features"]["p_made"].between(0, 1)).all()


def test_an_interrupted_table_resumes_to_the_same_result(tmp_path, monkeypatch):
    rules = make_rules("knock")
    whole = build_tables(rules, 1500, tmp_path / "whole", seed=4, chunk=100)
    real = Q.run_chunk
    calls = {"n": 0}

    def flaky(*args):
        calls["n"] += 1
        if calls["n"] == 7:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(Q, "run_chunk", flaky)
    with pytest.raises(KeyboardInterrupt):
        build_tables(rules, 1500, tmp_path / "cut", seed=4, chunk=100)
    saved = len(list((tmp_path / "cut" / "chunks").glob("*.features.parquet")))
    assert saved == 6
    monkeypatch.setattr(Q, "run_chunk", real)
    resumed = build_tables(rules, 1500, tmp_path / "cut", seed=4, chunk=100)
    for name in ("features", "strength", "hands"):
        pd.testing.assert_frame_equal(resumed[name], whole[name])


class _Outline(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections, self.images, self.headers = [], 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.sections.append(attrs.get("id"))
        if tag == "img" and attrs.get("src", "").startswith("data:image/png;base64,"):
            self.images += 1
        self._th = tag == "th"

    def handle_data(self, data):
        if getattr(self, "_th", False) and data.strip():
            self.headers.append(data.strip())
            self._th = False


@pytest.fixture(scope="module")
def small_tables():
    out = {}
    for variant in ("ghost", "knock"):
        rules = make_rules(variant)
        t = build_tables(rules, 2000, seed=1)
        t["meta"] = table_meta(rules, t)
        out[variant] = t
    return out


@pytest.mark.parametrize("variant, plots", [("ghost", 4), ("knock", 4)])
def test_report_structure(tmp_path, small_tables, variant, plots):
    tables = small_tables[variant]
    path = write_html(tables, tmp_path / "r.html")
    outline = _Outline()
    outline.feed(path.read_text())
    expected = ["how-to-bid", "rules", "plots", "table-strength", "table-features", "table-hands"]
    if variant == "ghost":
        expected.append("table-swap")
    assert outline.sections == expected
    assert outline.images == plots
    for header in ("option", "strength", "deals", "p_made", "ev", "best_option"):
        assert header in outline.headers
    text = path.read_text()
    assert "http://" not in text and "https://" not in text  # self-contained
    assert f"{tables['meta']['deals']:,} deals" in text and "seed 1" in text
    assert how_to_bid(tables)


def test_markdown_report(tmp_path, small_tables):
    path = write_markdown(small_tables["knock"], tmp_path / "k.md")
    text = path.read_text()
    images = list((tmp_path / "k_images").glob("*.png"))
    assert len(images) == 4 and text.count("![") == 4
    assert "## How to bid this variant" in text and "| option |" in text


def test_tables_are_written_as_parquet_and_csv(tmp_path, small_tables):
    files = write_tables(small_tables["ghost"], tmp_path)
    names = {f.name for f in files}
    assert {"features.parquet", "features.csv", "hands.parquet", "swap.csv",
            "meta.json"} <= names
    again = pd.read_parquet(tmp_path / "strength.parquet")
    pd.testing.assert_frame_equal(again, small_tables["ghost"]["strength"])


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.skipif(_chromium() is None, reason="no Chromium here: .ci/run installs Debian's "
                    "chromium so this runs in CI")
def test_report_renders_in_a_headless_browser(tmp_path, small_tables):
    path = write_html(small_tables["knock"], tmp_path / "r.html")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}"]
    # the browser's own DOM after loading: every image must have decoded (naturalWidth > 0)
    script = tmp_path / "check.html"
    script.write_text(
        "<html><body><iframe id=f src='r.html' style='width:1200px;height:900px'></iframe>"
        "<script>document.getElementById('f').onload=function(){var d=this.contentDocument;"
        "var imgs=[].slice.call(d.images);var ok=imgs.filter(function(i){return i.complete&&"
        "i.naturalWidth>0}).length;document.title='IMAGES '+ok+' OF '+imgs.length+' SECTIONS '"
        "+d.querySelectorAll('section').length;};</script></body></html>")
    done = subprocess.run([_chromium(), *flags, "--allow-file-access-from-files",
                           "--virtual-time-budget=10000", "--dump-dom", script.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert "IMAGES 4 OF 4 SECTIONS 6" in done.stdout, done.stderr[-500:]
    shot = tmp_path / "shot.png"
    subprocess.run([_chromium(), *flags, f"--screenshot={shot}", "--window-size=1200,2000",
                    path.as_uri()], capture_output=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 10_000
