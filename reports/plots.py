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


EMPTY_CELL = "#efe6cf"  # heatmap cells with too few deals to show


def caption(meta: dict) -> str:
    """The line every plot carries: variant, rules that differ from the defaults, method, the
    others' strategy, deals and seed."""
    rules = ", ".join(f"{k}={v}" for k, v in meta.get("changed", {}).items()) or "default rules"
    others = f", others bid by {meta['others']}" if meta.get("others") else ""
    return (f"{meta['variant']}, {rules}; {meta['method']} play{others}; {meta['deals']:,} "
            f"deals, seed {meta['seed']}")


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
    auction the table's second bid row with a partner's help (bid 4; 7-8 in the double deck),
    its first alone (``meta["bids"]``, the rows' names; bid 4 / bid 3 in tables written
    before it was kept)."""
    if meta["auction"] == "upcard":
        return "order up"
    bids = meta.get("bids") or ["bid 3", "bid 4"]
    return bids[1] if meta["partnership"] else bids[0]


def success_by_trumps(tables: dict, option: str | None = None, min_deals: int = 30):
    """P(making ``option``) against the number of trumps held, one line per number of top
    trumps held (right bower, left bower, ace), with 95% interval bands."""
    meta = tables["meta"]
    option = option or main_option(meta)
    f = _top(tables["features"])
    f = f[f["option"] == option].groupby(["top", "n_trumps"], as_index=False)[
        ["deals", "we_make"]].sum()
    fig, ax = _figure(f"Chance of making '{option}' by trumps held", meta)
    for i, (top, grp) in enumerate(f.groupby("top")):
        grp = grp[grp["deals"] >= min_deals].sort_values("n_trumps")
        if grp.empty:
            continue
        p, lo, hi = wilson(grp["we_make"].to_numpy(float), grp["deals"].to_numpy(float))
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
        ["deals", "we_march"]].sum()
    f = f[f["deals"] >= min_deals]
    grid = f.pivot(index="top", columns="n_trumps", values="we_march") / \
        f.pivot(index="top", columns="n_trumps", values="deals")
    fig, ax = _figure("Shoot the moon: P(all tricks)" if option == "moon" else
                      "Alone: P(march)", meta, size=(7.5, 4.2))
    values = 100 * grid.to_numpy(dtype=float)
    cmap = plt.get_cmap("Greys").with_extremes(bad=EMPTY_CELL)  # too few deals: not a white 0%
    im = ax.imshow(values, cmap=cmap, vmin=0, vmax=100, aspect="auto", origin="lower")
    for (r, c), v in np.ndenumerate(values):
        if not np.isnan(v):
            ax.text(c, r, f"{v:.0f}", ha="center", va="center", fontsize=8,
                    color="white" if v > 55 else "black")
    ax.set_xticks(range(len(grid.columns)), [str(c) for c in grid.columns])
    ax.set_yticks(range(len(grid.index)), [str(r) for r in grid.index])
    ax.set_xlabel("trumps held (count)")
    ax.set_ylabel("top trumps held (right, left, ace)")
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="P(all tricks) (%); tinted cells: too few deals")
    return fig


SEAT_ORDER = ["first", "second", "third", "dealer"]


def _gain_label(keys) -> str:
    """The legend label of one call in ``gains_by_seat`` (its round in the upcard auction)."""
    keys = keys if isinstance(keys, tuple) else (keys,)
    return keys[-1] + (f" (round {keys[0]})" if len(keys) > 1 else "")


def gains_by_seat(tables: dict, min_deals: int = 30):
    """Each call's gain over passing (EV(call) - EV(pass), same point, same deals) against
    the hand's point count, one panel per seat (decision points of a seat pooled; the
    upcard auction's round-1 and round-2 calls apart), with 95% interval bands."""
    meta = tables["meta"]
    by = ["seat", "round"] if meta["auction"] == "upcard" else ["seat"]
    g = tables["gains"]
    g = g[g["deals"] >= min_deals]
    fig, axes = plt.subplots(1, 4, figsize=(13, 4.6), dpi=110, sharey=True)
    keys = by[1:] + ["option"]
    labels = sorted({_gain_label(k) for k, _ in g.groupby(keys)})
    styles = {label: STYLES[i % len(STYLES)] for i, label in enumerate(labels)}  # one a call
    handles = {}
    for ax, seat in zip(axes, SEAT_ORDER, strict=True):
        mine = g[g["seat"] == seat]
        for k, grp in mine.groupby(keys):
            label = _gain_label(k)
            grp = grp.sort_values("strength")
            style = styles[label]
            (line,) = ax.plot(grp["strength"], grp["gain"], label=label, markersize=3,
                              linewidth=1, **style)
            handles.setdefault(label, line)
            ax.fill_between(grp["strength"], grp["gain_low"], grp["gain_high"],
                            color=style["color"], alpha=0.1, linewidth=0)
        ax.axhline(0, color="0.5", linewidth=0.8)
        ax.set_title(seat, fontsize=10)
        ax.set_xlabel("point count in the trump suit")
        ax.grid(True, color="0.88", linewidth=0.6)
        if not len(mine):
            ax.text(0.5, 0.5, "too few deals", transform=ax.transAxes, ha="center")
    if handles:  # one legend for every panel, below them: it covers no data
        fig.legend(list(handles.values()), list(handles), loc="lower center",
                   bbox_to_anchor=(0.5, 0.05), fontsize=7, ncol=min(5, len(handles)),
                   frameon=False)
    axes[0].set_ylabel("net points gained over passing")
    fig.suptitle("Each call against passing, by hand strength and seat", fontsize=11)
    fig.text(0.01, 0.01, caption(meta), fontsize=7.5, color="0.3")
    fig.subplots_adjust(bottom=0.27)
    return fig


def order_up_by_upcard(tables: dict, min_deals: int = 30):
    """Knock and cutthroat: ordering up's gain over passing by hand strength, one line per
    upcard rank (seats pooled)."""
    meta = tables["meta"]
    g = tables["gains_by_upcard"]
    g = g[(g["option"] == "order up") & (g["round"] == 1) & (g["deals"] >= min_deals)]
    fig, ax = _figure("Ordering up against passing, by upcard rank", meta)
    for i, (rank, grp) in enumerate(g.groupby("upcard")):
        grp = grp.sort_values("strength")
        ax.plot(grp["strength"], grp["gain"], label=str(rank), markersize=3, linewidth=1,
                **STYLES[i % len(STYLES)])
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.set_xlabel("point count in the upcard's suit (the upcard not counted)")
    ax.set_ylabel("net points gained over passing")
    if len(g):
        ax.legend(fontsize=8, title="upcard", title_fontsize=8)
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
            ["deals", "we_make"]].sum()
        s = s[s["deals"] >= 20]
        p, lo, hi = wilson(s["we_make"].to_numpy(float), s["deals"].to_numpy(float))
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
    out = [("gains_by_seat", gains_by_seat(tables)),
           ("success_by_trumps", success_by_trumps(tables)),
           ("all_tricks", march_heatmap(tables))]
    if tables["meta"]["auction"] == "upcard":
        out.append(("order_up_by_upcard", order_up_by_upcard(tables)))
    if "swap" in tables:
        out.append(("keep_or_swap", keep_or_swap(tables)))
    if compare:
        out.append(("methods", methods(compare)))
    return out
