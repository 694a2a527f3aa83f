"""What the strategy tables advise: each call's gain over passing at the same decision point
and hand strength, and the point count from which a call beats passing.

Both sides of a gain come from the same deals (every legal call of N is played out on each
deal where N is asked), so the gain of a call at a strength is EV(call) - EV(pass) there; its
interval treats the two means as independent, which is conservative for paired values.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..stats import Z95

SUMS = ["deals", "points", "points_sq"]


def _means(frame: pd.DataFrame, suffix: str = "") -> pd.DataFrame:
    n = frame["deals" + suffix]
    mean = frame["points" + suffix] / n
    var = np.maximum(0.0, (frame["points_sq" + suffix] - n * mean ** 2) / np.maximum(n - 1, 1))
    return mean, var / n


def call_gains(strength: pd.DataFrame, points: list[str], by: list[str],
               against: dict | None = None) -> pd.DataFrame:
    """Each call's gain over another choice at the same point (passing, or ``against[call]``):
    the strength table's cells summed over everything but ``points`` (the columns that make a
    decision point, e.g. round and seat) and the strength, the other choice's value at the
    same point and strength subtracted, then pooled to ``by`` (a subset of ``points``)
    weighting each point by its deals. Returns ``[*by, option, against, strength, deals,
    gain, gain_low, gain_high]``."""
    cols = [*points, "option", "strength"]
    s = strength.groupby(cols, as_index=False)[SUMS].sum()
    calls = s[s["option"] != "pass"].copy()
    calls["against"] = calls["option"].map(lambda o: (against or {}).get(o, "pass"))
    base = s.rename(columns={"option": "against"})
    calls = calls.merge(base, on=[*points, "against", "strength"], suffixes=("", "_base"))
    mean, var = _means(calls)
    mean_b, var_b = _means(calls, "_base")
    calls["n"] = np.minimum(calls["deals"], calls["deals_base"])
    calls["wgain"] = calls["n"] * (mean - mean_b)
    calls["wvar"] = calls["n"] ** 2 * (var + var_b)
    keys = [*by, "option", "against", "strength"]
    out = calls.groupby(keys, as_index=False)[["n", "wgain", "wvar"]].sum()
    out["gain"] = out["wgain"] / out["n"]
    half = Z95 * np.sqrt(out["wvar"]) / out["n"]
    out["gain_low"], out["gain_high"] = out["gain"] - half, out["gain"] + half
    return out.rename(columns={"n": "deals"})[[*keys[:-1], "strength", "deals", "gain",
                                                "gain_low", "gain_high"]]


def beats_passing_from(gains: pd.DataFrame, by: list[str], min_deals: int) -> pd.DataFrame:
    """Per ``by`` group and call: the point count from which the call beats passing, i.e. the
    threshold t of the rule "make the call with t points or more" that gains the most over
    always passing (the sum over strengths >= t of deals x gain); NaN when no threshold
    gains, or fewer than ``min_deals`` deals lie above the best one. Returns ``[*by, option,
    against, from_points, deals, gain, gain_low, gain_high]`` (gain: the mean gain of the hands
    at or above it, with its 95% interval: how sure the advice is)."""
    rows = []
    for key, g in gains.groupby([*by, "option", "against"], sort=True):
        g = g.sort_values("strength", ascending=False)
        total = (g["deals"] * g["gain"]).cumsum().to_numpy()
        deals = g["deals"].cumsum().to_numpy()
        var = ((g["deals"] * (g["gain_high"] - g["gain"]) / Z95) ** 2).cumsum().to_numpy()
        k = int(np.argmax(total))
        if total[k] > 0 and deals[k] >= min_deals:
            mean, half = total[k] / deals[k], Z95 * np.sqrt(var[k]) / deals[k]
            rows.append((*key, g["strength"].iloc[k], int(deals[k]), mean, mean - half,
                         mean + half))
        elif total[k] <= 0 and deals[-1] >= min_deals:
            rows.append((*key, np.inf, int(deals[-1]), np.nan, np.nan, np.nan))  # never pays
        else:
            rows.append((*key, np.nan, int(deals[k]), np.nan, np.nan, np.nan))  # too few deals
    return pd.DataFrame(rows, columns=[*by, "option", "against", "from_points", *ADVICE_VALUES])


ADVICE_VALUES = ["deals", "gain", "gain_low", "gain_high"]


def advice_min_deals(deals: int) -> int:
    """The deals a point count of the advice table needs behind it, for a run of ``deals``."""
    return max(20, min(100, deals // 200))


POINT_COLUMNS = {"upcard": ["round", "seat", "upcard", "suit"],
                 "ladder": ["seat", "bid_before", "holder"]}
POOLED = {"upcard": [["round", "seat", "suit"]],
          "ladder": [["seat", "bid_before"], ["bid_before"]]}
ALONE = {"order up alone": "order up", "name alone": "name"}  # alone against with partner
ANY = "any"


def advice_table(auction: str, strength: pd.DataFrame, min_deals: int) -> pd.DataFrame:
    """The point count from which each call beats passing (and each lone call beats the same
    call with partner), at every kind of decision point of an ``auction`` ("upcard" or
    "ladder") and pooled over the finer columns (written ``any``). Returns the decision point
    columns, ``option, against, from_points, deals, gain, gain_low, gain_high``."""
    points = POINT_COLUMNS[auction]
    out = []
    for by in (points, *POOLED[auction]):
        vs_pass = call_gains(strength, points, by)
        alone = strength[strength["option"].isin([*ALONE, *ALONE.values()])]
        vs_partner = call_gains(alone, points, by, against=ALONE)
        vs_partner = vs_partner[vs_partner["option"].isin(list(ALONE))]
        for gains in (vs_pass, vs_partner):
            if len(gains):
                out.append(beats_passing_from(gains, by, min_deals))
    table = pd.concat(out, ignore_index=True) if out else pd.DataFrame(
        columns=[*points, "option", "against", "from_points", *ADVICE_VALUES])
    for col in points:
        table[col] = table[col].astype(object).where(table[col].notna(), ANY)
    return table[[*points, "option", "against", "from_points", *ADVICE_VALUES]]


def gain_tables(auction: str, strength: pd.DataFrame) -> dict:
    """The gains the report plots: ``gains`` by seat (and round, in the upcard auction) and
    strength; in the upcard auction ``gains_by_upcard``, round 1's by upcard rank."""
    points = POINT_COLUMNS[auction]
    if auction == "upcard":
        return {"gains": call_gains(strength, points, ["seat", "round"]),
                "gains_by_upcard": call_gains(strength, points, ["round", "upcard"])}
    return {"gains": call_gains(strength, points, ["seat"])}
