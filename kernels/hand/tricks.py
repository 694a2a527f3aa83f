"""The hand engine's play phase: the tricks from the first lead, each card the seat's play
policy's (random and heuristic cards are chosen inline: a call that passes the engine's arrays
costs more than those players' whole choice), or in a replay the record's, where a card that
does not follow suit is kept and counted as a renege.

A forced run (a decision point in the play) first plays the cards heard (``IN.PLAYS``): each
must be the turn's seat's, held and legal, or the deal does not fit what the asker saw
(``E_INCONSISTENT``); then the asker's own card (``IN.F_CARD``), or the run stops there
(``STOP_CARD``); with ``IN.SOLVE`` the rest of the hand after them is solved double dummy."""

import numpy as np
from numba import njit

from ..cards.bits import ONE, lowest_bit, popcount
from ..cards.codes import (
    E_CARD_NOT_HELD,
    E_INCONSISTENT,
    E_NO_DECISION,
    E_NOT_ASKERS_TURN,
    E_PLAYS_MISSING,
    MODE_FORCED,
    MODE_REPLAY,
    NOBODY,
    STOP_CARD,
    STOP_NEXT,
)
from ..cards.layout import DECK_DOUBLE, normalise_mask
from ..cards.rules import card_strength, legal_mask, next_active
from ..cards.seating import contract_needs, declaring_mask, on_declaring_side
from ..config import JIT, NRT_FREE
from ..deal.record import card_bit, fail, held_copy, stop_here, stopping, tolerated
from ..deal.rng import random_set_bit
from ..play.analyzer_player import MAX_WIDTH, SCRATCH_INTS, analyzer_card
from ..play.play_heuristic import heuristic_card
from ..slots import IN, PR, TR, C, K, R
from ..solver import exact, set_position
from .policies import P_ANALYZER, P_HEURISTIC, P_RANDOM, PLAY, choose_card_solving


@njit(**NRT_FREE)
def start_play_knowledge(know, decks, trump, to_norm):
    """Turn what the seats learned during the bidding (natural masks) into the play phase's
    normalised knowledge: nothing played (by anyone), no voids shown yet."""
    t = to_norm[trump]
    know[K.DECK] = decks[trump]
    know[K.PLAYED] = 0
    for s in range(4):
        know[K.VOIDS + s] = 0
        know[K.PLAYED_BY + s] = 0
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


@njit(**NRT_FREE)
def _forced_card(ins, know, k, seat, hand, legal, rules, rec, at):
    """The normalised bit of forced play number ``k`` (``IN.PLAYS``): -1 (and the deal's
    misfit recorded) when it is another seat's turn, or a card ``seat`` does not hold
    (natural mask ``hand``) or that does not follow suit (``legal``, normalised). With
    ``IN.CONJURE`` another seat than the asker need not hold it (its hand is not dealt), but
    may not play a suit it has shown out of."""
    code = ins[IN.PLAYS + k]
    if (code >> 8) != seat:
        fail(rec, E_INCONSISTENT, at)
        return -1
    card = held_copy(hand, code & 255, rules.cfg)
    if card < 0 and ins[IN.CONJURE] == 1 and seat != ins[IN.ASKER]:
        b = rules.to_norm[rec[R.TRUMP], code & 255]
        if (know[K.VOIDS + seat] >> np.uint64(b >> 4)) & ONE:
            fail(rec, E_INCONSISTENT, at)
            return -1
        return b
    if card < 0:
        fail(rec, E_INCONSISTENT, at)
        return -1
    b = rules.to_norm[rec[R.TRUMP], card]
    if not (legal & (ONE << np.uint64(b))):
        fail(rec, E_INCONSISTENT, at)
        return -1
    return b


@njit(**NRT_FREE)
def _heuristic_choice(hand, legal, unseen, trick, led, win_card, win_seat, seat, decl_mask,
                      double):
    """The heuristic card player's card (a normalised bit) for ``seat`` holding ``hand``
    (normalised) with ``legal`` cards at its place in ``trick`` (slots ``TR``: ``COUNT``
    cards played of the ``ACTIVE`` seats'), ``unseen`` the cards not yet played, the trick
    led in ``led`` and won so far by ``win_card`` of ``win_seat``; ``decl_mask`` the
    declaring side's seats."""
    pos = trick[TR.COUNT]
    mine = (decl_mask >> seat) & 1
    partner_winning = pos > 0 and win_seat != seat and ((decl_mask >> win_seat) & 1) == mine
    return heuristic_card(hand, legal, unseen, pos, pos == popcount(trick[TR.ACTIVE]) - 1, led,
                          win_card, partner_winning, mine == 1, double)


