"""A decision point opened in one trip down to the engine (``kernels.drivers.forced``,
``kernels.hand.engine.point_state``): :func:`open_point` plays the calls heard up to the player's
turn and returns what is decided there (:class:`PointState`: a call, a discard, going alone
as a defender, and the legal choices) with the point as the kernels take it (its row: the
dealer, the upcard, the calls heard, the asker, solve or play, the inference). The layers
above read both from the returned :class:`OpenPoint` and never touch a kernel slot; the rows
of the options played out from the point are made here too (:func:`option_row`). Whose
decision comes next, the player's or another seat's, and what it is: :func:`turn_of`, from
the same one run.

Failures are typed: :class:`NotYourTurn` (it carries whose turn it is),
:class:`NothingToDecide`, and plain ``UserError`` for an auction that is not legal."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from kernels.cards import codes as KC
from kernels.cards import layout as L
from kernels.cards.rules import next_active
from kernels.cards.seating import contract_active, partner
from kernels.deal.record import new_instructions
from kernels.drivers.forced import (
    hear_call,
    hear_play,
    new_point,
    set_inference,
    set_own_play,
    set_play_inference,
    set_solving,
    start_point,
)
from kernels.hand.engine import point_state
from kernels.hand.exchanges import plays_alone
from kernels.slots import IN, MAX_PLAYS, OPT, PT, M, R

from ..errors import UserError
from ..game.decision_point import DecisionPoint, ghost_taken
from ..game.notation import SEATS, format_card
from ..game.records import Record, describe_error, empty_arrays
from ..game.variants import Rules
from .first_compile import engine_for

KINDS = {KC.STOP_CALL: "call", KC.STOP_DISCARD: "discard", KC.STOP_DEFEND: "defend",
         KC.STOP_CARD: "card", KC.STOP_KEEP: "keep"}
TREMBLE_UNIT = 1_000_000  # the point row keeps the tremble as an integer chance per million


# a point with cards played, stopped at a decision before the play: what the question lacks
BEFORE_PLAY = {
    "call": "--played comes after the last call, but the auction is not complete: it is your "
            "turn to call",
    "discard": "you are the dealer and took the upcard: give your discard (--discarded)",
    "keep": "you took the dummy: give the cards you dropped (--discarded)",
    "defend": "--played: say first whether you defend alone (not supported yet)"}


class NotYourTurn(UserError):
    """The calls heard lead to another seat's turn (``turn``)."""

    def __init__(self, message: str, turn: int):
        super().__init__(message)
        self.turn = turn


class NothingToDecide(UserError):
    """After the calls heard the player has nothing left to decide (the bidding is over)."""


@dataclass(frozen=True)
class PointState:
    """What the player at a decision point decides: ``kind`` is ``call`` (``allowed``: the
    call codes, ``SWAP`` included where it may swap), ``discard`` (the dealer after the
    pick-up; ``allowed``: the six cards), ``defend`` (going alone as a defender), ``keep``
    (a cutthroat maker's hand from its cards and the dummy's; ``allowed``: the ten) or
    ``card`` (a card to play; ``allowed``: the legal ones, natural ids)."""

    kind: str
    allowed: int
    playing: int = 0  # the seats that play the hand, once it is in the play (else 0)
    trump: int = -1  # once it is in the play
    voids: tuple = (0, 0, 0, 0)  # per seat, the cards of the suits it has shown out of

    def codes(self) -> list[int]:
        """The call codes or cards of ``allowed``, lowest first."""
        return [c for c in range(64) if (self.allowed >> c) & 1]


@dataclass(frozen=True)
class OpenPoint:
    """A decision point opened: its ``state`` (what is decided, the legal choices) and its
    ``row`` as the kernels take it (treat as read-only: the ``with_*`` methods make
    copies)."""

    state: PointState
    row: np.ndarray

    @property
    def infers(self) -> bool:
        """Whether deals are dealt to fit the calls heard."""
        return bool(self.row[PT.CHECK])

    @property
    def tremble(self) -> float:
        """The chance, with inference, that a seat makes another call than its strategy's."""
        return int(self.row[PT.TREMBLE]) / TREMBLE_UNIT

    @property
    def infers_play(self) -> bool:
        """Whether deals are weighed by the cards heard played (the others' card play)."""
        return bool(self.row[PT.CHECK_PLAY])

    def with_inference(self, infer: bool, tremble: float,
                       infer_play: bool | None = None) -> OpenPoint:
        """A copy dealing to fit the calls heard (``infer``, when some were heard), each seat
        making another legal call with chance ``tremble``; with ``infer_play`` (``None``: as
        before) and ``infer`` also the cards heard played, each seat playing its heuristic
        card or, with chance ``tremble``, another legal one."""
        row = self.row.copy()
        set_inference(row, bool(infer), round(tremble * TREMBLE_UNIT))
        set_play_inference(row, bool(self.infers_play if infer_play is None else infer_play))
        return replace(self, row=row)

    def with_solving(self, solve: bool) -> OpenPoint:
        """A copy whose hands are solved double dummy (``solve``) or played by the seats'
        card play."""
        row = self.row.copy()
        set_solving(row, int(solve))
        return replace(self, row=row)


