"""The ``euchre`` typer application and its entry point: every user mistake (a bad card, deal,
record, option or file) ends with one line on stderr, ``error: ...``, and exit code 2; never a
traceback. The commands live in the sibling modules, each a thin wire to a library function."""

import os
import sys

import typer

from ..errors import UserError

app = typer.Typer(
    help="Euchre strategy analyzer: rules, odds, double-dummy solving and simulation for Bid, "
         "Ghost Hand, Cutthroat and Knock Euchre.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # docstring paragraphs reflow to the terminal's width
)
bench_app = typer.Typer(help="Benchmarks that print figures (solves per second, nodes).",
                        no_args_is_help=True, rich_markup_mode="markdown")
app.add_typer(bench_app, name="bench")


def _click_error(e: Exception) -> int | None:
    """The exit code for one of click's own exceptions (typer vendors click, so they are
    recognised by class name), after printing it; None for any other exception."""
    names = {c.__name__ for c in type(e).__mro__}
    if "NoArgsIsHelpError" in names:
        print(e.ctx.get_help())
        return 0
    if "UsageError" in names:
        ctx = getattr(e, "ctx", None)
        names = []
        while ctx is not None and ctx.parent is not None:  # 'bench solve', not 'solve'
            names.append(ctx.info_name or ctx.command.name)
            ctx = ctx.parent
        hint = f" (see 'euchre {' '.join(reversed(names))} --help')" if names else ""
        print(f"error: {' '.join(e.format_message().split())}{hint}", file=sys.stderr)
        return 2
    if "Abort" in names:
        print("interrupted", file=sys.stderr)
        return 130
    return None


def _quiet_stdout() -> None:
    """The reader of our output went away (``euchre review ... | head``): send what is left
    to /dev/null, so the exit flush does not fail too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def run(argv: list[str]) -> int:
    """Run the CLI on ``argv`` (without the program name); returns the exit code. User errors
    print one line on stderr and return 2."""
    command = typer.main.get_command(app)
    try:
        rv = command.main(args=argv, prog_name="euchre", standalone_mode=False)
    except UserError as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0

    except Exception as e:
        code = _click_error(e)
        if code is None:
            raise
        return code
    return rv if isinstance(rv, int) else 0


def main() -> None:
    """Console entry point of ``euchre``."""
    sys.exit(run(sys.argv[1:]))
