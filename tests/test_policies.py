"""Playing and bidding policies: each heuristic step, the PIMC player's information, legal
play, matches between strategies, and determinism of simulations."""

import random

import numpy as np
import pandas as pd
import pytest

from analyzer.game.notation import format_card, parse_hand
from analyzer.game.records import Record, to_json
from analyzer.game.variants import make_rules
from analyzer.questions.simulate.play import play_hands
from analyzer.questions.simulate.whole_games import simulate
from kernels.bidding.bidding import DEFAULT_PARAMS, N_PARAMS, best_suit, hand_points
from kernels.cards.codes import NOBODY
from kernels.cards.layout import normalise_mask
from kernels.deal.record import new_instructions
from kernels.deal.rng import stream_state
from kernels.hand.policies import Agents
from kernels.play import play_heuristic as H
from kernels.play.pimc import pimc_card, sample_world
from kernels.slots import TR, K, R
from kernels.solver import solver_arrays
from kernels.threads import max_threads, num_threads, set_threads
from tests.conftest import thread_counts
from tests.reference import referee

pytestmark = [pytest.mark.engine, pytest.mark.strategy]

RULES = make_rules("knock")
TO_NORM, FROM_NORM = RULES.layout
HEARTS = 2


def n(cards, trump=HEARTS):
    """Normalised mask of cards written as text."""
    return int(normalise_mask(np.uint64(parse_hand(cards, RULES)), TO_NORM[trump]))


def bit(card, trump=HEARTS):
    return n(card, trump).bit_length() - 1


def name(b, trump=HEARTS):
    return format_card(int(FROM_NORM[trump, b]))


DECK = n("9C TC JC QC KC AC 9D TD JD QD KD AD 9H TH JH QH KH AH 9S TS JS QS KS AS")


def unplayed(played):
    """The cards of the deck not yet played."""
    return DECK & ~played


# ---------------------------------------------------------------------------- heuristic steps

def test_maker_leads_the_top_trump():
    hand = n("JH AH 9C TS KD")
    assert name(H.lead_trump_as_maker(hand, unplayed(0), True)) == "JH"
    assert H.lead_trump_as_maker(hand, unplayed(0), False) == -1  # defenders do not


def test_maker_without_the_top_trump_keeps_short_trumps():
    assert H.lead_trump_as_maker(n("AH 9C TS KD QD"), unplayed(0), True) == -1


def test_cash_a_side_ace():
    assert name(H.cash_winner(n("9H AC TS KD QD"), unplayed(0))) == "AC"


def test_a_king_is_a_winner_once_the_ace_is_gone():
    assert name(H.cash_winner(n("9H KC TS 9D QD"), unplayed(n("AC")))) == "KC"


def test_lead_low_from_the_longest_side_suit():
    assert name(H.lead_low(n("9H TC QC KS 9D"))) == "TC"


def test_second_hand_plays_low():
    hand = n("QC KC 9H TS 9D")
    legal = n("QC KC")
    card = H.heuristic_card(hand, legal, unplayed(n("9C")), 1, False, 0, bit("9C"), False, False, 0)
    assert name(card) == "QC"


def test_third_hand_wins_cheaply():
    hand = n("QC KC AC 9H TS")
    legal = n("QC KC AC")
    played = n("9C JC")
    card = H.heuristic_card(hand, legal, unplayed(played), 2, False, 0, bit("JC"), False, False, 0)
    assert name(card) == "QC"


def test_play_low_when_partner_has_the_trick_won():
    hand = n("QC KC 9H TS 9D")
    legal = n("QC KC")
    card = H.heuristic_card(hand, legal, unplayed(n("9C AC TC")), 3, True, 0, bit("AC"), True,
                            False, 0)
    assert name(card) == "QC"


def test_trump_in_when_partner_is_not_winning():
    hand = n("9H AH TS 9D QD")
    card = H.heuristic_card(hand, hand, unplayed(n("AC 9C")), 2, False, 0, bit("AC"), False,
                            False, 0)
    assert name(card) == "9H"


