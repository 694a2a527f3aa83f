"""The hand engine: deal, bidding (ghost swap, upcard rounds, auction), exchanges (6-ask, dealer
pick-up and discard, dummy combination, going alone), the tricks, and the points.

One function plays one hand into a record (``rec`` int64 slots and ``hm`` uint64 masks, see
``kernels.rules``). With ``replay`` set it does not ask policies: it reads every decision from
the record, checks it, and stops at the first illegal one with an ``E_*`` code in
``rec[R_ERROR]``; a card that fails to follow suit is kept and counted as a renege.
``play_batch`` plays many hands in parallel with no Python in the loop.
"""

import numpy as np
from numba import get_thread_id, njit, prange

from .bidding import N_PARAMS
from .bits import highest_bit, lowest_bit, popcount
from .config import JIT, PARALLEL_JIT
from .layout import (
    DECK_DOUBLE,
    JOKER,
    RANK_A,
    RANK_J,
    RANK_K,
    RANK_Q,
    SLOT_MASKS,
    TRUMP_SLOT,
    deck_mask,
    deck_natural_ids,
    normalise_mask,
)
from .pimc import K_DEAD, K_DECK, K_LEN, K_PLAYED, K_UP_HOLDER, K_UPCARD, K_VOIDS, NOBODY
from .play_heuristic import heuristic_card
from .policies import (
    K_ASK_GIVE,
    K_ASK_RETURN,
    K_DISCARD,
    K_JOKER_DISCARD,
    P_HEURISTIC,
    P_RANDOM,
    PLAY,
    Q_ACE_NO_FACE,
    Q_ALONE,
    Q_DEFEND_ALONE,
    Q_SWAP,
    Agents,
    choose_call,
    choose_card_from,
    choose_card_solving,
    choose_dummy_discard,
    choose_trump,
    choose_yes_no,
)
from .rng import STREAM_DEAL, STREAM_PLAY, random_set_bit, reseed, shuffle, stream_state
from .rules import (
    ASK,
    BID,
    C_ACE_NO_FACE,
    C_DEAL,
    C_DECK,
    C_HAND,
    C_KITTY,
    C_LONE_DEFENDER,
    C_NAME_TURNED_DOWN,
    C_PLAYERS,
    C_STICK,
    C_VARIANT,
    CT_DEFENDER_ALONE,
    CT_MAKER_ALONE,
    CUTTHROAT,
    E_ALONE_NOT_ALLOWED,
    E_ASK_GIVE,
    E_ASK_RETURN,
    E_AUCTION_LONG,
    E_AUCTION_SHORT,
    E_CALL_NOT_ALLOWED,
    E_CALL_OUT_OF_TURN,
    E_CARD_NOT_HELD,
    E_DISCARD_NOT_HELD,
    E_DUMMY_DISCARD,
    E_JOKER_DISCARD,
    E_PLAYS_MISSING,
    E_REDEAL_NOT_ALLOWED,
    E_SWAP_NOT_ALLOWED,
    E_TRUMP_NOT_ALLOWED,
    GHOST,
    KNOCK,
    M_DEAD,
    M_DEALT,
    M_DUMMY_DISCARD,
    M_KITTY,
    M_LEN,
    M_PLAY,
    MAX_CALLS,
    MOON,
    NAME,
    ORDER,
    PASS,
    R_ALONE_SEATS,
    R_ASK_GIVE,
    R_ASK_RECEIVE,
    R_CALL,
    R_CALL_SEAT,
    R_CONTRACT,
    R_DEALER,
    R_DEALER_DISCARD,
    R_DECL_TRICKS,
    R_DECLARER,
    R_DEFENDER_ALONE,
    R_ERROR,
    R_ERROR_AT,
    R_ERROR_INFO,
    R_FIRST_LEADER,
    R_JOKER_DISCARD,
    R_LEN,
    R_MAKER_ALONE,
    R_NCALLS,
    R_PLAYS,
    R_POINTS,
    R_REDEAL_SEAT,
    R_RENEGES,
    R_ROUND,
    R_STATUS,
    R_SWAP_SEAT,
    R_TRICK_LEADER,
    R_TRICK_WINNER,
    R_TRICKS,
    R_TRUMP,
    R_UPCARD,
    ST_ACE_NO_FACE,
    ST_ALL_PASSED,
    ST_PLAYED,
    SWAP,
    card_strength,
    legal_mask,
    next_active,
    next_seat,
)
from .solver import TT_WORDS, W_LEN, W_TT_MASK

ONE = np.uint64(1)

# Layout of the ``trick`` array handed to card policies.
TRICK_LEADER = 0
TRICK_COUNT = 1
TRICK_CARDS = 2  # 4 normalised bits in play order
TRICK_SEATS = 6  # 4 seats in play order
TRICK_NUMBER = 10
TRICK_DECL_WON = 11
TRICK_ACTIVE = 12
TRICK_DECLARER = 13
TRICK_LEN = 14


