"""Named slot layouts of the arrays the kernels pass around, one enum per array, so code reads
``rec[R.DEALER]`` and a slot name says which array it indexes. numba folds enum members to
integer constants, so they cost nothing at run time.

  C   the configuration vector (int64), built by ``analyzer.game.variants.Rules.config``
  R   a hand's record (int64 slots): what happened
  IN  how the engine is to run a hand (int64): mode, forced calls, the asker, solve or play
  M   a hand's card masks (uint64 natural masks)
  K   what the seats know during a hand (uint64; read by the PIMC player)
  TR  the trick array handed to card players
  G   one whole game's results (int64); SC a game's score lens
  TALLY  a match's tally per side and contract (int64)
  T, PR  the point count's thresholds, and one seat's parameter row (float64)
  PT, OPT, X, S  a decision point, an option row, an option's result on a deal, a scenario
  W, Q   the solver's work array and one position's spec (``MEMO_*``: its memo's size)
  DN  the bit fields of a whole deal's numbers, one int64 (``solve_hands``)
  E   the fields of the solver's partition table
  RW  a row of the decision kernel (the strategy tables)
"""

from enum import IntEnum

MAX_PLAYS = 48  # the cards of a hand's play at most: 12 tricks of 4 (the double deck)


class C(IntEnum):
    """The configuration vector: what the variant can do (``kernels.cards.codes`` values) and the
    options in force."""

    DECK = 0  # deck code (kernels.cards.layout.DECK_* flags)
    HAND = 1  # cards each player holds at the first lead (= tricks in the hand)
    PLAYERS = 2  # 3 or 4
    PARTNERS = 3  # 1: two partnerships, partners opposite
    AUCTION = 4  # AUCTION_LADDER or AUCTION_UPCARD
    SEAT_W = 5  # SEAT_W_PLAYER, SEAT_W_GHOST or SEAT_W_DUMMY
    HAS_ASK = 6  # the ladder has the n-ask ("give me your best")
    LEAD = 7  # LEAD_* rule of the first lead
    LONE_DEFENDER = 8  # a defender may go alone
    DEF_OWN_TRICKS = 9  # each defender scores their own tricks (ghost)
    STICK = 10  # stick the dealer
    ACE_NO_FACE = 11
    NAME_TURNED_DOWN = 12  # round 2 may name the turned-down suit
    DEAL = 13  # cards dealt to each hand
    KITTY = 14  # cards left undealt (the upcard on top in the upcard auction)
    MAKE = 15  # tricks an upcard-auction contract needs
    TARGET = 16  # the points that win a game
    WIN_BY = 17  # the lead a game is won by at the target (1, or 2 with win by two)
    LEN = 18


class R(IntEnum):
    """A hand's record. Cards are natural ids, -1 where there is none."""

    DEALER = 0
    STATUS = 1  # ST_*
    UPCARD = 2
    REDEAL_SEAT = 3  # Ace-No-Face caller
    JOKER_DISCARD = 4  # bid with the joker: the dealer's discard from seven cards
    SWAP_SEAT = 5  # who took the ghost hand
    TRUMP = 6
    DECLARER = 7  # the winning bidder / the maker
    CONTRACT = 8  # ladder: the winning call; upcard auction: CT_* flags
    ROUND = 9  # upcard auction: the round trump was made in (1 or 2)
    DEALER_DISCARD = 10  # the dealer's discard after taking the upcard
    ASK_GIVE = 11  # the card the n-asker gives away
    ASK_RECEIVE = 12  # the card the partner passes back
    MAKER_ALONE = 13
    DEFENDER_ALONE = 14  # seat of a lone defender, -1 if none
    FIRST_LEADER = 15
    DECL_TRICKS = 16  # tricks taken by the declaring side
    ERROR = 17  # replay: an E_* code
    ERROR_AT = 18  # replay: where (call index, or trick * 4 + position)
    NCALLS = 19
    CALL_SEAT = 20  # 16 slots
    CALL = 36  # 16 slots
    TRICK_LEADER = 52  # 12 slots
    TRICK_WINNER = 64  # 12 slots
    PLAYS = 76  # 12 tricks x 4 positions, in play order from the leader
    TRICKS = 124  # tricks per seat, 4 slots
    POINTS = 128  # points per seat, 4 slots (partners carry their team's points)
    RENEGES = 132  # reneges per seat, 4 slots
    ALONE_SEATS = 136  # 4-bit mask of the seats that went alone (maker and/or a defender)
    ERROR_INFO = 137  # replay: detail of the error (the allowed calls, the seat at fault)
    STOP_KIND = 138  # STOP_*: the decision a forced run stopped at
    ALLOWED = 139  # at a stop: the calls (or cards) the asker may choose, as a mask
    TURN = 140  # at a stop, or when it is not the asker's turn: whose turn it is
    TREMBLED = 141  # calls heard kept only as trembles in this hand (see ``IN.TREMBLE``)
    # with IN.WEIGH: how unlikely those trembles are together, -log2 of the product of their
    # chances in steps of codes.UNLIKELY_STEP (0: every call and card its seat's own)
    UNLIKELY = 142
    LEN = 143


