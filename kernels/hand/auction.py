"""The hand engine's bidding phase: the dealer's extra card (a ladder auction with cards left
over), Ace-No-Face, the ghost swap, the ladder auction and the upcard auction with the
dealer's pick-up. Each decision is the seat's policy's, or in a replay the record's, checked.

Functions return False (or -1) when the hand ends here: a redeal, or a replay error recorded
in ``rec[R.ERROR]``.
"""

import numpy as np
from numba import njit

from ..bidding.bidding import N_CODES, call_likelihood, ladder_values
from ..bidding.exchange_rules import exchange_pool, made_on_upcard
from ..bidding.upcard_model import upcard_call_values
from ..cards.bits import ONE
from ..cards.codes import (
    ASK,
    AUCTION_LADDER,
    E_AUCTION_LONG,
    E_AUCTION_SHORT,
    E_CALL_NOT_ALLOWED,
    E_CALL_OUT_OF_TURN,
    E_DISCARD_NOT_HELD,
    E_INCONSISTENT,
    E_JOKER_DISCARD,
    E_NOT_ASKERS_TURN,
    E_REDEAL_NOT_ALLOWED,
    E_SWAP_NOT_ALLOWED,
    E_TRUMP_NOT_ALLOWED,
    MAX_CALLS,
    MODE_FORCED,
    MODE_REPLAY,
    MOON,
    NAME,
    ORDER,
    PASS,
    SEAT_W_GHOST,
    ST_ACE_NO_FACE,
    ST_ALL_PASSED,
    STOP_CALL,
    STOP_DISCARD,
    STOP_NEXT,
    SWAP,
    call_trump,
)
from ..cards.layout import JOKER, RANK_A, RANK_J, RANK_K, RANK_Q, natural_suit
from ..cards.rules import next_active
from ..cards.seating import players_mask
from ..config import JIT, NRT_FREE
from ..deal.record import card_bit, fail, flip_kept, held_copy, stop_here, stopping, tolerated
from ..slots import IN, C, K, M, R
from .policies import (
    D_ANALYZER,
    PICK_DISCARD,
    PICK_JOKER_DISCARD,
    Q_ACE_NO_FACE,
    choose_card_from,
    choose_ladder_call,
    choose_swap,
    choose_trump,
    choose_upcard_call,
    choose_yes_no,
)


@njit(**NRT_FREE)
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


@njit(**NRT_FREE)
def _recorded_call(seat, allowed, rec, j):
    """Call number ``j`` as the record holds it, checked: made by ``seat`` and among
    ``allowed``. Returns the call, or -1 after recording an error."""
    if j >= rec[R.NCALLS]:
        fail(rec, E_AUCTION_SHORT, j)
        return -1
    if rec[R.CALL_SEAT + j] != seat:
        fail(rec, E_CALL_OUT_OF_TURN, j)
        rec[R.ERROR_INFO] = seat
        return -1
    c = rec[R.CALL + j]
    if c < 0 or c >= 64 or not ((allowed >> np.uint64(c)) & ONE):
        fail(rec, E_CALL_NOT_ALLOWED, j)
        rec[R.ERROR_INFO] = np.int64(allowed)
        return -1
    return c


@njit(**NRT_FREE)
def _policy_call(ag, seat, allowed, hands, cfg, rec, holder):
    policy = ag.policies[seat, 0]
    players = cfg[C.PLAYERS]
    dealer = rec[R.DEALER]
    if cfg[C.AUCTION] == AUCTION_LADDER:
        return choose_ladder_call(policy, ag.params, ag.rng, seat, allowed, hands[seat],
                                  (seat - dealer) % players, players, holder,
                                  1 if rec[R.SWAP_SEAT] >= 0 else 0)
    return choose_upcard_call(policy, ag.params, ag.rng, seat, allowed, hands[seat], players,
                              rec[R.UPCARD], dealer)


