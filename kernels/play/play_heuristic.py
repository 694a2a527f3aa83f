"""The ``heuristic`` card player: standard rules of thumb, each a named step that either picks
a card or passes (returns -1) to the next step. Everything is in the trump-normalised layout
and uses only what the seat may see: its own hand, the cards on the table and the cards
not yet played (``unplayed``: the deck's cards not played so far), and which side
declared.

Leading:  lead_trump_as_maker -> cash_winner -> lead_low
Following suit: partner_winning_play_low -> second_hand_low -> win_cheaply -> play_low
Void in the led suit: partner_winning_discard -> trump_in -> overtrump -> discard_loser
"""

from numba import njit

from ..cards.bits import ONE, highest_bit, lowest_bit, popcount
from ..cards.layout import SLOT_MASKS, TRUMP_MASK, TRUMP_SLOT, beats
from ..config import NRT_FREE


@njit(**NRT_FREE)
def is_boss(b, hand, unplayed):
    """True if normalised card ``b`` is the highest card of its suit still out (counting
    only the ``unplayed`` cards not in ``hand``)."""
    out = SLOT_MASKS[b >> 4] & unplayed & ~hand
    return out == 0 or highest_bit(out) < b


@njit(**NRT_FREE)
def lead_trump_as_maker(hand, unplayed, my_side_declared):
    """The declaring side leads its best trump while the opponents may still hold trumps,
    when that trump is the highest still out (draw their trumps)."""
    if not my_side_declared:
        return -1
    trumps = hand & TRUMP_MASK
    out = TRUMP_MASK & unplayed & ~hand
    if trumps == 0 or out == 0:
        return -1
    top = highest_bit(trumps)
    if top > highest_bit(out):
        return top
    if popcount(trumps) >= 3:  # long in trumps: draw them even without the top one
        return top
    return -1


@njit(**NRT_FREE)
def cash_winner(hand, unplayed):
    """Lead a side-suit card that is the highest of its suit still out (an ace or a card
    promoted to it)."""
    for slot in range(3):
        cards = hand & SLOT_MASKS[slot]
        if cards:
            top = highest_bit(cards)
            if is_boss(top, hand, unplayed):
                return top
    return -1


@njit(**NRT_FREE)
def lead_low(hand):
    """Otherwise lead the lowest card of the longest side suit (keep trumps for ruffing);
    with only trumps, the lowest trump."""
    best = -1
    best_len = 0
    for slot in range(3):
        cards = hand & SLOT_MASKS[slot]
        n = popcount(cards)
        if n > best_len:
            best_len = n
            best = lowest_bit(cards)
    if best >= 0:
        return best
    return lowest_bit(hand)


@njit(**NRT_FREE)
def cheapest_winner(legal, win_card, double):
    """The lowest card of ``legal`` that beats ``win_card`` (-1 if none)."""
    m = legal
    while m:
        b = lowest_bit(m)
        m &= m - ONE
        if beats(b, win_card, double):
            return b
    return -1


@njit(**NRT_FREE)
def lowest_loser(legal):
    """The card to throw away: the lowest side-suit card (between equal ranks, from the
    shortest suit, then the lowest suit), else the lowest trump."""
    best = -1
    best_key = 1 << 30
    for slot in range(TRUMP_SLOT):  # each side suit's lowest card is its candidate
        suit = legal & SLOT_MASKS[slot]
        if suit:
            b = lowest_bit(suit)
            key = (b & 15) * 16 + popcount(suit)
            if key < best_key:
                best_key = key
                best = b
    return best if best >= 0 else lowest_bit(legal)


@njit(**NRT_FREE)
def heuristic_card(hand, legal, unplayed, pos, last, led, win_card, partner_winning,
                   my_side_declared, double):
    """The card the rules of thumb play. ``pos`` is this seat's place in the trick (0 leads),
    ``last`` whether it plays last, ``led`` the led slot, ``win_card`` the card winning so far
    and ``partner_winning`` whether a partner holds the trick."""
    if pos == 0:
        b = lead_trump_as_maker(hand, unplayed, my_side_declared)
        if b < 0:
            b = cash_winner(hand, unplayed)
        if b < 0:
            b = lead_low(hand)
        return b
    follows = (legal & SLOT_MASKS[led]) != 0
    if follows:
        if partner_winning and (last or is_boss(win_card, hand, unplayed)):
            return lowest_bit(legal)  # partner_winning_play_low
        if pos == 1 and not last:  # second_hand_low, unless we hold the boss
            top = highest_bit(legal)
            if is_boss(top, hand, unplayed) and beats(top, win_card, double):
                return top
            return lowest_bit(legal)
        b = cheapest_winner(legal, win_card, double)  # win_cheaply (third hand high)
        if b >= 0:
            return b
        return lowest_bit(legal)  # play_low
    if partner_winning:
        return lowest_loser(legal)  # partner_winning_discard
    trumps = legal & TRUMP_MASK
    if trumps:
        b = cheapest_winner(trumps, win_card, double)  # trump_in / overtrump
        if b >= 0:
            return b
    return lowest_loser(legal)  # discard_loser