@njit(**JIT)
def card_bit(card):
    """uint64 mask of natural card id ``card``."""
    return ONE << np.uint64(card)


@njit(**JIT)
def natural_suit(card):
    """Printed suit of natural card id ``card`` (the joker has none: -1)."""
    if card == JOKER:
        return -1
    return (card & 31) >> 3


@njit(**JIT)
def is_ace_no_face(hand):
    """Ace-No-Face: the natural mask ``hand`` holds at least one ace and no J, Q or K."""
    aces = np.uint64(0)
    faces = np.uint64(0)
    for s in range(4):
        for copy in range(2):
            base = np.uint64(copy * 32 + s * 8)
            aces |= ONE << (base + np.uint64(RANK_A))
            faces |= (ONE << (base + np.uint64(RANK_J))) | (ONE << (base + np.uint64(RANK_Q)))
            faces |= ONE << (base + np.uint64(RANK_K))
    aces &= ~card_bit(JOKER)
    faces &= ~card_bit(JOKER)
    return (hand & aces) != 0 and (hand & faces) == 0


@njit(**JIT)
def deal_hand(cfg, seed, index, dealer, hm, rec, deck_ids, cards, state):
    """Deal hand ``index`` of stream ``seed`` into ``hm``/``rec`` (cleared): a shuffle of the
    whole deck ``deck_ids`` from the counter-based generator, ``C_DEAL`` cards to each of the
    four hands (seat W holds the ghost hand or the dummy in the 3-player variants), the rest to
    the kitty with the upcard on top. ``cards`` (as long as the deck) and ``state`` (one uint64)
    are scratch."""
    cards[:] = deck_ids
    reseed(state, seed, STREAM_DEAL, index)
    shuffle(state, cards)
    reset_record(hm, rec)
    rec[R_DEALER] = dealer
    deal = cfg[C_DEAL]
    k = 0
    for seat in range(4):
        m = np.uint64(0)
        for _ in range(deal):
            m |= card_bit(cards[k])
            k += 1
        hm[M_DEALT + seat] = m
    kitty = np.uint64(0)
    for i in range(k, cards.shape[0]):
        kitty |= card_bit(cards[i])
    hm[M_KITTY] = kitty
    if cfg[C_VARIANT] == KNOCK or cfg[C_VARIANT] == CUTTHROAT:
        rec[R_UPCARD] = cards[k]


@njit(**JIT)
def reset_record(hm, rec):
    """Clear a record: every card slot -1, counters 0."""
    hm[:] = 0
    rec[:] = 0
    for i in range(R_LEN):
        rec[i] = -1
    rec[R_STATUS] = ST_PLAYED
    rec[R_NCALLS] = 0
    rec[R_ERROR] = 0
    rec[R_DECL_TRICKS] = 0
    rec[R_MAKER_ALONE] = 0
    rec[R_ALONE_SEATS] = 0
    for s in range(4):
        rec[R_TRICKS + s] = 0
        rec[R_POINTS + s] = 0
        rec[R_RENEGES + s] = 0


@njit(**JIT)
def _fail(rec, code, at):
    rec[R_ERROR] = code
    rec[R_ERROR_AT] = at
    return False


@njit(**JIT)
def _call(ag, seat, allowed, hands, cfg, rec, replay, j):
    """Make (or, replaying, read and check) call number ``j`` by ``seat``. Returns the call or
    -1 after recording an error."""
    if j >= MAX_CALLS:
        _fail(rec, E_AUCTION_LONG, j)
        return -1
    if replay:
        if j >= rec[R_NCALLS]:
            _fail(rec, E_AUCTION_SHORT, j)
            return -1
        if rec[R_CALL_SEAT + j] != seat:
            _fail(rec, E_CALL_OUT_OF_TURN, j)
            rec[R_ERROR_INFO] = seat
            return -1
        c = rec[R_CALL + j]
        if c < 0 or c >= 64 or not ((allowed >> np.uint64(c)) & ONE):
            _fail(rec, E_CALL_NOT_ALLOWED, j)
            rec[R_ERROR_INFO] = np.int64(allowed)
            return -1
        return c
    c = choose_call(ag.policies[seat, 0], ag.params, ag.rng, seat, allowed, hands[seat],
                    cfg[C_VARIANT], cfg[C_HAND], cfg[C_PLAYERS], rec[R_UPCARD], rec[R_DEALER])
    rec[R_CALL_SEAT + j] = seat
    rec[R_CALL + j] = c
    rec[R_NCALLS] = j + 1
    return c


@njit(**JIT)
def held_copy(mask, card, cfg):
    """``card`` if natural mask ``mask`` holds it; in the double deck the other copy of the card
    if only that one is held (a record cannot tell the copies apart); else -1."""
    if card < 0 or card >= 64:
        return -1
    if mask & card_bit(card):
        return card
    if (cfg[C_DECK] & DECK_DOUBLE) and (mask & card_bit(card ^ 32)):
        return card ^ 32
    return -1