def test_overtrump_only_when_it_wins():
    hand = n("9H AH TS 9D QD")
    card = H.heuristic_card(hand, hand, unplayed(n("AC TH")), 2, False, 0, bit("TH"), False,
                            False, 0)
    assert name(card) == "AH"
    card = H.heuristic_card(n("9H TS 9D QD KD"), n("9H TS 9D QD KD"), unplayed(n("AC JH")), 2,
                            False, 0, bit("JH"), False, False, 0)
    assert name(card) == "9D"  # cannot beat the right bower: throw the lowest loser


def test_discard_when_partner_is_winning():
    hand = n("9H AH TS 9D QD")
    card = H.heuristic_card(hand, hand, unplayed(n("AC 9C")), 2, False, 0, bit("AC"), True,
                            False, 0)
    assert name(card) in ("9D", "TS")


# ---------------------------------------------------------------------------- point count

def test_point_count():
    params = DEFAULT_PARAMS[None, :]
    hand = parse_hand("JH JD AH 9C TS", RULES)
    assert hand_points(np.uint64(hand), HEARTS, params, 0) == pytest.approx(3 + 2.5 + 2 + 0.5)
    two_voids = parse_hand("JH JD AH KH 9C", RULES)
    assert hand_points(np.uint64(two_voids), HEARTS, params, 0) == pytest.approx(
        3 + 2.5 + 2 + 1.5 + 1)  # no diamond, no spade
    assert best_suit(np.uint64(hand), 15, params, 0)[1] == HEARTS
    assert DEFAULT_PARAMS.shape[0] >= 10


def test_double_deck_bids_are_valued_by_the_share_of_the_tricks_they_need():
    """The analyzer table has rows for bids 3, 4 and 5; a double-deck bid takes the row of the
    smallest single-deck bid that needs at least its share of the tricks (it took the row of 5
    for every bid from 5 to 11, and a partner overcalled a cold 8), and the point count bids
    the single deck's level doubled with its points halved."""
    from fractions import Fraction

    from kernels.bidding.bidding import bid_row, choose_bid

    for code in (3, 4, 5):
        assert bid_row(code, 6) == code
    for code in range(3, 12):
        share = Fraction(code, 12)
        assert bid_row(code, 12) == min(5, max(3, next(k for k in range(7)
                                                       if Fraction(k, 6) >= share)))
    assert [bid_row(c, 12) for c in range(3, 12)] == [3, 3, 3, 3, 4, 4, 5, 5, 5]
    params = DEFAULT_PARAMS[None, :]
    every_bid = np.uint64(((1 << 12) - 8) | 1)
    single = parse_hand("JH JD AH KH 9C TS", make_rules("bid"))
    double = parse_hand("JH JD AH KH 9C TS " * 2, make_rules("bid", double_deck=True))
    for place in range(4):
        level = choose_bid(np.uint64(single), every_bid, params, 0, place)
        assert 3 <= level <= 5 and choose_bid(np.uint64(double), every_bid, params, 0,
                                              place) == 2 * level


# ---------------------------------------------------------------------------- PIMC information

def knowledge(played="", voids=None, up_holder=NOBODY, upcard=None, dead=None):
    know = np.zeros(K.LEN, dtype=np.uint64)
    know[K.DECK] = DECK
    know[K.PLAYED] = n(played) if played else 0
    for s, slots in (voids or {}).items():
        know[K.VOIDS + s] = slots
    know[K.UP_HOLDER] = up_holder
    if upcard:
        know[K.UPCARD] = bit(upcard)
    for s, cards in (dead or {}).items():
        know[K.DEAD + s] = n(cards)
    return know


