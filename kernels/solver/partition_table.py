"""The solver's transposition table of *partitions* (Ginsberg's partition search; DDS's
"winning ranks").

An entry holds a bound on the tricks the declaring side takes from a trick start for a whole
set of positions: every position with

  - the same **shape**: each hand's length in each suit,
  - the same leader, playing seats and declaring side,
  - and, in each suit, the same owners of the top cards down to the lowest card that decided
    the result (the **region** of the entry); the cards of a suit below its region are *small*:
    which small cards a hand holds, and which small cards were played before, does not matter.

The search (``kernels.solver.search``) returns with each answer the cards that decided it: the
cards a quick-trick cut-off counted, the card that won a trick *by rank* (another card of its
suit was played to that trick), and, through every trick below, the cards that decided the
answers there (the chosen line's at a cut-off, every line's when no move reaches the goal). The
region of a suit is then every card of it at or above the lowest deciding card. Why a bound
then holds for the whole set: map each card of one position to the same card of the other (in
the region) or to any small card of the same hand and suit; small cards never win a trick by
rank (the winner is in the region), so every line of play maps to a line with the same tricks,
and after each trick the two positions agree again on the region below.

Positions are compared over *relative* ranks (``pext`` of each hand by the cards still out),
as before, so an entry also holds across the solves of a deal and across deals. In the double
deck the two copies of a card are one class: the region covers whole classes, and which copy a
player holds is made canonical (equal cards are interchangeable between tricks). The classes
of each suit sit in a field of 8 from the top down (``top_aligned``), so a region — the top
classes of each suit — means the same cards whatever the number of small classes below it, and
an entry holds for positions whose small cards pair up differently (two 9s against a 9 and a
10).

The bucket hashes the shape, the seats and, in the double deck, the holder of each suit's top
class, which spreads a shape's many positions over buckets; and a double-deck position's
entries may sit in either of two adjacent buckets (``DOUBLE_BUCKETS``; a store takes the
cheaper victim of the two). Without them a hard deal's positions of one shape, no longer split
by class counts, crowded one bucket of 64 and evicted each other (one benchmark deal took 24×
the nodes; a larger table did not help, the capacity per shape did). An entry whose region
leaves a suit out holds whoever holds that suit's top, but it is found only by positions with
its own holders: storing it in the bucket of every holder found 30% fewer nodes on hard deals
but cost 50% more time a node.

Layout: ``tt[bucket, field, way]`` uint64; the bucket is a hash of the shape and seats (and
the top classes' holders), and holds ``ways`` entries whose fields are contiguous (see ``E``).
A bucket fills its ways in order and replaces an entry only in place, so the entries of the
current deal generation are ways ``0 .. n-1``, ``n`` kept in the bucket's ``E.FILL`` field: a
lookup compares those only (a double-deck probe found 14 to 32 in use of its 128, and
comparing all of them was a quarter of the solver's time).
"""

import numpy as np
from llvmlite import ir
from numba import config as numba_config
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..cards.bits import EVEN_BITS, ODD_BITS, ONE, lowest_bit, popcount
from ..cards.layout import SLOT_MASKS
from ..config import HAVE_BMI2, JIT, NRT_FREE
from ..slots import E

PLANE = np.uint64(32)  # bits of one owner plane: at most 32 cards (classes) still out
UNKNOWN_UB = 15
STAMP_SHIFT = np.uint64(26)  # the deal generation sits above the seats in the CTX word
WEIGHT_SHIFT = np.uint64(24)  # DATA: log2 of the nodes an answer cost, 8 bits
AGE_SHIFT = np.uint64(40)  # DATA: the probe that stored the entry, the top 24 bits
AGE_MASK = np.uint64((1 << 24) - 1)
DOUBLE_BUCKETS = 2  # double deck: a position's entries may sit in this many adjacent buckets
OLDER_PROBE = 100  # an entry of an earlier probe is replaced before any of this probe


