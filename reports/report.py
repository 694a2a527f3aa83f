"""Report writers: one self-contained HTML file (images embedded, no network), or Markdown with
image files. Both take the tables the analyzer built (DataFrames plus ``meta``, which carries
the rules in words) and never call kernels/."""

from __future__ import annotations

import base64
import html
import io
import math
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from analyzer.outputs import written_whole

from . import plots
from .equity_heatmap import equity_heatmap
from .how_to_bid import how_to_bid

CONTEXT = ["round", "seat", "upcard", "suit", "bid_before", "holder", "trumps"]
RATES = ["p_we_make", "p_we_march", "p_we_euchred", "p_they_make", "p_redeal"]
TABLE_COLUMNS = {
    "advice": [*CONTEXT, "option", "against", "from_points", "deals", "gain", "gain_low",
               "gain_high"],
    "strength": ["option", *CONTEXT, "strength", "deals", *RATES, "ev", "ev_low", "ev_high"],
    "features": ["option", *CONTEXT, "n_trumps", "right", "left", "ace", "king", "side_aces",
                 "voids", "deals", *RATES, "ev"],
    "hands": ["hand", *CONTEXT, "deals", "best_trump", "best_option", "p_we_make", "ev",
              "ev_low", "ev_high"],
    "swap": ["strength", "deals", "keep_ev", "keep_ev_low", "keep_ev_high", "swap_ev",
             "advice"],
    "review_by_type": ["kind", "decisions", "costly", "tricks_lost", "points_lost",
                       "points_lost_per_decision"],
    "review_costliest": ["record_line", "contract", "kind", "seat", "trick", "choice", "best",
                         "cost_tricks", "cost_points", "note"],
}
TABLE_TITLES = {
    "advice": "From how many points each call beats passing (or, alone, the call with "
              "partner), at each kind of decision point ('any': pooled); gain: net points a "
              "hand over passing from there, with its 95% interval (how sure)",
    "strength": "By hand strength (point count in the trump suit); p_we_*: your side, "
                "p_they_*: theirs",
    "features": "By hand features",
    "hands": "Hand classes and their best call (most frequent first)",
    "swap": "Keep or swap for the ghost hand",
    "review_by_type": "Reviewed hands: decisions by type (double dummy; points lost by the side "
                      "that decided)",
    "review_costliest": "Reviewed hands: the costliest decisions",
}
ROW_LIMITS = {"advice": 200, "strength": 400, "features": 150, "hands": 60, "swap": 100,
              "review_by_type": 20, "review_costliest": 20}


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


ADVICE_MIN_DEALS = 200  # an advice row on fewer deals is noise: it is left out of the report


def _advice_words(value) -> str:
    """An advice threshold in words: ``never`` when no point count makes the call pay, ``too
    few deals`` when the deals cannot tell (the table held inf and NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "too few deals"
    if isinstance(value, float) and math.isinf(value):
        return "never"
    return f"{value:g}"


def _table_frame(name: str, frame: pd.DataFrame) -> pd.DataFrame:
    """The rows and columns of one table as the report shows them (the advice only where
    enough deals support it, its thresholds in words)."""
    cols = [c for c in TABLE_COLUMNS[name] if c in frame.columns]
    if name == "advice" and "deals" in frame.columns:
        frame = frame[frame["deals"] >= ADVICE_MIN_DEALS].copy()
        frame["from_points"] = frame["from_points"].map(_advice_words)
    return frame[cols].head(ROW_LIMITS[name])


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def _sections(tables: dict) -> list[str]:
    return [name for name in ("review_by_type", "review_costliest", "advice", "strength",
                              "features", "hands", "swap") if name in tables]


SCORE_TITLE = "Playing to the score"


def _score_words(score: dict) -> list[str]:
    """The section's words: what the heat map and the table of calls show."""
    meta = score["meta"]
    rounds = meta.get("rounds")
    iterated = (f" The table and the analyzer that plays to the score were iterated "
                f"{rounds} rounds, until no chance moved by more than "
                f"{meta['round_changes'][-1]:.4f}." if rounds else "")
    return [f"The chance of winning the game from each score, our side and theirs dealing "
            f"next (the match-equity table, {meta['hands']:,} hands of self-play).{iterated}",
            "The calls that change with the score: from how many points (the built-in point "
            "count) our seat makes each call at a score, ours first, and on what share of "
            "those decisions; the analyzer score-blind beside it ('never': almost never, "
            "'-': too few decisions, '*': a change of half a point or 5% of the decisions). "
            "At a score the analyzer makes the call with the best chance of winning the game, "
            "not the most points of the hand (euchre strategy score)."]


def _score_figure(score: dict):
    who = "we" if len(score["heat"]) == 2 else "I"
    return equity_heatmap(score["heat"], score["meta"], who)