@njit(**JIT)
def _kept(ag, seat, allowed, hands, cfg, rec, holder, heard):
    """Whether the forced call ``heard`` of ``seat`` fits its strategy: it is the strategy's
    own call, or it is kept as a tremble with its likelihood against the strategy's call
    (the analyzer's calls weighted by their values, ``kernels.bidding.bidding.call_likelihood``)."""
    own = _policy_call(ag, seat, allowed, hands, cfg, rec, holder)
    if own == heard:
        return True
    if ag.ins[IN.TREMBLE] <= 0:
        return False
    values = np.full(N_CODES, -np.inf)
    if ag.policies[seat, 0] == D_ANALYZER:
        place = (seat - rec[R.DEALER]) % cfg[C.PLAYERS]
        # the calls weighed in net points, at a score too (TEMPERATURE is in points)
        if cfg[C.AUCTION] == AUCTION_LADDER:
            ladder_values(hands[seat], allowed, ag.params, seat, place, holder,
                          1 if rec[R.SWAP_SEAT] >= 0 else 0, cfg[C.PLAYERS], False, values)
        else:
            upcard_call_values(hands[seat], allowed, ag.params, seat, place, rec[R.UPCARD],
                               natural_suit(rec[R.UPCARD]), False, values)
    chance = call_likelihood(values, allowed, heard, own, ag.ins[IN.TREMBLE] / 1_000_000)
    return tolerated(ag.ins, rec, chance)


@njit(**NRT_FREE)
def forced(ins, j):
    """Whether call number ``j`` is read from the record (a replay, or a forced call)."""
    mode = ins[IN.MODE]
    return mode == MODE_REPLAY or (mode == MODE_FORCED and j < ins[IN.FORCED])


@njit(**NRT_FREE)
def stops_at(ins, j, seat):
    """Whether a forced run stops before call number ``j`` of the asker ``seat``."""
    return stopping(ins) and j >= ins[IN.FORCED] and \
        seat == ins[IN.ASKER]


@njit(**NRT_FREE)
def another_seats_call(rec, seat, allowed, j):
    """A forced run that stops at the next decision (``STOP_NEXT``) reaches another seat's
    call, number ``j``, before the asker's: an error (``E_NOT_ASKERS_TURN``) that says whose
    call it is and the calls it may make (``allowed``), so one run tells the page the next
    call of whoever makes it."""
    stop_here(rec, STOP_CALL, seat, allowed)
    fail(rec, E_NOT_ASKERS_TURN, j)


@njit(**NRT_FREE)
def make_call(ag, seat, allowed, hands, cfg, rec, j, holder):
    """Call number ``j`` by ``seat`` among ``allowed`` (uint64 mask of call codes; ``holder``
    the seat holding a ladder's current bid, -1 none): the
    policy's; in a replay or a forced run's forced calls the recorded one, checked (and with
    ``IN.CHECK`` also against the seat's policy, the asker's own calls excepted); a forced run
    that stops does so before the asker's first call of its own. Returns the call, or -1
    after recording an error (or the stop)."""
    if j >= MAX_CALLS:
        fail(rec, E_AUCTION_LONG, j)
        return -1
    if forced(ag.ins, j):
        c = _recorded_call(seat, allowed, rec, j)
        if c >= 0 and ag.ins[IN.MODE] == MODE_FORCED and ag.ins[IN.CHECK] == 1 and \
                seat != ag.ins[IN.ASKER] and \
                not _kept(ag, seat, allowed, hands, cfg, rec, holder, c):
            fail(rec, E_INCONSISTENT, j)
            return -1
        return c
    if stopping(ag.ins):
        if seat == ag.ins[IN.ASKER]:
            stop_here(rec, STOP_CALL, seat, allowed)
            return -1
        if ag.ins[IN.STOP] == STOP_NEXT:
            another_seats_call(rec, seat, allowed, j)
            return -1
    c = _policy_call(ag, seat, allowed, hands, cfg, rec, holder)
    rec[R.CALL_SEAT + j] = seat
    rec[R.CALL + j] = c
    rec[R.NCALLS] = j + 1
    return c


