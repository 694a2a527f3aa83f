"""Playing and scoring single hands: ``euchre play`` and ``euchre score``."""

from __future__ import annotations

import numpy as np

from kernels.slots import R

from ..compute import engine
from ..errors import UserError
from ..game.notation import SEATS, parse_seat
from ..game.records import Record, RecordError, check_result, load_record
from ..game.variants import Rules
from ..strategy.defaults import DEFAULT_STRATEGY
from ..strategy.named import DEFAULT_WORLDS
from ..strategy.seats import seat_policies


def play_hands(rules: Rules, n: int, seed: int = 0, first: int = 0, dealers=None,
               strategy: str | list = DEFAULT_STRATEGY, play: str | list | None = None,
               worlds: int = DEFAULT_WORLDS) -> tuple[np.ndarray, np.ndarray]:
    """Deal and play hands ``first .. first+n-1`` of ``seed``: seat s bids by ``strategy``
    and plays by ``play`` (one name for all seats or a list of four; ``play`` defaults to
    ``random`` for the random strategy and ``heuristic`` otherwise). ``dealers`` (length n)
    defaults to rotating N, E, S(, W). Returns the engine's ``(masks[n, M.LEN],
    records[n, R.LEN])``."""
    if play is None:
        play = "random" if strategy == "random" else "heuristic"
    policies, params = seat_policies(strategy, play, worlds, rules)
    return engine.play_hands(rules, n, policies, params, seed, first, dealers)


def play_one(rules: Rules, seed: int = 0, dealer: int = 0, strategy: str = DEFAULT_STRATEGY,
             play: str | None = None, worlds: int = DEFAULT_WORLDS) -> Record:
    """Deal and play hand 0 of ``seed`` with ``dealer`` dealing; the record of the hand."""
    masks, recs = play_hands(rules, 1, seed=seed, dealers=[dealer], strategy=strategy,
                             play=play, worlds=worlds)
    return Record(rules, masks[0], recs[0])


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
