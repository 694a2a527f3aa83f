"""The Euchre strategy analyzer: the plain-Python layer over the numba kernels.

Python API (each also a command of ``euchre``): ``odds`` (the odds of every option of a hand),
``solve_deal`` (a deal double dummy), ``simulate`` (whole games between strategies), ``match``
(duplicate hands between card players), ``build_tables`` and ``build_report`` (strategy tables
and reports), ``evaluate_file`` (price a file of hands), ``review`` (judge a played hand), with
the rules from ``make_rules``.

Sub-packages, lowest first: ``game`` (rules, seating, scoring, notation, records), ``compute``
(kernel wrappers, the chunk runner, the Dask backend), ``strategy`` (named strategies and the
analyzer's tables), ``questions`` (what users ask), ``cli`` (the ``euchre`` command).
"""

import importlib

_API = {
    "advise": "analyzer.questions.advise.bot_view",
    "build_report": "analyzer.questions.tables.report",
    "build_tables": "analyzer.questions.tables.tables",
    "evaluate_file": "analyzer.questions.review.evaluate",
    "make_rules": "analyzer.game.variants",
    "match": "analyzer.questions.simulate.card_match",
    "odds": "analyzer.questions.odds.answer",
    "review": "analyzer.questions.review.review_hand",
    "simulate": "analyzer.questions.simulate.whole_games",
    "solve_deal": "analyzer.questions.tables.solve",
}
__all__ = sorted(_API)


def __getattr__(name: str):
    """The API functions, imported on first use (so ``euchre --help`` starts fast)."""
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
