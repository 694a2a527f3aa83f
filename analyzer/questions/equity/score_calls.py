"""What changes with the score: from how many points the analyzer makes each call at a few
scores of a game, against the same seat score-blind (``analyzer-points``), as point counts a
player can read (``euchre strategy score``, the report's section, docs/equity.md).

On random hands dealt at a score, four analyzer seats told it (``to_score.tell_score``),
every call of our seats (N and S) is set beside the hand's point count for it (the built-in
count of ``kernels.bidding.bidding``: in round 1 for the upcard's suit, the upcard counted for the
dealer's side as the point-count strategy counts it; in round 2 and a ladder's opening bid
for the best suit). For each call the **threshold** is the ``t`` of the rule "make the call
from ``t`` points" that describes the seat's calls best (the fewest hands on the wrong side
of it): lower at a score than score-blind is a seat calling more (at 9-6 with a loner the
only way the other side wins: ordering up to keep them from going alone, a donation),
higher a seat calling less. A call made on fewer than ``RARE`` of its decisions has no
threshold (never)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels.bidding.bidding import DEFAULT_PARAMS, N_PARAMS, best_suit, order_points
from kernels.cards.codes import ASK, MOON, NAME, ORDER, PASS
from kernels.slots import R

from ...compute.engine import play_hands
from ...game.variants import LADDER, Rules
from ...strategy.defaults import BUILT_PLAY, DEFAULT_STRATEGY, SCORE_BLIND
from ...strategy.seats import seat_policies
from ...strategy.tables import SEAT_NAMES
from .build import hand_rules
from .to_score import tell_score

SCORE_SEED = 20261208
SCORE_HANDS = 40_000  # hands dealt at each score and dealer
RARE = 0.005
COUNT = np.tile(DEFAULT_PARAMS[:N_PARAMS], (4, 1))  # every seat's built-in point count


def score_states(rules: Rules) -> list[tuple[int, int]]:
    """The scores shown (ours first): the last points of a game, both ways (knock: 9-6, 6-9,
    8-9, 9-8, 9-9; bid: 28-30, 30-28, 31-31, 24-31)."""
    t = rules.target
    if t <= 12:
        return [(t - 1, t - 4), (t - 4, t - 1), (t - 2, t - 1), (t - 1, t - 2), (t - 1, t - 1)]
    return [(t - 4, t - 2), (t - 2, t - 4), (t - 1, t - 1), (t - 8, t - 1)]


def _points(rules: Rules, hand: int, upcard: int, seat: int, dealer: int) -> float:
    """The built-in point count of ``hand``: for the upcard's suit with it counted for the
    dealer's side (``upcard`` >= 0, round 1), else for the hand's best suit."""
    if upcard >= 0:
        return float(order_points(np.uint64(hand), upcard // 8, upcard, seat, dealer,
                                  rules.players, COUNT))
    return float(best_suit(np.uint64(hand), 15, COUNT, seat)[0])


def our_calls(rules: Rules, score, dealer: int, hands: int = SCORE_HANDS,
              blind: bool = False) -> pd.DataFrame:
    """The calls of our seats (N, S) on ``hands`` hands dealt by ``dealer`` at ``score``
    (ours first), every seat bidding by the analyzer told the score (``blind``: by
    ``analyzer-points``): one row per decision with the seat's place, the round (a ladder:
    1, opening bids only, nobody having bid), the call made (the bid; in the upcard auction
    1 for an order or a suit named), alone, and the hand's point count."""
    played = hand_rules(rules)
    policies, params = seat_policies(SCORE_BLIND if blind else DEFAULT_STRATEGY, BUILT_PLAY,
                                     rules=played)
    if not blind:
        tell_score(rules, params, score, dealer)
    masks, records = play_hands(played, hands, policies, params, SCORE_SEED, 0,
                                np.full(hands, dealer, dtype=np.int64))
    rows = []
    for hm, rec in zip(masks, records, strict=True):
        upcard = int(rec[R.UPCARD])
        for j in range(int(rec[R.NCALLS])):
            seat, call = int(rec[R.CALL_SEAT + j]), int(rec[R.CALL + j])
            last = j == int(rec[R.NCALLS]) - 1
            if rules.auction == LADDER and j > 0 and int(rec[R.CALL + j - 1]) != PASS:
                break  # after the first bid: no longer an opening
            if seat % 2:
                continue
            made = call if rules.auction == LADDER else int(call == ORDER or call >= NAME)
            round_no = 1 if rules.auction == LADDER or j < rules.players else 2
            rows.append({"seat": SEAT_NAMES[(seat - dealer) % rules.players],
                         "round": round_no, "call": made,
                         "alone": bool(made and last and (rec[R.ALONE_SEATS] >> seat) & 1),
                         "points": _points(rules, int(hm[seat]),
                                           upcard if round_no == 1 and rules.auction != LADDER
                                           else -1, seat, dealer)})
    return pd.DataFrame(rows)


def threshold(points: np.ndarray, made: np.ndarray) -> float:
    """The point count ``t`` of the rule "call from ``t`` points" with the fewest of the
    decisions (``points``, whether ``made``) on the wrong side; NaN when the call is made on
    fewer than ``RARE`` of them."""
    made = np.asarray(made, dtype=bool)
    if len(made) == 0 or made.mean() < RARE:
        return np.nan
    cuts = np.unique(points)
    below = np.array([np.sum(made[points < t]) for t in cuts])
    above = np.array([np.sum(~made[points >= t]) for t in cuts])
    return float(cuts[int(np.argmin(below + above))])


