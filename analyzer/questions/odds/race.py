"""Racing the calls (issue 44): most of a question's calls are ones no player would make (bid 3
with a hand that makes 9, a moon in a suit it holds two of), and playing them to the precision
of the two that decide the verdict is most of a run's work. So at fixed deal counts
(``CHECKPOINTS``) a call whose paired difference from the runner-up so far is clearly below
zero (the whole ``RACE_LEVEL`` interval) stops being played; the best two calls are always
kept (so the verdict, the best against the runner-up, is the full run's).
A dropped call keeps its figures over the deals it was played on. A deal's outcome depends
only on the seed and its number, so a kept call's figures are exactly those of a run that
plays every call throughout (tested); ``--all-calls`` plays every call on every deal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...compute.runner import Switch, Totals
from ...game.outcomes import PROBABILITIES, SHOWN_OUTCOMES
from .decide import (
    Decision,
    best_per_call,
    keep_options,
    keep_tricks,
    option_labels,
    option_table,
    paired,
    restrict_counts,
    trick_row,
    value_counts,
    verdict,
)

# the deal counts at which calls are raced: early enough that a double-deck question (57
# calls, a tenth of a second a deal) drops its hopeless calls within seconds
CHECKPOINTS = (100, 200, 400, 800, 1600, 3200, 6400)
RACE_LEVEL = 0.999  # a call is dropped when this interval of its margin is below zero
RACE_Z = 3.2905267314918945  # the two-sided 99.9% normal quantile
NAMED_IN_NOTE = 8  # a checkpoint that drops more is counted in the note, not named
PLURALS = {"call": "calls", "card": "cards", "discard": "discards", "keep": "keeps"}
CLOSE_WIDTH = 0.05  # a verdict is clear when separated, or "too close" within ± this (points)
CHANCE_WIDTH = 0.01  # ... and every chance shown of the calls played is within ± this
# The double deck's 12-card hands: a deal costs about ten times a single deck's and its points
# spread about three times wider, so the single deck's precision would take minutes a
# question (every one of 20 random hands ran its 10,000 deals, issue 55). A half-width of
# 0.15 points still gives a verdict whenever the best two differ by 0.3 points or more.
LONG_HAND_CLOSE_WIDTH = 0.15
LONG_HAND_CHANCE_WIDTH = 0.02


def clear_widths(rules) -> tuple[float, float]:
    """``(close, chance)``: the half-widths (points a hand, chance) within which a default run
    of ``rules`` calls its answer clear (:func:`counts_clear`): ±0.05 points and ±1% for hands
    of up to 6 cards, ±0.15 points and ±2% for the double deck's 12."""
    if rules.hand_size > 6:
        return LONG_HAND_CLOSE_WIDTH, LONG_HAND_CHANCE_WIDTH
    return CLOSE_WIDTH, CHANCE_WIDTH


def counts_clear(d: Decision, counts: dict) -> bool:
    """Whether the answer over ``counts`` (of ``d``'s options) is clear enough for a default
    run to stop: the best call's margin over the runner-up has its 95% interval above zero,
    or within ± the close width of :func:`clear_widths` (too close to call, and it will stay
    so), and every chance the table shows of every call still played is within ± its chance
    width."""
    return not unclear(d, counts)


def unclear(d: Decision, counts: dict) -> list[str]:
    """What is not yet clear in the answer over ``counts`` (see :func:`counts_clear`), in
    words: the verdict, the chances shown, both or neither (``[]``)."""
    v = verdict(d, counts, False)
    if not v:
        return ["the verdict"]
    close, chance = clear_widths(d.point.rules)
    out = []
    if v["runner_up"] is not None and not (
            v["margin_low"] > 0 or (v["margin_high"] - v["margin_low"]) / 2 <= close):
        out.append("the verdict")
    table = option_table(d, counts, False)
    widths = [(table[f"p_{k}_high"] - table[f"p_{k}_low"]) / 2 for k in SHOWN_OUTCOMES]
    if max(w.max() for w in widths) > chance:
        out.append(f"every chance within ±{chance:.0%}")
    return out


