"""The match-equity table as a heat map (matplotlib, Agg): one panel per seat dealing next,
rows our score, columns theirs, grey by the chance of winning the game (written in where the
cells are few enough to read). Takes the frames the analyzer built
(``analyzer.questions.equity.build.heat_frames``) and their ``meta``; never calls kernels/."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

MOST_WRITTEN = 12  # cells per side up to which each chance is written in


def equity_caption(meta: dict) -> str:
    """The line the plot carries: variant, rules that differ from the defaults, the hands of
    self-play the table is solved from, their strategy and seed."""
    rules = ", ".join(f"{k}={v}" for k, v in meta.get("changed", {}).items()) or "default rules"
    return (f"{meta['variant']}, {rules}; {meta['hands']:,} hands of self-play "
            f"({meta['strategy']} bids, {meta['play']} play), seed {meta['seed']}")


def equity_heatmap(frames: list, meta: dict, who: str = "we"):
    """The chance (%) that ``who`` wins the game from each score, a panel per frame of
    ``frames`` (``(title, DataFrame)``: index our score, columns theirs, cells 0 to 1)."""
    width = 4.2 * len(frames) + 1.2  # inches: the panels and the colour bar
    fig, axes = plt.subplots(1, len(frames), figsize=(width, 4.6), dpi=110, squeeze=False)
    for ax, (title, frame) in zip(axes[0], frames, strict=True):
        values = 100 * frame.to_numpy(dtype=float)
        image = ax.imshow(values, cmap="Greys", vmin=0, vmax=100, origin="lower",
                          aspect="auto")
        if values.shape[0] <= MOST_WRITTEN and values.shape[1] <= MOST_WRITTEN:
            for (r, c), v in np.ndenumerate(values):
                ax.text(c, r, f"{v:.0f}", ha="center", va="center", fontsize=7.5,
                        color="white" if v > 55 else "black")
        _ticks(ax, frame)
        ax.set_title(title, fontsize=10)
    fig.suptitle(f"The chance {who} win the game from each score (%)", fontsize=11)
    fig.subplots_adjust(bottom=0.17, top=0.87, left=0.6 / width, right=1 - 0.9 / width)
    fig.colorbar(image, ax=list(axes[0]), label=f"P({who} win) (%)", shrink=0.85,
                 fraction=0.3 / width, pad=0.2 / width)
    fig.text(0.01, 0.01, equity_caption(meta), fontsize=7.5, color="0.3")
    return fig


def _ticks(ax, frame) -> None:
    """Score labels on both axes (every fourth past a dozen), named as the frame names its
    index and columns."""
    step = 1 if len(frame.columns) <= MOST_WRITTEN else 4
    ax.set_xticks(range(0, len(frame.columns), step),
                  [str(c) for c in frame.columns[::step]], fontsize=8)
    ax.set_yticks(range(0, len(frame.index), step),
                  [str(r) for r in frame.index[::step]], fontsize=8)
    ax.set_xlabel(frame.columns.name)
    ax.set_ylabel(frame.index.name)
