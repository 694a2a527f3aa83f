"""Racing the calls (issue 44, ``analyzer.questions.odds.race``): a question asked with racing and
with every call played on every deal (``all_calls``) gives the same verdict, and the calls
racing kept have identical figures (a deal's outcome depends only on the seed and its
number); a dropped call is still shown, with the deals it was played on."""

import threading

import pandas as pd
import pytest

from analyzer.bench import random_double_deck_hands
from analyzer.compute.runner import FIRST_PIECE, observed
from analyzer.game.outcomes import SHOWN_OUTCOMES
from analyzer.game.variants import make_rules
from analyzer.questions.odds.answer import check_plan, odds
from analyzer.questions.odds.race import CHECKPOINTS, ROW_COST, clear_widths

pytestmark = pytest.mark.odds

QUESTIONS = [
    ("JH AH KH QD 9S TC", "bid", {}),
    ("JH AH KH QD 9S TC", "bid", dict(seat="S", dealer="W", auction="N 3, E 4")),
    ("JH JD AH KH QH 9S", "ghost", {}),
    ("JS AS KS 9H TD", "knock", dict(upcard="QS", seat="E", dealer="N")),
    ("9D KH QH AC KC AD", "knock", dict(upcard="AD", seat="W", dealer="W",
                                        auction="N pass, E order")),
    ("JS AS KS 9H TD", "cutthroat", dict(upcard="QS", seat="E", dealer="N")),
]
FIGURES = ["ev", "ev_low", "ev_high", "vs_best", "p_we_make", "p_they_make", "p_redeal"]


@pytest.mark.parametrize("hand, variant, question", QUESTIONS,
                         ids=[f"{v}-{h[:5]}" for h, v, _ in QUESTIONS])
def test_racing_keeps_the_verdict_and_the_kept_calls_figures(hand, variant, question):
    kw = dict(deals=1_500, seed=3, others="points", play_check=False, **question)
    raced = odds(hand, variant, **kw)
    full = odds(hand, variant, all_calls=True, **kw)
    assert raced.best["label"] == full.best["label"]
    assert raced.best["too_close"] == full.best["too_close"]
    assert raced.best["margin"] == full.best["margin"]
    calls = ["option", "trump"]  # every call shown (a dropped one at its best detail then)
    pd.testing.assert_frame_equal(raced.options[calls], full.options[calls])
    kept = raced.options["dropped_after"].isna().to_numpy()
    pd.testing.assert_frame_equal(
        raced.options.loc[kept, FIGURES].reset_index(drop=True),
        full.options.loc[kept, FIGURES].reset_index(drop=True), check_exact=True)
    dropped = raced.options[~kept]
    assert set(dropped["dropped_after"]) <= set(CHECKPOINTS)
    assert full.options["dropped_after"].isna().all()
    assert (dropped["label"] != raced.best["label"]).all()


def test_a_dropped_call_is_clearly_worse_and_said_so():
    """The bid question's hopeless calls (the moons) stop at the first checkpoint; their
    figures are exactly those of a run of that many deals; the note names them; the best
    two calls are never dropped."""
    r = odds("JH AH KH QD 9S TC", "bid", deals=2_000, seed=1, others="points",
             play_check=False)
    moons = r.options[r.options["option"] == "moon"].reset_index(drop=True)
    assert len(moons) == 4 and (moons["dropped_after"] == CHECKPOINTS[0]).all()
    assert (moons["vs_best_high"] < 0).all()
    first = odds("JH AH KH QD 9S TC", "bid", deals=CHECKPOINTS[0], seed=1, others="points",
                 play_check=False, all_calls=True)
    pd.testing.assert_frame_equal(  # a dropped call's figures: those of its first deals
        moons[["ev", "ev_low", "p_we_make"]],
        first.options[first.options["option"] == "moon"][["ev", "ev_low", "p_we_make"]]
        .reset_index(drop=True), check_exact=True)
    assert len(r.options[r.options["dropped_after"].isna()]) >= 2
    assert any(n.startswith("*: calls clearly worse") and f"after {CHECKPOINTS[0]} deals" in n
               for n in r.notes)
    assert "*" not in " ".join(r.options["label"])


def test_all_calls_plays_every_call_on_every_deal():
    r = odds("JH AH KH QD 9S TC", "bid", deals=500, seed=1, others="points",
             play_check=False, all_calls=True)
    assert r.options["dropped_after"].isna().all()
    assert not any(n.startswith("*:") for n in r.notes)


