"""The odds question, described once: every option a person can give it — its name, kind,
default, limits and help — in :data:`ODDS_FIELDS`, which the command line (``euchre odds``'s
flags), the Python API (``odds()``'s keyword options), the HTTP API (``/api/odds``'s
parameters, and which of them a server refuses) and the page's form all read. Adding an
option is one :class:`Field` here plus its behaviour.

A question travels as one value, :class:`OddsRequest`: the rules, the decision point in text
(hand, seat, dealer, upcard, calls heard), what to price (trump, bid), how the hands are
played (:meth:`OddsRequest.play`, a ``PlayModel``) and how much to compute
(:meth:`OddsRequest.effort`, an ``Effort``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from ...compute.seeds import MAX_SEED
from ...errors import UserError
from ...game.variants import Rules
from ...strategy.defaults import (
    DEFAULT_METHOD,
    DEFAULT_STRATEGY,
    DEFAULT_WORLDS,
    METHODS,
    TREMBLE,
)
from .play_model import PlayModel


@dataclass(frozen=True)
class Field:
    """One option of the question: ``name`` (the Python keyword and the HTTP parameter; the
    command line's flag is ``--name-with-dashes`` unless ``flag`` says otherwise, and
    ``param`` renames the HTTP parameter), its ``kind`` (str, int, float or bool; ``repeat``:
    given any number of times), ``default``, ``help``, the range ``low``..``high`` of a
    number, the ``choices`` of a name, ``served``: "" when a server takes it, else why not,
    ``page``: the page's form offers it, and ``words``: its name in words, as the page
    labels it and the server's messages name it (none: the HTTP parameter)."""

    name: str
    kind: type
    default: object
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple = ()
    flag: str = ""
    param: str = ""
    repeat: bool = False
    served: str = ""
    page: bool = False
    words: str = ""

    @property
    def cli_flag(self) -> str:
        """The command line's flag: ``--deals``, ``--discards``."""
        return self.flag or "--" + self.name.replace("_", "-")

    @property
    def http_name(self) -> str:
        """The HTTP parameter's name (and the page's)."""
        return self.param or self.name

    def check(self, value):
        """``value`` when it fits the field (None passes for an option given no value);
        UserError naming the flag otherwise."""
        if value is None or self.repeat:
            return value
        if self.kind in (int, float) and not isinstance(value, bool):
            if not ((self.low is None or value >= self.low) and
                    (self.high is None or value <= self.high)):
                span = f"at least {self.low:,}" if self.high is None else \
                    f"between {self.low:,} and {self.high:,}"
                raise UserError(f"{self.cli_flag} must be {span}, not {value}")
        if self.choices and value not in self.choices:
            raise UserError(f"{self.cli_flag} must be one of {', '.join(self.choices)}, not "
                            f"{value!r}")
        return value