class IN(IntEnum):
    """How the engine is to run a hand (int64, ``Agents.ins``): instructions, apart from the
    record of what happened (``R``)."""

    MODE = 0  # MODE_PLAY, MODE_REPLAY or MODE_FORCED
    # MODE_FORCED: a decision point's calls heard, the asker's choice, and what to do there
    FORCED = 1  # calls read from the record before the seats' policies take over
    ASKER = 2  # the seat whose decision is priced (-1: none)
    CHECK = 3  # 1: every forced call of another seat must be its policy's (inference)
    STOP = 4  # STOP_NEXT / STOP_IN_PLAY: stop at the asker's first decision after them
    HEARD_ALONE = 5  # 4-bit mask: makers among the forced calls who went alone
    F_ALONE = 6  # the asker's forced choices when the moment comes (-1: its policy's):
    F_DISCARD = 7  #   going alone (0/1), the dealer's discard, the card an n-asker gives,
    F_GIVE = 8  #   the trump a winning bidder names, defending alone (0/1)
    F_TRUMP = 9
    F_DEFEND = 10
    SOLVE = 11  # 1: after the exchanges the declaring side's tricks come from the solver
    # with CHECK, a forced call another seat's strategy would not make may still be kept:
    TREMBLE = 12  # the chance, per million, of another legal call (or card: CHECK_PLAY); 0: never
    TREMBLE_KEY = 13  # the random key of this try's tremble draws (kernels.deal.record.tolerated)
    # MODE_FORCED in play: the cards played before the asker's decision, and its own choices
    FORCED_PLAYS = 14  # plays read from PLAYS before the seats' policies take over
    F_CARD = 15  # the asker's card at its play decision (-1: its policy's)
    F_DROP = 16  # the cutthroat maker's cards dropped from its hand and the dummy (0: policy's)
    NAMED = 17  # the trump a ladder auction's winner named, when known (-1: its choice)
    CONJURE = 18  # 1: another seat's forced play needs no card held (the others' hands are not
    #               dealt: a point opened for its turn and legal cards); voids still hold
    PLAYS = 19  # MAX_PLAYS slots: seat << 8 | natural card, in play order from the first lead
    # with CHECK_PLAY, a forced card another seat's heuristic play would not choose is kept
    # only as a tremble (TREMBLE, kernels.hand.tricks), like a call with CHECK
    CHECK_PLAY = 19 + MAX_PLAYS
    # 1: a tremble is always kept and weighs the deal by its chance (R.UNLIKELY) instead of
    # a draw keeping it with that chance: exact mode's layouts are weighed, never drawn
    WEIGH = 20 + MAX_PLAYS
    F_RECEIVE = 21 + MAX_PLAYS  # the card the asker, an n-asker, was passed (-1: not known)
    LEN = 22 + MAX_PLAYS


