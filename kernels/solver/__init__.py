"""Double-dummy solver: with every hand known, how many tricks can the declaring side take?

Positions are in the trump-normalised layout (``kernels.layout``): four hand masks, the seats
that play (``active``, a 4-bit mask; 2, 3 or 4 seats), the declaring side (``decl``, a 4-bit
mask of seats), and the cards already on the table in the current trick.

The search is a zero-window alpha-beta ("can the declaring side take at least k more tricks?")
over single card plays, with
  - cut-offs at each trick start: already made, cannot make, and quick tricks (top trumps the
    leader can cash, then top side-suit cards once the opponents are out of trumps), the
    side's run of top trumps, and in the double deck the quick tricks through the partner's
    entry and the tricks one hand's trumps are sure of against the other side's higher
    trumps;
  - partition search: a transposition table at trick boundaries whose entries each hold a
    bound for a *set* of positions — those that agree on the hand shapes and on who holds the
    cards that decided the answer (``kernels.solver.partition_table``); every answer of ``_trick``
    comes with those cards in ``w[W.REL]``;
  - one move per run of equivalent cards (adjacent among the cards still out and on the table,
    held by the same hand);
  - move ordering: cheapest winning card first when the trick can be won, else the lowest card
    (the hand before last covers its partner's card when the last hand could beat it);
    on lead, the leads that cut off most this deal first (a history table, the deeper cut-offs
    weighing far more), then winners.
Exact counts come from a few zero-window probes (MTD-style), which share the table.

Working memory is one uint64 array ``w`` per thread (hands, counters, move lists) and one
``tt`` table per thread; nothing is allocated during a search.
"""

import numpy as np
from numba import get_thread_id, njit, prange

from ..bits import EVEN_BITS, ODD_BITS, ONE, highest_bit, lowest_bit, popcount
from ..config import JIT, NRT_FREE, PARALLEL_JIT
from ..layout import SLOT_MASKS, TRUMP_SLOT, beats, normalise_mask
from ..rules import next_active
from ..slots import MAX_TRICKS_DEEP, MEMO_ENTRIES, MEMO_WORDS, Q, W  # noqa: F401
from .partition_table import bucket_of, new_tables, pdep, pext, position_key, probe, store

TRUMP_MASK = SLOT_MASKS[TRUMP_SLOT]

TT_WAYS = 64  # entries of a bucket in a large (double-deck) table
SMALL_TT_WAYS = 4  # in a small (single-deck) one, where a deal visits few positions
HISTORY_WEIGHT = 32  # a lead's ordering score per doubling of its history: the history leads


@njit(**NRT_FREE)
def table_ways(tt_bits):
    """Entries a bucket of a table of ``2**tt_bits`` entries holds: many in a large
    (double-deck) table, few in a small one."""
    return TT_WAYS if tt_bits >= 16 else SMALL_TT_WAYS


@njit(**JIT)
def solver_arrays(nthreads, tt_bits):
    """``(works, tables)``: a work array and a table of ``2**tt_bits`` entries per thread."""
    works = np.zeros((nthreads, np.int64(W.LEN)), dtype=np.uint64)
    tables, bucket_mask = new_tables(nthreads, tt_bits, table_ways(tt_bits))
    for t in range(nthreads):
        works[t, W.TT_MASK] = bucket_mask
    return works, tables


@njit(**NRT_FREE)
def new_deal(w):
    """Start a new table generation in ``w``: entries and remembered answers of earlier deals
    are ignored from here on. Every entry holds for any deal (it is keyed by the position
    itself), so this is only to make node counts depend on the deal alone, whatever a thread
    solved before it; the solves of one deal share their entries."""
    w[W.STAMP] += ONE
    next_deal_same_table(w)


@njit(**NRT_FREE)
def next_deal_same_table(w):
    """Start a new deal in ``w`` that keeps the table's entries (the remembered answers and
    the history of cut-offs are the deal's own): for runs of deals that share many positions,
    such as consecutive layouts of exact mode, in a fixed order so node counts stay
    reproducible (``kernels.query.run_chunk``)."""
    for e in range(MEMO_ENTRIES):
        w[W.MEMO + e * MEMO_WORDS + 4] = 0
    w[W.HISTORY:W.HISTORY + 4 * 64] = 0


@njit(**NRT_FREE)
def set_position(w, hands, active, decl, double):
    """Load a position into ``w``: normalised ``hands`` (4 masks), the 4-bit masks of playing
    seats and of the declaring side, and the double-deck flag; zeroes the node count. The
    table keeps its entries (see ``new_deal``)."""
    for s in range(4):
        w[W.HANDS + s] = hands[s] if (active >> s) & 1 else np.uint64(0)
    w[W.ACTIVE] = active
    w[W.DECL] = decl & active
    w[W.DOUBLE] = double
    n = 0
    for s in range(4):
        n += (active >> s) & 1
    w[W.NACTIVE] = n
    w[W.NODES] = 0


@njit(**NRT_FREE)
def _run_above(mine, others):
    """The cards of ``mine`` above every card of ``others``: the unbroken run from the top
    that ``mine`` holds."""
    if not others:
        return mine
    bit = ONE << np.uint64(highest_bit(others))
    return mine & ~(bit | (bit - ONE))


@njit(**NRT_FREE)
def quick_tricks(w, leader):
    """``(tricks, cards)``: the tricks the side of ``leader`` is sure to take by leading now,
    and the cards that count them: the run of top trumps the leader holds, then, if no
    opponent can have a trump left after those leads, the runs of top cards of each side suit
    in the leader's hand."""
    own = w[W.HANDS + leader]
    active = np.int64(w[W.ACTIVE])
    decl = np.int64(w[W.DECL])
    mine = decl if (decl >> leader) & 1 else active & ~decl
    allc = w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3]
    counted = _run_above(own & TRUMP_MASK, allc & ~own & TRUMP_MASK)
    q = popcount(counted)
    most = 0
    for s in range(4):
        if (active >> s) & 1 and not (mine >> s) & 1:
            c = popcount(w[W.HANDS + s] & TRUMP_MASK)
            if c > most:
                most = c
    if most <= q:
        for slot in range(3):
            side = _run_above(own & SLOT_MASKS[slot], allc & ~own & SLOT_MASKS[slot])
            q += popcount(side)
            counted |= side
    n = popcount(own)
    return (q if q < n else n), counted


@njit(inline="always", **NRT_FREE)
def _ruffable_suits(hand):
    """The side suits ``hand`` can ruff (a 4-bit mask of slots): those it holds none of,
    when it holds a trump."""
    suits = 0
    if hand & TRUMP_MASK:
        for q in range(4):
            if q != TRUMP_SLOT and not (hand & SLOT_MASKS[q]):
                suits |= 1 << q
    return suits