@njit(**NRT_FREE)
def pick_card(ag, seat, purpose, candidates, rules, rec, slot, error):
    """Choose (or in a replay read and check) a natural card from ``candidates`` into
    ``rec[slot]``. Returns False after a replay error."""
    cfg = rules.cfg
    if ag.ins[IN.MODE] == MODE_REPLAY:
        c = held_copy(candidates, rec[slot], cfg)
        if c < 0:
            return fail(rec, error, slot)
        rec[slot] = c
        return True
    rec[slot] = choose_card_from(ag.policies[seat, 0], ag.params, ag.rng, seat, purpose,
                                 candidates, rec[R.TRUMP], rules)
    return True


@njit(**NRT_FREE)
def pick_within(ag, seat, purpose, rest, rules, rec, slot, error):
    """After :func:`pick_card` chose ``rec[slot]``: the seat's choice from the natural mask
    ``rest`` instead when that card is not among them (the cards an unseen choice can have
    been, e.g. :func:`not_played_later`). Returns False after a replay error."""
    if (rest >> np.uint64(rec[slot])) & ONE:
        return True
    return pick_card(ag, seat, purpose, rest, rules, rec, slot, error)


@njit(**NRT_FREE)
def forced_card(seat, candidates, cfg, ins, rec, f_slot, slot, error):
    """A forced run's own choice for the asker (``ins[f_slot]``, a card of ``candidates``)
    into ``rec[slot]``: 1 when it applied, 0 when the policy chooses, -1 after an error."""
    if ins[IN.MODE] != MODE_FORCED or seat != ins[IN.ASKER] or ins[f_slot] < 0:
        return 0
    c = held_copy(candidates, ins[f_slot], cfg)
    if c < 0:
        fail(rec, error, slot)
        return -1
    rec[slot] = c
    return 1


@njit(**NRT_FREE)
def _yes(ag, seat, question, hand, cfg, rec):
    """A yes/no decision before trump is known (the swap, Ace-No-Face)."""
    return choose_yes_no(ag.policies[seat, 0], ag.params, ag.rng, seat, question, hand, -1, -1,
                         rec[R.DEALER], cfg[C.PLAYERS])


@njit(**NRT_FREE)
def discard(ag, hands, hm, seat, card):
    """``seat`` discards natural card ``card`` (see :func:`discard_cards`)."""
    discard_cards(ag, hands, hm, seat, card_bit(card))


@njit(**NRT_FREE)
def discard_cards(ag, hands, hm, seat, cards):
    """``seat`` discards the natural mask ``cards``: they leave the hand, are dead, and the
    seat remembers them (the other seats do not see them)."""
    hands[seat] &= ~cards
    hm[M.DEAD] |= cards
    ag.know[K.DEAD + seat] |= cards