def point_row(point: DecisionPoint, solve: bool = False) -> np.ndarray:
    """A decision point as the kernels take it (int64, slots ``kernels.slots.PT``, written by
    ``kernels.drivers.forced``): the dealer, the upcard, the calls heard (the makers among them who
    went alone), the asker, and ``solve`` (the tricks double dummy); no inference. UserError
    when the auction is longer than any can be."""
    heard = point.heard
    n = len(heard)
    if n >= KC.MAX_CALLS:
        raise UserError(f"--auction has {n} calls; no auction is that long")
    if len(point.played) > MAX_PLAYS:
        raise UserError(f"--played has {len(point.played)} cards; no hand has that many")
    row = np.empty(PT.LEN, dtype=np.int64)
    new_point(row, point.dealer, point.upcard, point.seat, int(solve))
    for seat, call in zip(heard.seats, heard.calls, strict=True):
        hear_call(row, seat, call, (heard.alone >> seat) & 1)
    for seat, card in point.played:
        hear_play(row, seat, card)
    one = point.discarded if point.discarded & (point.discarded - 1) == 0 else 0
    card = one.bit_length() - 1 if one else -1  # one card put away: a discard or a card given
    got = point.received.bit_length() - 1 if point.received else -1
    set_own_play(row, point.named, card, card, 0 if one else point.discarded, got)
    return row


def forced_record(point: DecisionPoint) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The engine arrays of a decision point ``(hm, rec, ins)``: the asker's hand, the calls
    heard, and instructions that force them and name the asker
    (``kernels.drivers.forced.start_point``)."""
    row = point_row(point)
    hm, rec = empty_arrays()
    ins = new_instructions()
    deal_hm = hm.copy()
    deal_hm[M.DEALT + point.seat] = np.uint64(point.dealt_hand())
    deal_hm[M.DEALT + 3] |= np.uint64(point.dummy)  # a cutthroat maker has seen the dummy
    deal_hm[M.DEALT + partner(point.seat)] |= np.uint64(point.received)  # the partner's
    deal_hm[M.DEALT + 3] |= np.uint64(ghost_taken(point)[1])  # the ghost hand it took
    start_point(hm, rec, ins, deal_hm, row)
    ins[IN.CONJURE] = 1  # the other hands are not dealt: their plays need no cards
    return hm, rec, ins


def open_point(point: DecisionPoint, solve: bool = True, infer: bool = True,
               tremble: float = 0.0, infer_play: bool = False,
               state: PointState | None = None) -> OpenPoint:
    """Open ``point``: the engine plays the calls heard up to it (one kernel call) and says
    what is decided there, unless the caller has that already (``state``: a question opened
    once); the row has ``solve`` and the inference (``infer``, ``tremble``, ``infer_play``)
    set. NotYourTurn, NothingToDecide or UserError when the calls heard do not lead to the
    player's decision."""
    state = state_of(point) if state is None else state
    return OpenPoint(state, point_row(point, solve)).with_inference(infer, tremble, infer_play)


def playing_seats(rules: Rules, rec: np.ndarray) -> int:
    """The 4-bit mask of the seats that play the contract of ``rec`` (a record in the play):
    a declarer who plays alone (a lone maker; an n-ask or a moon with partners) leaves its
    partner out, a lone defender its own."""
    cfg = rules.arrays.cfg
    return int(contract_active(cfg, rec[R.DECLARER], plays_alone(cfg, rec),
                               rec[R.DEFENDER_ALONE]))


def state_of(point: DecisionPoint) -> PointState:
    """What the player decides at ``point`` (the engine plays the calls heard up to it).
    NotYourTurn when the calls heard lead to another seat's turn, NothingToDecide when they
    leave the player nothing to decide, UserError when they are not a legal auction."""
    return _state_after(point, *_run_to_decision(point))


