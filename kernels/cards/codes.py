"""Integer codes the kernels and the analyzer share: calls, what a variant can do (the values of
the configuration slots in ``kernels.slots.C``), the status of a hand, contract flags and the
errors a replay can find. Slot *positions* of arrays are in ``kernels.slots``.

Seats are 0..3 = N E S W clockwise. In the three-player variants seat W holds the ghost hand
or the dummy and never plays.
"""

from numba import njit

from ..config import NRT_FREE
from .layout import natural_suit

# Calls in an auction. Plain bids are their number of tricks (3..11), so numeric order is the
# bidding ladder: 3 < 4 < ... < ASK < MOON.
PASS = 0
ASK = 20
MOON = 21
ORDER = 30  # order up / help / accept the upcard's suit (round 1)
NAME = 40  # NAME + suit: name a suit in round 2 (or the dealer names under a turned-up joker)
SWAP = 50  # take the ghost hand

# How trump is made (C.AUCTION).
AUCTION_LADDER = 0  # one round of rising bids; the winner names trump (bid, ghost)
AUCTION_UPCARD = 1  # order the upcard's suit, then name a suit in round 2 (knock, cutthroat)

# What seat W holds in a three-player variant (C.SEAT_W).
SEAT_W_PLAYER = 0  # a fourth player (four-player variants)
SEAT_W_GHOST = 1  # a face-down hand a player may swap for before bidding
SEAT_W_DUMMY = 2  # a hand the maker may combine with their own

# Who leads the first trick (C.LEAD).
LEAD_DECLARER = 0  # the winning bidder
LEAD_LEFT_OF_DEALER = 1  # the first active seat left of the dealer
LEAD_LEFT_OF_LONE = 2  # left of the dealer, or of a lone player when someone goes alone

# How the engine runs a hand (IN.MODE, the instructions apart from the record).
MODE_PLAY = 0  # every decision by the seats' policies
MODE_REPLAY = 1  # every decision read from the record and checked
MODE_FORCED = 2  # the first IN.FORCED calls read from the record, the asker's IN.F_* choices,
#                  then the policies (a decision point played out); see kernels.slots.IN

# Where a forced run stops (IN.STOP): at the asker's first decision after the forced calls ...
STOP_NEXT = 1  # ... which must come next (another seat's call is an error)
STOP_IN_PLAY = 2  # ... the seats in between deciding by their policies

# What a stopped engine waits for (R.STOP_KIND).
STOP_CALL = 0  # the asker's call (R.ALLOWED: the calls, SWAP included where it may swap)
STOP_DISCARD = 1  # the dealer's discard after the pick-up (R.ALLOWED: the six cards)
STOP_DEFEND = 2  # a defender going alone or not
STOP_CARD = 3  # the asker's card (R.ALLOWED: its legal cards, a natural mask)
STOP_KEEP = 4  # a cutthroat maker's keep (R.ALLOWED: its cards and the dummy's)

# Status of a hand (R.STATUS).
ST_PLAYED = 0
ST_ALL_PASSED = 1  # everyone passed and nobody was stuck: redeal
ST_ACE_NO_FACE = 2  # a redeal called under Ace-No-Face

# Contract flags of the upcard auction (R.CONTRACT); a ladder contract is its winning call.
CT_MAKER_ALONE = 1
CT_DEFENDER_ALONE = 2

# Replay errors (R.ERROR).
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
E_INCONSISTENT = 16  # a forced call (or lone declaration) its seat's policy would not make
E_STOPPED = 17  # stopped at the asker's decision (not a fault: R.STOP_KIND says which)
E_NOT_ASKERS_TURN = 18  # after the forced calls another seat is to call (R.TURN)
E_NO_DECISION = 19  # the asker has no decision left in this hand

MAX_CALLS = 16
UNLIKELY_STEP = 1 << 20  # R.UNLIKELY counts -log2 of a deal's chance in steps of 1/this
MAX_TRICKS = 12
NOBODY = 255  # no seat (the upcard's holder before anyone took it)
RENEGE_PENALTY = 2  # points a side (a player, without partners) loses for a renege


@njit(**NRT_FREE)
def call_trump(call, upcard):
    """The trump an upcard auction's ``call`` makes: the upcard's suit for an order (natural
    card ``upcard``), the suit named for a name; -1 for any other call (or an order without an
    upcard). The one home of "call code -> trump": the engine's auction and the analyzer's
    options and records read it."""
    if NAME <= call < NAME + 4:
        return call - NAME
    if call == ORDER and upcard >= 0:
        return natural_suit(upcard)
    return -1
