"""A decision point opened in one trip down to the engine (``kernels.forced``,
``kernels.engine.point_state``): :func:`open_point` plays the calls heard up to the player's
turn and returns what is decided there (:class:`PointState`: a call, a discard, going alone
as a defender, and the legal choices) with the point as the kernels take it (its row: the
dealer, the upcard, the calls heard, the asker, solve or play, the inference). The layers
above read both from the returned :class:`OpenPoint` and never touch a kernel slot; the rows
of the options played out from the point are made here too (:func:`option_row`).

Failures are typed: :class:`NotYourTurn` (it carries whose turn it is),
:class:`NothingToDecide`, and plain ``UserError`` for an auction that is not legal."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from kernels import codes as KC
from kernels import layout as L
from kernels.engine import point_state
from kernels.forced import hear_call, new_point, set_inference, set_solving, start_point
from kernels.record import new_instructions
from kernels.slots import IN, OPT, PT, M, R

from ..errors import UserError
from ..game.decision_point import DecisionPoint
from ..game.notation import SEATS
from ..game.records import Record, describe_error, empty_arrays

KINDS = {KC.STOP_CALL: "call", KC.STOP_DISCARD: "discard", KC.STOP_DEFEND: "defend"}
TREMBLE_UNIT = 1_000_000  # the point row keeps the tremble as an integer chance per million


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
    pick-up; ``allowed``: the six cards) or ``defend`` (going alone as a defender)."""

    kind: str
    allowed: int

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

    def with_inference(self, infer: bool, tremble: float) -> OpenPoint:
        """A copy dealing to fit the calls heard (``infer``, when some were heard), each seat
        making another legal call with chance ``tremble``."""
        row = self.row.copy()
        set_inference(row, bool(infer), round(tremble * TREMBLE_UNIT))
        return replace(self, row=row)

    def with_solving(self, solve: bool) -> OpenPoint:
        """A copy whose hands are solved double dummy (``solve``) or played by the seats'
        card play."""
        row = self.row.copy()
        set_solving(row, int(solve))
        return replace(self, row=row)


def point_row(point: DecisionPoint, solve: bool = False) -> np.ndarray:
    """A decision point as the kernels take it (int64, slots ``kernels.slots.PT``, written by
    ``kernels.forced``): the dealer, the upcard, the calls heard (the makers among them who
    went alone), the asker, and ``solve`` (the tricks double dummy); no inference. UserError
    when the auction is longer than any can be."""
    heard = point.heard
    n = len(heard)
    if n >= KC.MAX_CALLS:
        raise UserError(f"--auction has {n} calls; no auction is that long")
    row = np.empty(PT.LEN, dtype=np.int64)
    new_point(row, point.dealer, point.upcard, point.seat, int(solve))
    for seat, call in zip(heard.seats, heard.calls, strict=True):
        hear_call(row, seat, call, (heard.alone >> seat) & 1)
    return row


def forced_record(point: DecisionPoint) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The engine arrays of a decision point ``(hm, rec, ins)``: the asker's hand, the calls
    heard, and instructions that force them and name the asker
    (``kernels.forced.start_point``)."""
    row = point_row(point)
    hm, rec = empty_arrays()
    ins = new_instructions()
    deal_hm = hm.copy()
    deal_hm[M.DEALT + point.seat] = np.uint64(point.hand)
    start_point(hm, rec, ins, deal_hm, row)
    return hm, rec, ins


def open_point(point: DecisionPoint, solve: bool = True, infer: bool = True,
               tremble: float = 0.0) -> OpenPoint:
    """Open ``point``: the engine plays the calls heard up to it (one kernel call) and says
    what is decided there; the row has ``solve`` and the inference (``infer``, ``tremble``)
    set. NotYourTurn, NothingToDecide or UserError when the calls heard do not lead to the
    player's decision."""
    state = state_of(point)
    return OpenPoint(state, point_row(point, solve)).with_inference(infer, tremble)


def state_of(point: DecisionPoint) -> PointState:
    """What the player decides at ``point`` (the engine plays the calls heard up to it).
    NotYourTurn when the calls heard lead to another seat's turn, NothingToDecide when they
    leave the player nothing to decide, UserError when they are not a legal auction."""
    rules = point.rules
    hm, rec, ins = forced_record(point)
    ins[IN.STOP] = KC.STOP_NEXT
    point_state(rules.arrays, hm, rec, ins)
    error = int(rec[R.ERROR])
    if error == KC.E_STOPPED:
        return PointState(KINDS[int(rec[R.STOP_KIND])], int(rec[R.ALLOWED]))
    who = SEATS[point.seat]
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


def auction_turn(point: DecisionPoint) -> int | None:
    """The seat whose turn it is after the calls heard at ``point`` (its seat and hand are not
    used), or None when the bidding is over. UserError when the calls heard are not a legal
    auction."""
    try:
        state_of(point)
    except NotYourTurn as e:
        return e.turn
    except NothingToDecide:
        return None
    return point.seat


def option_row(call: int = -1, alone: int = -1, discard: int = -1, give: int = -1,
               trump: int = -1, defend: int = -1) -> tuple:
    """An option played out from a point, as the kernels take it (slots ``OPT``): the
    player's call, whether it goes alone, its discard, the card it gives in an n-ask, the
    trump it names, whether it defends alone (-1: the player's strategy decides)."""
    row = [-1] * OPT.LEN
    row[OPT.CALL], row[OPT.ALONE], row[OPT.DISCARD] = call, alone, discard
    row[OPT.GIVE], row[OPT.TRUMP], row[OPT.DEFEND] = give, trump, defend
    return tuple(row)


def option_rows(rows: list[tuple]) -> np.ndarray:
    """Option rows (:func:`option_row`) as the int64 array ``[O, OPT.LEN]`` the kernels
    take."""
    return np.array(rows, dtype=np.int64).reshape(-1, OPT.LEN)
