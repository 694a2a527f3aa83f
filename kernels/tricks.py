"""The hand engine's play phase: the tricks from the first lead, each card the seat's play
policy's (random and heuristic cards are chosen inline: a call that passes the engine's arrays
costs more than those players' whole choice), or in a replay the record's, where a card that
does not follow suit is kept and counted as a renege."""

import numpy as np
from numba import njit

from .bits import ONE, lowest_bit
from .codes import E_CARD_NOT_HELD, E_PLAYS_MISSING, MODE_REPLAY, NOBODY
from .config import JIT, NRT_FREE
from .layout import DECK_DOUBLE, normalise_mask
from .play_heuristic import heuristic_card
from .policies import P_HEURISTIC, P_RANDOM, PLAY, choose_card_solving
from .record import card_bit, fail, held_copy
from .rng import random_set_bit
from .rules import card_strength, legal_mask, next_active
from .seating import declaring_mask, on_declaring_side
from .slots import IN, TR, C, K, R


@njit(**NRT_FREE)
def start_play_knowledge(know, decks, trump, to_norm):
    """Turn what the seats learned during the bidding (natural masks) into the play phase's
    normalised knowledge: nothing played, no voids shown yet."""
    t = to_norm[trump]
    know[K.DECK] = decks[trump]
    know[K.PLAYED] = 0
    for s in range(4):
        know[K.VOIDS + s] = 0
        know[K.DEAD + s] = normalise_mask(know[K.DEAD + s], t)
    if know[K.UP_HOLDER] != NOBODY:
        know[K.UPCARD] = t[np.int64(know[K.UPCARD])]


@njit(**NRT_FREE)
def _recorded_card(hands, seat, legal, rules, rec, slot, at):
    """Replay: the normalised bit of the recorded card at ``rec[slot]``, or -1 after an error
    (no card, or one the seat does not hold). A card that does not follow suit is a renege."""
    cfg = rules.cfg
    to_norm = rules.to_norm
    c = rec[slot]
    rec[R.ERROR_INFO] = seat
    if c < 0 or c >= 64:
        fail(rec, E_PLAYS_MISSING, at)
        return -1
    c = held_copy(hands[seat], c, cfg)
    if c < 0:
        fail(rec, E_CARD_NOT_HELD, at)
        return -1
    rec[slot] = c
    hands[seat] &= ~card_bit(c)
    b = to_norm[rec[R.TRUMP], c]
    if not (legal & (ONE << np.uint64(b))):
        rec[R.RENEGES + seat] += 1
    return b


@njit(**NRT_FREE)
def _extra_plays(cfg, rec, n_active):
    """Replay: -1 if the record holds no card beyond the hand's tricks and seats, else where
    the first extra card is (trick * 4 + position)."""
    for t in range(cfg[C.HAND], 12):
        for pos in range(4):
            if rec[R.PLAYS + 4 * t + pos] >= 0:
                return 4 * t + pos
    for t in range(cfg[C.HAND]):
        for pos in range(n_active, 4):
            if rec[R.PLAYS + 4 * t + pos] >= 0:
                return 4 * t + pos
    return -1


@njit(**JIT)
def play_tricks(ag, hands, rules, rec, active, leader):
    """Play the tricks from ``leader``'s first lead, filling the record's plays, trick leaders
    and winners and the tricks of each seat. Returns False after a replay error."""
    cfg = rules.cfg
    to_norm = rules.to_norm
    from_norm = rules.from_norm
    replay = ag.ins[IN.MODE] == MODE_REPLAY
    trump = rec[R.TRUMP]
    double = 1 if (cfg[C.DECK] & DECK_DOUBLE) else 0
    nh = np.zeros(4, dtype=np.uint64)
    n_active = 0
    for s in range(4):
        if (active >> s) & 1:
            nh[s] = normalise_mask(hands[s], to_norm[trump])
            n_active += 1
    start_play_knowledge(ag.know, ag.decks, trump, to_norm)
    trick = np.zeros(np.int64(TR.LEN), dtype=np.int64)
    trick[TR.ACTIVE] = active
    trick[TR.DECLARER] = rec[R.DECLARER]
    rec[R.FIRST_LEADER] = leader
    decl = rec[R.DECLARER]
    decl_mask = declaring_mask(cfg, decl, active)
    for t in range(cfg[C.HAND]):
        rec[R.TRICK_LEADER + t] = leader
        trick[TR.LEADER] = leader
        trick[TR.NUMBER] = t
        seat = leader
        led = -1
        win_card = -1
        win_seat = -1
        for pos in range(n_active):
            trick[TR.COUNT] = pos
            legal = legal_mask(nh[seat], led)
            slot = R.PLAYS + 4 * t + pos
            if replay:
                b = _recorded_card(hands, seat, legal, rules, rec, slot, 4 * t + pos)
                if b < 0:
                    return False
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
                    b = heuristic_card(nh[seat], legal, ag.know[K.DECK] & ~ag.know[K.PLAYED],
                                       pos, pos == n_active - 1, led, win_card,
                                       partner_winning, mine == 1, double)
                else:
                    b = choose_card_solving(ag, seat, legal, nh, trick, decl_mask, double)
                rec[slot] = from_norm[trump, b]
            nh[seat] &= ~(ONE << np.uint64(b))
            ag.know[K.PLAYED] |= ONE << np.uint64(b)
            if pos > 0 and (b >> 4) != led:
                ag.know[K.VOIDS + seat] |= ONE << np.uint64(led)
            trick[TR.CARDS + pos] = b
            trick[TR.SEATS + pos] = seat
            if pos == 0:
                led = b >> 4
                win_card = b
                win_seat = seat
            elif card_strength(b, led, double) > card_strength(win_card, led, double):
                win_card = b
                win_seat = seat
            seat = next_active(seat, active)
        rec[R.TRICK_WINNER + t] = win_seat
        rec[R.TRICKS + win_seat] += 1
        if on_declaring_side(cfg, win_seat, decl):
            rec[R.DECL_TRICKS] += 1
            trick[TR.DECL_WON] += 1
        leader = win_seat
    if replay:
        at = _extra_plays(cfg, rec, n_active)
        if at >= 0:
            return fail(rec, E_PLAYS_MISSING, at)
    return True
