"""The ``analyzer`` card player: a small network over what one seat sees, no search at the
table.

Two kinds of input, all one-hot. The seat's **view**, once a decision: where each card of the
deck is as the seat sees it (in its hand, unseen, put away by itself, on the table or played
earlier by whom, known to be held by whom: the upcard the dealer took), by its place in power
order in its suit relative to trump (the normalised layout's slots), and the facts of the hand
and the trick (the seat's place in the trick, where the declarer and the dealer sit, the
round, the contract, the tricks each side has and needs, who wins the trick so far). And each
legal **card**'s facts, crossed in small groups (what it does to the trick: leads, follows
and wins or loses, trumps in, overtrumps, discards; crossed with the seat's role, its place,
the tricks needed, its rank among the cards still out, the seat's holding in its suit, the
voids shown, ...), and its place. A card's score is a linear part over its facts plus one
hidden layer of ``width`` units over the view's and the card's inputs (each input adds its
row: the view's rows once a decision, the card's once a card). The seat plays its
best-scoring legal card (ties: the lowest). The network is learned from positions whose
legal cards were played out (``kernels.drivers.card_labels``, ``kernels.play.card_fit``,
``analyzer.strategy.card_player``) and carried in the seat's parameter row (``PR.PLAY``).
Everything reads only what the seat may see.
"""

import numpy as np
from numba import njit

from ..cards.bits import ONE, highest_bit, lowest_bit, popcount
from ..cards.layout import SLOT_MASKS, TRUMP_SLOT, beats
from ..config import NRT_FREE
from ..slots import PLAY_LEN, PR, TR, K
from .pimc import one_class

RANKS = 10  # places in power order a suit has at most (trump with the joker, 32 cards)
PLACES = 4 * RANKS  # card places: the network's outputs
# where a card is, as the seat sees it
S_MINE = 0
S_UNSEEN = 1
S_PUT_AWAY = 2  # its own discard, the hand it swapped away, the cards it dropped
S_TABLE = 3  # + the seat after me (0..2) that played it to this trick
S_PLAYED = 6  # + the seat (0 me, 1..3 after me) that played it to an earlier trick
S_HELD = 10  # + the seat after me (0..2) known to hold it (the upcard the dealer took)
STATES = 13
BANK = STATES * PLACES  # the inputs of one copy of the cards (the double deck has two)
# the facts of the hand: one-hot groups after the two banks
CONTEXT = 2 * BANK
GROUP_SIZES = (4, 4, 4, 3, 4, 7, 7, 4, 6, 16, 4, 2, 2)
N_VIEW = CONTEXT + sum(GROUP_SIZES)  # the view's inputs
MAX_ACTIVE = 64  # inputs on at once at most: every card of the double deck and the facts


@njit(**NRT_FREE)
def card_place(b, deck, double):
    """The output place of normalised card ``b`` (both copies of a double-deck card share
    it): its slot, and its rank from the top of its suit in the ``deck`` (normalised)."""
    slot = b >> 4
    powers = popcount(deck & SLOT_MASKS[slot]) >> double
    return slot * RANKS + min(powers - 1 - ((b & 15) >> double), RANKS - 1)


@njit(**NRT_FREE)
def _after(seat, other, seated):
    """Where ``other`` sits counted clockwise from ``seat`` (0: itself)."""
    return (other - seat) % seated


@njit(**NRT_FREE)
def _emit(cards, state, tops, double, out, n):
    """Write the inputs of normalised ``cards``, each in ``state``, into ``out`` from ``n``
    (``tops``: each slot's top power); returns the next free slot."""
    while cards:
        b = lowest_bit(cards)
        cards &= cards - ONE
        slot = b >> 4
        place = slot * RANKS + min(tops[slot] - ((b & 15) >> double), RANKS - 1)
        out[n] = (b & double) * BANK + state * PLACES + place
        n += 1
    return n


