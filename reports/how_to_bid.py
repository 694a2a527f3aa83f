"""The "How to bid" sentences of a report, from the strategy tables' ``advice`` (the point
count from which each call beats passing at each kind of decision point, drawn by
``analyzer.strategy.advice``)."""

from __future__ import annotations

import math

import pandas as pd

ANY = "any"  # the advice table's mark of a pooled column

SEAT_ORDER = ["first", "second", "third", "dealer"]
SEAT_WORDS = {"first": "first seat (left of the dealer)", "second": "second seat",
              "third": "third seat", "dealer": "the dealer"}
UNITS = ("Points are the built-in point count of the hand in the trump suit ('euchre strategy "
         "show points'; the upcard not counted); each call is compared with passing at the "
         "same point, on the same deals, everyone else bidding by the tables' strategy.")


def _pts(row) -> str:
    """``from N points`` (a row of the advice table), ``(not sure)`` after it when the gain's
    95% interval holds 0; ``never`` when no point count makes the call pay; ``?`` when too few
    deals tell."""
    value = None if row is None else row["from_points"]
    if value is None or math.isnan(value):
        return "? (too few deals)"
    if math.isinf(value):
        return "never"
    return f"from {value:g} points" + ("" if row["gain_low"] > 0 else " (not sure)")


def _pick(a: pd.DataFrame, **where) -> pd.DataFrame:
    rows = a
    for col, value in where.items():
        rows = rows[rows[col] == value]
    return rows


def _from(a: pd.DataFrame, option: str, against: str = "pass", **where) -> pd.Series | None:
    rows = _pick(a, option=option, against=against, **where)
    return None if rows.empty else rows.iloc[0]


def _upcard_lines(a: pd.DataFrame) -> list[str]:
    lines = []
    for seat in SEAT_ORDER:
        order = "pick it up" if seat == "dealer" else "order up"
        pooled = dict(round=1, seat=seat, upcard=ANY)
        by_rank = _pick(a, round=1, seat=seat, option="order up", against="pass",
                        suit="turned")
        ranks = "; ".join(f"{r}: {'never' if math.isinf(v) else f'{v:g}'}" for r, v in
                          zip(by_rank["upcard"], by_rank["from_points"], strict=True)
                          if r != ANY and not math.isnan(v))
        lines.append(f"Round 1, {SEAT_WORDS[seat]}: {order} {_pts(_from(a, 'order up', **pooled))}"
                     f"{f' (by upcard, {ranks})' if ranks else ''}; alone "
                     f"{_pts(_from(a, 'order up alone', **pooled))}; alone rather than with "
                     f"partner {_pts(_from(a, 'order up alone', 'order up', **pooled))}.")
    for seat in SEAT_ORDER:
        def named(option, suit, seat=seat):
            return _pts(_from(a, option, round=2, seat=seat, upcard=ANY, suit=suit))
        lines.append(f"Round 2, {SEAT_WORDS[seat]}: name next {named('name', 'next')}, cross "
                     f"{named('name', 'cross')}; alone next {named('name alone', 'next')}, "
                     f"cross {named('name alone', 'cross')}.")
    return lines


def _ladder_lines(a: pd.DataFrame) -> list[str]:
    lines = []
    calls = [o for o in sorted(a["option"].unique()) if o != "swap"]
    for seat in SEAT_ORDER:
        opening = _pick(a, seat=seat, bid_before="none", holder=ANY, against="pass")
        parts = [f"{o} {_pts(_from(opening, o))}" for o in calls
                 if not _pick(opening, option=o).empty]
        if parts:
            lines.append(f"Opening, {SEAT_WORDS[seat]}: {'; '.join(parts)} (in the best "
                         f"suit).")
    levels = [b for b in a["bid_before"].unique() if b != "none"]
    for level in sorted(levels, key=lambda b: int(b.split("-")[0])):
        over = _pick(a, seat=ANY, bid_before=level, holder=ANY, against="pass")
        parts = [f"{o} {_pts(_from(over, o))}" for o in calls
                 if not _pick(over, option=o).empty]
        if parts:
            lines.append(f"Over a bid of {level}: {'; '.join(parts)}.")
    return lines


def how_to_bid(tables: dict) -> list[str]:
    """Plain sentences: from how many points each call beats passing, by seat and round (and
    upcard rank) or by seat and the bid so far; when to swap for the ghost hand."""
    meta = tables["meta"]
    a = tables["advice"]
    if a.empty or a["from_points"].isna().all():
        return [f"{meta['deals']:,} deals are too few to draw conclusions; run more."]
    lines = _upcard_lines(a) if meta["auction"] == "upcard" else _ladder_lines(a)
    if "swap" in tables:
        sw = tables["swap"]
        keep = sw[sw["advice"] == "keep"].sort_values("strength")
        if not keep.empty:
            lines.append(f"Keep the dealt hand when its best suit is worth "
                         f"{keep.iloc[0]['strength']:g} points or more; below that the "
                         f"unseen ghost hand is worth more on average "
                         f"({sw['swap_ev'].iloc[0]:+.2f} net points).")
    return lines + [UNITS]
