"""Integer codes the kernels and the analyzer share: calls, what a variant can do (the values of
the configuration slots in ``kernels.slots.C``), the status of a hand, contract flags and the
errors a replay can find. Slot *positions* of arrays are in ``kernels.slots``.

Seats are 0..3 = N E S W clockwise. In the three-player variants seat W holds the ghost hand
or the dummy and never plays.
"""

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

# How the engine treats a record (R.MODE).
MODE_PLAY = 0  # every decision by the seats' policies
MODE_REPLAY = 1  # every decision read from the record and checked

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

MAX_CALLS = 16
MAX_TRICKS = 12
NOBODY = 255  # no seat (the upcard's holder before anyone took it)