def test_the_trick_table_races_with_its_calls():
    """A trick-table row (a trump's tricks declaring it) stops when every call naming its
    trump has stopped: its figures are those of a run of that many deals, marked; the rows
    still played are exactly the full run's (heuristic play too: each row keeps its play
    stream), and ``--all-calls`` plays every row throughout."""
    kw = dict(deals=400, seed=1, others="points", play_check=False)
    for method in ("dd", "heuristic"):
        r = odds("JH JD AH KH QH 9S", "bid", method=method, **kw)
        full = odds("JH JD AH KH QH 9S", "bid", method=method, all_calls=True, **kw)
        assert list(r.tricks["trump"]) == list("CDHS") == list(full.tricks["trump"])
        assert full.tricks["dropped_after"].isna().all()
        stopped = r.tricks["dropped_after"].notna().to_numpy()
        assert stopped.any() and not stopped.all()
        figures = [c for c in r.tricks.columns if c.startswith("p_")] + ["deals"]
        pd.testing.assert_frame_equal(r.tricks.loc[~stopped, figures],
                                      full.tricks.loc[~stopped, figures], check_exact=True)
        named = set(r.options.loc[r.options["dropped_after"].isna(), "trump"])
        assert set(r.tricks.loc[stopped, "trump"]).isdisjoint(named)
        at = int(r.tricks.loc[stopped, "dropped_after"].iloc[0])
        first = odds("JH JD AH KH QH 9S", "bid", method=method, deals=at, all_calls=True,
                     **{k: v for k, v in kw.items() if k != "deals"})
        pd.testing.assert_frame_equal(r.tricks.loc[stopped, figures].reset_index(drop=True),
                                      first.tricks.loc[stopped, figures].reset_index(drop=True),
                                      check_exact=True)
        assert any(n.startswith("*: trick-table rows") for n in r.notes)


def _work_done(r) -> float:
    """The work a raced answer ``r`` did, in calls' plays (``race.deal_cost``'s units): each
    option and each trick-table row over the deals it was played on."""
    deals = r.deals_asked
    rows = r.tricks.get("dropped_after", pd.Series([None] * len(r.tricks)))
    return sum(deals if pd.isna(at) else at for at in r.details["dropped_after"]) + \
        ROW_COST * sum(deals if pd.isna(at) else at for at in rows)


@pytest.mark.parametrize("hand, variant, question", [QUESTIONS[0], QUESTIONS[1]],
                         ids=["bid", "bid-heard"])
def test_the_first_progress_counts_the_calls_raced_out(hand, variant, question):
    """Issue 55: the time left ran ten times high ("about 14 min left" for 23 s) because the
    share of the work done counted every call on every deal left, where racing drops most of
    them. At the first progress (the first piece: ``FIRST_PIECE`` deals) the share reported
    is now within 2x of the share of the work the run really did (it was a third to a
    sixth of it: every deal left at the first deals' cost)."""
    seen = []
    with observed(lambda done, total: seen.append((done, total)), threading.Event()):
        r = odds(hand, variant, seed=1, others="points", play_check=False, **question)
    done, total = next(s for s in seen if s[0] > 0)
    first = FIRST_PIECE * (len(r.details) + ROW_COST * len(r.tricks))
    truth = first / _work_done(r)
    assert 0.5 <= (done / total) / truth <= 2, (done, total, truth)


def test_a_double_deck_answer_is_clear_in_seconds_and_its_time_left_counts_the_check():
    """Issue 55: every random double-deck hand ran its 10,000 deals (the single deck's ±1%
    chances and ±0.05-point verdict cost minutes there), and the time left left out the
    double-dummy check played after the run, most of such an answer's time (first estimates
    0.1-0.5 of the truth). A default double-deck question now stops once its verdict is
    clear (or within ±0.15 points) and every chance within ±2%, and its first progress
    counts the check's deals (the time left's error: ``euchre bench odds --hands 20``)."""
    hand = random_double_deck_hands(1)[0]
    ask = dict(rules=make_rules("bid", double_deck=True), seat="N", dealer="W", seed=2)
    shares = {}
    for checked in (True, False):
        seen: list = []
        with observed(lambda done, total, seen=seen: seen.append((done, total)),
                      threading.Event()):
            r = odds(hand, play_check=checked, **ask)
        done, total = next(s for s in seen if s[0] > 0)  # the first piece's, projected then
        shares[checked] = done / total
        if checked:
            result = r
    r = result
    close, chance = clear_widths(r.rules)
    assert r.deals < 10_000 and r.stopped.startswith("stopped once")
    assert f"±{chance:.0%}" in r.stopped
    v = r.best
    assert v["margin_low"] > 0 or (v["margin_high"] - v["margin_low"]) / 2 <= close
    kept = r.options[r.options["dropped_after"].isna()]
    for k in SHOWN_OUTCOMES:
        assert ((kept[f"p_{k}_high"] - kept[f"p_{k}_low"]) / 2 <= chance).all(), k
    # the same run (a deal depends only on the seed), its first share smaller
    # by about the check's work (a fifth of the whole here, and most of the seconds)
    most, per_deal, per_call = check_plan(r.rules, ("analyzer", "dd"))
    calls = len(r.details[r.details["dropped_after"].isna()])
    check = min(r.deals_asked, most) * (per_deal + per_call * calls)
    assert check >= 0.2 * _work_done(r)
    assert shares[True] < 0.9 * shares[False], shares