def test_worlds_depend_only_on_what_the_seat_sees():
    rng = random.Random(4)
    for _ in range(200):
        deck = list(range(24))
        cards = [c for c in deck]
        rng.shuffle(cards)
        hands = np.array([sum(1 << b for b in _norm_ids(cards[5 * s:5 * s + 5]))
                          for s in range(4)], dtype=np.uint64)
        rest = cards[20:] + cards[5:20]
        rng.shuffle(rest)
        other = hands.copy()
        k = 0
        for s in (1, 2, 3):
            other[s] = sum(1 << b for b in _norm_ids(rest[k:k + 5]))
            k += 5
        know = knowledge()
        a = np.zeros(4, dtype=np.uint64)
        b = np.zeros(4, dtype=np.uint64)
        sample_world(stream_state(9, 3, 1), 0, hands, 15, know, a)
        sample_world(stream_state(9, 3, 1), 0, other, 15, know, b)
        assert a.tolist() == b.tolist()
        assert a[0] == hands[0] and all(bin(int(a[s])).count("1") == 5 for s in range(4))


def _norm_ids(natural_ids):
    """Normalised bits (hearts trump) of natural deck indices 0..23 of the 24-card deck."""
    nat = [s * 8 + r for s in range(4) for r in range(2, 8)]
    return [int(TO_NORM[HEARTS, nat[i]]) for i in natural_ids]


def test_worlds_respect_voids_played_cards_and_the_upcard():
    own = n("JH AH 9C TS KD")
    hands = np.array([own, n("9D TD QD KC AC"), n("QH KH TC JC QC"), n("9S JS QS KS AS")],
                     dtype=np.uint64)
    know = knowledge(played="TH", voids={1: 1 << 3, 3: 1 << 0}, up_holder=2, upcard="QH",
                     dead={0: "TD"})
    slot_mask = [0xFFFF << (16 * s) for s in range(4)]
    for k in range(300):
        world = np.zeros(4, dtype=np.uint64)
        sample_world(stream_state(1, 3, k), 0, hands, 15, know, world)
        assert int(world[0]) == own
        assert int(world[2]) & n("QH")  # the dealer took the upcard
        assert not int(world[1]) & slot_mask[3]  # E showed out of trumps
        everything = int(world[1]) | int(world[2]) | int(world[3])
        assert not everything & n("TH TD")  # played, and known dead to N


def test_pimc_choice_ignores_the_true_unseen_cards():
    own = n("JH AH 9C TS KD")
    a = np.array([own, n("9D TD QD KC AC"), n("QH KH TC JC QC"), n("9S JS QS KS AS")],
                 dtype=np.uint64)
    b = np.array([own, n("QH KH TC JC QC"), n("9S JS QS KS AS"), n("9D TD QD KC AC")],
                 dtype=np.uint64)
    works, tables = solver_arrays(1, 12)
    trick = np.zeros(TR.LEN, dtype=np.int64)
    trick[TR.ACTIVE], trick[TR.LEADER] = 15, 0
    choices = set()
    for hands in (a, b):
        ag = Agents(np.zeros((4, 2), np.int64), np.zeros((4, N_PARAMS)), stream_state(3, 3, 0),
                    works[0], tables[0], knowledge(), np.zeros(4, np.uint64), new_instructions())
        choices.add(pimc_card(ag, 20, hands, 5, 0, trick, 0, own))
    assert len(choices) == 1


# ---------------------------------------------------------------------------- legality

def refereed_hands_played(rules, masks, recs) -> int:
    """How many of the hands played to the end: each checked by the referee (no renege, and
    every seat's points the referee's)."""
    played = 0
    for i in range(len(recs)):
        ref = referee(to_json(Record(rules, masks[i], recs[i])))
        if ref["status"] == "played":
            played += 1
            assert sum(ref["reneges"].values()) == 0
            assert [int(recs[i, R.POINTS + s]) for s in range(4)] == \
                [ref["points"][s] for s in "NESW"]
    return played


@pytest.mark.parametrize("variant", ["bid", "ghost", "knock", "cutthroat"])
@pytest.mark.parametrize("play, hands", [("heuristic", 2000), ("dd", 200), ("pimc", 40)])
def test_every_player_plays_legal_cards(variant, play, hands):
    rules = make_rules(variant)
    masks, recs = play_hands(rules, hands, seed=13, strategy="points", play=play, worlds=8)
    assert refereed_hands_played(rules, masks, recs) > 0


