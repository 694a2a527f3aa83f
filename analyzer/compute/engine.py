"""The hand engine's wrappers: deal and play hands (``kernels.hand.engine.play_batch``), replay a
recorded hand (``replay_hand``) and play whole games (``kernels.drivers.games.play_games``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kernels.drivers.decisions import decision_rows_batch
from kernels.drivers.games import (
    MAX_HANDS,
    N_CODES,
    Lens,
    add_points,
    contract_code,
    count_hand,
    game_winner,
    play_games,
    seatings,
    set_worth,
)
from kernels.hand import policies as P
from kernels.hand.engine import deal_one, play_batch, play_forced_hand, replay_hand
from kernels.slots import SC, C, G, M, R
from kernels.threads import num_threads

from ..game.records import (
    Record,
    RecordError,
    check_replayed,
    describe_error,
)
from ..game.variants import Rules
from .first_compile import engine_for
from .seeds import check_seed
from .solver import table_bits


def uses_solver(policies: np.ndarray) -> bool:
    """Whether any seat plays cards by solving (dd or pimc), which needs solver tables."""
    return bool(np.isin(policies[:, 1], (P.P_DD, P.P_PIMC)).any())


def play_hands(rules: Rules, n: int, policies: np.ndarray, params: np.ndarray, seed: int = 0,
               first: int = 0, dealers=None) -> tuple[np.ndarray, np.ndarray]:
    """Deal and play hands ``first .. first+n-1`` of ``seed`` with the seats' ``policies[4,
    2]`` and ``params[4, :]`` (``analyzer.strategy``); ``dealers`` (length n) defaults to
    rotating N, E, S(, W). Returns the engine's ``(masks[n, M.LEN], records[n, R.LEN])``."""
    check_seed(seed)
    if dealers is None:
        dealers = (first + np.arange(n)) % rules.players
    return play_batch(rules.arrays, policies, params, np.int64(seed), np.int64(first),
                      np.asarray(dealers, dtype=np.int64),
                      table_bits(rules) if uses_solver(policies) else 1, num_threads(),
                      engine_for(rules))


def replay(record: Record) -> Record:
    """Run a record through the engine, filling tricks and points. Raises RecordError at the
    first illegal step (reneges are not errors: they are counted and penalised)."""
    rules = record.rules
    recorded_trump = int(record.rec[R.TRUMP])
    if not replay_hand(rules.arrays, record.hm, record.rec, engine_for(rules)):
        raise RecordError(describe_error(record))
    check_replayed(record, recorded_trump)
    return record


def off_lens() -> Lens:
    """The game lens of games played score-blind: nobody is told the score
    (``kernels.drivers.games.Lens``; ``analyzer.strategy.score_lens.game_lens`` makes one that is
    on)."""
    return Lens(np.zeros(SC.LEN, dtype=np.int64), np.zeros((1, 1, 1)))


@dataclass(frozen=True)
class Match:
    """Two strategies' policy rows (side A = 0, B = 1) for whole games, and the lens by which
    the seats that play to the score are told it before each hand."""

    policies: np.ndarray  # [2, 2]
    params: np.ndarray  # [2, N_PARAMS]
    lens: Lens = field(default_factory=off_lens)


def games_per_set(rules: Rules) -> int:
    """Games of one duplicate set: each deal set played with the seats swapped (twice with
    partners, three times with three players, A in each seat)."""
    return 2 if rules.partnership else 3


def duplicate_sides(rules: Rules) -> np.ndarray:
    """The side of each seat (0: A, 1: B) in each seating of a duplicate set, as the games
    seat them (``kernels.drivers.games.seatings``: A at N/S then at E/W; with three players A in N,
    E, then S against two B's): ``sides[games_per_set(rules), 4]``."""
    marks = np.array([[0, 0], [1, 1]], dtype=np.int64)  # each side's rows: its own number
    policies, _ = seatings(rules.arrays.cfg, marks, np.zeros((2, 1)))
    return policies[:, :, 0]