@njit(**NRT_FREE)
def before_auction(ag, hands, rules, hm, rec):
    """What happens before the first call: in a ladder auction with cards left over (the
    joker), the dealer takes them and discards; under Ace-No-Face a player may call a redeal.
    Returns False if the hand ends here."""
    cfg = rules.cfg
    replay = ag.ins[IN.MODE] == MODE_REPLAY
    dealer = rec[R.DEALER]
    if ag.ins[IN.MODE] == MODE_FORCED:
        # a decision point comes after the dealer's discard and nobody called a redeal: the
        # cards left over are the discard (dead), the hands as dealt are as held
        hm[M.DEAD] |= hm[M.KITTY]
        return True
    if cfg[C.AUCTION] == AUCTION_LADDER and cfg[C.KITTY] > 0:
        hands[dealer] = exchange_pool(rules, hands[dealer], hm[M.KITTY])[0]
        if not pick_card(ag, dealer, PICK_JOKER_DISCARD, hands[dealer], rules, rec,
                         R.JOKER_DISCARD, E_JOKER_DISCARD):
            return False
        discard(ag, hands, hm, dealer, rec[R.JOKER_DISCARD])
    if cfg[C.ACE_NO_FACE] != 1:
        if replay and rec[R.REDEAL_SEAT] >= 0:
            return fail(rec, E_REDEAL_NOT_ALLOWED, 0)
        return True
    if replay:
        caller = rec[R.REDEAL_SEAT]
        if caller >= 0:
            if not is_ace_no_face(hands[caller]):
                return fail(rec, E_REDEAL_NOT_ALLOWED, 0)
            rec[R.STATUS] = ST_ACE_NO_FACE
            return False
        return True
    everyone = players_mask(cfg)
    seat = dealer
    for _ in range(cfg[C.PLAYERS]):
        seat = next_active(seat, everyone)
        if is_ace_no_face(hands[seat]) and _yes(ag, seat, Q_ACE_NO_FACE, hands[seat], cfg, rec):
            rec[R.REDEAL_SEAT] = seat
            rec[R.STATUS] = ST_ACE_NO_FACE
            return False
    return True


@njit(**NRT_FREE)
def ladder_mask(cfg):
    """uint64 mask of the bids of the ladder: 3 .. hand-1 (the n-ask where the variant has it)
    and the moon; with six-card hands that is 3, 4, 5 and the moon."""
    m = np.uint64(0)
    for k in range(3, cfg[C.HAND]):
        m |= ONE << np.uint64(k)
    if cfg[C.HAS_ASK] == 1:
        m |= ONE << np.uint64(ASK)
    m |= ONE << np.uint64(MOON)
    return m


@njit(**NRT_FREE)
def _swaps(ag, seat, hands, cfg, rec, allowed, holder):
    return choose_swap(ag.policies[seat, 0], ag.params, ag.rng, seat, hands[seat], allowed,
                       cfg[C.PLAYERS], rec[R.DEALER], holder)


@njit(**NRT_FREE)
def ghost_swap(ag, seat, hands, cfg, hm, rec, j, allowed, holder):
    """Before ``seat``'s bid (``allowed``: its bids): take the ghost hand, if nobody has and
    the seat wants to (or the record says so; a forced run checks it against the seat's policy
    where asked, and stops here at the asker's turn). Returns the next call index, or -1
    after a replay error (or the stop)."""
    if forced(ag.ins, j):
        swap = j < rec[R.NCALLS] and rec[R.CALL + j] == SWAP
        if swap and rec[R.CALL_SEAT + j] != seat:
            rec[R.ERROR_INFO] = seat
            fail(rec, E_CALL_OUT_OF_TURN, j)
            return -1
        if ag.ins[IN.MODE] == MODE_FORCED and ag.ins[IN.CHECK] == 1 and \
                seat != ag.ins[IN.ASKER] and \
                _swaps(ag, seat, hands, cfg, rec, allowed, holder) != swap and \
                not flip_kept(ag.ins, rec):
            fail(rec, E_INCONSISTENT, j)
            return -1
    elif stops_at(ag.ins, j, seat):
        stop_here(rec, STOP_CALL, seat, allowed | (ONE << np.uint64(SWAP)))
        return -1
    elif stopping(ag.ins) and ag.ins[IN.STOP] == STOP_NEXT:
        another_seats_call(rec, seat, allowed | (ONE << np.uint64(SWAP)), j)
        return -1
    else:
        swap = _swaps(ag, seat, hands, cfg, rec, allowed, holder)
        if swap:
            rec[R.CALL_SEAT + j] = seat
            rec[R.CALL + j] = SWAP
            rec[R.NCALLS] = j + 1
    if not swap:
        return j
    hm[M.DEAD] |= hands[seat]
    ag.know[K.DEAD + seat] |= hands[seat]
    hands[seat] = hands[3]
    hands[3] = 0
    rec[R.SWAP_SEAT] = seat
    return j + 1


