"""``euchre evaluate``: every hand of a file priced, streamed and resumable."""

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from ..strategy.defaults import DEFAULT_METHOD, DEFAULT_WORLDS
from ..strategy.defaults import DEFAULT_STRATEGY as DEFAULT_OTHERS
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

OutOption = Annotated[Path | None, typer.Option("-o", "--out", help="Write rows to this .csv "
                                                "or .parquet as they finish.")]
ResumeOption = Annotated[bool, typer.Option("--resume", help="Continue an interrupted run into "
                                            "the same -o file.")]
StrictOption = Annotated[bool, typer.Option("--strict", help="Stop at the first bad row "
                                            "instead of skipping it.")]
JsonLinesOption = Annotated[bool, typer.Option("--json", help="Print each row as one JSON "
                                               "line.")]


@app.command("evaluate")
@with_rule_options
@runs_chunks
def evaluate_cmd(
    file: Annotated[Path, typer.Argument(help="Hands: .csv (a 'hand' column, optional seat, "
                                         "dealer, upcard, trump, auction), .jsonl, or text "
                                         "(one hand per line, then key=value fields).")],
    variant: opt.VariantOption,
    deals: Annotated[int, typer.Option(help="Random deals per hand.", min=1)] = 2_000,
    method: opt.MethodOption = DEFAULT_METHOD,
    others: opt.OthersOption = DEFAULT_OTHERS,
    worlds: opt.WorldsOption = DEFAULT_WORLDS,
    out: OutOption = None,
    resume: ResumeOption = False,
    strict: StrictOption = False,
    seed: opt.SeedOption = 0,
    json_out: JsonLinesOption = False,
    chunks: ChunkRun = NO_CLUSTER,
    rule_opts: dict | None = None,
):
    """Price every hand of a file at its decision point (the calls in its auction heard; none:
    its first call): the best call against the runner-up, its net points and chance of
    making with 95% intervals, and every legal call's net points. Rows are written as they
    finish; a killed run continues with --resume. Bad rows are reported with their line
    number and skipped (--strict stops).

      euchre evaluate hands.csv --variant knock -o priced.parquet

      euchre evaluate hands.txt --variant bid --deals 500 --method heuristic --json

      euchre evaluate hands.csv --variant knock -o priced.parquet --resume
    """
    from ..questions.review.evaluate import (  # here: quick --help
        check_run,
        count_rows,
        evaluate_file,
    )

    rules = rules_for(variant, rule_opts)
    check_run(file, out, method, deals)  # before the bar: its end would leave a blank line
    show_bar = out is not None and not json_out
    total = count_rows(file) if show_bar and file.is_file() else 0  # a quick first pass
    bar = Progress("evaluating", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=err_console, transient=True, disable=not show_bar)
    with chunks.context(), bar:
        task = bar.add_task("rows", total=total)
        summary = evaluate_file(
            file, rules, out, deals=deals, method=method, seed=seed, others=others,
            worlds=worlds,
            resume=resume, strict=strict, on_row=_row_printer(json_out, out is None),
            on_bad=lambda b: err_console.print(f"warning: {file}, line {b.line}: "
                                               f"{b.message}; skipped", soft_wrap=True),
            on_progress=lambda line: bar.update(task, completed=line))
    _report_evaluation(summary, out, json_out)


def _row_printer(json_out: bool, to_terminal: bool):
    """What ``evaluate`` prints of each row: a JSON line, a sentence, or nothing (rows go to
    the output file)."""
    from ..questions.odds.options import option_label

    def on_row(row):
        if json_out:
            print_json({**row, "options": json.loads(row["options"])}, indent=None)
            sys.stdout.flush()
        elif to_terminal:
            best = option_label(row["best_option"], row["best_trump"], row["best_detail"])
            close = f", too close to call against {row['runner_up']}" if row["too_close"] \
                else ""
            console.print(f"line {row['line']}: {row['hand']} -> {best}: {row['ev']:+.2f} net "
                          f"points [{row['ev_low']:+.2f}, {row['ev_high']:+.2f}], we make "
                          f"{100 * row['p_we_make']:.1f}%{close}", soft_wrap=True)
    return on_row


def _report_evaluation(summary, out: Path | None, json_out: bool) -> None:
    """The closing line of ``evaluate`` (exit 130 when interrupted)."""
    if summary.interrupted:
        where = "; run the same command with --resume to continue" if out else ""
        n = summary.evaluated + summary.resumed
        err_console.print(f"interrupted after {n:,} hand{'' if n == 1 else 's'}{where}")
        raise typer.Exit(130)
    if summary.fresh:
        err_console.print("--resume: no interrupted run to continue, so it started from the "
                          "first row")
    if json_out:
        return
    done = f"{summary.evaluated:,} hand{'' if summary.evaluated == 1 else 's'} evaluated"
    if summary.resumed:
        done += f" ({summary.resumed:,} more were done before --resume)"
    if summary.bad:
        done += f", {len(summary.bad):,} bad row{'' if len(summary.bad) == 1 else 's'} skipped"
    if summary.output is not None:
        done += f"; written to {summary.output}"
    err_console.print(done)
