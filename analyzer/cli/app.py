"""The ``euchre`` typer application and its entry point: every user mistake (a bad card, deal,
record, option or file) ends with one line on stderr, ``error: ...``, and exit code 2; never a
traceback. The commands live in the sibling modules, each a thin wire to a library function."""

import os
import sys

import typer

from ..compute.notices import reporting
from ..errors import TooLong, UserError
from . import help_layout

help_layout.install()
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
    if "Exit" in names:  # --help, or a command's typer.Exit(code)
        return e.exit_code
    if "NoArgsIsHelpError" in names:  # typer's rich help printed itself as it was made
        return 0
    if "UsageError" in names:
        ctx = getattr(e, "ctx", None)
        names = []
        while ctx is not None and ctx.parent is not None:  # 'bench solve', not 'solve'
            names.append(ctx.info_name or ctx.command.name)
            ctx = ctx.parent
        hint = f" (see 'euchre {' '.join(reversed(names))} --help')" if names else ""
        message = e.format_message()
        if "NoSuchOption" in {c.__name__ for c in type(e).__mro__}:
            close = help_layout.close_options(e.option_name, e.possibilities or ())
            message = e.message + (f"; did you mean {' or '.join(close)}?" if close else "")
        print(f"error: {' '.join(message.split())}{hint}", file=sys.stderr)
        return 2
    if "Abort" in names:
        print(NOTHING_KEPT, file=sys.stderr)
        return 130
    return None


NOTHING_KEPT = "interrupted before anything was finished: nothing was kept"


def say(kind: str, facts: dict) -> None:
    """What the runner reports to a person waiting (``compute.notices.reporting``), in the
    command line's words on stderr."""
    if kind == "slow_start":
        print(f"{facts['label']}: the first {facts['first']:,} of {facts['total']:,} "
              f"{facts['unit']} have taken {facts['seconds']:.0f} s so far; progress shows once "
              f"they are done (Ctrl-C twice stops at once)", file=sys.stderr, flush=True)
    elif kind == "stopping":
        print("stopping once the chunk running now is done (Ctrl-C again stops at once, "
              "without it)", file=sys.stderr, flush=True)
COMPILES = None  # the CompileWatch of this run of the command line (seconds spent compiling)


def timing_text(seconds: float) -> str:
    """A run's time as a header says it: ``"1.7 s"``, or, when this run compiled kernels for
    more than a second, the question's own seconds (those spent compiling during the
    ``seconds`` that just ended taken out) and the compiling apart: ``"1.7 s (+104 s
    compiling the kernels, a first run only)"``."""
    compiled = COMPILES.seconds if COMPILES is not None else 0.0
    if compiled <= 1:
        return f"{seconds:.1f} s"
    import time

    now = time.perf_counter()
    own = max(0.0, seconds - COMPILES.seconds_within(now - seconds, now))
    return f"{own:.1f} s (+{compiled:.0f} s compiling the kernels, a first run only)"


def _cut_short(e: BaseException) -> bool:
    """True for Ctrl-C (or SIGTERM): a KeyboardInterrupt, or the SystemError numba raises
    when the interrupt lands as a compiled function returns."""
    while e is not None:
        if isinstance(e, KeyboardInterrupt):
            return True
        e = e.__cause__ or e.__context__
    return False


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
    try:
        command = typer.main.get_command(app)  # in the try: a Ctrl-C can come while it builds
        # the context is made and invoked here, not through click's (and typer's) main,
        # which would turn Ctrl-C into a silent exit 130 before this function could say so
        with command.make_context("euchre", list(argv)) as ctx, reporting(say):
            rv = command.invoke(ctx)
    except TooLong as e:
        print(f"error: {' '.join(str(e).split())}; ask for fewer, or add --force to run it "
              f"anyway", file=sys.stderr)
        return 2
    except UserError as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(NOTHING_KEPT, file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0

    except Exception as e:
        # click's exceptions first: a command's own exit (typer.Exit) that said what it kept
        # after a Ctrl-C carries the KeyboardInterrupt, and is not "nothing was kept"
        code = _click_error(e)
        if code is not None:
            return code
        if _cut_short(e):
            print(NOTHING_KEPT, file=sys.stderr)
            return 130
        raise
    return rv if isinstance(rv, int) else 0


COMPILING = ("compiling the kernels this run needs that are not cached yet (a first run, one "
             "interrupted while compiling, or a new version of the kernels): a minute or more")


def _say_compiling() -> None:
    print(COMPILING, file=sys.stderr, flush=True)


def main(interrupts, announced: bool = False) -> None:
    """Run ``euchre`` (called by ``analyzer.launch``, which installed ``interrupts``, the
    Ctrl-C and SIGTERM handler): what was finished is kept and said, exit code 130. When
    numba has to compile, it says so (unless the launcher already did: ``announced``)."""
    from kernels.compile_events import watch_compiles

    global COMPILES
    interrupts.watch = COMPILES = watch_compiles(lambda: None if announced else
                                                 _say_compiling())
    from ..compute import runner

    runner.compile_seconds = COMPILES.seconds_within  # a size estimate leaves compiling out
    code = run(sys.argv[1:])
    from ..compute.runner import left_running

    if left_running():  # a second Ctrl-C left a chunk's kernel running: do not wait for it
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
