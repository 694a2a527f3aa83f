"""``euchre odds``: the odds of every option of a hand."""

from typing import Annotated

import typer

from ..strategy.defaults import DEFAULT_STRATEGY as DEFAULT_OTHERS
from ..strategy.defaults import DEFAULT_WORLDS, TREMBLE
from . import common as opt
from .app import app
from .common import (
    NO_CLUSTER,
    ChunkRun,
    console,
    print_json,
    rules_for,
    runs_chunks,
    with_rule_options,
)

GivenOption = Annotated[list[str] | None, typer.Option(
    help="A condition on an unseen hand: 'E: void H', 'S: >=2 trump', 'W: has AS'. "
         "Repeatable.")]


InferOption = Annotated[bool, typer.Option(help="Deal the unseen cards so that the calls "
                                            "heard are the others' strategy's (--no-infer: "
                                            "any cards).")]
TrembleOption = Annotated[float, typer.Option(
    help="With inference, the chance a seat makes another legal call than its strategy's, so "
         "no auction is impossible (0: only the strategy's own calls; exact mode uses 0).",
    min=0.0, max=0.49)]
PlayCheckOption = Annotated[bool, typer.Option(
    help="Double dummy: also play the same deals with heuristic card play and say when the "
         "best call differs (--no-play-check: skip it).")]
DiscardsOption = Annotated[bool, typer.Option("--discards", help="A row for every discard (and "
                                              "every card given in a 6-ask), not only each "
                                              "call's best; each played on every deal (a run "
                                              "of over 10,000 deals otherwise chooses them on "
                                              "its first 10,000).")]


@app.command("odds")
@with_rule_options
@runs_chunks
def odds_cmd(
    hand: Annotated[list[str], typer.Argument(help="Your cards, e.g. JH JD AH KH QH 9S.")],
    variant: opt.VariantOption,
    trump: Annotated[str | None, typer.Option(help="Only this trump suit (default: all).")]
    = None,
    seat: Annotated[str, typer.Option(help="Your seat.")] = "N",
    dealer: Annotated[str | None, typer.Option(help="The dealer (default: the seat on your "
                                               "right, so you speak first).")] = None,
    upcard: Annotated[str | None, typer.Option(help="The upcard (knock, cutthroat).")] = None,
    auction: Annotated[str | None, typer.Option(
        help="The calls heard before your turn, e.g. 'E pass, S pass' or 'E 4, S pass'.")] = None,
    bid: Annotated[str | None, typer.Option(help="Only this bid (and passing): 3, 4, 5, ask or "
                                            "moon (bid, ghost).")] = None,
    discards: DiscardsOption = False,
    others: opt.OthersOption = DEFAULT_OTHERS,
    infer: InferOption = True,
    tremble: TrembleOption = TREMBLE,
    method: opt.MethodOption = "dd",
    worlds: opt.WorldsOption = DEFAULT_WORLDS,
    play_check: PlayCheckOption = True,
    deals: Annotated[int | None, typer.Option(help="Random deals to play (default 10,000).",
                                              min=1)] = None,
    precision: Annotated[float | None, typer.Option(
        help="Deal until every probability's 95% interval is within ± this.")] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Enumerate every layout of the unseen "
                                        "cards (refused when it would take too long).")] = False,
    given: GivenOption = None,
    seed: opt.SeedOption = 0,
    workers: opt.WorkersOption = None,
    json_out: opt.JsonOption = False,
    chunks: ChunkRun = NO_CLUSTER,
    rule_opts: dict | None = None,
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
    from ..questions.odds import odds  # here, not at the top: --help stays quick
    rules = rules_for(variant, rule_opts)
    with chunks.context():
        result = odds(" ".join(hand), rules.variant, rules=rules, trump=trump, seat=seat,
                      dealer=dealer, upcard=upcard, auction=auction, bid=bid, method=method,
                      others=others, infer=infer, tremble=tremble, deals=deals,
                      precision=precision, exact=exact, seed=seed, workers=workers,
                      given=given or (), progress=not json_out, worlds=worlds,
                      play_check=play_check, all_details=discards)
    _show(result, json_out, discards)


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
