"""Playing and scoring single hands: thin callers of the engine kernel."""

from __future__ import annotations

import numpy as np

from kernels import policies as P
from kernels import rules as K
from kernels.engine import play_batch
from kernels.threads import num_threads

from .errors import UserError
from .notation import SEATS, parse_seat
from .record import Record, RecordError, check_result, load_record, replay
from .solve import table_bits
from .strategies import DEFAULT_WORLDS, seat_policies
from .variants import Rules

MAX_SEED = 2**63 - 1


def check_seed(seed: int) -> None:
    """UserError unless ``seed`` is a whole number from 0 to 2**63 - 1."""
    whole = isinstance(seed, int | np.integer) and not isinstance(seed, bool)
    if not whole or not 0 <= seed <= MAX_SEED:
        raise UserError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed!r}")


def play_hands(rules: Rules, n: int, seed: int = 0, first: int = 0, dealers=None,
               strategy: str | list = "random", play: str | list | None = None,
               worlds: int = DEFAULT_WORLDS) -> tuple[np.ndarray, np.ndarray]:
    """Deal and play hands ``first .. first+n-1`` of ``seed``: seat s bids by ``strategy``
    and plays by ``play`` (one name for all seats or a list of four; ``play`` defaults to
    ``random`` for the random strategy and ``heuristic`` otherwise). ``dealers`` (length n)
    defaults to rotating N, E, S(, W). Returns the engine's ``(masks[n, M_LEN],
    records[n, R_LEN])``."""
    check_seed(seed)
    if dealers is None:
        dealers = (first + np.arange(n)) % rules.players
    if play is None:
        play = "random" if strategy == "random" else "heuristic"
    policies, params = seat_policies(strategy, play, worlds, rules)
    to_norm, from_norm = rules.layout
    solving = bool(np.isin(policies[:, 1], (P.P_DD, P.P_PIMC)).any())
    return play_batch(rules.config(), rules.points_table, to_norm, from_norm, policies, params,
                      np.int64(seed), np.int64(first), np.asarray(dealers, dtype=np.int64),
                      table_bits(rules) if solving else 1, num_threads())


def play_one(rules: Rules, seed: int = 0, dealer: int = 0, strategy: str = "random",
             play: str | None = None, worlds: int = DEFAULT_WORLDS) -> Record:
    """Deal and play hand 0 of ``seed`` with ``dealer`` dealing; the record of the hand."""
    masks, recs = play_hands(rules, 1, seed=seed, dealers=[dealer], strategy=strategy,
                             play=play, worlds=worlds)
    return Record(rules, masks[0], recs[0])


def score_record(data: dict) -> Record:
    """Check and score a recorded hand (a parsed JSON object): every step is validated, the
    renege penalty applied, and any 'declarer' or 'result' the record states is checked
    against the play. Raises RecordError."""
    record = replay(load_record(data))
    declarer = record.rec[K.R_DECLARER]
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