@njit(**NRT_FREE)
def entry_tricks(w, leader):
    """``(tricks, cards)``: the tricks the side of ``leader`` is sure of by leading a card of a
    suit whose highest card still out its partner holds, to that card (the partner then leads):
    one, and the partner's quick tricks after it (0 when no such suit). The entry must win:
    the partner's card is the highest (double deck: the opponent playing before the partner
    does not hold its twin), and in a side suit each opponent follows or has no trump."""
    p = leader ^ 2
    active = np.int64(w[W.ACTIVE])
    decl = np.int64(w[W.DECL])
    if not (active >> p) & 1 or ((decl >> p) & 1) != ((decl >> leader) & 1):
        return 0, np.uint64(0)
    own = w[W.HANDS + leader]
    pard = w[W.HANDS + p]
    left = (leader + 1) & 3  # plays second, before the partner
    right = (leader + 3) & 3
    lho = w[W.HANDS + left] if (active >> left) & 1 else np.uint64(0)
    rho = w[W.HANDS + right] if (active >> right) & 1 else np.uint64(0)
    allc = own | pard | lho | rho
    double = w[W.DOUBLE] != 0
    ruffed = _ruffable_suits(lho) | _ruffable_suits(rho)
    best = 0
    best_cards = np.uint64(0)
    for slot in range(4):
        mask = SLOT_MASKS[slot]
        if not (pard & mask) or not (own & mask):
            continue
        hi = np.uint64(highest_bit(allc & mask))
        top = ONE << hi
        if not (pard & top):
            continue
        twin = ONE << (hi ^ ONE)
        if double and (lho & twin):
            continue
        low_own = own & mask & ~(top | twin)
        if not low_own:
            continue
        if (ruffed >> slot) & 1:
            continue
        lead = ONE << np.uint64(lowest_bit(low_own))
        w[W.HANDS + p] = pard ^ top
        w[W.HANDS + leader] = own ^ lead
        q, counted = quick_tricks(w, p)
        w[W.HANDS + p] = pard
        w[W.HANDS + leader] = own
        if q + 1 > best:
            best = q + 1
            best_cards = counted | top | twin
    return best, best_cards


@njit(**NRT_FREE)
def top_trump_run(w):
    """``(owner << 8 | k, cards)``: a seat of the side holding the highest trump still out,
    and k, the tricks that side is sure of from its run of top trumps (the trumps above any
    the other side holds): each wins the trick it is played to, and one hand plays one card a
    trick, so the side takes at least as many tricks as one of its hands holds of the run;
    ``cards`` the run. 0 when no trump is left. Double deck: a trump whose twin the other side
    holds may lose to that twin played first, so the run stops there."""
    h0 = w[W.HANDS]
    h1 = w[W.HANDS + 1]
    h2 = w[W.HANDS + 2]
    h3 = w[W.HANDS + 3]
    t = (h0 | h1 | h2 | h3) & TRUMP_MASK
    if t == 0:
        return 0, np.uint64(0)
    active = np.int64(w[W.ACTIVE])
    decl = np.int64(w[W.DECL])
    top = ONE << np.uint64(highest_bit(t))
    owner = 0 if h0 & top else (1 if h1 & top else (2 if h2 & top else 3))
    side = decl if (decl >> owner) & 1 else active & ~decl
    # every hand of the side, or nothing (a mask of all ones or zeros per seat)
    m0 = np.uint64(0) - np.uint64(side & 1)
    m1 = np.uint64(0) - np.uint64((side >> 1) & 1)
    m2 = np.uint64(0) - np.uint64((side >> 2) & 1)
    m3 = np.uint64(0) - np.uint64((side >> 3) & 1)
    ours = ((h0 & m0) | (h1 & m1) | (h2 & m2) | (h3 & m3)) & TRUMP_MASK
    theirs = t & ~ours
    if w[W.DOUBLE] != 0 and theirs:
        theirs |= ONE << np.uint64(highest_bit(theirs) | 1)  # the twin of their top trump
    run = _run_above(ours, theirs)
    k = max(max(popcount(h0 & m0 & run), popcount(h1 & m1 & run)),
            max(popcount(h2 & m2 & run), popcount(h3 & m3 & run)))
    return (owner << 8) | k, run


@njit(**NRT_FREE)
def trump_length_cut(w, target, rem):
    """1 if a declarer's trumps alone make ``target`` of the ``rem`` tricks sure, 0 if a
    defender's make that impossible, else -1 (``w[W.REL]`` the trumps that decided it). A
    seat's trumps each win the trick they are played to unless the other side plays a higher
    trump to that trick (at most one per trick), so the seat's side is sure of its trumps less
    the most of them the other side's trumps can beat, matched from the top (in the double
    deck a twin played first beats its twin). Seats with too few trumps to decide are not
    counted."""
    active = np.int64(w[W.ACTIVE])
    decl = np.int64(w[W.DECL])
    double = np.int64(w[W.DOUBLE])
    ours = np.uint64(0)
    theirs = np.uint64(0)
    for s in range(4):
        if (decl >> s) & 1:
            ours |= w[W.HANDS + s]
        else:
            theirs |= w[W.HANDS + s]
    ours &= TRUMP_MASK
    theirs &= TRUMP_MASK
    for s in range(4):
        mine = w[W.HANDS + s] & TRUMP_MASK
        declarer = (decl >> s) & 1
        need = target if declarer else rem - target + 1
        t = popcount(mine)
        if not (active >> s) & 1 or t < need:
            continue
        a = theirs if declarer else ours
        x = mine
        beaten = 0
        while a and x:
            ta = highest_bit(a)
            tx = highest_bit(x)
            if ta > tx or (double != 0 and (ta >> 1) == (tx >> 1)):
                beaten += 1
                a ^= ONE << np.uint64(ta)
            x ^= ONE << np.uint64(tx)
        if t - beaten >= need:
            w[W.REL] = mine
            return np.int64(1 if declarer else 0)
    return np.int64(-1)


@njit(**NRT_FREE)
def _by_rank(win_card, c0, c1, c2, c3, n):
    """The winning card's bit if another of the ``n`` cards of the trick is of its suit (it
    won by rank, so its rank decided the trick), else 0."""
    slot = win_card >> 4
    same = ((c0 >> 4) == slot) + ((c1 >> 4) == slot)
    if n > 2:
        same += (c2 >> 4) == slot
    if n > 3:
        same += (c3 >> 4) == slot
    return ONE << np.uint64(win_card) if same > 1 else np.uint64(0)