class RunPlan:
    """How an odds run changes part-way, at fixed deal counts: it races the calls (``race``:
    at each of ``CHECKPOINTS``, :meth:`check` drops the calls clearly behind the best two,
    their rows kept with ``dropped_after``, the deals they were played on), stops once the
    answer is clear (``until_clear``: the default run, see :func:`clear_answer`) and, at
    ``screen_at``, chooses each call's detail (:meth:`choose_details`). ``d`` is the
    decision the run plays now; ``work_of(d)`` its work."""

    def __init__(self, d: Decision, work_of, race: bool = True, screen_at: int | None = None,
                 until_clear: bool = False, check: tuple | None = None):
        self.d, self.work_of = d, work_of
        # ``(most deals, per deal, per call)``: after the run, its calls still played are
        # played again by another method on its first deals (at most ``most``; None: all),
        # at that cost in the run's units (see answer.check_plan); None: no check
        self.check_after = check
        self.order = {(o.name, o.trump_text, o.detail): i for i, o in enumerate(d.options)}
        self.race, self.screen_at, self.until_clear = race, screen_at, until_clear
        self.stopped = ""  # why the run stopped before its deals were done ("": it did not)
        self.screened = 0  # the deals each call's detail was chosen on (0: not chosen)
        self.dropped: list[pd.DataFrame] = []  # per checkpoint: the dropped options' rows
        self.dropped_calls: list[pd.DataFrame] = []  # the same, one row per call
        self.dropped_options: list = []  # the dropped options, in the order of ``dropped``
        self.dropped_tricks: list[dict] = []  # the trick table's rows stopped, at their end

    def switches(self, total: int) -> list[Switch]:
        """The run's switches below ``total`` deals."""
        out = [Switch(at, self.check) for at in CHECKPOINTS
               if (self.race or self.until_clear) and at < total]
        if self.screen_at is not None and self.screen_at < total:
            out.append(Switch(self.screen_at, self.choose_details))
        return out

    def choose_details(self, totals: Totals):
        """Keep each call at its best detail so far (the card given, the discard);
        ``totals.counts`` become the kept options'. Returns the work of the kept ones."""
        chosen = best_per_call(self.d, totals.counts)
        self.d = keep_options(self.d, option_labels(self.d, chosen), scenarios=True)
        self.screened = totals.done
        restrict_counts(totals.counts, chosen)
        return self.work_of(self.d)

    def check(self, totals: Totals):
        """A checkpoint: race (drop the calls whose margin against the runner-up is below
        zero at ``RACE_LEVEL``, every detail of such a call; keep the best two;
        ``totals.counts`` become the kept options'), then stop (None) when the run goes
        until the answer is clear and it is; else the work of the kept options."""
        if self.race:
            self._race(totals)
        if self.until_clear and counts_clear(self.d, totals.counts):
            self.stopped = (f"stopped once the verdict was clear and every chance shown "
                            f"within ±{clear_widths(self.d.point.rules)[1]:.0%}")
            return None
        return self.work_of(self.d)

    def _race(self, totals: Totals) -> None:
        d, counts = self.d, totals.counts
        dropped = behind(d, counts)
        if not dropped:
            return
        kept = [i for i in range(len(d.options)) if i not in dropped]
        details = option_table(d, counts, False, details=True).iloc[dropped]
        calls_table = option_table(d, counts, False)
        gone = set(option_labels(d, dropped))
        calls_table = calls_table[[(r.option, r.trump, r.detail) in gone
                                   for r in calls_table.itertuples()]]
        for table, into in ((details, self.dropped), (calls_table, self.dropped_calls)):
            into.append(table.assign(dropped_after=int(counts["accepted"])))
        self.dropped_options += [d.options[i] for i in dropped]
        for t in unnamed_rows(keep_options(d, option_labels(d, kept), scenarios=True)):
            self.dropped_tricks.append(
                {**trick_row(t, counts["hist"][d.tricks[t]], False),
                 "dropped_after": int(counts["accepted"])})
        self.d = without(d, kept, counts)

    def work_left(self, totals: Totals, at: int, total: int) -> float:
        """The work (deals times :func:`deal_cost`) this run is likely still to do from deal
        ``at`` (of ``total``) on, ``totals`` being the first ``at`` deals': at each
        checkpoint ahead it races and stops as it would if the deals to there went as these
        did (their counts scaled: the same means, intervals narrower by the square root),
        so the calls likely raced out and the deals a run that stops once clear likely needs
        are not counted (issue 55: "about 14 min left" for a question that took 23 s)."""
        d, counts = self.d, dict(totals.counts)  # a copy: the calls dropped here leave it
        if not (self.race or self.until_clear) or at <= 0 or counts.get("accepted", 0) < 2:
            return (total - at) * deal_cost(d) + self._check_work(d, total)
        work, here = 0.0, at
        for checkpoint in (c for c in CHECKPOINTS if at < c < total):
            work += (checkpoint - here) * deal_cost(d)
            here = checkpoint
            ahead = _scaled(counts, checkpoint / at)
            dropped = behind(d, ahead) if self.race else []
            if dropped:
                d = without(d, [i for i in range(len(d.options)) if i not in dropped], counts)
                ahead = _scaled(counts, checkpoint / at)
            if self.until_clear and counts_clear(d, ahead):
                return work + self._check_work(d, here)
        return work + (total - here) * deal_cost(d) + self._check_work(d, total)

    def _check_work(self, d: Decision, deals: int) -> float:
        """The work of the check after a run that ends at ``deals`` playing ``d``'s calls, in
        the run's units (see ``check_after``): on the double deck a check by double dummy was most
        of an answer's time, and a time left without it said 0.1-0.5 of the truth."""
        if self.check_after is None:
            return 0.0
        most, per_deal, per_call = self.check_after
        return (deals if most is None else min(deals, most)) * (per_deal +
                                                                per_call * len(d.options))

    def with_dropped_tricks(self, tricks: pd.DataFrame) -> pd.DataFrame:
        """The trick table ``tricks`` of the rows still played with the rows stopped, in
        the order of the trumps; ``dropped_after`` is empty for a row played throughout."""
        if not self.dropped_tricks:
            return tricks.assign(dropped_after=None) if len(tricks) else tricks
        rows = pd.concat([tricks.assign(dropped_after=None),
                          pd.DataFrame(self.dropped_tricks)], ignore_index=True)
        return rows.sort_values("trump", key=lambda c: c.map("CDHS".index),
                                kind="stable").reset_index(drop=True)

    def with_dropped(self, options: pd.DataFrame, details: bool = False) -> pd.DataFrame:
        """``options`` (the kept calls' table, or every kept option's with ``details``) with
        the dropped ones' rows, all in the question's order of the options; ``dropped_after``
        is empty for a kept one."""
        extra = self.dropped if details else self.dropped_calls
        if not extra:
            return options.assign(dropped_after=None)
        rows = pd.concat([options.assign(dropped_after=None), *extra], ignore_index=True)
        at = [self.order[(r.option, r.trump, r.detail)] for r in rows.itertuples()]
        return rows.iloc[sorted(range(len(rows)), key=at.__getitem__)].reset_index(drop=True)

    def choices(self) -> list:
        """Every option, kept or dropped, in the order of :meth:`with_dropped`'s details."""
        return sorted(list(self.d.options) + self.dropped_options,
                      key=lambda o: self.order[(o.name, o.trump_text, o.detail)])

    def notes(self) -> list[str]:
        """The answer's notes of what changed: each call's detail chosen early, the calls
        dropped and when."""
        out = []
        if self.screened:
            out.append(f"each call's detail (the card given, the discard) was chosen on the "
                       f"first {self.screened:,} deals and only it played on the rest "
                       f"(--discards plays every one on every deal)")
        if self.dropped_calls:
            out.append(self._dropped_note())
        if self.dropped_tricks:
            parts = {}
            for row in self.dropped_tricks:
                parts.setdefault(row["dropped_after"], []).append(row["trump"])
            out.append("*: trick-table rows of a trump no call still played names stopped with "
                       "their calls (their figures are over the deals they were played on): "
                       + "; ".join(f"after {at:,} deals: {', '.join(ts)}"
                                   for at, ts in parts.items()))
        return out

    def _dropped_note(self) -> str:
        what = PLURALS.get(self.d.opened.state.kind, "options")
        parts = [f"after {int(t['dropped_after'].iloc[0]):,} deals: "
                 + (", ".join(t["label"]) if len(t) <= NAMED_IN_NOTE else f"{len(t)} {what}")
                 for t in self.dropped_calls]
        return (f"*: {what} clearly worse than the best two ({RACE_LEVEL:.1%} interval of the "
                f"difference below zero) stopped being played (their figures are over the "
                f"deals they were played on; --all-calls plays every one on every deal): "
                + "; ".join(parts))