def _bmi_intrinsic(name):
    @intrinsic
    def _hw(typingctx, x, m):
        sig = types.uint64(types.uint64, types.uint64)

        def codegen(context, builder, signature, args):
            fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
            fn = cgutils.get_or_insert_function(builder.module, fnty, name)
            return builder.call(fn, args)

        return sig, codegen
    return _hw


_pext_hw = _bmi_intrinsic("llvm.x86.bmi.pext.64")
_pdep_hw = _bmi_intrinsic("llvm.x86.bmi.pdep.64")


@njit(**NRT_FREE)
def _pext_pdep_loop(x, m, deposit):
    """``pext`` (``deposit`` False) or ``pdep`` without BMI2: the set positions of ``m``
    from the lowest, each paired with the next packed bit."""
    x = np.uint64(x)
    res = np.uint64(0)
    k = np.uint64(0)
    mm = np.uint64(m)
    while mm:
        low = mm & (~mm + ONE)
        if deposit and (x >> k) & ONE:
            res |= low
        elif not deposit and x & low:
            res |= ONE << k
        k += ONE
        mm ^= low
    return res


@njit(**NRT_FREE)
def pext(x, m):
    """Parallel bit extract: the bits of ``x`` at the set positions of ``m``, packed low."""
    if HAVE_BMI2 and not numba_config.DISABLE_JIT:
        return _pext_hw(np.uint64(x), np.uint64(m))
    return _pext_pdep_loop(x, m, False)


@njit(**NRT_FREE)
def pdep(x, m):
    """Parallel bit deposit, the inverse of ``pext``: the low bits of ``x`` placed, in order,
    at the set positions of ``m``."""
    if HAVE_BMI2 and not numba_config.DISABLE_JIT:
        return _pdep_hw(np.uint64(x), np.uint64(m))
    return _pext_pdep_loop(x, m, True)


@njit(**NRT_FREE)
def table_buckets(tt_bits, ways):
    """The buckets of a table of ``2**tt_bits`` entries in buckets of ``ways`` (at least one):
    a power of two, so ``buckets - 1`` is the mask that picks a bucket from a hash."""
    buckets = 1
    while buckets * 2 * ways <= (1 << tt_bits):
        buckets *= 2
    return buckets


@njit(**JIT)
def new_tables(nthreads, tt_bits, ways):
    """``(tables, bucket_mask)``: a zeroed table of ``2**tt_bits`` entries (at least one
    bucket of ``ways`` entries) for each of ``nthreads`` threads, and the mask that picks a
    bucket from a hash."""
    buckets = table_buckets(tt_bits, ways)
    tables = np.zeros((nthreads, buckets, np.int64(E.FIELDS), ways), dtype=np.uint64)
    return tables, np.uint64(buckets - 1)


@njit(inline="always", **NRT_FREE)
def _lengths(hand):
    """The hand's length in each suit, in the low bits of the suit's 16-bit slot (a popcount
    of the four slots at once)."""
    x = hand - ((hand >> ONE) & EVEN_BITS)  # the SWAR popcount: pairs of bits first
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x + (x >> np.uint64(8))) & np.uint64(0x001F001F001F001F)