@njit(**NRT_FREE)
def _last_trick(w, leader):
    """1 if the declaring side wins the last trick (one card each, all forced), else 0;
    ``w[W.REL]`` gets the cards that decided it."""
    active = np.int64(w[W.ACTIVE])
    double = np.int64(w[W.DOUBLE])
    best = np.int64(lowest_bit(w[W.HANDS + leader]))
    best_seat = leader
    suits = np.uint64(0)  # the suits played so far, and those played twice
    twice = np.uint64(0)
    s = leader
    while True:
        b = np.int64(lowest_bit(w[W.HANDS + s]))
        bit = ONE << np.uint64(b >> 4)
        twice |= suits & bit
        suits |= bit
        if s != leader and beats(b, best, double):
            best = b
            best_seat = s
        s = next_active(s, active)
        if s == leader:
            break
    w[W.REL] = ONE << np.uint64(best) if (twice >> np.uint64(best >> 4)) & ONE else np.uint64(0)
    return (np.int64(w[W.DECL]) >> best_seat) & 1


@njit(**NRT_FREE)
def _legal(hand, led):
    follow = hand & SLOT_MASKS[led]
    return follow if follow else hand


@njit(**NRT_FREE)
def _endgame_won(w, winner, target):
    """1 if the declaring side, ``winner`` having taken the next-to-last trick, ends with
    ``target`` of the last two tricks (the last one is forced); ``w[W.REL]`` gets the cards
    of the last trick that decided it."""
    need = target - ((np.int64(w[W.DECL]) >> winner) & 1)
    if need <= 0 or need > 1:
        w[W.REL] = 0
        return 1 if need <= 0 else 0
    return _last_trick(w, winner)


@njit(**NRT_FREE)
def _endgame(w, leader, target):
    """1 if the declaring side takes ``target`` of the last two tricks, ``leader`` to lead:
    the plays of the next-to-last trick as nested loops over at most two cards a hand,
    without move lists or table (loops, not recursion: numba's cache cannot reload a
    recursive function it has type-inferred). ``w[W.REL]`` gets the deciding cards."""
    decl = np.int64(w[W.DECL])
    double = np.int64(w[W.DOUBLE])
    active = np.int64(w[W.ACTIVE])
    nact = np.int64(w[W.NACTIVE])
    p0 = leader
    p1 = next_active(p0, active)
    p2 = next_active(p1, active)
    p3 = next_active(p2, active)
    s0 = (decl >> p0) & 1
    s1 = (decl >> p1) & 1
    s2 = (decl >> p2) & 1
    s3 = (decl >> p3) & 1
    h0 = w[W.HANDS + p0]
    h1 = w[W.HANDS + p1]
    h2 = w[W.HANDS + p2]
    h3 = w[W.HANDS + p3]
    nodes = 0
    result = 1 - s0
    rel0 = np.uint64(0)
    m0 = h0
    while m0:
        c0 = lowest_bit(m0)
        m0 &= m0 - ONE
        w[W.HANDS + p0] = h0 ^ (ONE << np.uint64(c0))
        led = c0 >> 4
        r1 = 1 - s1
        rel1 = np.uint64(0)
        m1 = _legal(h1, led)
        while m1:
            c1 = lowest_bit(m1)
            m1 &= m1 - ONE
            w[W.HANDS + p1] = h1 ^ (ONE << np.uint64(c1))
            nodes += 1
            wc1, ws1 = (c1, p1) if beats(c1, c0, double) else (c0, p0)
            if nact == 2:
                r = _endgame_won(w, ws1, target)
                rel = w[W.REL] | _by_rank(wc1, c0, c1, c1, c1, 2)
            else:
                r2 = 1 - s2
                rel2 = np.uint64(0)
                m2 = _legal(h2, led)
                while m2:
                    c2 = lowest_bit(m2)
                    m2 &= m2 - ONE
                    w[W.HANDS + p2] = h2 ^ (ONE << np.uint64(c2))
                    nodes += 1
                    wc2, ws2 = (c2, p2) if beats(c2, wc1, double) else (wc1, ws1)
                    if nact == 3:
                        r = _endgame_won(w, ws2, target)
                        rel = w[W.REL] | _by_rank(wc2, c0, c1, c2, c2, 3)
                    else:
                        r3 = 1 - s3
                        rel3 = np.uint64(0)
                        m3 = _legal(h3, led)
                        while m3:
                            c3 = lowest_bit(m3)
                            m3 &= m3 - ONE
                            w[W.HANDS + p3] = h3 ^ (ONE << np.uint64(c3))
                            nodes += 1
                            wc3, ws3 = (c3, p3) if beats(c3, wc2, double) else (wc2, ws2)
                            r = _endgame_won(w, ws3, target)
                            rel = w[W.REL] | _by_rank(wc3, c0, c1, c2, c3, 4)
                            if r == s3:
                                r3 = r
                                rel3 = rel
                                break
                            rel3 |= rel
                        w[W.HANDS + p3] = h3
                        r = r3
                        rel = rel3
                    if r == s2:
                        r2 = r
                        rel2 = rel
                        break
                    rel2 |= rel
                w[W.HANDS + p2] = h2
                r = r2
                rel = rel2
            if r == s1:
                r1 = r
                rel1 = rel
                break
            rel1 |= rel
        w[W.HANDS + p1] = h1
        nodes += 1
        if r1 == s0:
            result = r1
            rel0 = rel1
            break
        rel0 |= rel1
    w[W.HANDS + p0] = h0
    w[W.NODES] += np.uint64(nodes)
    w[W.REL] = rel0
    return result


@njit(inline="always", **NRT_FREE)
def _best_reply(w, seat, led):
    """The strongest card the next hand after ``seat`` can play to a trick led in ``led``:
    its highest of that suit or, void in it, its highest trump; -1 when it has neither."""
    hand = w[W.HANDS + next_active(seat, np.int64(w[W.ACTIVE]))]
    reach = hand & SLOT_MASKS[led]
    if not reach:
        reach = hand & TRUMP_MASK
    return np.int64(highest_bit(reach)) if reach else np.int64(-1)


