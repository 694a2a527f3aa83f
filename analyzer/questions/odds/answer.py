"""The odds engine: "what are my odds with this hand?", "should I order up?", "should I
overcall 5 after E bid 4?"

A question is a decision point (``analyzer.game.decision_point``): the player's hand, seat, the
dealer, the upcard and the calls heard so far. Every legal call there is played out to the end of
the hand on the same deals (``analyzer.questions.odds.decide``): later calls by the ``others``
strategy, cards by the method. In a ladder auction the answer also holds the trick table: the chance
the player's side takes at least k tricks declaring each trump. ``odds(...)`` is the Python API;
``euchre odds`` prints it.
"""

from __future__ import annotations

import inspect
import math
import time
from dataclasses import dataclass, field, replace

import pandas as pd

from ...compute.effort import Effort
from ...compute.point import BEFORE_PLAY, PointState, state_of
from ...compute.query import MAX_TRIES, exact_chunk, run_query
from ...compute.runner import (
    DEFAULT_CHUNK,
    Course,
    duration_text,
    in_whole_chunks,
    run_chunks,
    using_threads,
)
from ...compute.solver import solves_fast
from ...errors import UserError
from ...game import notation
from ...game.decision_point import (
    DecisionPoint,
    dealer_took_upcard,
    ghost_taken,
    n_asker,
    parse_played,
    played_text,
)
from ...game.game_score import parse_score, score_text
from ...game.heard import heard_text, parse_heard
from ...game.records import call_text
from ...game.variants import DUMMY, LADDER, Rules, make_rules
from ...stats import percent_text
from ...strategy.defaults import BUILT_PLAY, BUILT_STRATEGIES
from ...strategy.seats import bids_by_analyzer, others_policies
from ...strategy.tables import bid_rows
from ..equity.to_score import tell_score
from .decide import (
    Decision,
    against_other_call,
    chunk_counts,
    inferred,
    keep_options,
    keep_tricks,
    option_labels,
    option_table,
    paired,
    played_as,
    prepare,
    trick_table,
    value_counts,
    verdict,
    verdict_sentence,
)
from .given import parse_given
from .odds_request import ODDS_FIELDS, OddsRequest, request
from .play_model import PlayModel
from .race import RunPlan, deal_cost, unclear

EXACT_LIMIT_SECONDS = 30 * 60


@dataclass
class OddsResult:
    """The answer to one question: the rules, the decision point, how it was computed, and the
    tables (pandas DataFrames) of the options and of the trick distribution, with the verdict
    (``best``: the best option against the runner-up)."""

    rules: Rules
    hand: str
    seat: str
    dealer: str
    upcard: str | None
    auction: str
    others: str
    method: str
    seed: int
    exact: bool
    deals: int
    tried: int
    seconds: float
    interrupted: bool
    options: pd.DataFrame
    tricks: pd.DataFrame
    best: dict
    inference: bool = False
    notes: list = field(default_factory=list)
    nodes: int = 0
    choices: list = field(default_factory=list)  # the options (CallOption), in detail order
    tremble: float = 0.0  # the chance, in inference, of a call the others' strategy would not make
    trembled: int = 0  # deals that fit the calls heard only by such a call
    details: pd.DataFrame | None = None  # one row per option: every discard, every card given
    deals_asked: int = 0  # the deals (or layouts) run: ``deals`` are those that fit
    heuristic_play: dict | None = None  # the verdict on the same deals with heuristic card play
    checked_play: dict | None = None  # the verdict on the same deals by the check's method
    uninformed: int = 0  # deals dealt ignoring the calls heard (no try fitted them)
    decision: str = "call"  # what is decided: call, discard, defend, keep or card
    played: str = ""  # the cards played so far (the point's)
    inferred: list = field(default_factory=list)  # what the cards played say of the others
    stopped: str = ""  # a default run: why it stopped where it did
    score: str = ""  # the game's score as the question gave it ("": none)

    @property
    def acceptance(self) -> float:
        """The share of the deals tried that fit the calls heard and the conditions."""
        return self.deals / self.tried if self.tried else math.nan

    @property
    def others_play(self) -> str | None:
        """The card play the later calls' strategy was valued with (its tables and model were
        played out with it), or None for a strategy valued by no play (a point count)."""
        return BUILT_PLAY if self.others in BUILT_STRATEGIES else None

    def to_dict(self) -> dict:
        """A JSON-ready dict (the object ``euchre odds --json`` prints)."""
        def records(df):
            return [{k: (None if isinstance(v, float) and math.isnan(v) else v)
                     for k, v in row.items()} for row in df.to_dict(orient="records")]

        return {"variant": self.rules.variant, "rules": self.rules.options, "hand": self.hand,
                "seat": self.seat, "dealer": self.dealer, "upcard": self.upcard,
                "auction": self.auction, "others": self.others,
                "others_play": self.others_play, "method": self.method,
                "seed": self.seed, "exact": self.exact, "deals": self.deals,
                "deals_tried": self.tried, "inference": self.inference,
                "tremble": self.tremble, "deals_trembled": self.trembled,
                "deals_uninformed": self.uninformed,
                "acceptance": self.acceptance, "seconds": self.seconds,
                "interrupted": self.interrupted, "nodes": self.nodes,
                "options": records(self.options),
                "details": [] if self.details is None else records(self.details),
                "tricks": records(self.tricks),
                "best": self.best, "heuristic_play": self.heuristic_play,
                "checked_play": self.checked_play,
                "decision": self.decision, "played": self.played, "inferred": self.inferred,
                "stopped": self.stopped, "score": self.score or None,
                "notes": self.notes}


