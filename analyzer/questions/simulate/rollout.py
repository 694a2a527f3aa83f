"""The rollout bidder (``--strategy rollout[:DEALS]``): at each of its calls a seat asks the
decision-point query itself — every legal call played out on ``DEALS`` deals of the unseen
cards that fit the calls heard, the later calls by the analyzer strategy, the cards by the
seat's play — and makes the call (with its alone, discard, card given and trump) that nets the
most. Everything else (the other side's calls, card play, later choices the query did not
fix) is the engine's, seat by seat, so a match against another strategy is played on the same
deals, streams and scoring as ``kernels.drivers.games``: with no rollout seat this module plays
exactly the games ``play_games`` plays (tested).

Slow by design — it measures the ceiling of bidding by this project's own values: a few
hundred deals for each call of the rollout seats.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels.cards import codes as K
from kernels.deal.record import new_instructions
from kernels.drivers.forced import force_calls, force_choices
from kernels.slots import TALLY, M, R

from ...compute.engine import GameLoop, Match, calls_array, games_per_set
from ...compute.query import run_query
from ...errors import UserError
from ...game.decision_point import DecisionPoint
from ...game.heard import Heard
from ...game.variants import Rules
from ...numbers import read_number, shown
from ...strategy.seats import others_policies
from ..odds.decide import chunk_counts, prepare
from ..odds.options import CallOption

PREFIX = "rollout"
DEFAULT_DEALS = 200
BASE = "analyzer"  # the strategy of the later calls in a rollout, and of the other decisions
ROLLOUT_STREAM = 1 << 40  # rollout seeds live far from the games' own hand indices


def rollout_deals(strategy: str) -> int | None:
    """The deals a call of ``strategy`` (``rollout`` or ``rollout:DEALS``) plays out, or None
    when it is not the rollout bidder. UserError for a bad count."""
    if strategy != PREFIX and not strategy.startswith(PREFIX + ":"):
        return None
    if strategy == PREFIX:
        return DEFAULT_DEALS
    try:
        return read_number(strategy[len(PREFIX) + 1:], "DEALS", int, 10, 100_000)
    except UserError:
        raise UserError(f"{shown(strategy)}: write rollout:DEALS with 10 to 100,000 deals a "
                        f"call, e.g. rollout:200") from None


@dataclass(frozen=True)
class Rollout:
    """How the rollout seats decide: deals a call, the tremble of inference, and the seats'
    query policies (every seat bids by ``BASE`` and plays by the rollout side's play)."""

    deals: int
    policies: np.ndarray
    params: np.ndarray
    solve: bool  # cards double dummy (the query's solver gives the tricks)
    tremble: float = 0.03


def rollout_for(rules: Rules, deals: int, play: str) -> Rollout:
    """The rollout of a side that plays its cards by ``play`` (the query's card play)."""
    policies, params = others_policies(BASE, play, rules)
    return Rollout(deals, policies, params, play == "dd")


def best_option(rules: Rules, roll: Rollout, dealer: int, seat: int, hand: int, upcard: int,
                heard: Heard, seed: int) -> CallOption | None:
    """The option that nets the most for ``seat`` at this call over ``roll.deals`` deals, or
    None when no deal fits the calls heard."""
    point = DecisionPoint(rules, dealer, seat, hand, upcard, heard)
    d = prepare(point, solve=roll.solve, infer=True, tremble=roll.tremble)
    d.query.policies, d.query.params = roll.policies, roll.params
    counts = chunk_counts(d, run_query(d.query, seed, 0, roll.deals))
    if int(counts["accepted"]) == 0:
        return None
    return d.options[int(np.argmax(counts["net"]))]


def _forced(hm0, rec0, calls: list, alone: int, asker: int = -1, option=None):
    """Fresh copies of a dealt hand, and instructions, with ``calls`` ([(seat, code)])
    forced, the makers in the mask ``alone`` going alone; ``asker`` with ``option``'s later
    choices (trump, discard, card given) where it wins the auction. Returns
    ``(hm, rec, ins)``."""
    hm, rec, ins = hm0.copy(), rec0.copy(), new_instructions()
    force_calls(rec, ins, calls_array([s for s, _ in calls]),
                calls_array([c for _, c in calls]), len(calls), alone, asker)
    if option is not None:
        force_choices(ins, np.asarray(option, dtype=np.int64))
    return hm, rec, ins


def play_rollout_hand(loop: GameLoop, rollout_seats: int, roll, seed: int, index: int,
                      stream: int, dealer: int):
    """Deal hand ``index`` and play it: the seats in the mask ``rollout_seats`` make their
    calls by rollout, every other decision is the seats' policies'. Returns the record."""
    rules = loop.rules
    hm0, rec0 = loop.deal(seed, index, dealer)

    def run(calls, alone, asker=-1, option=None):
        hm, rec, ins = _forced(hm0, rec0, calls, alone, asker, option)
        loop.play(seed, stream, hm, rec, ins)
        return rec

    calls: list = []
    alone = 0
    chosen: dict = {}
    heard = Heard()
    while True:
        rec = run(calls, alone)
        j = len(calls)
        if rollout_seats == 0 or rec[R.NCALLS] <= j:
            break
        s = int(rec[R.CALL_SEAT + j])
        call = int(rec[R.CALL + j])
        went_alone = bool((rec[R.ALONE_SEATS] >> s) & 1) and rec[R.NCALLS] == j + 1
        if (rollout_seats >> s) & 1:
            option = best_option(rules, roll, dealer, s, int(hm0[M.DEALT + s]),
                                 int(rec0[R.UPCARD]), heard,
                                 ROLLOUT_STREAM + stream * 16 + j)
            if option is not None:
                call = option.call
                went_alone = option.alone == 1
                chosen[s] = option.row
        calls.append((s, call))
        heard = heard.then(s, call, went_alone and call != K.PASS)
        if went_alone and call != K.PASS:
            alone |= 1 << s
    maker = next((s for s, c in reversed(calls) if c not in (K.PASS, K.SWAP)), -1)
    if maker in chosen:  # its later choices (trump, discard, card given) are the rollout's
        return run(calls, alone, maker, chosen[maker])
    return rec


def play_rollout_games(rules: Rules, match: Match, rollout_side: int | None, roll,
                       seed: int, first: int, n: int) -> dict:
    """Games ``first .. first+n-1`` of ``seed`` as ``kernels.drivers.games.play_games`` plays them,
    but the seats of ``rollout_side`` (0 = A, 1 = B, None: no seat) call by rollout. Returns
    the counts of ``analyzer.compute.engine.play_game_chunk``."""
    copies = games_per_set(rules)
    partners = rules.partnership
    wins = hands_played = redeals = points_a = points_b = 0
    tally = np.zeros((2, GameLoop.N_CODES, TALLY.LEN), dtype=np.int64)
    for game in range(first, first + n):
        deal_set, a_seat = divmod(game, copies)
        side_of = [(0 if (s & 1) == a_seat else 1) if partners else (0 if s == a_seat else 1)
                   for s in range(4)]
        loop = GameLoop(rules, np.stack([match.policies[side_of[s]] for s in range(4)]),
                        np.stack([match.params[side_of[s]] for s in range(4)]), match.lens)
        rolling = 0 if rollout_side is None else \
            sum(1 << s for s in range(rules.players) if side_of[s] == rollout_side)
        dealer = deal_set % rules.players
        winner = -1
        for h in range(GameLoop.MAX_HANDS):
            index = deal_set * GameLoop.MAX_HANDS + h
            loop.tell_score(dealer)
            rec = play_rollout_hand(loop, rolling, roll, seed, index, index * 3 + a_seat,
                                    dealer)
            hands_played += 1
            dealer = (dealer + 1) % rules.players
            if rec[R.STATUS] != K.ST_PLAYED:
                redeals += 1
                continue
            winner = loop.count(rec, side_of[int(rec[R.DECLARER])], tally)
            if winner >= 0:
                break
        scores = loop.scores
        wins += int(winner == a_seat)
        points_a += int(scores[a_seat])
        points_b += int(scores[1 - a_seat]) if partners else \
            int(sum(scores[s] for s in range(3) if s != a_seat)) // 2
    return {"wins": np.int64(wins), "hands": np.int64(hands_played),
            "redeals": np.int64(redeals), "points_a": np.int64(points_a),
            "points_b": np.int64(points_b), "tally": tally}
