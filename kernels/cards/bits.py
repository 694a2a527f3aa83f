"""Bit primitives on uint64 card masks: popcount, lowest and highest set bit.

numba has no public popcount, so these are thin ``@intrinsic`` wrappers over LLVM's
``ctpop``/``cttz``/``ctlz``, which compile to single instructions (POPCNT, TZCNT, LZCNT).
"""

import numpy as np
from llvmlite import ir
from numba import config as numba_config
from numba import njit, types
from numba.extending import intrinsic

from ..config import NRT_FREE

ONE = np.uint64(1)  # a uint64 one: numba types a uint64 mixed with an int64 as float64
# the double deck's twin cards sit side by side (bits 2k and 2k + 1, one class): the masks of
# the lower and of the upper copies
EVEN_BITS = np.uint64(0x5555555555555555)
ODD_BITS = np.uint64(0xAAAAAAAAAAAAAAAA)


def _bit_intrinsic(build):
    """An ``@intrinsic`` uint64 -> uint64 whose code is ``build(builder, x)``."""
    @intrinsic
    def _op(typingctx, x):
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):
            return build(builder, args[0])

        return sig, codegen
    return _op


_NOT_POISON = ir.Constant(ir.IntType(1), 0)  # cttz/ctlz of 0 is 64, not undefined
_ctpop = _bit_intrinsic(lambda builder, x: builder.ctpop(x))
_cttz = _bit_intrinsic(lambda builder, x: builder.cttz(x, _NOT_POISON))
_ctlz = _bit_intrinsic(lambda builder, x: builder.ctlz(x, _NOT_POISON))


@njit(**NRT_FREE)
def popcount(x):
    """Number of set bits of the uint64 ``x``."""
    return np.int64(_ctpop(np.uint64(x)))


@njit(**NRT_FREE)
def lowest_bit(x):
    """Index of the lowest set bit of ``x`` (64 when ``x`` is 0)."""
    return np.int64(_cttz(np.uint64(x)))


@njit(**NRT_FREE)
def highest_bit(x):
    """Index of the highest set bit of ``x`` (-1 when ``x`` is 0)."""
    return np.int64(63) - np.int64(_ctlz(np.uint64(x)))


@njit(**NRT_FREE)
def bit(i):
    """The uint64 mask with only bit ``i`` set."""
    return np.uint64(1) << np.uint64(i)


if numba_config.DISABLE_JIT:  # plain-Python versions, for debugging and coverage runs
    def popcount(x):  # noqa: F811
        """Number of set bits of ``x``."""
        return np.int64(bin(int(x)).count("1"))

    def lowest_bit(x):  # noqa: F811
        """Index of the lowest set bit of ``x`` (64 when ``x`` is 0)."""
        x = int(x)
        return np.int64((x & -x).bit_length() - 1 if x else 64)

    def highest_bit(x):  # noqa: F811
        """Index of the highest set bit of ``x`` (-1 when ``x`` is 0)."""
        return np.int64(int(x).bit_length() - 1)