def decision_point(rules: Rules, hand, seat: str = "N", dealer: str | None = None,
                   upcard: str | None = None, auction=None, play: dict | None = None
                   ) -> DecisionPoint:
    """The decision point of a question: cards parsed and checked (UserError naming what is
    wrong); the dealer defaults to the seat on the player's right. ``hand`` is what the seat
    holds now; ``play`` the play so far, as text: ``played`` the cards played (``"E JC, S
    9C; ..."``), ``discarded`` the seat's own cards put away, ``named`` the trump a bid's
    winner named, ``dummy`` the cutthroat dummy the seat took, ``received`` the card an
    n-asker was passed, ``swapped`` the hand a player who took the ghost hand gave up; and
    ``score`` the game's score (``"9-6"``, see ``analyzer.game.game_score.parse_score``)."""
    play = play or {}
    played, discarded, named, dummy, score, received, swapped = (
        play.get(k) for k in ("played", "discarded", "named", "dummy", "score", "received",
                              "swapped"))
    reader = notation.CardReader(rules)
    try:
        mask = hand if isinstance(hand, int) else reader.cards(hand)
        up = None if upcard is None else notation.CardReader(rules).card(upcard)
        away = reader.cards(discarded) if discarded else 0
        seen_dummy = reader.cards(dummy) if dummy else 0
        got = notation.CardReader(rules).card(received) if received else -1
        gave_up = notation.CardReader(rules).cards(swapped) if swapped else 0
    except notation.NotationError as e:
        raise UserError(str(e)) from None
    s = notation.parse_seat(seat)
    if s >= rules.players:
        raise UserError(f"{notation.SEATS[s]} does not play in {rules.variant}")
    d = (s - 1) % rules.players if dealer is None else notation.parse_seat(dealer)
    if d >= rules.players:
        raise UserError(f"{notation.SEATS[d]} does not play in {rules.variant}, so it cannot deal")
    if rules.has_upcard and up is None:
        raise UserError(f"{rules.variant} odds need the --upcard")
    if not rules.has_upcard and up is not None:
        raise UserError(f"{rules.variant} has no upcard")
    plays, sizes = parse_played(played or "", rules, reader) if played else ((), [])
    point = DecisionPoint(rules, d, s, mask, -1 if up is None else up,
                          parse_heard(auction or "", rules), plays,
                          -1 if named is None else notation.parse_suit(named), away,
                          tuple(sizes), seen_dummy,
                          () if score is None else parse_score(score, rules, s),
                          0 if got < 0 else 1 << got, gave_up)
    if seen_dummy and (rules.seat_w != DUMMY or seen_dummy.bit_count() != rules.hand_size):
        raise UserError(f"--dummy is the {rules.hand_size} cards of a cutthroat dummy")
    _check_cards(point, sizes)
    return point


def _check_cards(point: DecisionPoint, sizes: list[int]) -> None:
    """UserError when the cards of ``point`` cannot be a hand: the upcard where only the
    dealer who took it can have it, or the seat's cards now, played and put away not a
    hand's worth (one short for the dealer who took the upcard and gave no discard: its
    discard is what is missing, and the error says so)."""
    rules, up = point.rules, point.upcard
    took = up >= 0 and point.seat == point.dealer and dealer_took_upcard(point)
    if up >= 0 and (point.hand | point.discarded) >> up & 1 and not took:
        raise UserError(f"you hold the upcard {notation.format_card(up)}, but only the dealer "
                        f"holds it once it is ordered up")
    upcard_player = [seat for seat, c in point.played if c == up]
    if upcard_player and not dealer_took_upcard(point):
        raise UserError(f"--played: the upcard {notation.format_card(up)} was turned down, so "
                        f"no one holds it")
    if upcard_player and upcard_player[0] != point.dealer:
        raise UserError(f"--played: only the dealer can play the upcard "
                        f"{notation.format_card(up)}")
    _check_received(point)
    _check_swapped(point)
    dealt = point.dealt_hand().bit_count()
    if dealt != rules.hand_size and not point.in_play:
        raise UserError(f"the hand has {point.hand.bit_count()} cards; {rules.variant} hands "
                        f"have {rules.hand_size}")
    if dealt == rules.hand_size - 1 and took and not point.discarded:
        raise UserError(BEFORE_PLAY["discard"])  # the card it put away is what is missing
    if dealt == rules.hand_size + 1 and point.discarded and n_asker(point) == point.seat and \
            not point.received:
        raise UserError("you made an n-ask: give the card your partner passed you "
                        "(--received)")
    if dealt != rules.hand_size:
        now = point.hand.bit_count()
        mine = sum(1 for seat, _ in point.played if seat == point.seat)
        parts = f"the {now} cards you hold" + (f", the {mine} you played" if mine else "") + \
            (f", the {point.discarded.bit_count()} you put away" if point.discarded else "")
        raise UserError(f"{parts} make {dealt} cards as dealt; {rules.variant} hands have "
                        f"{rules.hand_size}")


