"""Decision and play policies, dispatched on integer ids per seat.

The engine carries them in one ``Agents`` namedtuple of arrays: ``policies[seat] =
(decision policy, play policy)``, ``params[seat, PR_*]`` (see ``kernels.bidding.bidding``), the
hand's policy random stream ``rng``, the solver's per-thread ``work``/``table`` (dd and pimc
players), the knowledge array ``know`` (slots ``kernels.slots.K``) and the deck in the
normalised layout of each trump (``decks``), and how the hand is to be run, ``ins`` (slots
``kernels.slots.IN``: replayed, forced from a decision point, solved). The ``choose_*`` functions
take the policy id, the seat's own cards and public facts as plain numbers, so a decision
cannot read another hand (tests scramble the unseen cards to check) and calls stay cheap.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ..bidding.bidding import (
    L_SWAP,
    N_CODES,
    PR,
    T,
    analyzer_ladder,
    best_suit,
    call_value,
    choose_bid,
    give_card,
    hand_points,
    ladder_context,
    ladder_tricks,
    order_points,
    partner_return,
    plays_to_score,
    strat,
    threshold,
    trump_bucket,
)
from ..bidding.exchange_heuristics import discard_card, keep_best
from ..bidding.exchange_rules import made_on_upcard
from ..bidding.upcard_model import analyzer_alone, analyzer_round2, upcard_call_values
from ..cards.bits import ONE, lowest_bit, popcount
from ..cards.codes import NAME, ORDER, PASS
from ..cards.layout import JOKER, natural_suit
from ..config import JIT, NRT_FREE
from ..deal.rng import random_set_bit, uniform_int
from ..play.pimc import dd_card, pimc_card

Agents = namedtuple("Agents", ["policies", "params", "rng", "work", "table", "know", "decks",
                               "ins"])

# decision policies (column 0)
D_RANDOM = 1  # uniformly random among the legal choices
D_POINTS = 2  # point-count thresholds (kernels.bidding.bidding)
D_ANALYZER = 3  # expected net points from the analyzer's own strength tables
# play policies (column 1)
P_RANDOM = 1
P_HEURISTIC = 2  # rules of thumb (kernels.play.play_heuristic)
P_DD = 3  # double dummy: sees every card
P_PIMC = 4  # perfect-information Monte Carlo (kernels.play.pimc)
P_ANALYZER = 5  # the analyzer's learned card player (kernels.play.analyzer_player; inline)

PLAY = 1  # the play policy's column of policies[seat]

Q_ACE_NO_FACE = 1
Q_ALONE = 2
Q_DEFEND_ALONE = 3

# what a card is picked for (choose_card_from)
PICK_DISCARD = 0
PICK_ASK_GIVE = 1
PICK_ASK_RETURN = 2
PICK_JOKER_DISCARD = 3


@njit(**NRT_FREE)
def choose_ladder_call(policy, params, rng, seat, allowed, hand, place, players, holder,
                       swapped):
    """The call of ``seat`` (natural ``hand``, ``place`` seats after the dealer of
    ``players``) among ``allowed`` (uint64 mask over call codes) in a ladder auction: the seat
    holding the current bid is ``holder`` (-1 nobody), ``swapped`` whether the ghost hand was
    taken. (Plain numbers, not the rules and record arrays: an array passed costs more than
    the point count's whole choice.)"""
    if policy == D_RANDOM:
        return random_set_bit(rng, allowed)
    if policy == D_ANALYZER:
        return analyzer_ladder(hand, allowed, params, seat, place, holder, swapped,
                               players)[0]
    return choose_bid(hand, allowed, params, seat, place)


@njit(**NRT_FREE)
def choose_upcard_call(policy, params, rng, seat, allowed, hand, players, upcard, dealer):
    """The call of ``seat`` (natural ``hand``) among ``allowed`` (uint64 mask over call
    codes) in an upcard auction with ``upcard`` turned by ``dealer``: round 1 orders it up or
    passes, round 2 names a suit or passes."""
    if policy == D_RANDOM:
        return random_set_bit(rng, allowed)
    place = (seat - dealer) % players
    turned = natural_suit(upcard)
    if (allowed >> np.uint64(ORDER)) & ONE:
        return _round1(policy, params, seat, hand, players, upcard, dealer, place, turned)
    names = np.int64((allowed >> np.uint64(NAME)) & np.uint64(15))
    if upcard == JOKER and not (allowed & ONE):  # the dealer names before looking
        return NAME + random_set_bit(rng, np.uint64(names))
    if policy == D_ANALYZER:
        return analyzer_round2(hand, allowed, params, seat, place, turned)
    p, suit = best_suit(hand, names, params, seat)
    if p >= threshold(params, seat, place, T.NAME) or not (allowed & ONE):
        return NAME + suit
    return PASS


@njit(**JIT)
def _round1(policy, params, seat, hand, players, upcard, dealer, place, suit):
    """Round 1: order the upcard's suit (``ORDER``) or pass."""
    if policy == D_ANALYZER:
        values = np.empty(N_CODES)
        upcard_call_values(hand, (ONE << np.uint64(ORDER)) | ONE, params, seat, place, upcard,
                           suit, plays_to_score(params, seat), values)
        return ORDER if values[ORDER] > values[PASS] else PASS
    p = order_points(hand, suit, upcard, seat, dealer, players, params)
    return ORDER if p >= threshold(params, seat, place, T.ORDER) else PASS


@njit(**NRT_FREE)
def choose_swap(policy, params, rng, seat, hand, allowed, players, dealer, holder):
    """Whether ``seat`` takes the ghost hand before its bid (``allowed``: its bids)."""
    if policy == D_RANDOM:
        return uniform_int(rng, 2) == 1
    place = (seat - dealer) % players
    if policy == D_ANALYZER:
        keep = analyzer_ladder(hand, allowed, params, seat, place, holder, 0, players)[1]
        p, suit = best_suit(hand, 15, params, seat)
        ctx = ladder_context(allowed, place, seat, holder, 0, players, trump_bucket(hand, suit),
                             ladder_tricks(hand))
        return call_value(params, seat, plays_to_score(params, seat), L_SWAP, place,
                          strat(params, seat, L_SWAP, ctx, p)) > keep
    p, _ = best_suit(hand, 15, params, seat)
    return p < threshold(params, seat, place, T.SWAP_BELOW)


@njit(**NRT_FREE)
def choose_yes_no(policy, params, rng, seat, question, hand, trump, upcard, dealer, players):
    """A yes/no decision of ``seat``: Ace-No-Face redeal, going alone, defending alone
    (``Q_*``). Returns True for yes."""
    if policy == D_RANDOM:
        return uniform_int(rng, 2) == 1
    if question == Q_ACE_NO_FACE:
        return True
    place = (seat - dealer) % players
    round1 = made_on_upcard(upcard, trump)
    p = hand_points(hand, trump, params, seat)
    if policy == D_ANALYZER and question == Q_ALONE and upcard >= 0:
        return analyzer_alone(params, seat, hand, trump, upcard, place, p, round1)
    if question == Q_ALONE:
        kind = T.ORDER_ALONE if round1 else T.NAME_ALONE
        return p >= threshold(params, seat, place, kind)
    return p >= threshold(params, seat, place, T.DEFEND_ALONE)


@njit(**NRT_FREE)
def choose_trump(policy, params, rng, seat, allowed, hand, contract):
    """The suit a player names as trump among ``allowed`` (4-bit mask of suits) for the
    ``contract`` (call code) it won: its best suit by its point count."""
    if policy == D_RANDOM:
        return random_set_bit(rng, np.uint64(allowed))
    _, suit = best_suit(hand, allowed, params, seat)
    return suit


@njit(**NRT_FREE)
def choose_card_from(policy, params, rng, seat, purpose, candidates, trump, rules):
    """A natural card from the natural mask ``candidates`` for a non-play purpose (``PICK_*``):
    a discard, the card given away in an n-ask, the card a trumpless partner passes back."""
    if policy == D_RANDOM:
        return random_set_bit(rng, candidates)
    if purpose == PICK_ASK_GIVE:
        return give_card(candidates, trump)
    if purpose == PICK_ASK_RETURN:
        return partner_return(candidates, trump)
    if trump < 0:  # the ladder dealer's extra card: discard before trump is known
        _, trump = best_suit(candidates, 15, params, seat)
    return discard_card(candidates, trump, rules)


@njit(**NRT_FREE)
def choose_dummy_discard(policy, rng, combined, keep, trump, rules):
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
    return combined & ~keep_best(combined, keep, trump, rules)


@njit(**NRT_FREE)
def choose_card_solving(ag, seat, legal, nhands, trick, decl, double):
    """The card of a dd or pimc player at ``seat`` among ``legal``: ``nhands`` the normalised
    hands, ``trick`` the engine's trick array (slots ``TR``: leader, cards, seats, the seats
    that play), ``decl`` the declaring side's 4-bit mask. (Random and heuristic cards are
    chosen inline by the engine: passing this many arrays to a function costs more than those
    players' whole choice.)"""
    if legal & (legal - ONE) == 0:
        return lowest_bit(legal)
    if ag.policies[seat, PLAY] == P_DD:
        return dd_card(ag.work, ag.table, nhands, decl, double, trick, seat, legal)
    worlds = np.int64(ag.params[seat, PR.WORLDS])
    return pimc_card(ag, worlds, nhands, decl, double, trick, seat, legal)
