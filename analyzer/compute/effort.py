"""How much a run computes, as one value object passed inward instead of six keyword
arguments repeated in each layer (the public API functions keep their keyword options and
build it)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UserError
from .runner import DEFAULT_CHUNK


@dataclass(frozen=True)
class Effort:
    """How much is computed: ``deals`` random deals, or until the widest 95% interval is
    ``precision`` wide, or every layout (``exact``); from ``seed``, on ``workers`` threads
    (None: all), ``chunk`` deals at a time, with a progress bar when ``progress``;
    ``all_details``: every detail of a call (the card given in an n-ask, the dealer's
    discard) played on every deal, where a long odds run otherwise chooses them on its first
    deals; ``all_calls``: every call played on every deal, where an odds run otherwise stops
    playing the calls clearly worse than the best (``analyzer.questions.odds.race``);
    ``tries``: random deals stop after the chunk in which the deals tried to fit the calls
    heard reach this many (None: no such bound; a bot's question keeps within its time)."""

    deals: int | None = None
    precision: float | None = None
    exact: bool = False
    seed: int = 0
    workers: int | None = None
    chunk: int = DEFAULT_CHUNK
    progress: bool = False
    all_details: bool = False
    all_calls: bool = False
    tries: int | None = None

    def check(self) -> None:
        """UserError when more than one of deals, precision and exact is given, or a size is
        out of range."""
        if self.deals is not None and self.deals < 1:
            raise UserError("--deals must be at least 1")
        if self.precision is not None and not 0 < self.precision < 0.5:
            raise UserError("--precision is a half-width between 0 and 0.5, e.g. 0.01")
        if sum(x is not None and x is not False
               for x in (self.deals, self.precision, self.exact or None)) > 1:
            raise UserError("choose one of --deals, --precision and --exact")