# ---------------------------------------------------------------------------- matches

@pytest.mark.parametrize("variant", ["bid", "ghost", "knock", "cutthroat"])
def test_heuristic_beats_random(variant):
    r = simulate(make_rules(variant), 300, "points", "random", play="heuristic",
                 vs_play="random", seed=3)
    assert r.win_rate[1] > r.fair_share + 0.2


def test_pimc_beats_heuristic():
    r = simulate(make_rules("knock"), 600, "points", "points", play="pimc",
                 vs_play="heuristic", worlds=20, seed=4)
    assert r.win_rate[0] > 0.5 and r.points_per_hand["A"] > r.points_per_hand["B"]


def test_simulation_is_identical_whatever_the_threads():
    before = num_threads()
    out = []
    try:
        for threads in thread_counts(max_threads()):
            set_threads(threads)
            r = simulate(make_rules("bid"), 400, "points", "random", seed=9)
            out.append((r.win_rate, r.hands, r.points_per_hand, r.decisions.to_dict()))
    finally:
        set_threads(before)
    assert len(out) >= 2 and all(o == out[0] for o in out)


def test_mirror_match_is_even():
    r = simulate(make_rules("knock"), 400, "points", "points", seed=2)
    assert r.win_rate[0] == pytest.approx(0.5)


# ---------------------------------------------------------------------------- analyzer bidder

def _strength(rows):
    return pd.DataFrame(rows, columns=["grid_option", "context", "strength", "deals", "points"])


def test_analyzer_grid_reads_the_strength_table():
    from analyzer.strategy.best_response import grid_from
    from kernels.bidding import bidding as B

    rules = make_rules("bid")
    grid = grid_from(rules, _strength([(B.L_BID4, 8, 3.0, 100, -100.0),
                                       (B.L_BID4, 8, 5.5, 100, 200.0),
                                       (B.L_MOON, 8, 9.0, 100, 700.0),
                                       (B.L_BID3, 8, 4.0, 10, 50.0)]))
    assert grid[B.L_BID4, 8, 6] == -1.0 and grid[B.L_BID4, 8, 11] == 2.0
    assert grid[B.L_BID4, 8, 0] == -1.0 and grid[B.L_BID4, 8, 32] == 2.0  # filled outwards
    assert grid[B.L_BID4, 8, 8] == -1.0  # forward-filled from the last known strength
    assert (grid[B.L_MOON, 8] == 7.0).all()
    assert (grid[B.L_BID3, 8] < -1e8).all()  # too few deals: never chosen
    assert (grid[B.L_BID4, 12] < -1e8).all()  # another context: never seen


def test_analyzer_grid_shrinks_thin_cells_towards_the_seats_pooled_value():
    from analyzer.strategy.best_response import SHRINK, grid_from
    from kernels.bidding import bidding as B

    rules = make_rules("bid")  # contexts 8 and 9 differ only in trump count: one pool
    grid = grid_from(rules, _strength([(B.L_BID4, 8, 5.0, 40, 200.0),
                                       (B.L_BID4, 9, 5.0, 960, 0.0)]))
    pooled = 200.0 / 1000
    thin = (200.0 + SHRINK * pooled) / (40 + SHRINK)
    assert grid[B.L_BID4, 8, 10] == pytest.approx(thin) and pooled < thin < 5.0
    assert grid[B.L_BID4, 9, 10] == pytest.approx(SHRINK * pooled / (960 + SHRINK))


def test_best_calls_need_two_options_seen():
    from analyzer.strategy.best_response import best_calls

    grid = np.zeros((3, 2, 2))
    grid[1] = 1.0
    seen = np.zeros((3, 2, 2), dtype=bool)
    seen[:, 0, 0] = True
    seen[0, 1, 1] = True
    best = best_calls(grid, seen)
    assert best[0, 0] == 1 and best[1, 1] == -1 and best[0, 1] == -1


