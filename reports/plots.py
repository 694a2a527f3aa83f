"""Plots of strategy tables (matplotlib, Agg). Each takes the tables the analyzer built
(pandas DataFrames and their ``meta``) and returns a figure; lines differ by marker and dash
as well as shade, so every plot reads in black and white. Never calls kernels/."""

from __future__ import annotations

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from analyzer.stats import wilson  # noqa: E402

STYLES = [dict(color="0.0", marker="o", linestyle="-"), dict(color="0.35", marker="s",
                                                              linestyle="--"),
          dict(color="0.55", marker="^", linestyle="-."), dict(color="0.2", marker="D",
                                                               linestyle=":"),
          dict(color="0.65", marker="v", linestyle=(0, (5, 1)))]


def caption(meta: dict) -> str:
    """The line every plot carries: variant, rules that differ from the defaults, method,
    deals and seed."""
    rules = ", ".join(f"{k}={v}" for k, v in meta.get("changed", {}).items()) or "default rules"
    return (f"{meta['variant']}, {rules}; {meta['method']} play; {meta['deals']:,} deals, "
            f"seed {meta['seed']}")


def _figure(title: str, meta: dict, size=(7.5, 4.6)):
    fig, ax = plt.subplots(figsize=size, dpi=110)
    ax.set_title(title, fontsize=11)
    fig.text(0.01, 0.01, caption(meta), fontsize=7.5, color="0.3")
    fig.subplots_adjust(bottom=0.2)
    ax.grid(True, color="0.88", linewidth=0.6)
    return fig, ax


def _top(features: pd.DataFrame) -> pd.DataFrame:
    out = features.copy()
    out["top"] = out["right"] + out["left"] + out["ace"]
    return out


def main_option(meta: dict) -> str:
    """The option the success plots follow: ordering up in the upcard auction; in a ladder
    auction bid 4 with a partner's help, bid 3 alone."""
    if meta["auction"] == "upcard":
        return "order up"
    return "bid 4" if meta["partnership"] else "bid 3"


def success_by_trumps(tables: dict, option: str | None = None, min_deals: int = 30):
    """P(making ``option``) against the number of trumps held, one line per number of top
    trumps held (right bower, left bower, ace), with 95% interval bands."""
    meta = tables["meta"]
    option = option or main_option(meta)
    f = _top(tables["features"])
    f = f[f["option"] == option].groupby(["top", "n_trumps"], as_index=False)[
        ["deals", "made"]].sum()
    fig, ax = _figure(f"Chance of making '{option}' by trumps held", meta)
    for i, (top, grp) in enumerate(f.groupby("top")):
        grp = grp[grp["deals"] >= min_deals].sort_values("n_trumps")
        if grp.empty:
            continue
        p, lo, hi = wilson(grp["made"].to_numpy(float), grp["deals"].to_numpy(float))
        style = STYLES[i % len(STYLES)]
        ax.plot(grp["n_trumps"], 100 * p, label=f"{top} of right, left bower, ace", **style)
        ax.fill_between(grp["n_trumps"], 100 * lo, 100 * hi, color=style["color"], alpha=0.15,
                        linewidth=0)
    ax.set_xlabel("trumps held (count, bowers included)")
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_ylabel(f"P(make '{option}') (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8, loc="upper left")
    return fig


def march_heatmap(tables: dict, min_deals: int = 20):
    """Chance of taking every trick (the moon in bid and ghost; a lone march in knock and
    cutthroat) by trumps held and top trumps held, as a grey heatmap with the percentages
    written in (cells with fewer than ``min_deals`` deals left blank)."""
    meta = tables["meta"]
    option = "moon" if meta["auction"] == "ladder" else "order up alone"
    f = _top(tables["features"])
    f = f[f["option"] == option].groupby(["top", "n_trumps"], as_index=False)[
        ["deals", "march"]].sum()
    f = f[f["deals"] >= min_deals]
    grid = f.pivot(index="top", columns="n_trumps", values="march") / \
        f.pivot(index="top", columns="n_trumps", values="deals")
    fig, ax = _figure("Shoot the moon: P(all tricks)" if option == "moon" else
                      "Alone: P(march)", meta, size=(7.5, 4.2))
    values = 100 * grid.to_numpy(dtype=float)
    im = ax.imshow(values, cmap="Greys", vmin=0, vmax=100, aspect="auto", origin="lower")
    for (r, c), v in np.ndenumerate(values):
        if not np.isnan(v):
            ax.text(c, r, f"{v:.0f}", ha="center", va="center", fontsize=8,
                    color="white" if v > 55 else "black")
    ax.set_xticks(range(len(grid.columns)), [str(c) for c in grid.columns])
    ax.set_yticks(range(len(grid.index)), [str(r) for r in grid.index])
    ax.set_xlabel("trumps held (count)")
    ax.set_ylabel("top trumps held (right, left, ace)")
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="P(all tricks) (%)")
    return fig