@njit(**NRT_FREE)
def position_key(hands, leader, active, decl, double):
    """The table key of a trick start: ``(shape, ctx, keep, o0, o1, o2, top, spread)``,
    ``hands`` the 4 normalised masks. ``keep`` marks the cards still out (double deck: both
    copies of every class still out). The owners of the cards still out, in relative rank
    order, are bit planes: ``o0`` holds two planes of 32 bits (bit 0 and bit 1 of the seat
    holding each card); in the double deck, planes per class: ``o0`` the holder of its first
    copy, ``o1`` the holder of the second, ``o2`` whether a second copy is still out (its
    upper plane: whether the class is out at all), each suit top-aligned
    (:func:`top_aligned`); then ``top``, the classes out in that layout, and ``spread``, the
    holder of each suit's top class (2 bits a suit), which the bucket hashes."""
    u = hands[0] | hands[1] | hands[2] | hands[3]
    shape = _lengths(hands[0]) | (_lengths(hands[1]) << np.uint64(4)) | \
        (_lengths(hands[2]) << np.uint64(8)) | (_lengths(hands[3]) << np.uint64(12))
    ctx = np.uint64(leader | (active << 2) | (decl << 6))
    if not double:
        k1 = pext(hands[1], u)
        k2 = pext(hands[2], u)
        k3 = pext(hands[3], u)
        return (shape, ctx, u, (k1 | k3) | ((k2 | k3) << PLANE), np.uint64(0), np.uint64(0),
                np.uint64(0), np.uint64(0))
    occupied = (u | (u >> ONE)) & EVEN_BITS  # the even bit of each class with a card left
    keep = occupied | (occupied << ONE)
    top = top_aligned(occupied)
    taken = np.uint64(0)
    first0 = first1 = second0 = second1 = second = np.uint64(0)
    for s in range(4):
        h = hands[s]
        classes = (h | (h >> ONE)) & EVEN_BITS
        both = h & (h >> ONE) & EVEN_BITS
        one = classes & ~both
        first = one & ~taken  # the first holder of a class gets its first copy
        taken |= first | both
        # the class's first copy (even bit) and second (odd bit, shifted down), packed over
        # the classes still out and laid out top-aligned
        f = pdep(pext(both | first, occupied), top)
        g = pdep(pext(both | (one & ~first), occupied), top)
        second |= g
        if s & 1:
            first0 |= f
            second0 |= g
        if s & 2:
            first1 |= f
            second1 |= g
    o0 = first0 | (first1 << PLANE)
    spread = np.uint64(0)
    for q in range(4):
        t = np.uint64(8 * q + 7)  # the owner-plane bit of the suit's top class
        holder = ((o0 >> t) & ONE) | ((o0 >> (t + PLANE - ONE)) & np.uint64(2))
        spread |= holder << np.uint64(2 * q)
    # the upper plane of o2 marks the classes still out: a field's missing bottom class
    # cannot pass for one held by N
    return (shape, ctx, keep, o0, second0 | (second1 << PLANE), second | (top << PLANE), top,
            spread)


@njit(**NRT_FREE)
def top_aligned(occupied):
    """The owner-plane bits of the classes still out (``occupied``: the even bit of each),
    each suit in a field of 8 from the top down: the top class of a suit always sits at the
    same bit, so positions whose suits hold different numbers of small classes compare their
    top cards alike."""
    top = np.uint64(0)
    for q in range(4):
        n = np.uint64(popcount(occupied & SLOT_MASKS[q]))
        top |= ((ONE << n) - ONE) << (np.uint64(8 * q + 8) - n)
    return top


@njit(**NRT_FREE)
def bucket_of(key, bucket_mask):
    """The bucket of ``key`` (a ``position_key``): a hash of its shape, seats and (double
    deck) the holders of the suits' top classes."""
    x = key[0] * np.uint64(0x9E3779B97F4A7C15)
    x ^= (key[1] + (key[7] << np.uint64(20)) + np.uint64(0x632BE59BD9B4E019)) * \
        np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(29)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(32)
    return np.int64(x & bucket_mask)


@njit(inline="always", **NRT_FREE)
def _in_use(tt, b, stamp):
    """How many entries of bucket ``b`` this deal generation uses: they are ways 0 .. n-1 (a
    bucket fills in order and an entry is only ever replaced in place)."""
    return np.int64(tt[b, E.FILL, 0]) if tt[b, E.FILL, 1] == stamp else np.int64(0)


@njit(**NRT_FREE)
def _matches(tt, b, key, sc, n):
    """Bit i set when entry i (of the ``n`` in use) of bucket ``b`` holds for the position
    ``key``: a loop without branches over the bucket's contiguous fields, which the compiler
    vectorises."""
    shape = tt[b, E.SHAPE]
    ctx = tt[b, E.CTX]
    region = tt[b, E.REGION]
    o0 = tt[b, E.OWNERS]
    o1 = tt[b, E.OWNERS + 1]
    o2 = tt[b, E.OWNERS + 2]
    hits = np.uint64(0)
    for i in range(n):
        m = region[i]
        ok = (shape[i] == key[0]) & (ctx[i] == sc) & ((key[3] & m) == o0[i]) & \
            ((key[4] & m) == o1[i]) & ((key[5] & m) == o2[i])
        hits |= np.uint64(ok) << np.uint64(i)
    return hits


