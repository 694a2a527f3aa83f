"""Pieces shared by every CLI command: the house-rule options (defined once), the variant
choice, seat and seed options, every number option read by the one rule for numbers, and
output helpers."""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Union, get_args, get_origin, get_type_hints

import typer
from rich.console import Console

from ..compute.seeds import MAX_SEED
from ..errors import UserError
from ..game.variants import OPTIONS, Rules, make_rules, option_flag
from ..numbers import read_number
from ..outputs import json_text, strict  # noqa: F401  (the commands' JSON, strict)
from ..strategy.defaults import LIMIT_SECONDS


class _Console(Console):
    """rich's console, except that a reader who closed the pipe (``| head``) ends the command
    quietly with exit 0 (rich's own handling exits 1)."""

    def on_broken_pipe(self) -> None:
        """Raise BrokenPipeError for ``analyzer.cli.app.run`` to end quietly."""
        raise BrokenPipeError


console = _Console(highlight=False)
err_console = Console(stderr=True, highlight=False)  # warnings and progress, off stdout


class Variant(StrEnum):
    """The four variants, as a typer choice."""

    bid = "bid"
    ghost = "ghost"
    cutthroat = "cutthroat"
    knock = "knock"


VariantOption = Annotated[Variant, typer.Option("--variant", "-v", help="bid, ghost, cutthroat "
                                                "or knock.", case_sensitive=False)]
SeedOption = Annotated[int, typer.Option("--seed", help="Random seed: the same seed gives the "
                                         "same result on any machine and thread count.", min=0,
                                         max=MAX_SEED)]
SchedulerOption = Annotated[str | None, typer.Option(
    "--scheduler", help="Run on a Dask cluster: local:N starts N worker processes here, "
                        "tcp://HOST:PORT uses a running scheduler. Same numbers as without.",
    rich_help_panel="Cluster")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of "
                                          "tables.")]
MethodOption = Annotated[str, typer.Option(help="How hands are played: dd (double dummy), "
                                           "heuristic, pimc or analyzer players.")]
WorldsOption = Annotated[int, typer.Option(help="Worlds a pimc player samples per card.", min=1)]
WorkersOption = Annotated[int | None, typer.Option(help="Threads to use (default: all cores).",
                                                   min=1)]
DealsOption = Annotated[int, typer.Option(help="Random deals.", min=1)]
OthersOption = Annotated[str, typer.Option(help="The strategy the other calls are made by: "
                                           "analyzer (built on first use, then cached), "
                                           "points, random, or a strategy file (.toml).")]


def with_rule_options(func):
    """Decorator: add every house-rule option of ``variants.OPTIONS`` to a typer command as
    ``--name/--no-name`` flags or ``--name N`` numbers (all in a "House rules" help panel),
    and pass the ones the user gave to the command as ``rule_opts`` (name -> value)."""
    extra = []
    for spec in OPTIONS:
        flag = option_flag(spec.name)
        variants = "/".join(spec.defaults)
        help_text = f"{spec.help} [{variants}]"
        if spec.kind is bool:
            opt = typer.Option(f"{flag}/--no-{flag[2:]}", help=help_text,
                               rich_help_panel="House rules", show_default=False)
            ann = Annotated[bool | None, opt]
        else:
            opt = typer.Option(flag, help=help_text, rich_help_panel="House rules",
                               show_default=False)
            ann = Annotated[int | None, opt]
        extra.append(inspect.Parameter(spec.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                       annotation=ann))
    return _options_as_one(func, "rule_opts", extra,
                           lambda kw: {spec.name: kw.pop(spec.name, None) for spec in OPTIONS})


def with_fields(fields, name: str = "options"):
    """Decorator: add the options a question's description lists (``fields``, e.g.
    ``questions.odds.odds_request.ODDS_FIELDS``) to a typer command, each as its flag with its
    help, default and range, and pass them to the command as ``name`` (field name -> value):
    the command line reads the same description as the Python and HTTP APIs."""
    extra = [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY,
                               default=None if f.repeat else f.default,
                               annotation=_field_annotation(f)) for f in fields]
    names = [f.name for f in fields]

    def decorate(func):
        return _options_as_one(func, name, extra, lambda kw: {n: kw.pop(n) for n in names})
    return decorate


def _field_annotation(f):
    """The typer annotation of a described option (see :func:`with_fields`)."""
    if f.kind is bool:
        decl = f.cli_flag if not f.default else f"{f.cli_flag}/--no-{f.cli_flag[2:]}"
        return Annotated[bool, typer.Option(decl, help=f.help)]
    if f.repeat:
        return Annotated[list[str] | None, typer.Option(f.cli_flag, help=f.help)]
    limits = {k: v for k, v in (("min", f.low), ("max", f.high)) if v is not None}
    kind = f.kind if f.default is not None else f.kind | None
    return Annotated[kind, typer.Option(f.cli_flag, help=f.help, **limits)]


def _options_as_one(func, name: str, options: list, collect):
    """``func`` as a typer command with the keyword ``options`` (``inspect.Parameter``s) in
    place of its parameter ``name``, which gets ``collect(kwargs)`` (popping the options from
    the keyword arguments). Returns the wrapper."""
    sig = inspect.signature(func)
    hints = get_type_hints(func, include_extras=True)
    params = [p.replace(annotation=hints.get(p.name, p.annotation))
              for p in sig.parameters.values() if p.name != name]

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        value = collect(kwargs)
        return func(*args, **{name: value}, **kwargs)

    wrapper.__signature__ = sig.replace(parameters=params + options)
    wrapper.__annotations__ = {p.name: p.annotation for p in params + options}
    return wrapper


