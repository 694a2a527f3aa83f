"""``euchre review``: a played hand (or a file of them) judged call by call and card by card."""

import io
from pathlib import Path
from typing import Annotated

import typer

from ..errors import UserError
from ..game.records import load_record, read_json
from ..outputs import check_output, written_whole
from ..strategy.defaults import CALL_DEALS, DEFAULT_METHOD, REVIEW_WORLDS
from ..strategy.defaults import DEFAULT_STRATEGY as DEFAULT_OTHERS
from . import common as opt
from .app import app
from .common import (
    console,
    err_console,
    print_json,
    read_text,
)


@app.command("review")
def review_cmd(
    record_path: Annotated[str, typer.Argument(
        metavar="RECORD", help="A recorded hand (.json, or - for stdin), or a file of records "
                               "(.jsonl, one per line) for a summary.")],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write every decision "
                                             "to this .csv or .parquet.")] = None,
    method: Annotated[str, typer.Option(help="analyzer (each card judged with what its "
                                        "player could see, played out by the analyzer's card "
                                        "player), pimc (the same, played out double dummy) or "
                                        "dd (everything seen).")] = DEFAULT_METHOD,
    worlds: Annotated[int, typer.Option(help="Worlds per card for pimc and analyzer.", min=1,
                                        max=1000)]
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
    from ..questions.review.review_hand import review
    from .views import print_review

    if out is not None:
        check_output(out, inputs=[record_path], suffixes=(".csv", ".parquet"))
    if record_path.endswith((".jsonl", ".ndjson")):
        _review_batch(Path(record_path), out, method, worlds, seed, json_out, call_deals,
                      others)
        return
    source = "standard input" if record_path == "-" else record_path
    text = read_text(record_path)
    if record_path == "-" and sum(line.startswith("{") for line in text.splitlines()) > 1:
        # several records piped in (``euchre play --game --json |``): a summary, as a .jsonl
        _review_batch(io.StringIO(text), out, method, worlds, seed, json_out, call_deals, others,
                      source)
        return
    result = review(load_record(read_json(text, source)), method, worlds, seed, call_deals,
                    others)
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


def _review_batch(path, out: Path | None, method: str, worlds: int, seed: int,
                  json_out: bool, call_deals: int, others: str, name: str | None = None) -> None:
    """``review`` of a file of records (a path, or an open text handle called ``name``): a
    summary, and every decision to ``out``."""
    name = name or str(path)
    from ..questions.review.review_hand import all_decisions, reviewed, summarise
    from .views import print_review_summary

    def skipped(line: int, why: str) -> None:
        err_console.print(f"warning: {name}, line {line}: {why}; skipped", soft_wrap=True)

    good = reviewed(path, method, worlds, seed, on_skipped=skipped, call_deals=call_deals,
                    others=others)
    if not good:
        raise UserError(f"no record in {name} could be reviewed")
    decisions = all_decisions(good)
    by_type, costliest = summarise(decisions)
    if out is not None:
        _write_decisions(decisions, out)
    if json_out:
        print_json({"records": len(good), "by_type": by_type.to_dict(orient="records"),
                    "costliest": costliest.to_dict(orient="records")})
    else:
        print_review_summary(console, good, by_type, costliest)