@dataclass(frozen=True)
class Turn:
    """What comes next at a decision point, whoever decides it: ``seat`` (None: nothing is
    left for the player to decide, and the hand needs no one's decision it could enter) and
    its decision, ``state``: the player's own as :func:`state_of` gives it; another seat's
    call with the calls it may make; another seat's card with the seats that play the
    contract, the trump and the suits each has shown out of (its cards are not known:
    ``allowed`` 0)."""

    seat: int | None
    state: PointState | None


def turn_of(point: DecisionPoint) -> Turn:
    """Whose decision comes next at ``point``, and what it is, from one run of the engine (the
    page's one trip a request); UserError when the calls heard or the cards played cannot
    be."""
    hm, rec = _run_to_decision(point)
    try:
        return Turn(point.seat, _state_after(point, hm, rec))
    except NotYourTurn as e:
        if rec[R.DECLARER] < 0:  # another seat's call: the engine says the calls it may make
            return Turn(e.turn, _decision(point.rules, rec, "call", int(np.uint64(rec[R.ALLOWED]))))
        return Turn(e.turn, _decision(point.rules, rec, "card", 0))
    except NothingToDecide:
        return Turn(None, None)


def _run_to_decision(point: DecisionPoint) -> tuple[np.ndarray, np.ndarray]:
    """``(hm, rec)`` after the engine's one run of ``point``: the calls heard and the cards
    played forced, up to the next decision (``kernels.hand.engine.point_state``)."""
    hm, rec, ins = forced_record(point)
    ins[IN.STOP] = KC.STOP_NEXT
    point_state(point.rules.arrays, hm, rec, ins, engine_for(point.rules))
    return hm, rec


def _decision(rules, rec: np.ndarray, kind: str, allowed: int) -> PointState:
    """The decision a run of the engine stopped at (``rec``): its ``kind`` and ``allowed``
    options, and in the play the seats of the contract, the trump and the suits each seat
    has shown out of."""
    if kind != "card":
        return PointState(kind, allowed)
    active = playing_seats(rules, rec)
    return PointState(kind, allowed, active.bit_count(), int(rec[R.TRUMP]),
                      shown_out(rules, rec, active))


def _state_after(point: DecisionPoint, hm: np.ndarray, rec: np.ndarray) -> PointState:
    """What the player decides at ``point``, from the record of its run (see
    :func:`state_of`)."""
    rules = point.rules
    error = int(rec[R.ERROR])
    if error == KC.E_STOPPED:
        kind = KINDS[int(rec[R.STOP_KIND])]
        if kind != "card" and point.played:
            raise UserError(BEFORE_PLAY[kind])
        return _decision(rules, rec, kind, int(np.uint64(rec[R.ALLOWED])))
    who = SEATS[point.seat]
    if error == KC.E_NOT_ASKERS_TURN and point.played and rec[R.DECLARER] < 0:
        raise UserError(f"--played comes after the last call, but the auction is not complete: "
                        f"it is {SEATS[int(rec[R.TURN])]}'s turn to call")
    if error == KC.E_NOT_ASKERS_TURN and rec[R.DECLARER] >= 0:
        turn = SEATS[int(rec[R.TURN])]
        raise NotYourTurn(f"it is {turn}'s turn to play, not {who}'s" +
                          (" (after the cards played)" if point.played else ""),
                          int(rec[R.TURN]))
    if error == KC.E_INCONSISTENT and point.in_play:
        raise UserError(_misfit(point, rec))
    if error == KC.E_NOT_ASKERS_TURN:
        turn = SEATS[int(rec[R.TURN])]
        if point.upcard == L.JOKER and not point.heard.calls and turn == SEATS[point.dealer]:
            raise NotYourTurn(f"the joker is turned up, so the dealer ({turn}) names trump "
                              f"before anyone calls: give {turn}'s call in the auction first",
                              int(rec[R.TURN]))
        raise NotYourTurn(f"after the calls heard it is {turn}'s turn to call, not {who}'s: "
                          f"give the calls up to {who}'s turn in the auction",
                          int(rec[R.TURN]))
    if error == KC.E_NO_DECISION:
        raise NothingToDecide(f"after the calls heard {who} has nothing left to decide")
    if error == KC.E_AUCTION_LONG:
        raise UserError(f"the bidding is over before the auction's call "
                        f"{int(rec[R.ERROR_AT]) + 1}")
    message = describe_error(Record(rules, hm, rec))
    raise UserError(message.replace("auction call", "the auction's call"))