@njit(**NRT_FREE)
def view_inputs(hand, know, trick, seat, decl_mask, out):
    """Write into ``out`` the indices of ``seat``'s inputs that are on (``MAX_ACTIVE`` slots;
    the rest -1): ``hand`` its normalised cards, ``know`` what the seats know (slots ``K``),
    ``trick`` the engine's trick array (slots ``TR``: the trick so far and the hand's facts),
    ``decl_mask`` the declaring side's seats. Returns how many."""
    deck = know[K.DECK]
    double = trick[TR.DOUBLE]
    seated = trick[TR.SEATED]
    tops = ((popcount(deck & SLOT_MASKS[0]) >> double) - 1,  # each slot's top power
            (popcount(deck & SLOT_MASKS[1]) >> double) - 1,
            (popcount(deck & SLOT_MASKS[2]) >> double) - 1,
            (popcount(deck & SLOT_MASKS[3]) >> double) - 1)
    n = _emit(hand, S_MINE, tops, double, out, 0)
    seen = hand
    for i in range(trick[TR.COUNT]):
        bit = ONE << np.uint64(trick[TR.CARDS + i])
        n = _emit(bit, S_TABLE + _after(seat, trick[TR.SEATS + i], seated) - 1, tops, double,
                  out, n)
        seen |= bit
    for s in range(4):
        if know[K.PLAYED_BY + s] & ~seen:
            n = _emit(know[K.PLAYED_BY + s] & ~seen, S_PLAYED + _after(seat, s, seated), tops,
                      double, out, n)
    seen |= know[K.PLAYED]
    dead = know[K.DEAD + seat] & ~seen
    n = _emit(dead, S_PUT_AWAY, tops, double, out, n)
    seen |= dead
    up = trick[TR.UPCARD]
    holder = np.int64(know[K.UP_HOLDER])
    if up >= 0 and holder < 4 and holder != seat and (trick[TR.ACTIVE] >> holder) & 1 and \
            not (seen >> np.uint64(up)) & ONE:
        n = _emit(ONE << np.uint64(up), S_HELD + _after(seat, holder, seated) - 1, tops,
                  double, out, n)
        seen |= ONE << np.uint64(up)
    n = _emit(deck & ~seen, S_UNSEEN, tops, double, out, n)
    pos = trick[TR.COUNT]
    mine = (decl_mask >> seat) & 1
    number = trick[TR.NUMBER]
    decl_won = trick[TR.DECL_WON]
    ours = decl_won if mine else number - decl_won
    needs = trick[TR.NEEDS] if mine else trick[TR.TRICKS] - trick[TR.NEEDS] + 1
    win_rel = 0
    win_trump = 0
    if pos > 0:
        win = 0
        for i in range(1, pos):
            if beats(trick[TR.CARDS + i], trick[TR.CARDS + win], double):
                win = i
        win_rel = _after(seat, trick[TR.SEATS + win], seated)
        win_trump = 1 if (trick[TR.CARDS + win] >> 4) == TRUMP_SLOT else 0
    out_rel = 0  # a seat dealt in that sits out
    for s in range(seated):
        if not (trick[TR.ACTIVE] >> s) & 1:
            out_rel = _after(seat, s, seated)
    values = (pos, _after(seat, trick[TR.DECLARER], seated),
              _after(seat, trick[TR.DEALER], seated), trick[TR.ROUND], out_rel,
              min(ours, 6), min(number - ours, 6), min(max(needs - ours, 0), 3),
              min(trick[TR.TRICKS] - number, 6) - 1, min(trick[TR.CONTRACT], 15), win_rel,
              mine, win_trump)
    at = CONTEXT
    for g in range(len(GROUP_SIZES)):
        out[n] = at + values[g]
        n += 1
        at += GROUP_SIZES[g]
    for i in range(n, out.shape[0]):
        out[i] = -1
    return n


# what a card does to the trick
KINDS = 8
K_LEAD_TRUMP = 0
K_LEAD_SIDE = 1
K_FOLLOW_WIN = 2
K_FOLLOW_LOSE = 3
K_TRUMP_IN = 4  # ruffs a trick led in a side suit and wins it so far
K_OVERTRUMP = 5  # over a trump already in the trick
K_UNDERTRUMP = 6  # a trump that does not win
K_DISCARD = 7