@njit(**NRT_FREE)
def _kept_as_tremble(ins, rec, legal):
    """Whether a card heard that is not its seat's heuristic card is kept, with play
    inference (``IN.CHECK_PLAY``), as a tremble: another of its ``legal`` cards with chance
    ``IN.TREMBLE`` per million, spread evenly over them (the likelihood against the
    heuristic card's, ``kernels.deal.record.tolerated``)."""
    e = ins[IN.TREMBLE] / 1_000_000
    return tolerated(ins, rec, e / (1.0 - e) / (np.float64(popcount(legal)) - 1.0))


@njit(**NRT_FREE)
def _asker_card(ins, seat, hand, legal, rules, rec, at):
    """The asker's own card at its decision (``hand``: its natural mask, ``legal`` its legal
    cards normalised): ``IN.F_CARD`` as a normalised bit, or -2 to let its policy play, or -1
    when the run stops here (the decision: ``STOP_CARD``, the legal cards as a natural mask)
    or the card given is not one it may play."""
    trump = rec[R.TRUMP]
    if ins[IN.F_CARD] >= 0:
        card = held_copy(hand, ins[IN.F_CARD], rules.cfg)
        b = rules.to_norm[trump, card] if card >= 0 else -1
        if b < 0 or not (legal & (ONE << np.uint64(b))):
            fail(rec, E_CARD_NOT_HELD, at)
            return -1
        return b
    if stopping(ins):
        natural = np.uint64(0)
        rest = legal
        while rest:
            b = lowest_bit(rest)
            rest &= rest - ONE
            natural |= ONE << np.uint64(rules.from_norm[trump, b])
        stop_here(rec, STOP_CARD, seat, natural)
        return -1
    return -2


@njit(**NRT_FREE)
def hand_facts(rules, rec, active, trick):
    """Write into the trick array (slots ``TR``) what every card player may know of the hand
    in ``rec`` once the play begins: the seats that play, the declarer and its contract (the
    tricks it needs, the round it was made in), the tricks of the hand, the seats dealt in,
    the deck, the dealer and the upcard (normalised; -1: none)."""
    cfg = rules.cfg
    trick[TR.ACTIVE] = active
    trick[TR.DECLARER] = rec[R.DECLARER]
    trick[TR.NEEDS] = contract_needs(cfg, rec[R.CONTRACT])
    trick[TR.TRICKS] = cfg[C.HAND]
    trick[TR.SEATED] = cfg[C.PLAYERS]
    trick[TR.DOUBLE] = 1 if (cfg[C.DECK] & DECK_DOUBLE) else 0
    trick[TR.DEALER] = rec[R.DEALER]
    trick[TR.CONTRACT] = rec[R.CONTRACT]
    trick[TR.ROUND] = max(rec[R.ROUND], 0)
    up = rec[R.UPCARD]
    trick[TR.UPCARD] = rules.to_norm[rec[R.TRUMP], up] if up >= 0 else -1


@njit(**NRT_FREE)
def _card_seen(know, nh, trick, seat, b, pos, led):
    """Card ``b`` (normalised) played by ``seat`` at place ``pos`` of the trick (``led`` the
    suit led, -1 when it leads): gone from its hand ``nh``, seen by every seat (played, by
    whom, a void shown when it does not follow) and on the table."""
    bit = ONE << np.uint64(b)
    nh[seat] &= ~bit
    know[K.PLAYED] |= bit
    know[K.PLAYED_BY + seat] |= bit
    if pos > 0 and (b >> 4) != led:
        know[K.VOIDS + seat] |= ONE << np.uint64(led)
    trick[TR.CARDS + pos] = b
    trick[TR.SEATS + pos] = seat


@njit(**JIT)
def solve_rest(ag, nh, trick, pos, rules, rec, active, decl_mask):
    """Instead of playing on: the declaring side's tricks still to come from this moment of
    the trick ``trick`` (``pos`` cards on the table; ``nh`` the hands left, normalised), every
    seat playing double dummy, added to ``R.DECL_TRICKS``."""
    double = 1 if (rules.cfg[C.DECK] & DECK_DOUBLE) else 0
    w = ag.work
    set_position(w, nh, active, decl_mask, double)
    guess = (rules.cfg[C.HAND] - trick[TR.NUMBER] + 1) // 2
    rec[R.DECL_TRICKS] += exact(w, ag.table, trick[TR.LEADER], trick[TR.CARDS:TR.CARDS + 4],
                                trick[TR.SEATS:TR.SEATS + 4], pos, guess)