@njit(**JIT)
def _pick_card(ag, seat, purpose, candidates, hands, cfg, rec, replay, slot, error, lay):
    """Choose (or read and check) a natural card from ``candidates`` into ``rec[slot]``."""
    if replay:
        c = held_copy(candidates, rec[slot], cfg)
        if c < 0:
            return _fail(rec, error, slot)
        rec[slot] = c
        return True
    rec[slot] = choose_card_from(ag.policies[seat, 0], ag.rng, purpose, candidates,
                                 rec[R_TRUMP], lay[0], lay[1])
    return True


@njit(**JIT)
def _ladder(cfg):
    """uint64 mask of the bids of the variant's ladder (3 .. hand-1, ask and moon in bid;
    3 .. 5 and moon in ghost)."""
    m = np.uint64(0)
    for k in range(3, cfg[C_HAND]):
        m |= ONE << np.uint64(k)
    if cfg[C_VARIANT] == BID:
        m |= ONE << np.uint64(ASK)
    m |= ONE << np.uint64(MOON)
    return m


@njit(**JIT)
def _auction_bid(ag, hands, cfg, hm, rec, replay):
    """Bid and ghost: one round of bids from the dealer's left (ghost: with the swap). Returns
    False if the hand ends here (redeal or a replay error)."""
    players = cfg[C_PLAYERS]
    dealer = rec[R_DEALER]
    ladder = _ladder(cfg)
    seat = next_seat(dealer, players)
    current = PASS
    winner = -1
    j = 0
    for _ in range(players):
        if cfg[C_VARIANT] == GHOST and rec[R_SWAP_SEAT] < 0:
            if replay:
                swap = j < rec[R_NCALLS] and rec[R_CALL + j] == SWAP
                if swap and rec[R_CALL_SEAT + j] != seat:
                    rec[R_ERROR_INFO] = seat
                    return _fail(rec, E_CALL_OUT_OF_TURN, j)
            else:
                swap = choose_yes_no(ag.policies[seat, 0], ag.params, ag.rng, seat, Q_SWAP,
                                     hands[seat], -1, -1, dealer, players)
                if swap:
                    rec[R_CALL_SEAT + j] = seat
                    rec[R_CALL + j] = SWAP
                    rec[R_NCALLS] = j + 1
            if swap:
                hm[M_DEAD] |= hands[seat]
                ag.know[K_DEAD + seat] |= hands[seat]
                hands[seat] = hands[3]
                hands[3] = 0
                rec[R_SWAP_SEAT] = seat
                j += 1
        elif replay and j < rec[R_NCALLS] and rec[R_CALL + j] == SWAP:
            return _fail(rec, E_SWAP_NOT_ALLOWED, j)
        allowed = ladder & ~((ONE << np.uint64(current + 1)) - ONE)
        stuck = cfg[C_STICK] == 1 and seat == dealer and winner < 0
        if not stuck:
            allowed |= ONE << np.uint64(PASS)
        c = _call(ag, seat, allowed, hands, cfg, rec, replay, j)
        if c < 0:
            return False
        j += 1
        if c != PASS:
            current = c
            winner = seat
        seat = next_seat(seat, players)
    if replay and j < rec[R_NCALLS]:
        return _fail(rec, E_AUCTION_LONG, j)
    rec[R_NCALLS] = j
    if winner < 0:
        rec[R_STATUS] = ST_ALL_PASSED
        return False
    rec[R_DECLARER] = winner
    rec[R_CONTRACT] = current
    if replay:
        t = rec[R_TRUMP]
        if t < 0 or t > 3:
            return _fail(rec, E_TRUMP_NOT_ALLOWED, 0)
    else:
        rec[R_TRUMP] = choose_trump(ag.policies[winner, 0], ag.params, ag.rng, winner, 15,
                                    hands[winner], current)
    return True