def write_html(tables: dict, path: Path, compare: dict | None = None) -> Path:
    """Write the report as one self-contained HTML file; returns its path."""
    meta = tables["meta"]
    figures = plots.all_plots(tables, compare)
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Euchre strategy report: {html.escape(meta['variant'])}</title>",
        "<style>body{font-family:sans-serif;max-width:1100px;margin:auto;padding:1em;"
        "color:#111}table{border-collapse:collapse;font-size:12px;margin:0.5em 0 1.5em}"
        "td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}"
        "th{background:#eee}img{max-width:100%;border:1px solid #ddd}"
        "section{margin-bottom:2em}.rules{white-space:pre-wrap;font-size:13px}</style>",
        "</head><body>",
        f"<h1>Euchre strategy report: {html.escape(meta['variant'])}</h1>",
        f"<p id='facts'>{html.escape(plots.caption(meta))}</p>",
        "<section id='how-to-bid'><h2>How to bid this variant</h2><ul>",
        *[f"<li>{html.escape(line)}</li>" for line in how_to_bid(tables)],
        "</ul></section>",
        "<section id='rules'><h2>Rules in force</h2><div class='rules'>",
        html.escape("\n".join(meta.get("rules_text", []))), "</div></section>",
        "<section id='plots'><h2>Plots</h2>",
    ]
    for name, fig in figures:
        data = base64.b64encode(_png(fig)).decode("ascii")
        parts.append(f"<figure id='plot-{name}'><img alt='{name}' "
                     f"src='data:image/png;base64,{data}'></figure>")
    parts.append("</section>")
    if "score" in tables:
        score = tables["score"]
        words = _score_words(score)
        data = base64.b64encode(_png(_score_figure(score))).decode("ascii")
        parts += [f"<section id='score'><h2>{SCORE_TITLE}</h2>",
                  f"<p>{html.escape(words[0])}</p>",
                  f"<figure id='plot-equity'><img alt='equity' "
                  f"src='data:image/png;base64,{data}'></figure>",
                  *([f"<p>{html.escape(words[1])}</p>",
                     score["calls"].to_html(index=False, border=0, escape=True)]
                    if len(score["calls"]) else []), "</section>"]
    for name in _sections(tables):
        frame = _table_frame(name, tables[name])
        parts.append(f"<section id='table-{name}'><h2>{TABLE_TITLES[name]}</h2>")
        parts.append(frame.to_html(index=False, float_format=lambda v: f"{v:.3f}",
                                   border=0, escape=True))
        if name == "advice":
            parts.append(f"<p>Rows on fewer than {ADVICE_MIN_DEALS:,} deals are left out; "
                         f"'never': no point count makes the call pay.</p>")
        if len(tables[name]) > len(frame):
            parts.append(f"<p>First {len(frame):,} of {len(tables[name]):,} rows; the whole "
                         f"table is in the CSV and Parquet files of <code>euchre table"
                         f"</code>.</p>")
        parts.append("</section>")
    parts.append("</body></html>")
    path = Path(path)
    with written_whole(path) as tmp:
        tmp.write_text("\n".join(parts), encoding="utf-8")
    return path


def write_markdown(tables: dict, path: Path, compare: dict | None = None) -> Path:
    """Write the report as Markdown with the plots as PNG files beside it; returns its path."""
    meta = tables["meta"]
    path = Path(path)
    image_dir = path.parent / (path.stem + "_images")
    image_dir.mkdir(exist_ok=True)
    lines = [f"# Euchre strategy report: {meta['variant']}", "", plots.caption(meta), "",
             "## How to bid this variant", ""]
    lines += [f"- {line}" for line in how_to_bid(tables)]
    lines += ["", "## Rules in force", "", "```text", *meta.get("rules_text", []), "```", "",
              "## Plots", ""]
    for name, fig in plots.all_plots(tables, compare):
        with written_whole(image_dir / f"{name}.png") as tmp:
            tmp.write_bytes(_png(fig))
        lines.append(f"![{name}]({image_dir.name}/{name}.png)")
        lines.append("")
    if "score" in tables:
        score = tables["score"]
        words = _score_words(score)
        with written_whole(image_dir / "equity.png") as tmp:
            tmp.write_bytes(_png(_score_figure(score)))
        calls = score["calls"]
        lines += [f"## {SCORE_TITLE}", "", words[0], "",
                  f"![equity]({image_dir.name}/equity.png)", ""]
        if len(calls):
            lines += [words[1], "", "| " + " | ".join(calls.columns) + " |",
                      "|" + "---|" * len(calls.columns)]
            lines += ["| " + " | ".join(str(v) for v in row) + " |"
                      for row in calls.itertuples(index=False)]
            lines.append("")
    for name in _sections(tables):
        frame = _table_frame(name, tables[name])
        lines += [f"## {TABLE_TITLES[name]}", "",
                  "| " + " | ".join(frame.columns) + " |",
                  "|" + "---|" * len(frame.columns)]
        for row in frame.itertuples(index=False):
            lines.append("| " + " | ".join(_fmt(v) for v in row) + " |")
        lines.append("")
    with written_whole(path) as tmp:
        tmp.write_text("\n".join(lines), encoding="utf-8")
    return path
