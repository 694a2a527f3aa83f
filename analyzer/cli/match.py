"""``euchre match``: duplicate hands (or whole games) between card players, and the ladder."""

from typing import Annotated

import typer

from ..strategy.defaults import (
    ADVISE_DEALS,
    DEFAULT_METHOD,
    DEFAULT_STRATEGY,
    MATCH_PLAYERS,
    MATCH_WORLDS,
)
from . import common as opt
from .app import app
from .common import console, rules_for, runs_chunks, with_rule_options

PLAYERS_HELP = (f"{', '.join(MATCH_PLAYERS)}: dd sees every card (a cheat, the upper "
                "bound); pimc samples --worlds layouts at each card; analyzer is the "
                "analyzer's card player (docs/card-player.md); advise plays each card the card "
                "question answers (euchre advise, --method, --deals; advise:METHOD by that "
                "method; knock only, slow: a few hundred pairs).")


PlayerA = Annotated[str | None, typer.Option("--a", metavar="PLAYER",
                                             help=f"Player A: {PLAYERS_HELP}")]
PlayerB = Annotated[str | None, typer.Option("--b", metavar="PLAYER", help="Player B.")]
Ladder = Annotated[str | None, typer.Option(
    "--players", metavar="P1,P2,...", help="A ladder instead of --a/--b: every pair of these "
    "players plays a match on the same deals, and each is rated by its points a hand less its "
    "opponents', averaged over the field.")]
Pairs = Annotated[int, typer.Option(help="Deals, each played in every seating: a pair of "
                                    "hands with partners, a set of three with three "
                                    "players.", min=1)]
Games = Annotated[int | None, typer.Option(help="Play whole games instead of hands (rounded "
                                           "up to whole duplicate sets): A's win rate.",
                                           min=1)]
Bidding = Annotated[str, typer.Option(help="The strategy every seat bids by: analyzer, "
                                      "points, random, table, analyzer-points or a strategy "
                                      "file (.toml).")]
Worlds = Annotated[int, typer.Option(help="Worlds a pimc player samples at each card.", min=1)]
Method = Annotated[str, typer.Option(help="How the advise player's question plays the hands "
                                     "out: dd, heuristic or pimc (as odds).")]
Deals = Annotated[int, typer.Option(help="Deals of each of the advise player's questions.",
                                    min=1)]


@app.command("match")
@with_rule_options
@runs_chunks
def match_cmd(
    variant: opt.VariantOption,
    a: PlayerA = None,
    b: PlayerB = None,
    players: Ladder = None,
    pairs: Pairs = 1000,
    games: Games = None,
    bidding: Bidding = DEFAULT_STRATEGY,
    worlds: Worlds = MATCH_WORLDS,
    method: Method = DEFAULT_METHOD,
    deals: Deals = ADVISE_DEALS,
    seed: opt.SeedOption = 0,
    workers: opt.WorkersOption = None,
    json_out: opt.JsonOption = False,
    chunks: opt.ChunkRun = opt.NO_CLUSTER,
    rule_opts: dict | None = None,
):
    """Play two card players against each other on the same deals: each deal twice, the
    seats swapped (A at N/S, then at E/W; with three players three times, A in each seat
    against two B's, and a "pair" is that set), every seat bidding by one strategy, so only
    the card play differs. Prints A's points a hand minus B's with its 95% interval over the
    pairs, and each side's points a hand. --games plays whole games instead (A's win rate,
    Wilson interval); --players plays a ladder (docs/match.md).

      euchre match --variant knock --a heuristic --b random --pairs 10000 --seed 1

      euchre match --variant knock --a pimc --b heuristic --pairs 200 --worlds 20 --json

      euchre match --variant bid --a dd --b heuristic --games 200

      euchre match --variant knock --players random,heuristic,pimc --pairs 100 --worlds 20
    """
    from ..questions.simulate.card_match import MatchSettings, ladder, match, match_games
    from .views import print_ladder, print_match, print_simulation

    rules = rules_for(variant, rule_opts)
    settings = MatchSettings(bidding, worlds, method, deals)
    names = _lineup(a, b, players, games)
    progress = not json_out
    with chunks.context():
        if games is not None:
            result = match_games(rules, a, b, games, seed, settings, workers, progress)
            show, extra = print_simulation, {"a": a, "b": b}
            interrupted, done = result.interrupted, f"{result.games:,} games"
        else:
            if names is None:
                result = match(rules, a, b, pairs, seed, settings, workers, progress)
            else:
                result = ladder(rules, names, pairs, seed, settings, workers, progress)
            show, extra = print_match if names is None else print_ladder, {}
            interrupted, done = result.played.interrupted, f"{result.played.pairs:,} pairs"
    if json_out:
        opt.print_json({**result.to_dict(), **extra})
    else:
        show(console, result)
    if interrupted:
        opt.err_console.print(f"interrupted after {done}: these are the results so far")
        raise typer.Exit(130)


def _lineup(a: str | None, b: str | None, players: str | None,
            games: int | None) -> list | None:
    """The ladder's players from ``--players``, or None for a match of ``--a`` and ``--b``;
    UserError when the options do not make one or the other."""
    from ..errors import UserError

    if players is not None:
        if a is not None or b is not None:
            raise UserError("give --a and --b for a match, or --players for a ladder, not both")
        if games is not None:
            raise UserError("a ladder plays hands (--pairs), not whole games (--games)")
        return [p for p in (n.strip() for n in players.split(",")) if p]
    if a is None or b is None:
        raise UserError(f"give both --a and --b (players: {', '.join(MATCH_PLAYERS)}), or "
                        f"--players for a ladder")
    return None
