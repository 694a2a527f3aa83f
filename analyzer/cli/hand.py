"""Commands about one hand: ``rules``, ``play``, ``score`` and ``solve``."""

from typing import Annotated

import typer

from ..errors import UserError
from ..game.notation import parse_deal, parse_seat, parse_suit
from ..game.records import read_json, result_of, to_json
from ..game.variants import VARIANT_NAMES, make_rules
from ..strategy.defaults import DECISION_NAMES as DECISIONS
from ..strategy.defaults import DEFAULT_STRATEGY, DEFAULT_WORLDS
from ..strategy.defaults import PLAY_NAMES as PLAYS
from .app import app
from .common import (
    JsonOption,
    SeedOption,
    Variant,
    VariantOption,
    WorldsOption,
    console,
    print_json,
    read_text,
    rules_for,
    with_rule_options,
)

SeatOption = Annotated[str | None, typer.Option(help="A seat: N, E, S or W.")]


@app.command("rules")
@with_rule_options
def rules_cmd(
    variant: Annotated[Variant | None, typer.Argument(help="bid, ghost, cutthroat or knock "
                                                      "(all four when left out).",
                                                      case_sensitive=False)] = None,
    rule_opts: dict | None = None,
):
    """Print the rules in force in words: deck, deal, bidding ladder, scoring table, target.

    Examples:

      euchre rules knock

      euchre rules bid --stick-the-dealer --failed-moon-points 24
    """
    from .views import print_rules  # the heavy modules are imported where used: quick --help

    given = {k: v for k, v in (rule_opts or {}).items() if v is not None}
    if variant is None:
        if given:
            raise UserError("name the variant the options are for, e.g. 'euchre rules knock "
                            "--joker'")
        for i, name in enumerate(VARIANT_NAMES):
            if i:
                console.print()
            print_rules(console, make_rules(name))
        return
    print_rules(console, rules_for(variant, given))


@app.command("play")
@with_rule_options
def play_cmd(
    variant: VariantOption,
    seed: SeedOption = 0,
    dealer: Annotated[str, typer.Option(help="The dealer's seat (N, E, S; W too with 4 "
                                        "players).")] = "N",
    strategy: Annotated[str, typer.Option(help="How players bid and decide: "
                                          f"{', '.join(DECISIONS)}.")] = DEFAULT_STRATEGY,
    play: Annotated[str | None, typer.Option(help=f"How players play cards: {', '.join(PLAYS)}"
                                             " (default: random with the random strategy, "
                                             "else heuristic).")] = None,
    worlds: WorldsOption = DEFAULT_WORLDS,
    json_out: JsonOption = False,
    rule_opts: dict | None = None,
):
    """Deal and play one hand with built-in players and print its record.

    The --json record is the recorded-hand format, so it round-trips:

      euchre play --variant knock --seed 1 --json | euchre score -
    """
    from ..questions.play import play_one
    from .views import print_record

    rules = rules_for(variant, rule_opts)
    seat = parse_seat(dealer)
    if seat >= rules.players:
        raise UserError(f"in {rules.variant} W holds the {rules.seat_w} and cannot deal")
    record = play_one(rules, seed=seed, dealer=seat, strategy=strategy, play=play, worlds=worlds)
    if json_out:
        print_json(to_json(record), indent=None)  # one line: files of these are JSONL
    else:
        how = f"strategy {strategy}" + (f", play {play}" if play else "")
        print_record(console, record, f"{rules.variant}, seed {seed}, {how}")


@app.command("score")
def score_cmd(
    record_path: Annotated[str, typer.Argument(metavar="RECORD.json",
                                               help="A recorded hand (JSON), or - for stdin.")],
    json_out: JsonOption = False,
):
    """Check a recorded hand step by step and print tricks and points per side.

    Every step is validated (a card not in that hand, a bid below the current one, an option
    the variant lacks ...); a renege is allowed but costs the offending side 2 points.

      euchre score hand.json

      euchre play --variant bid --seed 3 --json | euchre score - --json
    """
    from ..questions.play import score_record
    from .views import print_result

    source = "standard input" if record_path == "-" else record_path
    record = score_record(read_json(read_text(record_path), source))
    result = result_of(record)
    if json_out:
        print_json(result)
        return
    print_result(console, record, result)


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
    from ..questions.solve import solve_deal
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
