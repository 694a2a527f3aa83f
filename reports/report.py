"""Report writers: one self-contained HTML file (images embedded, no network), or Markdown with
image files. Both take the tables the analyzer built (DataFrames plus ``meta``, which carries
the rules in words) and never call kernels/."""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from . import plots

TABLE_COLUMNS = {
    "strength": ["option", "seat", "upcard", "strength", "deals", "p_made", "p_made_low",
                 "p_made_high", "p_march", "p_euchred", "ev", "ev_low", "ev_high"],
    "features": ["option", "seat", "upcard", "n_trumps", "right", "left", "ace", "king",
                 "side_aces", "voids", "deals", "p_made", "p_march", "p_euchred", "ev"],
    "hands": ["hand", "seat", "upcard", "deals", "best_trump", "best_option", "p_made", "ev",
              "ev_low", "ev_high"],
    "swap": ["strength", "deals", "best_bid", "keep_ev", "keep_ev_low", "keep_ev_high",
             "swap_ev", "advice"],
    "review_by_type": ["kind", "decisions", "costly", "tricks_lost", "points_lost",
                       "points_lost_per_decision"],
    "review_costliest": ["record_line", "contract", "kind", "seat", "trick", "choice", "best",
                         "cost_tricks", "cost_points", "note"],
}
TABLE_TITLES = {
    "strength": "By hand strength (point count in the trump suit)",
    "features": "By hand features",
    "hands": "Hand classes and their best option (most frequent first)",
    "swap": "Keep or swap for the ghost hand",
    "review_by_type": "Reviewed hands: decisions by type (double dummy; points lost by the side "
                      "that decided)",
    "review_costliest": "Reviewed hands: the costliest decisions",
}
ROW_LIMITS = {"strength": 400, "features": 150, "hands": 60, "swap": 100, "review_by_type": 20,
              "review_costliest": 20}


def _first_at_least(frame: pd.DataFrame, col: str, level: float, min_deals: int = 200):
    rows = frame[(frame["deals"] >= min_deals) & (frame[col] >= level)].sort_values("strength")
    return None if rows.empty else rows.iloc[0]


def how_to_bid(tables: dict) -> list[str]:
    """A few plain sentences drawn from the tables: the smallest hand that makes each bid (or
    ordering up from each seat) more often than not, when to swap, the moon."""
    meta = tables["meta"]
    s = tables["strength"]
    lines = _advice(tables, meta, s, min_deals=max(20, min(200, meta["deals"] // 50)))
    if not lines:
        lines = [f"{meta['deals']:,} deals are too few to draw conclusions; run more."]
    return lines


def _advice(tables, meta, s, min_deals):
    lines = []
    if meta["auction"] == "ladder":
        for option in sorted(s["option"].unique()):
            if not option.startswith("bid"):
                continue
            row = _first_at_least(s[s["option"] == option], "p_made", 0.5, min_deals)
            if row is not None:
                lines.append(f"{option.capitalize()} makes more often than not from a trump suit "
                             f"worth {row['strength']:g} points "
                             f"({100 * row['p_made']:.0f}% of {int(row['deals']):,} deals).")
        for option in ("moon", f"{meta['hand_size']}-ask"):
            row = _first_at_least(s[s["option"] == option], "p_made", 0.5, min_deals // 4)
            if row is not None:
                lines.append(f"The {option} succeeds more often than not from {row['strength']:g}"
                             f" points ({100 * row['p_made']:.0f}%).")
        best = s[s["deals"] >= min_deals].sort_values("ev", ascending=False).groupby(
            "strength").head(1)
        positive = best[best["ev"] > 0].sort_values("strength")
        if not positive.empty:
            first = positive.iloc[0]
            lines.append(f"Bidding pays (positive expected net points) from {first['strength']:g}"
                         f" points, best with {first['option']} there.")
        if "swap" in tables:
            sw = tables["swap"]
            keep = sw[sw["advice"] == "keep"].sort_values("strength")
            if not keep.empty:
                lines.append(f"Keep the dealt hand when its best suit is worth "
                             f"{keep.iloc[0]['strength']:g} points or more; below that the "
                             f"unseen ghost hand is worth more on average "
                             f"({sw['swap_ev'].iloc[0]:+.2f} net points).")
        return lines
    for option in ("order up", "order up alone"):
        rows = s[s["option"] == option]
        for seat in ["first", "second", "third", "dealer"]:
            mine = rows[rows["seat"] == seat].groupby("strength", as_index=False)[
                ["deals", "points", "made"]].sum()
            good = mine[(mine["deals"] >= min_deals) & (mine["points"] > 0)].sort_values(
                "strength")
            if not good.empty:
                first = good.iloc[0]
                lines.append(f"From the {seat} seat, '{option}' has positive expected net "
                             f"points from {first['strength']:g} points in the upcard's suit "
                             f"(makes {100 * first['made'] / first['deals']:.0f}% there).")
    return lines


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _table_frame(name: str, frame: pd.DataFrame) -> pd.DataFrame:
    cols = [c for c in TABLE_COLUMNS[name] if c in frame.columns]
    return frame[cols].head(ROW_LIMITS[name])


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def _sections(tables: dict) -> list[str]:
    return [name for name in ("review_by_type", "review_costliest", "strength", "features",
                              "hands", "swap") if name in tables]


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
    for name in _sections(tables):
        frame = _table_frame(name, tables[name])
        parts.append(f"<section id='table-{name}'><h2>{TABLE_TITLES[name]}</h2>")
        parts.append(frame.to_html(index=False, float_format=lambda v: f"{v:.3f}",
                                   border=0, escape=True))
        if len(tables[name]) > len(frame):
            parts.append(f"<p>First {len(frame):,} of {len(tables[name]):,} rows; the whole "
                         f"table is in the CSV and Parquet files of <code>euchre table"
                         f"</code>.</p>")
        parts.append("</section>")
    parts.append("</body></html>")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def write_markdown(tables: dict, path: Path, compare: dict | None = None) -> Path:
    """Write the report as Markdown with the plots as PNG files beside it; returns its path."""
    meta = tables["meta"]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    image_dir = path.parent / (path.stem + "_images")
    image_dir.mkdir(exist_ok=True)
    lines = [f"# Euchre strategy report: {meta['variant']}", "", plots.caption(meta), "",
             "## How to bid this variant", ""]
    lines += [f"- {line}" for line in how_to_bid(tables)]
    lines += ["", "## Rules in force", "", "```text", *meta.get("rules_text", []), "```", "",
              "## Plots", ""]
    for name, fig in plots.all_plots(tables, compare):
        (image_dir / f"{name}.png").write_bytes(_png(fig))
        lines.append(f"![{name}]({image_dir.name}/{name}.png)")
        lines.append("")
    for name in _sections(tables):
        frame = _table_frame(name, tables[name])
        lines += [f"## {TABLE_TITLES[name]}", "",
                  "| " + " | ".join(frame.columns) + " |",
                  "|" + "---|" * len(frame.columns)]
        for row in frame.itertuples(index=False):
            lines.append("| " + " | ".join(_fmt(v) for v in row) + " |")
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
