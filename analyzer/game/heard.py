"""The calls heard before a player's turn (``Heard``), read from text and written back, and
the calls a player may choose from (a decision point, ``analyzer.game.decision_point``, holds
them).

The calls heard are written as in a record's auction: ``"E pass, S pass"`` (items separated by
commas, semicolons or new lines, each ``SEAT CALL``); a maker's call may end in ``alone``
(``"S order alone"``, ``"E name H alone"``) where the maker went alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kernels.cards import codes as K

from ..errors import UserError
from .notation import SEATS, NotationError, parse_seat
from .records import RecordError, call_text, parse_call
from .variants import UPCARD, Rules

_ITEMS = re.compile(r"[,;\n]+")


@dataclass(frozen=True)
class Heard:
    """The calls heard before a decision: ``seats[j]`` made ``calls[j]`` (call codes);
    ``alone`` is the 4-bit mask of makers among them who went alone."""

    seats: tuple = ()
    calls: tuple = ()
    alone: int = 0

    def __len__(self) -> int:
        return len(self.calls)

    def then(self, seat: int, call: int, alone: bool = False) -> Heard:
        """These calls followed by ``seat``'s ``call``."""
        return Heard(self.seats + (seat,), self.calls + (call,),
                     self.alone | ((1 << seat) if alone else 0))


def parse_heard(text, rules: Rules) -> Heard:
    """The calls heard, from text like ``"E pass, S order alone"`` (or a list of such
    items); UserError naming the bad item."""
    items = text if isinstance(text, list | tuple) else _ITEMS.split(text or "")
    heard = Heard()
    for n, item in enumerate((i.strip() for i in items if i and i.strip()), start=1):
        words = item.split()
        alone = len(words) > 2 and words[-1].lower() == "alone"
        if alone:
            words = words[:-1]
        if len(words) < 2:
            raise UserError(f"the auction's call {n} ({item!r}): write it as 'SEAT CALL', e.g. "
                            f"'E pass'")
        try:
            seat = parse_seat(words[0])
            call = parse_call(" ".join(words[1:]), rules)
        except (NotationError, RecordError) as e:
            raise UserError(f"the auction's call {n}: {e}") from None
        if alone and not may_go_alone(rules, call):
            raise UserError(f"the auction's call {n} ({item!r}): only a maker of the upcard "
                            f"auction goes alone")
        heard = heard.then(seat, call, alone)
    return heard


def may_go_alone(rules: Rules, call: int) -> bool:
    """Whether the maker of ``call`` (a call code) may say it alone in the calls heard: a
    maker of the upcard auction."""
    return rules.auction == UPCARD and call != K.PASS


def call_choices(rules: Rules, codes) -> list[str]:
    """The calls a seat may say for the legal call ``codes``, as the calls heard write them
    (``"order"``, ``"order alone"``, ``"pass"``, ``"4"``...)."""
    out = []
    for c in codes:
        out.append(call_text(c, rules))
        if may_go_alone(rules, c):
            out.append(call_text(c, rules) + " alone")
    return out


def heard_text(heard: Heard, rules: Rules) -> str:
    """The calls heard in the record's notation (``E pass, S order alone``)."""
    return ", ".join(f"{SEATS[s]} {call_text(c, rules)}" + (" alone" if (heard.alone >> s) & 1
                                                           and c != K.PASS else "")
                     for s, c in zip(heard.seats, heard.calls, strict=True))
