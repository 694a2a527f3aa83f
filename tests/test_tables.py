"""Strategy tables and reports: agreement with direct odds queries, counts that add up,
resuming after an interrupt, report structure, and rendering in a real headless browser."""


import numpy as np
import pandas as pd
import pytest

from analyzer.compute.engine import decision_rows
from analyzer.game.outcomes import outcome_arrays
from analyzer.game.variants import LADDER, make_rules
from analyzer.questions.tables.tables import build_tables, write_tables
from analyzer.strategy import tables as table_kernel
from analyzer.strategy.seats import others_policies
from kernels.bidding import bidding as B
from kernels.cards import codes as K
from kernels.drivers.decisions import RW
from kernels.slots import X
from tests.cards import card_name
from tests.rollout_reference import Option, rollout

pytestmark = [pytest.mark.strategy, pytest.mark.reports]

LADDER_CALLS = {B.L_PASS: "pass", B.L_BID3: "3", B.L_BID4: "4", B.L_BID5: "5", B.L_ASK: "ask",
                B.L_MOON: "moon", B.L_SWAP: "swap"}
UPCARD_CALLS = {B.U_PASS: ("pass", 0), B.U_ORDER: ("order", 0), B.U_ALONE: ("order", 1),
                B.U_NAME: ("name", 0), B.U_NAME_ALONE: ("name", 1)}


def _reference_option(rules, row) -> Option:
    """The pure-Python rollout's option for a table row's call (the strategy picks discards,
    cards given and a bid's trump, as the table's rows do)."""
    option = int(row[RW.OPTION])
    if rules.auction == LADDER:
        return Option(call=LADDER_CALLS[option])
    call, alone = UPCARD_CALLS[option]
    if call == "name":
        call = f"name {'CDHS'[int(row[RW.TRUMP])]}"
    return Option(call=call, alone=alone)


def _heard_before(calls, point):
    """The calls before N's call number ``point`` (0 = its first) in an auction."""
    seen = -1
    for j, (seat, _) in enumerate(calls):
        if seat == "N":
            seen += 1
            if seen == point:
                return calls[:j]
    raise AssertionError(f"N makes no call number {point} in {calls}")


@pytest.mark.parametrize("variant, deals", [("bid", 2), ("ghost", 3), ("knock", 12),
                                            ("cutthroat", 12)])
def test_table_rows_agree_with_the_pure_python_rollout(variant, deals):
    """Each table row (N's call at a point reached by the point-count strategy, played out to
    the end) against ``tests.rollout_reference`` on the same deal."""
    rules = make_rules(variant)
    policies, params = others_policies("points", "dd", rules)
    dealers = np.arange(deals) % rules.players
    dealt, upcards, rows = decision_rows(rules, policies, params, 11, 0, dealers, True)
    net = outcome_arrays(rules, 0, rows[:, :, RW.RESULT:RW.RESULT + X.LEN].astype(np.int64))["net"]
    compared = 0
    for i in range(deals):
        hands = {s: [card_name(c) for c in range(64) if (int(dealt[i, k]) >> c) & 1]
                 for k, s in enumerate("NESW") if int(dealt[i, k])}
        dealer = "NESW"[int(dealers[i])]
        up = card_name(int(upcards[i])) if rules.has_upcard else None
        # N's first point comes in the strategy's auction, its round-2 point after it passed
        auctions = [rollout(variant, hands, dealer, up, [], "N", Option(call=call)).calls
                    for call in (None, "pass")]
        for k in np.nonzero(rows[i, :, RW.OPTION] >= 0)[0]:
            row = rows[i, k]
            point = int(row[RW.POINT])
            heard = _heard_before(auctions[point], point)
            got = rollout(variant, hands, dealer, up, heard, "N", _reference_option(rules, row))
            res = row[RW.RESULT:]
            where = (i, point, int(row[RW.OPTION]), got.calls)
            if got.status == "redeal":
                assert res[X.STATUS] == K.ST_ALL_PASSED, where
                continue
            assert "NESW"[int(res[X.DECLARER])] == got.declarer, where
            assert int(res[X.TRICKS]) == got.tricks, where
            assert net[i, k] == pytest.approx(got.net), where
            compared += 1
    assert compared >= deals


