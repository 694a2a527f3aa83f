"""``euchre odds``: the odds of every option of a hand. Its options are the odds question's
description (``questions.odds.odds_request.ODDS_FIELDS``), which the Python and HTTP APIs and the
page read too."""

from typing import Annotated

import typer

from ..questions.odds.odds_request import ODDS_FIELDS
from . import common as opt
from .app import app
from .common import (
    NO_CLUSTER,
    ChunkRun,
    console,
    print_json,
    rules_for,
    runs_chunks,
    with_fields,
    with_rule_options,
)


@app.command("odds")
@with_rule_options
@runs_chunks
@with_fields(ODDS_FIELDS)
def odds_cmd(
    hand: Annotated[list[str], typer.Argument(help="Your cards, e.g. JH JD AH KH QH 9S.")],
    variant: opt.VariantOption,
    json_out: opt.JsonOption = False,
    chunks: ChunkRun = NO_CLUSTER,
    rule_opts: dict | None = None,
    options: dict | None = None,
):
    """Should I? Every legal call at your turn, each played out to the end of the hand on the
    same deals (later calls by the --others strategy, cards double dummy or by --method):
    its net points, its difference from the best, and the chances (95% intervals) that your
    side makes, takes all, is set, or they make; the best call against the runner-up.

      euchre odds JS AS KS 9H TD --variant knock --upcard QS --seat E --dealer N

      euchre odds JH AH KH QD 9S TC --variant bid --seat S --dealer W --auction "N 3, E 4"

      euchre odds JH JD AH KH QH 9S --variant bid --bid 5

      euchre odds JS AS KS QH 9D 9C --variant ghost --precision 0.01 --json

      euchre odds JS AS KS 9H TD --variant knock --upcard QS --others mine.toml --tremble 0
    """
    from ..questions.odds.answer import ask  # here, not at the top: --help stays quick
    from ..questions.odds.odds_request import request

    question = request(rules_for(variant, rule_opts), " ".join(hand), options)
    with chunks.context():
        result = ask(question, progress=not json_out)
    _show(result, json_out, question.all_details)


def _show(result, json_out: bool, details: bool = False) -> None:
    """Print an answer (exit 130 after it when Ctrl-C cut the run: it is the estimate so
    far, and says so)."""
    from .views import print_odds

    if json_out:
        print_json(result.to_dict())
    else:
        print_odds(console, result, details)
    if result.interrupted:
        raise typer.Exit(130)