# a card's groups of facts (each group one input a cell), in the order of card_inputs
CARD_GROUPS = (
    KINDS * 4 * 3 * 2,  # kind x place in the trick x role x partner winning
    KINDS * 2 * 4,  # kind x sure to win x tricks the side needs
    2 * 4 * 3 * 4,  # trump x live cards above it x my length in its suit x place
    KINDS * 4 * 4 * 3,  # kind x my trumps x trumps out x role
    KINDS * 2 * 2 * 2 * 3,  # kind x an opponent void in its suit x partner void x next x role
    2 * 7 * 5,  # trump x rank from the top x tricks left
    KINDS * 2 * 2 * 2,  # kind x cheapest winner x my lowest of the suit x my highest
    KINDS * 2 * 2 * 3,  # kind x I hold the top trump x the makers have every trick x role
    KINDS * 2 * 3 * 4,  # kind x someone alone x role x place
    KINDS * 4 * 5 * 3,  # kind x tricks the side needs x tricks left x role
    2 * 2 * 4 * 2,  # sure to win x partner winning x place x trump
    KINDS * 3 * 3,  # kind x cards of its suit played before x role
    KINDS * 2 * 3 * 2,  # kind x partner's card is sure x role x trump
    KINDS * 4 * 4,  # kind x where the declarer sits x place
    KINDS * 8 * 8,  # kind x who showed out of its suit x who showed out of trumps
    2 * 4 * 4 * 4,  # trump x my length in its suit x its suit's cards out x my trumps
    KINDS * 4 * 2 * 4,  # kind x who wins the trick so far x by a trump x place
    KINDS * 4 * 4 * 3,  # kind x my side's tricks x theirs x role
    KINDS * 4 * 3 * 3,  # kind x where the dealer sits x round x the upcard's suit's
    KINDS * 16 * 3,  # kind x the contract x role
    PLACES,  # its place
)
N_GROUPS = len(CARD_GROUPS)
CARD_OFFSETS = np.zeros(N_GROUPS + 1, dtype=np.int64)
for _g in range(N_GROUPS):
    CARD_OFFSETS[_g + 1] = CARD_OFFSETS[_g] + CARD_GROUPS[_g]
N_CARD = int(CARD_OFFSETS[N_GROUPS])  # a card's inputs
MAX_WIDTH = 32  # hidden units at most
assert 1 + (N_VIEW + N_CARD + 2) * MAX_WIDTH + N_CARD <= PLAY_LEN - 1  # PR.PLAY_ID last

# the context of a decision for its cards' facts (one int64 array, ``X_*``)
X_POS = 0  # place in the trick (0 leads)
X_ROLE = 1  # 0 I declared, 1 my partner did, 2 I defend
X_ALONE = 2  # 1: a seat sits out (someone went alone)
X_PW = 3  # 1: my side wins the trick so far
X_NEED = 4  # tricks my side still needs (to make, or to set them), 0..3
X_LEFT = 5  # tricks left, this one included, 1..5 -> 0..4
X_MY_TRUMPS = 6  # 0..3
X_TRUMPS_OUT = 7  # trumps out in other hands, 0..3
X_TOP_TRUMP = 8  # 1: I hold the highest trump still out
X_MARCH = 9  # 1: the declaring side has every trick so far
X_LED = 10  # the led slot (-1 leading)
X_WIN_CARD = 11  # the card winning so far (-1 leading)
X_NEXT = 12  # the side slot of trump's colour (fewer cards), -1 if none
X_PARTNER_SURE = 13  # 1: my side's winning card cannot be beaten by a seat still to play
X_MAKER_REL = 14  # where the declarer sits: 0 me, then seats after me clockwise
X_DEALER_REL = 15  # where the dealer sits, likewise
X_ROUND = 16  # 0 a ladder's contract, 1 made in round 1, 2 in round 2
X_UP_SLOT = 17  # the upcard's slot (-1: none)
X_WIN_REL = 18  # who wins the trick so far: 0 nobody (I lead), 1..3 the seats after me
X_WIN_TRUMP = 19  # 1: by a trump
X_OURS = 20  # my side's tricks, 0..3
X_THEIRS = 21  # the others', 0..3
X_LEN = 22


@njit(**NRT_FREE)
def _above(b, double):
    """The mask of the cards of ``b``'s slot that rank above it (a double-deck copy of the
    same card ranks with it)."""
    top = (b | 1) if double else b
    if (top & 15) == 15:
        return np.uint64(0)
    return SLOT_MASKS[b >> 4] & ~((ONE << np.uint64(top + 1)) - ONE)


@njit(**NRT_FREE)
def _next(seat, active):
    s = (seat + 1) & 3
    while not (active >> s) & 1:
        s = (s + 1) & 3
    return s


@njit(**NRT_FREE)
def _beatable(card, slot, live, know, trick, seat, my_side):
    """Whether a seat still to play after ``seat`` in ``trick`` and not on ``my_side`` (a
    4-bit mask) may hold a card that beats ``card`` (of ``slot``; ``live`` the cards out): a
    higher live card of its slot it has not shown out of, or, over a side-suit card, a live
    trump while it has not shown out of trumps."""
    higher = live & _above(card, trick[TR.DOUBLE])
    trumps = live & SLOT_MASKS[TRUMP_SLOT]
    n_active = popcount(np.uint64(trick[TR.ACTIVE]))
    s = seat
    for _ in range(n_active - 1 - trick[TR.COUNT]):
        s = _next(s, trick[TR.ACTIVE])
        if (my_side >> s) & 1:
            continue
        v = np.int64(know[K.VOIDS + s])
        if higher and not (v >> slot) & 1:
            return True
        if slot != TRUMP_SLOT and trumps and not (v >> TRUMP_SLOT) & 1:
            return True
    return False


