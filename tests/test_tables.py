"""Strategy tables and reports: agreement with direct odds queries, counts that add up,
resuming after an interrupt, report structure, and rendering in a real headless browser."""

import html.parser
import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from matplotlib import image

from analyzer.compute.engine import decision_rows
from analyzer.game.outcomes import outcome_arrays
from analyzer.game.variants import LADDER, make_rules
from analyzer.questions.tables import build_tables, table_meta, write_tables
from analyzer.strategy import tables as table_kernel
from analyzer.strategy.seats import others_policies
from kernels import bidding as B
from kernels import codes as K
from kernels.decisions import RW
from kernels.slots import X
from reports.how_to_bid import how_to_bid
from reports.report import write_html, write_markdown
from tests.cards import card_name
from tests.rollout_reference import Option, rollout

LADDER_CALLS = {B.L_PASS: "pass", B.L_BID3: "3", B.L_BID4: "4", B.L_BID5: "5", B.L_ASK: "ask",
                B.L_MOON: "moon", B.L_SWAP: "swap"}
UPCARD_CALLS = {B.U_PASS: ("pass", 0), B.U_ORDER: ("order", 0), B.U_ALONE: ("order", 1),
                B.U_NAME: ("name", 0), B.U_NAME_ALONE: ("name", 1)}


def _reference_option(rules, row) -> Option:
    """The pure-Python rollout's option for a table row's call (the strategy picks discards,
    cards given and a bid's trump, as the table's rows do)."""
    option = int(row[RW.OPTION])
    if rules.auction == LADDER:
        return Option(call=LADDER_CALLS[option])
    call, alone = UPCARD_CALLS[option]
    if call == "name":
        call = f"name {'CDHS'[int(row[RW.TRUMP])]}"
    return Option(call=call, alone=alone)


def _heard_before(calls, point):
    """The calls before N's call number ``point`` (0 = its first) in an auction."""
    seen = -1
    for j, (seat, _) in enumerate(calls):
        if seat == "N":
            seen += 1
            if seen == point:
                return calls[:j]
    raise AssertionError(f"N makes no call number {point} in {calls}")


@pytest.mark.parametrize("variant, deals", [("bid", 2), ("ghost", 3), ("knock", 12),
                                            ("cutthroat", 12)])
def test_table_rows_agree_with_the_pure_python_rollout(variant, deals):
    """Each table row (N's call at a point reached by the point-count strategy, played out to
    the end) against ``tests.rollout_reference`` on the same deal."""
    rules = make_rules(variant)
    policies, params = others_policies("points", "dd", rules)
    dealers = np.arange(deals) % rules.players
    dealt, upcards, rows = decision_rows(rules, policies, params, 11, 0, dealers, True)
    net = outcome_arrays(rules, 0, rows[:, :, RW.RESULT:RW.RESULT + X.LEN].astype(np.int64))["net"]
    compared = 0
    for i in range(deals):
        hands = {s: [card_name(c) for c in range(64) if (int(dealt[i, k]) >> c) & 1]
                 for k, s in enumerate("NESW") if int(dealt[i, k])}
        dealer = "NESW"[int(dealers[i])]
        up = card_name(int(upcards[i])) if rules.has_upcard else None
        # N's first point comes in the strategy's auction, its round-2 point after it passed
        auctions = [rollout(variant, hands, dealer, up, [], "N", Option(call=call)).calls
                    for call in (None, "pass")]
        for k in np.nonzero(rows[i, :, RW.OPTION] >= 0)[0]:
            row = rows[i, k]
            point = int(row[RW.POINT])
            heard = _heard_before(auctions[point], point)
            got = rollout(variant, hands, dealer, up, heard, "N", _reference_option(rules, row))
            res = row[RW.RESULT:]
            where = (i, point, int(row[RW.OPTION]), got.calls)
            if got.status == "redeal":
                assert res[X.STATUS] == K.ST_ALL_PASSED, where
                continue
            assert "NESW"[int(res[X.DECLARER])] == got.declarer, where
            assert int(res[X.TRICKS]) == got.tricks, where
            assert net[i, k] == pytest.approx(got.net), where
            compared += 1
    assert compared >= deals