@pytest.mark.parametrize("variant", ["bid", "knock"])
def test_analyzer_bidder_plays_legal_hands(variant):
    rules = make_rules(variant)
    masks, recs = play_hands(rules, 300, seed=5, strategy="analyzer", play="heuristic")
    assert refereed_hands_played(rules, masks, recs) > 100


def test_analyzer_bidder_beats_point_count_in_bid_euchre():
    r = simulate(make_rules("bid"), 600, "analyzer", "points", seed=6)
    assert r.win_rate[1] > 0.5 and r.points_per_hand["A"] > r.points_per_hand["B"]


@pytest.mark.parametrize("variant, options", [
    ("bid", {}), ("ghost", {}), ("knock", {}), ("cutthroat", {}),
    ("knock", {"stick_the_dealer": False}), ("knock", {"lone_defender": True}),
    ("knock", {"deck32": True}), ("knock", {"joker": True}), ("bid", {"stick_the_dealer": True}),
    ("bid", {"double_deck": True})])
def test_the_common_rules_strategies_are_shipped(variant, options, monkeypatch):
    """The analyzer strategy of each variant's default rules, and of the common house-rule
    sets (issue 21), ships with the package under the name a full build would cache it by, so
    a first question builds nothing (a change to the build's version or settings must rebuild
    and ship them: ``make strategies``); so does its fitted model where the analyzer bids by
    one (knock)."""
    from analyzer.strategy import best_response as A
    from analyzer.strategy import fitted as F
    from kernels.bidding import bidding as B

    for name in (A.DEALS_VARIABLE, A.ROUNDS_VARIABLE):
        monkeypatch.delenv(name, raising=False)
    rules = make_rules(variant, **options)
    assert (variant, options) in A.SHIPPED
    shipped = A.BUILT_DIR / A.cache_path(rules).name
    assert shipped.exists(), f"{shipped.name}: run 'make strategies'"
    # the strategies, models and equity hands, and the score lenses and iterated rounds of
    # knock and bid (about 120 KB: analyzer.questions.equity.build.ship_score)
    # (the card players' networks, about 400 KB each, are bounded in test_card_player)
    assert sum(p.stat().st_size for p in A.BUILT_DIR.glob("*.npz")
               if "-cards" not in p.name) < 600_000
    with np.load(shipped) as data:
        assert data["grid"].size == B.STRAT_OPTIONS * B.STRAT_CONTEXTS * B.STRAT_BINS
        assert np.isfinite(data["grid"]).any() and len(data["changes"]) >= 1
    assert F.has_model(rules) == ((variant, options) in F.SHIPPED_MODELS)
    if F.has_model(rules):
        model = F.model_files(rules)[1]
        assert model.exists(), f"{model.name}: run 'make strategies'"
        with np.load(model) as data:
            assert data["weights"].shape == (F.FM.MODELS, F.FM.LEN)


def test_a_build_that_stops_before_converging_says_so(tmp_path, monkeypatch, capsys):
    """A strategy build that ran out of rounds with more than 1% of the cells still changing
    says so (it stopped silently at 1.9%), and a first-use build says what it does, how long
    and what answers at once."""
    from analyzer.strategy import best_response as A

    assert A.Built(np.zeros(1), [0.05, 0.005]).converged
    stuck = A.Built(np.zeros(1), [0.05, 0.019])
    assert not stuck.converged and "3 rounds with 1.9%" in stuck.unconverged_note()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def build(rules, deals, progress=None):
        progress(1, None)
        return stuck
    monkeypatch.setattr(A, "best_response", build)
    A.analyzer_table(make_rules("bid", joker=True))  # rules whose strategy does not ship
    err = capsys.readouterr().err
    assert "--others points' answers at once" in err and "a round)" in err
    assert "note: the strategy stopped after 3 rounds" in err