def _check_received(point: DecisionPoint) -> None:
    """UserError when ``point`` names a card it was passed (``--received``) that it cannot
    have been: only an n-asker is passed one, once the play has begun, and holds it or
    played it."""
    got = point.received
    if not got:
        return
    if n_asker(point) != point.seat:
        raise UserError("--received: only the player who won the bidding with an n-ask is "
                        "passed a card")
    mine = sum(1 << c for seat, c in point.played if seat == point.seat)
    if not (point.hand | mine) & got:
        raise UserError(f"--received: you neither hold nor played "
                        f"{notation.format_card(got.bit_length() - 1)}")


def _check_swapped(point: DecisionPoint) -> None:
    """UserError when the hand ``point`` gave up for the ghost hand (``--swapped``) is missing
    where the player swapped, or given where it did not, or not a hand's worth of other
    cards."""
    swapper, ghost = ghost_taken(point)
    if swapper == point.seat and not point.swapped:
        raise UserError("you swapped for the ghost hand: give the hand you gave up (--swapped)")
    if point.swapped and swapper != point.seat:
        raise UserError("--swapped: only the player who swapped for the ghost hand gave one up")
    if point.swapped and (point.swapped.bit_count() != point.rules.hand_size or
                          point.swapped & ghost):
        raise UserError(f"--swapped: the hand you gave up is {point.rules.hand_size} cards, "
                        f"none of them the ghost hand's")


def _bids(rules: Rules, bid) -> set | None:
    """The call codes ``--bid`` keeps (None: every bid)."""
    if bid is None:
        return None
    if rules.auction != LADDER:
        raise UserError(f"--bid is for bid and ghost; {rules.variant} has no bids")
    text = str(bid).lower()
    names = {call_text(k, rules): k for k in rules.bid_ladder}
    if text not in names:
        hint = " (all the tricks: say ask or moon)" if text == str(rules.hand_size) else ""
        raise UserError(f"--bid {text}: {rules.variant} bids are {', '.join(names)}{hint}")
    return {names[text]}


def odds(hand: str | int, variant: str = "bid", *, rules: Rules | None = None,
         progress: bool = False, chunk: int = DEFAULT_CHUNK, **options) -> OddsResult:
    """Price every legal call at a decision point (see the module docstring). ``hand`` is the
    player's cards as text (or a natural mask); the keyword ``options`` are the question's
    fields (``analyzer.questions.odds.odds_request.ODDS_FIELDS``, the same as ``euchre odds``'s
    flags): ``seat``, ``dealer``, ``upcard``, ``auction`` (the calls heard, ``"E pass, S
    pass"``), ``trump``, ``bid``; ``deals`` random deals (default 10,000), or ``precision``
    the widest 95% interval half-width to stop at, or ``exact`` to enumerate every layout;
    ``others`` the strategy every later call is made by, ``method`` how the cards are played
    (``dd``, ``heuristic``, ``pimc`` with ``worlds``), ``infer`` deals the unseen cards
    consistent with the calls heard, each seat making another legal call than its
    strategy's with chance ``tremble``; ``all_details`` plays every detail of a call (the
    card given, the discard) on every deal; ``given`` conditions on the unseen hands;
    ``seed``, ``workers``, ``play_check``. Raises UserError for bad input."""
    return ask(request(rules or make_rules(variant), hand, options), progress, chunk)


odds.__signature__ = inspect.Signature(
    list(inspect.signature(odds).parameters.values())[:5] +
    [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY,
                       default=tuple(f.default) if f.repeat else f.default)
     for f in ODDS_FIELDS], return_annotation=OddsResult)


TRUMP_NAMED = "once the bidding is over in bid or ghost, give the trump the winner named (--trump)"


@dataclass(frozen=True)
class Question:
    """An odds question read once: its ``request`` (the fields as given), its decision point
    (``point``: the cards, the calls heard, the play so far and the score read and checked;
    in a bid's play with the trump the winner named), what is decided there (``state``: the
    point opened, one run of the engine) and what it prices (``trumps``: suit indices, None
    for all; ``bids``: call codes, None for every bid). :func:`question_of` reads it,
    :func:`ask` answers it."""

    request: OddsRequest
    point: DecisionPoint
    state: PointState
    trumps: list | None
    bids: set | None


def ask(q: OddsRequest | Question, progress: bool = False,
        chunk: int = DEFAULT_CHUNK, tries: int | None = None) -> OddsResult:
    """The answer to question ``q`` (see :func:`odds`; a request is read first, a question
    read already is answered as it is), with a progress bar when ``progress``, ``chunk``
    deals at a time, random deals stopping once ``tries`` were tried (``Effort.tries``)."""
    question = q if isinstance(q, Question) else question_of(q)
    r = question.request
    effort = replace(r.effort(progress, chunk), tries=tries)
    return odds_at(question.point, r.play(), effort, given=r.given,
                   trumps=question.trumps, bids=question.bids, play_check=r.play_check,
                   state=question.state)


