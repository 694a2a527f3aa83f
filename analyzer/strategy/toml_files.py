"""Bidding strategies from a file: the point count as data, in TOML, so players and bot writers
can test their own rules (``euchre strategy show points > mine.toml`` writes the built-in one
to start from; ``--strategy mine.toml`` and ``--others mine.toml`` use it).

The file sets the points of each card (trump by rank, side cards by rank), the void bonus,
how round 1 counts the upcard, and the points each call needs, for every seat or for one seat
(``[thresholds.first]``: ``dealer``, ``first``, ``second``, ``third``, counted clockwise from
the dealer); a table named after a variant (``[knock.thresholds]``) overrides for that variant
only. Keys left out keep the built-in values. Bad files are one line naming the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kernels.bidding import bidding as B

from ..errors import UserError
from ..game.variants import VARIANT_NAMES

TRUMP_KEYS = ("right", "left", "ace", "king", "queen", "ten", "nine", "eight", "seven", "joker")
SIDE_KEYS = ("ace", "king", "queen", "jack", "ten", "nine", "eight", "seven")
CALL_KEYS = ("bid3", "bid4", "bid5", "ask", "moon", "order", "order_alone", "name", "name_alone",
             "defend_alone", "swap_below")
PLACES = ("dealer", "first", "second", "third")
HAND_KEYS = ("void", "void_min_trumps")
UPCARD_KEYS = ("dealer_discard", "partner_share", "opponent_share")
SECTIONS = ("points", "upcard", "thresholds")


@dataclass
class StrategyData:
    """A point-count strategy: its name and description, card ``weights`` (``B.W_*``),
    ``thresholds`` [4 places, calls], the void bonus and the upcard's shares."""

    name: str = "points"
    description: str = "the built-in point count"
    weights: np.ndarray = field(default_factory=lambda: B.DEFAULT_WEIGHTS.copy())
    thresholds: np.ndarray = field(default_factory=lambda: np.tile(B.DEFAULT_THRESHOLDS,
                                                                   (4, 1)))
    void: float = 0.5
    void_min: float = 2.0
    up: tuple = (0.5, 0.75, 0.5)

    def params_row(self, worlds: int) -> np.ndarray:
        """The seat's parameter row of the kernels (``kernels.slots.PR``)."""
        row = B.DEFAULT_PARAMS.copy()
        row[B.PR.WORLDS], row[B.PR.VOID], row[B.PR.VOID_MIN] = worlds, self.void, self.void_min
        row[B.PR.UP_DEALER], row[B.PR.UP_PARTNER], row[B.PR.UP_OPPONENT] = self.up
        row[B.PR.TH:B.PR.PTS] = self.thresholds.reshape(-1)
        row[B.PR.PTS:B.PR.STRAT] = B.points_table(self.weights).reshape(-1)
        return row