def play_game_chunk(rules: Rules, match: Match, seed: int, first: int, n: int) -> dict:
    """Play games ``first .. first+n-1`` of ``seed`` and count them: A's wins, hands,
    redeals, each side's points, and the tally per side and contract code (``tally[side,
    code, TALLY.*]``, ``kernels.slots.TALLY``: declared, made, marched, net points, alone)."""
    solving = uses_solver(match.policies)
    results, tally = play_games(
        rules.arrays, match.policies, match.params, np.int64(seed), np.int64(first),
        np.int64(n), table_bits(rules) if solving else 1, num_threads(), match.lens,
        engine_for(rules))
    return {"wins": np.int64(results[:, G.WINNER_IS_A].sum()),
            "hands": np.int64(results[:, G.HANDS].sum()),
            "redeals": np.int64(results[:, G.REDEALS].sum()),
            "points_a": np.int64(results[:, G.POINTS_A].sum()),
            "points_b": np.int64(results[:, G.POINTS_B].sum()),
            "tally": tally.sum(axis=0)}


class GameLoop:
    """One game's hands played one at a time from Python, with the kernel's own dealing,
    streams and scoring (``kernels.drivers.games``), for a caller that decides some calls itself
    (``questions.simulate.rollout``): ``deal`` a hand, ``play`` it with calls forced, ``count``
    it."""

    MAX_HANDS = MAX_HANDS
    N_CODES = N_CODES

    def __init__(self, rules: Rules, policies: np.ndarray, params: np.ndarray,
                 lens: Lens | None = None):
        self.rules = rules
        self.cfg = rules.config()
        self.policies, self.params = policies, params
        self.lens = lens if lens is not None and lens.geom[SC.ON] == 1 else None
        if self.lens is not None:
            self.params = params.copy()  # told the score before each hand
        self.bits = table_bits(rules) if uses_solver(policies) else 1
        self.scores = np.zeros(4, dtype=np.int64)

    def tell_score(self, dealer: int) -> None:
        """Before a hand ``dealer`` deals: the seats that play to the score are told it, as
        the game kernel tells them (``kernels.drivers.games.set_worth``); nothing without a lens."""
        if self.lens is not None:
            set_worth(self.lens, self.scores, np.int64(dealer), np.int64(self.rules.players),
                      self.params)

    def deal(self, seed: int, index: int, dealer: int) -> tuple[np.ndarray, np.ndarray]:
        """Hand ``index`` of ``seed`` as the games deal it: ``(hm, rec)``."""
        hm = np.zeros(M.LEN, dtype=np.uint64)
        rec = np.zeros(R.LEN, dtype=np.int64)
        deal_one(self.rules.arrays, np.int64(seed), np.int64(index), np.int64(dealer), hm, rec)
        return hm, rec

    def play(self, seed: int, stream: int, hm: np.ndarray, rec: np.ndarray,
             ins: np.ndarray) -> None:
        """Play a dealt hand as the instructions ``ins`` say (slots ``kernels.slots.IN``: its
        first ``IN.FORCED`` calls forced), the seats' policies deciding the rest, on policy
        stream ``stream``; fills hm, rec."""
        play_forced_hand(self.rules.arrays, self.policies, self.params, np.int64(seed),
                         np.int64(stream), hm, rec, ins, self.bits, engine_for(self.rules))

    def count(self, rec: np.ndarray, side: int, tally: np.ndarray) -> int:
        """Score a played hand into the game and ``tally[side]`` (``kernels.slots.TALLY``);
        returns the unit that has now won the game, or -1."""
        count_hand(self.cfg, rec, tally[side, contract_code(self.cfg, rec)])
        add_points(self.cfg, rec, self.scores)
        return int(game_winner(self.scores, 2 if self.rules.partnership else 3,
                               self.cfg[C.TARGET], self.cfg[C.WIN_BY]))


def calls_array(values) -> np.ndarray:
    """Seats or call codes as the int64 array the kernels take."""
    return np.asarray(values, dtype=np.int64).reshape(-1)


def decision_rows(rules: Rules, policies: np.ndarray, params: np.ndarray, seed: int,
                  first: int, dealers: np.ndarray, solve: bool
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deals ``first .. first+len(dealers)-1`` of ``seed`` with every call of seat N at its
    decision points played out (``kernels.drivers.decisions``): ``(dealt[n, 4], upcards[n],
    rows[n, MAX_ROWS, RW.LEN])``."""
    solving = solve or uses_solver(policies)
    return decision_rows_batch(rules.arrays, policies, params, np.int64(seed), np.int64(first),
                               np.asarray(dealers, dtype=np.int64), bool(solve),
                               table_bits(rules) if solving else 1, num_threads(),
                               engine_for(rules))