def read_numbers_strictly(typer_app: typer.Typer) -> None:
    """Make every int and float option of every command of ``typer_app`` (and of its
    groups) read its text by the one rule for numbers (``analyzer.numbers.read_number``:
    ASCII digits, no spaces, the option's range, or up to the kernels' largest number),
    not by int() and float(), which take ' 5', '+5', '1_000', '٥' and numbers of any size.
    A new option is covered when it is declared: there is nothing to add to it."""
    infos = list(typer_app.registered_commands)
    for group in typer_app.registered_groups:
        read_numbers_strictly(group.typer_instance)
    for info in infos:
        for name, hint in get_type_hints(info.callback, include_extras=True).items():
            kind, option = _number_option(hint)
            if option is not None and option.parser is None:
                flag = option.param_decls[0] if option.param_decls else \
                    "--" + name.replace("_", "-")
                option.parser = _number_parser(flag, kind, option.min, option.max)


def _number_option(hint) -> tuple[type | None, typer.models.OptionInfo | None]:
    """``(int or float, its typer option)`` of an annotation ``Annotated[int, Option(...)]``
    (``int | None`` too); ``(None, None)`` for any other."""
    if get_origin(hint) is not Annotated:
        return None, None
    kind, *extras = get_args(hint)
    if get_origin(kind) in (Union, type(int | None)):
        kind = next((k for k in get_args(kind) if k is not type(None)), None)
    option = next((e for e in extras if isinstance(e, typer.models.OptionInfo)), None)
    return (kind, option) if kind in (int, float) and option is not None else (None, None)


def _number_parser(flag: str, kind: type, low, high):
    """The typer ``parser`` of a number option: its text by ``read_number`` (a default
    passes as it is), a bad one refused as click refuses a value (one line, exit 2)."""
    def parse(text):
        if not isinstance(text, str):
            return text
        try:
            return read_number(text, flag, kind, 0 if low is None else low, high)
        except UserError as e:
            raise typer.BadParameter(str(e).removeprefix(flag + " ")) from None
    return parse


def rules_for(variant: Variant | str, rule_opts: dict) -> Rules:
    """Validated rules from the CLI's variant and house-rule flags."""
    return make_rules(variant.value if isinstance(variant, Variant) else variant, **rule_opts)


def print_json(obj, indent: int | None = 2) -> None:
    """Write ``obj`` as strict JSON on stdout (indented, or one line with ``indent=None``)."""
    sys.stdout.write(json_text(obj, indent) + "\n")


def read_text(path: str) -> str:
    """Contents of ``path``, or of standard input for ``-``; UserError if unreadable."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else \
                sys.stdin.read().encode("utf-8", "surrogateescape")
        else:
            with open(path, "rb") as f:
                data = f.read()
    except IsADirectoryError:
        raise UserError(f"{path} is a directory, not a file") from None
    except OSError as e:
        raise UserError(f"cannot read {name}: {e.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{name} is not UTF-8 text") from None


ForceOption = Annotated[bool, typer.Option("--force", help="Run even when the estimate says "
                                           "it would take more than 6 hours.")]


def size_limited(force: bool):
    """The context in which a command's runs are refused, with their estimated time, when
    they would take more than ``LIMIT_SECONDS`` (nothing when ``force``)."""
    from ..compute.runner import size_limit

    return size_limit(None if force else LIMIT_SECONDS)


def on_cluster(spec: str | None):
    """The cluster context of ``--scheduler`` (nothing to start when it is not given)."""
    if not spec:
        return contextlib.nullcontext()
    from ..compute.cluster import scheduler

    return scheduler(spec)


@dataclass(frozen=True)
class ChunkRun:
    """How a command runs its chunks of deals: on the cluster ``--scheduler`` names (None:
    here), and whether ``--force`` lifts the refusal of runs estimated over the limit."""

    scheduler: str | None = None
    force: bool = False

    @contextlib.contextmanager
    def context(self):
        """Within this block the command's runs go to the cluster, size-limited."""
        with on_cluster(self.scheduler), size_limited(self.force):
            yield


NO_CLUSTER = ChunkRun()  # here, size-limited: what a command runs with when called directly


def runs_chunks(func):
    """Decorator for a typer command that runs chunks of deals: adds ``--scheduler`` and
    ``--force`` and passes them as ``chunks`` (a :class:`ChunkRun`), the one home of these
    options for every such command."""
    extra = [inspect.Parameter("scheduler", inspect.Parameter.KEYWORD_ONLY, default=None,
                               annotation=SchedulerOption),
             inspect.Parameter("force", inspect.Parameter.KEYWORD_ONLY, default=False,
                               annotation=ForceOption)]
    return _options_as_one(func, "chunks", extra,
                           lambda kw: ChunkRun(kw.pop("scheduler", None), kw.pop("force", False)))


def stopped_resumable(where) -> None:
    """Ctrl-C during a table build: say on stderr where the finished chunks are, exit 130."""
    err_console.print(f"interrupted: the chunks done are saved in {where}; run the same "
                      f"command to continue", soft_wrap=True)
    raise typer.Exit(130) from None