@njit(**NRT_FREE)
def _order_leads(w, base, n, seat):
    """Sort the ``n`` candidate leads of ``seat`` at ``w[base:]`` best first: each becomes
    ``score << 8 | card`` and the list is insertion-sorted on that, so no scratch is needed.
    The leads with the most history first (``w[W.HISTORY]``, see ``_trick``), then top cards
    of a suit, then low cards to the partner's top card, then low cards; trumps first for the
    declarers, last for the defenders; a side suit an opponent can ruff later, one the
    partner can ruff (and no opponent) earlier."""
    decl = np.int64(w[W.DECL])
    double = np.int64(w[W.DOUBLE])
    side = (decl >> seat) & 1
    allc = w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3]
    ours = np.uint64(0)
    # the side suits an opponent can ruff (void, holding a trump); in the double deck only the
    # next hand counts (every opponent: single deck -3% nodes, but one hard double-deck deal
    # took twice the nodes)
    ruffed = 0
    partner_ruffs = 0
    lho = next_active(seat, np.int64(w[W.ACTIVE]))
    for s in range(4):
        h = w[W.HANDS + s]
        if ((decl >> s) & 1) == side:
            ours |= h
            if s != seat:
                partner_ruffs |= _ruffable_suits(h)
        elif double == 0 or s == lho:
            ruffed |= _ruffable_suits(h)
    for i in range(n):
        b = np.int64(w[base + i])
        power = b & 15
        hi = highest_bit(allc & SLOT_MASKS[b >> 4])
        if hi == b or (double != 0 and (hi ^ 1) == b):  # double deck: the top class
            sc = 100 + power
        elif (ours >> np.uint64(hi)) & ONE:
            sc = 60 - power  # low, to the partner's top card of the suit
        else:
            sc = -power
        if b >> 4 == TRUMP_SLOT:
            sc += 20 if side == 1 else -20
        elif (ruffed >> (b >> 4)) & 1:
            sc -= 30  # an opponent can ruff it
        elif (partner_ruffs >> (b >> 4)) & 1:
            # the partner can ruff it: before the top cards (double deck: after them; before
            # them one hard deal of the 50 seeded took 2.8 s, not 1.0)
            sc += 150 if double == 0 else 30
        history = w[W.HISTORY + 64 * seat + b]
        if history:
            sc += HISTORY_WEIGHT * (highest_bit(history) + 1)
        w[base + i] = (np.uint64(sc + 1024) << np.uint64(8)) | np.uint64(b)
    for i in range(1, n):
        key = w[base + i]
        j = i - 1
        while j >= 0 and w[base + j] < key:
            w[base + j + 1] = w[base + j]
            j -= 1
        w[base + j + 1] = key


@njit(**NRT_FREE)
def _representatives(w, hand, legal, table, double):
    """One representative (the lowest) of each run of equivalent legal cards, as a mask.
    Cards are equivalent when no card of another hand or on the table lies between them (for
    the double deck: no such card of equal or in-between power).

    Without a loop: over the cards still out (and on the table) packed in order, a legal card
    is not a representative when the card just below it, in its suit, is also a legal card
    that no other hand shares a class with."""
    others = (w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3] | table) & ~hand
    if double:
        others |= ((others & EVEN_BITS) << ONE) | ((others & ODD_BITS) >> ONE)
    out = legal | others
    plain = pext(legal & ~others, out)
    starts = np.uint64(0)  # the lowest card of each suit
    for q in range(4):
        suit = out & SLOT_MASKS[q]
        starts |= suit & (~suit + ONE)
    merged = plain & (plain << ONE) & ~pext(starts, out)
    return legal & ~pdep(merged, out)


@njit(inline="always", **NRT_FREE)
def _with_run(w, rel, hand, card, table, double):
    """``rel``, the cards that decided a line in which ``hand`` played ``card``, and when it
    holds a card of ``card``'s run of equivalent cards, the whole run: the search tried one
    card of the run for all of them, and that holds for another position of the entry's
    partition only where its cards are still equivalent there (a card of the run in the
    region, the one tried below it, could otherwise be a move the search never tried: one
    benchmark deal came out wrong without it once the endgames were cut differently).
    ``table``: the card winning the trick so far, as when the moves were generated."""
    suit = SLOT_MASKS[card >> 4]
    if not (rel & hand & suit):
        return rel
    others = (w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3] | table) & ~hand
    if double:
        others |= ((others & EVEN_BITS) << ONE) | ((others & ODD_BITS) >> ONE)
    blockers = others & suit
    low = ONE << np.uint64(card)
    if blockers & low:
        return rel  # a run of one card
    above = blockers & ~(low | (low - ONE))
    below_limit = ((above & (~above + ONE)) - ONE) if above else ~np.uint64(0)
    run = hand & suit & ~(low - ONE) & below_limit
    # the card tried is the run's lowest: deciding, it puts the whole run in the region
    return rel | low if rel & run else rel


@njit(inline="always", **NRT_FREE)
def _beating(card, double):
    """The cards that beat normalised ``card`` when it is winning a trick (it is of the led
    suit or trump): the higher classes of its suit, and every trump if it is not one."""
    k = np.uint64(card | double)  # its top copy
    above = ~(((ONE << k) - ONE) | (ONE << k))
    if card >> 4 == TRUMP_SLOT:
        return TRUMP_MASK & above
    return (SLOT_MASKS[card >> 4] & above) | TRUMP_MASK


@njit(inline="always", **NRT_FREE)
def _beaten_by(card, double):
    """The cards of the led suit or trump that normalised ``card`` beats: the lower classes
    of its suit, and if it is a trump every card but a higher trump."""
    below = (ONE << np.uint64(card & ~double)) - ONE
    if card >> 4 == TRUMP_SLOT:
        return ~TRUMP_MASK | (TRUMP_MASK & below)
    return SLOT_MASKS[card >> 4] & below


@njit(inline="always", **NRT_FREE)
def _emit(w, at, n, cards):
    """Write the cards of mask ``cards`` at ``w[at + n:]``, lowest first; the new count."""
    while cards:
        w[at + n] = np.uint64(lowest_bit(cards))
        cards &= cards - ONE
        n += 1
    return n


@njit(inline="always", **NRT_FREE)
def _emit_discards(w, at, n, cards):
    """Write the side-suit cards of mask ``cards`` at ``w[at + n:]`` lowest power first, the
    higher suit first between equal powers; the new count."""
    if popcount(cards) < 2 or cards == cards & SLOT_MASKS[lowest_bit(cards) >> 4]:
        return _emit(w, at, n, cards)
    keys = np.uint64(0)  # bit power * 4 + (3 - suit): the order wanted is the bits' order
    while cards:
        b = lowest_bit(cards)
        cards &= cards - ONE
        keys |= ONE << np.uint64((b & 15) * 4 + 3 - (b >> 4))
    while keys:
        k = lowest_bit(keys)
        keys &= keys - ONE
        w[at + n] = np.uint64((3 - (k & 3)) * 16 + (k >> 2))
        n += 1
    return n


