"""``euchre odds``: the odds of every option of a hand."""

from typing import Annotated

import typer

from ..questions.odds import odds
from ..strategy.named import DEFAULT_WORLDS
from .app import app
from .common import (
    JsonOption,
    MethodOption,
    SchedulerOption,
    SeedOption,
    VariantOption,
    WorkersOption,
    WorldsOption,
    console,
    on_cluster,
    print_json,
    rules_for,
    with_rule_options,
)
from .views import print_odds

GivenOption = Annotated[list[str] | None, typer.Option(
    help="A condition on an unseen hand: 'E: void H', 'S: >=2 trump', 'W: has AS'. "
         "Repeatable.")]


@app.command("odds")
@with_rule_options
def odds_cmd(
    hand: Annotated[list[str], typer.Argument(help="Your cards, e.g. JH JD AH KH QH 9S.")],
    variant: VariantOption,
    trump: Annotated[str | None, typer.Option(help="Only this trump suit (default: all).")]
    = None,
    seat: Annotated[str, typer.Option(help="Your seat.")] = "N",
    dealer: Annotated[str | None, typer.Option(help="The dealer (knock, cutthroat; default: "
                                               "the seat on your right).")] = None,
    upcard: Annotated[str | None, typer.Option(help="The turned-up card (knock, cutthroat).")]
    = None,
    bid: Annotated[str | None, typer.Option(help="Only this bid: 3, 4, 5, ask or moon (bid, "
                                            "ghost).")] = None,
    method: MethodOption = "dd",
    worlds: WorldsOption = DEFAULT_WORLDS,
    deals: Annotated[int | None, typer.Option(help="Random deals to play (default 10,000).",
                                              min=1)] = None,
    precision: Annotated[float | None, typer.Option(help="Deal until every probability's 95% "
                                                    "interval is within ± this.")] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Enumerate every layout of the unseen "
                                        "cards (refused when it would take too long).")] = False,
    given: GivenOption = None,
    seed: SeedOption = 0,
    workers: WorkersOption = None,
    defend: Annotated[bool, typer.Option(help="Bid: also estimate passing (the opponents "
                                         "bidding 3 in their best suit).")] = True,
    scheduler: SchedulerOption = None,
    json_out: JsonOption = False,
    rule_opts: dict | None = None,
):
    """What are my odds? Deal the unseen cards many times, play every option on the same
    deals double dummy, and print each option's chance of making, of a march and of being
    euchred, and its expected net points, with 95% intervals.

      euchre odds JH JD AH KH QH 9S --variant bid --bid 5

      euchre odds JH JD AH KD QD --variant knock --upcard 9H --seat E --dealer N

      euchre odds JS AS KS QH 9D 9C --variant ghost --precision 0.01 --json
    """
    rules = rules_for(variant, rule_opts)
    with on_cluster(scheduler):
        result = odds(" ".join(hand), rules.variant, rules=rules, trump=trump, seat=seat,
                      dealer=dealer, upcard=upcard, bid=bid, method=method, deals=deals,
                      precision=precision, exact=exact, seed=seed, workers=workers,
                      given=given or (), defend=defend, progress=not json_out, worlds=worlds)
    if json_out:
        print_json(result.to_dict())
    else:
        print_odds(console, result)
