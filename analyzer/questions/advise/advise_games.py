"""Whole games in which one side's cards are chosen by a bot asking :func:`advise` (or any
function of a view), the rest played by the engine: the advised side's calls, and both sides'
other decisions, are its seats' policies', so with no advised side these are exactly the games
``kernels.drivers.games.play_games`` plays (tested), and a match against another card player is
played on the same deals, streams and scoring.

A hand is run by the engine from its deal with the cards played so far forced
(``kernels.drivers.forced``: a point with no call heard and its plays, ``IN.PLAYS``); at the first
card of an advised seat after them the seat's view (:func:`seat_view`) is asked, its card
joins the forced plays and the hand is run again — one engine run a decision, microseconds
beside the question. A seat holding one legal card plays it without asking. With
``discards`` the advised dealer's discard after a pick-up is asked too (the point's own
discard, ``set_own_play``). A question the bot cannot answer (UserError: say no deal fits
the view) is played by the seat's own policy and counted (``fallbacks``). The upcard
auction of four players (knock) only: the driver writes no ladder trump, n-ask or dummy
into its views.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from kernels.cards import codes as K
from kernels.cards.rules import legal_mask_natural, next_active
from kernels.deal.record import new_instructions
from kernels.drivers.forced import hear_play, new_point, set_own_play, start_point
from kernels.slots import PT, TALLY, M, R

from ...compute.engine import GameLoop, Match, games_per_set
from ...errors import UserError
from ...game.heard import Heard, heard_text
from ...game.notation import SEATS, format_card, format_hand, parse_card
from ...game.variants import UPCARD, Rules
from ...stats import mean_interval, wilson
from ...strategy.seats import seat_policies

Ask = Callable[[dict], dict]  # a view -> an answer with "action" (advise's)


@dataclass
class AdvisedGame:
    """One game's outcome: the unit that won (0: N/S, 1: E/W), the score of each unit, the
    advised side's unit (``a_unit``, where side A sat), each hand's net points to side A
    (its points less the other side's; 0 for a redeal), and the questions asked."""

    winner: int
    scores: tuple
    a_unit: int
    nets: list = field(default_factory=list)
    asked: int = 0
    fallbacks: int = 0  # questions ``ask`` could not answer: the seat's own policy chose

    def to_dict(self) -> dict:
        """The game as a JSON-ready dict."""
        return {"winner": self.winner, "scores": list(self.scores), "a_unit": self.a_unit,
                "nets": self.nets, "asked": self.asked, "fallbacks": self.fallbacks}


def check_rules(rules: Rules) -> None:
    """UserError unless the driver can write the views of ``rules``' hands (an upcard
    auction of two partnerships)."""
    if rules.auction != UPCARD or not rules.partnership:
        raise UserError(f"advised play (a question a card) covers the upcard auction of four "
                        f"players (knock), not {rules.variant}")


def play_advised_game(rules: Rules, match: Match, ask: Ask | None, seed: int, game: int,
                      discards: bool = False) -> AdvisedGame:
    """Game ``game`` of ``seed`` as ``play_games`` deals and seats it (``match``: side A's and
    B's policy rows; A at N/S in even games, at E/W in odd ones, on the same deals): side A's
    cards by ``ask`` (a view -> an answer; None: by A's own policies), with ``discards`` its
    dealer's discard too. Returns the :class:`AdvisedGame`."""
    check_rules(rules)
    deal_set, a_unit = divmod(game, games_per_set(rules))
    side_of = [0 if (s & 1) == a_unit else 1 for s in range(4)]
    loop = GameLoop(rules, np.stack([match.policies[side_of[s]] for s in range(4)]),
                    np.stack([match.params[side_of[s]] for s in range(4)]))
    advised = 0 if ask is None else sum(1 << s for s in range(4) if side_of[s] == 0)
    tally = np.zeros((2, GameLoop.N_CODES, TALLY.LEN), dtype=np.int64)
    out = AdvisedGame(-1, (), a_unit)
    dealer = deal_set % rules.players
    for h in range(GameLoop.MAX_HANDS):
        index = deal_set * GameLoop.MAX_HANDS + h
        hand = AdvisedHand(loop, seed, index, index * 3 + a_unit, dealer)
        rec = hand.play(advised, ask, discards)
        out.asked += hand.asked
        out.fallbacks += hand.fallbacks
        dealer = (dealer + 1) % rules.players
        if rec[R.STATUS] != K.ST_PLAYED:
            out.nets.append(0)
            continue
        out.nets.append(int(rec[R.POINTS + a_unit] - rec[R.POINTS + 1 - a_unit]))
        out.winner = loop.count(rec, side_of[int(rec[R.DECLARER])], tally)
        if out.winner >= 0:
            break
    out.scores = (int(loop.scores[0]), int(loop.scores[1]))
    return out


class AdvisedHand:
    """One dealt hand of a game (``loop``: the game's engine; hand ``index`` of ``seed`` on
    policy stream ``stream``, dealt by ``dealer``), run again with each advised card
    forced."""

    def __init__(self, loop: GameLoop, seed: int, index: int, stream: int, dealer: int):
        self.loop, self.seed, self.stream = loop, seed, stream
        self.hm0, self.rec0 = loop.deal(seed, index, dealer)
        self.plays: list[tuple[int, int]] = []  # (seat, natural card) forced, in play order
        self.discard = (-1, -1)  # (the dealer, its discard) forced
        self.asked = self.fallbacks = 0

    def run(self) -> tuple[np.ndarray, np.ndarray]:
        """The hand played by the engine with the plays and the discard forced: ``(hm,
        rec)``."""
        row = np.empty(PT.LEN, dtype=np.int64)
        new_point(row, self.rec0[R.DEALER], self.rec0[R.UPCARD], self.discard[0], 0)
        set_own_play(row, -1, self.discard[1], -1, 0, -1)
        for seat, card in self.plays:
            hear_play(row, seat, card)
        hm, rec, ins = self.hm0.copy(), self.rec0.copy(), new_instructions()
        start_point(hm, rec, ins, self.hm0, row)
        self.loop.play(self.seed, self.stream, hm, rec, ins)
        return hm, rec

    def play(self, advised: int, ask: Ask | None, discards: bool) -> np.ndarray:
        """Play the hand, the seats of the 4-bit mask ``advised`` asking ``ask`` for each
        card (and, with ``discards``, the dealer's discard). Returns the final record."""
        hm, rec = self.run()
        if discards and self._ask_discard(advised, ask, hm, rec):
            hm, rec = self.run()
        while rec[R.STATUS] == K.ST_PLAYED:
            played = plays_of(rec, hm)
            turn = next((k for k in range(len(self.plays), len(played))
                         if advised >> played[k][0] & 1), None)
            if turn is None:
                break
            self.plays = played[:turn]
            seat, own = played[turn]
            self.plays.append((seat, self._card(ask, hm, rec, seat, own)))
            hm, rec = self.run()
        if rec[R.ERROR] != K.E_NONE:
            raise RuntimeError(f"the engine refused the advised plays: error {rec[R.ERROR]}")
        return rec

    def _card(self, ask: Ask, hm, rec, seat: int, own: int) -> int:
        """The card ``seat`` plays now: its only legal card, or the one ``ask`` answers (its
        policy's card ``own`` where ``ask`` raises UserError: no deal fits the view)."""
        rules = self.loop.rules
        held, legal = legal_cards(rules, hm, rec, seat, self.plays)
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        self.asked += 1
        try:
            answer = ask(seat_view(rules, rec, seat, held, self.plays, active_count(hm)))
        except UserError:
            self.fallbacks += 1
            return own
        return _card_of(answer, "play", rules)

    def _ask_discard(self, advised: int, ask: Ask, hm, rec) -> bool:
        """Ask an advised dealer who took the upcard for its discard; True when asked."""
        dealer = int(rec[R.DEALER])
        if not advised >> dealer & 1 or rec[R.DEALER_DISCARD] < 0 or \
                rec[R.STATUS] != K.ST_PLAYED or not hm[M.PLAY + dealer]:
            return False
        rules = self.loop.rules
        six = int(hm[M.PLAY + dealer]) | 1 << int(rec[R.DEALER_DISCARD])
        self.asked += 1
        view = seat_view(rules, rec, dealer, six, [], 0, at_discard=True)
        try:
            self.discard = (dealer, _card_of(ask(view), "discard", rules))
        except UserError:
            self.fallbacks += 1
            return False
        return True


def _card_of(answer: dict, verb: str, rules: Rules) -> int:
    """The card of an answer's action (``play JC``, ``discard 9H``)."""
    action = str(answer.get("action", ""))
    if not action.startswith(verb + " "):
        raise UserError(f"the answer's action {action!r} is not '{verb} CARD' "
                        f"({answer.get('error', '')})")
    return parse_card(action[len(verb) + 1:], rules)


def plays_of(rec: np.ndarray, hm: np.ndarray) -> list[tuple[int, int]]:
    """The ``(seat, natural card)`` plays of a played record, in play order."""
    active = sum(1 << s for s in range(4) if hm[M.PLAY + s])
    out = []
    for t in range(12):
        seat = int(rec[R.TRICK_LEADER + t])
        for pos in range(active.bit_count()):  # three cards a trick when three seats play
            card = int(rec[R.PLAYS + 4 * t + pos])
            if card < 0 or seat < 0:
                return out
            out.append((seat, card))
            seat = int(next_active(seat, active))
    return out


def legal_cards(rules: Rules, hm: np.ndarray, rec: np.ndarray, seat: int,
                plays: list) -> tuple[int, int]:
    """``(held, legal)``: the natural masks of the cards ``seat`` holds after ``plays`` (the
    hand's first plays, :func:`plays_of`) and of those it may play next."""
    held = held_now(hm, seat, plays)
    trick = len(plays) % active_count(hm)
    led = plays[-trick][1] if trick else -1
    return held, int(legal_mask_natural(np.uint64(held), led, rec[R.TRUMP], rules.arrays))


def card_choices(rules: Rules, hm: np.ndarray, rec: np.ndarray) -> int:
    """The card decisions of a played hand: its plays made from at least two legal cards."""
    plays = plays_of(rec, hm)
    choices = 0
    for k, (seat, _) in enumerate(plays):
        _, legal = legal_cards(rules, hm, rec, seat, plays[:k])
        choices += legal & (legal - 1) != 0
    return choices


def active_count(hm: np.ndarray) -> int:
    """The seats that play the hand (3 when a maker went alone)."""
    return sum(1 for s in range(4) if hm[M.PLAY + s])


def held_now(hm: np.ndarray, seat: int, plays: list) -> int:
    """The cards ``seat`` holds after ``plays`` (a natural mask)."""
    held = int(hm[M.PLAY + seat])
    for s, card in plays:
        if s == seat:
            held &= ~(1 << card)
    return held


def seat_view(rules: Rules, rec: np.ndarray, seat: int, held: int, plays: list,
              active: int, at_discard: bool = False) -> dict:
    """What ``seat`` knows at its turn, as :func:`analyzer.questions.advise.bot_view.advise` reads
    it: the rules, the dealer, the upcard, every call heard, the cards ``plays`` (tricks of
    ``active`` cards) and its own discard as the dealer; ``held`` the cards it holds now
    (``at_discard``: the dealer's six before its discard, no play yet)."""
    n = int(rec[R.NCALLS])
    heard = Heard(tuple(int(s) for s in rec[R.CALL_SEAT:R.CALL_SEAT + n]),
                  tuple(int(c) for c in rec[R.CALL:R.CALL + n]), int(rec[R.ALONE_SEATS]))
    view = {"variant": rules.variant, "rules": rules.options, "seat": SEATS[seat],
            "dealer": SEATS[int(rec[R.DEALER])], "hand": format_hand(held),
            "auction": heard_text(heard, rules)}
    if rules.has_upcard:
        view["upcard"] = format_card(int(rec[R.UPCARD]))
    if plays:
        tricks = [plays[i:i + active] for i in range(0, len(plays), active)]
        view["played"] = "; ".join(", ".join(f"{SEATS[s]} {format_card(c)}" for s, c in trick)
                                   for trick in tricks)
    if not at_discard and seat == rec[R.DEALER] and rec[R.DEALER_DISCARD] >= 0:
        view["discarded"] = format_card(int(rec[R.DEALER_DISCARD]))
    return view


def default_match(rules: Rules, strategy: str = "analyzer", play: str = "heuristic",
                  vs_play: str = "heuristic") -> Match:
    """Side A and side B both calling by ``strategy``, playing by ``play`` and ``vs_play``
    (A's play is what its seats do where ``ask`` does not choose: none of its cards when
    asked for every one)."""
    pa, ra = seat_policies(strategy, play, rules=rules)
    pb, rb = seat_policies(strategy, vs_play, rules=rules)
    return Match(np.stack([pa[0], pb[0]]), np.stack([ra[0], rb[0]]))


def match_summary(games: list[AdvisedGame]) -> dict:
    """A match's figures from its games (whole duplicate sets: games ``2k`` and ``2k + 1``
    share their deals, side A sitting N/S then E/W): ``games``, A's ``wins`` and
    ``win_rate`` with its Wilson 95% interval (``win_low``, ``win_high``) and the duplicate
    interval (``set_low``, ``set_high``: the mean of each set's wins, ± 1.96 standard
    errors), the points per hand of each side (``points_a``, ``points_b``), and A's
    duplicate edge a hand (``edge``, ``edge_low``, ``edge_high``): over each deal both games
    of a set played, the mean of A's net points holding either side's cards, halved;
    ``hands``, ``asked``, ``fallbacks``."""
    wins = [int(g.winner == g.a_unit) for g in games]
    p, low, high = wilson(sum(wins), len(games))
    sets = [(wins[i] + wins[i + 1]) / 2 for i in range(0, len(games) - 1, 2)]
    pairs = [(a.nets[h] + b.nets[h]) / 2 for a, b in zip(games[::2], games[1::2], strict=False)
             for h in range(min(len(a.nets), len(b.nets)))]
    hands = sum(len(g.nets) for g in games)
    points_a = sum(g.scores[g.a_unit] for g in games)
    points_b = sum(g.scores[1 - g.a_unit] for g in games)
    _, set_low, set_high = mean_interval(sum(sets), sum(x * x for x in sets), len(sets))
    edge, edge_low, edge_high = mean_interval(sum(pairs), sum(x * x for x in pairs),
                                              len(pairs))
    return {"games": len(games), "wins": sum(wins), "win_rate": p, "win_low": low,
            "win_high": high, "set_low": set_low, "set_high": set_high, "hands": hands,
            "points_a": points_a / hands, "points_b": points_b / hands, "edge": edge,
            "edge_low": edge_low, "edge_high": edge_high, "paired_hands": len(pairs),
            "asked": sum(g.asked for g in games), "fallbacks": sum(g.fallbacks for g in games)}
