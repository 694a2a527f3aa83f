"""The calls of a played hand, each priced where it was made: at its decision point (the
caller's own cards, the dealer, the upcard and the calls heard before it), every legal call
is played out to the end of the hand on deals of the unseen cards that fit the calls heard
(``analyzer.questions.odds.answer.odds_at``: later calls by the ``others`` strategy, the cards
double dummy). A call's cost is the best call's expected net points minus its own, counted only when
the paired 95% interval of that difference excludes 0; the caller could not see the other
hands, so the hindsight of the actual deal plays no part.
"""

from __future__ import annotations

import math

from kernels.cards import codes as K
from kernels.slots import M, R

from ...compute.effort import Effort
from ...errors import UserError
from ...game.decision_point import DecisionPoint, swapper_of
from ...game.heard import Heard
from ...game.notation import SEATS
from ...game.records import Record, call_text
from ...game.variants import LADDER
from ...strategy.defaults import CALL_DEALS, DEFAULT_METHOD
from ..odds.answer import odds_at
from ..odds.options import call_label, option_label
from ..odds.play_model import PlayModel


def _maker_index(rec) -> int:
    """The index of the call that won the auction (-1: none)."""
    for j in range(int(rec[R.NCALLS]) - 1, -1, -1):
        if int(rec[R.CALL + j]) not in (K.PASS, K.SWAP):
            return j
    return -1


def _made(record: Record, result, j: int, call: int, alone: bool) -> list[int]:
    """The options of ``result`` that are the call made (several when a ladder bid that did
    not win commits to no trump: its value is then the best of them)."""
    rec = record.rec
    final = j == _maker_index(rec)
    out = []
    for i, o in enumerate(result.choices):
        if o.call != call:
            continue
        if record.rules.auction == LADDER:
            if final and call != K.PASS and o.trump != int(rec[R.TRUMP]):
                continue
            if final and call == K.ASK and o.give != int(rec[R.ASK_GIVE]):
                continue
        elif call != K.PASS:
            if o.alone != int(alone):
                continue
            if o.discard >= 0 and o.discard != int(rec[R.DEALER_DISCARD]):
                continue
        out.append(i)
    return out


def _made_label(record: Record, j: int, made) -> str:
    """Call ``j`` of the record in the words of the answers (``order up S``, ``name alone C``,
    ``bid 4 H``; ``made`` is its option at the point): a ladder bid that did not win the
    auction committed to no trump, so it reads without one (``bid 4``)."""
    if record.rules.auction == LADDER and j != _maker_index(record.rec):
        return call_label(record.rules, int(record.rec[R.CALL + j]), -1)
    return option_label(made.name, made.trump_text, made.detail)


def _priced(point: DecisionPoint, deals: int, others: str, seed: int, method: str):
    """``(result, note)``: the odds at the point, the hands played by ``method``, with
    inference, or without it (and a note) when no deal fits the calls heard under the others'
    strategy. KeyboardInterrupt when Ctrl-C cut the pricing short."""
    note = ""
    effort = Effort(deals, seed=seed, all_details=True)  # the call made may be any detail
    try:
        result = odds_at(point, PlayModel(others, method=method), effort)
    except UserError:
        result = odds_at(point, PlayModel(others, method=method, infer=False), effort)
        note = f"the calls heard are not the {others} strategy's: dealt without inference; "
    if result.interrupted:  # a shortened estimate would pass for a whole one
        raise KeyboardInterrupt
    return result, note


def _call_row(record: Record, j: int, heard: Heard, deals: int, others: str,
              seed: int, method: str) -> tuple[dict, bool]:
    """The review row of call ``j`` and whether its maker went alone."""
    rules, rec, hm = record.rules, record.rec, record.hm
    seat, call = int(rec[R.CALL_SEAT + j]), int(rec[R.CALL + j])
    alone = j == _maker_index(rec) and bool(rec[R.CONTRACT] & K.CT_MAKER_ALONE) and \
        rules.auction != LADDER
    took = swapper_of(heard) == seat
    dealt = int(hm[M.DEALT + seat])  # after its swap: it holds the ghost hand, gave this up
    point = DecisionPoint(rules, int(rec[R.DEALER]), seat, int(hm[M.DEALT + 3]) if took else
                          dealt, int(rec[R.UPCARD]), heard, score=record.score,
                          swapped=dealt if took else 0)
    result, note = _priced(point, deals, others, seed, method)
    table = result.details  # a row per option, in the order of result.choices
    made = _made(record, result, j, call, alone)
    if not made:
        raise UserError(f"call {j + 1} ({SEATS[seat]} {call_text(call, rules)}) is not among "
                        f"the options at its point")
    value = "p_win" if "p_win" in table else "ev"  # with a score: the chance of the game
    k = max(made, key=lambda i: table[value].iloc[i])
    best = int(table[value].idxmax())
    gap, low, high = (-table[c].iloc[k] for c in ("vs_best", "vs_best_high", "vs_best_low"))
    costly = k != best and low > 0
    o = result.choices[best]
    if value == "p_win":  # in points of percentage of the game
        note += (f"{result.deals:,} deals; {100 * gap:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"
                 f" points of percentage of the game behind the best (score {result.score})")
    else:
        note += f"{result.deals:,} deals; {gap:+.2f} [{low:+.2f}, {high:+.2f}] behind the best"
    return {"kind": "call", "seat": SEATS[seat], "trick": None,
            "choice": _made_label(record, j, result.choices[k]),
            "best": option_label(o.name, o.trump_text, o.detail) if k != best else "",
            "value_before": round(float(table[value].iloc[best]), 3),
            "value_after": round(float(table[value].iloc[k]), 3), "cost_tricks": math.nan,
            "cost_points": round(float(gap), 3) if costly else 0.0,
            "note": note if k != best else f"{result.deals:,} deals; the best call"}, alone


def call_rows(record: Record, deals: int = CALL_DEALS, others: str = "analyzer",
              seed: int = 0, method: str = DEFAULT_METHOD) -> list[dict]:
    """A review row for every call of the record's auction (``value_before``: the best
    call's expected net points for the caller, ``value_after``: the call made's; each
    call's hands played by ``method``; a call after its maker's swap for the ghost hand on
    the ghost hand)."""
    rec = record.rec
    heard = Heard()
    rows = []
    for j in range(int(rec[R.NCALLS])):
        seat, call = int(rec[R.CALL_SEAT + j]), int(rec[R.CALL + j])
        row, alone = _call_row(record, j, heard, deals, others, seed, method)
        rows.append(row)
        heard = heard.then(seat, call, alone)
    return rows