class M(IntEnum):
    """A hand's card masks (uint64 natural masks)."""

    DEALT = 0  # 4 slots: hands as dealt (W = ghost hand or dummy in 3-player variants)
    KITTY = 4  # undealt cards including the upcard
    DUMMY_DISCARD = 5  # the five cards the maker dropped after taking the dummy
    DEAD = 6  # cards out of play (discards, a swapped-out hand, hands that sit out)
    PLAY = 8  # 4 slots: hands at the first lead
    LEN = 12


class K(IntEnum):
    """What the seats know (uint64): public facts and each seat's private dead cards."""

    PLAYED = 0  # normalised mask of every card played so far (the current trick included)
    DECK = 1  # normalised mask of the deck
    VOIDS = 2  # 4 slots: per seat, bits of the suits (slots) it has shown out of
    UP_HOLDER = 6  # seat that took the upcard (NOBODY: nobody)
    UPCARD = 7  # the upcard (natural during bidding, normalised during play)
    DEAD = 8  # 4 slots: per seat, cards it knows are out of play (natural, then normalised)
    PLAYED_BY = 12  # 4 slots: per seat, the cards it has played (normalised)
    LEN = 16


class TR(IntEnum):
    """The trick array (int64) the engine hands to card players."""

    LEADER = 0
    COUNT = 1  # cards on the table
    CARDS = 2  # 4 normalised bits in play order
    SEATS = 6  # 4 seats in play order
    NUMBER = 10
    DECL_WON = 11
    ACTIVE = 12
    DECLARER = 13
    NEEDS = 14  # tricks the declaring side's contract needs
    TRICKS = 15  # tricks in the hand
    SEATED = 16  # seats dealt in (3 or 4: a seat of them that does not play sits out)
    DOUBLE = 17  # 1: the double deck (equal cards: the first played wins)
    DEALER = 18
    CONTRACT = 19  # the contract (R.CONTRACT)
    ROUND = 20  # the round trump was made in (upcard auction; 0 in a ladder)
    UPCARD = 21  # the upcard, normalised (-1: none)
    LEN = 22


class SC(IntEnum):
    """Slots of a game's score lens (int64 ``kernels.drivers.games.Lens.geom``): how the kernel
    finds, before each hand, every seat's ``PR.WORTH`` in the lens's table of the score states
    (``analyzer.strategy.score_lens.game_lens``; the box of
    ``analyzer.game.match_equity.ScoreRules``)."""

    ON = 0  # 1: some seat plays to the score (0: the games are played score-blind)
    UNITS = 1  # teams or players
    LOW = 2  # the lowest score the box keeps (a lower score counts as it)
    HIGH = 3  # the highest (a game beyond it is moved down whole)
    OUTCOMES = 4  # outcomes of a hand (PR.OUTCOMES)
    LEN = 5


class G(IntEnum):
    """Slots of one game's results (int64)."""

    WINNER_IS_A = 0
    HANDS = 1
    POINTS_A = 2
    POINTS_B = 3
    REDEALS = 4
    LEN = 5


class TALLY(IntEnum):
    """A match's tally, ``tally[side, contract code, TALLY.*]`` (side 0 = A, 1 = B; the contract
    code of ``kernels.drivers.games.contract_code``): per side and contract, over the hands it
    declared."""

    DECLARED = 0  # hands declared
    MADE = 1  # contracts made
    MARCHED = 2  # hands in which the declaring side took every trick
    NET = 3  # points to the declaring side less the points to the others, summed
    ALONE = 4  # hands the declarer played alone (the partner, or the dummy, sat out)
    LEN = 5


# ---- bidding


class T(IntEnum):
    """The calls a point-count threshold is for (``threshold``)."""

    BID3 = 0
    BID4 = 1
    BID5 = 2
    ASK = 3
    MOON = 4
    ORDER = 5  # round 1 (the upcard's points counted for the dealer's side, ``order_points``)
    ORDER_ALONE = 6
    NAME = 7  # round 2
    NAME_ALONE = 8
    DEFEND_ALONE = 9
    SWAP_BELOW = 10  # swap for the ghost hand when the best suit is worth less than this
    COUNT = 11