@njit(**NRT_FREE)
def view_context(hand, know, trick, seat, decl_mask, x):
    """Fill ``x`` (int64, slots ``X_*``) with the facts of ``seat``'s decision its cards'
    facts are crossed with (arguments as :func:`view_inputs`). Returns the live cards (those
    out in other hands or unseen) as a normalised mask."""
    double = trick[TR.DOUBLE]
    needs = trick[TR.NEEDS]
    hand_size = trick[TR.TRICKS]
    seated = trick[TR.SEATED]
    live = know[K.DECK] & ~know[K.PLAYED] & ~hand & ~know[K.DEAD + seat]
    pos = trick[TR.COUNT]
    mine = (decl_mask >> seat) & 1
    my_side = decl_mask if mine else (trick[TR.ACTIVE] & ~decl_mask)
    declarer = trick[TR.DECLARER]
    x[X_POS] = pos
    x[X_ROLE] = 0 if declarer == seat else (1 if mine else 2)
    x[X_ALONE] = 1 if popcount(np.uint64(trick[TR.ACTIVE])) < seated else 0
    number = trick[TR.NUMBER]
    decl_won = trick[TR.DECL_WON]
    need = needs - decl_won if mine else (hand_size - needs + 1) - (number - decl_won)
    x[X_NEED] = min(max(need, 0), 3)
    x[X_LEFT] = min(hand_size - number, 5) - 1
    trumps = hand & SLOT_MASKS[TRUMP_SLOT]
    trumps_out = live & SLOT_MASKS[TRUMP_SLOT]
    x[X_MY_TRUMPS] = min(popcount(trumps), 3)
    x[X_TRUMPS_OUT] = min(popcount(trumps_out), 3)
    x[X_TOP_TRUMP] = 1 if trumps and (trumps_out == 0 or highest_bit(trumps) >
                                      highest_bit(trumps_out)) else 0
    x[X_MARCH] = 1 if decl_won == number else 0
    x[X_NEXT] = -1
    fewest = 99
    for slot in range(TRUMP_SLOT):
        n = popcount(know[K.DECK] & SLOT_MASKS[slot])
        if n < fewest:
            fewest = n
            x[X_NEXT] = slot
        elif n == fewest:
            x[X_NEXT] = -1  # no slot short of its jack (no trump's colour twin)
    x[X_MAKER_REL] = _after(seat, declarer, seated)
    x[X_DEALER_REL] = _after(seat, trick[TR.DEALER], seated)
    x[X_ROUND] = trick[TR.ROUND]
    x[X_UP_SLOT] = trick[TR.UPCARD] >> 4 if trick[TR.UPCARD] >= 0 else -1
    ours = decl_won if mine else number - decl_won
    x[X_OURS] = min(ours, 3)
    x[X_THEIRS] = min(number - ours, 3)
    x[X_WIN_REL] = 0
    x[X_WIN_TRUMP] = 0
    x[X_PW] = 0
    x[X_PARTNER_SURE] = 0
    x[X_LED] = -1
    x[X_WIN_CARD] = -1
    if pos > 0:
        led = trick[TR.CARDS] >> 4
        win = 0
        for i in range(1, pos):
            if beats(trick[TR.CARDS + i], trick[TR.CARDS + win], double):
                win = i
        x[X_LED] = led
        x[X_WIN_CARD] = trick[TR.CARDS + win]
        x[X_WIN_REL] = _after(seat, trick[TR.SEATS + win], seated)
        x[X_WIN_TRUMP] = 1 if (trick[TR.CARDS + win] >> 4) == TRUMP_SLOT else 0
        if (my_side >> trick[TR.SEATS + win]) & 1:
            x[X_PW] = 1
            w = trick[TR.CARDS + win]
            x[X_PARTNER_SURE] = 0 if _beatable(w, w >> 4, live, know, trick, seat,
                                               my_side) else 1
    return live


