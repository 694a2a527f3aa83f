"""The ``euchre`` command line (typer): ``app`` with every command registered, ``run`` for
tests and ``main`` for the console script."""

from . import bench, files, hand, odds, serve, strategy, study  # noqa: F401  (registers the commands)
from .app import app, main, run  # noqa: F401