def check_question(q: OddsRequest) -> Question:
    """Question ``q`` read (:func:`question_of`) and checked, at once and without dealing:
    UserError when it cannot be asked (its cards, the calls heard and the play so far, whose
    turn it is, the trump, the bid, the conditions and how it is played). A server checks a
    question before it waits for its turn, then asks the one it checked."""
    question = question_of(q)
    play = q.play()
    play.check()
    q.effort().check()
    trumps = question.trumps
    d = prepare(question.point, play.method == "dd", play.infer, play.tremble, trumps,
                question.bids, play.infer_play, state=question.state)
    parse_given(q.given, d.query, question.point.seat, None if trumps is None else trumps[0])
    return question


def question_of(q: OddsRequest) -> Question:
    """Question ``q`` read once: its text parsed and checked (UserError naming what is wrong)
    and its point opened by one run of the engine. In bid and ghost the trump given is the
    one the winner named once the bidding is over (which the run says), else the one trump
    priced."""
    play = {"played": q.played, "discarded": q.discarded, "dummy": q.dummy, "score": q.score,
            "received": q.received, "swapped": q.swapped}
    point = decision_point(q.rules, q.hand, q.seat, q.dealer, q.upcard, q.auction, play)
    ladder = q.rules.auction == LADDER
    named = notation.parse_suit(q.trump) if ladder and q.trump is not None else -1
    if ladder and named < 0 and point.in_play:  # the cards played are read in that trump
        raise UserError(TRUMP_NAMED)
    # opened with the trump named: a call is decided before it matters, a card after
    state = state_of(replace(point, named=named) if named >= 0 else point)
    in_play = point.in_play or (ladder and state.kind == "card")
    if in_play and ladder:  # the trump the winner named is the question's
        if named < 0:
            raise UserError(TRUMP_NAMED)
        point = replace(point, named=named)
    trumps = None if q.trump is None or in_play else [notation.parse_suit(q.trump)]
    return Question(q, point, state, trumps, _bids(q.rules, q.bid))


def odds_at(point: DecisionPoint, play: PlayModel | None = None, effort: Effort | None = None,
            *, given=(), trumps: list | None = None, bids: set | None = None,
            play_check: bool = True, state: PointState | None = None) -> OddsResult:
    """:func:`odds` at a decision point already built, played by ``play`` with ``effort``
    (``given``: conditions on the unseen cards, ``trumps``: suit indices, ``bids``: call codes
    to keep; ``state``: what is decided there, when the point was opened already).
    ``play_check``: a double-dummy answer (not exact) also plays its deals with heuristic card
    play and says when the best call differs."""
    play, effort = play or PlayModel(), effort or Effort()
    play.check()
    effort.check()
    exact = effort.exact

    if exact and play.infer_play:
        raise UserError("--infer-play weighs random deals by the cards played; it cannot be "
                        "used with --exact")
    # exact mode keeps the tremble: each layout is weighed by the chance of its calls
    d = prepare(point, play.method == "dd", play.infer, play.tremble, trumps, bids,
                play.infer_play, state=state)
    # late in a hand: every layout, not random deals (but a weighing keeps random deals)
    if not play.infer_play and few_layouts(d, effort):
        effort, exact = replace(effort, exact=True, deals=None), True
    d.query.cons = parse_given(given, d.query, point.seat, None if trumps is None else trumps[0])
    # the strategy last: the question is checked before a first use builds the analyzer
    d.query.policies, d.query.params = at_score(point, others_policies(
        play.others, play.method, point.rules, play.worlds))
    check = CHECKED_BY.get(play.method) if play_check and not exact else None
    with using_threads(effort.workers):
        result = _run(d, play, effort,
                      uninformed=None if exact or not play.infer or not play.tremble
                      else lambda: played_as(d, infer=False),
                      check=check_plan(point.rules, (play.method, check)))
        if check and not result.interrupted and result.best.get("runner_up") is not None:
            kept = result.options[result.options["dropped_after"].isna()]
            called = zip(kept["option"], kept["trump"], kept["detail"], strict=True)
            other = played_as(d, solve=check == "dd", strategies=at_score(
                point, others_policies(play.others, check, point.rules, play.worlds)))
            _check_play(result, keep_options(other, called), effort, (play.method, check))
    return result


def at_score(point: DecisionPoint, strategies: tuple) -> tuple:
    """The seats' ``strategies`` (``(policies, params)``) told the game's score when the
    question has one: the later calls of a seat that plays to the score (the analyzer) are
    made at that score (``questions.equity.to_score.tell_score``), as a real game's would be."""
    if point.score:
        tell_score(point.rules, strategies[1], point.score, point.dealer)
    return strategies


