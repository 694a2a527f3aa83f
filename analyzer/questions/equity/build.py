"""The chance of winning the game from every score (the match-equity table) of a rule set:
one hand's outcome counted from self-play of the shipped strategy, solved by the dynamic
programme of ``analyzer.game.match_equity``, read from the shipped or cached file, and laid out as
the frames ``euchre equity`` prints, plots and writes.

What ships (``analyzer/strategy/built/``, beside the strategies it was played by, a few KB a
rule set: ``make strategies``) is each shipped rule set's distribution of one hand's outcome,
``EQUITY_HANDS`` hands of self-play; the table is solved from it on first use (milliseconds;
seconds for ghost's three scores) and cached under the user's cache directory with it. Other
rule sets play their hands on first use, with progress and a note on stderr.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from kernels.cards.codes import ST_PLAYED
from kernels.slots import R

from ...compute import engine
from ...game import match_equity as E
from ...game.game_score import score_rules_of
from ...game.variants import Rules, make_rules
from ...strategy.best_response import (
    SHIPPED,
    built_deals,
    cache_dir,
    cache_path,
    shipped_file,
)
from ...strategy.defaults import BUILT_PLAY, DEFAULT_STRATEGY
from ...strategy.fitted import has_model, model_path
from ...strategy.score_lens import plays_to_score, score_lens
from ...strategy.seats import seat_policies
from . import equity_rounds as ER

EQUITY_HANDS = 4_000_000  # hands of self-play a table is solved from (docs/equity.md)
EQUITY_SEED = 20261205
CHUNK = 100_000  # hands a self-play call (a record is 1.1 KB)
VERSION = 1
SHIPPED_EQUITY = SHIPPED  # the rule sets whose strategies ship ship their tables too
# and rule sets that differ from a shipped one only where a game ends: their rounds ship too
# (they share its hands and strategy; iterating them took 90 s of a cold test run)
SHIPPED_ROUNDS = (("knock", {"win_by_two": True}),)
SLOW_STATES = 50_000  # a first solve of more score states than this says so on stderr
# options that change only when a game ends, not how a hand is bid, played or scored: the
# hands of a rule set with them are those of the same rules without them (the strategy too)
GAME_END_OPTIONS = ("win_by_two",)


def equity_hands() -> int:
    """Hands of self-play a table is solved from: ``EQUITY_HANDS``, or
    ``$EUCHRE_STRATEGY_DEALS`` when set (the test suite plays fewer, as it builds the
    strategies on fewer; the count is in the file's name)."""
    return built_deals(EQUITY_HANDS)


def hand_rules(rules: Rules) -> Rules:
    """The rules a table's hands are played under: ``rules`` with the options that change
    only the end of a game (``GAME_END_OPTIONS``) at their defaults, so a win-by-two table
    plays the hands (and bids by the strategy) of the rules without it."""
    base = make_rules(rules.variant)
    given = {k: (getattr(base, k) if k in GAME_END_OPTIONS else v)
             for k, v in rules.options.items()}
    return make_rules(rules.variant, **given)


def deal_order_points(rules: Rules, records: np.ndarray) -> np.ndarray:
    """Each played hand's points per unit in deal order (unit 0 the dealer's team or the
    dealer, then the next to deal): ``[n, units]`` from the engine's ``records[n, R.LEN]``."""
    units = score_rules_of(rules).units
    order = (records[:, R.DEALER, None] + np.arange(units)) % units
    return np.take_along_axis(records[:, R.POINTS:R.POINTS + units], order, axis=1)


def hand_outcomes(rules: Rules, hands: int, seed: int = EQUITY_SEED,
                  progress=None) -> E.HandOutcomes:
    """The distribution of one hand's outcome under ``rules``: ``hands`` hands of self-play
    (every seat bids by the default strategy and plays heuristic, the dealer rotating), in
    chunks of ``CHUNK``; ``progress(done, hands)`` after each."""
    points, redealt = [], []
    played = hand_rules(rules)
    policies, params = seat_policies(DEFAULT_STRATEGY, BUILT_PLAY, rules=played)
    for first in range(0, hands, CHUNK):
        n = min(CHUNK, hands - first)
        _, records = engine.play_hands(played, n, policies, params, seed, first)
        points.append(deal_order_points(rules, records))
        redealt.append(records[:, R.STATUS] != ST_PLAYED)
        if progress:
            progress(first + n, hands)
    return E.outcomes_of(np.concatenate(points), np.concatenate(redealt))


def equity_name(rules: Rules, hands: int | None = None) -> str:
    """The file name of the hands of a table of ``rules`` (and of the tables solved from
    them, in the cache: ``-wbt`` after it where a win needs a lead of two): the name of the
    strategy they are played by (the fitted model's where the analyzer bids by one), the
    version and the hands."""
    played = hand_rules(rules)
    strategy = model_path(played) if has_model(played) else cache_path(played)
    return f"{strategy.stem}-equity{VERSION}-{hands or equity_hands()}.npz"


def _solved_name(rules: Rules) -> str:
    """The cache file of the table of ``rules`` solved: the hands' name, and what ends the
    game where an option changes it."""
    name = equity_name(rules)
    ends = [k for k in GAME_END_OPTIONS if rules.options.get(k) != getattr(
        make_rules(rules.variant), k)]
    return name if not ends else name.replace(".npz", f"-{'-'.join(ends)}.npz")


def equity_cache() -> Path:
    """Where solved tables are kept (beside the built strategies' cache)."""
    return cache_dir().parent / "equity"


def _read(path: Path) -> dict | None:
    """The arrays of an equity file, or None (a damaged cache file is removed)."""
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            return {k: data[k] for k in data.files}
    except (OSError, ValueError, KeyError, EOFError):
        if path.parent == equity_cache():
            path.unlink(missing_ok=True)
        return None


def _write(path: Path, arrays: dict, compressed: bool = False) -> Path:
    """Write ``arrays`` to ``path`` whole (a temporary file renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    (np.savez_compressed if compressed else np.savez)(tmp, **arrays)
    tmp.replace(path)
    return path


OUTCOME_KEYS = ("points", "counts", "redeals", "seed")  # an equity file's hands


def _outcome_arrays(outcomes: E.HandOutcomes, seed: int) -> dict:
    return {"points": outcomes.points, "counts": outcomes.counts,
            "redeals": np.int64(outcomes.redeals), "seed": np.int64(seed)}


def _outcomes_of(arrays: dict) -> E.HandOutcomes:
    return E.HandOutcomes(arrays["points"], arrays["counts"], int(arrays["redeals"]))


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _played_now(rules: Rules, hands: int) -> dict:
    """Self-play of ``hands`` hands for rules without a shipped table (first use): what it
    does on stderr, then its progress."""
    _say(f"building the equity table of these {rules.variant} house rules (first use; cached "
         f"after): {hands:,} hands of self-play by the {DEFAULT_STRATEGY} strategy")
    start = time.perf_counter()

    def show(done: int, total: int) -> None:
        if done == total or done % (10 * CHUNK) == 0:
            _say(f"  {done:,} of {total:,} hands ({time.perf_counter() - start:.0f} s)")
    return _outcome_arrays(hand_outcomes(rules, hands, progress=show), EQUITY_SEED)


def solved_table(rules: Rules, arrays: dict) -> E.EquityTable:
    """The table of ``rules`` solved from an equity file's outcome arrays (and the solved
    values when the file holds them)."""
    outcomes = _outcomes_of(arrays)
    score_rules = score_rules_of(rules)
    about = {"hands": outcomes.hands, "redeals": outcomes.redeals,
             "seed": int(arrays["seed"]), "strategy": DEFAULT_STRATEGY, "play": BUILT_PLAY,
             "floor": score_rules.low}
    if "values" in arrays and _fits(score_rules, arrays["states"]):
        about.update(sweeps=int(arrays["sweeps"]), unfinished=float(arrays["unfinished"]),
                     seconds=float(arrays["seconds"]))
        return E.EquityTable(score_rules, rules.players, arrays["states"], arrays["values"],
                             about)
    if score_rules.size ** score_rules.units > SLOW_STATES:
        _say(f"solving the {rules.variant} equity table (first use, cached after: seconds)")
    start = time.perf_counter()
    chain = E.build_chain(score_rules, outcomes)
    solved = E.solve(chain)
    about.update(sweeps=solved.sweeps, unfinished=solved.unfinished,
                 seconds=time.perf_counter() - start)
    return E.EquityTable(score_rules, rules.players, chain.states, solved.values, about)


def _fits(score_rules: E.ScoreRules, states: np.ndarray) -> bool:
    """Whether a cached table's states lie in the box this code keeps (else it is solved
    again: a cache written before the box changed)."""
    return bool(len(states)) and states.min() >= score_rules.low and \
        states.max() <= score_rules.high


_TABLES: dict = {}  # (rules, file name) -> EquityTable, this process's


def equity_table(rules: Rules) -> E.EquityTable:
    """The match-equity table of ``rules`` (``analyzer.game.match_equity.EquityTable``: look up
    with ``win_chance`` or ``after_hand``): where the analyzer plays to the score, the table
    of the rounds that iterate it with the strategy (``played_to_score``), else the
    score-blind table (``score_blind_table``); kept in this process's memory."""
    if not plays_to_score(hand_rules(rules)):
        return score_blind_table(rules)
    name = rounds_name(rules)
    table = _TABLES.get((rules, name))
    if table is None:
        table = _TABLES[(rules, name)] = played_to_score(rules, score_blind_table(rules))
    return table