@njit(**NRT_FREE)
def card_inputs(b, hand, legal, live, know, trick, seat, decl_mask, x, out):
    """Write into ``out`` the ``N_GROUPS`` inputs of ``seat`` playing normalised card ``b``
    of its ``legal`` cards, in the context ``x`` of :func:`view_context` (``live`` the cards
    out)."""
    slot = b >> 4
    trump = 1 if slot == TRUMP_SLOT else 0
    double = trick[TR.DOUBLE]
    pos = x[X_POS]
    role = x[X_ROLE]
    mine = (decl_mask >> seat) & 1
    my_side = decl_mask if mine else (trick[TR.ACTIVE] & ~decl_mask)
    suit = hand & SLOT_MASKS[slot]
    if pos == 0:
        kind = K_LEAD_TRUMP if trump else K_LEAD_SIDE
        wins = True
    else:
        win_card = x[X_WIN_CARD]
        wins = beats(b, win_card, double)
        if slot == x[X_LED]:
            kind = K_FOLLOW_WIN if wins else K_FOLLOW_LOSE
        elif trump:
            if not wins:
                kind = K_UNDERTRUMP
            else:
                kind = K_OVERTRUMP if (win_card >> 4) == TRUMP_SLOT else K_TRUMP_IN
        else:
            kind = K_DISCARD
    sure = 1 if wins and not _beatable(b, slot, live, know, trick, seat, my_side) else 0
    above = _above(b, double)
    higher_live = min(popcount(live & above), 3)
    length = min(popcount(suit), 3) - 1
    rank = min(popcount(know[K.DECK] & above) >> double, 6)
    cheapest = 0
    if pos > 0 and wins:
        cheapest = 1
        m = legal & ((ONE << np.uint64(b)) - ONE)
        while m:
            c = lowest_bit(m)
            m &= m - ONE
            if beats(c, x[X_WIN_CARD], double):
                cheapest = 0
                break
    lowest = 1 if b == lowest_bit(suit) else 0
    highest = 1 if b == highest_bit(suit) else 0
    opp_void = 0
    partner_void = 0
    suit_voids = 0  # who showed out of its suit, and of trumps: a bit a seat after me
    trump_voids = 0
    for s in range(4):
        if s == seat or not (trick[TR.ACTIVE] >> s) & 1:
            continue
        v = np.int64(know[K.VOIDS + s])
        rel = _after(seat, s, trick[TR.SEATED]) - 1
        if (v >> slot) & 1:
            suit_voids |= 1 << rel
            if (my_side >> s) & 1:
                partner_void = 1
            else:
                opp_void = 1
        if (v >> TRUMP_SLOT) & 1:
            trump_voids |= 1 << rel
    is_next = 1 if slot == x[X_NEXT] else 0
    played = min(popcount(know[K.PLAYED] & SLOT_MASKS[slot]) >> double, 2)
    need = x[X_NEED]
    left = x[X_LEFT]
    up = 0 if trump else (1 if slot == x[X_UP_SLOT] else 2)
    o = CARD_OFFSETS
    out[0] = o[0] + ((kind * 4 + pos) * 3 + role) * 2 + x[X_PW]
    out[1] = o[1] + (kind * 2 + sure) * 4 + need
    out[2] = o[2] + ((trump * 4 + higher_live) * 3 + length) * 4 + pos
    out[3] = o[3] + ((kind * 4 + x[X_MY_TRUMPS]) * 4 + x[X_TRUMPS_OUT]) * 3 + role
    out[4] = o[4] + (((kind * 2 + opp_void) * 2 + partner_void) * 2 + is_next) * 3 + role
    out[5] = o[5] + (trump * 7 + rank) * 5 + left
    out[6] = o[6] + ((kind * 2 + cheapest) * 2 + lowest) * 2 + highest
    out[7] = o[7] + ((kind * 2 + x[X_TOP_TRUMP]) * 2 + x[X_MARCH]) * 3 + role
    out[8] = o[8] + ((kind * 2 + x[X_ALONE]) * 3 + role) * 4 + pos
    out[9] = o[9] + ((kind * 4 + need) * 5 + left) * 3 + role
    out[10] = o[10] + ((sure * 2 + x[X_PW]) * 4 + pos) * 2 + trump
    out[11] = o[11] + (kind * 3 + played) * 3 + role
    out[12] = o[12] + ((kind * 2 + x[X_PARTNER_SURE]) * 3 + role) * 2 + trump
    out[13] = o[13] + (kind * 4 + x[X_MAKER_REL]) * 4 + pos
    out[14] = o[14] + (kind * 8 + suit_voids) * 8 + trump_voids
    out[15] = o[15] + ((trump * 4 + min(popcount(suit), 4) - 1) * 4 +
                       min(popcount(live & SLOT_MASKS[slot]), 3)) * 4 + x[X_MY_TRUMPS]
    out[16] = o[16] + ((kind * 4 + x[X_WIN_REL]) * 2 + x[X_WIN_TRUMP]) * 4 + pos
    out[17] = o[17] + ((kind * 4 + x[X_OURS]) * 4 + x[X_THEIRS]) * 3 + role
    out[18] = o[18] + ((kind * 4 + x[X_DEALER_REL]) * 3 + x[X_ROUND]) * 3 + up
    out[19] = o[19] + (kind * 16 + min(trick[TR.CONTRACT], 15)) * 3 + role
    out[20] = o[20] + card_place(b, know[K.DECK], double)