@njit(**JIT)
def _auction_upcard(ag, hands, cfg, hm, rec, replay, lay):
    """Knock and cutthroat: round 1 on the upcard, round 2 naming a suit (the dealer stuck when
    the option is on), the dealer's pick-up and discard. Returns False if the hand ends."""
    players = cfg[C_PLAYERS]
    dealer = rec[R_DEALER]
    up = rec[R_UPCARD]
    up_suit = natural_suit(up)
    j = 0
    maker = -1
    if up == JOKER:
        # British rule: the dealer names trump before looking; it counts as taking the upcard.
        c = _call(ag, dealer, np.uint64(0xF) << np.uint64(NAME), hands, cfg,
                  rec, replay, j)
        if c < 0:
            return False
        j += 1
        maker = dealer
        rec[R_TRUMP] = c - NAME
        rec[R_ROUND] = 1
    else:
        seat = next_seat(dealer, players)
        round1 = (ONE << np.uint64(PASS)) | (ONE << np.uint64(ORDER))
        for _ in range(players):
            c = _call(ag, seat, round1, hands, cfg, rec, replay, j)
            if c < 0:
                return False
            j += 1
            if c == ORDER:
                maker = seat
                rec[R_TRUMP] = up_suit
                rec[R_ROUND] = 1
                break
            seat = next_seat(seat, players)
        if maker < 0:
            names = np.uint64(0)
            for s in range(4):
                if s != up_suit or cfg[C_NAME_TURNED_DOWN] == 1:
                    names |= ONE << np.uint64(NAME + s)
            seat = next_seat(dealer, players)
            for _ in range(players):
                allowed = names
                if not (cfg[C_STICK] == 1 and seat == dealer):
                    allowed |= ONE << np.uint64(PASS)
                c = _call(ag, seat, allowed, hands, cfg, rec, replay, j)
                if c < 0:
                    return False
                j += 1
                if c != PASS:
                    maker = seat
                    rec[R_TRUMP] = c - NAME
                    rec[R_ROUND] = 2
                    break
                seat = next_seat(seat, players)
    if replay and j < rec[R_NCALLS]:
        return _fail(rec, E_AUCTION_LONG, j)
    rec[R_NCALLS] = j
    if maker < 0:
        rec[R_STATUS] = ST_ALL_PASSED
        return False
    rec[R_DECLARER] = maker
    if rec[R_ROUND] == 1:
        hands[dealer] |= card_bit(up)
        ag.know[K_UP_HOLDER] = dealer
        ag.know[K_UPCARD] = up
        if not _pick_card(ag, dealer, K_DISCARD, hands[dealer], hands, cfg, rec, replay,
                          R_DEALER_DISCARD, E_DISCARD_NOT_HELD, lay):
            return False
        d = card_bit(rec[R_DEALER_DISCARD])
        hands[dealer] &= ~d
        hm[M_DEAD] |= d
        ag.know[K_DEAD + dealer] |= d
    return True


@njit(**JIT)
def _decide(ag, seat, question, hands, cfg, rec, replay, recorded):
    """A yes/no decision: the policy's, or when replaying the recorded answer."""
    if replay:
        return recorded
    return choose_yes_no(ag.policies[seat, 0], ag.params, ag.rng, seat, question, hands[seat],
                         rec[R_TRUMP], rec[R_UPCARD], rec[R_DEALER], cfg[C_PLAYERS])


@njit(**JIT)
def _best_trump(hand, trump, to_norm, from_norm):
    """Natural id of the best trump in natural mask ``hand`` under ``trump``, or -1."""
    nh = normalise_mask(hand, to_norm[trump]) & SLOT_MASKS[TRUMP_SLOT]
    if nh == 0:
        return -1
    return from_norm[trump, highest_bit(nh)]


