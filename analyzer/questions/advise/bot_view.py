"""``advise(view)``: a bot's question at its turn. A **view** is what one seat knows, as one
JSON-able dict — the variant and house rules, the seat, the dealer, the cards it holds now,
the upcard, the calls heard, the cards played, its own put-away cards (after its n-ask the
card it was passed, after its swap the hand it gave up) — and the answer is the best action
and every legal option's value, a plain dict (what ``euchre advise`` writes, one line per
view).

The view is the odds question (``analyzer.questions.odds.odds_request``) under other names only
where JSON wants them: each field but ``variant``, ``rules``, ``hand`` and ``id`` is a field of
``ODDS_FIELDS``, checked by it, so ``advise(view)`` is ``odds(...)`` of the same question
(with ``deals`` 500 unless given, and no heuristic play check). The answer's ``action`` (and
each option's ``option``) is written in the view's own notation, so a bot can add it to its
next view: a call to ``auction`` (``"S order"``), a card to ``played``, a discard to
``discarded``."""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import threading

from ...compute.runner import observed, size_limit
from ...errors import TooLong, UserError
from ...game.records import call_text
from ...game.variants import OPTIONS, Rules, make_rules, option_flag
from ...strategy.defaults import ADVISE_DEALS, LIMIT_SECONDS
from ..odds.answer import OddsResult, ask
from ..odds.odds_request import FIELD_BY_NAME, OddsRequest, request
from ..odds.options import CallOption, option_label

DEFAULT_DEALS = ADVISE_DEALS  # a bot asks at every turn: fewer deals than odds' 10,000
# After calls a seat's strategy rarely makes (a lone call or a moon on a weak hand) few random
# deals fit the calls heard: a deal that never fits costs 20,000 tries, and a view then took
# 5-13 s (issue 51). A view's deals stop once this many tries a deal asked were spent
# (``Effort.tries``); a usual view tries a few a deal and never comes near it.
TRIES_A_DEAL = 300
REQUIRED = ("variant", "seat", "hand")
# the odds fields a view may hold (the rest narrow or size a person's question)
ODDS_NAMES = ("seat", "dealer", "upcard", "auction", "played", "discarded", "received",
              "swapped", "dummy", "trump", "score", "deals", "exact", "seed", "method", "worlds",
              "others", "infer", "infer_play", "tremble", "given")
VIEW_FIELDS = ("id", "variant", "rules", "hand") + ODDS_NAMES
CARD_LISTS = ("hand", "discarded", "swapped", "dummy")  # a string of cards, or a list of them
ROUND = 4  # decimals of the answer's numbers
HUGE = 1e20  # a number beyond any field's range, refused before its check prints it whole
FIGURES = ("ev", "ev_low", "ev_high", "vs_best", "tricks")  # each option's, from the odds


def advise(view: dict, workers: int | None = None) -> dict:
    """The best action at ``view`` (a dict: see the module and docs/advise.md) and every
    legal option's value: ``{"action", "decision", "options": [{"option", "label", "trump",
    "ev", "ev_low", "ev_high", "vs_best", "tricks", "dropped_after"}, ...] (best first),
    "too_close", "deals", "exact", "seed", "method", "notes"}`` (and the view's ``id`` when
    it has one), on ``workers`` threads (None: all cores). The same view gives the same
    answer on any machine and thread count. UserError (one line) for a view that is not a
    position, or whose deals would take longer than odds' limit (``LIMIT_SECONDS``, told
    from its first deals); KeyboardInterrupt when Ctrl-C cut the run short."""
    stop = threading.Event()
    with observed(lambda done, total: None, stop), size_limit(LIMIT_SECONDS):
        try:
            q = read_view(view, workers)
            result = ask(q, tries=None if q.deals is None else q.deals * TRIES_A_DEAL)
        except TooLong as e:  # odds' limit, timed on the first deals: an error line at once
            raise UserError(f"{view_message(e)}; ask for fewer deals") from None
        except UserError as e:
            if stop.is_set():  # the runner's "interrupted before the first deals"
                raise KeyboardInterrupt from None
            raise UserError(view_message(e)) from None
    if stop.is_set() or result.interrupted:
        raise KeyboardInterrupt
    answer = answer_of(result)
    return {"id": view["id"], **answer} if "id" in view else answer


def read_view(view, workers: int | None = None) -> OddsRequest:
    """The odds question of ``view`` (see :func:`advise`), every field checked: UserError
    naming the first wrong one (an unknown field, a missing one, a value of the wrong kind
    or out of range)."""
    if not isinstance(view, dict):
        raise UserError(f"a view is a JSON object ({{\"variant\": ..., \"seat\": ..., "
                        f"\"hand\": ...}}), not {type(view).__name__}")
    unknown = sorted(set(view) - set(VIEW_FIELDS))
    if unknown:
        raise UserError(f"unknown field {unknown[0]!r} (a view's fields: "
                        f"{', '.join(VIEW_FIELDS)})")
    missing = [name for name in REQUIRED if name not in view]
    if missing:
        raise UserError(f"the view has no {missing[0]!r} (required: {', '.join(REQUIRED)})")
    options = {"deals": None if view.get("exact") else DEFAULT_DEALS, "play_check": False,
               "workers": workers}
    for name in ODDS_NAMES:
        if name in view and view[name] is not None:
            options[name] = _value(name, view[name])
    rules = _rules(_text("variant", view["variant"]), _rule_options(view.get("rules")))
    return request(rules, _text("hand", view["hand"]), options)


