"""Duplicate matches between card players (``euchre match``).

Each deal is played once in every seating of a duplicate set — twice with partners (A at
N/S, then at E/W), three times with three players (A in each seat against two B's) — and
every seat bids, discards and decides the rest by one strategy, so the sides differ only in
how they play their cards. A deal's seatings together are one independent unit (a *pair*,
with three players a *set*): :func:`match` gives A's points a hand minus B's with its 95%
interval over them, :func:`ladder` plays every pair of several players on the same deals and
rates each by its mean difference against the field, :func:`match_games` plays whole games
instead (the simulation's, ``questions.simulate.whole_games``).

A player is a name (``strategy.defaults.MATCH_PLAYERS``): each play policy the kernels have
(``PLAY_NAMES``: random, heuristic, dd, pimc; a policy named there is a player, nothing here
changes), whose hands the hand engine deals and plays (``compute.engine.play_hands``), and
``advise``, whose every card with a choice is the card question's answer
(``questions.advise.bot_view.advise`` on the seat's view), played hand by hand through
``questions.advise.advise_games`` (slow: a question a card). Hand ``i`` of a seed is the same deal
with the same dealer and policy stream in every seating, so a player against itself scores
exactly nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np

from kernels.cards import codes as K
from kernels.slots import R

from ...compute.engine import GameLoop, duplicate_sides, play_hands, uses_solver
from ...compute.runner import DEFAULT_CHUNK, run_chunks, using_threads
from ...compute.seeds import check_seed
from ...errors import UserError
from ...game.notation import SEATS
from ...game.variants import Rules
from ...stats import mean_interval
from ...strategy.defaults import (
    ADVISE_DEALS,
    ADVISED,
    DEFAULT_METHOD,
    DEFAULT_STRATEGY,
    MATCH_PLAYERS,
    MATCH_WORLDS,
    METHODS,
    PLAY_NAMES,
)
from ...strategy.seats import seat_policies
from ...strategy.toml_files import is_strategy_file
from ..advise.advise_games import AdvisedHand, Ask, check_rules
from ..advise.bot_view import advise
from ..odds.odds_request import FIELD_BY_NAME
from .whole_games import SimResult, simulate

SOLVER_CHUNK = 16  # pairs a chunk when a player solves (dd, pimc): seconds, not minutes


@dataclass(frozen=True)
class MatchSettings:
    """What every player of a match shares: the strategy all seats bid by (``bidding``), the
    worlds a pimc player samples at each card, and the advise player's question: its
    ``method`` (as odds': dd, heuristic, pimc with ``worlds``) and ``deals``."""

    bidding: str = DEFAULT_STRATEGY
    worlds: int = MATCH_WORLDS
    method: str = DEFAULT_METHOD
    deals: int = ADVISE_DEALS

    def checked(self) -> MatchSettings:
        """These settings, each checked as the odds question checks its own (UserError)."""
        for name in ("worlds", "method", "deals"):
            FIELD_BY_NAME[name].check(getattr(self, name))
        return self


@dataclass(frozen=True)
class CardPlayer:
    """A player of a match: its ``name``, the play policy its seats play by (``play``; the
    advise player's where its question has no answer) and whether it ``asks`` the card
    question for its cards."""

    name: str
    play: str
    asks: bool = False
    method: str | None = None  # the advise player's method ("advise:dd"); None: the match's


def card_player(name: str) -> CardPlayer:
    """The player ``name`` (one of ``MATCH_PLAYERS``, any case; ``advise:METHOD`` the advise
    player answering by that method, whatever the match's ``--method``); UserError naming
    the choices (a strategy file bids: it is refused as a player, with where it goes)."""
    key = str(name).strip().lower()
    if key in PLAY_NAMES:
        return CardPlayer(key, key)
    if key == ADVISED:
        return CardPlayer(key, "heuristic", asks=True)
    if key.startswith(ADVISED + ":"):
        method = key.partition(":")[2]
        if method not in METHODS:
            raise UserError(f"unknown method in player {name!r}: choose one of "
                            f"{', '.join(METHODS)}")
        return CardPlayer(key, "heuristic", asks=True, method=method)
    if is_strategy_file(key):
        raise UserError(f"{name} is a strategy file: it bids, it plays no cards (give it as "
                        f"--bidding; the players are {', '.join(MATCH_PLAYERS)})")
    raise UserError(f"unknown player {name!r}: choose one of {', '.join(MATCH_PLAYERS)}")


@dataclass(frozen=True)
class Lineup:
    """What a run of duplicate hands plays: the ``rules``, the ``players``, the ``matchups``
    (pairs of indices into players: A, B), each player's seat rows (``policies[p, 2]``,
    ``params[p, :]``: all bidding alike), the side of each seat in each seating (``sides``,
    ``compute.engine.duplicate_sides``) and each player's question (``asks[p]``; None for a
    player that does not ask)."""

    rules: Rules
    players: tuple[CardPlayer, ...]
    matchups: tuple[tuple[int, int], ...]
    policies: np.ndarray
    params: np.ndarray
    sides: np.ndarray
    asks: tuple = ()

    @property
    def ask(self) -> bool:
        """Whether some player asks the card question."""
        return any(a is not None for a in self.asks)

    @property
    def seats_a(self) -> int:
        """Side A's players in a seating (2 with partners, 1 with three players)."""
        return int((self.sides[0, :self.rules.players] == 0).sum())

    @property
    def diff_scale(self) -> float:
        """What a deal's integer difference (:func:`deal_figures`) is in points a hand."""
        a = self.seats_a
        return 1.0 / (a * (self.rules.players - a) * len(self.sides))


def lineup(rules: Rules, names: list[str], matchups, settings: MatchSettings,
           seed: int) -> Lineup:
    """The :class:`Lineup` of the players ``names`` in ``matchups``, bidding and playing as
    ``settings`` say, the advise player's questions on ``seed``."""
    settings = settings.checked()
    players = tuple(card_player(n) for n in names)
    rows = [seat_policies(settings.bidding, p.play, settings.worlds, rules) for p in players]
    if any(p.asks for p in players):
        check_rules(rules)
    asks = tuple(advise_question(replace(settings, method=p.method or settings.method), seed)
                 if p.asks else None for p in players)
    return Lineup(rules, players, tuple(matchups), np.stack([r[0][0] for r in rows]),
                  np.stack([r[1][0] for r in rows]), duplicate_sides(rules), asks)


def advise_question(settings: MatchSettings, seed: int) -> Ask:
    """The advise player's question: a seat's view answered by ``advise`` with the
    settings' method, deals (and worlds) on ``seed``."""
    effort = {"method": settings.method, "deals": settings.deals, "seed": seed,
              "worlds": settings.worlds}

    def ask(view: dict) -> dict:
        return advise({**view, **effort})
    return ask


def seating_records(line: Lineup, matchup: tuple[int, int], seating: int, seed: int,
                    first: int, n: int) -> tuple[np.ndarray, int, int]:
    """Deals ``first .. first+n-1`` of ``seed`` played in ``seating`` of ``matchup``:
    ``(records[n, R.LEN], questions asked, questions unanswered)``."""
    who = np.asarray(matchup)[line.sides[seating]]  # the player of each seat
    policies, params = line.policies[who], line.params[who]
    advised = sum(1 << s for s in range(4) if line.players[who[s]].asks)
    if not advised:
        return play_hands(line.rules, n, policies, params, seed, first)[1], 0, 0
    asks = {SEATS[s]: line.asks[who[s]] for s in range(4) if advised >> s & 1}

    def ask(view: dict) -> dict:  # each seat's question is its player's
        return asks[view["seat"]](view)
    loop = GameLoop(line.rules, policies, params)
    recs = np.empty((n, R.LEN), dtype=np.int64)
    asked = fallbacks = 0
    for k, index in enumerate(range(first, first + n)):
        hand = AdvisedHand(loop, seed, index, index, index % line.rules.players)
        recs[k] = hand.play(advised, ask, False)
        asked, fallbacks = asked + hand.asked, fallbacks + hand.fallbacks
    return recs, asked, fallbacks


def deal_figures(line: Lineup, recs: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    """Per deal, from its records in each seating: ``(diff, points_a, points_b)`` as
    integers — A's points less B's a seat, summed over the seatings, in units of
    ``line.diff_scale`` points a hand; A's and B's points summed over their seats."""
    players = line.rules.players
    a = line.seats_a
    diff = points_a = points_b = 0
    for seating, rec in enumerate(recs):
        points = rec[:, R.POINTS:R.POINTS + players]
        mine = line.sides[seating, :players] == 0
        pa, pb = points[:, mine].sum(axis=1), points[:, ~mine].sum(axis=1)
        diff = diff + (players - a) * pa - a * pb
        points_a, points_b = points_a + pa, points_b + pb
    return diff, points_a, points_b


def play_chunk(line: Lineup, seed: int, first: int, n: int) -> dict:
    """Deals ``first .. first+n-1`` in every seating of every matchup, counted: per matchup
    the sums of its deals' ``diff`` and its square, A's and B's points; per player the sums
    of its deals' difference against the field (``rating``: its diffs as A less those as B)
    and its square; the deals redealt (nobody called), the questions asked and unanswered.
    Integers only, so the totals do not depend on how the run was cut."""
    m, p = len(line.matchups), len(line.players)
    counts = {key: np.zeros(m, dtype=np.int64) for key in ("diff", "diff_sq", "points_a",
                                                           "points_b")}
    field_diff = np.zeros((p, n), dtype=np.int64)
    asked = fallbacks = 0
    for i, matchup in enumerate(line.matchups):
        recs = []
        for seating in range(len(line.sides)):
            rec, q, f = seating_records(line, matchup, seating, seed, first, n)
            recs.append(rec)
            asked, fallbacks = asked + q, fallbacks + f
        diff, pa, pb = deal_figures(line, recs)
        counts["diff"][i], counts["diff_sq"][i] = diff.sum(), (diff * diff).sum()
        counts["points_a"][i], counts["points_b"][i] = pa.sum(), pb.sum()
        field_diff[matchup[0]] += diff
        field_diff[matchup[1]] -= diff
    counts["rating"] = field_diff.sum(axis=1)
    counts["rating_sq"] = (field_diff * field_diff).sum(axis=1)
    counts["redeals"] = np.int64((recs[0][:, R.STATUS] != K.ST_PLAYED).sum())
    counts["asked"], counts["fallbacks"] = np.int64(asked), np.int64(fallbacks)
    return counts


@dataclass
class Played:
    """A run of duplicate hands: its lineup, seed, the deals played (``pairs``), the
    runner's summed counts (:func:`play_chunk`), seconds, and whether Ctrl-C cut it short."""

    line: Lineup
    seed: int
    pairs: int
    counts: dict
    seconds: float
    interrupted: bool

    def diff(self, i: int) -> tuple:
        """Matchup ``i``'s A's points a hand less B's with its 95% interval."""
        c, scale = self.counts, self.line.diff_scale
        mean, low, high = mean_interval(c["diff"][i], c["diff_sq"][i], self.pairs)
        return mean * scale, low * scale, high * scale

    def points(self, i: int) -> tuple[float, float]:
        """Matchup ``i``'s points a hand of an A seat and of a B seat."""
        a, seatings = self.line.seats_a, len(self.line.sides)
        b = self.line.rules.players - a
        return (float(self.counts["points_a"][i]) / (a * seatings * self.pairs),
                float(self.counts["points_b"][i]) / (b * seatings * self.pairs))

    def rating(self, p: int) -> tuple:
        """Player ``p``'s mean points a hand less its opponents' over the field, with its
        95% interval (a deal's figure: the mean of its diffs against each other player)."""
        c = self.counts
        scale = self.line.diff_scale / (len(self.line.players) - 1)
        mean, low, high = mean_interval(c["rating"][p], c["rating_sq"][p], self.pairs)
        return mean * scale, low * scale, high * scale

    def figures(self) -> dict:
        """What every result says: the deals (``pairs``), ``hands`` a matchup, the hands a
        pair (``seatings``), ``redeals``, the advise player's ``questions`` and
        ``fallbacks`` (when it played), ``seconds`` and ``interrupted``."""
        out = {"pairs": self.pairs, "hands": self.pairs * len(self.line.sides),
               "seatings": len(self.line.sides), "redeals": int(self.counts["redeals"]),
               "seconds": self.seconds, "interrupted": self.interrupted}
        if self.line.ask:
            out.update(questions=int(self.counts["asked"]),
                       fallbacks=int(self.counts["fallbacks"]))
        return out


def play_lineup(line: Lineup, pairs: int, seed: int, workers: int | None,
                progress: bool) -> Played:
    """Play deals ``0 .. pairs-1`` of ``seed`` in every seating of every matchup of
    ``line`` on ``workers`` threads (None: all), in the runner's chunks (progress, Ctrl-C
    keeps the deals done, the size limit); UserError when none was played."""
    check_seed(seed)
    if pairs < 1:
        raise UserError("--pairs must be at least 1")
    start = time.perf_counter()
    chunk = 1 if line.ask else \
        SOLVER_CHUNK if uses_solver(line.policies) else DEFAULT_CHUNK
    with using_threads(workers):
        totals = run_chunks(pairs, lambda first, n: play_chunk(line, seed, first, n),
                            chunk=chunk, progress=progress, label="pairs")
    if not totals.counts:
        raise UserError("interrupted before the first pairs were played")
    return Played(line, seed, totals.done, totals.counts, time.perf_counter() - start,
                  totals.interrupted)


def settings_figures(settings: MatchSettings, names: list[str]) -> dict:
    """The settings a result states: the bidding, the worlds, and the advise player's
    method and deals when it plays."""
    out = {"bidding": settings.bidding, "worlds": settings.worlds}
    if ADVISED in (str(n).strip().lower() for n in names):
        out.update(method=settings.method, deals=settings.deals)
    return out


@dataclass
class MatchResult:
    """A duplicate match of two card players: who (``a``, ``b``), how (``settings``), and
    ``played`` (:class:`Played`): A's points a hand less B's with its interval, each side's
    points a hand."""

    rules: Rules
    a: str
    b: str
    settings: MatchSettings
    played: Played

    def to_dict(self) -> dict:
        """A JSON-ready dict (``euchre match --json``)."""
        diff, low, high = self.played.diff(0)
        points_a, points_b = self.played.points(0)
        return {"variant": self.rules.variant, "rules": self.rules.options, "a": self.a,
                "b": self.b, **settings_figures(self.settings, [self.a, self.b]),
                "seed": self.played.seed, "points_diff": diff, "points_diff_low": low,
                "points_diff_high": high, "points_a": points_a, "points_b": points_b,
                **self.played.figures()}


def match(rules: Rules, a: str = "heuristic", b: str = "random", pairs: int = 1000,
          seed: int = 0, settings: MatchSettings = MatchSettings(),
          workers: int | None = None, progress: bool = False) -> MatchResult:
    """Play ``pairs`` deals of ``seed`` in every seating between card players ``a`` and
    ``b`` (names of ``MATCH_PLAYERS``), bidding and playing as ``settings`` say; see
    :class:`MatchResult`."""
    line = lineup(rules, [a, b], [(0, 1)], settings, seed)
    played = play_lineup(line, pairs, seed, workers, progress)
    return MatchResult(rules, line.players[0].name, line.players[1].name, settings, played)


@dataclass
class LadderResult:
    """A round robin of card players on the same deals: each player's rating (its mean
    points a hand less its opponents' over the field, with the interval) and every
    match's figures."""

    rules: Rules
    players: list[str]
    settings: MatchSettings
    played: Played
    ratings: list[dict] = field(default_factory=list)  # best first
    table: list[dict] = field(default_factory=list)  # a row a match

    def to_dict(self) -> dict:
        """A JSON-ready dict (``euchre match --players ... --json``)."""
        return {"variant": self.rules.variant, "rules": self.rules.options,
                "players": self.players, **settings_figures(self.settings, self.players),
                "seed": self.played.seed, "ratings": self.ratings, "matches": self.table,
                **self.played.figures()}


def ladder(rules: Rules, players: list[str], pairs: int = 1000, seed: int = 0,
           settings: MatchSettings = MatchSettings(), workers: int | None = None,
           progress: bool = False) -> LadderResult:
    """Play every pair of ``players`` (at least two names, no repeats) on deals ``0 ..
    pairs-1`` of ``seed``, each pair a duplicate match; see :class:`LadderResult`."""
    names = [card_player(n).name for n in players]
    if len(names) < 2:
        raise UserError("--players needs at least two players, e.g. random,heuristic,pimc")
    if len(set(names)) < len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise UserError(f"--players names {twice} twice: each player plays once")
    line = lineup(rules, names, list(combinations(range(len(names)), 2)), settings, seed)
    played = play_lineup(line, pairs, seed, workers, progress)
    ratings = []
    for p, name in enumerate(names):
        rating, low, high = played.rating(p)
        ratings.append({"player": name, "rating": rating, "rating_low": low,
                        "rating_high": high})
    ratings.sort(key=lambda row: -row["rating"])
    table = []
    for i, (a, b) in enumerate(line.matchups):
        diff, low, high = played.diff(i)
        points_a, points_b = played.points(i)
        table.append({"a": names[a], "b": names[b], "points_diff": diff,
                      "points_diff_low": low, "points_diff_high": high,
                      "points_a": points_a, "points_b": points_b})
    return LadderResult(rules, names, settings, played, ratings, table)


def match_games(rules: Rules, a: str = "heuristic", b: str = "random", games: int = 1000,
                seed: int = 0, settings: MatchSettings = MatchSettings(),
                workers: int | None = None, progress: bool = False) -> SimResult:
    """Whole games between card players ``a`` and ``b``, both bidding by
    ``settings.bidding``: the simulation's duplicate games (``questions.simulate.whole_games``), A's
    win rate with its Wilson interval. The advise player plays hands only (UserError)."""
    settings = settings.checked()
    pa, pb = card_player(a), card_player(b)
    if pa.asks or pb.asks:
        raise UserError(f"the {ADVISED} player plays duplicate hands (--pairs), not whole "
                        f"games: a question a card is too slow for games")
    return simulate(rules, games, settings.bidding, settings.bidding, play=pa.play,
                    vs_play=pb.play, seed=seed, worlds=settings.worlds, workers=workers,
                    progress=progress)
