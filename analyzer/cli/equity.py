"""``euchre equity``: the chance of winning the game from every score (the match-equity
table)."""

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Column, Table

from ..outputs import check_output, written_whole
from . import common as opt
from .app import app
from .common import console, err_console, rules_for, with_rule_options


@app.command("equity")
@with_rule_options
def equity_cmd(
    variant: opt.VariantOption,
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write the whole table (every "
                                             "score and dealer) to this .csv or .parquet.")]
    = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw the table as a heat map in "
                                              "this .png.")] = None,
    check: Annotated[int, typer.Option(help="Also play this many whole games from each of a "
                                       "few scores and set the table beside them (0: no "
                                       "check).", min=0)] = 0,
    seed: opt.SeedOption = 0,
    rule_opts: dict | None = None,
):
    """The chance of winning the game from every score and dealer, for a side (each player
    in cutthroat and ghost), by dynamic programming over the scores from the outcome of one
    hand under the default strategy (shipped for the common rule sets, else played on first
    use). Rows our score, columns theirs (both opponents' in the three-player games); one
    table for each seat dealing next.

      euchre equity --variant knock

      euchre equity --variant bid --stick-the-dealer -o bid-equity.csv

      euchre equity --variant knock --win-by-two --plot knock-equity.png

      euchre equity --variant knock --check 2000
    """
    from ..questions.equity.build import equity_frame, heat_frames, meta_of, view_frames

    rules = rules_for(variant, rule_opts)
    if out is not None:
        check_output(out, suffixes=(".csv", ".parquet"))
    if plot is not None:
        check_output(plot, suffixes=(".png",), flag="--plot")
    meta = meta_of(rules)
    _print_tables(rules, meta, view_frames(rules))
    if check:
        _print_check(rules, check, seed)
    if out is not None:
        _write_table(equity_frame(rules), out)
        console.print(f"the whole table: {out}")
    if plot is not None:
        _write_plot(heat_frames(rules), meta, plot)
        console.print(f"heat map: {plot}")


def _about_line(meta: dict) -> str:
    """How the table was made: the hands of self-play, and how it was solved."""
    text = (f"from {meta['hands']:,} hands of self-play ({meta['strategy']} bids, "
            f"{meta['play']} play, seed {meta['seed']}, {meta['redeals']:,} redealt); ")
    if meta["sweeps"] == 1:
        return text + "solved exactly, highest score total first"
    return text + (f"solved in {meta['sweeps']} sweeps (each chance within "
                   f"{max(meta['unfinished'], 1e-12):.0e}); a score under {meta['floor']} "
                   f"counts as {meta['floor']}")


def _print_tables(rules, meta: dict, frames: list) -> None:
    """The header and one table per seat dealing next, in percent."""
    changed = ", ".join(f"{k}={v}" for k, v in meta["changed"].items()) or "default rules"
    who = "we" if len(frames) == 2 else "I"
    console.print(f"[bold]{rules.variant}[/bold], {changed}: the chance (%) that {who} win "
                  f"the game (first to {rules.target}) from each score", soft_wrap=True)
    console.print(_about_line(meta), soft_wrap=True)
    for title, frame in frames:
        console.print()
        console.print(f"{title}: rows {frame.index.name}, columns {frame.columns.name}")
        table = Table(*[Column(str(c), justify="right") for c in ["", *frame.columns]],
                      box=None, pad_edge=False)
        for score, row in frame.iterrows():
            table.add_row(str(score), *[f"{100 * v:.1f}" for v in row])
        console.print(table)


def _print_check(rules, games: int, seed: int) -> None:
    """The table beside whole games played from a few scores, with 95% intervals."""
    from ..questions.equity.equity_check import check_frame, check_table

    def show(done: int, total: int) -> None:
        err_console.print(f"  {done} of {total} scores played", soft_wrap=True)

    frame = check_frame(check_table(rules, games, seed, progress=show))
    first = "N-S" if rules.partnership else "N"
    console.print()
    console.print(f"the table against {games:,} whole games from each score (seed {seed}): "
                  f"the chance that {first} wins", soft_wrap=True)
    table = Table("score", "dealer", "table %", "games won %", "95% interval", "hands a game",
                  "agree", box=None, pad_edge=False)
    for row in frame.to_dict(orient="records"):
        table.add_row(row["score"], row["dealer"], f"{100 * row['table']:.1f}",
                      f"{100 * row['simulated']:.1f}",
                      f"[{100 * row['low']:.1f}, {100 * row['high']:.1f}]",
                      f"{row['hands_a_game']:.1f}", "yes" if row["agrees"] else "no")
    console.print(table)
    console.print(f"{int(frame['agrees'].sum())} of {len(frame)} within their interval")


def _write_table(frame, out: Path) -> None:
    """The whole table to ``out`` (.csv or .parquet), whole or not at all."""
    with written_whole(out) as tmp:
        if out.suffix.lower() == ".parquet":
            frame.to_parquet(tmp, index=False)
        else:
            frame.to_csv(tmp, index=False)


def _write_plot(frames: list, meta: dict, plot: Path) -> None:
    """The heat map to ``plot`` (.png), whole or not at all."""
    import matplotlib.pyplot as plt

    from reports.equity_heatmap import equity_heatmap

    fig = equity_heatmap(frames, meta, "we" if len(frames) == 2 else "I")
    try:
        with written_whole(plot) as tmp:
            fig.savefig(tmp, format="png")
    finally:
        plt.close(fig)
