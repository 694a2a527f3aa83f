"""``euchre solve``: a whole deal solved double dummy."""

from typing import Annotated

import typer

from ..errors import UserError
from ..game.notation import parse_deal, parse_seat, parse_suit
from .app import app
from .common import (
    JsonOption,
    VariantOption,
    console,
    print_json,
    read_text,
    rules_for,
    with_rule_options,
)

SeatOption = Annotated[str | None, typer.Option(help="A seat: N, E, S or W.")]


@app.command("solve")
@with_rule_options
def solve_cmd(
    deal: Annotated[str, typer.Argument(help="The deal, seat by seat: 'N: JH JD AH KH QH 9S / "
                                        "E: ... / S: ... / W: ...' (- reads it from stdin).")],
    variant: VariantOption,
    trump: Annotated[str, typer.Option(help="Trump suit: C, D, H or S.")],
    declarer: Annotated[str, typer.Option(help="The bidder / maker.")] = "N",
    leader: Annotated[str | None, typer.Option(help="Who leads the first trick (default: by "
                                               "the variant's rules).")] = None,
    dealer: Annotated[str | None, typer.Option(help="The dealer, for the default leader and "
                                               "the pick-up (default: the seat right of "
                                               "N).")] = None,
    alone: Annotated[bool, typer.Option("--alone", help="Upcard auction: the maker goes "
                                        "alone.")] = False,
    ask: Annotated[bool, typer.Option("--ask", help="Bid: the n-ask (the solver picks the "
                                      "card to give away).")] = False,
    moon: Annotated[bool, typer.Option("--moon", help="Bid: shoot the moon.")] = False,
    defender_alone: SeatOption = None,
    json_out: JsonOption = False,
    rule_opts: dict | None = None,
):
    """Solve a deal double dummy: tricks of each side with best play by everyone, the value of
    every opening lead, and the nodes searched.

    Every playing hand is given. Knock and cutthroat: give 'up: CARD' and --dealer for a
    pick-up (the solver picks the dealer's best discard unless 'discard: CARD' is given);
    cutthroat with the dummy as 'W:' or 'dummy:': the solver keeps the maker's best 5 of 10.

      euchre solve "N: JH JD AH KH QH / E: 9D TD QD KD AD / S: 9C TC JC QC KC /
      W: 9S TS JS QS KS" --variant knock --trump H --declarer N --json
    """
    from ..questions.tables.solve import solve_deal
    from .views import print_solution

    rules = rules_for(variant, rule_opts)
    parsed = parse_deal(read_text("-") if deal == "-" else deal, rules)
    modes = [m for m, on in (("alone", alone), ("ask", ask), ("moon", moon)) if on]
    if len(modes) > 1:
        raise UserError("choose one of --alone, --ask and --moon")
    seat = {k: None if v is None else parse_seat(v)
            for k, v in (("leader", leader), ("dealer", dealer),
                         ("defender_alone", defender_alone))}
    result = solve_deal(rules, parsed, parse_suit(trump), parse_seat(declarer),
                        mode=modes[0] if modes else "normal", **seat)
    if json_out:
        print_json(result.to_dict())
        return
    print_solution(console, rules, result, bool(modes))
