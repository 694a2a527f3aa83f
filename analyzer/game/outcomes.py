"""How a played-out hand ended, from the player's side: its net points and which way it went
(our side made or was set, they made or were set, a redeal), vectorised over the results the
kernels return (slots ``kernels.slots.X``)."""

from __future__ import annotations

import numpy as np

from kernels.cards import codes as K
from kernels.slots import X

from .scoring import net_points
from .seating import tricks_needed
from .variants import Rules

PROBABILITIES = ("we_declare", "we_make", "we_march", "we_euchred", "they_make",
                 "they_euchred", "redeal")
# the chances an answer shows, in words (redeal: if any): every way a hand can end, so a row
# adds up to 100%
SHOWN_OUTCOMES = {"we_make": "we make", "we_euchred": "we're set", "they_make": "they make",
                  "they_euchred": "they're set", "redeal": "redeal"}


def outcome_arrays(rules: Rules, seat: int, results: np.ndarray) -> dict:
    """Per result (``results`` [..., X.LEN]): ``seat``'s net points (a redeal: 0), its side's
    tricks (``tricks``; against a declarer of three players, the defenders'), which way the
    hand went (``PROBABILITIES``, and ``failed`` where it could not be played) and the card
    an n-ask brought back (``received``), as arrays shaped like the results without their
    last axis."""
    status = results[..., X.STATUS].astype(np.int64)
    played = status == K.ST_PLAYED
    declarer = results[..., X.DECLARER].astype(np.int64)
    contract = np.where(played, results[..., X.CONTRACT], 0).astype(np.int64)
    tricks = np.where(played, results[..., X.TRICKS], 0).astype(np.int64)
    if rules.partnership:
        ours = played & ((declarer & 1) == (seat & 1))
    else:
        ours = played & (declarer == seat)
    theirs = played & ~ours
    n = rules.hand_size
    needs = np.array([tricks_needed(rules, c) for c in range(int(contract.max(initial=0)) + 1)])
    made = tricks >= needs[contract]
    net = np.where(played, net_points(rules, contract, tricks, ours), 0.0)
    # our side's tricks: the declaring side's when we declare, the rest when they do
    mine = np.where(ours, tricks, np.where(played, n - tricks, 0))
    return {"net": net, "tricks": mine, "we_declare": ours, "we_make": ours & made,
            "we_march": ours & (tricks == n), "we_euchred": ours & ~made,
            "they_make": theirs & made, "they_euchred": theirs & ~made,
            "redeal": status == K.ST_ALL_PASSED, "failed": status < 0,
            "received": results[..., X.AUX].astype(np.int64) & 63}


def unit_points(rules: Rules, results: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per result (``results`` [..., X.LEN]) the points each unit scores (ints ``[...,
    units]``: the teams N-S, E-W, or the players N, E, S; a redeal or a failed deal scores
    nothing), twice: where each defender scores its own tricks (ghost) the double-dummy
    result does not say how the defenders' tricks split, so the two arrays are the two
    halves each way round (a defender gets the larger half in one, the smaller in the
    other); elsewhere the two are the same array."""
    units = 2 if rules.partnership else rules.players
    status = results[..., X.STATUS].astype(np.int64)
    played = status == K.ST_PLAYED
    declarer = np.where(played, results[..., X.DECLARER], 0).astype(np.int64)
    contract = np.where(played, results[..., X.CONTRACT], 0).astype(np.int64)
    tricks = np.where(played, results[..., X.TRICKS], 0).astype(np.int64)
    table = rules.points_table
    decl, defend = table[contract, tricks, 0], table[contract, tricks, 1]
    unit = np.arange(units)
    declaring = (declarer % units)[..., None] == unit
    base = np.where(declaring, decl[..., None], defend[..., None])
    if not rules.defenders_score_own_tricks:
        out = np.where(played[..., None], base, 0)
        return out, out
    rest = rules.hand_size - tricks
    # the defenders in seat order after the declarer get the larger half, then the other
    first = ((declarer + 1) % units)[..., None] == unit
    halves = [np.where(first, big[..., None], small[..., None])
              for big, small in ((rest - rest // 2, rest // 2), (rest // 2, rest - rest // 2))]
    return tuple(np.where(played[..., None], base + np.where(declaring, 0, h), 0)
                 for h in halves)