@njit(**NRT_FREE)
def network_rows(policies, params, rows):
    """Fill ``rows[4]``: per seat, the seat whose parameter row holds its card player's
    network — the first analyzer seat with the same network fingerprint (``PR.PLAY_ID``), or
    itself. Four seats then read one copy of a network (1.3 MB of weights a copy: four
    copies overflowed the core's cache and cost each decision about half as much again)."""
    for s in range(4):
        rows[s] = s
        fingerprint = params[s, PR.PLAY_ID]
        if policies[s, PLAY] != P_ANALYZER or fingerprint == 0.0:
            continue
        for t in range(s):
            if policies[t, PLAY] == P_ANALYZER and params[t, PR.PLAY_ID] == fingerprint:
                rows[s] = t
                break


@njit(**JIT)
def play_tricks(ag, hands, rules, rec, active, leader):
    """Play the tricks from ``leader``'s first lead, filling the record's plays, trick leaders
    and winners and the tricks of each seat. Returns False after a replay error, or when a
    forced run stops at the asker's card, or finds the deal does not fit the cards heard (see
    the module)."""
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
    hand_facts(rules, rec, active, trick)
    ints = np.empty(SCRATCH_INTS, dtype=np.int64)  # the analyzer player's scratch
    floats = np.empty(2 * MAX_WIDTH)
    net_rows = np.empty(4, dtype=np.int64)
    network_rows(ag.policies, ag.params, net_rows)
    rec[R.FIRST_LEADER] = leader
    decl = rec[R.DECLARER]
    decl_mask = declaring_mask(cfg, decl, active)
    ins = ag.ins
    forced_run = ins[IN.MODE] == MODE_FORCED
    n_forced = ins[IN.FORCED_PLAYS] if forced_run else 0
    asker = ins[IN.ASKER] if forced_run else -1
    # double dummy from the asker's card on (or from the cards heard, when it has none)
    solve_from = n_forced + (1 if ins[IN.F_CARD] >= 0 else 0) \
        if forced_run and ins[IN.SOLVE] == 1 else -1
    asked = False
    k = 0  # cards played so far
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
            if k == solve_from:
                solve_rest(ag, nh, trick, pos, rules, rec, active, decl_mask)
                return True
            legal = legal_mask(nh[seat], led)
            slot = R.PLAYS + 4 * t + pos
            b = -2  # -2: the seat's play policy chooses
            if replay:
                b = _recorded_card(hands, seat, legal, rules, rec, slot, 4 * t + pos)
                if b < 0:
                    return False
            elif k < n_forced:
                b = _forced_card(ins, ag.know, k, seat, hands[seat], legal, rules, rec,
                                 4 * t + pos)
                if b < 0:
                    return False
                if ins[IN.CHECK_PLAY] == 1 and seat != asker and ins[IN.CONJURE] == 0 and \
                        legal & (legal - ONE) != 0 and b != _heuristic_choice(
                            nh[seat], legal, ag.know[K.DECK] & ~ag.know[K.PLAYED], trick, led,
                            win_card, win_seat, seat, decl_mask, double) and \
                        not _kept_as_tremble(ins, rec, legal):
                    return fail(rec, E_INCONSISTENT, 4 * t + pos)
            elif seat == asker and not asked:
                asked = True
                b = _asker_card(ins, seat, hands[seat], legal, rules, rec, 4 * t + pos)
                if b == -1:
                    return False
            elif forced_run and not asked and stopping(ins) and ins[IN.STOP] == STOP_NEXT:
                rec[R.TURN] = seat  # the asker's card was asked, but it is this seat's turn
                return fail(rec, E_NOT_ASKERS_TURN, 4 * t + pos)
            if b >= 0:
                if not replay:
                    rec[slot] = from_norm[trump, b]
                    hands[seat] &= ~card_bit(rec[slot])
            else:
                policy = ag.policies[seat, PLAY]
                if policy == P_RANDOM:
                    b = random_set_bit(ag.rng, legal)
                elif legal & (legal - ONE) == 0:
                    b = lowest_bit(legal)
                elif policy == P_HEURISTIC:
                    b = _heuristic_choice(nh[seat], legal, ag.know[K.DECK] & ~ag.know[K.PLAYED],
                                          trick, led, win_card, win_seat, seat, decl_mask,
                                          double)
                elif policy == P_ANALYZER:
                    b = analyzer_card(ag.params[net_rows[seat]], nh[seat], legal, ag.know,
                                      trick, seat, decl_mask, ints, floats)
                else:
                    b = choose_card_solving(ag, seat, legal, nh, trick, decl_mask, double)
                rec[slot] = from_norm[trump, b]
            k += 1
            _card_seen(ag.know, nh, trick, seat, b, pos, led)
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
    if k < n_forced:  # more cards heard than the hand has: no deal fits them
        return fail(rec, E_INCONSISTENT, 4 * cfg[C.HAND])
    if forced_run and stopping(ins) and not asked:
        return fail(rec, E_NO_DECISION, 4 * cfg[C.HAND])
    return True
