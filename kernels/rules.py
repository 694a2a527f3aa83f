"""Rule primitives in the trump-normalised layout, and the integer codes shared by the engine,
the policies and the analyzer (variants, calls, configuration and record slots).

Seats are 0..3 = N E S W clockwise. In the three-player variants seat W (3) holds the ghost
hand or the dummy and never plays.
"""

import numpy as np
from numba import njit

from .config import JIT
from .layout import SLOT_MASKS, TRUMP_SLOT, denormalise_mask, normalise_mask

# Variants.
BID, GHOST, CUTTHROAT, KNOCK = 0, 1, 2, 3

# Calls in an auction. Plain bids are their number of tricks (3..11) so numeric order is the
# bidding ladder: 3 < 4 < ... < ASK < MOON.
PASS = 0
ASK = 20
MOON = 21
ORDER = 30  # order up / help / accept the upcard's suit (round 1)
NAME = 40  # NAME + suit: name a suit in round 2 (or the dealer names under a turned-up joker)
SWAP = 50  # ghost: take the ghost hand
REDEAL_CALL = 51  # bid, Ace-No-Face: call a redeal

# Configuration vector (int64 array) built by analyzer.variants.Rules.config().
C_VARIANT = 0
C_DECK = 1
C_HAND = 2  # cards each player holds during play (= tricks in the hand)
C_PLAYERS = 3  # 3 or 4
C_STICK = 4  # stick the dealer
C_ACE_NO_FACE = 5
C_NAME_TURNED_DOWN = 6  # round 2 may name the turned-down suit
C_LONE_DEFENDER = 7  # a defender may go alone (knock; always allowed in cutthroat)
C_DEAL = 8  # cards dealt to each hand (bid with joker: the dealer gets one more)
C_KITTY = 9  # cards left undealt (upcard on top)
C_LEN = 10

# Record of one hand: int64 slots. Cards are natural ids, -1 where there is none.
R_DEALER = 0
R_STATUS = 1  # one of ST_*
R_UPCARD = 2
R_REDEAL_SEAT = 3  # Ace-No-Face caller
R_JOKER_DISCARD = 4  # bid with joker: the dealer's discard from seven cards
R_SWAP_SEAT = 5  # ghost: who took the ghost hand
R_TRUMP = 6
R_DECLARER = 7  # the winning bidder / the maker
R_CONTRACT = 8  # bid/ghost: the winning call; knock/cutthroat: CT_* flags
R_ROUND = 9  # knock/cutthroat: the bidding round trump was made in (1 or 2)
R_DEALER_DISCARD = 10  # knock/cutthroat: the dealer's discard after taking the upcard
R_ASK_GIVE = 11  # bid 6-ask: the card the bidder gives away
R_ASK_RECEIVE = 12  # bid 6-ask: the card the partner passes back
R_MAKER_ALONE = 13
R_DEFENDER_ALONE = 14  # seat of a lone defender, -1 if none
R_FIRST_LEADER = 15
R_DECL_TRICKS = 16  # tricks taken by the declaring side
R_ERROR = 17  # replay: an E_* code
R_ERROR_AT = 18  # replay: where (call index, or trick * 4 + position)
R_NCALLS = 19
R_CALL_SEAT = 20  # 16 slots
R_CALL = 36  # 16 slots
MAX_CALLS = 16
R_TRICK_LEADER = 52  # 12 slots
R_TRICK_WINNER = 64  # 12 slots
R_PLAYS = 76  # 12 tricks x 4 positions, in play order from the leader
R_TRICKS = 124  # tricks per seat, 4 slots
R_POINTS = 128  # points per seat, 4 slots (partners carry their team's points)
R_RENEGES = 132  # reneges per seat, 4 slots
R_ALONE_SEATS = 136  # 4-bit mask of the seats that went alone (maker and/or a defender)
R_ERROR_INFO = 137  # replay: detail of the error (the allowed calls, the seat at fault)
R_LEN = 138
MAX_TRICKS = 12

