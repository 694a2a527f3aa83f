"""The decision points of a played hand's cards: for each card of a record, what its player
could see before playing it (its hand then, the calls heard, the cards played before it, the
cards it put away, the card an n-asker was passed, the hand a swapper gave up, the trump a
bid's winner named, the dummy a cutthroat maker took), as the :class:`DecisionPoint` a
question at that moment is (``euchre review --method pimc`` prices each card there with the
odds code, as ``euchre odds --played`` would)."""

from __future__ import annotations

from kernels.cards import codes as K
from kernels.slots import M, R

from .decision_point import DecisionPoint
from .heard import Heard
from .records import Record
from .variants import DUMMY, LADDER


def heard_of(record: Record) -> Heard:
    """Every call of ``record``'s auction, with the maker who went alone."""
    rec, rules = record.rec, record.rules
    n = int(rec[R.NCALLS])
    maker = max((j for j in range(n) if int(rec[R.CALL + j]) not in (K.PASS, K.SWAP)),
                default=-1)
    heard = Heard()
    for j in range(n):
        alone = j == maker and rules.auction != LADDER and \
            bool(rec[R.CONTRACT] & K.CT_MAKER_ALONE)
        heard = heard.then(int(rec[R.CALL_SEAT + j]), int(rec[R.CALL + j]), alone)
    return heard


def put_away(record: Record, seat: int, took_dummy: bool) -> int:
    """The cards ``seat`` put away before the play (a natural mask): every card it had
    before the first lead — dealt, the upcard the dealer took, the dummy a cutthroat maker
    took, the card an n-asker was passed — that it does not hold at the first lead (the
    dealer's discard, the dropped cards, the card given)."""
    rec, hm = record.rec, record.hm
    had = int(hm[M.DEALT + (3 if seat == rec[R.SWAP_SEAT] else seat)])  # a swapper: the ghost
    if seat == int(rec[R.DEALER]) and rec[R.UPCARD] >= 0 and \
            int(hm[M.PLAY + seat]) >> int(rec[R.UPCARD]) & 1:
        had |= 1 << int(rec[R.UPCARD])
    if seat == int(rec[R.DEALER]) and rec[R.DEALER_DISCARD] >= 0:
        had |= 1 << int(rec[R.UPCARD])
    if seat == int(rec[R.DECLARER]):
        if took_dummy:
            had |= int(hm[M.DEALT + 3])
        if rec[R.ASK_RECEIVE] >= 0:
            had |= 1 << int(rec[R.ASK_RECEIVE])
    return had & ~int(hm[M.PLAY + seat])


def exchanged(record: Record, seat: int) -> tuple[int, int]:
    """What ``seat`` knows of the cards that changed owner before the play (natural masks;
    0: none): the card its partner passed it in its n-ask, and the hand it gave up for the
    ghost hand."""
    rec, hm = record.rec, record.hm
    got = 1 << int(rec[R.ASK_RECEIVE]) if seat == rec[R.DECLARER] and \
        rec[R.ASK_RECEIVE] >= 0 else 0
    return got, int(hm[M.DEALT + seat]) if seat == rec[R.SWAP_SEAT] else 0


def card_points(record: Record) -> list[DecisionPoint]:
    """One decision point per card played in ``record`` (a replayed, played hand), in play
    order: the player's view just before it played that card."""
    rules, rec, hm = record.rules, record.rec, record.hm
    heard = heard_of(record)
    declarer = int(rec[R.DECLARER])
    named = int(rec[R.TRUMP]) if rules.auction == LADDER else -1
    took_dummy = rules.seat_w == DUMMY and int(hm[M.DUMMY_DISCARD]) != 0
    hands = [int(hm[M.PLAY + s]) for s in range(4)]
    played: list[tuple[int, int]] = []
    points = []
    for t in range(rules.hand_size):
        seat = int(rec[R.TRICK_LEADER + t])
        for pos in range(4):
            card = int(rec[R.PLAYS + 4 * t + pos])
            if card < 0:
                break
            seat = next(s for s in range(4) if hands[s] >> card & 1)
            dummy = int(hm[M.DEALT + 3]) if took_dummy and seat == declarer else 0
            got, gave_up = exchanged(record, seat)
            points.append(DecisionPoint(rules, int(rec[R.DEALER]), seat, hands[seat],
                                        int(rec[R.UPCARD]), heard, tuple(played), named,
                                        put_away(record, seat, took_dummy), (),
                                        dummy, received=got, swapped=gave_up))
            played.append((seat, card))
            hands[seat] &= ~(1 << card)
    return points