def score_blind_table(rules: Rules) -> E.EquityTable:
    """The table of ``rules`` as one hand's outcome, the same at every score, makes it: from
    this process's memory, the user's cache, the hands shipped with the package, or
    self-play now (first use, said on stderr); solved tables are cached."""
    name = _solved_name(rules)
    table = _TABLES.get((rules, name))
    if table is not None:
        return table
    cached = equity_cache() / name
    arrays = _read(cached) or _hands_of(rules)
    table = solved_table(rules, arrays)
    if table.values is not arrays.get("values"):  # solved now: kept for the next time
        with contextlib.suppress(OSError):  # a read-only cache only costs the next solve
            _write(cached, {**_outcome_arrays(_outcomes_of(arrays), int(arrays["seed"])),
                            "states": table.states, "values": table.values,
                            "sweeps": np.int64(table.about["sweeps"]),
                            "unfinished": np.float64(table.about["unfinished"]),
                            "seconds": np.float64(table.about["seconds"])})
    _TABLES[(rules, name)] = table
    return table


def outcomes_of(rules: Rules) -> E.HandOutcomes:
    """One hand's outcome under ``rules`` as the score-blind table is solved from it (the
    hands of ``_hands_of``)."""
    return _outcomes_of(_hands_of(rules))


def _hands_of(rules: Rules) -> dict:
    """The outcome arrays of the hands of a table of ``rules``: from the cache (a table
    solved from the same hands, for rules that differ only in how a game ends), the package,
    or self-play now."""
    name = equity_name(rules)
    found = _read(equity_cache() / name) or \
        _read(shipped_file(lambda: equity_name(rules))) or \
        _played_now(rules, equity_hands())
    return {k: found[k] for k in OUTCOME_KEYS}


