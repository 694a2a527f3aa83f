"""How ``--help`` lays out a command's options on a narrow terminal, and which options an
unknown one suggests.

typer draws the options as a table of up to seven columns (required mark, long name, short
name, the ``--no-`` form, its short form, the type, the help); at 80 columns the help column
of ``euchre odds`` got a dozen characters and each option took eight lines. Below
``WIDE`` columns each option is drawn instead as one line of its names and type with its help
under it, indented, as click's plain help does. typer's own drawing is kept at wider
terminals, and whenever its internals are not what this module expects."""

from __future__ import annotations

import difflib

from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

WIDE = 100  # columns from which typer's table of options fits
SUGGEST_CUTOFF = 0.8  # how alike an unknown option and a suggestion must be (a typo)


KINDS = {"str": "TEXT", "list[str]": "TEXT", "int": "INTEGER", "int range": "INTEGER",
         "float": "NUMBER", "float range": "NUMBER", "path": "PATH"}


def _names(param, ctx) -> Text:
    """An option's names and kind: ``--play-check / --no-play-check``, ``--deals INTEGER``;
    an argument's name (``hand...``)."""
    if param.param_type_name == "argument":
        return Text(param.display_name_raw + ("..." if param.nargs != 1 else ""),
                    style="bold cyan")
    names = ", ".join(param.opts)
    if param.secondary_opts:
        names += " / " + ", ".join(param.secondary_opts)
    text = Text(names, style="bold cyan")
    kind = str(param.display_type_rich(ctx=ctx) or "").strip("<>")
    if kind and kind != "bool":
        text.append(" " + KINDS.get(kind, kind), style="yellow")
    return text


def install() -> None:
    """Make typer draw options in two lines each below ``WIDE`` columns (see the module)."""
    from typer import rich_utils

    original = rich_utils._print_options_panel
    help_of = getattr(rich_utils, "_get_parameter_help", None)
    if getattr(original, "narrow_aware", False) or help_of is None:
        return

    def options_panel(*, name, params, ctx, markup_mode, console):
        if console.width >= WIDE or not params:
            return original(name=name, params=params, ctx=ctx, markup_mode=markup_mode,
                            console=console)
        try:
            grid = Table.grid(padding=(0, 0), expand=True)
            grid.add_column(overflow="fold")
            for param in params:
                grid.add_row(_names(param, ctx))
                grid.add_row(Padding(help_of(param=param, ctx=ctx, markup_mode=markup_mode),
                                     (0, 0, 0, 4)))
        except (AttributeError, TypeError):  # typer's internals moved: its own drawing
            return original(name=name, params=params, ctx=ctx, markup_mode=markup_mode,
                            console=console)
        console.print(Panel(grid, border_style=rich_utils.STYLE_OPTIONS_PANEL_BORDER,
                            title=name, title_align=rich_utils.ALIGN_OPTIONS_PANEL))

    options_panel.narrow_aware = True
    rich_utils._print_options_panel = options_panel


def close_options(typed: str, possibilities) -> list[str]:
    """The options worth suggesting for an unknown ``typed`` one: those alike enough to be a
    typo of it (click suggests any option sharing a few letters: ``--played`` got
    ``--no-play-check``)."""
    return [p for p in possibilities
            if difflib.SequenceMatcher(None, typed, p).ratio() >= SUGGEST_CUTOFF]
