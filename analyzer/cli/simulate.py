"""``euchre simulate``: whole games between two strategies."""

from typing import Annotated

import typer

from ..strategy.defaults import DECISION_NAMES as DECISIONS
from ..strategy.defaults import DEFAULT_PLAY, DEFAULT_WORLDS
from ..strategy.defaults import PLAY_NAMES as PLAYS
from . import common as opt
from .app import app
from .common import console, rules_for, runs_chunks, with_rule_options


@app.command("simulate")
@with_rule_options
@runs_chunks
def simulate_cmd(
    variant: opt.VariantOption,
    games: Annotated[int, typer.Option(help="Games to play (rounded up to whole duplicate "
                                       "sets).", min=1)] = 1000,
    strategy: Annotated[str, typer.Option(help=f"Strategy A: {', '.join(DECISIONS)} (table: "
                                        "the analyzer's table alone, without its fitted "
                                        "model of the upcard auction; analyzer-points: the "
                                        "analyzer by the points of the hand, never playing "
                                        "to the score), a strategy file (.toml, see "
                                        "'euchre strategy show'), "
                                        "or rollout[:DEALS] (each call by the odds query on "
                                        "DEALS deals, default 200; slow).")]
    = "points",
    vs: Annotated[str, typer.Option("--vs", help="Strategy B.")] = "points",
    play: Annotated[str, typer.Option(help=f"How A plays cards: {', '.join(PLAYS)}.")]
    = DEFAULT_PLAY,
    vs_play: Annotated[str | None, typer.Option(help="How B plays cards (default: as A).")]
    = None,
    worlds: opt.WorldsOption = DEFAULT_WORLDS,
    seed: opt.SeedOption = 0,
    workers: opt.WorkersOption = None,
    json_out: opt.JsonOption = False,
    chunks: opt.ChunkRun = opt.NO_CLUSTER,
    rule_opts: dict | None = None,
):
    """Play whole games between two strategies on the same deals (each deal set is played with
    the seats swapped) and print A's win rate with its 95% interval, points per hand, how
    often each side declared, made and marched each contract, and each side's lone hands.
    The analyzer is told the score before each hand and calls to win the game (knock, bid,
    cutthroat); analyzer-points is the same strategy by the points of the hand.

      euchre simulate --variant knock --games 100000 --strategy analyzer --vs analyzer-points

      euchre simulate --variant bid --games 10000 --strategy points --vs random

      euchre simulate --variant knock --games 200 --play pimc --vs-play heuristic --json

      euchre simulate --variant knock --games 4000 --strategy analyzer --vs points

      euchre simulate --variant knock --games 100 --strategy rollout:200 --vs analyzer
    """
    from ..questions.simulate.whole_games import simulate  # imported where used: --help stays quick
    from .views import print_simulation

    rules = rules_for(variant, rule_opts)
    with chunks.context():
        result = simulate(rules, games, strategy, vs, play=play, vs_play=vs_play, seed=seed,
                          worlds=worlds, workers=workers, progress=not json_out)
    if json_out:
        opt.print_json(result.to_dict())
    else:
        print_simulation(console, result)
    if result.interrupted:
        opt.err_console.print(f"interrupted after {result.games:,} games: these are the results "
                          f"so far")
        raise typer.Exit(130)