@njit(inline="always", **JIT)
def close_auction(ins, rec, j, winner):
    """After the last call (``j`` calls made): a replay (or a forced run) whose record has
    calls left over is an error; nobody made trump: a redeal. Returns True when ``winner``
    declares."""
    if (ins[IN.MODE] == MODE_REPLAY and j < rec[R.NCALLS]) or \
            (ins[IN.MODE] == MODE_FORCED and j < ins[IN.FORCED]):
        return fail(rec, E_AUCTION_LONG, j)
    rec[R.NCALLS] = j
    if winner < 0:
        rec[R.STATUS] = ST_ALL_PASSED
        return False
    rec[R.DECLARER] = winner
    return True


@njit(**NRT_FREE)
def auction_ladder(ag, hands, cfg, hm, rec):
    """One round of rising bids from the dealer's left (with the ghost swap where seat W is a
    ghost hand); the winner names trump. Returns False if the hand ends here."""
    replay = ag.ins[IN.MODE] == MODE_REPLAY
    everyone = players_mask(cfg)
    dealer = rec[R.DEALER]
    ladder = ladder_mask(cfg)
    seat = next_active(dealer, everyone)
    current = PASS
    winner = -1
    j = 0
    for _ in range(cfg[C.PLAYERS]):
        allowed = ladder & ~((ONE << np.uint64(current + 1)) - ONE)
        if not (cfg[C.STICK] == 1 and seat == dealer and winner < 0):
            allowed |= ONE << np.uint64(PASS)
        if cfg[C.SEAT_W] == SEAT_W_GHOST and rec[R.SWAP_SEAT] < 0:
            j = ghost_swap(ag, seat, hands, cfg, hm, rec, j, allowed, winner)
            if j < 0:
                return False
        elif replay and j < rec[R.NCALLS] and rec[R.CALL + j] == SWAP:
            return fail(rec, E_SWAP_NOT_ALLOWED, j)
        c = make_call(ag, seat, allowed, hands, cfg, rec, j, winner)
        if c < 0:
            return False
        j += 1
        if c != PASS:
            current = c
            winner = seat
        seat = next_active(seat, everyone)
    if not close_auction(ag.ins, rec, j, winner):
        return False
    rec[R.CONTRACT] = current
    if replay:
        if rec[R.TRUMP] < 0 or rec[R.TRUMP] > 3:
            return fail(rec, E_TRUMP_NOT_ALLOWED, 0)
    elif ag.ins[IN.MODE] == MODE_FORCED and ag.ins[IN.NAMED] >= 0:
        rec[R.TRUMP] = ag.ins[IN.NAMED]  # a point in the play: the trump named is known
    elif ag.ins[IN.MODE] == MODE_FORCED and winner == ag.ins[IN.ASKER] and ag.ins[IN.F_TRUMP] >= 0:
        rec[R.TRUMP] = ag.ins[IN.F_TRUMP]
    else:
        rec[R.TRUMP] = choose_trump(ag.policies[winner, 0], ag.params, ag.rng, winner, 15,
                                    hands[winner], current)
    return True


@njit(inline="always", **JIT)
def _round(ag, hands, cfg, rec, j, names):
    """One round of the upcard auction from the dealer's left: ``names`` 0 for round 1 (pass
    or order), else the mask of suits that may be named in round 2. Returns ``(maker, j)``:
    the seat that made trump (-1: everyone passed; -2: a replay error) and the next call
    index."""
    everyone = players_mask(cfg)
    dealer = rec[R.DEALER]
    seat = next_active(dealer, everyone)
    for _ in range(cfg[C.PLAYERS]):
        if names == 0:
            allowed = (ONE << np.uint64(PASS)) | (ONE << np.uint64(ORDER))
        else:
            allowed = np.uint64(names) << np.uint64(NAME)
            if not (cfg[C.STICK] == 1 and seat == dealer):
                allowed |= ONE << np.uint64(PASS)
        c = make_call(ag, seat, allowed, hands, cfg, rec, j, -1)
        if c < 0:
            return -2, j
        j += 1
        if c != PASS:
            rec[R.TRUMP] = call_trump(c, rec[R.UPCARD])
            rec[R.ROUND] = 1 if names == 0 else 2
            return seat, j
        seat = next_active(seat, everyone)
    return -1, j