@njit(**JIT)
def _exchanges(ag, hands, cfg, hm, rec, replay, to_norm, from_norm):
    """Everything between trump and the first lead: the 6-ask exchange, the dummy, going alone.
    Returns the 4-bit mask of seats that play, or -1 after a replay error."""
    variant = cfg[C_VARIANT]
    decl = rec[R_DECLARER]
    trump = rec[R_TRUMP]
    players = cfg[C_PLAYERS]
    active = 15 if players == 4 else 7
    if variant == BID or variant == GHOST:
        if variant == BID and (rec[R_CONTRACT] == ASK or rec[R_CONTRACT] == MOON):
            partner = (decl + 2) & 3
            if rec[R_CONTRACT] == ASK:
                if not _pick_card(ag, decl, K_ASK_GIVE, hands[decl], hands, cfg,
                                  rec, replay, R_ASK_GIVE, E_ASK_GIVE, (to_norm, from_norm)):
                    return -1
                best = _best_trump(hands[partner], trump, to_norm, from_norm)
                if best >= 0:
                    if replay and held_copy(card_bit(best), rec[R_ASK_RECEIVE], cfg) < 0:
                        _fail(rec, E_ASK_RETURN, 0)
                        return -1
                    rec[R_ASK_RECEIVE] = best
                elif not _pick_card(ag, partner, K_ASK_RETURN, hands[partner],
                                    hands, cfg, rec, replay, R_ASK_RECEIVE, E_ASK_RETURN,
                                    (to_norm, from_norm)):
                    return -1
                give = card_bit(rec[R_ASK_GIVE])
                ag.know[K_DEAD + decl] |= give
                get = card_bit(rec[R_ASK_RECEIVE])
                hands[decl] = (hands[decl] & ~give) | get
                hands[partner] = (hands[partner] & ~get) | give
            hm[M_DEAD] |= hands[partner]
            active &= ~(1 << partner)
        elif replay and (rec[R_ASK_GIVE] >= 0 or rec[R_ASK_RECEIVE] >= 0):
            _fail(rec, E_ASK_GIVE, 0)
            return -1
        if replay and rec[R_ALONE_SEATS] > 0:
            _fail(rec, E_ALONE_NOT_ALLOWED, 0)
            return -1
        rec[R_ALONE_SEATS] = 0
        return active
    # knock and cutthroat
    contract = 0
    if replay:
        lone = rec[R_ALONE_SEATS] & ~(1 << decl)
        rec[R_DEFENDER_ALONE] = -1
        if lone != 0:
            rec[R_DEFENDER_ALONE] = 0
            while not ((lone >> rec[R_DEFENDER_ALONE]) & 1):
                rec[R_DEFENDER_ALONE] += 1
            if lone != (1 << rec[R_DEFENDER_ALONE]):
                _fail(rec, E_ALONE_NOT_ALLOWED, 1)
                return -1
    alone = _decide(ag, decl, Q_ALONE, hands, cfg, rec, replay,
                    ((rec[R_ALONE_SEATS] >> decl) & 1) == 1)
    rec[R_MAKER_ALONE] = 1 if alone else 0
    if alone:
        contract |= CT_MAKER_ALONE
        if variant == KNOCK:
            partner = (decl + 2) & 3
            hm[M_DEAD] |= hands[partner]
            active &= ~(1 << partner)
    if variant == CUTTHROAT:
        if not alone:
            combined = hands[decl] | hands[3]
            keep = cfg[C_HAND]
            if replay:
                dropped = hm[M_DUMMY_DISCARD]
                if (dropped & ~combined) != 0 or popcount(dropped) != popcount(combined) - keep:
                    _fail(rec, E_DUMMY_DISCARD, 0)
                    return -1
            else:
                dropped = choose_dummy_discard(ag.policies[decl, 0], ag.rng, combined, keep,
                                               trump, to_norm, from_norm)
                hm[M_DUMMY_DISCARD] = dropped
            hands[decl] = combined & ~dropped
            hm[M_DEAD] |= dropped
            ag.know[K_DEAD + decl] |= dropped
        else:
            hm[M_DEAD] |= hands[3]
            if replay and hm[M_DUMMY_DISCARD] != 0:
                _fail(rec, E_DUMMY_DISCARD, 0)
                return -1
        hands[3] = 0
    lone_ok = variant == CUTTHROAT or cfg[C_LONE_DEFENDER] == 1
    if replay:
        d = rec[R_DEFENDER_ALONE]
        if d >= 0:
            defender = d != decl and ((active >> d) & 1) == 1
            if variant == KNOCK:
                defender = defender and (d & 1) != (decl & 1)
            if not (lone_ok and defender):
                _fail(rec, E_ALONE_NOT_ALLOWED, 1)
                return -1
    else:
        rec[R_DEFENDER_ALONE] = -1
        if lone_ok:
            d = next_active(decl, active)
            while d != decl:
                if variant == CUTTHROAT or (d & 1) != (decl & 1):
                    if choose_yes_no(ag.policies[d, 0], ag.params, ag.rng, d, Q_DEFEND_ALONE,
                                     hands[d], trump, rec[R_UPCARD], rec[R_DEALER],
                                     cfg[C_PLAYERS]):
                        rec[R_DEFENDER_ALONE] = d
                        break
                d = next_active(d, active)
    d = rec[R_DEFENDER_ALONE]
    rec[R_ALONE_SEATS] = rec[R_MAKER_ALONE] << decl
    if d >= 0:
        rec[R_ALONE_SEATS] |= 1 << d
        contract |= CT_DEFENDER_ALONE
        other = (d + 2) & 3 if variant == KNOCK else 3 - d - decl
        hm[M_DEAD] |= hands[other]
        active &= ~(1 << other)
    rec[R_CONTRACT] = contract
    return active


@njit(**JIT)
def _first_leader(cfg, rec, active):
    """Who leads the first trick: the bidder (bid, ghost); the first active seat left of the
    dealer (knock); in cutthroat the first active seat left of the lone player (the maker if
    the maker went alone, else the lone defender), otherwise left of the dealer."""
    variant = cfg[C_VARIANT]
    if variant == BID or variant == GHOST:
        return rec[R_DECLARER]
    if variant == CUTTHROAT:
        if rec[R_MAKER_ALONE] == 1:
            return next_active(rec[R_DECLARER], active)
        if rec[R_DEFENDER_ALONE] >= 0:
            return next_active(rec[R_DEFENDER_ALONE], active)
    return next_active(rec[R_DEALER], active)


@njit(**JIT)
def on_declaring_side(cfg, seat, declarer):
    """True if ``seat`` plays for the declaring side (partners in the 4-player variants)."""
    if cfg[C_PLAYERS] == 4:
        return (seat & 1) == (declarer & 1)
    return seat == declarer


@njit(**JIT)
def declaring_mask(cfg, declarer, active):
    """4-bit mask of the active seats on the declaring side."""
    m = 0
    for s in range(4):
        if (active >> s) & 1 and on_declaring_side(cfg, s, declarer):
            m |= 1 << s
    return m