class PR(IntEnum):
    """Slots of one seat's parameter row (float64)."""

    WORLDS = 0  # pimc: worlds sampled per card
    VOID = 1  # points per side-suit void ...
    VOID_MIN = 2  # ... when holding at least this many trumps
    UP_DEALER = 3  # round 1: the dealer counts the upcard in, less this (its discard)
    UP_PARTNER = 4  # the dealer's partner counts this share of the upcard's points
    UP_OPPONENT = 5  # an opponent of the dealer subtracts this share
    FITTED = 6  # 1: the analyzer prices upcard-auction calls by its fitted model (``MODEL``)
    ALONE_MARGIN = 7  # the analyzer goes alone when that gains this much over the partner's help
    TH = 8  # thresholds: 4 places x T.COUNT
    PTS = 8 + 4 * 11  # card points: 4 trump suits x 64 cards
    STRAT = 8 + 4 * 11 + 256  # the analyzer's table: options x contexts x bins
    MODEL = 8 + 4 * 11 + 256 + 8 * 256 * 33  # the fitted model: FM.MODELS x FM.LEN weights
    # playing to the score (``kernels.bidding.bidding.score_value``): the strategy's part ...
    TO_SCORE = 8 + 4 * 11 + 256 + 8 * 256 * 33 + 6 * (256 + 2 * 16 * 28)  # 1: it plays to
    #   the score whenever it knows it (the analyzer; 0: score-blind, as every other strategy)
    OUTCOMES = TO_SCORE + 1  # how many outcomes a hand has (the rule set's list, LENS_K at most)
    LENS_LOW = TO_SCORE + 2  # the net points of the lens's first value bin ...
    LENS_STEP = TO_SCORE + 3  # ... the width of a bin ...
    LENS_BINS = TO_SCORE + 4  # ... and how many (LENS_BIN_MAX at most)
    # ... and the game's: what the seat knows of the score of this hand
    SCORED = TO_SCORE + 5  # 1: the score is known, WORTH holds it (0: no score, score-blind)
    SLOPE = TO_SCORE + 6  # the chance of winning a net point of the hand is worth at this
    #   score (the table's value of a call counts at this rate; WORTH holds the rest)
    WORTH = TO_SCORE + 8  # LENS_K slots: the chance that the seat's side (or the seat) wins
    #   the game after each outcome of this hand, at the game's score with this hand's dealer
    LENS = TO_SCORE + 8 + 48  # the chance of each outcome after a call: [LENS_KINDS kinds,
    #   4 places, LENS_BIN_MAX value bins, LENS_K outcomes] (analyzer.strategy.score_lens)
    # the analyzer card player's weights (kernels.play.analyzer_player; PLAY_LEN slots at most)
    PLAY = TO_SCORE + 8 + 48 + 8 * 4 * 48 * 48
    # ... and, in the region's last slot, the network's fingerprint (0: none): seats whose
    # fingerprints agree read one copy of it (kernels.hand.tricks.network_rows)
    PLAY_ID = TO_SCORE + 8 + 48 + 8 * 4 * 48 * 48 + 180_000 - 1
    LEN = TO_SCORE + 8 + 48 + 8 * 4 * 48 * 48 + 180_000


PLAY_LEN = 180_000  # PR.PLAY's slots: room for the card player's network


LENS_KINDS = 8  # the calls the lens tells apart: a ladder's L_* options; the upcard auction's
#   six calls (FM.R1_ORDER ... FM.R2_PASS)
LENS_BIN_MAX = 48  # value bins a kind and place has at most
LENS_K = 48  # outcomes of a hand at most (knock 7, cutthroat 13, bid 48; ghost and the double
#   deck have more: they stay score-blind)