def _scaled(counts: dict, factor: float) -> dict:
    """``counts`` as if ``factor`` times their deals had gone as these did: every sum scaled
    (the same means, intervals narrower by the square root), each chance first drawn
    ``PRIOR_DEALS`` toward a half (a chance of 0 on four deals is not yet known to be 0: a
    question's first projection is made on its first few deals)."""
    out = {key: np.asarray(value) * factor for key, value in counts.items()}
    deals = float(counts["accepted"])
    for name in PROBABILITIES:
        if name in counts:
            out[name] = (np.asarray(counts[name]) + PRIOR_DEALS / 2) * (
                deals * factor / (deals + PRIOR_DEALS))
    return out


# a projection's chances count this many deals more, half of them each way: without, a knock
# question's first projection (4 deals) said it would stop at 100 (3.7x its share of the
# work at half a deal, 2.0x at one; ten single-deck questions 0.37-2.0x)
PRIOR_DEALS = 1.0


# what a deal of a trick-table row costs beside a call's, roughly: a row is a four-seat solve
# in its trump, where most calls end in a contract solved already (docs/solver.md, "A
# question's solves"). A guess from the double deck's first question: the rows of the trumps
# racing drops are the dearest (N declaring a suit it is short in), so there the first 100
# deals cost 4-5 times what this weight makes them beside the rest (docs/performance.md, issue 55)
ROW_COST = 4.0


