"""A hand played against the analyzer, every decision of the player graded (issue 54).

One seat is the player's; the others bid by the analyzer strategy and play their cards by
``BOT_PLAY``. The hand is the engine's from its deal (``GameLoop.deal``:
the same seed, the same cards) and is run again after each of the player's decisions: the
calls and cards so far forced (``kernels.drivers.forced``, the player the point's asker and
its own choices the ``IN.F_*`` slots), the bots deciding the rest, the run stopping at the
player's next decision (``STOP_IN_PLAY``: its kind and the legal choices). One engine run a
decision, as in ``advise_games``; the bots' decisions are their policies', so the same seed
and the same actions give the same hand.

The player's options are the odds question's at that point (``odds.options.point_options``,
labelled by ``option_label``: ``order up S``, ``pick it up S (discard 9C)``, ``bid 4 H``,
``6-ask H (give 9C)``, ``play JC``, ``keep ...``), and each decision is graded by the odds
question at the seat's view (:func:`grade_of`): the best option's expected net points minus
the chosen one's, over ``GRADE_DEALS`` deals that fit what the seat has seen (every layout
late in the hand; every hand played out by the default play model, the analyzer's card
player), with the paired 95% interval of that difference; at a game's score (``score``) the
chance of winning the game instead. Verdicts: :data:`THRESHOLDS` (at a score
:data:`WIN_THRESHOLDS`); a cost whose interval reaches 0 is never worse than "good".

Not graded (``grade`` None, with ``ungraded`` saying why): a decision the odds question
refuses (none is known: a swap for the ghost hand and an n-ask's exchange are held)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from kernels.cards import codes as K
from kernels.deal.record import new_instructions
from kernels.drivers.forced import force_choices, hear_call, hear_play, new_point, start_point
from kernels.slots import IN, OPT, PT, M, R

from ...compute.effort import Effort
from ...compute.engine import GameLoop
from ...compute.point import KINDS, PointState, option_row, playing_seats, shown_out
from ...errors import UserError
from ...game.decision_point import DecisionPoint
from ...game.game_score import score_dict
from ...game.heard import Heard
from ...game.notation import SEATS, SUITS, format_card, format_hand
from ...game.record_points import exchanged, put_away
from ...game.records import Record, call_text, contract_text, result_of, side_names
from ...game.variants import DUMMY, LADDER, Rules
from ...strategy.defaults import DEFAULT_METHOD, DEFAULT_STRATEGY
from ...strategy.seats import seat_policies
from ..advise.advise_games import legal_cards, plays_of
from ..equity.to_score import tell_score
from ..odds.answer import odds_at
from ..odds.options import CallOption, option_label, point_options
from ..odds.play_model import PlayModel

BOT_PLAY = "analyzer"  # how the bots play their cards (the card player): the one place to change it
GRADE_DEALS = 200  # deals of a grade's odds question (late in the hand: every layout)
# the verdict of a cost (net points a hand): the first whose bound the cost is below
THRESHOLDS = (("good", 0.1), ("inaccuracy", 0.3), ("mistake", 0.8))
# at a score, of a cost in the chance of winning the game: the bounds above times what a net
# point is worth at 0-0 in knock (about 7 points of percentage: docs/play.md)
WIN_THRESHOLDS = (("good", 0.007), ("inaccuracy", 0.02), ("mistake", 0.05))
WORST = "blunder"
VERDICTS = ("best", "good", "inaccuracy", "mistake", WORST)
LISTED = 12  # options an error line lists (a double deck's bids are over 50)


def verdict_of(cost: float, low: float, thresholds: tuple = THRESHOLDS) -> str:
    """The verdict of a decision that cost ``cost`` net points a hand (``low``: the low end
    of its 95% interval): best at no cost, then by ``thresholds`` (:data:`THRESHOLDS`; a
    cost in the chance of winning the game, :data:`WIN_THRESHOLDS`); a cost whose interval
    reaches 0 is within the noise and never worse than good."""
    if cost <= 0:
        return "best"
    if low <= 0:
        return "good"
    return next((name for name, bound in thresholds if cost < bound), WORST)


@dataclass
class Decision:
    """One of the player's decisions: its ``kind`` (call, discard, defend, keep, card), the
    ``options`` (labels, in the order offered), the option rows behind them, the seat's
    view (``point``, None when it cannot be graded: ``ungraded`` says why), and once made the
    ``action`` and its ``grade``."""

    kind: str
    options: list[str]
    choices: list[CallOption]
    point: DecisionPoint | None
    ungraded: str = ""
    trick: int = 0  # the trick it is made in (0: before the play)
    state: PointState | None = None  # a card's: the engine's, given to the odds question
    action: str = ""
    grade: dict | None = None

    def to_dict(self) -> dict:
        """The decision as the API and the review show it."""
        out = {"kind": self.kind, "options": self.options, "trick": self.trick or None}
        if self.action:
            out.update(action=self.action, grade=self.grade)
            if self.grade is None:
                out["ungraded"] = self.ungraded
        return out


def bots(rules: Rules, score: tuple = (), dealer: int = 0) -> GameLoop:
    """The engine of a played hand: every seat bidding by the analyzer strategy and playing
    by ``BOT_PLAY`` (the player's seat decides nothing by them: its runs stop at each of its
    decisions); with a game's ``score`` (per unit) before the hand ``dealer`` deals, the
    seats that play to the score told it."""
    policies, params = seat_policies(DEFAULT_STRATEGY, BOT_PLAY, rules=rules)
    if score:
        params = params.copy()
        tell_score(rules, params, score, dealer)
    return GameLoop(rules, policies, params)


@dataclass
class GradedHand:
    """A hand of ``rules`` dealt from ``seed`` (``dealer`` deals; hand ``index`` of the
    seed), the player at ``seat``, the game's ``score`` before it (per unit; () none: the
    grades in net points a hand, else in the chance of winning the game): :meth:`start` runs
    it to the player's first decision, :meth:`act` makes one (a label of ``decision.options``)
    and runs it to the next."""

    rules: Rules
    seat: int
    seed: int
    dealer: int
    index: int = 0
    deals: int | None = None  # a grade's deals (None: GRADE_DEALS)
    score: tuple = ()  # the game's score before the hand, per unit (() none)
    calls: list = field(default_factory=list)  # (seat, call code), every call so far
    plays: list = field(default_factory=list)  # (seat, natural card), in play order
    own: list = field(default_factory=lambda: list(option_row()))  # its choices (slots OPT)
    decisions: list = field(default_factory=list)  # Decision, made and pending
    done: bool = False
    alone: int = 0  # the maker (4-bit mask) who went alone, once the engine said so
    named: int = -1  # the trump a ladder auction's winner named, once the engine said so

    def start(self) -> GradedHand:
        """Deal and run the hand to the player's first decision (or its end)."""
        self.loop = bots(self.rules, self.score, self.dealer)
        self.hm0, self.rec0 = self.loop.deal(self.seed, self.index, self.dealer)
        self._advance()
        return self

    @property
    def decision(self) -> Decision | None:
        """The decision the player is to make (None once the hand is over)."""
        return None if self.done else self.decisions[-1]

    def act(self, action: str) -> Decision:
        """Make ``action`` (a label of the pending decision's options), grade it and run the
        hand to the player's next decision. Returns the decision made; UserError when the
        hand is over or the action is not one of the options."""
        pending, text = self.decision, self.check(action)
        chosen = pending.choices[pending.options.index(text)]
        pending.grade = self.grade(pending, text)
        pending.action = text
        self._apply(chosen)
        self._advance()
        return pending

    def check(self, action: str) -> str:
        """``action`` as the pending decision's option it names (spaces tidied); UserError
        when the hand is over or it is not one of the options."""
        pending = self.decision
        if pending is None:
            raise UserError("the hand is over: deal another")
        text = " ".join(str(action).split())
        if text not in pending.options:
            listed = pending.options[:LISTED] + (["..."] if len(pending.options) > LISTED
                                                 else [])
            raise UserError(f"{_shown(text)} is not one of the options: {', '.join(listed)}")
        return text

    def grade(self, pending: Decision, action: str) -> dict | None:
        """The grade of ``action`` at ``pending`` (see :func:`grade_of`); None when it cannot
        be graded."""
        if len(pending.options) == 1:
            return {"verdict": "best", "cost": 0.0, "best": action, "low": 0.0, "high": 0.0,
                    "deals": 0, "unit": "win" if self.score else "points", "points": 0.0}
        if pending.point is None:
            return None
        try:
            return grade_of(pending.point, action, self.deals or GRADE_DEALS, self.seed,
                            pending.state)
        except UserError as e:
            pending.ungraded = f"not graded: {e}"
            return None

    def _apply(self, o: CallOption) -> None:
        """Force the player's option ``o`` into the next runs."""
        if o.card >= 0:
            self.plays.append((self.seat, o.card))
            return
        if o.call >= 0:
            self.calls.append((self.seat, o.call))
        row = replace(o, call=-1, card=-1).row  # its own later choices, kept for every run
        self.own = [mine if new < 0 or (k == OPT.DROP and new == 0) else new
                    for k, (mine, new) in enumerate(zip(self.own, row, strict=True))]

    def run(self, stop: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """The hand run by the engine with everything decided so far forced, to the player's
        next decision (``stop``) or the end: ``(hm, rec)``."""
        row = np.empty(PT.LEN, dtype=np.int64)
        new_point(row, self.rec0[R.DEALER], self.rec0[R.UPCARD], self.seat, 0)
        alone = self.alone
        for seat, call in self.calls:
            hear_call(row, seat, call, alone >> seat & 1)
        for seat, card in self.plays:
            hear_play(row, seat, card)
        hm, rec, ins = self.hm0.copy(), self.rec0.copy(), new_instructions()
        start_point(hm, rec, ins, self.hm0, row)
        ins[IN.STOP] = K.STOP_IN_PLAY if stop else 0
        ins[IN.NAMED] = self.named
        force_choices(ins, np.array(self.own, dtype=np.int64))
        self.loop.play(self.seed, self.index, hm, rec, ins)
        return hm, rec

    def _advance(self) -> None:
        """Run the hand to the player's next decision (appended to ``decisions``) or its
        end, keeping what the bots decided on the way. A run that stops stops at a decision
        before the play; the cards are found by playing the hand out (the bots' and the
        player's own policy's) and taking the plays before the player's next card."""
        hm, rec = self.run()
        if int(rec[R.ERROR]) == K.E_NO_DECISION:  # none before the play: play it out
            hm, rec = self.run(stop=False)
        if int(rec[R.ERROR]) not in (K.E_NONE, K.E_STOPPED):
            raise RuntimeError(f"the engine refused the hand's decisions: error "
                               f"{int(rec[R.ERROR])}")
        self.hm, self.rec = hm, rec
        n = int(rec[R.NCALLS])
        self.calls = [(int(rec[R.CALL_SEAT + j]), int(rec[R.CALL + j])) for j in range(n)]
        if rec[R.DECLARER] >= 0:
            self.alone = int(rec[R.ALONE_SEATS]) & (1 << int(rec[R.DECLARER]))
            if self.rules.auction == LADDER and rec[R.TRUMP] >= 0:
                self.named = int(rec[R.TRUMP])
        if int(rec[R.ERROR]) == K.E_STOPPED:
            state = PointState(KINDS[int(rec[R.STOP_KIND])], int(np.uint64(rec[R.ALLOWED])))
            self.decisions.append(self._decision(state))
            return
        played = plays_of(rec, hm) if rec[R.STATUS] == K.ST_PLAYED else []
        turn = next((k for k in range(len(self.plays), len(played))
                     if played[k][0] == self.seat), None)
        if turn is None:
            self.plays, self.done = played, True
            return
        self.plays = played[:turn]
        self.rec = rec = self._before(turn)
        _, legal = legal_cards(self.rules, hm, rec, self.seat, self.plays)
        active = playing_seats(self.rules, rec)
        state = PointState("card", legal, active.bit_count(), int(rec[R.TRUMP]),
                           shown_out(self.rules, rec, active))
        self.decisions.append(self._decision(state))

    def _before(self, k: int) -> np.ndarray:
        """A copy of the run's record without its plays from play ``k`` on (nor the tricks
        they complete, the tricks taken or the points): what has happened so far."""
        rec = self.rec.copy()
        n = playing_seats(self.rules, rec).bit_count()
        for t in range(self.rules.hand_size):
            for pos in range(4):
                if t * n + pos >= k or pos >= n:
                    rec[R.PLAYS + 4 * t + pos] = -1
            if (t + 1) * n > k:
                rec[R.TRICK_WINNER + t] = -1
        rec[R.TRICKS:R.TRICKS + 4] = 0
        rec[R.POINTS:R.POINTS + 4] = 0
        return rec

    def _decision(self, state: PointState) -> Decision:
        """The player's decision at the run's stop, with its options and the seat's view."""
        view = self.view(state.kind)
        labelled = {}  # the double deck's two copies of a card are one option, one label
        for o in point_options(view, state):
            labelled.setdefault(option_label(o.name, o.trump_text, o.detail), o)
        labels, choices = list(labelled), list(labelled.values())
        trick = len(self.plays) // max(self.playing, 1) + 1 if state.kind == "card" else 0
        return Decision(state.kind, labels, choices, view, "", trick,
                        state=state if state.kind == "card" else None)

    @property
    def dealt(self) -> int:
        """The player's cards as dealt (natural mask)."""
        return int(self.hm0[M.DEALT + self.seat])

    @property
    def playing(self) -> int:
        """How many seats play the hand's tricks (0 before the play)."""
        return sum(1 for s in range(4) if self.hm[M.PLAY + s]) if self.rec[R.DECLARER] >= 0 \
            else 0

    def heard(self) -> Heard:
        """The calls heard so far, the maker who went alone marked."""
        heard = Heard()
        for seat, call in self.calls:
            heard = heard.then(seat, call, bool(self.alone >> seat & 1)
                               and self.rules.auction != LADDER)
        return heard

    def held(self) -> int:
        """The cards the player holds now (natural mask): in the play its hand at the first
        lead less the cards it played; before it, as dealt (a dealer who took the upcard: with
        it; a player who swapped: the ghost hand)."""
        hm, rec, me = self.hm, self.rec, self.seat
        if self.playing:
            mine = sum(1 << c for s, c in self.plays if s == me)
            return int(hm[M.PLAY + me]) & ~mine
        if rec[R.SWAP_SEAT] == me:
            return int(self.hm0[M.DEALT + 3])
        if me == rec[R.DEALER] and rec[R.STOP_KIND] == K.STOP_DISCARD:
            return self.dealt | 1 << int(rec[R.UPCARD])
        return self.dealt

    def view(self, kind: str) -> DecisionPoint:
        """What the player knows at its decision of ``kind``, as the odds question takes it."""
        rules, rec, hm = self.rules, self.rec, self.hm
        heard = self.heard()
        if kind != "card":
            dummy = int(hm[M.DEALT + 3]) if kind == "keep" else 0
            hand, away = self.held(), 0
            if self.seat == rec[R.DEALER] and kind != "discard" and rec[R.DEALER_DISCARD] >= 0:
                away = 1 << int(rec[R.DEALER_DISCARD])  # the dealer took the upcard
                hand = (self.dealt | 1 << int(rec[R.UPCARD])) & ~away
            return DecisionPoint(rules, int(rec[R.DEALER]), self.seat, hand,
                                 int(rec[R.UPCARD]), heard, discarded=away, dummy=dummy,
                                 score=self.score,
                                 swapped=exchanged(Record(rules, hm, rec), self.seat)[1])
        record = Record(rules, hm, rec)
        took_dummy = rules.seat_w == DUMMY and int(hm[M.DUMMY_DISCARD]) != 0
        dummy = int(hm[M.DEALT + 3]) if took_dummy and self.seat == rec[R.DECLARER] else 0
        return DecisionPoint(rules, int(rec[R.DEALER]), self.seat, self.held(),
                             int(rec[R.UPCARD]), heard, tuple(self.plays), self.named,
                             put_away(record, self.seat, took_dummy), (), dummy, self.score,
                             *exchanged(record, self.seat))

    def points(self) -> dict:
        """The hand's result once it is over: status, contract, tricks and points by side."""
        out = result_of(Record(self.rules, self.hm, self.rec))
        if out["status"] == "played":
            out["contract"] = contract_text(Record(self.rules, self.hm, self.rec))
        return out

    def table(self) -> dict:
        """The table as the player's seat sees it (see docs/play.md): the rules, the seats,
        the dealer, its cards, the upcard, the calls, the contract, the tricks, the pending
        decision, every decision made with its grade, and at the end the points and every
        hand as dealt."""
        rules, rec = self.rules, self.rec
        out = {"variant": rules.variant, "rules": rules.options, "seat": SEATS[self.seat],
               "seed": self.seed, "dealer": SEATS[int(rec[R.DEALER])],
               "seats": [SEATS[s] for s in range(rules.players)], "sides": side_names(rules),
               "hand": format_hand(self.held()).split(), "done": self.done,
               "calls": self.call_texts(), "tricks": self.tricks()}
        if self.score:
            out["score"] = score_dict(self.score)
        if rules.has_upcard:
            out["upcard"] = format_card(int(rec[R.UPCARD]))
        out.update(self.contract())
        mine = [d for d in self.decisions if d.action]
        out["decisions"] = [d.to_dict() for d in mine]
        if self.done:
            out["points"] = self.points()
            out["hands"] = self.dealt_hands()
            out["summary"] = summary([d.grade for d in mine])
        else:
            out["decision"] = self.decision.to_dict()
        return out

    def call_texts(self) -> list[dict]:
        """The calls so far, each ``{"seat", "call"}`` as a record writes it."""
        return [{"seat": SEATS[s], "call": call_text(c, self.rules) +
                 (" alone" if self.alone >> s & 1 and c not in (K.PASS, K.SWAP)
                  and self.rules.auction != LADDER else "")}
                for s, c in self.calls]

    def contract(self) -> dict:
        """Once the auction is over: the declarer, the trump, the contract in words, the
        seats that play and, for the player, its own discard or the card it gave."""
        rec = self.rec
        if rec[R.DECLARER] < 0 or rec[R.TRUMP] < 0:
            return {}
        out = {"declarer": SEATS[int(rec[R.DECLARER])], "trump": SUITS[int(rec[R.TRUMP])],
               "contract": contract_text(Record(self.rules, self.hm, self.rec))}
        if self.playing:
            out["playing"] = [SEATS[s] for s in range(4) if self.hm[M.PLAY + s]]
        if rec[R.DEALER] == self.seat and rec[R.DEALER_DISCARD] >= 0:
            out["discarded"] = format_card(int(rec[R.DEALER_DISCARD]))
        return out

    def tricks(self) -> list[dict]:
        """The tricks so far: each its plays (``{"seat", "card"}``) and, once complete, the
        seat that won it."""
        n = self.playing
        out = []
        for t in range(0, len(self.plays), max(n, 1)):
            plays = self.plays[t:t + n]
            trick = {"plays": [{"seat": SEATS[s], "card": format_card(c)} for s, c in plays]}
            k = t // n
            if len(plays) == n and self.rec[R.TRICK_WINNER + k] >= 0:
                trick["winner"] = SEATS[int(self.rec[R.TRICK_WINNER + k])]
            out.append(trick)
        return out

    def dealt_hands(self) -> dict:
        """Every hand as dealt (shown once the hand is over), seat W by its name in the
        three-player variants (the ghost hand, the dummy)."""
        names = {s: SEATS[s] for s in range(4)}
        if self.rules.seat_w_name:
            names[3] = self.rules.seat_w_name
        return {names[s]: format_hand(int(self.hm0[M.DEALT + s])) for s in range(4)
                if self.hm0[M.DEALT + s]}


def grade_of(point: DecisionPoint, action: str, deals: int = GRADE_DEALS,
             seed: int = 0, state: PointState | None = None) -> dict:
    """The grade of ``action`` (an option's label) at the seat's view ``point``: ``verdict``
    (:func:`verdict_of`), ``cost`` (the best option's value minus the action's, never below
    0), ``low``/``high`` its 95% interval (paired, the same deals), ``best`` (the best
    option's label), ``deals``, ``unit`` and ``points``. The value is the expected net points
    a hand (``unit`` "points"), or at a score (``point.score``) the chance of winning the
    game after the hand by the match-equity table (``unit`` "win", graded by
    :data:`WIN_THRESHOLDS`); ``points`` is the action's net points a hand behind the option
    with the most (never below 0; the cost itself without a score). The odds question at
    ``point`` over ``deals`` deals of ``seed`` (every layout late in the hand; played out by
    the default play model, the analyzer's card player), dealt to fit the calls heard by the
    analyzer strategy or, when none fits, without inference. UserError when the action is
    not among its options (an action of the double deck's card is valued
    as its better copy). ``state``: what is decided there, when the engine said so already
    (a card: the point is then not opened again, which a defender's card could not be where
    a defender may go alone)."""
    effort = Effort(deals, seed=seed, all_details=True)  # the action may be any detail
    try:
        result = odds_at(point, PlayModel(method=DEFAULT_METHOD), effort, play_check=False,
                         state=state)
    except UserError:
        result = odds_at(point, PlayModel(method=DEFAULT_METHOD, infer=False), effort,
                         play_check=False, state=state)
    if result.interrupted:
        raise KeyboardInterrupt
    table = result.details
    labels = [option_label(o.name, o.trump_text, o.detail) for o in result.choices]
    if action not in labels:
        raise UserError(f"{action} is not among the odds question's options")
    at_score = "p_win" in table
    value = table["p_win" if at_score else "ev"]
    # an option of the double deck stands for both copies of its card: the better one
    k = max((i for i, label in enumerate(labels) if label == action),
            key=lambda i: value.iloc[i])
    best = int(value.idxmax())
    cost, low, high = (max(0.0, float(-table[c].iloc[k]))
                       for c in ("vs_best", "vs_best_high", "vs_best_low"))
    if k == best or not math.isfinite(cost):
        cost = low = high = 0.0
    points = max(0.0, float(table["ev"].max() - table["ev"].iloc[k]))
    thresholds, digits = (WIN_THRESHOLDS, 4) if at_score else (THRESHOLDS, 3)
    cost, low, high = (round(x, digits) for x in (cost, low, high))  # judged as shown
    return {"verdict": verdict_of(cost, low, thresholds), "cost": cost, "low": low,
            "high": high, "best": labels[best], "deals": int(result.deals),
            "unit": "win" if at_score else "points",
            "points": round(points if math.isfinite(points) else 0.0, 3)}


def summary(grades: list) -> dict:
    """The decisions of a hand (or a game) by verdict, the net points a hand given away (the
    sum of the grades' ``points``) and, when any was graded at a score, the chance of
    winning the game given away (``win_given_away``: the sum of those costs); ``ungraded``
    counts those without a grade."""
    out = {v: 0 for v in VERDICTS}
    given = win = 0.0
    at_score = False
    for g in grades:
        if g is None:
            out["ungraded"] = out.get("ungraded", 0) + 1
            continue
        out[g["verdict"]] += 1
        given += g["points"]
        if g["unit"] == "win":
            at_score, win = True, win + g["cost"]
    answer = {"by_verdict": out, "points_given_away": round(given, 3)}
    if at_score:
        answer["win_given_away"] = round(win, 4)
    return answer


def _shown(text: str) -> str:
    """An action as an error line quotes it: short."""
    return repr(text if len(text) <= 40 else text[:37] + "...")
