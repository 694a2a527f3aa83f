"""``euchre review``: values at every position agree with the solver (and with the brute-force
reference on small positions), a known misplay is flagged at the right card, batch summaries,
and bad records."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyzer.cli import run
from analyzer.compute.engine import replay
from analyzer.compute.solver import solve_positions
from analyzer.game.notation import SEATS, format_card
from analyzer.game.records import Record, load_record, to_json
from analyzer.game.variants import make_rules
from analyzer.questions.odds.answer import odds
from analyzer.questions.review.review_hand import all_decisions, review, summarise
from analyzer.questions.simulate.play import play_hands
from kernels.cards import codes as K
from kernels.slots import M, R
from tests.reference import dd_card_values
from tests.test_hostile import run_cli

pytestmark = pytest.mark.review

RECORDS = Path(__file__).parent / "records"


def played(variant, n, seed, play="heuristic"):
    rules = make_rules(variant)
    masks, recs = play_hands(rules, n, seed=seed, strategy="points", play=play)
    return [Record(rules, masks[i], recs[i]) for i in range(n)
            if recs[i, R.STATUS] == K.ST_PLAYED]


def positions(record, decl):
    """(hands, leader, table, declarer tricks won) before every card, walked independently."""
    rec, hm = record.rec, record.hm
    hands = [int(hm[M.PLAY + s]) for s in range(4)]
    active = [s for s in range(4) if hands[s]]
    won = 0
    for t in range(record.rules.hand_size):
        leader = int(rec[R.TRICK_LEADER + t])
        order = active[active.index(leader):] + active[:active.index(leader)]
        table = []
        for seat in order:
            card = int(rec[R.PLAYS + 4 * t + len(table)])
            yield list(hands), leader, list(table), won, seat, card
            hands[seat] &= ~(1 << card)
            table.append(card)
        won += (decl >> int(rec[R.TRICK_WINNER + t])) & 1


@pytest.mark.parametrize("variant", ["bid", "ghost", "knock", "cutthroat"])
def test_card_values_agree_with_the_solver_at_every_position(variant):
    checked = 0
    for record in played(variant, 40, seed=8):
        r = review(record, method="dd", call_deals=0)
        cards = r.decisions[r.decisions["kind"] == "card"].reset_index(drop=True)
        hands0 = [int(record.hm[M.PLAY + s]) for s in range(4)]
        active = sum(1 << s for s in range(4) if hands0[s])
        decl = 1 << int(record.rec[R.DECLARER])
        if record.rules.players == 4:
            decl |= (1 << ((int(record.rec[R.DECLARER]) + 2) & 3)) & active
        pos = list(positions(record, decl))
        assert len(pos) == len(cards)
        # the solver's exact value of the position before each card and just after it
        rows = []
        for hands, leader, table, _won, seat, card in pos:
            rows.append((hands, leader, table))
            after = list(hands)
            after[seat] &= ~(1 << card)
            rows.append((after, leader, table + [card]))
        full = [r for r in rows if len(r[2]) < bin(active).count("1")]
        tables = np.full((len(full), 4), -1, dtype=np.int64)
        for i, (_, _, t) in enumerate(full):
            tables[i, :len(t)] = t
        exact, _ = solve_positions(record.rules, np.array([f[0] for f in full], np.uint64),
                                   int(record.rec[R.TRUMP]), [f[1] for f in full], active,
                                   decl, np.full(len(full), -1), tables)
        values = {(tuple(f[0]), tuple(f[2])): int(v) for f, v in zip(full, exact, strict=True)}
        for (hands, _leader, table, won, seat, card), row in zip(pos, cards.itertuples(),
                                                               strict=True):
            assert row.seat == SEATS[seat] and row.choice == format_card(card)
            assert row.value_before == won + values[(tuple(hands), tuple(table))]
            after = list(hands)
            after[seat] &= ~(1 << card)
            key = (tuple(after), tuple(table + [card]))
            if key in values:  # a trick still open after this card
                assert row.value_after == won + values[key]
            checked += 1
        assert r.dd_tricks == cards.loc[0, "value_before"]
    assert checked > 500


def test_card_values_agree_with_the_brute_force_reference():
    rules = make_rules("knock")
    checked = 0
    for record in played("knock", 6, seed=21):
        r = review(record, method="dd", call_deals=0)
        cards = r.decisions[r.decisions["kind"] == "card"].reset_index(drop=True)
        declarer = int(record.rec[R.DECLARER])
        hands0 = [int(record.hm[M.PLAY + s]) for s in range(4)]
        active_mask = sum(1 << s for s in range(4) if hands0[s])
        decl = ((1 << declarer) | (1 << ((declarer + 2) & 3))) & active_mask
        trump = "CDHS"[int(record.rec[R.TRUMP])]
        active = [SEATS[s] for s in range(4) if hands0[s]]
        for i, (hands, leader, table, won, seat, card) in enumerate(positions(record, decl)):
            if i < 4:  # the first trick is slow in pure Python
                continue
            text = {SEATS[s]: [format_card(c) for c in range(64) if (hands[s] >> c) & 1]
                    for s in range(4) if hands0[s]}
            seats = active[active.index(SEATS[leader]):] + active[:active.index(SEATS[leader])]
            ref = dd_card_values(text, trump, SEATS[leader], active,
                                 {SEATS[s] for s in range(4) if (decl >> s) & 1},
                                 tuple(zip(seats, [format_card(c) for c in table], strict=False)))
            best = max(ref.values()) if (decl >> seat) & 1 else min(ref.values())
            row = cards.loc[i]
            assert row.value_before == won + best
            assert row.value_after == won + ref[format_card(card)]
            checked += 1
    assert rules.variant == "knock" and checked > 60


def test_a_known_misplay_is_flagged_at_the_right_card():
    r = review(load_record(json.loads((RECORDS / "knock_misplay.json").read_text())),
               method="dd", call_deals=0)
    assert not r.makeable and r.dd_tricks == 2 and r.tricks == 1
    costly = r.decisions[(r.decisions["kind"] == "card") & (r.decisions["cost_tricks"] > 0)]
    assert [(c.trick, c.seat, c.choice) for c in costly.itertuples()] == [
        (3, "S", "KS"), (3, "E", "JS")]
    assert set(costly.iloc[0]["best"].split()) == {"9D", "QD"}
    assert costly.iloc[1]["best"] == "AS"
    assert list(costly["cost_points"]) == [3.0, 3.0]


@pytest.mark.parametrize("method", ["dd", "analyzer"])
def test_a_renege_is_flagged_with_its_penalty(method):
    r = review(load_record(json.loads((RECORDS / "knock_renege.json").read_text())),
               method=method, call_deals=0)
    reneges = r.decisions[r.decisions["note"].str.startswith("renege")]
    assert [(c.trick, c.seat, c.choice, c.cost_points) for c in reneges.itertuples()] == [
        (2, "E", "AS", 2.0)]


def test_decisions_before_play_are_judged_against_every_alternative():
    # a cutthroat maker's five of ten: the kept five are judged against all 252 choices
    for record in played("cutthroat", 30, seed=3):
        r = review(record, call_deals=0)
        keep = r.decisions[r.decisions["kind"] == "keep five"]
        if len(keep):
            row = keep.iloc[0]
            assert row.value_before >= row.value_after and row.cost_tricks >= 0
            if row.cost_tricks == 0:
                assert row.best == ""


def test_every_call_is_priced_at_its_own_decision_point():
    """Each call of the auction gets a row priced at the point it was made: the same values
    as asking ``odds`` there (the caller's hand, the calls heard before it), the call made
    among them, a cost only when the best call is another."""
    checked = 0
    for record in played("knock", 6, seed=4):
        r = review(record, call_deals=200, others="points", seed=3)
        calls = r.decisions[r.decisions["kind"] == "call"].reset_index(drop=True)
        rec = record.rec
        assert len(calls) == int(rec[R.NCALLS])
        heard = []
        for j, row in calls.iterrows():
            seat = SEATS[int(rec[R.CALL_SEAT + j])]
            assert row.seat == seat and row.value_before >= row.value_after
            assert (row.cost_points > 0) <= (row.best != "")
            hand = " ".join(format_card(c) for c in range(64)
                            if (int(record.hm[M.DEALT + SEATS.index(seat)]) >> c) & 1)
            direct = odds(hand, rules=record.rules, seat=seat, dealer=SEATS[int(rec[R.DEALER])],
                          upcard=format_card(int(rec[R.UPCARD])), auction=", ".join(heard),
                          others="points", deals=200, seed=3)
            assert row.value_before == pytest.approx(direct.options["ev"].max(), abs=1e-3)
            assert row.value_after in set(direct.details["ev"].round(3))  # its own discard
            heard.append(f"{seat} {row.choice}")
            checked += 1
    assert checked >= 6


CALL_WORDS = re.compile(r"pass|(order up|pick it up|name)( alone)?( with the dummy)? [CDHS]"
                        r"( \(discard \w\w\))?")


def test_the_calls_made_read_as_the_answers_spell_them():
    """A review's call made is spelled as ``odds`` spells its options and as the best call
    beside it is (it was the record's notation: "3", "ask", "order" beside "bid 5 C"); a bid
    that did not win the auction named no trump and reads without one."""
    record = load_record(json.loads((RECORDS / "bid_ask.json").read_text()))
    calls = review(record, "dd", call_deals=50, others="points", seed=1).decisions.query(
        "kind == 'call'")
    assert calls.choice.tolist() == ["bid 3", "pass", "bid 4", "6-ask C (give TH)"]
    assert calls.best.tolist()[-1] == "bid 5 C"
    for variant in ("knock", "cutthroat"):
        for record in played(variant, 3, seed=2):
            calls = review(record, call_deals=20, others="points", seed=1).decisions.query(
                "kind == 'call'")
            assert all(CALL_WORDS.fullmatch(c) for c in calls.choice), calls.choice.tolist()
            assert calls.choice.iloc[-1] != "pass" and set(calls.choice[:-1]) <= {"pass"}


def test_the_default_review_judges_an_askers_cards_on_sampled_worlds():
    """The default review judges each card with the odds question at its player's view; an
    n-asker's hand after the exchange is one the question cannot hold (it crashed in the
    kernel once the default was the analyzer's play): those cards are judged on the PIMC
    sampler's worlds and say why; every card has its row."""
    record = load_record(json.loads((RECORDS / "bid_ask.json").read_text()))
    r = review(record, call_deals=0, worlds=20, seed=1)
    cards = r.decisions[r.decisions["kind"] == "card"]
    asker = SEATS[int(record.rec[R.DECLARER])]
    mine = cards[cards["seat"] == asker]
    assert len(cards) == sum(1 for c in record.rec[R.PLAYS:R.PLAYS + 24] if c >= 0)
    assert len(mine) and mine["note"].str.contains("asker's hand after the exchange").all()
    assert cards["note"].str.contains(r"worlds|layouts?\b").all(), cards["note"].tolist()


def test_batch_review_and_bad_records(tmp_path, capsys):
    hands = played("knock", 10, seed=5)
    records = [to_json(r) for r in hands]
    cards = sum(5 * sum(1 for s in range(4) if r.hm[M.PLAY + s]) for r in hands)
    cards -= 5 * sum(1 for s in range(4) if hands[3].hm[M.PLAY + s])
    f = tmp_path / "club.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in records[:3]) + "\n{oops\n"
                 + json.dumps({**records[3], "hands": {"N": "AH"}}) + "\n"
                 + "\n".join(json.dumps(r) for r in records[4:]) + "\n")
    out = tmp_path / "decisions.csv"
    assert run(["review", str(f), "-o", str(out), "--json", "--call-deals", "40"]) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["records"] == len(records) - 1
    assert "line 4:" in captured.err and "line 5:" in captured.err
    kinds = {row["kind"]: row for row in summary["by_type"]}
    assert kinds["card"]["decisions"] == cards

    frame = pd.read_csv(out)
    assert len(frame[frame["kind"] == "card"]) == cards
    assert set(frame["record_line"]) == {1, 2, 3} | set(range(6, 12))
    by_type, costliest = summarise(all_decisions([]))
    assert by_type.empty and costliest.empty
    assert run(["review", str(tmp_path / "none.json")]) == 2
    assert run(["review", str(RECORDS / "knock_misplay.json"), "--json",
                "--call-deals", "40"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["makeable"] is False and len(data["decisions"]) >= 20


def test_a_batch_review_becomes_a_report_section(tmp_path):
    f = tmp_path / "club.jsonl"
    f.write_text("\n".join(json.dumps(to_json(r)) for r in played("knock", 12, seed=6)) + "\n")
    out = tmp_path / "report.html"
    assert run(["report", "--variant", "knock", "--deals", "400", "--no-compare", "--review",
                str(f), "-o", str(out)]) == 0
    page = out.read_text()
    assert "id='table-review_by_type'" in page and "id='table-review_costliest'" in page
    assert "<th>points_lost</th>" in page


@pytest.mark.parametrize("method", ["pimc", None])
def test_pimc_review_flags_a_card_that_loses_whatever_the_layout(method):
    """E's JS at trick 3 loses whatever the layout: PIMC and the default review (the
    analyzer's card player playing out the worlds) flag it."""
    record = load_record(json.loads((RECORDS / "knock_misplay.json").read_text()))
    r = review(record, method=method, worlds=30, seed=1) if method else \
        review(record, worlds=30, seed=1)
    cards = r.decisions[r.decisions["kind"] == "card"]
    js = cards[(cards["trick"] == 3) & (cards["seat"] == "E")].iloc[0]
    assert js.choice == "JS" and js.best == "AS" and js.cost_tricks > 0.5 and js.cost_points > 0
    # the last trick has one legal card each: nothing to judge
    assert (cards[cards["trick"] == 5]["cost_points"] == 0).all()


@pytest.mark.parametrize("method, odds_method", [("pimc", "dd"), ("analyzer", "analyzer")])
def test_pimc_review_judges_a_card_as_the_odds_at_that_moment(method, odds_method):
    """One home: the PIMC (or analyzer) review's value of E's JS at trick 3 is ``euchre
    odds`` asked at that moment (E's four cards, the calls heard, the cards played) on as
    many deals as worlds, with the same seed, played out double dummy (or by the analyzer's
    card player)."""
    record = load_record(json.loads((RECORDS / "knock_misplay.json").read_text()))
    r = review(record, method=method, worlds=30, seed=1)
    js = r.decisions[(r.decisions["kind"] == "card") & (r.decisions["choice"] == "JS")].iloc[0]
    asked = odds("AS JS KD", "knock", upcard="QS",
                 seat="E", dealer="N", auction="E pass, S pass, W pass, N pass, E name D",
                 played="E TH, S AD, W AH, N QH; S AC, W JC, N 9C, E QC; S KS, W TS, N 9S",
                 deals=30, seed=1, play_check=False, method=odds_method)
    values = asked.options.set_index("label")
    assert js.best == "AS" and js.cost_points == pytest.approx(
        values.loc["play AS", "ev"] - values.loc["play JS", "ev"], abs=1e-3)
    assert js.value_before == pytest.approx(values.loc["play AS", "tricks"], abs=1e-3)
    assert js.value_after == pytest.approx(values.loc["play JS", "tricks"], abs=1e-3)


def test_pimc_worlds_keep_what_the_seat_knows():
    """The review's worlds are the PIMC players' own sampler's (``kernels.play.pimc.sample_world``,
    one home) fed with what the seat saw: its own cards, every card played, the suits each
    seat showed out of, the upcard in the dealer's hand, each hand's size — checked here
    against the record itself, not the knowledge array."""
    from analyzer.questions.review.review_hand import (
        _hand_of,
        _knowledge,
        _positions,
        _sample_worlds,
    )
    from kernels.cards import layout as L
    from kernels.deal.rng import stream_state

    checked = 0
    for record in played("knock", 30, seed=12):
        record = replay(record)
        h = _hand_of(record)
        to_norm, from_norm = record.rules.layout
        layout = (to_norm[h.trump], from_norm[h.trump])
        eff = L.natural_suit_tables(record.rules.deck)[0][h.trump]
        positions = _positions(record, h)
        up, dealer = int(record.rec[R.UPCARD]), int(record.rec[R.DEALER])
        for i in range(0, len(positions), 3):
            _, seat, _, hands, _, _, _ = positions[i]
            know = _knowledge(record, h, positions, i, layout[0])
            played_cards = [c for _, _, c, _, _, _, _ in positions[:i]]
            voids = [{int(eff[tab[0]]) for _, sj, c, _, _, tab, _ in positions[:i]
                      if sj == s and tab and eff[c] != eff[tab[0]]} for s in range(4)]
            worlds = _sample_worlds(stream_state(1, 2, i), h, hands, seat, know, layout, 5)
            for world in worlds:
                assert world[seat] == hands[seat]
                for s in range(4):
                    assert bin(world[s]).count("1") == bin(hands[s]).count("1")
                    assert not any((world[s] >> c) & 1 for c in played_cards)
                    if s != seat:
                        assert all(int(eff[c]) not in voids[s]
                                   for c in range(64) if (world[s] >> c) & 1)
                if record.rec[R.DEALER_DISCARD] >= 0 and (hands[dealer] >> up) & 1:
                    assert (world[dealer] >> up) & 1  # everyone saw the dealer take it
                elif record.rec[R.DEALER_DISCARD] < 0 and up >= 0:
                    assert not any((world[s] >> up) & 1 for s in range(4))  # turned down
                checked += 1
    assert checked > 300


def test_play_json_lines_make_a_file_review_reads(tmp_path):
    club = tmp_path / "club.jsonl"
    lines = []
    for seed in range(3):
        code, out, err = run_cli(["play", "--variant", "knock", "--seed", str(seed), "--json"])
        assert code == 0, err
        assert out.count("\n") == 1  # one record, one line
        lines.append(out)
    club.write_text("".join(lines))
    code, out, err = run_cli(["review", str(club), "--call-deals", "0", "--json"])
    assert code == 0 and "warning" not in err, err
    assert json.loads(out)["records"] >= 2  # redealt hands are skipped with a warning only
    pretty = tmp_path / "pretty.jsonl"
    pretty.write_text("".join(json.dumps(json.loads(x), indent=2) + "\n" for x in lines))
    code, out2, err = run_cli(["review", str(pretty), "--call-deals", "0", "--json"])
    assert code == 0 and json.loads(out2)["records"] == json.loads(out)["records"], err
