"""``euchre play`` and ``euchre score``: deal and play one hand; check a recorded one."""

from typing import Annotated

import typer

from ..errors import UserError
from ..game.notation import parse_seat
from ..game.records import read_json, result_of, to_json
from ..strategy.defaults import DECISION_NAMES as DECISIONS
from ..strategy.defaults import DEFAULT_PLAY, DEFAULT_STRATEGY, DEFAULT_WORLDS
from ..strategy.defaults import PLAY_NAMES as PLAYS
from .app import app
from .common import (
    JsonOption,
    SeedOption,
    VariantOption,
    WorldsOption,
    console,
    print_json,
    read_text,
    rules_for,
    with_rule_options,
)


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
                                             f"else {DEFAULT_PLAY}).")] = None,
    worlds: WorldsOption = DEFAULT_WORLDS,
    score: Annotated[str | None, typer.Option(
        help="The game's score before the hand: N-S first (NS-EW, e.g. 9-6), or the three "
             "players' N-E-S; kept in the record (a game from it with --game).")] = None,
    game: Annotated[bool, typer.Option(
        "--game", help="Play a whole game (from --score, else 0-0), the deal passing each "
                       "hand: one record per hand, each with the score before it.")] = False,
    interactive: Annotated[bool, typer.Option(
        "--interactive", help="Play --seat's decisions yourself at a prompt against the "
                              "analyzer's bots, each graded as you go, a review at the "
                              "end (--game: a whole game, graded at the score).")] = False,
    seat: Annotated[str | None, typer.Option(help="Your seat with --interactive (default "
                                             "S).")] = None,
    json_out: JsonOption = False,
    rule_opts: dict | None = None,
):
    """Deal and play one hand (or a whole game) with built-in players and print its record.

    With --interactive you play --seat against the analyzer's bots, each decision graded
    (docs/play.md): `euchre play --variant knock --seat S --interactive [--game]`.

    The --json record is the recorded-hand format, so it round-trips (a game: one line a hand,
    each with the score before it, so review prices its calls in games won):

      euchre play --variant knock --seed 1 --json | euchre score -

      euchre play --variant knock --seed 1 --game --json > game.jsonl; euchre review game.jsonl
    """
    from ..game.game_score import parse_score
    from ..questions.simulate.play import play_game, play_one
    from .views import print_record

    rules = rules_for(variant, rule_opts)
    dealing = parse_seat(dealer)
    if dealing >= rules.players:
        raise UserError(f"in {rules.variant} W holds the {rules.seat_w} and cannot deal")
    if interactive or seat is not None:
        return _interactive(rules, seat, seed, dealing, game, score, json_out)
    start = parse_score(score, rules, 0) if score is not None else ()
    how = f"strategy {strategy}" + (f", play {play}" if play else "")
    if game:
        records, winner = play_game(rules, seed=seed, dealer=dealing, score=start,
                                    strategy=strategy, play=play, worlds=worlds)
        return _print_game(records, winner, json_out, f"{rules.variant}, seed {seed}, {how}")
    record = play_one(rules, seed=seed, dealer=dealing, strategy=strategy, play=play, worlds=worlds,
                      score=start)
    if json_out:
        print_json(to_json(record), indent=None)  # one line: files of these are JSONL
    else:
        print_record(console, record, f"{rules.variant}, seed {seed}, {how}")


def _print_game(records: list, winner: int, json_out: bool, title: str) -> None:
    """A played game: one JSON line a hand (files of these are JSONL), or the hands."""
    from .views import print_game

    if json_out:
        for record in records:
            print_json(to_json(record), indent=None)
    else:
        print_game(console, records, winner, title)


def _interactive(rules, seat: str | None, seed: int, dealer: int, game: bool,
                 score: str | None, json_out: bool) -> None:
    """``--interactive``: the player's hand (``--game``: a game from ``--score``), graded at
    ``--score`` when given, at the prompt (``cli.play_interactive``)."""
    from ..game.game_score import parse_score
    from ..questions.simulate.graded_game import GradedGame
    from ..questions.simulate.graded_hand import GradedHand
    from .play_interactive import play_interactive

    if seat is None:
        raise UserError("--interactive plays a seat: give --seat (N, E, S or W)")
    if json_out:
        raise UserError("--interactive plays on the screen: leave out --json")
    me = parse_seat(seat)
    if me >= rules.players:
        raise UserError(f"--seat: {seat.upper()} does not play in {rules.variant}")
    start = parse_score(score, rules, me) if score is not None else ()
    table = GradedGame(rules, me, seed, dealer, start) if game else \
        GradedHand(rules, me, seed, dealer, score=start)
    play_interactive(table, console)


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
    from ..questions.simulate.play import score_record
    from .views import print_result

    source = "standard input" if record_path == "-" else record_path
    record = score_record(read_json(read_text(record_path), source))
    result = result_of(record)
    if json_out:
        print_json(result)
        return
    print_result(console, record, result)