# deals between the checks of a run's bound on its tries (``Effort.tries``: checked after
# each chunk, so where a run stops is the same on every machine and thread count)
TRIES_CHUNK = 32
AUTO_EXACT = 10_000  # a point in the play with at most this many layouts is priced on each


def few_layouts(d: Decision, effort: Effort) -> bool:
    """Whether a question in the play (no run size asked but deals) has so few layouts of the
    unseen cards (at most ``AUTO_EXACT``, and no more than the deals asked unless the deals
    must fit the calls heard) that each is played once instead of random deals: an exact
    answer for less work. Fitting the calls heard, a random deal is tried until one fits (up
    to ``MAX_TRIES`` times where they rarely do: 18 s for 500 deals of 7,560 layouts, issue
    51), a layout once, weighed by the chance of its calls."""
    if effort.exact or effort.precision is not None or d.opened.state.kind != "card":
        return False
    most = AUTO_EXACT if d.infers else min(AUTO_EXACT, effort.deals or AUTO_EXACT)
    return d.query.layouts() <= most


# a question played by one method is checked by another on the same deals (play_check):
# double dummy by heuristic play (issue 24), the analyzer's card player by double dummy
CHECKED_BY = {"dd": "heuristic", "analyzer": "dd"}
# the deals a double-dummy check plays at most, the question's first ones, where hands do not
# solve fast (compute.solver.solves_fast: the double deck's whole run of 10,000 deals took
# 250 s to check, the answer 10; at 200 deals the check was still 60-75% of a random hand's
# answer, issue 55)
CHECK_DEALS = 100
# what the check costs beside the question's own work (``race.deal_cost``'s units: a call's
# deal by the question's method), per deal and per call it plays, for hands that solve fast
# and those that do not; measured here (2 threads) on the default questions of each variant
# and on 12 random double-deck hands: single-deck double dummy 0.23-1.1 of a call's deal by the
# analyzer's player; a 12-card check deal 10-34 ms whatever its calls (their contracts share
# the deal's solves), 240-1,100 of the player's 0.03 ms units, so the time left counts it
CHECK_COST = {("analyzer", "dd"): ((0.0, 0.5), (480.0, 0.0)),
              ("dd", "heuristic"): ((0.0, 0.8), (0.0, 0.001))}


def check_plan(rules: Rules, methods: tuple) -> tuple | None:
    """``(most deals, per deal, per call)`` of the check an answer played by ``methods[0]``
    gets from ``methods[1]`` (None: none): the deals it plays at most (None: every deal of
    the run), and what it costs a deal and a call there in the run's units
    (:data:`CHECK_COST`)."""
    if methods[1] is None:
        return None
    fast = solves_fast(rules)
    most = None if methods[1] != "dd" or fast else CHECK_DEALS
    return (most, *CHECK_COST[methods][0 if fast else 1])


PLAY_WORDS = {"dd": "double dummy (everyone sees every card)",
              "heuristic": "with heuristic play",
              "analyzer": "as the analyzer's card player plays (docs/card-player.md)"}
SENTENCE_WORDS = {"dd": "with perfect play", "heuristic": "with realistic play",
                  "analyzer": "as a player plays the cards"}


def _check_play(result: OddsResult, d: Decision, effort: Effort, methods: tuple) -> None:
    """Play the same deals again by the check's method (``methods`` = (the question's, the
    check's); ``d``: each call at the detail the question chose for it, such as the card
    given in an n-ask) and keep its verdict in ``result.checked_play`` (and, for heuristic
    play, ``result.heuristic_play``); when the check prefers another call to the question's
    best (by its paired difference from it under the check's play), say so in one note
    (issue 24: a margin that depends on how the cards are played should not look sure)."""
    seed, chunk = effort.seed, effort.chunk
    most = check_plan(result.rules, methods)[0]
    deals = result.deals_asked if most is None else min(result.deals_asked, most)
    totals = run_chunks(deals, _work(d, seed, False), chunk=chunk, progress=False)
    result.seconds += totals.seconds  # the answer's time includes its check
    counts = totals.counts
    if not counts or totals.interrupted or int(counts["accepted"]) == 0:
        return
    other = verdict(d, counts, False)
    result.checked_play = {"method": methods[1], **other}
    if methods[1] == "heuristic":
        result.heuristic_play = other
    best = result.best
    if (other["call"], other["trump"]) == (best["call"], best["trump"]) or best["too_close"]:
        return  # the same call, or double dummy calls no call sure to begin with
    ours = [i for i, o in enumerate(d.options) if (o.name, o.trump_text) ==
            (best["call"], best["trump"])]
    theirs = [i for i, o in enumerate(d.options) if (o.name, o.trump_text, o.detail) ==
              (other["call"], other["trump"], other["detail"])]
    if not ours or not theirs:
        return
    ours_i = max(ours, key=lambda i: value_counts(counts)[0][i])
    diff, lo, hi = paired(counts, theirs[0], ours_i)
    scale, digits, unit = (100, 1, " points of percentage") if best.get("win") is not None \
        else (1, 2, "")  # with a score the margins are chances of the game
    if round(scale * diff, digits) <= 0:
        return  # a tie under the check's play (to the figure shown): the best is as good
    what = "card" if result.decision == "card" else "call"
    result.notes.append(
        f"the best {what} depends on how well the cards are played: {best['label']} by "
        f"{scale * best['margin']:+.{digits}f}{unit} {PLAY_WORDS[methods[0]]}, but "
        f"{PLAY_WORDS[methods[1]]} the best is {other['label']}, by {scale * diff:+.{digits}f}"
        f" [{scale * lo:+.{digits}f}, {scale * hi:+.{digits}f}]{unit} on the same deals" +
        (f" (the first {deals:,})" if deals < result.deals_asked else ""))
    best["sentence"] = verdict_sentence(best, False, (other["label"], diff,
                                                      *(SENTENCE_WORDS[m] for m in methods)))