@njit(**NRT_FREE)
def _follow_moves(w, base, hand, led, table, win_card, win_seat, pos, seat, double):
    """Candidate cards (one per run of equivalent cards, best first) of ``seat`` playing card
    ``pos`` of a trick led in ``led``; written at ``w[base:]``, returns how many. ``table``
    need only hold the card winning the trick so far: the other cards on the table cannot
    tell two of this hand's cards apart (whatever is played, they do not win this trick,
    and after it they are gone).

    The order, from masks: when an opponent is winning, the cards that beat it, cheapest
    first (the second hand of four: first those the next hand cannot beat); the hand before
    last, when its partner's card is winning but the last hand can beat it, first the
    cheapest card that wins out of the last hand's reach; then the rest lowest first (the
    side suits by power, the higher suit first between equals), trumps last."""
    legal = hand
    follow = hand & SLOT_MASKS[led]
    if follow:
        legal = follow
        if follow & (follow - ONE) == 0:  # a single card of the suit: forced
            w[base] = np.uint64(lowest_bit(follow))
            return 1
    reps = _representatives(w, hand, legal, table, double)
    if reps & (reps - ONE) == 0:
        w[base] = np.uint64(lowest_bit(reps))
        return 1
    decl = np.int64(w[W.DECL])
    side = (decl >> seat) & 1
    first = np.uint64(0)
    second = np.uint64(0)
    winners = reps & _beating(win_card, double)
    if ((decl >> win_seat) & 1) == side:
        # the hand before last, its partner winning: if the last hand can beat the partner's
        # card, a card that wins the trick out of the last hand's reach comes first
        if pos == np.int64(w[W.NACTIVE]) - 2:
            reply = _best_reply(w, seat, led)
            if reply >= 0 and beats(reply, win_card, double):
                first = winners & ~_beaten_by(reply, double)
    else:
        first = winners
        # a hand with an opponent still to play after it and another hand after that (second
        # hand of four): the winners that opponent can beat only draw out its card
        if pos < np.int64(w[W.NACTIVE]) - 2:
            beyond = _best_reply(w, seat, led)
            if beyond >= 0:
                second = winners & _beaten_by(beyond, double)
                first = winners & ~second
    rest = reps & ~(first | second)
    n = _emit(w, base, 0, first)
    n = _emit(w, base, n, second)
    n = _emit_discards(w, base, n, rest & ~TRUMP_MASK)
    return _emit(w, base, n, rest & TRUMP_MASK)


@njit(**NRT_FREE)
def _card(w, i):
    return np.int64(w[i] & np.uint64(255))


@njit(inline="always", **NRT_FREE)
def _sure_cut(w, declarers, q, counted, target, rem):
    """1 or 0 when the ``q`` tricks a side is sure of (``declarers``: 1 for the declaring
    side) settle ``target`` of ``rem`` (``w[W.REL]`` gets ``counted``, the cards that
    counted them), else -1."""
    if declarers == 1:
        if q >= target:
            w[W.REL] = counted
            return np.int64(1)
    elif rem - q < target:
        w[W.REL] = counted
        return np.int64(0)
    return np.int64(-1)


@njit(inline="always", **NRT_FREE)
def _cutoff(w, leader, target, rem):
    """The answer at a trick start when a bound settles it (1 or 0, ``w[W.REL]`` the cards
    that decided it), else -1: the tricks already made or out of reach, the quick tricks of
    the side to lead, (double deck) those through the partner's entry, the run of top trumps
    one player holds, and (double deck) the tricks one player's trumps are sure of."""
    decl = np.int64(w[W.DECL])
    w[W.REL] = 0
    if target <= 0:
        return np.int64(1)
    if target > rem:
        return np.int64(0)
    if rem == 1:
        return _last_trick(w, leader)
    s0 = (decl >> leader) & 1
    q, counted = quick_tricks(w, leader)
    cut = _sure_cut(w, s0, q, counted, target, rem)
    if cut >= 0:
        return cut
    if w[W.DOUBLE] != 0:  # in the single deck it cost more than it saved
        q, counted = entry_tricks(w, leader)
        cut = _sure_cut(w, s0, q, counted, target, rem)
        if cut >= 0:
            return cut
    run, counted = top_trump_run(w)
    if run > 0:
        cut = _sure_cut(w, (decl >> np.int64(run >> 8)) & 1, np.int64(run & 255), counted,
                        target, rem)
        if cut >= 0:
            return cut
    if w[W.DOUBLE] != 0:  # in the single deck it cost more than it saved
        return trump_length_cut(w, target, rem)
    return np.int64(-1)


@njit(inline="always", **NRT_FREE)
def _lead_moves(w, base, leader, best):
    """The leader's candidate cards at ``w[base:]``, best first (``best``: a lead that decided
    this position before, card + 1, goes first); returns how many."""
    h0 = w[W.HANDS + leader]
    n0 = _emit(w, base, 0, _representatives(w, h0, h0, np.uint64(0), np.int64(w[W.DOUBLE])))
    if n0 > 1:
        _order_leads(w, base, n0, leader)
        if best > 0:
            for j in range(n0):
                if _card(w, base + j) == best - 1:
                    first = w[base + j]
                    for k in range(j, 0, -1):
                        w[base + k] = w[base + k - 1]
                    w[base] = first
                    break
    return n0


@njit(inline="always", **NRT_FREE)
def _trick(w, tt, leader, target, depth):
    """1 if the declaring side can take at least ``target`` more tricks from this trick start
    (``leader`` to lead), else 0; ``w[W.REL]`` gets the cards that decided the answer (see
    ``kernels.solver.partition_table``): the bounds first, then the last two tricks by
    ``_endgame``, else the search (``_search``)."""
    rem = popcount(w[W.HANDS + leader])
    cut = _cutoff(w, leader, target, rem)
    if cut >= 0:
        return cut
    if rem == 2:
        return _endgame(w, leader, target)
    return _search(w, tt, leader, target, depth, rem)


