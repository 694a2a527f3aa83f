"""``euchre strategy``: write a bidding strategy as a TOML file to start your own from, and
build the analyzer strategy's tables ahead of first use."""

from typing import Annotated

import typer

from ..errors import UserError
from ..strategy.defaults import BUILT_STRATEGIES
from .app import app
from .common import VariantOption, console, err_console, rules_for, with_rule_options

strategy_app = typer.Typer(help="Bidding strategies: show one as a TOML file, build the "
                                "analyzer's tables.", no_args_is_help=True,
                          rich_markup_mode="markdown")
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