def ship_equity(rules: Rules) -> Path:
    """Play the hands of the table of ``rules`` (``EQUITY_HANDS``, the shipped strategy)
    and write their outcome counts where the package ships them; returns the path (see
    ``SHIPPED_EQUITY``; ``make strategies`` runs it after the strategies)."""
    hands = EQUITY_HANDS
    outcomes = hand_outcomes(rules, hands)
    return _write(shipped_file(lambda: equity_name(rules, hands)),
                  _outcome_arrays(outcomes, EQUITY_SEED),
                  compressed=True)


# ------------------------------------------------------------------------ the table as frames

def shown_scores(rules: Rules) -> list[int]:
    """The scores a printed table shows: every one below a target of 10; by fours from -8
    (0 where scores never fall) below a target of 32, and the last two."""
    score_rules = score_rules_of(rules)
    if rules.target <= 12:
        return list(range(max(score_rules.low, 0), rules.target))
    start = -8 if score_rules.low < 0 else 0
    return [*range(start, rules.target - 3, 4), rules.target - 2, rules.target - 1]


def _views(table: E.EquityTable) -> list[tuple[str, int]]:
    """Each printed view: its title and the seat that deals next (our side / I sit at N)."""
    if table.rules.units == 2:
        return [("we deal next", 0), ("they deal next", 1)]
    return [("I deal next", 0), ("the player on my left deals next", 1),
            ("the player on my right deals next", 2)]


def view_frames(rules: Rules, scores: list[int] | None = None) -> list[tuple[str, pd.DataFrame]]:
    """The table as a person reads it, one frame per seat dealing next: rows our score (or
    mine), columns theirs (with three players, both opponents at that score), cells the
    chance that we (I) win the game, from 0 to 1."""
    table = equity_table(rules)
    scores = scores or shown_scores(rules)
    ours, theirs = np.meshgrid(scores, scores, indexing="ij")
    grid = np.stack([ours] + [theirs] * (table.rules.units - 1), axis=-1)
    rows, columns = (("our score", "their score") if table.rules.units == 2 else
                     ("my score", "both opponents' score"))
    out = []
    for title, dealer in _views(table):
        chance = table.win_chance(grid, dealer)[..., 0]
        out.append((title, pd.DataFrame(chance, index=pd.Index(scores, name=rows),
                                         columns=pd.Index(scores, name=columns))))
    return out


def heat_frames(rules: Rules) -> list[tuple[str, pd.DataFrame]]:
    """``view_frames`` at every score from the shown lowest to the target less one."""
    low = shown_scores(rules)[0]
    return view_frames(rules, list(range(low, rules.target)))


