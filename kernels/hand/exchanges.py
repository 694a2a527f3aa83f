"""The hand engine's phase between trump and the first lead: the n-ask exchange and the lone
contracts of the ladder auction; going alone, the dummy and a lone defender in the upcard
auction. Each returns the 4-bit mask of seats that play, or -1 after a replay error."""

import numpy as np
from numba import njit

from ..bidding.exchange_rules import ask_returns, exchange_pool
from ..cards.bits import highest_bit, popcount
from ..cards.codes import (
    ASK,
    AUCTION_LADDER,
    CT_DEFENDER_ALONE,
    CT_MAKER_ALONE,
    E_ALONE_NOT_ALLOWED,
    E_ASK_GIVE,
    E_ASK_RETURN,
    E_DUMMY_DISCARD,
    E_INCONSISTENT,
    MODE_FORCED,
    MODE_REPLAY,
    MOON,
    SEAT_W_DUMMY,
    STOP_DEFEND,
    STOP_KEEP,
)
from ..cards.layout import SLOT_MASKS, denormalise_mask, normalise_mask
from ..cards.rules import next_active
from ..cards.seating import may_defend_alone, on_declaring_side, players_mask, sits_out_with
from ..config import JIT, NRT_FREE
from ..deal.record import card_bit, fail, flip_kept, held_copy, stop_here, stopping
from ..slots import IN, C, K, M, R
from .auction import discard_cards, forced_card, not_played_later, pick_card, pick_within
from .policies import (
    PICK_ASK_GIVE,
    PICK_ASK_RETURN,
    Q_ALONE,
    Q_DEFEND_ALONE,
    choose_dummy_discard,
    choose_yes_no,
)


@njit(**NRT_FREE)
def ask_exchange(ag, hands, rules, rec, partner):
    """The n-ask: the bidder gives a card to the partner and gets the partner's best trump
    back (a partner without trump passes the card of their choice). Returns False after a
    replay error."""
    cfg = rules.cfg
    decl = rec[R.DECLARER]
    trump = rec[R.TRUMP]
    done = forced_card(decl, hands[decl], cfg, ag.ins, rec, IN.F_GIVE, R.ASK_GIVE, E_ASK_GIVE)
    if done < 0 or done == 0 and not (
            pick_card(ag, decl, PICK_ASK_GIVE, hands[decl], rules, rec, R.ASK_GIVE, E_ASK_GIVE)
            and pick_within(ag, decl, PICK_ASK_GIVE, not_played_later(ag.ins, decl, hands[decl]),
                            rules, rec, R.ASK_GIVE, E_ASK_GIVE)):
        return False  # (its strategy's card may be one it plays later, so kept: the next best)
    returns = ask_returns(hands[partner], trump, rules)
    known = ag.ins[IN.F_RECEIVE] if ag.ins[IN.MODE] == MODE_FORCED and \
        decl == ag.ins[IN.ASKER] else -1
    if known >= 0:  # the asker's own point: it knows the card it was passed
        rec[R.ASK_RECEIVE] = held_copy(returns, known, cfg)
        if rec[R.ASK_RECEIVE] < 0:
            return fail(rec, E_INCONSISTENT, rec[R.NCALLS])  # not this deal's partner's card
    elif returns != hands[partner]:  # the best trump: no choice
        if ag.ins[IN.MODE] == MODE_REPLAY and held_copy(returns, rec[R.ASK_RECEIVE], cfg) < 0:
            return fail(rec, E_ASK_RETURN, 0)
        rec[R.ASK_RECEIVE] = highest_bit(returns)
    elif not (pick_card(ag, partner, PICK_ASK_RETURN, returns, rules, rec, R.ASK_RECEIVE,
                        E_ASK_RETURN) and
              pick_within(ag, partner, PICK_ASK_RETURN,
                          not_shown_out_later(ag.ins, rules, trump, decl, returns), rules, rec,
                          R.ASK_RECEIVE, E_ASK_RETURN)):
        return False  # (not a card of a suit the asker showed out of later: it was not passed)
    give = card_bit(rec[R.ASK_GIVE])
    ag.know[K.DEAD + decl] |= give
    get = card_bit(rec[R.ASK_RECEIVE])
    hands[decl] = (hands[decl] & ~give) | get
    hands[partner] = (hands[partner] & ~get) | give
    return True


@njit(**NRT_FREE)
def not_shown_out_later(ins, rules, trump, seat, hand):
    """``hand`` less the cards of the suits a forced run hears ``seat`` show out of later
    (``IN.PLAYS``; an n-ask's tricks: three cards each): the card a trumpless partner passes
    the asker is one of the others, whatever its strategy would pass (the asker's cards heard
    played are dealt to it, so the card passed is never played). The whole hand when that
    leaves none."""
    if ins[IN.MODE] != MODE_FORCED:
        return hand
    shown = 0
    led = -1
    for k in range(ins[IN.FORCED_PLAYS]):
        code = ins[IN.PLAYS + k]
        slot = rules.to_norm[trump, code & 255] >> 4
        if k % 3 == 0:
            led = slot
        elif (code >> 8) == seat and slot != led:
            shown |= 1 << led
    norm = normalise_mask(hand, rules.to_norm[trump])
    for s in range(4):
        if (shown >> s) & 1:
            norm &= ~SLOT_MASKS[s]
    rest = denormalise_mask(norm, rules.from_norm[trump])
    return rest if rest != 0 else hand