@njit(**NRT_FREE)
def _search(w, tt, leader, target, depth, rem):
    """``_trick`` at a trick start that no bound settles, ``rem`` (at least 3) tricks to go:
    the table, else the plays of the trick as nested loops over locals; only the next trick
    is a (recursive) call, so the recursion is at most 12 deep. Kept apart from the bounds,
    which settle most trick starts: this function's frame is large. Move lists of this
    trick live at ``w[W.MOVES + 64 * depth + 16 * pos]``."""
    decl = np.int64(w[W.DECL])
    active = np.int64(w[W.ACTIVE])
    double = np.int64(w[W.DOUBLE])
    nact = np.int64(w[W.NACTIVE])
    key = position_key(w[W.HANDS:W.HANDS + 4], leader, active, decl, double)
    row = bucket_of(key, w[W.TT_MASK])
    known, region, best = probe(tt, row, key, w[W.STAMP], target, double)
    if known >= 0:
        w[W.REL] = region
        return known
    nodes_before = w[W.NODES]
    p0 = leader
    p1 = next_active(p0, active)
    p2 = next_active(p1, active)
    p3 = next_active(p2, active)
    s0 = (decl >> p0) & 1
    s1 = (decl >> p1) & 1
    s2 = (decl >> p2) & 1
    s3 = (decl >> p3) & 1
    h0 = w[W.HANDS + leader]
    base = W.MOVES + 64 * depth
    n0 = _lead_moves(w, base, leader, best)
    result = 1 - s0
    rel0 = np.uint64(0)
    best = 0
    nodes = 0
    for i0 in range(n0):
        c0 = _card(w, base + i0)
        b0 = ONE << np.uint64(c0)
        w[W.HANDS + p0] = h0 ^ b0
        nodes += 1
        led = c0 >> 4
        h1 = w[W.HANDS + p1]
        n1 = _follow_moves(w, base + 16, h1, led, b0, c0, p0, 1, p1, double)
        r1 = 1 - s1
        rel1 = np.uint64(0)
        for i1 in range(n1):
            c1 = _card(w, base + 16 + i1)
            w[W.HANDS + p1] = h1 ^ (ONE << np.uint64(c1))
            nodes += 1
            if beats(c1, c0, double):
                wc1 = c1
                ws1 = p1
            else:
                wc1 = c0
                ws1 = p0
            if nact == 2:
                r = _trick(w, tt, ws1, target - ((decl >> ws1) & 1), depth + 1)
                rel = w[W.REL] | _by_rank(wc1, c0, c1, c1, c1, 2)
            else:
                h2 = w[W.HANDS + p2]
                n2 = _follow_moves(w, base + 32, h2, led, ONE << np.uint64(wc1), wc1, ws1, 2, p2,
                                   double)
                r2 = 1 - s2
                rel2 = np.uint64(0)
                for i2 in range(n2):
                    c2 = _card(w, base + 32 + i2)
                    w[W.HANDS + p2] = h2 ^ (ONE << np.uint64(c2))
                    nodes += 1
                    if beats(c2, wc1, double):
                        wc2 = c2
                        ws2 = p2
                    else:
                        wc2 = wc1
                        ws2 = ws1
                    if nact == 3:
                        r = _trick(w, tt, ws2, target - ((decl >> ws2) & 1), depth + 1)
                        rel = w[W.REL] | _by_rank(wc2, c0, c1, c2, c2, 3)
                    else:
                        h3 = w[W.HANDS + p3]
                        n3 = _follow_moves(w, base + 48, h3, led, ONE << np.uint64(wc2), wc2, ws2,
                                           3, p3, double)
                        r3 = 1 - s3
                        rel3 = np.uint64(0)
                        for i3 in range(n3):
                            c3 = _card(w, base + 48 + i3)
                            w[W.HANDS + p3] = h3 ^ (ONE << np.uint64(c3))
                            nodes += 1
                            if beats(c3, wc2, double):
                                wc3 = c3
                                ws3 = p3
                            else:
                                wc3 = wc2
                                ws3 = ws2
                            r = _trick(w, tt, ws3, target - ((decl >> ws3) & 1), depth + 1)
                            rel = w[W.REL] | _by_rank(wc3, c0, c1, c2, c3, 4)
                            if r == s3:
                                r3 = r
                                rel3 = rel
                                break
                            rel3 |= _with_run(w, rel, h3, c3, ONE << np.uint64(wc2), double)
                        w[W.HANDS + p3] = h3
                        r = r3
                        rel = rel3
                    if r == s2:
                        r2 = r
                        rel2 = rel
                        break
                    rel2 |= _with_run(w, rel, h2, c2, ONE << np.uint64(wc1), double)
                w[W.HANDS + p2] = h2
                r = r2
                rel = rel2
            if r == s1:
                r1 = r
                rel1 = rel
                break
            rel1 |= _with_run(w, rel, h1, c1, b0, double)
        w[W.HANDS + p1] = h1
        if r1 == s0:
            result = r1
            rel0 = rel1
            best = c0 + 1
            # the history of this lead: a cut-off with rem tricks left weighs 8**rem, so
            # the leads that decided large subtrees this deal are tried first everywhere
            w[W.HISTORY + 64 * p0 + c0] += ONE << np.uint64(3 * rem)
            break
        rel0 |= _with_run(w, rel1, h0, c0, np.uint64(0), double)
    w[W.HANDS + p0] = h0
    w[W.NODES] += np.uint64(nodes)
    weight = highest_bit(w[W.NODES] - nodes_before) + 1
    store(tt, row, key, w[W.STAMP], (result, target), rel0, best, weight, double,
          w[W.PROBES])
    w[W.REL] = rel0
    return result


@njit(**NRT_FREE)
def _partial(w, tt, pos, seat, led, win_card, win_seat, table, target):
    """Like ``_trick`` from the middle of a trick: ``seat`` plays card ``pos`` of a trick led
    in ``led``, ``win_card``/``win_seat`` winning so far, ``table`` its cards. Recursive over
    the (at most three) remaining plays of this trick, then ``_trick``."""
    decl = np.int64(w[W.DECL])
    double = np.int64(w[W.DOUBLE])
    side = (decl >> seat) & 1
    h = w[W.HANDS + seat]
    base = W.MOVES + 16 * pos
    n = _follow_moves(w, base, h, led, ONE << np.uint64(win_card), win_card, win_seat, pos, seat,
                      double)
    last = pos == np.int64(w[W.NACTIVE]) - 1
    result = 1 - side
    for i in range(n):
        c = _card(w, base + i)
        b = ONE << np.uint64(c)
        w[W.HANDS + seat] = h ^ b
        w[W.NODES] += ONE
        if beats(c, win_card, double):
            wc = c
            ws = seat
        else:
            wc = win_card
            ws = win_seat
        if last:
            r = _trick(w, tt, ws, target - ((decl >> ws) & 1), np.int64(1))
        else:
            r = _partial(w, tt, pos + 1, next_active(seat, np.int64(w[W.ACTIVE])), led, wc, ws,
                         table | b, target)
        if r == side:
            result = r
            break
    w[W.HANDS + seat] = h
    return result


@njit(**NRT_FREE)
def at_least(w, tt, leader, table_cards, table_seats, n_table, target):
    """Can the declaring side take at least ``target`` more tricks (counting the current one)
    from the position in ``w``, where ``leader`` led the trick on the table (``n_table`` cards
    in ``table_cards`` played by ``table_seats``; 0 at a trick boundary)?"""
    w[W.NODES] += ONE
    if n_table == 0:
        return _trick(w, tt, np.int64(leader), np.int64(target), np.int64(0)) == 1
    double = np.int64(w[W.DOUBLE])
    led = np.int64(table_cards[0] >> 4)
    wc = np.int64(table_cards[0])
    ws = np.int64(table_seats[0])
    table = ONE << np.uint64(table_cards[0])
    for i in range(1, n_table):
        if beats(table_cards[i], wc, double):
            wc = np.int64(table_cards[i])
            ws = np.int64(table_seats[i])
        table |= ONE << np.uint64(table_cards[i])
    seat = next_active(table_seats[n_table - 1], np.int64(w[W.ACTIVE]))
    return _partial(w, tt, np.int64(n_table), np.int64(seat), led, wc, ws, table,
                    np.int64(target)) == 1


