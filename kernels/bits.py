"""Bit primitives on uint64 card masks: popcount, lowest and highest set bit.

numba has no public popcount, so these are thin ``@intrinsic`` wrappers over LLVM's
``ctpop``/``cttz``/``ctlz``, which compile to single instructions (POPCNT, TZCNT, LZCNT).
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from .config import JIT


@intrinsic
def _ctpop(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@njit(**JIT)
def popcount(x):
    """Number of set bits of the uint64 ``x``."""
    return np.int64(_ctpop(np.uint64(x)))


@njit(**JIT)
def lowest_bit(x):
    """Index of the lowest set bit of ``x`` (64 when ``x`` is 0)."""
    return np.int64(_cttz(np.uint64(x)))


@njit(**JIT)
def highest_bit(x):
    """Index of the highest set bit of ``x`` (-1 when ``x`` is 0)."""
    return np.int64(63) - np.int64(_ctlz(np.uint64(x)))


@njit(**JIT)
def bit(i):
    """The uint64 mask with only bit ``i`` set."""
    return np.uint64(1) << np.uint64(i)