ODDS_FIELDS: tuple[Field, ...] = (
    Field("trump", str, None, "Only this trump suit (default: all); once the play has begun "
          "in bid or ghost, the trump the winner named.", words="the trump"),
    Field("seat", str, "N", "Your seat.", words="your seat"),
    Field("dealer", str, None, "The dealer (default: the seat on your right, so you speak "
          "first).", words="the dealer"),
    Field("upcard", str, None, "The upcard (knock, cutthroat).", words="the upcard"),
    Field("auction", str, None, "The calls heard before your turn, e.g. 'E pass, S pass' or "
          "'E 4, S pass'.", words="the calls heard"),
    Field("bid", str, None, "Only this bid (and passing): 3, 4, 5, ask or moon (bid, ghost).",
          words="the bid"),
    Field("played", str, None, "The cards played so far, after a complete auction: tricks in "
          "order, ';' between them, e.g. 'E JC, S 9C, W 9S, N AS; E 9H' (your hand is then "
          "what you hold now).", words="the play so far"),
    Field("dummy", str, None, "Cutthroat: the dummy's cards, once you made trump and took it "
          "(your keep is then the question).", words="the dummy"),
    Field("discarded", str, None, "The cards you put away, once the play has begun: your "
          "discard as the dealer, the cards you dropped from the dummy, the card you gave in "
          "an n-ask.", words="your discard"),
    Field("received", str, None, "Bid, after your n-ask: the card your partner passed you "
          "(it is in the hand you hold, or among the cards you played).",
          words="the card you were passed"),
    Field("swapped", str, None, "Ghost, after you swapped for the ghost hand: the hand you "
          "gave up (your hand is then the ghost hand's cards you hold).",
          words="the hand you gave up"),
    Field("score", str, None, "The game's score before this hand, US-THEM (cutthroat and "
          "ghost: the three players' scores N-E-S): each option is then valued by its chance "
          "of winning the game (the match-equity table, euchre equity), net points beside.",
          words="the score"),
    Field("all_details", bool, False, "A row for every discard (and every card given in a "
          "6-ask), not only each call's best; each played on every deal (a run of over "
          "10,000 deals otherwise chooses them on its first 10,000).", flag="--discards",
          param="discards"),
    Field("all_calls", bool, False, "Play every call on every deal (otherwise a call whose "
          "99.9% interval against the runner-up is below zero stops being played, from 100 "
          "deals on, and shows its figures over the deals it was played on)."),
    Field("others", str, DEFAULT_STRATEGY, "The strategy the other calls are made by: "
          "analyzer (built on first use, then cached), points, random, or a strategy file "
          "(.toml).", page=True, words="the other calls' strategy"),
    Field("infer", bool, True, "Deal the unseen cards so that the calls heard are the "
          "others' strategy's (--no-infer: any cards)."),
    Field("infer_play", bool, False, "Also weigh the deals by the cards played so far: each "
          "other seat plays the heuristic player's card, or another legal card with chance "
          "--tremble (so 'partner did not overtake' means something; random deals only)."),
    Field("tremble", float, TREMBLE, "With inference, the chance a seat makes another legal "
          "call than its strategy's, so no auction is impossible (0: only the strategy's own "
          "calls; exact mode weighs each layout by the chance of its calls).", low=0.0,
          high=0.49),
    Field("method", str, DEFAULT_METHOD, "How hands are played: analyzer (the default: "
          "the analyzer's card player, each seat from its own view, docs/card-player.md), dd "
          "(double dummy: every hand seen), heuristic or pimc.",
          choices=METHODS, page=True, words="card play"),
    Field("worlds", int, DEFAULT_WORLDS, "Worlds a pimc player samples per card.", low=1,
          high=10_000),
    Field("play_check", bool, True, "Also play the same deals another way (the analyzer's "
          "card player double dummy, double dummy with heuristic play) and say when the best "
          "differs (--no-play-check: skip it)."),
    Field("deals", int, None, "Random deals to play (default: until the verdict is clear and "
          "every chance within ±1%, at most 10,000).", low=1, page=True, words="deals"),
    Field("precision", float, None, "Deal until every probability's 95% interval is within "
          "± this.", served="give deals instead: a run to a precision has no fixed size"),
    Field("exact", bool, False, "Enumerate every layout of the unseen cards (refused when it "
          "would take too long)."),
    Field("given", str, (), "A condition on an unseen hand: 'E: void H', 'S: >=2 trump', "
          "'W: has AS'. Repeatable.", repeat=True),
    Field("seed", int, 0, "Random seed: the same seed gives the same result on any machine "
          "and thread count.", low=0, high=MAX_SEED, page=True, words="seed"),
    Field("workers", int, None, "Threads to use (default: all cores).", low=1,
          served="the server uses every core for one question at a time"),
)
FIELD_BY_NAME = {f.name: f for f in ODDS_FIELDS}


def _play(self) -> PlayModel:
    """How the hands of this question are played."""
    return PlayModel(self.others, self.method, self.worlds, self.infer, self.tremble,
                     self.infer_play)


def _effort(self, progress: bool = False, chunk: int | None = None):
    """How much this question computes, an ``Effort`` (``progress``: a progress bar;
    ``chunk``: deals a chunk, by default the runner's)."""
    from ...compute.effort import Effort  # here: the command line's --help imports this module

    extra = {} if chunk is None else {"chunk": chunk}
    return Effort(self.deals, self.precision, self.exact, self.seed, self.workers,
                  progress=progress, all_details=self.all_details,
                  all_calls=self.all_calls, **extra)


def _request_class():
    """The frozen dataclass of a question: ``rules``, ``hand``, then one attribute per field
    of ``ODDS_FIELDS`` (so a field is never written twice)."""
    fields = [("rules", Rules), ("hand", object)] + [
        (f.name, object, dataclasses.field(default=tuple(f.default) if f.repeat
                                           else f.default)) for f in ODDS_FIELDS]
    return dataclasses.make_dataclass(
        "OddsRequest", fields, frozen=True,
        namespace={"__module__": __name__, "play": _play, "effort": _effort,
                   "__doc__": "The odds question as one value: ``rules``, ``hand`` (text or "
                              "a natural mask) and one attribute per field of ODDS_FIELDS."})


OddsRequest = _request_class()


def request(rules: Rules, hand, options: Mapping) -> OddsRequest:
    """The question of ``hand`` under ``rules`` with ``options`` (field name -> value; the
    rest at their defaults), each checked against its field: UserError for an unknown option
    or a value out of range."""
    unknown = set(options) - set(FIELD_BY_NAME)
    if unknown:
        raise UserError(f"unknown option {sorted(unknown)[0]!r} of the odds question")
    values = {name: FIELD_BY_NAME[name].check(value) for name, value in options.items()}
    if "given" in values:
        values["given"] = tuple(values["given"] or ())
    return OddsRequest(rules=rules, hand=hand, **values)

