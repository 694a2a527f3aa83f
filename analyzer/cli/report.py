"""``euchre report``: one self-contained report of a variant."""

from pathlib import Path
from typing import Annotated

import typer

from ..strategy.defaults import DEFAULT_METHOD
from ..strategy.defaults import DEFAULT_STRATEGY as DEFAULT_OTHERS
from . import common as opt
from .app import app
from .common import (
    NO_CLUSTER,
    ChunkRun,
    console,
    err_console,
    rules_for,
    runs_chunks,
    stopped_resumable,
    with_rule_options,
)


@app.command("report")
@with_rule_options
@runs_chunks
def report_cmd(
    variant: opt.VariantOption,
    out: Annotated[str, typer.Option("-o", "--out", help="The report file (.html or .md).")]
    = "report.html",
    deals: opt.DealsOption = 100_000,
    method: opt.MethodOption = DEFAULT_METHOD,
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
    from ..questions.tables.report import (  # matplotlib: loaded when drawing
        build_report,
        tables_dir,
    )

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
        stopped_resumable(tables_dir(path))
    console.print(f"report written to {written.resolve()}")