def _work(d: Decision, seed: int, exact: bool, max_tries: int = MAX_TRIES):
    """The pure work function of a chunk (it may run on a cluster worker), a random deal
    tried at most ``max_tries`` times to fit the calls heard; exact mode's runs whole chunks
    (its runs of layouts share the solver's table)."""
    def work(first: int, count: int) -> dict:
        return chunk_counts(d, run_query(d.query, seed, first, count, exact, max_tries))

    return in_whole_chunks(work) if exact else work


def exact_estimate(d: Decision, seed: int = 0, sample: int | None = None) -> tuple[int, float]:
    """``(layouts, seconds)``: how many layouts exact mode would play for ``d`` and about how
    long, from timing ``sample`` of them here (by default two of the kernel's runs of layouts a
    thread: consecutive layouts share the solver's table, so a short sample would be slow).
    UserError when no layout fits (a review's n-asker after the exchange, whose hand the
    question cannot hold: it divided by zero)."""
    count = d.query.layouts()
    if count == 0:
        raise UserError("no layout meets the conditions, the calls heard and the cards played")
    sample = min(count, sample or exact_chunk(1) * 2)
    start = time.perf_counter()
    _work(d, seed, True)(0, sample)
    return count, (time.perf_counter() - start) / sample * count


def likeliest_layout(d: Decision, seed: int, chunk: int) -> int | None:
    """How unlikely the likeliest layout of an exact run of ``d`` is (``R.UNLIKELY`` of its
    calls kept as trembles: 0 when some layout fits every call heard as the others' strategy
    makes it, mostly found in the first ``chunk`` layouts), the base of the layouts' weights
    (``decide.layout_weights``); None when no layout fits the calls heard at all. Layouts
    are dealt and their calls checked, nothing is played."""
    bare = keep_options(d, [])
    total, least = d.query.layouts(), None
    for first in range(0, total, chunk):
        part = run_query(bare.query, seed, first, min(chunk, total - first), True)
        if part.ok.any():
            low = int(part.unlikely[part.ok].min())
            least = low if least is None else min(least, low)
        if least == 0:
            break
    return least


def _weighed(d: Decision, seed: int, chunk: int) -> tuple[Decision, list[str]]:
    """``d`` made ready for an exact run, and its notes: with inference and a tremble its
    layouts weighed by the chance of their calls (from the likeliest layout's,
    :func:`likeliest_layout`), or, when no layout fits the calls heard even so, every layout
    alike, ignoring them (said in a note, as random deals no try fits are dealt)."""
    if not d.infers or d.tremble <= 0:
        return d, []
    least = likeliest_layout(d, seed, chunk)
    if least is not None:
        return replace(d, likeliest=least), []
    return played_as(d, infer=False), [
        "unusual auction: no layout fits the calls heard, even allowing --tremble, so every "
        "layout is weighed alike, ignoring the calls heard"]


def _weighed_note(d: Decision) -> list[str]:
    """The note of an exact run none of whose layouts fits the calls heard as the others'
    strategy makes them: each is weighed by the chance of the calls it fits only by a
    tremble."""
    if not d.likeliest:
        return []
    return [f"unusual auction: no layout fits the calls heard as the others' strategy makes "
            f"them, so each layout is weighed by the chance of the calls it needed another "
            f"call for (each seat makes another legal call {percent_text(d.tremble)} of the "
            f"time)"]


def _deal_count(d: Decision, seed: int, deals, precision, exact) -> int:
    """How many deals (or layouts) to run; exact mode is refused when it would take long."""
    if not exact:
        return deals if deals is not None else (10_000_000 if precision else 10_000)
    count, estimate = exact_estimate(d, seed)
    if estimate > EXACT_LIMIT_SECONDS:
        raise UserError(f"exact mode would play {count:,} layouts, about "
                        f"{duration_text(estimate)} here; use --deals or --precision instead")
    return count