@pytest.mark.parametrize("variant", ["bid", "ghost", "knock", "cutthroat"])
def test_every_call_of_every_point_is_counted_once(variant):
    """N's first point comes once a deal (in the upcard auction unless a seat ordered before
    N spoke), every legal call of it is played on that deal, and the tables add up alike.
    The seats bid by the point count: by the analyzer's cutthroat strategy a seat orders in
    round 1 on every one of these deals (the maker keeps the best 5 of 10), so N's round 2
    would never come."""
    rules = make_rules(variant)
    tables = build_tables(rules, 1200, seed=2, chunk=200, others="points")
    deals = tables["meta"]["deals"]
    strength = tables["strength"]
    by_table = {name: tables[name].groupby("option")["deals"].sum()
                for name in ("strength", "features")}
    pd.testing.assert_series_equal(by_table["strength"], by_table["features"])
    if rules.auction == LADDER:
        counts = strength.groupby("option")["deals"].sum()
        assert counts["pass"] == deals
        ladder = [c for c in ["bid 3", "bid 4", "bid 5", f"{rules.hand_size}-ask", "moon",
                              "pass"] if c in counts]
        assert counts[ladder].is_monotonic_increasing, counts  # a bid legal: all above it too
        assert tables["hands"]["deals"].sum() == deals  # one hand a deal
        return
    for rnd, calls in ((1, ["pass", "order up", "order up alone"]),
                       (2, ["name", "name alone"])):
        counts = strength[strength["round"] == rnd].groupby("option")["deals"].sum()
        assert counts[calls].nunique() == 1, counts  # all legal at every such point
        assert 0 < counts[calls[0]] <= deals * (1 if rnd == 1 else 3)
    first = strength[(strength["round"] == 1) & (strength["option"] == "pass")]["deals"].sum()
    assert tables["hands"]["deals"].sum() == first
    for name in ("strength", "features"):  # each row's chances and value are of its counts
        t = tables[name]
        assert np.allclose(t["p_we_make"], t["we_make"] / t["deals"]), name
        inside = (t["p_we_make_low"] <= t["p_we_make"] + 1e-12) & \
            (t["p_we_make"] <= t["p_we_make_high"] + 1e-12)  # rounding: a low of 5.6e-17
        assert inside.all(), t[~inside]
        assert np.allclose(t["ev"], t["points"] / t["deals"]), name


def test_an_interrupted_table_resumes_to_the_same_result(tmp_path, monkeypatch):
    rules = make_rules("knock")
    whole = build_tables(rules, 1500, tmp_path / "whole", seed=4, chunk=100)
    real = table_kernel.decision_rows
    calls = {"n": 0}

    def flaky(*args):
        calls["n"] += 1
        if calls["n"] == 7:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(table_kernel, "decision_rows", flaky)
    with pytest.raises(KeyboardInterrupt):
        build_tables(rules, 1500, tmp_path / "cut", seed=4, chunk=100)
    saved = len(list((tmp_path / "cut" / "chunks").glob("*.features.parquet")))
    assert saved == 6
    monkeypatch.setattr(table_kernel, "decision_rows", real)
    resumed = build_tables(rules, 1500, tmp_path / "cut", seed=4, chunk=100)
    for name in ("features", "strength", "hands"):
        pd.testing.assert_frame_equal(resumed[name], whole[name])










def test_tables_are_written_as_parquet_and_csv(tmp_path, small_tables):
    files = write_tables(small_tables["ghost"], tmp_path)
    names = {f.name for f in files}
    assert {"features.parquet", "features.csv", "hands.parquet", "swap.csv",
            "meta.json"} <= names
    again = pd.read_parquet(tmp_path / "strength.parquet")
    pd.testing.assert_frame_equal(again, small_tables["ghost"]["strength"])






def test_more_deals_reuse_the_chunks_already_played(tmp_path, monkeypatch):
    """Re-run with more (or fewer) deals: the chunks both runs share are read, not played
    again (they used to be deleted), and the tables equal a fresh build's."""
    rules = make_rules("knock")
    build_tables(rules, 650, tmp_path / "t", seed=4, chunk=100)
    fresh = build_tables(rules, 1000, tmp_path / "fresh", seed=4, chunk=100)
    real = table_kernel.decision_rows
    played = []

    def counted(*args):
        played.append(args[4])  # the first deal of the chunk
        return real(*args)

    monkeypatch.setattr(table_kernel, "decision_rows", counted)
    more = build_tables(rules, 1000, tmp_path / "t", seed=4, chunk=100)
    assert sorted(played) == [600, 700, 800, 900]  # 0-599 kept; the old last chunk (50) is not
    for name in ("features", "strength", "hands"):
        pd.testing.assert_frame_equal(more[name], fresh[name])
    played.clear()
    fewer = build_tables(rules, 300, tmp_path / "t", seed=4, chunk=100)
    assert played == [] and fewer["meta"]["deals"] == 300


def test_an_interrupted_table_says_so_on_stderr(tmp_path, monkeypatch, capsys):
    """``euchre table`` cut short: where the chunks are, on stderr (stdout is the results'),
    exit 130, and not also "nothing was kept" (the command's exit carried the interrupt)."""
    from analyzer.cli import run

    def interrupted(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(table_kernel, "decision_rows", interrupted)
    assert run(["table", "--variant", "knock", "--deals", "300", "-o", str(tmp_path / "t")]) \
        == 130
    out, err = capsys.readouterr()
    assert "interrupted: the chunks done are saved" in err and "interrupted" not in out
    assert "nothing was kept" not in err, err
