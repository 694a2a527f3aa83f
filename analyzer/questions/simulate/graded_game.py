"""A game played against the analyzer, hand after hand to its end, every decision of the
player graded at the score (issue 54's "Play a game").

Hand ``i`` of the game is hand ``i`` of the game's seed dealt by the first dealer's ``i``-th
successor (the deal passes after a redeal too), as ``euchre play --game`` deals a game
(``simulate.play.play_game``): the same seed, seat and actions give the same game. Each hand
is a :class:`~.graded_hand.GradedHand` at the score before it, so the bots bid to the score
and every grade is in the chance of winning the game (the match-equity table). Between two
hands the player's one option is :data:`NEXT` (the page shows the hand's review first). Only
the hand in play is kept whole; a finished hand leaves one short row (its points and the
score after it) and its grades, for the game's summary."""

from __future__ import annotations

from dataclasses import dataclass, field

from kernels.slots import R

from ...errors import UserError
from ...game.game_score import checked_score, score_dict, score_rules_of, unit_of, units_of
from ...game.notation import SEATS
from ...game.variants import Rules
from ..equity.build import equity_table
from .graded_hand import Decision, GradedHand, summary
from .play import MAX_GAME_HANDS

NEXT = "next hand"  # the player's option between two hands


@dataclass
class GradedGame:
    """A game of ``rules`` from ``seed`` (the first hand dealt by ``dealer``), the player at
    ``seat``, from ``start`` (the score per unit; () 0 each): :meth:`start` deals the first
    hand and runs it to the player's first decision, :meth:`act` makes one (a label of
    ``decision.options``, :data:`NEXT` between hands)."""

    rules: Rules
    seat: int
    seed: int
    dealer: int
    start_score: tuple = ()
    deals: int | None = None  # a grade's deals (None: the hand's default)
    score: tuple = ()  # now: after the hands finished
    finished: list = field(default_factory=list)  # a row per finished hand
    grades: list = field(default_factory=list)  # the grades of the finished hands' decisions
    winner: int = -1  # the unit that won (-1: the game goes on)

    def start(self) -> GradedGame:
        """Deal the first hand and run it to the player's first decision."""
        zero = (0,) * units_of(self.rules)
        self.score = checked_score(self.start_score or zero, self.rules)
        self._deal()
        return self

    @property
    def done(self) -> bool:
        """Whether the game is over (won, or past ``MAX_GAME_HANDS`` hands)."""
        return self.winner >= 0 or len(self.finished) >= MAX_GAME_HANDS

    @property
    def number(self) -> int:
        """The hand in play's number in the game (1 for the first)."""
        return self.hand.index + 1

    @property
    def decision(self) -> Decision | None:
        """What the player decides now: the hand's decision, :data:`NEXT` between hands,
        None once the game is over."""
        if self.done:
            return None
        if self.hand.done:
            return Decision("next", [NEXT], [], None)
        return self.hand.decision

    def check(self, action: str) -> str:
        """``action`` as the option it names; UserError when the game is over or it is not
        one of the options."""
        if self.done:
            raise UserError("the game is over: deal another")
        if self.hand.done:
            text = " ".join(str(action).split())
            if text != NEXT:
                raise UserError(f"the hand is over: the one option is {NEXT!r}")
            return text
        return self.hand.check(action)

    def act(self, action: str) -> Decision | None:
        """Make ``action``: a decision of the hand in play (graded; returned), or
        :data:`NEXT` (the next hand dealt and run to the player's first decision; None)."""
        self.check(action)
        if self.hand.done:
            self._deal()
            return None
        made = self.hand.act(action)
        if self.hand.done:
            self._finish_hand()
        return made

    def _deal(self) -> None:
        """Deal the game's next hand at the score and run it to the player's first decision
        (a hand over before it, a redeal called by a bot, is finished at once)."""
        index = len(self.finished)
        self.hand = GradedHand(self.rules, self.seat, self.seed,
                               (self.dealer + index) % self.rules.players, index,
                               self.deals, score=self.score).start()
        if self.hand.done:
            self._finish_hand()

    def _finish_hand(self) -> None:
        """Add the finished hand's points to the score, keep its row and grades, and see
        whether the game is won."""
        hand, units = self.hand, units_of(self.rules)
        points = [int(p) for p in hand.rec[R.POINTS:R.POINTS + units]]
        self.score = tuple(s + p for s, p in zip(self.score, points, strict=True))
        grades = [d.grade for d in hand.decisions if d.action]
        self.grades.extend(grades)
        result = hand.points()
        self.finished.append({"hand": hand.index + 1, "dealer": SEATS[hand.dealer],
                              "status": result["status"], "contract": result.get("contract"),
                              "points": score_dict(points), "score": score_dict(self.score),
                              "summary": summary(grades)})
        self.winner = int(score_rules_of(self.rules).winner(self.score))

    def win_chance(self) -> float | None:
        """The player's chance of winning the game from the score now, the next hand dealt by
        the one after the hand in play's dealer (None once the game is over)."""
        if self.done:
            return None
        dealer = (self.hand.dealer + 1) % self.rules.players if self.hand.done else \
            self.hand.dealer
        chances = equity_table(self.rules).win_chance(self.score, dealer)
        return round(float(chances[unit_of(self.rules, self.seat)]), 4)

    def table(self) -> dict:
        """The hand in play's table (``GradedHand.table``) with ``done`` the game's and
        ``hand_done`` the hand's, the pending decision (:data:`NEXT` between hands) and
        ``game``: the target, the score now, the hand's number, the player's chance of
        winning from here, a row per finished hand, the summary of every decision so far
        and, at the end, the winner."""
        out = self.hand.table()
        out.update(done=self.done, hand_done=self.hand.done)
        pending = self.decision
        out.pop("decision", None)
        if pending is not None:
            out["decision"] = pending.to_dict()
        mine = [d.grade for d in self.hand.decisions if d.action] if not self.hand.done else []
        game = {"target": self.rules.target, "score": score_dict(self.score),
                "hand": self.number, "win_chance": self.win_chance(),
                "hands": self.finished, "summary": summary(self.grades + mine),
                "winner": None}
        if self.winner >= 0:
            game["winner"] = list(score_dict(self.score))[self.winner]
        out["game"] = game
        return out