def _stop_rule(plan: RunPlan, effort: Effort, chunk: int) -> tuple:
    """``(enough, chunk, max_tries)`` of a run: when it stops early (None: never) — precise
    enough (``effort.precision``), or once its random deals tried ``effort.tries`` to fit the
    calls heard, in smaller chunks whose deals are tried at most that many in all (a deal that
    never fits would otherwise spend ``MAX_TRIES`` on its own) — the chunk, and the tries of a
    deal."""
    precision = effort.precision
    if precision is not None:
        def enough(totals):  # the calls still played (``plan.d``), whose counts these are
            if totals.counts.get("accepted", 0) < 1000:
                return False
            t = option_table(plan.d, totals.counts, False)
            return bool(((t["p_we_make_high"] - t["p_we_make_low"]) / 2).max() <= precision)
        return enough, chunk, MAX_TRIES
    if effort.tries is None or effort.exact:
        return None, chunk, MAX_TRIES
    chunk = min(chunk, TRIES_CHUNK)
    return (lambda totals: totals.counts.get("tries", 0) >= effort.tries), chunk, \
        max(1, min(MAX_TRIES, effort.tries // chunk))


def _tries_note(counts: dict, done: int, total: int) -> str:
    """The note of a run stopped by its bound on tries (``Effort.tries``)."""
    return (f"unusual auction: {int(counts['tries']):,} deals were tried to find "
            f"{int(counts['accepted']):,} that fit the calls heard (the most a question of this "
            f"size tries), so the figures are over those {done:,} deals, not {total:,}")


def _run(d: Decision, play: PlayModel, effort: Effort, uninformed=None,
         check: tuple | None = None) -> OddsResult:
    seed, chunk, precision, exact = effort.seed, effort.chunk, effort.precision, effort.exact
    total = _deal_count(d, seed, effort.deals, precision, exact)
    notes = []
    if exact:
        chunk = exact_chunk(chunk)
        d, notes = _weighed(d, seed, chunk)
    plan = _plan(d, effort, total, check)
    enough, chunk, max_tries = _stop_rule(plan, effort, chunk)
    totals = run_chunks(total, _work(d, seed, exact, max_tries), chunk=chunk,
                        progress=effort.progress,
                        course=Course(enough, plan.switches(total), lambda: deal_cost(plan.d),
                                      lambda totals, at: plan.work_left(totals, at, total),
                                      sized=precision is None))
    counts = totals.counts
    if not counts:
        raise UserError("interrupted before the first deals were played")
    if totals.interrupted:
        notes.append(f"interrupted after {totals.done:,} deals: these are the estimates so far")
    elif effort.tries is not None and totals.done < total and int(counts["tries"]) >= effort.tries:
        notes.append(_tries_note(counts, totals.done, total))
    d = plan.d
    notes += plan.notes()
    unmet = int(counts["unmet"])
    if unmet and uninformed is not None and not totals.interrupted:
        extra = keep_tricks(keep_options(uninformed(), option_labels(d, range(len(d.options))),
                                         scenarios=True), set(d.tricks))
        counts = _deal_uninformed(extra, counts, seed, unmet, chunk)
        notes.append(f"unusual auction: {unmet:,} of the {totals.done:,} deals could not be "
                     f"dealt to fit the calls heard (too unlikely for the others' strategy, "
                     f"even allowing --tremble), so they were dealt ignoring the calls heard")
    _check_accepted(d, counts, exact, max_tries)
    notes += _weighed_note(d) or _unusual_auction(d, counts)
    notes += pooled_bids_note(d.point.rules, d.query.policies)
    p = d.point
    options, best = plan.with_dropped(option_table(d, counts, exact)), verdict(d, counts, exact)
    best["sentence"] = against_other_call(best, options, plan.choices(), exact)
    return OddsResult(
        rules=p.rules, hand=notation.format_hand(p.hand), seat=notation.SEATS[p.seat],
        dealer=notation.SEATS[p.dealer],
        upcard=None if p.upcard < 0 else notation.format_card(p.upcard),
        auction=heard_text(p.heard, p.rules), others=play.others, method=play.method, seed=seed,
        exact=exact, deals=int(counts.get("layouts", counts["accepted"])),
        tried=int(counts["tries"]),
        seconds=totals.seconds, interrupted=totals.interrupted,
        options=options,
        details=plan.with_dropped(option_table(d, counts, exact, True), details=True),
        tricks=plan.with_dropped_tricks(trick_table(d, counts, exact)),
        best=best, inference=d.infers, notes=notes,
        nodes=int(counts["nodes"]), choices=plan.choices(),
        tremble=d.tremble,
        trembled=int(counts.get("trembled", 0)), deals_asked=totals.done,
        uninformed=int(counts.get("uninformed", 0)), decision=d.opened.state.kind,
        played=played_text(p.played), inferred=inferred(d),
        score=score_text(p.score, p.rules, p.seat) if p.score else "",
        stopped=plan.stopped or (_at_most_why(plan, counts)
                                 if plan.until_clear and not totals.interrupted else ""))


def _at_most_why(plan: RunPlan, counts: dict) -> str:
    """Why a default run dealt its most: what was still not clear sooner, or that it
    became clear only at the last check."""
    left = unclear(plan.d, counts)
    if not left:
        return "the most by default; the answer was clear only then"
    return f"the most by default: {' and '.join(left)} not clear sooner"


def _plan(d: Decision, effort: Effort, total: int, check: tuple | None = None) -> RunPlan:
    """How a run of ``total`` deals of ``d`` changes part-way (``analyzer.questions.odds.race``):
    it races the calls (not in exact mode, nor with ``all_calls``), a default run stops once
    the answer is clear, and a long one chooses each call's detail on its first deals;
    ``check``: the check played after it (:func:`check_plan`), for the time left."""
    exact, precision = effort.exact, effort.precision
    screen = not (exact or precision is not None or effort.all_details or
                  total <= SCREEN_DEALS or not has_details(d))
    return RunPlan(d, lambda rest: _work(rest, effort.seed, False),
                   race=not (exact or effort.all_calls),
                   screen_at=SCREEN_DEALS if screen else None,
                   until_clear=not exact and effort.deals is None and precision is None,
                   check=check)


# A run of more deals than this plays every detail of a call (the card given in an n-ask, the
# dealer's discards) on its first SCREEN_DEALS deals only, then only the detail they chose:
# the 100,000-deal all-option bid query's 6-ask is 16 three-seat solves a deal, of which the
# four chosen ones are what it shows (measured: 15.4-15.9 s -> 10.8-10.9 s without the play
# check). A deal's outcome depends only on the seed and its number, so a chosen option's
# figures are exactly those a run playing every detail would give.
SCREEN_DEALS = 10_000


def has_details(d: Decision) -> bool:
    """Whether some call of ``d`` has more than one detail (options of one name and trump)."""
    return len({(o.name, o.trump_text) for o in d.options}) < len(d.options)


def pooled_bids_note(rules: Rules, policies) -> list[str]:
    """A note when a seat bids by the analyzer strategy and its table values several bids of
    the ladder as one (``analyzer.strategy.tables.bid_rows``: the double deck's bids by the
    share of the tricks they need, e.g. 3 to 6 as a single deck's 3): a seat then makes the
    lowest bid of such a row where a player might bid another. ``policies``: the seats'
    policy rows. Returns the notes (none or one)."""
    shared = [codes for codes in bid_rows(rules).values() if "-" in codes]
    if not shared or not bids_by_analyzer(policies):
        return []
    return [f"the later calls are the analyzer strategy's, whose table values the bids "
            f"{', '.join(shared)} each as one (by the share of the tricks they need): the "
            f"other seats make the lowest bid of each where a player might choose another"]


UNUSUAL = 0.25  # the share of the deals kept by a tremble above which the auction is unusual


def _unusual_auction(d: Decision, counts: dict) -> list[str]:
    """The note when many deals fit the calls heard only by a call the others' strategy would
    not make (kept as a tremble; in an exact run that weighs its layouts, their weight)."""
    if "trembled_weight" in counts:
        share = counts["trembled_weight"] / counts["accepted"] if counts["accepted"] else 0.0
    else:
        share = counts.get("trembled", 0) / max(1, int(counts["accepted"]))
    if share < UNUSUAL:
        return []
    chance = d.tremble
    return [f"unusual auction: {share:.0%} of the deals fit the calls heard only by allowing a "
            f"call the others' strategy would not make (each seat makes another legal call "
            f"{percent_text(chance)} of the time; --tremble 0 keeps only the strategy's own calls)"]


UNINFORMED_SEED = 0x5EED_0F_1F0  # the deals dealt without inference draw from their own stream


def _deal_uninformed(d: Decision, counts: dict, seed: int, n: int, chunk: int) -> dict:
    """``counts`` with ``n`` more deals of ``d`` (the same question without inference) in place
    of the ``n`` deals no try could fit to the calls heard (``unmet``, kept for the note)."""
    extra = run_chunks(n, _work(d, seed ^ UNINFORMED_SEED, False), chunk=chunk,
                       progress=False).counts
    merged = {k: (v + extra[k] if k in extra and k != "unmet" else v)
              for k, v in counts.items()}
    merged["uninformed"] = int(extra.get("accepted", 0))
    merged["still_unmet"] = int(extra.get("unmet", 0))
    return merged


def _check_accepted(d: Decision, counts: dict, exact: bool = False,
                    max_tries: int = MAX_TRIES) -> None:
    """UserError when no deal (or too few) fit the conditions and the calls heard, each tried
    ``max_tries`` times (the deals dealt again ignoring the calls: ``MAX_TRIES``; in exact mode
    a layout that does not fit is one of those left out: only none fitting is)."""
    if counts.get("still_unmet", counts["unmet"]) > 0 and not exact:
        heard = d.infers and "still_unmet" not in counts
        max_tries = MAX_TRIES if "still_unmet" in counts else max_tries
        what = "the calls heard" if heard else "the --given conditions"
        why = ("impossible, or too rare for the strategy the others bid by even allowing "
               "--tremble; --no-infer deals without it") if heard else "impossible, or too rare"
        raise UserError(f"no deal fits {what}: "
                        f"{int(counts.get('still_unmet', counts['unmet']))} deals found none in "
                        f"{max_tries:,} tries each ({why})")
    if int(counts.get("layouts", counts["accepted"])) == 0:
        raise UserError("no layout meets the --given conditions, the calls heard and the "
                        "cards played")