@njit(**JIT)
def start_play_knowledge(know, decks, trump, to_norm):
    """Turn what the seats learned during the bidding (natural masks) into the play phase's
    normalised knowledge: nothing played, no voids shown yet."""
    t = to_norm[trump]
    know[K_DECK] = decks[trump]
    know[K_PLAYED] = 0
    for s in range(4):
        know[K_VOIDS + s] = 0
        know[K_DEAD + s] = normalise_mask(know[K_DEAD + s], t)
    if know[K_UP_HOLDER] != NOBODY:
        know[K_UPCARD] = t[np.int64(know[K_UPCARD])]


@njit(**JIT)
def _play_tricks(ag, hands, cfg, rec, replay, active, leader, to_norm, from_norm):
    """Play the tricks from ``leader``'s first lead. Returns False after a replay error."""
    trump = rec[R_TRUMP]
    double = 1 if (cfg[C_DECK] & DECK_DOUBLE) else 0
    nh = np.zeros(4, dtype=np.uint64)
    for s in range(4):
        if (active >> s) & 1:
            nh[s] = normalise_mask(hands[s], to_norm[trump])
    start_play_knowledge(ag.know, ag.decks, trump, to_norm)
    trick = np.zeros(TRICK_LEN, dtype=np.int64)
    trick[TRICK_ACTIVE] = active
    trick[TRICK_DECLARER] = rec[R_DECLARER]
    n_active = 0
    for s in range(4):
        n_active += (active >> s) & 1
    rec[R_FIRST_LEADER] = leader
    decl = rec[R_DECLARER]
    decl_mask = declaring_mask(cfg, decl, active)
    for t in range(cfg[C_HAND]):
        rec[R_TRICK_LEADER + t] = leader
        trick[TRICK_LEADER] = leader
        trick[TRICK_NUMBER] = t
        seat = leader
        led = -1
        win_card = -1
        win_seat = -1
        for pos in range(n_active):
            trick[TRICK_COUNT] = pos
            legal = legal_mask(nh[seat], led)
            slot = R_PLAYS + 4 * t + pos
            if replay:
                c = rec[slot]
                rec[R_ERROR_INFO] = seat
                if c < 0 or c >= 64:
                    return _fail(rec, E_PLAYS_MISSING, 4 * t + pos)
                c = held_copy(hands[seat], c, cfg)
                if c < 0:
                    return _fail(rec, E_CARD_NOT_HELD, 4 * t + pos)
                rec[slot] = c
                hands[seat] &= ~card_bit(c)
                b = to_norm[trump, c]
                if not (legal & (ONE << np.uint64(b))):
                    rec[R_RENEGES + seat] += 1
            else:
                policy = ag.policies[seat, PLAY]
                if policy == P_RANDOM:
                    b = random_set_bit(ag.rng, legal)
                elif legal & (legal - ONE) == 0:
                    b = lowest_bit(legal)
                elif policy == P_HEURISTIC:
                    mine = (decl_mask >> seat) & 1
                    partner_winning = pos > 0 and win_seat != seat and \
                        ((decl_mask >> win_seat) & 1) == mine
                    b = heuristic_card(nh[seat], legal, ag.know[K_PLAYED], ag.know[K_DECK], pos,
                                       pos == n_active - 1, led, win_card, partner_winning,
                                       mine == 1, double)
                else:
                    b = choose_card_solving(ag, seat, legal, nh, trick, active, decl_mask,
                                            double)
                rec[slot] = from_norm[trump, b]
            nh[seat] &= ~(ONE << np.uint64(b))
            ag.know[K_PLAYED] |= ONE << np.uint64(b)
            if pos > 0 and (b >> 4) != led:
                ag.know[K_VOIDS + seat] |= ONE << np.uint64(led)
            trick[TRICK_CARDS + pos] = b
            trick[TRICK_SEATS + pos] = seat
            if pos == 0:
                led = b >> 4
                win_card = b
                win_seat = seat
            elif card_strength(b, led, double) > card_strength(win_card, led, double):
                win_card = b
                win_seat = seat
            seat = next_active(seat, active)
        winner = win_seat
        rec[R_TRICK_WINNER + t] = winner
        rec[R_TRICKS + winner] += 1
        if on_declaring_side(cfg, winner, decl):
            rec[R_DECL_TRICKS] += 1
            trick[TRICK_DECL_WON] += 1
        leader = winner
    if replay:
        for t in range(cfg[C_HAND], 12):
            for pos in range(4):
                if rec[R_PLAYS + 4 * t + pos] >= 0:
                    return _fail(rec, E_PLAYS_MISSING, 4 * t + pos)
        for t in range(cfg[C_HAND]):
            for pos in range(n_active, 4):
                if rec[R_PLAYS + 4 * t + pos] >= 0:
                    return _fail(rec, E_PLAYS_MISSING, 4 * t + pos)
    return True