@njit(**NRT_FREE)
def network(params):
    """The card player's network in a seat's parameter row (``PR.PLAY``: the hidden width,
    then the view's rows, the cards' rows, the hidden biases, the cards' linear weights and
    the output weights), as views ``(w_view, w_card, b1, lin, w2)``."""
    width = np.int64(params[PR.PLAY])
    at = PR.PLAY + 1
    w_view = params[at:at + N_VIEW * width].reshape((N_VIEW, width))
    at += N_VIEW * width
    w_card = params[at:at + N_CARD * width].reshape((N_CARD, width))
    at += N_CARD * width
    b1 = params[at:at + width]
    at += width
    lin = params[at:at + N_CARD]
    at += N_CARD
    return w_view, w_card, b1, lin, params[at:at + width]


@njit(**NRT_FREE)
def view_layer(active, n, w_view, b1, base):
    """The hidden units' inputs from the view (``n`` inputs ``active``): ``base``."""
    for j in range(b1.shape[0]):
        base[j] = b1[j]
    for a in range(n):
        row = active[a]
        for j in range(b1.shape[0]):
            base[j] += w_view[row, j]


@njit(**NRT_FREE)
def card_score(idx, base, w_card, lin, w2, hidden):
    """The score of a card with inputs ``idx`` given the view's part ``base`` of the hidden
    units' inputs; the hidden units' inputs are left in ``hidden``."""
    s = 0.0
    width = base.shape[0]
    for j in range(width):
        hidden[j] = base[j]
    for g in range(idx.shape[0]):
        i = idx[g]
        s += lin[i]
        for j in range(width):
            hidden[j] += w_card[i, j]
    for j in range(width):
        if hidden[j] > 0.0:
            s += w2[j] * hidden[j]
    return s


@njit(**NRT_FREE)
def analyzer_card(params, hand, legal, know, trick, seat, decl_mask, ints, floats):
    """The ``analyzer`` player's card (a normalised bit) for ``seat`` holding normalised
    ``hand`` with ``legal`` cards (two or more), its network in ``params`` (see
    :func:`network`); ``ints`` and ``floats`` are scratch (``SCRATCH_INTS`` int64 and
    ``2 * MAX_WIDTH`` floats)."""
    table = np.uint64(0)
    for i in range(trick[TR.COUNT]):
        table |= ONE << np.uint64(trick[TR.CARDS + i])
    if one_class(legal, (know[K.DECK] & ~know[K.PLAYED] & ~hand) | table, trick[TR.DOUBLE]):
        return lowest_bit(legal)  # the cards are alike whatever the others hold
    w_view, w_card, b1, lin, w2 = network(params)
    width = b1.shape[0]
    active = ints[:MAX_ACTIVE]
    x = ints[MAX_ACTIVE:MAX_ACTIVE + X_LEN]
    idx = ints[MAX_ACTIVE + X_LEN:MAX_ACTIVE + X_LEN + N_GROUPS]
    base = floats[:width]
    hidden = floats[MAX_WIDTH:MAX_WIDTH + width]
    n = view_inputs(hand, know, trick, seat, decl_mask, active)
    view_layer(active, n, w_view, b1, base)
    live = view_context(hand, know, trick, seat, decl_mask, x)
    best = -1
    best_score = 0.0
    m = legal
    while m:
        b = lowest_bit(m)
        m &= m - ONE
        card_inputs(b, hand, legal, live, know, trick, seat, decl_mask, x, idx)
        score = card_score(idx, base, w_card, lin, w2, hidden)
        if best < 0 or score > best_score:
            best = b
            best_score = score
    return best


SCRATCH_INTS = MAX_ACTIVE + X_LEN + N_GROUPS
