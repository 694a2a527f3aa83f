"""What a seed may be: the kernels' random streams are keyed by a signed 64-bit seed. Light to
import (the command line's --help reads it)."""

from __future__ import annotations

from numbers import Integral

from ..errors import UserError
from ..numbers import LARGEST

MAX_SEED = LARGEST  # a seed is any of the kernels' signed 64-bit integers from 0


def check_seed(seed: int) -> None:
    """UserError unless ``seed`` is a whole number from 0 to 2**63 - 1."""
    whole = isinstance(seed, Integral) and not isinstance(seed, bool)
    if not whole or not 0 <= seed <= MAX_SEED:
        raise UserError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed!r}")