@njit(**JIT)
def score_hand(cfg, score_table, rec):
    """Points of every seat from the contract and tricks in ``rec`` (table lookup), minus 2 for
    each side that reneged (3-player variants: the player who reneged)."""
    decl = rec[R_DECLARER]
    contract = rec[R_CONTRACT]
    won = rec[R_DECL_TRICKS]
    decl_pts = score_table[contract, won, 0]
    def_pts = score_table[contract, won, 1]
    players = cfg[C_PLAYERS]
    for s in range(players):
        if on_declaring_side(cfg, s, decl):
            rec[R_POINTS + s] = decl_pts
        elif cfg[C_VARIANT] == GHOST:
            rec[R_POINTS + s] = def_pts + rec[R_TRICKS + s]
        else:
            rec[R_POINTS + s] = def_pts
    for s in range(players):
        if rec[R_RENEGES + s] > 0:
            if players == 4:
                partner = (s + 2) & 3
                if s < partner or rec[R_RENEGES + partner] == 0:
                    rec[R_POINTS + s] -= 2
                    rec[R_POINTS + partner] -= 2
            else:
                rec[R_POINTS + s] -= 2


@njit(**JIT)
def play_hand(cfg, score_table, to_norm, from_norm, ag, hm, rec, replay):
    """Play (or replay) one dealt hand in ``hm``/``rec`` to the end and score it.

    ``cfg`` is the rules vector (``kernels.rules.C_*``), ``score_table[contract, tricks, side]``
    the points table, ``to_norm``/``from_norm`` the layout maps of the deck, ``ag`` the
    ``policies.Agents`` of the table. Returns True if the hand was played out or ended by a
    legal redeal; False on a replay error (``rec[R_ERROR]`` says which)."""
    variant = cfg[C_VARIANT]
    lay = (to_norm, from_norm)
    hands = np.empty(4, dtype=np.uint64)
    for s in range(4):
        hands[s] = hm[M_DEALT + s]
    dealer = rec[R_DEALER]
    if variant == BID:
        if cfg[C_KITTY] > 0:  # joker: the dealer takes the odd card and discards one
            hands[dealer] |= hm[M_KITTY]
            if not _pick_card(ag, dealer, K_JOKER_DISCARD, hands[dealer], hands,
                              cfg, rec, replay, R_JOKER_DISCARD, E_JOKER_DISCARD, lay):
                return False
            d = card_bit(rec[R_JOKER_DISCARD])
            hands[dealer] &= ~d
            hm[M_DEAD] |= d
            ag.know[K_DEAD + dealer] |= d
        if cfg[C_ACE_NO_FACE] == 1:
            if replay:
                caller = rec[R_REDEAL_SEAT]
                if caller >= 0:
                    if not is_ace_no_face(hands[caller]):
                        return _fail(rec, E_REDEAL_NOT_ALLOWED, 0)
                    rec[R_STATUS] = ST_ACE_NO_FACE
                    return True
            else:
                seat = dealer
                for _ in range(4):
                    seat = next_seat(seat, 4)
                    if is_ace_no_face(hands[seat]) and choose_yes_no(
                            ag.policies[seat, 0], ag.params, ag.rng, seat, Q_ACE_NO_FACE,
                            hands[seat], -1, -1, dealer, 4):
                        rec[R_REDEAL_SEAT] = seat
                        rec[R_STATUS] = ST_ACE_NO_FACE
                        return True
        elif replay and rec[R_REDEAL_SEAT] >= 0:
            return _fail(rec, E_REDEAL_NOT_ALLOWED, 0)
    if variant == BID or variant == GHOST:
        ok = _auction_bid(ag, hands, cfg, hm, rec, replay)
    else:
        ok = _auction_upcard(ag, hands, cfg, hm, rec, replay, lay)
    if not ok:
        return rec[R_ERROR] == 0
    active = _exchanges(ag, hands, cfg, hm, rec, replay, to_norm, from_norm)
    if active < 0:
        return False
    for s in range(4):
        hm[M_PLAY + s] = hands[s] if (active >> s) & 1 else np.uint64(0)
    if not _play_tricks(ag, hands, cfg, rec, replay, active, _first_leader(cfg, rec, active),
                        to_norm, from_norm):
        return False
    score_hand(cfg, score_table, rec)
    return True


@njit(**JIT)
def normalised_decks(deck, to_norm):
    """The deck's mask in the normalised layout of each trump (uint64[4])."""
    decks = np.zeros(4, dtype=np.uint64)
    m = deck_mask(deck)
    for t in range(4):
        decks[t] = normalise_mask(m, to_norm[t])
    return decks


@njit(**JIT)
def new_agents(policies, params, rng, work, table, decks):
    """The ``Agents`` of one table: a fresh knowledge array (nobody holds the upcard)."""
    know = np.zeros(K_LEN, dtype=np.uint64)
    know[K_UP_HOLDER] = NOBODY
    return Agents(policies, params, rng, work, table, know, decks)


