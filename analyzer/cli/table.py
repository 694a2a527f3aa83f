"""``euchre table``: the strategy tables over random deals."""

from pathlib import Path
from typing import Annotated

import typer

from ..outputs import check_output_dir
from ..strategy.defaults import DEFAULT_METHOD, DEFAULT_WORLDS
from ..strategy.defaults import DEFAULT_STRATEGY as DEFAULT_OTHERS
from . import common as opt
from .app import app
from .common import (
    NO_CLUSTER,
    ChunkRun,
    console,
    rules_for,
    runs_chunks,
    stopped_resumable,
    with_rule_options,
)


@app.command("table")
@with_rule_options
@runs_chunks
def table_cmd(
    variant: opt.VariantOption,
    out: Annotated[str, typer.Option("-o", "--out", help="Directory for the tables.")],
    deals: opt.DealsOption = 100_000,
    method: opt.MethodOption = DEFAULT_METHOD,
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

    from ..questions.tables.tables import build_tables, table_meta, write_tables

    rules = rules_for(variant, rule_opts)
    check_output_dir(out)
    try:
        with chunks.context():
            tables = build_tables(rules, deals, Path(out), seed=seed, method=method,
                                  others=others, worlds=worlds, progress=True)
    except KeyboardInterrupt:
        stopped_resumable(out)
    tables["meta"] = table_meta(rules, tables)
    written = write_tables(tables, Path(out))
    console.print(f"[bold]{rules.variant}[/bold]: {tables['meta']['deals']:,} deals, {method},"
                  f" others bid by {others}, seed {seed}; {len(written)} files in {out}")
    for line in how_to_bid(tables):
        console.print(f"  {line}", soft_wrap=True)