@njit(inline="always", **JIT)
def dealer_picks_up(ag, hands, rules, hm, rec):
    """Trump made on the upcard: the dealer takes it and discards one of six. Returns False
    after a replay error."""
    cfg = rules.cfg
    dealer = rec[R.DEALER]
    up = rec[R.UPCARD]
    hands[dealer] = exchange_pool(rules, hands[dealer], card_bit(up))[0]
    ag.know[K.UP_HOLDER] = dealer
    ag.know[K.UPCARD] = up
    done = forced_card(dealer, hands[dealer], cfg, ag.ins, rec, IN.F_DISCARD, R.DEALER_DISCARD,
                       E_DISCARD_NOT_HELD)
    if done < 0:
        return False
    if done == 0 and stops_at(ag.ins, rec[R.NCALLS], dealer):
        return stop_here(rec, STOP_DISCARD, dealer, hands[dealer])
    if done == 0:
        if not pick_card(ag, dealer, PICK_DISCARD, hands[dealer], rules, rec,
                         R.DEALER_DISCARD, E_DISCARD_NOT_HELD) or not pick_within(
                ag, dealer, PICK_DISCARD, not_played_later(ag.ins, dealer, hands[dealer]),
                rules, rec, R.DEALER_DISCARD, E_DISCARD_NOT_HELD):
            return False  # (its strategy's discard may be a card it plays later: the next best)
    discard(ag, hands, hm, dealer, rec[R.DEALER_DISCARD])
    return True


@njit(**NRT_FREE)
def not_played_later(ins, seat, hand):
    """``hand`` less the cards a forced run hears ``seat`` play later (``IN.PLAYS``): an
    unseen discard is one of the others, whatever the seat's strategy would throw (it kept
    the cards it played). The whole hand when that leaves none."""
    if ins[IN.MODE] != MODE_FORCED:
        return hand
    later = np.uint64(0)
    for k in range(ins[IN.FORCED_PLAYS]):
        if (ins[IN.PLAYS + k] >> 8) == seat:
            later |= card_bit(ins[IN.PLAYS + k] & 255)
    rest = hand & ~later
    return rest if rest != 0 else hand


@njit(**NRT_FREE)
def auction_upcard(ag, hands, rules, hm, rec):
    """Round 1 on the upcard, round 2 naming a suit (the dealer stuck when the option is on),
    then the dealer's pick-up. A turned-up joker: the dealer names trump first, which counts
    as taking the upcard (British rule). Returns False if the hand ends here."""
    cfg = rules.cfg
    dealer = rec[R.DEALER]
    up = rec[R.UPCARD]
    if up == JOKER:
        c = make_call(ag, dealer, np.uint64(0xF) << np.uint64(NAME), hands, cfg, rec, 0, -1)
        if c < 0:
            return False
        maker, j = dealer, 1
        rec[R.TRUMP] = call_trump(c, up)
        rec[R.ROUND] = 1
    else:
        maker, j = _round(ag, hands, cfg, rec, 0, 0)
        if maker == -1:
            names = 0
            for s in range(4):
                if s != natural_suit(up) or cfg[C.NAME_TURNED_DOWN] == 1:
                    names |= 1 << s
            maker, j = _round(ag, hands, cfg, rec, j, names)
        if maker == -2:
            return False
    if not close_auction(ag.ins, rec, j, maker):
        return False
    if made_on_upcard(up, rec[R.TRUMP], rec[R.ROUND]):
        return dealer_picks_up(ag, hands, rules, hm, rec)
    return True