def _number(where: str, key: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UserError(f"{where}: '{key}' must be a number, not {value!r}")
    return float(value)


def _table(where: str, data, allowed) -> dict:
    if not isinstance(data, dict):
        raise UserError(f"{where} must be a table of keys and numbers")
    for key in data:
        if key not in allowed:
            raise UserError(f"{where}: unknown key '{key}' (keys: {', '.join(allowed)})")
    return data


def _apply(s: StrategyData, data: dict, where: str) -> None:
    """Overlay one set of sections (top level, or a variant's table) on ``s``."""
    points = _table(f"{where}[points]", data.get("points", {}), ("trump", "side", *HAND_KEYS))
    for i, key in enumerate(TRUMP_KEYS):
        if key in (trump := _table(f"{where}[points.trump]", points.get("trump", {}),
                                   TRUMP_KEYS)):
            s.weights[B.W_TRUMP + i] = _number(f"{where}[points.trump]", key, trump[key])
    for i, key in enumerate(SIDE_KEYS):
        if key in (side := _table(f"{where}[points.side]", points.get("side", {}), SIDE_KEYS)):
            s.weights[B.W_SIDE + i] = _number(f"{where}[points.side]", key, side[key])
    if "void" in points:
        s.void = _number(f"{where}[points]", "void", points["void"])
    if "void_min_trumps" in points:
        s.void_min = _number(f"{where}[points]", "void_min_trumps", points["void_min_trumps"])
    up = _table(f"{where}[upcard]", data.get("upcard", {}), UPCARD_KEYS)
    s.up = tuple(_number(f"{where}[upcard]", k, up[k]) if k in up else v
                 for k, v in zip(UPCARD_KEYS, s.up, strict=True))
    _thresholds(s, _table(f"{where}[thresholds]", data.get("thresholds", {}),
                          CALL_KEYS + PLACES), f"{where}[thresholds]")


def _thresholds(s: StrategyData, th: dict, where: str) -> None:
    for i, key in enumerate(CALL_KEYS):
        if key in th:
            s.thresholds[:, i] = _number(where, key, th[key])
    for place, name in enumerate(PLACES):
        own = _table(f"{where[:-1]}.{name}]", th.get(name, {}), CALL_KEYS)
        for i, key in enumerate(CALL_KEYS):
            if key in own:
                s.thresholds[place, i] = _number(f"{where[:-1]}.{name}]", key, own[key])


def load_strategy(path: Path | str, variant: str) -> StrategyData:
    """The strategy of a TOML file for ``variant``. Raises UserError naming the problem."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such strategy file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read {path}: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{path} is not TOML: {e}") from None
    allowed = ("name", "description", *SECTIONS, *VARIANT_NAMES)
    _table(str(path), data, allowed)
    s = StrategyData(name=str(data.get("name", path.stem)),
                     description=str(data.get("description", "")))
    _apply(s, data, str(path))
    if variant in data:
        _apply(s, _table(f"{path}[{variant}]", data[variant], SECTIONS), f"{path}[{variant}]")
    return s


def is_strategy_file(name: str) -> bool:
    """Whether a strategy name is a file (it ends in .toml)."""
    return str(name).lower().endswith(".toml")


def strategy_text(s: StrategyData | None = None) -> str:
    """The TOML of a strategy (the built-in point count by default), every key written out."""
    s = s or StrategyData()
    lines = [f'name = "{s.name}"', f'description = "{s.description}"', "",
             "[points.trump]  # points of each trump", *[
                 f"{k} = {s.weights[B.W_TRUMP + i]:g}" for i, k in enumerate(TRUMP_KEYS)],
             "", "[points.side]  # points of each side-suit card", *[
                 f"{k} = {s.weights[B.W_SIDE + i]:g}" for i, k in enumerate(SIDE_KEYS)],
             "", "[points]", f"void = {s.void:g}  # per side-suit void, holding at least ...",
             f"void_min_trumps = {s.void_min:g}  # ... this many trumps", "",
             "[upcard]  # round 1: the upcard's points for the dealer's side",
             f"dealer_discard = {s.up[0]:g}  # the dealer counts it in, less this",
             f"partner_share = {s.up[1]:g}  # the dealer's partner counts this share of it",
             f"opponent_share = {s.up[2]:g}  # an opponent of the dealer subtracts this share",
             "", "[thresholds]  # the points each call needs, from every seat",
             *[f"{k} = {s.thresholds[1, i]:g}" for i, k in enumerate(CALL_KEYS)],
             *_own_thresholds(s), "",
             "# one seat's own, counted from the dealer: [thresholds.dealer], [thresholds.first],",
             "# [thresholds.second], [thresholds.third]; a variant's own: [knock.thresholds]"]
    return "\n".join(lines) + "\n"


def _own_thresholds(s: StrategyData) -> list[str]:
    """The ``[thresholds.<place>]`` tables of the seats whose values differ from first seat's."""
    lines = []
    for place, name in enumerate(PLACES):
        own = [f"{k} = {s.thresholds[place, i]:g}" for i, k in enumerate(CALL_KEYS)
               if s.thresholds[place, i] != s.thresholds[1, i]]
        if own:
            lines += ["", f"[thresholds.{name}]", *own]
    return lines