class FM(IntEnum):
    """The analyzer's fitted model of the upcard auction (``kernels.bidding.upcard_model``): one
    linear model of the net points of each call, its weights at ``PR.MODEL + model * LEN``."""

    R1_ORDER = 0
    R1_ALONE = 1
    R1_PASS = 2
    R2_NAME = 3
    R2_NAME_ALONE = 4
    R2_PASS = 5
    MODELS = 6
    FEATURES = 28  # of a hand for a trump: 18 card classes, voids, top trumps x length, bowers,
    # 5 of the side suits' shape (kernels.bidding.upcard_model.hand_features)
    BLOCKS = 16  # the features' weights differ by the seat's place and the trump bucket
    CONTEXTS = 256  # one intercept per context of the table (round1/round2_context)
    LEN = 256 + 2 * 16 * 28  # intercepts, the hand's features by block, another suit's by block


# ---- query


class PT(IntEnum):
    """Slots of a decision point (int64): the calls heard before the asker's turn."""

    DEALER = 0
    ASKER = 1
    NCALLS = 2  # calls heard
    HEARD_ALONE = 3  # 4-bit mask: makers among them who went alone
    CHECK = 4  # 1: deal consistent with the calls heard (inference)
    SOLVE = 5  # 1: the tricks by the double-dummy solver, not by card play (the one signal)
    CALL_SEAT = 6  # 16 slots
    CALL = 22  # 16 slots
    TREMBLE = 38  # with CHECK: the chance, per million, of a call the strategy would not make
    UPCARD = 39  # the card turned up (-1: none)
    # a point in the play: what the asker saw and did since the auction
    NAMED = 40  # the trump a ladder auction's winner named (-1: not known, the play not begun)
    OWN_DISCARD = 41  # the asker's own discard as the dealer (-1: none)
    OWN_GIVE = 42  # the card the asker gave in an n-ask (-1: none)
    OWN_DROP = 43  # the cards the asker, a cutthroat maker, dropped (a natural mask; 0: none)
    NPLAYS = 44  # cards played so far
    PLAYS = 45  # MAX_PLAYS slots: seat << 8 | natural card, in play order from the first lead
    CHECK_PLAY = 45 + MAX_PLAYS  # 1: with CHECK, deals weighed by the cards heard played too
    OWN_RECEIVE = 46 + MAX_PLAYS  # the card the asker was passed in its n-ask (-1: none)
    LEN = 47 + MAX_PLAYS


class OPT(IntEnum):
    """Slots of an option row (int64; -1: the seat's policy decides)."""

    CALL = 0  # the asker's call (-1: none, the decision comes after the auction)
    ALONE = 1
    DISCARD = 2
    GIVE = 3
    TRUMP = 4
    DEFEND = 5
    CARD = 6  # the asker's card at a play decision
    DROP = 7  # the cards a cutthroat maker drops (a natural mask; 0: its policy's)
    LEN = 8


class X(IntEnum):
    """Slots of an option's result on one deal (int8)."""

    STATUS = 0  # ST_* of the hand, or -1 when the option could not be played
    DECLARER = 1
    CONTRACT = 2
    ROUND = 3
    TRICKS = 4  # the declaring side's tricks
    AUX = 5  # the card received in an n-ask, else the dealer's discard (-1: none)
    LEN = 6


class S(IntEnum):
    """Slots of a scenario row (int64)."""

    TRUMP = 0
    DECLARER = 1
    ACTIVE = 2
    DECL = 3
    LEADER = 4
    NUMBER = 5  # its number among the question's scenarios, when OF > 0
    OF = 6  # how many the question has (0: this row's place in the array and its length):
    # a row's play stream is (deal * OF + NUMBER), so a question that stops playing some
    # rows (racing the trick table) plays the others exactly as a full run does
    LEN = 7


# ---- solver

MAX_TRICKS_DEEP = 14  # the tricks one search nests at most: W's move lists have room for them
MEMO_ENTRIES = 32  # answers solve_exact remembers: a deal's options often end alike
MEMO_WORDS = 6