def equity_frame(rules: Rules) -> pd.DataFrame:
    """The whole table, one row per score and dealer seen from each unit: with partners
    ``us, them, dealer`` (us or them), with three players ``me, left, right, dealer`` (me,
    left or right: the player on my left deals after me); and ``p_win``, the chance that
    we (I) win, for every state the table holds (scores down to its floor, and the ties
    and narrow leads past the target that play on)."""
    table = equity_table(rules)
    units = table.rules.units
    names = ["us", "them"] if units == 2 else ["me", "left", "right"]
    dealer_names = ["us", "them"] if units == 2 else ["me", "right", "left"]
    frames = []
    for k in range(units):  # the unit k places after the dealer sees the state from its seat
        scores = np.roll(table.states, -k, axis=1)
        frame = pd.DataFrame(scores, columns=names)
        frame["dealer"] = dealer_names[k]
        frame["p_win"] = table.values[:, k]
        frames.append(frame)
    out = pd.concat(frames, ignore_index=True)
    return out.sort_values(["dealer", *names], ignore_index=True)


def meta_of(rules: Rules) -> dict:
    """What a table says about how it was made: the variant, the rules that differ from the
    defaults, hands, seed, strategy, how it was solved."""
    table = equity_table(rules)
    return {"variant": rules.variant, "changed": rules.changed_options, **table.about}


# ------------------------------------------------------- the table of a strategy playing to it

ROUNDS_VERSION = 2  # 2: the strategy counts a call's value at the slope (score.split_worth)


def rounds_name(rules: Rules) -> str:
    """The file of the rounds of ``rules`` (``analyzer.questions.equity.equity_rounds``): the name
    of its solved table, the rounds' version and the deals a state."""
    return _solved_name(rules).replace(".npz", f"-score{ROUNDS_VERSION}.npz")


def _rounds_of(path: Path) -> ER.Rounds | None:
    arrays = _read(path)
    if arrays is None or "delta" not in arrays:
        return None
    return ER.Rounds(arrays["delta"].astype(np.int64), int(arrays["hands"]),
                    arrays["changes"].tolist())


def played_to_score(rules: Rules, blind: E.EquityTable) -> E.EquityTable:
    """The table of ``rules`` once the analyzer plays to the score: its rounds from the
    user's cache, the package, or iterated now from the score-blind table ``blind`` (first
    use: a few minutes, said on stderr) and cached."""
    played = hand_rules(rules)
    lens = score_lens(played)
    outcomes = outcomes_of(rules)
    name = rounds_name(rules)
    rounds = _rounds_of(equity_cache() / name) or \
        _rounds_of(shipped_file(lambda: rounds_name(rules)))
    if rounds is not None:
        return ER.table_of_rounds(blind, outcomes, lens, rounds)
    _say(f"iterating the {rules.variant} equity table with the strategy that plays to the "
         f"score (first use; cached after): up to {ER.max_rounds()} rounds")
    start = time.perf_counter()

    def show(r: int, change: float) -> None:
        _say(f"  round {r}: the largest chance moved {change:.5f} "
             f"({time.perf_counter() - start:.0f} s)")
    _, rounds = ER.iterate(played, blind, outcomes, lens, equity_hands(), progress=show)
    with contextlib.suppress(OSError):
        _write(equity_cache() / name, _rounds_arrays(rounds))
    return ER.table_of_rounds(blind, outcomes, lens, rounds)


def _rounds_arrays(rounds: ER.Rounds) -> dict:
    # int16 where the counts fit (bid's 1,000 deals a score: 82 KB shipped, not 105 KB)
    small = np.abs(rounds.delta).max(initial=0) < 2 ** 15
    return {"delta": rounds.delta.astype(np.int16 if small else np.int32),
            "hands": np.int64(rounds.hands),
            "changes": np.array(rounds.changes)}


def ship_score(rules: Rules) -> list[Path]:
    """Where the analyzer plays to the score under ``rules``: count its lens and iterate its
    table with it (or find them in the cache), and write both where the package ships them
    (``make strategies``, after the tables' hands); returns the paths written."""
    if not plays_to_score(hand_rules(rules)):
        return []
    from ...strategy.score_lens import ship_lens

    return [ship_lens(hand_rules(rules)), ship_rounds(rules)]


def ship_rounds(rules: Rules) -> Path:
    """Iterate (or find in the cache) the rounds of ``rules`` and write them where the
    package ships them (after the lens and the hands they start from); returns the path."""
    equity_table(rules)
    rounds = _rounds_of(equity_cache() / rounds_name(rules))
    return _write(shipped_file(lambda: rounds_name(rules)), _rounds_arrays(rounds), compressed=True)