@njit(inline="always", **JIT)
def ladder_exchanges(ag, hands, rules, hm, rec):
    """After a ladder auction: with partners, the n-ask and the moon leave the partner out
    (the n-ask after its exchange). Nobody else goes alone."""
    cfg = rules.cfg
    replay = ag.ins[IN.MODE] == MODE_REPLAY
    decl = rec[R.DECLARER]
    contract = rec[R.CONTRACT]
    active = players_mask(cfg)
    if plays_alone(cfg, rec):
        partner = sits_out_with(cfg, decl, decl)
        if contract == ASK and not ask_exchange(ag, hands, rules, rec, partner):
            return -1
        hm[M.DEAD] |= hands[partner]
        active &= ~(1 << partner)
    elif replay and (rec[R.ASK_GIVE] >= 0 or rec[R.ASK_RECEIVE] >= 0):
        fail(rec, E_ASK_GIVE, 0)
        return -1
    if replay and rec[R.ALONE_SEATS] > 0:
        fail(rec, E_ALONE_NOT_ALLOWED, 0)
        return -1
    rec[R.ALONE_SEATS] = 0
    return active


@njit(**NRT_FREE)
def plays_alone(cfg, rec):
    """Whether the declarer of ``rec`` plays without a partner's (or the dummy's) hand: a
    lone maker of the upcard auction; with partners, the n-ask and the moon."""
    if cfg[C.AUCTION] == AUCTION_LADDER:
        return (rec[R.CONTRACT] == ASK or rec[R.CONTRACT] == MOON) and cfg[C.PARTNERS] == 1
    return rec[R.MAKER_ALONE] == 1


@njit(**NRT_FREE)
def take_dummy(ag, hands, rules, hm, rec, alone):
    """Seat W is a dummy: a maker with partners' help combines it with their hand and keeps
    the best ``C.HAND`` cards; a lone maker leaves it out. Returns False after a replay
    error."""
    decl = rec[R.DECLARER]
    if alone:
        hm[M.DEAD] |= hands[3]
        if ag.ins[IN.MODE] == MODE_REPLAY and hm[M.DUMMY_DISCARD] != 0:
            return fail(rec, E_DUMMY_DISCARD, 0)
    else:
        combined, keep = exchange_pool(rules, hands[decl], hands[3])
        own = ag.ins[IN.MODE] == MODE_FORCED and decl == ag.ins[IN.ASKER]
        if ag.ins[IN.MODE] == MODE_REPLAY or (own and ag.ins[IN.F_DROP] > 0):
            dropped = hm[M.DUMMY_DISCARD] if ag.ins[IN.MODE] == MODE_REPLAY else \
                np.uint64(ag.ins[IN.F_DROP])
            if (dropped & ~combined) != 0 or popcount(dropped) != popcount(combined) - keep:
                return fail(rec, E_DUMMY_DISCARD, 0)
            hm[M.DUMMY_DISCARD] = dropped
        elif own and stopping(ag.ins):
            return stop_here(rec, STOP_KEEP, decl, combined)
        else:
            dropped = choose_dummy_discard(ag.policies[decl, 0], ag.rng, combined, keep,
                                           rec[R.TRUMP], rules)
            hm[M.DUMMY_DISCARD] = dropped
        hands[decl] = combined
        discard_cards(ag, hands, hm, decl, dropped)
    hands[3] = 0
    return True


@njit(**NRT_FREE)
def _recorded_lone_defender(cfg, rec):
    """Replay: the lone defender named in ``R.ALONE_SEATS`` into ``R.DEFENDER_ALONE`` (-1:
    none). Returns False when more than one defender is named."""
    decl = rec[R.DECLARER]
    lone = rec[R.ALONE_SEATS] & ~(1 << decl)
    rec[R.DEFENDER_ALONE] = -1
    if lone == 0:
        return True
    d = 0
    while not ((lone >> d) & 1):
        d += 1
    rec[R.DEFENDER_ALONE] = d
    return lone == (1 << d)


