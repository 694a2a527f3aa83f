"""Decision and play policies, dispatched on integer ids per seat.

The engine carries them in one ``Agents`` namedtuple of arrays: ``policies[seat] =
(decision policy, play policy)``, ``params[seat, PR_*]`` (see ``kernels.bidding``), the
hand's policy random stream ``rng``, the solver's per-thread ``work``/``table`` (dd and pimc
players), the knowledge array ``know`` (slots ``kernels.slots.K``) and the deck in the
normalised layout of each trump (``decks``). The ``choose_*`` functions
take the policy id, the seat's own cards and public facts as plain numbers, so a decision
cannot read another hand (tests scramble the unseen cards to check) and calls stay cheap.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from .bidding import (
    O_ALONE,
    O_KEEP,
    O_NAME,
    O_NAME_ALONE,
    O_ORDER,
    O_PASS,
    PR,
    analyzer_bid,
    analyzer_trump,
    best_suit,
    choose_bid,
    give_card,
    hand_points,
    order_points,
    partner_return,
    strat,
)
from .bits import lowest_bit, popcount
from .codes import AUCTION_LADDER, NAME, ORDER
from .config import JIT
from .heuristics import discard_card, keep_best
from .layout import JOKER
from .pimc import dd_card, pimc_card
from .rng import random_set_bit, uniform_int
from .slots import TR

Agents = namedtuple("Agents", ["policies", "params", "rng", "work", "table", "know", "decks"])

# decision policies (column 0)
D_RANDOM = 1  # uniformly random among the legal choices
D_POINTS = 2  # point-count thresholds (kernels.bidding)
D_ANALYZER = 3  # expected net points from the analyzer's own strength tables
# play policies (column 1)
P_RANDOM = 1
P_HEURISTIC = 2  # rules of thumb (kernels.play_heuristic)
P_DD = 3  # double dummy: sees every card
P_PIMC = 4  # perfect-information Monte Carlo (kernels.pimc)

PLAY = 1  # the play policy's column of policies[seat]

Q_SWAP = 0
Q_ACE_NO_FACE = 1
Q_ALONE = 2
Q_DEFEND_ALONE = 3

# what a card is picked for (choose_card_from)
PICK_DISCARD = 0
PICK_ASK_GIVE = 1
PICK_ASK_RETURN = 2
PICK_JOKER_DISCARD = 3

ONE = np.uint64(1)


@njit(**JIT)
def choose_call(policy, params, rng, seat, allowed, hand, auction, players, upcard, dealer):
    """The call of ``seat`` (natural ``hand``) among ``allowed`` (uint64 mask over call
    codes) in an ``auction`` of kind ``AUCTION_*``; ``upcard``/``dealer`` matter in the
    upcard auction."""
    if policy == D_RANDOM:
        return random_set_bit(rng, allowed)
    if auction == AUCTION_LADDER:
        if policy == D_ANALYZER:
            return analyzer_bid(hand, allowed, params, seat)
        return choose_bid(hand, allowed, params, seat)
    names = (allowed >> np.uint64(NAME)) & np.uint64(15)
    seat_rel = (seat - dealer) % players
    if (allowed >> np.uint64(ORDER)) & ONE:  # round 1
        if upcard == JOKER:
            return ORDER
        suit = (upcard & 31) >> 3
        if policy == D_ANALYZER:
            p = hand_points(hand, suit)
            ctx = seat_rel * 8 + (upcard & 7)
            order = strat(params, seat, O_ORDER, ctx, p)
            # The table's "pass" assumes the dealer always picks up; a dealer holding
            # little passes too, so passing is worth at most PR.PASS_EV (measured better).
            passing = params[seat, PR.PASS_EV]
            if seat != dealer:
                passing = min(passing, strat(params, seat, O_PASS, ctx, p))
            return ORDER if order > passing else 0
        if order_points(hand, suit, upcard, seat, dealer, players) >= params[seat, PR.ORDER]:
            return ORDER
        return 0
    if names:
        if upcard == JOKER and not (allowed & ONE):  # the dealer names before looking
            return NAME + random_set_bit(rng, names)
        if policy == D_ANALYZER:
            best_ev = -1e9
            suit = -1
            for t in range(4):
                if (names >> np.uint64(t)) & ONE:
                    ev = strat(params, seat, O_NAME, seat_rel * 8, hand_points(hand, t))
                    if ev > best_ev:
                        best_ev = ev
                        suit = t
            if best_ev > params[seat, PR.PASS_EV] or not (allowed & ONE):
                return NAME + suit
            return 0
        p, suit = best_suit(hand, np.int64(names))
        if p >= params[seat, PR.ORDER] or not (allowed & ONE):
            return NAME + suit
    return 0


@njit(**JIT)
def choose_yes_no(policy, params, rng, seat, question, hand, trump, upcard, dealer, players):
    """A yes/no decision of ``seat``: ghost swap, Ace-No-Face redeal, going alone, defending
    alone (``Q_*``). Returns True for yes."""
    if policy == D_RANDOM:
        return uniform_int(rng, 2) == 1
    if policy == D_ANALYZER and question == Q_SWAP:
        p, _ = best_suit(hand, 15)
        return strat(params, seat, O_KEEP, 0, p) < params[seat, PR.SWAP_EV]
    if policy == D_ANALYZER and question == Q_ALONE and upcard >= 0:
        p = hand_points(hand, trump)
        seat_rel = (seat - dealer) % players
        if upcard != JOKER and (upcard & 31) >> 3 == trump:
            ctx = seat_rel * 8 + (upcard & 7)
            return strat(params, seat, O_ALONE, ctx, p) > strat(params, seat, O_ORDER, ctx, p)
        return strat(params, seat, O_NAME_ALONE, seat_rel * 8, p) > \
            strat(params, seat, O_NAME, seat_rel * 8, p)
    if question == Q_SWAP:
        p, _ = best_suit(hand, 15)
        return p < params[seat, PR.SWAP]
    if question == Q_ACE_NO_FACE:
        return True
    if question == Q_ALONE:
        return hand_points(hand, trump) >= params[seat, PR.ALONE]
    return hand_points(hand, trump) >= params[seat, PR.DEFEND_ALONE]


@njit(**JIT)
def choose_trump(policy, params, rng, seat, allowed, hand, contract):
    """The suit a player names as trump among ``allowed`` (4-bit mask of suits) for the
    ``contract`` (call code) it won."""
    if policy == D_RANDOM:
        return random_set_bit(rng, np.uint64(allowed))
    if policy == D_ANALYZER:
        return analyzer_trump(hand, allowed, params, seat, contract)
    _, suit = best_suit(hand, allowed)
    return suit


@njit(**JIT)
def choose_card_from(policy, rng, purpose, candidates, trump, to_norm, from_norm):
    """A natural card from the natural mask ``candidates`` for a non-play purpose (``PICK_*``):
    a discard, the card given away in a 6-ask, the card a trumpless partner passes back."""
    if policy == D_RANDOM:
        return random_set_bit(rng, candidates)
    if purpose == PICK_ASK_GIVE:
        return give_card(candidates, trump)
    if purpose == PICK_ASK_RETURN:
        return partner_return(candidates, trump)
    if trump < 0:  # bid with the joker: discard before trump is known
        _, trump = best_suit(candidates, 15)
    return discard_card(candidates, trump, to_norm, from_norm)


@njit(**JIT)
def choose_dummy_discard(policy, rng, combined, keep, trump, to_norm, from_norm):
    """Cutthroat: which cards of the maker's ``combined`` hand+dummy (natural mask) to drop so
    that ``keep`` remain. Returns the natural mask of dropped cards."""
    if policy == D_RANDOM:
        dropped = np.uint64(0)
        left = combined
        for _ in range(popcount(combined) - keep):
            b = random_set_bit(rng, left)
            dropped |= ONE << np.uint64(b)
            left &= ~(ONE << np.uint64(b))
        return dropped
    return combined & ~keep_best(combined, keep, trump, to_norm, from_norm)


@njit(**JIT)
def choose_card_solving(ag, seat, legal, nhands, trick, active, decl, double):
    """The card of a dd or pimc player at ``seat`` among ``legal``: ``nhands`` the normalised
    hands, ``trick`` the engine's trick array (leader, count, cards, seats), ``decl`` the
    declaring side's 4-bit mask. (Random and heuristic cards are chosen inline by the engine:
    passing this many arrays to a function costs more than those players' whole choice.)"""
    if legal & (legal - ONE) == 0:
        return lowest_bit(legal)
    n_table = trick[TR.COUNT]
    leader = trick[TR.LEADER]
    cards = trick[TR.CARDS:TR.CARDS + 4]
    seats = trick[TR.SEATS:TR.SEATS + 4]
    if ag.policies[seat, PLAY] == P_DD:
        return dd_card(ag.work, ag.table, nhands, active, decl, double, leader, cards, seats,
                       n_table, seat, legal)
    worlds = np.int64(ag.params[seat, PR.PIMC_WORLDS])
    return pimc_card(ag.work, ag.table, ag.rng, worlds, nhands, active, decl, double, leader,
                     cards, seats, n_table, seat, legal, ag.know)
