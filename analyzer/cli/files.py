"""Commands over files of hands: ``evaluate`` (price each hand) and ``review`` (judge each
decision of played hands)."""

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from ..errors import UserError
from ..game.records import load_record, read_json
from ..outputs import check_output, written_whole
from ..strategy.defaults import CALL_DEALS, DEFAULT_WORLDS, REVIEW_WORLDS
from ..strategy.defaults import DEFAULT_STRATEGY as DEFAULT_OTHERS
from . import common as opt
from .app import app
from .common import (
    NO_CLUSTER,
    ChunkRun,
    console,
    err_console,
    print_json,
    read_text,
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
    method: opt.MethodOption = "dd",
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
    from ..questions.evaluate import check_run, count_rows, evaluate_file  # here: quick --help

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
    from ..questions.options import option_label

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


@app.command("review")
def review_cmd(
    record_path: Annotated[str, typer.Argument(
        metavar="RECORD", help="A recorded hand (.json, or - for stdin), or a file of records "
                               "(.jsonl, one per line) for a summary.")],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write every decision "
                                             "to this .csv or .parquet.")] = None,
    method: Annotated[str, typer.Option(help="dd (everything seen) or pimc (each card judged "
                                        "with what its player could see).")] = "dd",
    worlds: Annotated[int, typer.Option(help="Worlds per card for pimc.", min=1, max=1000)]
    = REVIEW_WORLDS,
    call_deals: Annotated[int, typer.Option(help="Deals each call is priced on (0: calls are "
                                            "not priced).", min=0)] = CALL_DEALS,
    others: opt.OthersOption = DEFAULT_OTHERS,
    seed: opt.SeedOption = 0,
    json_out: opt.JsonOption = False,
):
    """Review a played hand: every call priced where it was made (the best call's expected
    net points against the call made, over deals that fit the calls heard), every card and
    discard double dummy; the decisions that cost tricks or points and what was best,
    whether the contract was makeable, and any renege with its penalty.

      euchre review hand.json

      euchre play --variant knock --seed 4 --json | euchre review -

      euchre review hand.json --method pimc --worlds 100

      euchre review club-night.jsonl -o decisions.csv
    """
    from ..questions.review import review
    from .views import print_review

    if out is not None:
        check_output(out, inputs=[record_path], suffixes=(".csv", ".parquet"))
    if record_path.endswith((".jsonl", ".ndjson")):
        _review_batch(Path(record_path), out, method, worlds, seed, json_out, call_deals,
                      others)
        return
    source = "standard input" if record_path == "-" else record_path
    result = review(load_record(read_json(read_text(record_path), source)), method, worlds,
                    seed, call_deals, others)
    if out is not None:
        _write_decisions(result.decisions, out)
    if json_out:
        print_json(result.to_dict())
    else:
        print_review(console, result)


def _write_decisions(decisions, out: Path) -> None:
    """Every decision reviewed, to ``out`` (.csv or .parquet), whole or not at all."""
    with written_whole(out) as tmp:
        if out.suffix.lower() == ".parquet":
            decisions.to_parquet(tmp)
        else:
            decisions.to_csv(tmp, index=False)


def _review_batch(path: Path, out: Path | None, method: str, worlds: int, seed: int,
                  json_out: bool, call_deals: int, others: str) -> None:
    """``review`` of a file of records: a summary, and every decision to ``out``."""
    from ..questions.review import all_decisions, reviewed, summarise
    from .views import print_review_summary

    def skipped(line: int, why: str) -> None:
        err_console.print(f"warning: {path}, line {line}: {why}; skipped", soft_wrap=True)

    good = reviewed(path, method, worlds, seed, on_skipped=skipped, call_deals=call_deals,
                    others=others)
    if not good:
        raise UserError(f"no record in {path} could be reviewed")
    decisions = all_decisions(good)
    by_type, costliest = summarise(decisions)
    if out is not None:
        _write_decisions(decisions, out)
    if json_out:
        print_json({"records": len(good), "by_type": by_type.to_dict(orient="records"),
                    "costliest": costliest.to_dict(orient="records")})
    else:
        print_review_summary(console, good, by_type, costliest)