@njit(**JIT)
def next_hand(ag, seed, index):
    """Make ``ag`` ready for hand ``index``: its policy stream restarted at ``(seed,
    STREAM_PLAY, index)`` and its knowledge cleared."""
    reseed(ag.rng, seed, STREAM_PLAY, index)
    ag.know[:] = 0
    ag.know[K_UP_HOLDER] = NOBODY


@njit(**JIT)
def solver_arrays(nthreads, tt_bits):
    """Per-thread solver work arrays and tables for the dd and pimc players."""
    works = np.zeros((nthreads, W_LEN), dtype=np.uint64)
    tables = np.zeros((nthreads, 1 << tt_bits, TT_WORDS), dtype=np.uint64)
    for t in range(nthreads):
        works[t, W_TT_MASK] = (ONE << np.uint64(tt_bits)) - ONE
    return works, tables


@njit(**PARALLEL_JIT)
def play_batch(cfg, score_table, to_norm, from_norm, policies, params, seed, first, dealers,
               tt_bits, nthreads):
    """Deal and play hands ``first .. first + n - 1`` of stream ``seed`` (n = len(dealers),
    hand i dealt by ``dealers[i]``) in parallel, seat s playing ``policies[s]`` with
    ``params[s]``. Returns ``(masks[n, M_LEN], records[n, R_LEN])``; every hand depends only on
    (seed, its index), whatever the thread count. ``tt_bits``/``nthreads`` size the solver
    tables of dd and pimc players."""
    n = dealers.shape[0]
    masks = np.zeros((n, M_LEN), dtype=np.uint64)
    recs = np.zeros((n, R_LEN), dtype=np.int64)
    works, tables = solver_arrays(nthreads, tt_bits)
    deck_ids = deck_natural_ids(cfg[C_DECK])
    decks = normalised_decks(cfg[C_DECK], to_norm)
    for i in prange(n):
        tid = get_thread_id()
        cards = np.empty(deck_ids.shape[0], dtype=np.int64)
        state = np.zeros(1, dtype=np.uint64)
        deal_hand(cfg, seed, first + i, dealers[i], masks[i], recs[i], deck_ids, cards, state)
        ag = new_agents(policies, params, state, works[tid], tables[tid], decks)
        next_hand(ag, seed, first + i)
        play_hand(cfg, score_table, to_norm, from_norm, ag, masks[i], recs[i], False)
    return masks, recs


@njit(**JIT)
def replay_hand(cfg, score_table, to_norm, from_norm, hm, rec):
    """Check and score a recorded hand (``hm`` dealt cards, ``rec`` decisions and plays).
    Returns True if every step is legal (reneges are legal here, and penalised)."""
    for slot in (R_STATUS, R_ERROR, R_DECL_TRICKS, R_MAKER_ALONE):
        rec[slot] = 0
    for slot in (R_ERROR_AT, R_ERROR_INFO, R_SWAP_SEAT, R_DECLARER, R_CONTRACT, R_ROUND,
                 R_FIRST_LEADER, R_DEFENDER_ALONE):
        rec[slot] = -1
    for s in range(4):
        rec[R_TRICKS + s] = 0
        rec[R_POINTS + s] = 0
        rec[R_RENEGES + s] = 0
    for t in range(12):
        rec[R_TRICK_LEADER + t] = -1
        rec[R_TRICK_WINNER + t] = -1
    hm[M_DEAD] = 0
    for s in range(4):
        hm[M_PLAY + s] = 0
    works, tables = solver_arrays(1, 1)
    ag = new_agents(np.zeros((4, 2), dtype=np.int64), np.zeros((4, N_PARAMS)),
                    stream_state(0, 0, 0), works[0], tables[0],
                    normalised_decks(cfg[C_DECK], to_norm))
    return play_hand(cfg, score_table, to_norm, from_norm, ag, hm, rec, True)


@njit(**JIT)
def play_out(ag, cfg, hands, trump, declarer, active, leader, to_norm, from_norm, rec):
    """Play the tricks of natural ``hands`` (the seats in ``active``) from ``leader``'s lead
    with the play policies of ``ag``, ``declarer`` declaring ``trump``; ``ag.know`` holds what
    the seats learned before the lead. Returns the declaring side's tricks. ``rec`` is scratch
    (its tricks part is filled)."""
    for i in range(R_LEN):
        rec[i] = -1
    for s in range(4):
        rec[R_TRICKS + s] = 0
    rec[R_DECL_TRICKS] = 0
    rec[R_TRUMP] = trump
    rec[R_DECLARER] = declarer
    work = hands.copy()
    _play_tricks(ag, work, cfg, rec, False, active, leader, to_norm, from_norm)
    return rec[R_DECL_TRICKS]