def shown_out(rules, rec: np.ndarray, active: int) -> tuple:
    """Per seat, the cards of the suits (effective: the bowers are trump) it has shown out of
    in the tricks played so far in ``rec`` by the seats of the 4-bit mask ``active``
    (natural masks)."""
    to_norm, _ = rules.layout
    trump = int(rec[R.TRUMP])
    slots = [0, 0, 0, 0]
    for t in range(rules.hand_size):
        seat, led = int(rec[R.TRICK_LEADER + t]), -1
        for pos in range(4):
            card = int(rec[R.PLAYS + 4 * t + pos])
            if card < 0:
                break
            slot = int(to_norm[trump, card]) >> 4
            if led < 0:
                led = slot
            elif slot != led:
                slots[seat] |= 1 << led
            seat = int(next_active(seat, active))
    deck = int(L.deck_mask(rules.deck))
    return tuple(sum(1 << c for c in range(64) if deck >> c & 1
                     and slots[s] >> (int(to_norm[trump, c]) >> 4) & 1) for s in range(4))


def _misfit(point: DecisionPoint, rec: np.ndarray) -> str:
    """Why the cards played do not fit the hand as the engine plays it (the point's own
    cards: the other hands are not dealt yet, so a play of theirs can be wrong only in its
    turn)."""
    at = int(rec[R.ERROR_AT])
    n = len(point.played)
    if at >= 4 * point.rules.hand_size:
        return f"--played has {n} cards, more than the hand's tricks hold"
    k = _play_index(point, rec, at)
    if k is None or k >= n:
        return "--played does not fit the hand"
    seat, card = point.played[k]
    play = f"--played: play {k + 1} ({SEATS[seat]} {format_card(card)})"
    active = playing_seats(point.rules, rec)
    written = _written_trick(point.trick_sizes, k)
    if written is not None and point.trick_sizes[written] > active.bit_count():
        return (f"--played: trick {written + 1} has {point.trick_sizes[written]} cards; "
                f"{active.bit_count()} seats play this hand")
    trick, pos = divmod(at, 4)
    turn = int(rec[R.TRICK_LEADER + trick])
    for _ in range(pos):
        turn = int(next_active(turn, active))
    if seat != turn:
        return f"{play} is out of turn: it is {SEATS[turn]}'s turn to play"
    if seat != point.seat and shown_out(point.rules, rec, active)[seat] >> card & 1:
        return f"{play} is a renege: {SEATS[seat]} showed out of that suit before"
    if seat != point.seat:
        return f"{play} is impossible there"
    return (f"--played: play {k + 1} ({SEATS[seat]} {format_card(card)}) does not follow suit "
            f"(a renege), or you did not hold it")


def _written_trick(sizes: tuple, k: int) -> int | None:
    """The trick (0-based, as written in --played) that holds play ``k``."""
    for t, size in enumerate(sizes):
        if k < size:
            return t
        k -= size
    return None


def _play_index(point: DecisionPoint, rec: np.ndarray, at: int) -> int | None:
    """The index in ``point.played`` of the play the engine failed at (``at``: trick * 4 +
    position), counting the plays of the tricks before it."""
    trick, pos = divmod(at, 4)
    count = 0
    for t in range(trick):
        count += sum(1 for p in range(4) if rec[R.PLAYS + 4 * t + p] >= 0)
    return count + pos


def auction_turn(point: DecisionPoint) -> int | None:
    """The seat whose decision comes next after the calls heard at ``point`` (``turn_of``'s),
    or None when none is left for the player. UserError when the calls heard are not a
    legal auction."""
    return turn_of(point).seat


def option_row(call: int = -1, alone: int = -1, discard: int = -1, give: int = -1,
               trump: int = -1, defend: int = -1, card: int = -1, drop: int = 0) -> tuple:
    """An option played out from a point, as the kernels take it (slots ``OPT``): the
    player's call, whether it goes alone, its discard, the card it gives in an n-ask, the
    trump it names, whether it defends alone, the card it plays (-1: the player's strategy
    decides), the cards a cutthroat maker drops (a natural mask; 0: its strategy's)."""
    row = [-1] * OPT.LEN
    row[OPT.CALL], row[OPT.ALONE], row[OPT.DISCARD] = call, alone, discard
    row[OPT.GIVE], row[OPT.TRUMP], row[OPT.DEFEND] = give, trump, defend
    row[OPT.CARD], row[OPT.DROP] = card, np.int64(np.uint64(drop))
    return tuple(row)


def option_rows(rows: list[tuple]) -> np.ndarray:
    """Option rows (:func:`option_row`) as the int64 array ``[O, OPT.LEN]`` the kernels
    take."""
    return np.array(rows, dtype=np.int64).reshape(-1, OPT.LEN)