@njit(**NRT_FREE)
def tricks_left(w, leader, n_table):
    """Tricks still to be completed, counting a trick in progress."""
    if n_table == 0:
        return popcount(w[W.HANDS + leader])
    return popcount(w[W.HANDS + leader]) + 1


@njit(**NRT_FREE)
def exact(w, tt, leader, table_cards, table_seats, n_table, guess):
    """The number of tricks still to come that the declaring side takes with best play by
    everyone, found by zero-window probes starting from ``guess``."""
    lo = 0
    hi = tricks_left(w, leader, n_table)
    g = min(max(guess, lo + 1), hi)
    while lo < hi:
        w[W.PROBES] += ONE
        if at_least(w, tt, leader, table_cards, table_seats, n_table, g):
            lo = g
            g = g + 1
        else:
            hi = g - 1
            g = g - 1
        g = min(max(g, lo + 1), hi)
    return lo


@njit(**JIT)
def solve_exact(w, tt, hands, active, decl, leader, double):
    """The declaring side's tricks from the first lead, everyone playing double dummy:
    normalised ``hands`` (4 masks), the masks of playing seats and of the declaring side.
    The last MEMO_ENTRIES answers are remembered, since the options of one decision often
    end in the same contract on the same cards (``w[W.NODES]`` is 0 on a remembered one)."""
    key = ONE << np.uint64(20) | np.uint64(active | (decl << 4) | (leader << 8) |
                                         (double << 12))
    for e in range(MEMO_ENTRIES):
        at = W.MEMO + e * MEMO_WORDS
        if w[at + 4] == key and w[at] == hands[0] and w[at + 1] == hands[1] and \
                w[at + 2] == hands[2] and w[at + 3] == hands[3]:
            w[W.NODES] = 0
            return np.int64(w[at + 5])
    set_position(w, hands, active, decl, double)
    empty = np.zeros(4, dtype=np.int64)
    tricks = exact(w, tt, leader, empty, empty, 0, guess_tricks(w, leader))
    at = W.MEMO + np.int64(w[W.MEMO_NEXT]) * MEMO_WORDS
    for s in range(4):
        w[at + s] = hands[s] if (active >> s) & 1 else np.uint64(0)
    w[at + 4] = key
    w[at + 5] = np.uint64(tricks)
    w[W.MEMO_NEXT] = (w[W.MEMO_NEXT] + ONE) % np.uint64(MEMO_ENTRIES)
    return tricks


@njit(**NRT_FREE)
def guess_tricks(w, leader):
    """A cheap first guess at the declaring side's tricks for the exact search, from a linear
    fit to exact answers (single deck, every seating, where it halves the mean error of the
    trump share; the double deck has its own fit): the declaring side's trumps and the
    opponents', its run of top trumps, the side suits whose top card it holds, and whether
    it leads."""
    decl = np.int64(w[W.DECL])
    ours = w[W.HANDS] & np.uint64(0)
    for s in range(4):
        if (decl >> s) & 1:
            ours |= w[W.HANDS + s]
    allc = w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3]
    mine = popcount(ours & TRUMP_MASK)
    theirs = popcount(allc & TRUMP_MASK) - mine
    top = 0
    t = allc & TRUMP_MASK
    while t and (ours >> np.uint64(highest_bit(t))) & ONE:
        top += 1
        t ^= ONE << np.uint64(highest_bit(t))
    aces = 0
    for slot in range(3):
        sl = allc & SLOT_MASKS[slot]
        if sl and (ours >> np.uint64(highest_bit(sl))) & ONE:
            aces += 1
    n = popcount(w[W.HANDS + leader])
    leads = (decl >> leader) & 1
    if w[W.DOUBLE] != 0:  # refitted on 160 random double-deck deals: mean error 2.1 -> 1.4
        g = (4 + 76 * mine - 26 * theirs + 49 * top + 92 * aces + 112 * leads + 50) // 100
    else:
        g = (30 + 60 * mine - 32 * theirs + 65 * top + 70 * aces + 40 * leads + 50) // 100
    return min(max(g, 0), n)


@njit(**JIT)
def card_values(w, tt, leader, table_cards, table_seats, n_table, out):
    """Double-dummy value of every legal card of the seat to play: ``out[bit]`` = tricks still
    to come (counting the current trick) that the declaring side takes if that card is played
    and everyone plays best afterwards; -1 for cards that cannot be played. Returns the mask
    of legal cards. Cards with no card out between them share one search, and each search
    starts from the value of the card before (most cards of a hand are worth the same)."""
    active = np.int64(w[W.ACTIVE])
    decl = np.int64(w[W.DECL])
    double = np.int64(w[W.DOUBLE])
    out[:] = -1
    if n_table == 0:
        seat = leader
        led = -1
    else:
        seat = next_active(table_seats[n_table - 1], active)
        led = table_cards[0] >> 4
    hand = w[W.HANDS + seat]
    legal = hand
    if led >= 0 and hand & SLOT_MASKS[led]:
        legal = hand & SLOT_MASKS[led]
    nactive = np.int64(w[W.NACTIVE])
    cards = np.empty(4, dtype=np.int64)
    seats = np.empty(4, dtype=np.int64)
    table = np.uint64(0)
    for i in range(n_table):
        cards[i] = table_cards[i]
        seats[i] = table_seats[i]
        table |= ONE << np.uint64(table_cards[i])
    others = (w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3] | table) & ~hand
    if double:
        others |= ((others & EVEN_BITS) << ONE) | ((others & ODD_BITS) >> ONE)
    prev = -1
    m = legal
    while m:
        b = lowest_bit(m)
        m &= m - ONE
        if prev >= 0 and (b >> 4) == (prev >> 4):
            span = ((ONE << np.uint64(b + 1)) - ONE) & ~((ONE << np.uint64(prev)) - ONE)
            if not (others & span):  # no card out between them: the same value
                out[b] = out[prev]
                prev = b
                continue
        w[W.HANDS + seat] = hand ^ (ONE << np.uint64(b))
        cards[n_table] = b
        seats[n_table] = seat
        if n_table + 1 == nactive:
            wi = 0
            for i in range(1, nactive):
                if beats(cards[i], cards[wi], double):
                    wi = i
            won = (decl >> seats[wi]) & 1
            g = guess_tricks(w, seats[wi]) if prev < 0 else out[prev] - won
            v = won + exact(w, tt, seats[wi], cards, seats, 0, g)
        else:
            g = guess_tricks(w, leader) + 1 if prev < 0 else out[prev]
            v = exact(w, tt, leader, cards, seats, n_table + 1, g)
        out[b] = v
        prev = b
        w[W.HANDS + seat] = hand
    return legal


