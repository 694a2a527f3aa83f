"""One rule for every number a person gives, on every surface — the command line's options, the
HTTP API's parameters, a bot's JSON view, a record, a hand file: a number given as text is
ASCII digits (``0-9``; a decimal may have one point), a minus sign only where the field may be
negative, no spaces, signs, underscores or other scripts' digits (Python's ``int()`` takes
``' 5'``, ``'+5'``, ``'1_000'`` and ``'٥'``), and every number has a bound that names it.
The bound is checked on the text's length before it is converted: a 5,000-digit number is
refused as too large, not by Python's limit on converting long text to a number. A number
in JSON is a JSON number (not text) within its bound; JSON text is read with
:func:`json_loads`, which refuses an integer far longer than any bound before converting it."""

from __future__ import annotations

import json
import re

from .errors import UserError

LARGEST = 2**63 - 1  # the kernels' integers are signed 64-bit: no number of ours is larger
_DIGITS = len(str(LARGEST))  # text with more digits than this is over every bound
# a JSON integer with more digits is refused as it is read, before it is converted (Python
# will not convert text of over 4,300 digits); shorter ones reach their field's own bound
JSON_DIGITS = 100
_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]*\.?[0-9]+")


def read_number(text: str, name: str, kind: type = int, low: float = 0,
                high: float | None = None) -> int | float:
    """``text`` as a number of ``kind`` (int or float) from ``low`` to ``high`` (None:
    ``LARGEST``). UserError naming ``name`` when it is not ASCII digits (a minus first only
    when ``low`` is negative; a float may have a point), or is out of range."""
    top = LARGEST if high is None else high
    negative = isinstance(text, str) and text.startswith("-") and low < 0
    body = text[1:] if negative else text
    pattern = _WHOLE if kind is int else _DECIMAL
    if not isinstance(body, str) or not pattern.fullmatch(body):
        what = "a whole number (digits 0-9)" if kind is int else "a number (digits 0-9, a point)"
        raise UserError(f"{name} must be {what}, not {shown(text)}")
    if len(body.split(".")[0].lstrip("0")) > _DIGITS:  # over every bound: not converted
        raise UserError(f"{name} must be at least {low:,}" if negative else
                        f"{name} must be at most {top:,}")
    return in_range(kind(text), name, low, top)


def in_range(value, name: str, low: float = 0, high: float | None = None):
    """``value`` (a number) when it is from ``low`` to ``high`` (None: ``LARGEST``);
    UserError naming ``name`` otherwise."""
    top = LARGEST if high is None else high
    if value > top:
        raise UserError(f"{name} must be at most {top:,}")
    if value < low:
        raise UserError(f"{name} must be at least {low:,}")
    return value


def json_number(value, name: str, low: int = 0, high: int | None = None) -> int:
    """A JSON value that must be a whole number from ``low`` to ``high`` (None:
    ``LARGEST``): ``value``, or UserError naming ``name`` (text, even of digits, is not a
    number here, nor is true or 2.5)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{name} must be a whole number, not {shown(value)}")
    return in_range(value, name, low, high)


def json_loads(text: str | bytes):
    """The value of JSON ``text``, as ``json.loads`` reads it except that an integer of
    more than ``JSON_DIGITS`` digits is refused (UserError) before it is converted.
    JSONDecodeError and RecursionError pass through, for the caller to say where."""
    return json.loads(text, parse_int=_json_whole)


def _json_whole(digits: str) -> int:
    if len(digits.lstrip("-").lstrip("0")) > JSON_DIGITS:
        raise UserError(f"a number of {len(digits.lstrip('-')):,} digits is more than any "
                        f"field takes (at most {LARGEST:,})")
    return int(digits)


def shown(value) -> str:
    """A value as an error line quotes it: short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