# Card masks of one hand (uint64 natural masks).
M_DEALT = 0  # 4 slots: hands as dealt (W = ghost or dummy in 3-player variants)
M_KITTY = 4  # undealt cards including the upcard
M_DUMMY_DISCARD = 5  # cutthroat: the five cards the maker dropped after taking the dummy
M_DEAD = 6  # cards out of play (discards, swapped-out hand, hands of seats that sit out)
M_PLAY = 8  # 4 slots: hands at the first lead
M_LEN = 12

# Status of a hand.
ST_PLAYED = 0
ST_ALL_PASSED = 1  # everyone passed and nobody was stuck: redeal
ST_ACE_NO_FACE = 2  # a redeal called under Ace-No-Face

# Contract flags for knock and cutthroat.
CT_MAKER_ALONE = 1
CT_DEFENDER_ALONE = 2

# Replay errors.
E_NONE = 0
E_CALL_OUT_OF_TURN = 1
E_CALL_NOT_ALLOWED = 2
E_AUCTION_SHORT = 3
E_AUCTION_LONG = 4
E_TRUMP_NOT_ALLOWED = 5
E_CARD_NOT_HELD = 6  # at = trick * 4 + position
E_ASK_RETURN = 7  # the partner's card is not their best trump
E_DISCARD_NOT_HELD = 8
E_DUMMY_DISCARD = 9
E_ALONE_NOT_ALLOWED = 10
E_SWAP_NOT_ALLOWED = 11
E_REDEAL_NOT_ALLOWED = 12
E_PLAYS_MISSING = 13  # a hand was played but cards are missing from the record
E_ASK_GIVE = 14
E_JOKER_DISCARD = 15


@njit(**JIT)
def slot_of(b):
    """Effective suit (slot 0..3, trump = 3) of normalised card bit ``b``."""
    return b >> 4


@njit(**JIT)
def legal_mask(hand, led_slot):
    """Cards of ``hand`` (normalised mask) that may be played to a trick led in ``led_slot``
    (-1 when this card leads): the cards of the led effective suit if any, else every card."""
    if led_slot < 0:
        return hand
    follow = hand & SLOT_MASKS[led_slot]
    if follow:
        return follow
    return hand


@njit(**JIT)
def card_strength(b, led_slot, double):
    """Comparable strength of normalised card ``b`` in a trick led in ``led_slot``: trumps beat
    cards of the led suit, which beat everything else (-1). The two copies of a double-deck card
    are equal."""
    s = b >> 4
    power = (b & 15) >> double
    if s == TRUMP_SLOT:
        return 64 + power
    if s == led_slot:
        return power
    return -1


@njit(**JIT)
def trick_winner(cards, n, double):
    """Position (0..n-1) of the winning card among ``cards[:n]`` (normalised bits in play
    order). Ties go to the card played first, which is the double-deck rule."""
    led = cards[0] >> 4
    best = 0
    best_strength = card_strength(cards[0], led, double)
    for i in range(1, n):
        st = card_strength(cards[i], led, double)
        if st > best_strength:
            best = i
            best_strength = st
    return best


@njit(**JIT)
def next_seat(seat, players):
    """The next seat clockwise among the playing seats (3 players: N E S; 4 players: N E S W)."""
    return (seat + 1) % players


@njit(**JIT)
def next_active(seat, active):
    """The next seat clockwise after ``seat`` whose bit is set in the 4-bit mask ``active``."""
    s = (seat + 1) & 3
    while not ((active >> s) & 1):
        s = (s + 1) & 3
    return s


@njit(**JIT)
def legal_mask_natural(hand, led_card, trump, to_norm, from_norm):
    """Natural-layout form of ``legal_mask``: the cards of natural mask ``hand`` that may be
    played when natural card ``led_card`` was led (-1: this card leads) and ``trump`` is trump."""
    led_slot = -1 if led_card < 0 else to_norm[trump, led_card] >> 4
    return denormalise_mask(legal_mask(normalise_mask(hand, to_norm[trump]), led_slot),
                            from_norm[trump])


@njit(**JIT)
def trick_winner_natural(cards, n, trump, to_norm, double):
    """Natural-layout form of ``trick_winner``: position of the winner among natural ids
    ``cards[:n]`` in play order under ``trump``."""
    bits = np.empty(n, dtype=np.int64)
    for i in range(n):
        bits[i] = to_norm[trump, cards[i]]
    return trick_winner(bits, n, double)
