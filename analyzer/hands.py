"""Playing and scoring single hands: thin callers of the engine kernel."""

from __future__ import annotations

import numpy as np

from kernels import policies as P
from kernels import rules as K
from kernels.engine import play_batch

from .errors import UserError
from .notation import SEATS, parse_seat
from .record import Record, RecordError, check_result, load_record, replay
from .variants import Rules

PLAY_POLICIES = {"random": P.P_RANDOM}


def policy_table(name: str) -> np.ndarray:
    """The engine's (decision, play) policy ids for all four seats from a policy name."""
    name = name.lower()
    if name not in PLAY_POLICIES:
        raise UserError(f"unknown policy {name!r}: choose one of {', '.join(PLAY_POLICIES)}")
    return np.full((4, 2), PLAY_POLICIES[name], dtype=np.int64)


MAX_SEED = 2**63 - 1


def check_seed(seed: int) -> None:
    """UserError unless ``seed`` is a whole number from 0 to 2**63 - 1."""
    whole = isinstance(seed, int | np.integer) and not isinstance(seed, bool)
    if not whole or not 0 <= seed <= MAX_SEED:
        raise UserError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed!r}")


def play_hands(rules: Rules, n: int, seed: int = 0, first: int = 0, dealers=None,
               policy: str = "random") -> tuple[np.ndarray, np.ndarray]:
    """Deal and play hands ``first .. first+n-1`` of ``seed`` with one policy at every seat.
    ``dealers`` (length n) defaults to rotating N, E, S(, W). Returns the engine's
    ``(masks[n, M_LEN], records[n, R_LEN])``."""
    check_seed(seed)
    if dealers is None:
        dealers = (first + np.arange(n)) % rules.players
    to_norm, from_norm = rules.layout
    return play_batch(rules.config(), rules.points_table, to_norm, from_norm,
                      policy_table(policy), np.zeros(1), np.int64(seed), np.int64(first),
                      np.asarray(dealers, dtype=np.int64))


def play_one(rules: Rules, seed: int = 0, dealer: int = 0, policy: str = "random") -> Record:
    """Deal and play hand 0 of ``seed`` with ``dealer`` dealing; the record of the hand."""
    masks, recs = play_hands(rules, 1, seed=seed, dealers=[dealer], policy=policy)
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
