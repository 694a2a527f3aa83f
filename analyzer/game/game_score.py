"""The score of the game a question is asked in (``--score``): read from text, checked
against the variant (a game already over, a negative score where scores never fall, the
wrong number of scores), and held by unit — the teams N-S and E-W, or the players N, E, S —
the way the match-equity table (``analyzer.game.match_equity``) takes it."""

from __future__ import annotations

import re

import numpy as np

from ..errors import UserError
from ..numbers import in_range, read_number, shown
from .match_equity import ScoreRules, score_rules
from .variants import Rules

# two or three scores, each read by the one rule for numbers (``analyzer.numbers``)
_SCORE = re.compile(r"(-?[^-:/,]*)[-:/,](-?[^-:/,]*)(?:[-:/,](-?[^-:/,]*))?")
SCORE_BOUND = 10_000  # no game gets this far from 0 (they end at 10 or 32 points)


def units_of(rules: Rules) -> int:
    """How many scores a game keeps: 2 teams with partners, else one per player."""
    return 2 if rules.partnership else rules.players


def unit_of(rules: Rules, seat: int) -> int:
    """The unit (team or player) ``seat`` scores for."""
    return seat % units_of(rules)


def score_rules_of(rules: Rules) -> ScoreRules:
    """The ``ScoreRules`` of a game under ``rules``: its units (teams or players), target,
    winning lead, and the most points a hand gives or takes (from the points table)."""
    points = rules.points_table
    return score_rules(units_of(rules), rules.target, 2 if rules.win_by_two else 1,
                       int(points.max()), int(-min(points.min(), 0)))


def parse_score(text: str, rules: Rules, seat: int) -> tuple[int, ...]:
    """The score ``text`` as one score per unit (N-S then E-W; or N, E, S). With partners it
    is ``US-THEM`` (``"9-6"``: the asking ``seat``'s side first); with three players, the
    three players' scores in seat order (``"9-6-7"``: N, E, S). UserError, one line, when it
    is malformed, has the wrong number of scores or one left blank, a number that is not
    ASCII digits (``analyzer.numbers``) or beyond ``SCORE_BOUND``, one negative where the
    variant's scores never fall, or is one at which the game is already over."""
    m = _SCORE.fullmatch(str(text))
    n, where = units_of(rules), f"--score {shown(str(text))}"
    if not m:
        form = "US-THEM, e.g. 9-6" if n == 2 else "the three players' scores N-E-S, e.g. 9-6-7"
        raise UserError(f"{where}: write it as {form}")
    parts = [g for g in m.groups() if g is not None]
    if len(parts) != n:
        raise UserError(f"{where}: {rules.variant} keeps {n} scores ("
                        + ("us and them" if n == 2 else "N, E and S") + f"), not {len(parts)}")
    names = ("us", "them") if n == 2 else ("N", "E", "S")
    blank = [name for name, part in zip(names, parts, strict=True) if not part]
    if blank:
        raise UserError(f"{where}: the score of {' and '.join(blank)} is missing (give "
                        f"every score, or none)")
    scores = [read_number(part, f"{where}: {name}", int, -SCORE_BOUND, SCORE_BOUND)
              for name, part in zip(names, parts, strict=True)]
    if n == 2 and unit_of(rules, seat) == 1:
        scores = scores[::-1]
    return checked_score(scores, rules, where)


def checked_score(scores, rules: Rules, where: str = "the score") -> tuple[int, ...]:
    """``scores`` (one per unit, in unit order) when a game can be at them; UserError
    starting with ``where`` when one is beyond ``SCORE_BOUND``, negative where the variant's
    scores never fall, or the game is already over there."""
    scores = tuple(in_range(int(s), where, -SCORE_BOUND, SCORE_BOUND) for s in scores)
    if min(scores) < 0 and rules.points_table.min() >= 0:
        raise UserError(f"{where}: a {rules.variant} score cannot be negative (no hand loses "
                        f"points)")
    if score_rules_of(rules).winner(np.array(scores)) >= 0:
        raise UserError(f"{where}: the game is over at that score (first to {rules.target}"
                        + (", by two" if rules.win_by_two else "") + ")")
    return scores


UNIT_NAMES = {2: ("NS", "EW"), 3: ("N", "E", "S")}  # a record's score, by unit


def score_dict(score) -> dict:
    """A score (one per unit, in unit order) as a record writes it: ``{"NS": 9, "EW": 6}``,
    or ``{"N": .., "E": .., "S": ..}`` with three players."""
    return dict(zip(UNIT_NAMES[len(score)], (int(s) for s in score), strict=True))


def record_score(value, rules: Rules) -> tuple[int, ...]:
    """The score a record gives (``{"NS": 9, "EW": 6}``, or ``{"N": .., "E": .., "S": ..}``
    with three players) in unit order; UserError (one line) when it is not one."""
    names = UNIT_NAMES[units_of(rules)]
    if not isinstance(value, dict) or set(value) != set(names) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        raise UserError(f"'score' must be an object of whole numbers with the keys "
                        f"{', '.join(names)}, e.g. " + ", ".join(f'"{k}": {9 - 3 * i}'
                                                                for i, k in enumerate(names)))
    return checked_score([value[k] for k in names], rules, "'score'")


def score_text(score: tuple, rules: Rules, seat: int) -> str:
    """The score as the question gives it (``US-THEM`` from ``seat``'s side, or N-E-S)."""
    if len(score) == 2 and unit_of(rules, seat) == 1:
        score = score[::-1]
    return "-".join(str(s) for s in score)
