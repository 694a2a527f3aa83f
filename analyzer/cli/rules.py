"""``euchre rules``: the rules in force, in words."""

from typing import Annotated

import typer

from ..errors import UserError
from ..game.variants import VARIANT_NAMES, make_rules
from .app import app
from .common import (
    Variant,
    console,
    rules_for,
    with_rule_options,
)


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