@njit(**NRT_FREE)
def maker_alone(ag, hands, cfg, rec):
    """Whether the maker goes alone: 1 or 0, or -1 after an error. The policy's, but in a
    forced run the asker's own choice where given, and for a maker who made trump by a forced
    call, as heard (``IN.HEARD_ALONE``; checked against the maker's policy where asked: a
    choice its policy would not make is kept only as a tremble, and then it is the heard
    one)."""
    decl = rec[R.DECLARER]
    heard = -1
    if ag.ins[IN.MODE] == MODE_FORCED:
        if decl == ag.ins[IN.ASKER] and ag.ins[IN.F_ALONE] >= 0:
            return ag.ins[IN.F_ALONE]
        if rec[R.NCALLS] <= ag.ins[IN.FORCED]:
            heard = (ag.ins[IN.HEARD_ALONE] >> decl) & 1
            if ag.ins[IN.CHECK] == 0 or decl == ag.ins[IN.ASKER]:
                return heard
    alone = 1 if choose_yes_no(ag.policies[decl, 0], ag.params, ag.rng, decl, Q_ALONE,
                               hands[decl], rec[R.TRUMP], rec[R.UPCARD], rec[R.DEALER],
                               cfg[C.PLAYERS]) else 0
    if heard < 0 or alone == heard:
        return alone
    if not flip_kept(ag.ins, rec):
        fail(rec, E_INCONSISTENT, rec[R.NCALLS])
        return -1
    return heard


@njit(**NRT_FREE)
def choose_lone_defender(ag, hands, cfg, rec, active):
    """The first defender clockwise from the maker who goes alone (its policy's choice, the
    asker's own in a forced run), or -1; -2 when a forced run stops at the asker's choice
    (where the rules let a defender go alone)."""
    decl = rec[R.DECLARER]
    d = next_active(decl, active)
    while d != decl:
        if not on_declaring_side(cfg, d, decl):
            if ag.ins[IN.MODE] == MODE_FORCED and d == ag.ins[IN.ASKER]:
                if ag.ins[IN.F_DEFEND] >= 0:
                    yes = ag.ins[IN.F_DEFEND] == 1
                elif ag.ins[IN.STOP] > 0:
                    stop_here(rec, STOP_DEFEND, d, 3)
                    return -2
                else:
                    yes = _defends(ag, d, hands, cfg, rec)
            else:
                yes = _defends(ag, d, hands, cfg, rec)
            if yes:
                return d
        d = next_active(d, active)
    return -1


@njit(**NRT_FREE)
def _defends(ag, d, hands, cfg, rec):
    return choose_yes_no(ag.policies[d, 0], ag.params, ag.rng, d, Q_DEFEND_ALONE, hands[d],
                         rec[R.TRUMP], rec[R.UPCARD], rec[R.DEALER], cfg[C.PLAYERS])


@njit(inline="always", **JIT)
def upcard_exchanges(ag, hands, rules, hm, rec):
    """After an upcard auction: the maker goes alone or not (taking the dummy where seat W is
    one), then a defender may go alone where the rules allow."""
    cfg = rules.cfg
    replay = ag.ins[IN.MODE] == MODE_REPLAY
    decl = rec[R.DECLARER]
    active = players_mask(cfg)
    if replay:
        if not _recorded_lone_defender(cfg, rec):
            fail(rec, E_ALONE_NOT_ALLOWED, 1)
            return -1
        alone = (rec[R.ALONE_SEATS] >> decl) & 1
    else:
        alone = maker_alone(ag, hands, cfg, rec)
        if alone < 0:
            return -1
    rec[R.MAKER_ALONE] = 1 if alone else 0
    alone = alone == 1
    contract = CT_MAKER_ALONE if alone else 0
    out = sits_out_with(cfg, decl, decl)
    if alone and out >= 0:
        hm[M.DEAD] |= hands[out]
        active &= ~(1 << out)
    if cfg[C.SEAT_W] == SEAT_W_DUMMY and not take_dummy(ag, hands, rules, hm, rec, alone):
        return -1
    if replay:
        d = rec[R.DEFENDER_ALONE]
        if d >= 0 and not may_defend_alone(cfg, d, decl, active):
            fail(rec, E_ALONE_NOT_ALLOWED, 1)
            return -1
    elif cfg[C.LONE_DEFENDER] == 1:
        rec[R.DEFENDER_ALONE] = choose_lone_defender(ag, hands, cfg, rec, active)
        if rec[R.DEFENDER_ALONE] == -2:
            return -1
    else:
        rec[R.DEFENDER_ALONE] = -1
    d = rec[R.DEFENDER_ALONE]
    rec[R.ALONE_SEATS] = rec[R.MAKER_ALONE] << decl
    if d >= 0:
        rec[R.ALONE_SEATS] |= 1 << d
        contract |= CT_DEFENDER_ALONE
        other = sits_out_with(cfg, d, decl)
        hm[M.DEAD] |= hands[other]
        active &= ~(1 << other)
    rec[R.CONTRACT] = contract
    return active


@njit(inline="always", **JIT)
def exchanges(ag, hands, rules, hm, rec):
    """Everything between trump and the first lead. Returns the 4-bit mask of seats that
    play, or -1 after a replay error."""
    cfg = rules.cfg
    if cfg[C.AUCTION] == AUCTION_LADDER:
        return ladder_exchanges(ag, hands, rules, hm, rec)
    return upcard_exchanges(ag, hands, rules, hm, rec)