@pytest.mark.parametrize("variant", ["bid", "ghost", "knock", "cutthroat"])
def test_every_call_of_every_point_is_counted_once(variant):
    """N's first point comes once a deal (in the upcard auction unless a seat ordered before
    N spoke), every legal call of it is played on that deal, and the tables add up alike."""
    rules = make_rules(variant)
    tables = build_tables(rules, 1200, seed=2, chunk=200)
    deals = tables["meta"]["deals"]
    strength = tables["strength"]
    by_table = {name: tables[name].groupby("option")["deals"].sum()
                for name in ("strength", "features")}
    pd.testing.assert_series_equal(by_table["strength"], by_table["features"])
    if rules.auction == LADDER:
        counts = strength.groupby("option")["deals"].sum()
        assert counts["pass"] == deals
        ladder = [c for c in ["bid 3", "bid 4", "bid 5", f"{rules.hand_size}-ask", "moon",
                              "pass"] if c in counts]
        assert counts[ladder].is_monotonic_increasing, counts  # a bid legal: all above it too
        assert tables["hands"]["deals"].sum() == deals  # one hand a deal
        return
    for rnd, calls in ((1, ["pass", "order up", "order up alone"]),
                       (2, ["name", "name alone"])):
        counts = strength[strength["round"] == rnd].groupby("option")["deals"].sum()
        assert counts[calls].nunique() == 1, counts  # all legal at every such point
        assert 0 < counts[calls[0]] <= deals * (1 if rnd == 1 else 3)
    first = strength[(strength["round"] == 1) & (strength["option"] == "pass")]["deals"].sum()
    assert tables["hands"]["deals"].sum() == first
    for name in ("strength", "features"):  # each row's chances and value are of its counts
        t = tables[name]
        assert np.allclose(t["p_we_make"], t["we_make"] / t["deals"]), name
        inside = (t["p_we_make_low"] <= t["p_we_make"] + 1e-12) & \
            (t["p_we_make"] <= t["p_we_make_high"] + 1e-12)  # rounding: a low of 5.6e-17
        assert inside.all(), t[~inside]
        assert np.allclose(t["ev"], t["points"] / t["deals"]), name


def test_an_interrupted_table_resumes_to_the_same_result(tmp_path, monkeypatch):
    rules = make_rules("knock")
    whole = build_tables(rules, 1500, tmp_path / "whole", seed=4, chunk=100)
    real = table_kernel.decision_rows
    calls = {"n": 0}

    def flaky(*args):
        calls["n"] += 1
        if calls["n"] == 7:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(table_kernel, "decision_rows", flaky)
    with pytest.raises(KeyboardInterrupt):
        build_tables(rules, 1500, tmp_path / "cut", seed=4, chunk=100)
    saved = len(list((tmp_path / "cut" / "chunks").glob("*.features.parquet")))
    assert saved == 6
    monkeypatch.setattr(table_kernel, "decision_rows", real)
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
    expected = ["how-to-bid", "rules", "plots", "table-advice", "table-strength",
                "table-features", "table-hands"]
    if variant == "ghost":
        expected.append("table-swap")
    assert outline.sections == expected
    assert outline.images == plots
    for header in ("option", "strength", "deals", "p_we_make", "ev", "best_option"):
        assert header in outline.headers
    text = path.read_text()
    assert "http://" not in text and "https://" not in text  # self-contained
    assert f"{tables['meta']['deals']:,} deals" in text and "seed 1" in text
    advice = how_to_bid(tables)
    starts = [line.split(":")[0] for line in advice]
    seats = ("first seat (left of the dealer)", "second seat", "third seat", "the dealer")
    if tables["meta"]["auction"] == "upcard":
        assert starts[:8] == [f"Round {r}, {seat}" for r in (1, 2) for seat in seats]
    else:
        assert starts[0].startswith("Opening, ") and starts[0][9:] in seats
    assert advice[-1].startswith("Points are the built-in point count")
    assert all(html.escape(line) in text or line in text for line in advice)


def test_markdown_report(tmp_path, small_tables):
    path = write_markdown(small_tables["knock"], tmp_path / "k.md")
    text = path.read_text()
    images = sorted(p.relative_to(tmp_path).as_posix()
                    for p in (tmp_path / "k_images").glob("*.png"))
    assert len(images) == 4 and sorted(re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)) == images
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
    assert "IMAGES 4 OF 4 SECTIONS 7" in done.stdout, done.stderr[-500:]
    shot = tmp_path / "shot.png"
    subprocess.run([_chromium(), *flags, f"--screenshot={shot}", "--window-size=1200,2000",
                    path.as_uri()], capture_output=True, timeout=120)
    # the page drawn: a blank page's screenshot is a PNG of 11 kB too, so its pixels are
    # read (the report's are 14% not white, the top of a page of plain text's 2%)
    pixels = image.imread(shot)[..., :3]
    assert pixels.shape[:2] == (2000, 1200)
    assert (pixels < 0.98).any(axis=2).mean() > 0.05