def ev_by_strength(tables: dict, min_deals: int = 30):
    """Expected net points of each option against the hand's point count in the trump suit,
    with the best option at each strength drawn as a thick frontier."""
    meta = tables["meta"]
    s = tables["strength"]
    if "seat" in s.columns:
        s = s.groupby(["option", "strength"], as_index=False)[["deals", "points"]].sum()
        s["ev"] = s["points"] / s["deals"]
    s = s[s["deals"] >= min_deals]
    fig, ax = _figure("Expected net points of each option by hand strength", meta)
    for i, (option, grp) in enumerate(s.groupby("option")):
        grp = grp.sort_values("strength")
        ax.plot(grp["strength"], grp["ev"], label=option, markersize=3, linewidth=1,
                **STYLES[i % len(STYLES)])
    frontier = s.sort_values("ev", ascending=False).groupby("strength").head(1).sort_values(
        "strength")
    ax.plot(frontier["strength"], frontier["ev"], color="0", linewidth=3.5, alpha=0.35,
            label="best option")
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.set_xlabel("point count in the trump suit (points, see README)")
    ax.set_ylabel("expected net points per hand")
    ax.legend(fontsize=8, loc="upper left")
    return fig


def order_up_by_seat(tables: dict, min_deals: int = 30):
    """Knock and cutthroat: expected net points of ordering up by hand strength, one line per
    seat relative to the dealer (upcards pooled), and the same by upcard rank."""
    meta = tables["meta"]
    s = tables["strength"]
    s = s[s["option"] == "order up"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4), dpi=110, sharey=True)
    for ax, key, title in ((axes[0], "seat", "by seat"), (axes[1], "upcard", "by upcard")):
        g = s.groupby([key, "strength"], as_index=False)[["deals", "points"]].sum()
        g = g[g["deals"] >= min_deals]
        for i, (value, grp) in enumerate(g.groupby(key)):
            grp = grp.sort_values("strength")
            ax.plot(grp["strength"], grp["points"] / grp["deals"], label=str(value),
                    markersize=3, linewidth=1, **STYLES[i % len(STYLES)])
        ax.axhline(0, color="0.5", linewidth=0.8)
        ax.set_title(f"Ordering up {title}", fontsize=10)
        ax.set_xlabel("point count in the upcard's suit (points)")
        ax.grid(True, color="0.88", linewidth=0.6)
        if len(g):
            ax.legend(fontsize=7.5, title=key, title_fontsize=8)
        else:
            ax.text(0.5, 0.5, "too few deals", transform=ax.transAxes, ha="center")
    axes[0].set_ylabel("expected net points per hand")
    fig.text(0.01, 0.01, caption(meta), fontsize=7.5, color="0.3")
    fig.subplots_adjust(bottom=0.2)
    return fig


def keep_or_swap(tables: dict):
    """Ghost: expected net points of keeping the dealt hand (its best bid) by strength, with
    its interval band, against the value of swapping for the ghost hand."""
    meta = tables["meta"]
    sw = tables["swap"]
    sw = sw[sw["deals"] >= 30]
    fig, ax = _figure("Keep the dealt hand or swap for the ghost hand", meta)
    ax.plot(sw["strength"], sw["keep_ev"], label="keep (best bid)", **STYLES[0])
    ax.fill_between(sw["strength"], sw["keep_ev_low"], sw["keep_ev_high"], color="0",
                    alpha=0.15, linewidth=0)
    ax.axhline(sw["swap_ev"].iloc[0], label="swap (a random hand)", **STYLES[1])
    ax.set_xlabel("point count of the best suit (points)")
    ax.set_ylabel("expected net points per hand")
    ax.legend(fontsize=8)
    return fig


def methods(compare: dict):
    """Double dummy against PIMC and heuristic play: the main option's chance of making by
    hand strength under each play model (``compare``: method -> tables, same seed)."""
    first = next(iter(compare.values()))
    meta = dict(first["meta"], method=" / ".join(compare))
    option = main_option(meta)
    fig, ax = _figure(f"'{option}' under each play model", meta)
    for i, (method, tables) in enumerate(compare.items()):
        s = tables["strength"]
        s = s[s["option"] == option].groupby("strength", as_index=False)[
            ["deals", "made"]].sum()
        s = s[s["deals"] >= 20]
        p, lo, hi = wilson(s["made"].to_numpy(float), s["deals"].to_numpy(float))
        style = STYLES[i % len(STYLES)]
        ax.plot(s["strength"], 100 * p, label=f"{method} ({tables['meta']['deals']:,} deals)",
                markersize=3, **style)
        ax.fill_between(s["strength"], 100 * lo, 100 * hi, color=style["color"], alpha=0.12,
                        linewidth=0)
    ax.set_xlabel("point count in the trump suit (points)")
    ax.set_ylabel(f"P(make '{option}') (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8, loc="upper left")
    return fig


def all_plots(tables: dict, compare: dict | None = None) -> list[tuple[str, object]]:
    """Every plot that applies to the variant, as ``(name, figure)``."""
    out = [("success_by_trumps", success_by_trumps(tables)),
           ("all_tricks", march_heatmap(tables)),
           ("ev_by_strength", ev_by_strength(tables))]
    if tables["meta"]["auction"] == "upcard":
        out.append(("order_up_by_seat", order_up_by_seat(tables)))
    if "swap" in tables:
        out.append(("keep_or_swap", keep_or_swap(tables)))
    if compare:
        out.append(("methods", methods(compare)))
    return out