@njit(**NRT_FREE)
def _region_cards(m, keep, top, double):
    """The cards of the position (normalised mask) in the region ``m`` (over owner planes)."""
    m &= (ONE << PLANE) - ONE  # one plane of the region (both hold the same cards)
    if double:
        m = pext(m, top)
        return pdep(pdep(m, EVEN_BITS) | pdep(m, ODD_BITS), keep)
    return pdep(m, keep)


@njit(inline="always", **NRT_FREE)
def _buckets_used(tt, double):
    """How many adjacent buckets (``b ^ 0``, ``b ^ 1``, ...) hold a position's entries."""
    return DOUBLE_BUCKETS if double and tt.shape[0] > 1 else 1


@njit(inline="always", **NRT_FREE)
def _buckets_holding(tt, b, stamp, double):
    """How many of the buckets ``b ^ 0``, ``b ^ 1`` may hold entries for a position of bucket
    ``b`` this generation: its pair only once ``b`` is full, since a store goes there only
    then (``store``)."""
    if _in_use(tt, b, stamp) < tt.shape[2]:
        return 1
    return _buckets_used(tt, double)


@njit(**NRT_FREE)
def probe(tt, b, key, stamp, target, double):
    """Look the position ``key`` up in bucket ``b`` (double deck: and its pair ``b ^ 1``):
    ``(answer, region, best)``, answer 1 when an entry holding for it proves at least
    ``target`` tricks, 0 when one proves fewer (``region``: that entry's cards, as a normalised
    mask of this position), -1 when no entry decides (``best``: a lead that decided this
    position before, card + 1, or 0). The entries stored from bucket ``b`` go to ``b ^ 1``
    only once ``b`` is full (``store``), and a bucket only fills up within a deal generation,
    so ``b ^ 1`` is looked at only when ``b`` is full (an entry stored from ``b ^ 1`` by a
    position whose suits' tops lie elsewhere may hold here too: rare, and not looked for;
    0.001% more nodes, 3% less time on double-deck deals)."""
    best = np.int64(0)
    for pair in range(_buckets_holding(tt, b, stamp, double)):
        bb = b ^ pair
        hits = _matches(tt, bb, key, key[1] | (stamp << STAMP_SHIFT), _in_use(tt, bb, stamp))
        while hits:
            i = lowest_bit(hits)
            hits &= hits - ONE
            data = tt[bb, E.DATA, i]
            if np.int64((data >> np.uint64(8)) & np.uint64(255)) >= target:
                return np.int64(1), _region_cards(tt[bb, E.REGION, i], key[2], key[6],
                                                  double), best
            if np.int64(data & np.uint64(255)) < target:
                return np.int64(0), _region_cards(tt[bb, E.REGION, i], key[2], key[6],
                                                  double), best
            if best == 0:
                best = np.int64((data >> np.uint64(16)) & np.uint64(255))
    return np.int64(-1), np.uint64(0), best


@njit(**NRT_FREE)
def region_of(deciding, keep, double):
    """The region of a position whose answer was decided by the cards ``deciding``: in each
    suit, every card still out (``keep``) at or above the lowest deciding card (its whole
    class in the double deck)."""
    region = np.uint64(0)
    for q in range(4):
        d = deciding & SLOT_MASKS[q]
        if d:
            low = lowest_bit(d)
            if double:
                low &= ~1
            region |= keep & SLOT_MASKS[q] & ~((ONE << np.uint64(low)) - ONE)
    return region


