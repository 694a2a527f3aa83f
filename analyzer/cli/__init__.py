"""The ``euchre`` command line (typer): ``app`` with every command registered, ``run`` for
tests and ``main`` for the console script. One module per command (``play`` holds ``play`` and
``score``, ``strategy`` its group, ``bench`` the benchmarks)."""

# the commands register in the order `euchre --help` lists them: a person's order
# isort: off
from . import rules, play, solve, odds, evaluate, review, simulate, match  # noqa: F401
from . import advise  # noqa: F401
from . import equity  # noqa: F401
from . import strategy, table, report, serve, bench  # noqa: F401
# isort: on
from .app import app, main, run  # noqa: F401
from .common import read_numbers_strictly

read_numbers_strictly(app)  # every command's number options, by the one rule