def _calls(rules: Rules) -> dict:
    """The calls a threshold is drawn for: name -> (round, test of a decision row)."""
    if rules.auction == LADDER:
        return {"bid 3+": (1, lambda f: f["call"] >= 3), "bid 4+": (1, lambda f: f["call"] >= 4),
                "bid 5+": (1, lambda f: f["call"] >= 5),
                "ask or moon": (1, lambda f: f["call"] >= ASK),
                "moon": (1, lambda f: f["call"] == MOON)}
    return {"order up": (1, lambda f: f["call"] == 1), "alone (round 1)": (1, lambda f: f["alone"]),
            "name": (2, lambda f: f["call"] == 1), "alone (round 2)": (2, lambda f: f["alone"])}


def _thresholds(rules: Rules, frame: pd.DataFrame) -> dict:
    """``(seat, call) -> (threshold, share of the decisions where it is made)``; none when
    our seats made no such decision (a bid's opening, where the other side always opens
    first at that score)."""
    out = {}
    if frame.empty:
        return out
    for seat, by_seat in frame.groupby("seat"):
        for name, (round_no, test) in _calls(rules).items():
            f = by_seat[by_seat["round"] == round_no]
            if len(f) < 50:
                continue
            if name == "name" and seat == "dealer" and rules.stick_the_dealer:
                continue  # stuck: the dealer must name a suit
            made = test(f).to_numpy()
            out[(seat, name)] = (threshold(f["points"].to_numpy(), made), float(made.mean()))
    return out


def score_thresholds(rules: Rules, states=None, hands: int = SCORE_HANDS,
                     progress=None) -> pd.DataFrame:
    """The thresholds at each score of ``states`` (default ``score_states``), our side
    dealing and theirs, beside the score-blind analyzer's on the same deals: columns
    ``score, deals, seat, call, from_points, share, blind_from, blind_share`` (points NaN:
    never; share: of the seat's decisions at that point of the auction)."""
    states = states or score_states(rules)
    rows = []
    for d, (who, dealer) in enumerate((("we", 0), ("they", 1))):
        blind = _thresholds(rules, our_calls(rules, (0, 0), dealer, hands, blind=True))
        for i, score in enumerate(states):
            aware = _thresholds(rules, our_calls(rules, score, dealer, hands))
            for (seat, call), (t, share) in aware.items():
                b, b_share = blind.get((seat, call), (np.nan, np.nan))
                rows.append({"score": f"{score[0]}-{score[1]}", "deals": who, "seat": seat,
                             "call": call, "from_points": t, "share": share, "blind_from": b,
                             "blind_share": b_share})
            if progress:
                progress(d * len(states) + i + 1, 2 * len(states))
    return pd.DataFrame(rows)


SHOWN = 0.5  # a threshold this many points from the score-blind one, or a call made this
SHOWN_SHARE = 0.05  # much more or less often, is a call that changes with the score


def shows_score(rules: Rules) -> bool:
    """Whether the thresholds can be drawn for ``rules``: two sides, and an analyzer that
    plays to the score (not ghost, not the double deck)."""
    from ...strategy.score_lens import plays_to_score

    return rules.partnership and plays_to_score(hand_rules(rules))


def _cell(points: float, share: float) -> str:
    """A threshold as a player reads it: ``4.9 39%`` (made from 4.9 points, on 39% of the
    decisions), ``never`` (made on fewer than ``RARE`` of them), ``-`` (too few
    decisions to tell)."""
    if np.isnan(share):
        return "-"
    if np.isnan(points):
        return "never"
    return f"{points:.1f} {share:.0%}"


def changed(row) -> bool:
    """Whether a row of ``score_thresholds`` is a call that changes with the score: its
    threshold ``SHOWN`` points or more from the score-blind one, or the call made at least
    ``SHOWN_SHARE`` more or less often (a call only one of them makes, too)."""
    a, b = row["from_points"], row["blind_from"]
    if np.isnan(a) != np.isnan(b):
        return True
    if not np.isnan(a) and abs(a - b) >= SHOWN:
        return True
    return bool(abs(row["share"] - np.nan_to_num(row["blind_share"])) >= SHOWN_SHARE)


def readable(frame: pd.DataFrame, only_changed: bool = False) -> pd.DataFrame:
    """``score_thresholds`` as a table a player reads: a row per call and our seat (``we
    deal: dealer``: its place, and which side deals), a column for the score-blind analyzer
    and one per score, each cell ``P S%``: the analyzer makes the call from P points (the
    built-in count) and does on S% of those decisions (``_cell``). A changed cell
    (``changed``) is marked ``*``; ``only_changed``: the rows with at least one."""
    if frame.empty:
        return pd.DataFrame()
    frame = frame.copy()
    frame["changed"] = frame.apply(changed, axis=1)
    scores = list(dict.fromkeys(frame["score"]))
    order = {name: i for i, name in enumerate(_order())}
    frame = frame.sort_values(["call", "deals"], key=lambda c: c.map(order) if c.name == "call"
                              else c.map({"we": 0, "they": 1}), kind="stable")
    rows = []
    for (call, deals, seat), f in frame.groupby(["call", "deals", "seat"], sort=False):
        first = f.iloc[0]
        row = {"call": call, "seat": f"{deals} deal: {seat}",
               "score-blind": _cell(first["blind_from"], first["blind_share"])}
        by = f.set_index("score")
        for s in scores:
            r = by.loc[s] if s in by.index else None
            row[s] = "-" if r is None else \
                _cell(r["from_points"], r["share"]) + ("*" if r["changed"] else "")
        row["any_changed"] = bool(f["changed"].any())
        rows.append(row)
    out = pd.DataFrame(rows)
    if only_changed:
        out = out[out["any_changed"]]
    return out.drop(columns="any_changed").reset_index(drop=True)


def _order() -> list[str]:
    return ["order up", "alone (round 1)", "name", "alone (round 2)", "bid 3+", "bid 4+",
            "bid 5+", "ask or moon", "moon"]
