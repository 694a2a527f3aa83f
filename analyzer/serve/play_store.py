"""The hands and games being played on the page (``/api/play``): each a
:class:`~analyzer.questions.simulate.graded_hand.GradedHand` or a
:class:`~analyzer.questions.simulate.graded_game.GradedGame` kept under an unguessable id
(``secrets.token_urlsafe``: whoever does not hold the id cannot see the table, and ids are
never listed), forgotten after ``EXPIRE_SECONDS`` without a move, and at most ``MAX_TABLES``
at once (the one left longest without a move goes first). A hand is a few kilobytes of
arrays and at most a few dozen decisions; a game keeps its hand in play whole and a short
row and the grades of each finished hand (a few kilobytes more), so the count bounds the
memory too."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping

from ..errors import UserError
from ..game.game_score import parse_score
from ..game.notation import SEATS, NotationError, parse_seat
from ..game.variants import OPTIONS
from ..questions.simulate.graded_game import GradedGame
from ..questions.simulate.graded_hand import GradedHand
from .requests import _bool, _int, _one, rules_of, served_text

MAX_TABLES = 64  # hands kept at once
EXPIRE_SECONDS = 30 * 60.0  # a hand left this long without a move is forgotten
ID_BYTES = 16  # of randomness in an id (22 characters)
START_KEYS = {"variant", "seat", "seed", "dealer", "game", "score"} | {o.name for o in OPTIONS}
Table = GradedHand | GradedGame  # what a player plays: one hand, or a game


class PlayStore:
    """The hands and games in play, by id (see the module); safe to use from several
    threads."""

    def __init__(self, max_tables: int = MAX_TABLES, expire: float = EXPIRE_SECONDS):
        self._lock = threading.Lock()
        self._hands: OrderedDict[str, tuple[Table, float]] = OrderedDict()
        self.max_tables, self.expire = max_tables, expire

    def add(self, hand: Table) -> str:
        """Keep ``hand`` (or game); its new id."""
        key = secrets.token_urlsafe(ID_BYTES)
        with self._lock:
            self._forget_old()
            while len(self._hands) >= self.max_tables:
                self._hands.popitem(last=False)
            self._hands[key] = (hand, time.monotonic())
        return key

    def get(self, key: str) -> Table:
        """The hand or game ``key`` (its clock restarted); UserError (HTTP 404 by the route)
        when there is none: it expired, or never was."""
        with self._lock:
            self._forget_old()
            found = self._hands.pop(key, None)
            if found is None:
                raise UnknownHand(f"no hand {key[:24]!r} here: it expired after "
                                  f"{self.expire / 60:.0f} minutes without a move, or never "
                                  f"was; deal again")
            self._hands[key] = (found[0], time.monotonic())
            return found[0]

    def __len__(self) -> int:
        with self._lock:
            return len(self._hands)

    def _forget_old(self) -> None:
        now = time.monotonic()
        while self._hands:
            key, (_, seen) = next(iter(self._hands.items()))
            if now - seen <= self.expire:
                break
            del self._hands[key]


class UnknownHand(UserError):
    """No hand has the id asked for."""


def new_hand(body) -> Table:
    """The hand a ``POST /api/play`` body asks for (an object: ``variant``, ``seat``,
    ``seed``, optional ``dealer`` — default the seed's turn —, ``game`` — true: a whole
    game —, ``score`` — the game's score before the hand or game, as ``euchre odds
    --score`` reads it — and any house rule by its name), not yet dealt. UserError naming
    the first bad field."""
    if not isinstance(body, Mapping):
        raise UserError('the body is a JSON object, e.g. {"variant": "knock", "seat": "S", '
                        '"seed": 1}')
    unknown = sorted(k for k in body if k not in START_KEYS)
    if unknown:
        raise UserError(f"unknown field {str(unknown[0])[:40]!r} (the fields: variant, seat, "
                        f"seed, dealer, game, score and the house rules)")
    params = {k: _text(k, v) for k, v in body.items() if v is not None}
    rules = rules_of(params)
    seat = _seat(rules, _one(params, "seat") or "S", "seat")
    seed = _int("seed", _one(params, "seed") or "0")
    dealer = _one(params, "dealer")
    dealer = seed % rules.players if dealer is None else _seat(rules, dealer, "dealer")
    score = _one(params, "score")
    try:
        score = () if score is None else parse_score(score, rules, seat)
    except UserError as e:
        raise UserError(served_text(str(e))) from None
    if _bool("game", _one(params, "game") or "false"):
        return GradedGame(rules, seat, seed, dealer, score)
    return GradedHand(rules, seat, seed, dealer, score=score)


def _text(name: str, value) -> str:
    """A body field as the request's text (a number, true or false, or text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return str(value)
    raise UserError(f"{name} is a number, true or false, or text, not {type(value).__name__}")


def _seat(rules, text: str, name: str) -> int:
    """A seat of ``rules``' players, or UserError naming the field."""
    try:
        seat = parse_seat(text)
    except NotationError as e:
        raise UserError(f"{name}: {e}") from None
    if seat >= rules.players:
        raise UserError(f"{name}: {SEATS[seat]} does not play in {rules.variant}")
    return seat


def action_of(body) -> str:
    """The action of a ``POST /api/play/{id}`` body (``{"action": label}``); UserError when
    there is none."""
    if not isinstance(body, Mapping) or not isinstance(body.get("action"), str):
        raise UserError('the body is {"action": "one of the decision\'s options"}')
    unknown = sorted(k for k in body if k != "action")
    if unknown:
        raise UserError(f"unknown field {str(unknown[0])[:40]!r} (the body holds the action)")
    return body["action"]