def deal_cost(d: Decision) -> float:
    """What a deal of ``d`` costs, in calls' plays: its calls and its trick table's rows
    (:data:`ROW_COST` each)."""
    return len(d.options) + ROW_COST * len(d.tricks)


def behind(d: Decision, counts: dict) -> list[int]:
    """The options of ``d`` (indices) whose call is clearly behind the best two over
    ``counts``: its paired difference from the runner-up has its whole ``RACE_LEVEL``
    interval below zero (every detail of such a call); none while at most two calls are
    played."""
    calls = best_per_call(d, counts)
    if len(calls) <= 2 or not counts.get("accepted"):
        return []
    value = value_counts(counts)[0]
    order = sorted(calls, key=lambda i: -value[i])
    group = _call_groups(d)
    # against the runner-up, not the best: a call clearly behind the best may still end
    # second, and the verdict is the best against the runner-up of a full run
    out = {group[i] for i in order[2:] if paired(counts, i, order[1], z=RACE_Z)[2] < 0}
    return [i for i in range(len(d.options)) if group[i] in out]


def unnamed_rows(d: Decision) -> list:
    """The trumps of ``d``'s trick-table rows that no call of ``d`` names."""
    named = {o.trump for o in d.options}
    return [t for t in d.tricks if t not in named]


def without(d: Decision, kept: list[int], counts: dict) -> Decision:
    """``d`` playing only the options ``kept`` (indices) and the trick-table rows of the
    trumps they name (in the double deck three of its four solves a deal, each dearer than
    every kept call); ``counts`` become theirs, in place."""
    d = keep_options(d, option_labels(d, kept), scenarios=True)
    restrict_counts(counts, kept)
    gone = unnamed_rows(d)
    if not gone:
        return d
    rows = [t for t in d.tricks if t not in gone]
    counts["hist"] = counts["hist"][[d.tricks[t] for t in rows]]
    return keep_tricks(d, rows)


def _call_groups(d: Decision) -> list:
    """Per option of ``d``, the call it belongs to (raced as one: every detail of it goes
    together) — its name and trump, or itself when the decision is one call's details (a
    dealer's discard: each discard is a call, as ``best_per_call`` has it)."""
    keys = [(o.name, o.trump_text) for o in d.options]
    return list(range(len(keys))) if len(set(keys)) == 1 else keys