@njit(**JIT)
def _load(w, hands, spec, table, to_norm, cards, seats):
    """Load one position given in the natural layout into ``w`` as a new deal (and its
    trick-so-far into ``cards``/``seats``, normalised): the hands, and from ``spec`` (slots
    ``Q``) the trump, the seats that play, the declaring side, the double-deck flag and the
    ``spec[Q.N_TABLE]`` cards of ``table`` already played to the current trick, in order from
    the leader."""
    trump = spec[Q.TRUMP]
    active = spec[Q.ACTIVE]
    nh = np.empty(4, dtype=np.uint64)
    for s in range(4):
        nh[s] = normalise_mask(hands[s], to_norm[trump])
    new_deal(w)
    set_position(w, nh, active, spec[Q.DECL], spec[Q.DOUBLE])
    seat = spec[Q.LEADER]
    for k in range(spec[Q.N_TABLE]):
        cards[k] = to_norm[trump, table[k]]
        seats[k] = seat
        seat = next_active(seat, active)


@njit(**NRT_FREE)
def _answer(w, tt, leader, cards, seats, n_table, target):
    """The answer for the position loaded in ``w``: 1/0 for ``target`` >= 0, else the
    declaring side's tricks still to come."""
    if target >= 0:
        return 1 if at_least(w, tt, leader, cards, seats, n_table, target) else 0
    return exact(w, tt, leader, cards, seats, n_table,
                 guess_tricks(w, leader) + (1 if n_table > 0 else 0))


@njit(**JIT)
def solve_one(w, tt, hands, spec, table, to_norm):
    """One position on one thread's ``w`` and ``tt`` (from ``solver_arrays``): natural masks
    ``hands[4]``, ``spec`` (int64, slots ``Q``), ``table`` the natural cards already on the
    table from the leader, ``to_norm`` the deck's layout map. Returns ``(answer, nodes)``, as
    one entry of ``solve_batch``; no thread pool and nothing allocated but two small arrays."""
    cards = np.empty(4, dtype=np.int64)
    seats = np.empty(4, dtype=np.int64)
    _load(w, hands, spec, table, to_norm, cards, seats)
    answer = _answer(w, tt, spec[Q.LEADER], cards, seats, spec[Q.N_TABLE], spec[Q.TARGET])
    return answer, np.int64(w[W.NODES])


@njit(**JIT)
def values_one(w, tt, hands, spec, table, rules, values):
    """``card_values`` of one position (as ``solve_one``; ``rules`` the ``RuleArrays``, whose
    layout maps it reads): fills ``values[64]`` (indexed by natural card id, -1 for cards that
    cannot be played) and returns the nodes searched."""
    to_norm = rules.to_norm
    from_norm = rules.from_norm
    cards = np.empty(4, dtype=np.int64)
    seats = np.empty(4, dtype=np.int64)
    _load(w, hands, spec, table, to_norm, cards, seats)
    _natural_values(w, tt, spec[Q.LEADER], cards, seats, spec[Q.N_TABLE],
                    from_norm[spec[Q.TRUMP]], values)
    return np.int64(w[W.NODES])


@njit(**JIT)
def _natural_values(w, tt, leader, cards, seats, n_table, from_norm_t, values):
    """``card_values`` of the position loaded in ``w``, written to ``values[64]`` by natural
    card id (``from_norm_t``: the layout map of its trump), -1 for cards that cannot be played."""
    out = np.empty(64, dtype=np.int64)
    card_values(w, tt, leader, cards, seats, n_table, out)
    values[:] = -1
    for b in range(64):
        if out[b] >= 0:
            values[from_norm_t[b]] = out[b]


@njit(**PARALLEL_JIT)
def solve_batch(hands, specs, table, to_norm, works, tables):
    """Solve N positions in parallel, each a pure function of its inputs (the same answers
    and node counts whatever the thread count).

    Per position i: ``hands[i, 4]`` natural masks of the cards still held, ``specs[i]`` its
    numbers (slots ``Q``: the trump, who led or leads the current trick, the 4-bit masks of
    the seats that play and of the declaring side, the cards on the table, the target, the
    double-deck flag), ``table[i, :specs[i, Q.N_TABLE]]`` the natural cards already played to
    the current trick in order from the leader. A target k >= 0 asks "can the declaring side
    take at least k of the tricks still to come (counting the current one)?" (answer 1/0),
    -1 asks for that number exactly. ``to_norm`` is the deck's layout map; ``works`` and
    ``tables`` a work array and a table per numba thread (``solver_arrays``, or reused from
    an earlier batch: each position starts a new table generation). Returns ``(answers[N]
    int8, nodes[N] int64)``."""
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int8)
    nodes = np.empty(n, dtype=np.int64)
    for i in prange(n):
        tid = get_thread_id()
        w = works[tid]
        cards = np.empty(4, dtype=np.int64)
        seats = np.empty(4, dtype=np.int64)
        spec = specs[i]
        _load(w, hands[i], spec, table[i], to_norm, cards, seats)
        out[i] = _answer(w, tables[tid], spec[Q.LEADER], cards, seats, spec[Q.N_TABLE],
                         spec[Q.TARGET])
        nodes[i] = np.int64(w[W.NODES])
    return out, nodes


@njit(**PARALLEL_JIT)
def card_values_batch(hands, specs, table, rules, works, tables):
    """The per-card form of ``solve_batch`` ("solve board"): for each position, the value of
    every legal card of the seat to play, as tricks still to come (counting the current one)
    for the declaring side (``rules`` the ``RuleArrays``, whose layout maps it reads). Returns
    ``(values[N, 64] int8 indexed by natural card id, -1 for cards that cannot be played;
    nodes[N])``."""
    to_norm = rules.to_norm
    from_norm = rules.from_norm
    n = hands.shape[0]
    values = np.empty((n, 64), dtype=np.int8)
    nodes = np.empty(n, dtype=np.int64)
    for i in prange(n):
        tid = get_thread_id()
        w = works[tid]
        cards = np.empty(4, dtype=np.int64)
        seats = np.empty(4, dtype=np.int64)
        spec = specs[i]
        _load(w, hands[i], spec, table[i], to_norm, cards, seats)
        _natural_values(w, tables[tid], spec[Q.LEADER], cards, seats, spec[Q.N_TABLE],
                        from_norm[spec[Q.TRUMP]], values[i])
        nodes[i] = np.int64(w[W.NODES])
    return values, nodes
