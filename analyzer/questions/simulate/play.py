"""Playing and scoring single hands: ``euchre play`` and ``euchre score``."""

from __future__ import annotations

import numpy as np

from kernels.slots import R

from ...compute import engine
from ...errors import UserError
from ...game.game_score import score_rules_of, units_of
from ...game.notation import SEATS, parse_seat
from ...game.records import Record, RecordError, check_result, load_record
from ...game.variants import Rules
from ...strategy.defaults import DEFAULT_PLAY, DEFAULT_STRATEGY
from ...strategy.named import DEFAULT_WORLDS
from ...strategy.seats import seat_policies
from ..equity.to_score import tell_score


def play_hands(rules: Rules, n: int, seed: int = 0, first: int = 0, dealers=None,
               strategy: str | list = DEFAULT_STRATEGY, play: str | list | None = None,
               worlds: int = DEFAULT_WORLDS) -> tuple[np.ndarray, np.ndarray]:
    """Deal and play hands ``first .. first+n-1`` of ``seed``: seat s bids by ``strategy``
    and plays by ``play`` (one name for all seats or a list of four; ``play`` defaults to
    ``random`` for the random strategy and ``heuristic`` otherwise). ``dealers`` (length n)
    defaults to rotating N, E, S(, W). Returns the engine's ``(masks[n, M.LEN],
    records[n, R.LEN])``."""
    policies, params = seat_rows(rules, strategy, play, worlds)
    return engine.play_hands(rules, n, policies, params, seed, first, dealers)


def play_one(rules: Rules, seed: int = 0, dealer: int = 0, strategy: str = DEFAULT_STRATEGY,
             play: str | None = None, worlds: int = DEFAULT_WORLDS, score: tuple = ()) -> Record:
    """Deal and play hand 0 of ``seed`` with ``dealer`` dealing; the record of the hand,
    with the game's ``score`` before it (one per unit, ``game.game_score``) when one is given (the
    analyzer's calls are then made at that score)."""
    masks, recs = _played_at(rules, seat_rows(rules, strategy, play, worlds), seed, 0, dealer,
                             score)
    return Record(rules, masks[0], recs[0], score=tuple(score))


def seat_rows(rules: Rules, strategy, play, worlds: int) -> tuple:
    """The seats' ``(policies, params)`` as ``play_hands`` makes them."""
    if play is None:
        play = "random" if strategy == "random" else DEFAULT_PLAY
    return seat_policies(strategy, play, worlds, rules)


def _played_at(rules: Rules, rows: tuple, seed: int, index: int, dealer: int, score) -> tuple:
    """Hand ``index`` of ``seed`` dealt by ``dealer``, every seat that plays to the score
    (the analyzer) told the game's ``score`` first (none: score-blind)."""
    policies, params = rows
    if len(score):
        params = params.copy()
        tell_score(rules, params, tuple(int(x) for x in score), dealer)
    return engine.play_hands(rules, 1, policies, params, seed, index, [dealer])


MAX_GAME_HANDS = 1000  # as the game kernel: a game longer than this stops (never in practice)


def play_game(rules: Rules, seed: int = 0, dealer: int = 0, score: tuple = (),
              strategy: str = DEFAULT_STRATEGY, play: str | None = None,
              worlds: int = DEFAULT_WORLDS) -> tuple[list[Record], int]:
    """Play a whole game from ``score`` (one per unit, ``game.game_score``; empty: 0 each), hand
    ``i`` of ``seed`` dealt by ``dealer + i`` (the deal passes after a redeal too, as in the
    game kernel); the analyzer calls each hand at the score before it. Returns the records,
    each with the score before its hand, and the unit that won (-1 only if the game ran past
    ``MAX_GAME_HANDS``)."""
    units = units_of(rules)
    scores = np.array(score or (0,) * units, dtype=np.int64)
    judge = score_rules_of(rules)
    records = []
    rows = seat_rows(rules, strategy, play, worlds)
    for i in range(MAX_GAME_HANDS):
        masks, recs = _played_at(rules, rows, seed, i, (dealer + i) % rules.players, scores)
        records.append(Record(rules, masks[0], recs[0], score=tuple(int(x) for x in scores)))
        scores = scores + recs[0][R.POINTS:R.POINTS + units]
        winner = int(judge.winner(scores))
        if winner >= 0:
            return records, winner
    return records, -1


def score_record(data: dict) -> Record:
    """Check and score a recorded hand (a parsed JSON object): every step is validated, the
    renege penalty applied, and any 'declarer' or 'result' the record states is checked
    against the play. Raises RecordError."""
    record = engine.replay(load_record(data))
    declarer = record.rec[R.DECLARER]
    if "declarer" in data and declarer >= 0:
        actual = SEATS[declarer]
        try:
            claimed = parse_seat(str(data["declarer"]))
        except UserError:
            raise RecordError(f"'declarer' must be a seat (N, E, S, W), not "
                              f"{data['declarer']!r}") from None
        if SEATS[claimed] != actual:
            raise RecordError(f"the record says the declarer is {data['declarer']}, but the "
                              f"auction makes {actual} the declarer")
    check_result(record, data.get("result"))
    return record
