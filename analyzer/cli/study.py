"""Commands that study a variant over many deals: ``simulate``, ``table`` and ``report``."""

from pathlib import Path
from typing import Annotated

import typer

from ..outputs import check_output_dir
from ..strategy.defaults import DECISION_NAMES as DECISIONS
from ..strategy.defaults import DEFAULT_STRATEGY as DEFAULT_OTHERS
from ..strategy.defaults import DEFAULT_WORLDS
from ..strategy.defaults import PLAY_NAMES as PLAYS
from . import common as opt
from .app import app
from .common import (
    NO_CLUSTER,
    ChunkRun,
    console,
    err_console,
    print_json,
    rules_for,
    runs_chunks,
    with_rule_options,
)


@app.command("simulate")
@with_rule_options
@runs_chunks
def simulate_cmd(
    variant: opt.VariantOption,
    games: Annotated[int, typer.Option(help="Games to play (rounded up to whole duplicate "
                                       "sets).", min=1)] = 1000,
    strategy: Annotated[str, typer.Option(help=f"Strategy A: {', '.join(DECISIONS)} (the "
                                        "analyzer's table alone, without its fitted model "
                                        "of the upcard auction), "
                                        "a strategy file (.toml, see 'euchre strategy show'), "
                                        "or rollout[:DEALS] (each call by the odds query on "
                                        "DEALS deals, default 200; slow).")]
    = "points",
    vs: Annotated[str, typer.Option("--vs", help="Strategy B.")] = "points",
    play: Annotated[str, typer.Option(help=f"How A plays cards: {', '.join(PLAYS)}.")]
    = "heuristic",
    vs_play: Annotated[str | None, typer.Option(help="How B plays cards (default: as A).")]
    = None,
    worlds: opt.WorldsOption = DEFAULT_WORLDS,
    seed: opt.SeedOption = 0,
    workers: opt.WorkersOption = None,
    json_out: opt.JsonOption = False,
    chunks: ChunkRun = NO_CLUSTER,
    rule_opts: dict | None = None,
):
    """Play whole games between two strategies on the same deals (each deal set is played with
    the seats swapped) and print A's win rate with its 95% interval, points per hand, how
    often each side declared, made and marched each contract, and each side's lone hands.

      euchre simulate --variant bid --games 10000 --strategy points --vs random

      euchre simulate --variant knock --games 200 --play pimc --vs-play heuristic --json

      euchre simulate --variant knock --games 4000 --strategy analyzer --vs points

      euchre simulate --variant knock --games 100 --strategy rollout:200 --vs analyzer
    """
    from ..questions.simulate import simulate  # imported where used: --help stays quick
    from .views import print_simulation

    rules = rules_for(variant, rule_opts)
    with chunks.context():
        result = simulate(rules, games, strategy, vs, play=play, vs_play=vs_play, seed=seed,
                          worlds=worlds, workers=workers, progress=not json_out)
    if json_out:
        print_json(result.to_dict())
    else:
        print_simulation(console, result)
    if result.interrupted:
        err_console.print(f"interrupted after {result.games:,} games: these are the results "
                          f"so far")
        raise typer.Exit(130)


@app.command("table")
@with_rule_options
@runs_chunks
def table_cmd(
    variant: opt.VariantOption,
    out: Annotated[str, typer.Option("-o", "--out", help="Directory for the tables.")],
    deals: opt.DealsOption = 100_000,
    method: opt.MethodOption = "dd",
    others: opt.OthersOption = DEFAULT_OTHERS,
    worlds: opt.WorldsOption = DEFAULT_WORLDS,
    seed: opt.SeedOption = 0,
    chunks: ChunkRun = NO_CLUSTER,
    rule_opts: dict | None = None,
):
    """Build the strategy tables of a variant over random deals and write each as Parquet and
    CSV: by hand features, by hand strength, every hand class with its best option (and in
    ghost, keep or swap). Interrupted runs resume from the directory.

      euchre table --variant bid --deals 1000000 -o bid-tables

      euchre table --variant knock --method heuristic -o knock-heuristic-tables
    """
    from reports.how_to_bid import how_to_bid

    from ..questions.tables import build_tables, table_meta, write_tables

    rules = rules_for(variant, rule_opts)
    check_output_dir(out)
    try:
        with chunks.context():
            tables = build_tables(rules, deals, Path(out), seed=seed, method=method,
                                  others=others, worlds=worlds, progress=True)
    except KeyboardInterrupt:
        _stopped_resumable(out)
    tables["meta"] = table_meta(rules, tables)
    written = write_tables(tables, Path(out))
    console.print(f"[bold]{rules.variant}[/bold]: {tables['meta']['deals']:,} deals, {method},"
                  f" others bid by {others}, seed {seed}; {len(written)} files in {out}")
    for line in how_to_bid(tables):
        console.print(f"  {line}", soft_wrap=True)


def _stopped_resumable(where) -> None:
    """Ctrl-C during a table build: say on stderr where the finished chunks are, exit 130."""
    err_console.print(f"interrupted: the chunks done are saved in {where}; run the same "
                      f"command to continue", soft_wrap=True)
    raise typer.Exit(130) from None


@app.command("report")
@with_rule_options
@runs_chunks
def report_cmd(
    variant: opt.VariantOption,
    out: Annotated[str, typer.Option("-o", "--out", help="The report file (.html or .md).")]
    = "report.html",
    deals: opt.DealsOption = 100_000,
    method: opt.MethodOption = "dd",
    fmt: Annotated[str | None, typer.Option("--format", help="html (one self-contained file) "
                                            "or md (Markdown with image files); default: "
                                            "from the file's ending.")] = None,
    compare: Annotated[bool, typer.Option(help="Add the heuristic and PIMC play models "
                                          "(fewer deals) to compare with.")] = True,
    review_file: Annotated[Path | None, typer.Option(
        "--review", help="A file of played records (.jsonl) to review and add as a "
                         "section.")] = None,
    seed: opt.SeedOption = 0,
    others: opt.OthersOption = DEFAULT_OTHERS,
    chunks: ChunkRun = NO_CLUSTER,
    rule_opts: dict | None = None,
):
    """Build the tables of a variant and write a report: the rules in force, method, deals and
    seed, a short "how to bid" summary drawn from the tables, every plot and table.

      euchre report --variant knock --deals 1000000 -o knock.html

      euchre report --variant bid --deals 20000 --format md -o bid.md
    """
    from ..questions.report import build_report, tables_dir  # matplotlib: loaded when drawing

    rules = rules_for(variant, rule_opts)
    path = Path(out)  # build_report checks it before any work

    def skipped(line: int, why: str) -> None:
        err_console.print(f"warning: {review_file}, line {line}: {why}; skipped",
                          soft_wrap=True)

    try:
        with chunks.context():
            written = build_report(rules, path, deals=deals, method=method, fmt=fmt,
                                   compare=compare, review_file=review_file, seed=seed,
                                   others=others, progress=True, on_skipped=skipped,
                                   on_left_out=lambda why: err_console.print(
                                       f"warning: {why}", soft_wrap=True))
    except KeyboardInterrupt:
        _stopped_resumable(tables_dir(path))
    console.print(f"report written to {written.resolve()}")
