"""``euchre report`` and its writers (reports/): the sections, plots and headers of an HTML
and a Markdown report, the advice in words with how sure it is, one line style per call, and
the report rendered in a real headless browser."""


import html.parser
import re
import shutil
import subprocess

import pandas as pd
import pytest
from matplotlib import image

from reports.how_to_bid import how_to_bid
from reports.report import write_html, write_markdown

pytestmark = pytest.mark.reports


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


def test_a_report_leaves_out_a_comparison_that_would_take_too_long(tmp_path, monkeypatch):
    """A report's PIMC comparison in the double deck would take hours: it is left out with a
    warning and the report is written (it used to run silently for hours)."""
    from analyzer.errors import TooLong
    from analyzer.game.variants import make_rules
    from analyzer.questions.tables import report

    real = report.build_tables

    def slow_pimc(rules, deals, out_dir, **kw):
        if kw["method"] == "pimc":
            raise TooLong("200 deals would take about 9 hours here", 9 * 3600)
        return real(rules, deals, out_dir, **kw)

    monkeypatch.setattr(report, "build_tables", slow_pimc)
    left_out = []
    path = report.build_report(make_rules("knock"), tmp_path / "r.html", deals=300,
                               method="heuristic", on_left_out=left_out.append)
    assert path.exists() and len(left_out) == 1 and left_out[0].startswith(
        "the pimc comparison is left out") and "9 hours" in left_out[0]
