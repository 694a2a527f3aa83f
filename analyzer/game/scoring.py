"""Scoring: the rules of each variant as data (``LadderScoring``, ``UpcardScoring``), the
points table they give (``points_rows``), and ``net_points``, the one measure every answer is
in.

Net points are our side's points minus theirs in the partnership variants, and my points
minus the mean of my two opponents' in the three-player ones. Where each defender scores
their own tricks, a defender's share of the defenders' tricks is taken as half (the mean of
two defenders' tricks is exactly half of theirs, so the declarer's net is exact).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels.cards import codes as K


@dataclass(frozen=True)
class LadderScoring:
    """Scoring after a ladder auction: a made bid scores a point a trick, a set bid minus the
    bid; the n-ask and the moon win multiples of the hand size (``ask_win``, ``moon_win``)
    or lose ``ask_loss`` times it / the ``failed_moon_points`` option; the defenders score
    their tricks as a team (``"team"``) or each their own (``"own"``)."""

    defenders: str
    ask_win: int = 2
    ask_loss: int = 1
    moon_win: int = 4


@dataclass(frozen=True)
class UpcardScoring:
    """Scoring after an upcard auction: ``make`` for 3 or 4 tricks, ``march`` (or
    ``march_alone`` for a lone maker) for all of them; a euchre gives the defenders ``euchre``
    each, or against a lone defender ``euchre_lone_defender`` (``shutout_lone_defender``
    when the makers take nothing). A value given as text names the option that sets it."""

    march: int
    march_alone: int | str
    euchre_lone_defender: int | str
    shutout_lone_defender: int | str
    make: int = 1
    euchre: int = 2


def _value(rules, value) -> int:
    return getattr(rules, value) if isinstance(value, str) else value


def points_rows(rules):
    """The points table as rows ``(contract, declaring side's tricks, declaring side's points,
    each defending side's points)``, straight from RULES.md."""
    if isinstance(rules.scoring, LadderScoring):
        yield from _ladder_rows(rules)
    else:
        yield from _upcard_rows(rules)


def _ladder_rows(rules):
    n, sc = rules.hand_size, rules.scoring
    for bid in rules.bid_ladder:
        for t in range(n + 1):
            # the defenders' team scores its tricks; defenders who score their own tricks
            # have them added by the engine to the 0 here
            defend = n - t if sc.defenders == "team" else 0
            if bid == K.ASK:
                decl = sc.ask_win * n if t == n else -sc.ask_loss * n
            elif bid == K.MOON:
                decl = sc.moon_win * n if t == n else -rules.failed_moon_points
            else:
                decl = t if t >= bid else -bid
            yield bid, t, decl, defend


def _upcard_rows(rules):
    n, sc = rules.hand_size, rules.scoring
    for contract in rules.contracts:
        maker_alone = bool(contract & K.CT_MAKER_ALONE)
        defender_alone = bool(contract & K.CT_DEFENDER_ALONE)
        for t in range(n + 1):
            if t == n:
                yield contract, t, _value(rules, sc.march_alone if maker_alone else sc.march), 0
            elif t >= rules.make:
                yield contract, t, sc.make, 0
            elif not defender_alone:
                yield contract, t, 0, sc.euchre
            elif t == 0:
                yield contract, t, 0, _value(rules, sc.shutout_lone_defender)
            else:
                yield contract, t, 0, _value(rules, sc.euchre_lone_defender)


def net_points(rules, contract, declarer_tricks, declaring: bool | np.ndarray = True):
    """Net points of a player for a contract (code, or array of codes) and the declaring
    side's tricks (a number or an array), as one of the declaring side (``declaring``) or as
    a defender (see the module docstring). Returns floats shaped like the inputs."""
    t = np.asarray(declarer_tricks, dtype=np.int64)
    table = rules.points_table
    decl = table[contract, t, 0].astype(np.float64)
    defend = table[contract, t, 1].astype(np.float64)
    if rules.defenders_score_own_tricks:
        defend = defend + (rules.hand_size - t) / 2.0
    decl_net = decl - defend
    theirs = -decl_net if rules.partnership else -decl_net / 2.0
    return np.where(declaring, decl_net, theirs)