def test_more_deals_reuse_the_chunks_already_played(tmp_path, monkeypatch):
    """Re-run with more (or fewer) deals: the chunks both runs share are read, not played
    again (they used to be deleted), and the tables equal a fresh build's."""
    rules = make_rules("knock")
    build_tables(rules, 650, tmp_path / "t", seed=4, chunk=100)
    fresh = build_tables(rules, 1000, tmp_path / "fresh", seed=4, chunk=100)
    real = table_kernel.decision_rows
    played = []

    def counted(*args):
        played.append(args[4])  # the first deal of the chunk
        return real(*args)

    monkeypatch.setattr(table_kernel, "decision_rows", counted)
    more = build_tables(rules, 1000, tmp_path / "t", seed=4, chunk=100)
    assert sorted(played) == [600, 700, 800, 900]  # 0-599 kept; the old last chunk (50) is not
    for name in ("features", "strength", "hands"):
        pd.testing.assert_frame_equal(more[name], fresh[name])
    played.clear()
    fewer = build_tables(rules, 300, tmp_path / "t", seed=4, chunk=100)
    assert played == [] and fewer["meta"]["deals"] == 300


def test_an_interrupted_table_says_so_on_stderr(tmp_path, monkeypatch, capsys):
    """``euchre table`` cut short: where the chunks are, on stderr (stdout is the results'),
    exit 130, and not also "nothing was kept" (the command's exit carried the interrupt)."""
    from analyzer.cli import run

    def interrupted(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(table_kernel, "decision_rows", interrupted)
    assert run(["table", "--variant", "knock", "--deals", "300", "-o", str(tmp_path / "t")]) \
        == 130
    out, err = capsys.readouterr()
    assert "interrupted: the chunks done are saved" in err and "interrupted" not in out
    assert "nothing was kept" not in err, err


def test_the_reports_advice_is_in_words_and_only_where_deals_support_it():
    """The report's advice table showed raw NaN and inf (hundreds of times) and rows of one
    deal; it shows "too few deals" and "never", and leaves out rows on too few deals."""
    from reports.report import ADVICE_MIN_DEALS, _table_frame

    advice = pd.DataFrame({"round": [1, 1, 1, 2], "seat": ["first"] * 4,
                           "option": ["order up", "order up alone", "name", "name"],
                           "against": ["pass"] * 4,
                           "from_points": [3.5, float("inf"), float("nan"), 2.0],
                           "deals": [ADVICE_MIN_DEALS, 5000, 900, 1], "gain": [0.1] * 4})
    shown = _table_frame("advice", advice)
    assert shown["from_points"].tolist() == ["3.5", "never", "too few deals"]


def test_a_call_has_one_line_style_in_every_panel_and_empty_cells_are_not_zero(small_tables):
    """The gains plot drew a call dashed in one seat's panel and dash-dot in the next, with a
    legend over the data in each; now one style per call everywhere and one legend below. The
    heatmap drew cells with too few deals white, like 0%."""
    from matplotlib.colors import to_rgba

    from reports import plots

    fig = plots.gains_by_seat(small_tables["knock"], min_deals=1)
    seen = {}
    for ax in fig.axes:
        assert ax.get_legend() is None
        for line in ax.get_lines():
            if line.get_label().startswith("_"):
                continue  # the zero line
            style = (line.get_linestyle(), line.get_marker(), line.get_color())
            assert seen.setdefault(line.get_label(), style) == style, line.get_label()
    assert len(seen) >= 2 and len(fig.legends) == 1
    heat = plots.march_heatmap(small_tables["knock"], min_deals=1)
    bad = heat.axes[0].images[0].cmap.get_bad()
    assert tuple(bad) != to_rgba("white") and bad[3] > 0


def test_the_advice_says_how_sure_it_is():
    """Issue 21 (12): advice with few deals contradicted itself with no confidence shown; each
    threshold now carries the 95% interval of its gain, and the sentence says "not sure" when
    that interval holds 0."""
    from analyzer.stats import Z95
    from analyzer.strategy.advice import beats_passing_from
    from reports.how_to_bid import _pts

    gains = pd.DataFrame({"seat": ["first"] * 3, "option": ["order up"] * 3,
                          "against": ["pass"] * 3, "strength": [10, 8, 6],
                          "deals": [100, 100, 100], "gain": [0.5, 0.3, -0.2]})
    gains["gain_low"] = gains["gain"] - Z95 * 0.1
    gains["gain_high"] = gains["gain"] + Z95 * 0.1  # a standard error of 0.1 at each strength
    row = beats_passing_from(gains, ["seat"], 50).iloc[0]
    assert (row["from_points"], row["deals"]) == (8, 200)
    assert row["gain"] == pytest.approx(0.4)
    half = Z95 * (100 ** 2 * 0.01 * 2) ** 0.5 / 200  # the mean of two cells of 100 deals
    assert (row["gain_low"], row["gain_high"]) == pytest.approx((0.4 - half, 0.4 + half))
    assert _pts(row) == "from 8 points"
    gains["gain_low"] = gains["gain"] - Z95 * 3
    gains["gain_high"] = gains["gain"] + Z95 * 3
    assert _pts(beats_passing_from(gains, ["seat"], 50).iloc[0]) == "from 8 points (not sure)"