def _value(name: str, value):
    """A view's field ``name`` as the odds question takes it: lists joined into the odds'
    notation, the kind checked, the range by the field's own check (named as in a view)."""
    field = dataclasses.replace(FIELD_BY_NAME[name], flag=name)
    if name == "played":
        return _played(value)
    if name == "auction" and isinstance(value, list):
        return ", ".join(_text("auction", v) for v in value)
    if name == "given":
        items = value if isinstance(value, list) else [value]
        return tuple(_text("given", v) for v in items)
    if field.kind is str:
        return field.check(_text(name, value))
    if field.kind is bool:
        if not isinstance(value, bool):
            raise UserError(f"{name} is true or false, not {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, int | float) or \
            (field.kind is int and isinstance(value, float) and not value.is_integer()):
        what = "a whole number" if field.kind is int else "a number"
        raise UserError(f"{name} is {what}, not {_shown(value)}")
    if abs(value) > HUGE:
        raise UserError(f"{name} is out of range: {_shown(value)}")
    return field.check(field.kind(value))


def _text(name: str, value) -> str:
    """A text field (cards may come as a list of strings): the text, or UserError."""
    if isinstance(value, list) and name in CARD_LISTS and all(isinstance(v, str)
                                                             for v in value):
        return " ".join(value)
    if not isinstance(value, str):
        what = "text or a list of cards" if name in CARD_LISTS else "text"
        raise UserError(f"{name} is {what}, not {_shown(value)}")
    return value


def _shown(value) -> str:
    """A value as an error line quotes it: short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _played(value) -> str:
    """The cards played as the odds write them (``"E JC, S 9C; W 9S"``), from that text or
    a list of tricks, each a text or a list of ``"SEAT CARD"`` plays."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        raise UserError(f"played is text or a list of tricks, not {_shown(value)}")
    tricks = []
    for trick in value:
        plays = trick if isinstance(trick, list) else [trick]
        if not all(isinstance(p, str) for p in plays):
            raise UserError(f"played: a trick is text or a list of plays like \"E JC\", not "
                            f"{_shown(trick)}")
        tricks.append(", ".join(plays))
    return "; ".join(tricks)


def _rule_options(value) -> tuple:
    """The view's house rules (``rules``: option name -> value) as a sorted tuple of
    pairs."""
    if value is None:
        return ()
    if not isinstance(value, dict) or not all(
            v is None or isinstance(v, bool | int) for v in value.values()):
        raise UserError(f"rules is an object of house rules, each true, false or a number, "
                        f"e.g. {{\"stick_the_dealer\": false}}, not {_shown(value)}")
    return tuple(sorted(value.items()))


@functools.lru_cache(maxsize=64)
def _rules(variant: str, options: tuple) -> Rules:
    """The rules of a view, made once for each variant and house rules (the kernels' arrays
    of a ``Rules`` are built on its first use)."""
    return make_rules(variant, **dict(options))


def answer_of(result: OddsResult) -> dict:
    """The plain answer of an odds result (see :func:`advise`): the options best first,
    each with its action in the view's notation."""
    by_label = {option_label(o.name, o.trump_text, o.detail): o for o in result.choices}
    table = result.options  # columns read as lists: a frame's rows as dicts cost 3 ms
    figures = {k: [_number(v) for v in table[k].tolist()] for k in FIGURES}
    dropped = [None if d is None or d != d else int(d) for d in  # NaN: played throughout
               table.get("dropped_after", [None] * len(table))]
    options = []
    for i, label in enumerate(table["label"].tolist()):
        choice = by_label[label]
        options.append({"option": action_text(choice, result.rules), "label": label,
                        "trump": choice.trump_text or None,
                        **{k: figures[k][i] for k in FIGURES}, "dropped_after": dropped[i]})
    options.sort(key=lambda o: -o["ev"] if o["ev"] is not None else math.inf)  # stable
    best = result.best
    action = next(o["option"] for o in options if o["label"] == best["label"])
    return {"action": action, "decision": result.decision, "options": options,
            "too_close": bool(best.get("too_close")), "deals": result.deals,
            "exact": result.exact, "seed": result.seed, "method": result.method,
            "notes": list(result.notes)}


def action_text(option: CallOption, rules: Rules) -> str:
    """An option as the view writes it: a call as the auction does (``order``, ``order
    alone``, ``name H``, ``4``, ``pass``), a card as ``play JC``, a discard as ``discard
    9H``, a cutthroat keep and a lone defence by their names."""
    if option.card >= 0 or (option.call < 0 and option.discard < 0):
        return option.name  # play JC, keep ..., defend alone / with partner
    if option.call < 0:
        return f"discard {option.detail}"
    alone = " alone" if option.alone == 1 else ""
    return call_text(option.call, rules) + alone


def _number(value) -> float | None:
    """A figure of the answer, rounded (None where there is none)."""
    if value is None or isinstance(value, float) and math.isnan(value):
        return None
    return round(float(value), ROUND)


# the command line's flags of the view's fields and of the house rules, longest first
_FLAGS = sorted([(f"--{n}", n) for n in ODDS_NAMES] +
                [(option_flag(o.name), o.name) for o in OPTIONS], key=lambda f: -len(f[0]))
_FLAG = re.compile("|".join(re.escape(flag) + r"(?![\w-])" for flag, _ in _FLAGS))


def view_message(error: Exception) -> str:
    """An error's one line with the command line's flags named as the view writes them:
    ``--played`` as ``played``, ``--ace-no-face`` as ``ace_no_face``."""
    names = dict(_FLAGS)
    return " ".join(_FLAG.sub(lambda m: names[m.group(0)], str(error)).split())

