"""``euchre strategy``: write a bidding strategy as a TOML file to start your own from, and
build the analyzer strategy's tables ahead of first use."""

from typing import Annotated

import typer
from rich.table import Column, Table

from ..errors import UserError
from ..strategy.defaults import BUILT_STRATEGIES
from .app import app
from .common import VariantOption, console, err_console, rules_for, with_rule_options

strategy_app = typer.Typer(help="Bidding strategies: show one as a TOML file, build the "
                                "analyzer's tables, what changes with the score.",
                          no_args_is_help=True, rich_markup_mode="markdown")
app.add_typer(strategy_app, name="strategy")


@strategy_app.command("show")
@with_rule_options
def show_cmd(
    name: Annotated[str, typer.Argument(help="points, or a strategy file (.toml) to check and "
                                        "show with every key resolved.")] = "points",
    variant: VariantOption = "knock",
    rule_opts: dict | None = None,
):
    """Print a point-count strategy as TOML: every card's points, the void bonus, how round 1
    counts the upcard, the points each call needs per seat. Edit the copy and use it wherever
    a strategy name goes.

      euchre strategy show points > mine.toml

      euchre simulate --variant knock --strategy mine.toml --vs points --games 4000
    """
    from ..strategy.toml_files import StrategyData, is_strategy_file, load_strategy, strategy_text

    rules_for(variant, rule_opts)
    if is_strategy_file(name):
        data = load_strategy(name, str(variant))
    elif name.lower() == "points":
        data = StrategyData()
    elif name.lower() in BUILT_STRATEGIES:
        raise UserError(f"the {name.lower()} strategy is the analyzer's table (and fitted "
                        "model) of values, not a point count: 'euchre strategy build' builds it, "
                        "'euchre table' writes its tables")
    else:
        raise UserError(f"unknown strategy {name!r}: show 'points' or a .toml file")
    console.print(strategy_text(data), end="", markup=False, soft_wrap=True)


@strategy_app.command("build")
@with_rule_options
def build_cmd(variant: VariantOption, rule_opts: dict | None = None):
    """Build (or find in the cache) the analyzer strategy of a variant and its house rules:
    rounds of best response to itself, starting from the point count, until fewer than 1% of
    its table cells change their best call. The default rules' strategies ship with the
    package; for other house rules any command that bids by the analyzer builds one on first
    use (minutes) and caches it: this does it ahead, with the rounds shown. Where the analyzer
    bids by a fitted model of the calls (knock), the model is fitted too.

      euchre strategy build --variant knock
    """
    from ..strategy.best_response import analyzer_table, cache_path
    from ..strategy.fitted import fitted_model, has_model, model_files

    rules = rules_for(variant, rule_opts)
    built = analyzer_table(rules, progress=_round_printer())
    rounds = len(built.changes) + 1
    console.print(f"[bold]{rules.variant}[/bold] analyzer strategy: {rounds} rounds; cells "
                  f"changing their best call by round: "
                  f"{', '.join(f'{c:.1%}' for c in built.changes) or '-'}; cached in "
                  f"{cache_path(rules)}")
    if has_model(rules):
        fitted_model(rules)
        where = next(path for path in model_files(rules) if path.exists())
        console.print(f"its fitted model of the upcard auction: {where}")


def _round_printer():
    def show(r: int, change: float | None) -> None:
        tail = "" if change is None else f", {change:.1%} of cells changed their best call"
        err_console.print(f"  round {r} done{tail}")
    return show


@strategy_app.command("score")
@with_rule_options
def score_cmd(
    variant: VariantOption = "knock",
    hands: Annotated[int, typer.Option(help="Hands dealt at each score and dealer.", min=1000)]
    = 40_000,
    changed: Annotated[bool, typer.Option("--changed", help="Only the calls that change with "
                                          "the score somewhere.")] = False,
    rule_opts: dict | None = None,
):
    """What changes with the score: from how many points (the built-in point count) the
    analyzer makes each call near the end of a game, our side dealing and theirs, beside the
    same seat score-blind. The analyzer calls to win the game, not the hand: at 9-9 the
    dealing side orders up far more (any make ends the game); at 9-6 the side that needs one
    point orders up to keep the other side from a lone hand (a donation) and goes alone less.

      euchre strategy score --variant knock

      euchre strategy score --variant bid --changed
    """
    from ..questions.equity.score_calls import (
        RARE,
        SHOWN,
        SHOWN_SHARE,
        readable,
        score_thresholds,
        shows_score,
    )

    rules = rules_for(variant, rule_opts)
    if not shows_score(rules):
        raise UserError(f"{rules.variant}: the analyzer does not play to the score there "
                        "(ghost and the double deck have too many outcomes of a hand) or has "
                        "no sides (cutthroat): no thresholds change with it")
    frame = readable(score_thresholds(rules, hands=hands, progress=_score_progress()),
                     only_changed=changed)
    console.print(f"[bold]{rules.variant}[/bold]: from how many points (the built-in point "
                  f"count) our seat (N or S) makes each call at each score (ours first), and "
                  f"on what share of those decisions ('never': under {RARE:.1%}, '-': too few "
                  f"decisions); '*' where it differs from the analyzer score-blind by "
                  f"{SHOWN:g} points or {SHOWN_SHARE:.0%} of the decisions; {hands:,} hands "
                  "at each score and dealer", soft_wrap=True)
    for call, rows in frame.groupby("call", sort=False):
        rows = rows.drop(columns="call")
        table = Table(*[Column(str(c), justify="left" if i == 0 else "right", no_wrap=True)
                        for i, c in enumerate(rows.columns)], title=call, title_justify="left",
                      box=None, pad_edge=False, padding=(0, 0, 0, 1))
        for row in rows.itertuples(index=False):
            table.add_row(*[str(v) for v in row])
        console.print(table)


def _score_progress():
    def show(done: int, total: int) -> None:
        err_console.print(f"  scores played: {done} of {total}", end="\r")
        if done == total:
            err_console.print()
    return show
