"""How the hands of a question are played, as one value object the questions pass inward
instead of five keyword arguments repeated in each layer (how much is computed is
``analyzer.compute.effort.Effort``). The public API functions (``analyzer.odds``, ...) keep
their keyword options and build both."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import UserError
from ...strategy.defaults import DEFAULT_METHOD, DEFAULT_STRATEGY, DEFAULT_WORLDS, METHODS, TREMBLE


@dataclass(frozen=True)
class PlayModel:
    """How every hand is played out: the strategy every later call is made by (``others``),
    how the cards are played (``method``: ``dd``, ``heuristic``, or ``pimc`` with ``worlds``
    worlds a card), and how the calls heard are read (``infer``: deal only what fits them,
    each seat making another legal call with chance ``tremble``; ``infer_play``: the cards
    heard played too, each seat playing its heuristic card or, with chance ``tremble``,
    another legal one)."""

    others: str = DEFAULT_STRATEGY
    method: str = DEFAULT_METHOD
    worlds: int = DEFAULT_WORLDS
    infer: bool = True
    tremble: float = TREMBLE
    infer_play: bool = False  # weigh deals by the cards heard played (heuristic card play)

    def check(self) -> None:
        """UserError for an unknown method or a tremble that is not a small chance."""
        if self.method not in METHODS:
            raise UserError(f"unknown method {self.method!r}: choose one of "
                            f"{', '.join(METHODS)}")
        if not 0 <= self.tremble < 0.5:
            raise UserError("--tremble is a chance between 0 and 0.5, e.g. 0.03")