@njit(**NRT_FREE)
def store(tt, b, key, stamp, answer, deciding, best, weight, double, probe_no):
    """Record in bucket ``b`` (double deck: or its pair) that the position ``key`` takes at
    least ``answer[1]`` tricks (``answer[0]`` 1) or fewer (0), decided by the cards
    ``deciding``; ``best`` is the deciding lead + 1 (or 0), ``weight`` how much work the answer
    cost (log2 nodes), ``probe_no`` the number of the current probe of this deal's exact
    search. An entry with the same region and owners takes the tighter bounds; otherwise the
    new entry takes the bucket's next free way (or its pair's), else replaces the one that cost
    least, counting an entry stored by an earlier probe as cheapest (the bounds one probe needs
    are mostly on the other side of the next probe's target: after "at least 7" proved, "at
    least 8" needs upper bounds, and a full double-deck table kept the costly lower bounds
    instead)."""
    sc = key[1] | (stamp << STAMP_SHIFT)
    age = np.uint64(probe_no) & AGE_MASK
    m = pext(region_of(deciding, key[2], double), key[2])
    if double:
        m = pdep(pext(m, EVEN_BITS), key[6])
    m |= m << PLANE
    result, target = answer
    o0 = key[3] & m
    o1 = key[4] & m
    o2 = key[5] & m
    ways = tt.shape[2]
    victim = -1
    vb = b
    cheapest = 1 << 30
    for pair in range(_buckets_holding(tt, b, stamp, double)):
        bb = b ^ pair
        hits = _matches(tt, bb, key, sc, _in_use(tt, bb, stamp))
        while hits:  # an entry holding for the position with this region is this one
            e = lowest_bit(hits)
            hits &= hits - ONE
            if tt[bb, E.REGION, e] == m:
                data = tt[bb, E.DATA, e]
                lb = np.int64((data >> np.uint64(8)) & np.uint64(255))
                ub = np.int64(data & np.uint64(255))
                if result == 1:
                    lb = max(lb, target)
                else:
                    ub = min(ub, target - 1)
                if best == 0:
                    best = np.int64((data >> np.uint64(16)) & np.uint64(255))
                weight = max(weight, _weight(data))
                tt[bb, E.DATA, e] = _data(weight, best, lb, ub, age)
                return
    for pair in range(_buckets_used(tt, double)):
        bb = b ^ pair
        n = _in_use(tt, bb, stamp)
        if n < ways:  # a free way: the bucket's next
            victim = n
            vb = bb
            tt[bb, E.FILL, 0] = np.uint64(n + 1)
            tt[bb, E.FILL, 1] = stamp
            break
        for e in range(ways):
            # any entry of this deal, of any shape sharing the bucket, may give way
            w_e = _weight(tt[bb, E.DATA, e])
            if tt[bb, E.DATA, e] >> AGE_SHIFT != age:
                w_e -= OLDER_PROBE
            if w_e < cheapest:
                victim = e
                vb = bb
                cheapest = w_e
    tt[vb, E.SHAPE, victim] = key[0]
    tt[vb, E.CTX, victim] = sc
    tt[vb, E.REGION, victim] = m
    tt[vb, E.OWNERS, victim] = o0
    tt[vb, E.OWNERS + 1, victim] = o1
    tt[vb, E.OWNERS + 2, victim] = o2
    if result == 1:
        tt[vb, E.DATA, victim] = _data(weight, best, target, UNKNOWN_UB, age)
    else:
        tt[vb, E.DATA, victim] = _data(weight, best, 0, target - 1, age)


@njit(**NRT_FREE)
def _weight(data):
    """The log2 nodes an entry's answer cost, from its DATA word."""
    return np.int64((data >> WEIGHT_SHIFT) & np.uint64(255))


@njit(**NRT_FREE)
def _data(weight, best, lb, ub, age):
    """An entry's DATA word: the probe that stored it (``age``), the log2 nodes it cost, the
    deciding lead + 1, and the lower and upper bounds."""
    return (age << AGE_SHIFT) | (np.uint64(weight) << WEIGHT_SHIFT) | \
        (np.uint64(best) << np.uint64(16)) | (np.uint64(lb) << np.uint64(8)) | np.uint64(ub)