class W(IntEnum):
    """Slots of the solver's per-thread work array ``w`` (uint64)."""

    HANDS = 0  # 4 hand masks
    ACTIVE = 4
    DECL = 5
    DOUBLE = 6
    NACTIVE = 7
    TT_MASK = 8
    STAMP = 9
    NODES = 10
    PROBES = 11
    MEMO_NEXT = 12  # the memo entry the next new answer goes to
    REL = 13  # the cards that decided the answer _trick (or a cut-off) just returned
    MOVES = 16  # move lists: 16 per play, 4 plays per trick, MAX_TRICKS_DEEP tricks
    MEMO = MOVES + 64 * MAX_TRICKS_DEEP  # MEMO_ENTRIES answers of solve_exact: 4 hands, key, tricks
    HISTORY = MEMO + MEMO_ENTRIES * MEMO_WORDS  # the leads that cut, by seat and card
    SOLVES = HISTORY + 4 * 64  # searches solve_exact ran (a thread's count, never reset)
    MEMO_HITS = SOLVES + 1  # answers solve_exact found in its memo (likewise)
    MEMO_OFF = SOLVES + 2  # 1: solve_exact searches every time (tests compare the answers)
    LEN = SOLVES + 3


class Q(IntEnum):
    """Slots of the int64 ``spec`` of one position for ``solve_one`` and ``values_one``."""

    TRUMP = 0
    LEADER = 1  # who leads, or led, the current trick
    ACTIVE = 2  # 4-bit mask of the seats that play
    DECL = 3  # 4-bit mask of the declaring side
    N_TABLE = 4  # cards already on the table in the current trick
    TARGET = 5  # k >= 0: "at least k tricks still to come?"; -1: how many
    DOUBLE = 6  # the double-deck flag
    LEN = 7


class DN(IntEnum):
    """The lowest bit of each field of the one int64 ``numbers`` of a whole deal for
    ``solve_hands`` (a bot's one-deal call passes plain ints, no arrays to fill)."""

    TRUMP = 0  # 2 bits
    LEADER = 2  # 2 bits: who leads the first trick
    ACTIVE = 4  # 4 bits: the seats that play
    DECL = 8  # 4 bits: the declaring side
    DOUBLE = 12  # 1 bit: the double-deck flag
    HAND_SIZE = 13  # 5 bits: the cards each seat that plays holds


# ---- partition_table


class E(IntEnum):
    """Fields of the table, ``tt[bucket, field, way]``: each field of a bucket's entries is
    contiguous, so a lookup compares a whole bucket at once (the compiler vectorises it)."""

    SHAPE = 0  # 4 bits a (hand, suit): 16 lengths
    CTX = 1  # leader | active << 2 | decl << 6 | double-deck class counts << 10 | stamp << 26
    REGION = 2  # the region as a mask over the owner planes (see position_key)
    OWNERS = 3  # 3 words: the owner planes of the position, masked by the region
    DATA = 6  # weight << 24 | best lead + 1 << 16 | lower bound << 8 | upper bound
    FILL = 7  # of the bucket, not an entry: way 0 the entries in use (ways 0 .. n-1), way 1
    #   the deal generation that count is of (an older one: none in use)
    FIELDS = 8


# ---- decisions


class RW(IntEnum):
    """Slots of one row (int16: contexts run to 255)."""

    POINT = 0  # 0: N's first call; 1: its round-2 call
    OPTION = 1  # the analyzer table's option (L_* or U_*)
    CONTEXT = 2
    TRUMP = 3  # the suit N's hand features are read for
    VALUE = 4  # the strategy's value of the call in net points (its table's or model's, the
    #   lone margin not taken), in 1/VALUE_SCALE of a point, clipped to the int16 range
    RESULT = 5  # X.LEN slots: how the hand ended
    LEN = 5 + 6


VALUE_SCALE = 256  # RW.VALUE's fixed point: +-128 net points in an int16
