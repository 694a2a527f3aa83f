"""Reviewing a played hand double dummy (``euchre review``): the value of the position before
and after every decision, which decisions cost tricks or points, and what was best.

Every call of the auction is priced where it was made, as the caller could see it
(``analyzer.questions.review.review_calls``): *before* is the best call's expected net points,
*after* the call made's, over deals that fit the calls heard. The play is valued double
dummy: the declaring side's tricks with perfect play from then on, counted over the whole hand
(tricks already won included); for each decision *before* is the value with the best choice
and *after* the value of the choice made, and the cost is the difference for the side that
decided, in tricks and in net points (that side's points minus the other side's, by the
variant's scoring table and the contract played). Judged:

- every call (pass, bid, order, name, alone or not, the ghost swap): its decision point,
- every card played (the solver's per-card values at that position; a renege is flagged with
  its 2-point penalty and not valued),
- the dealer's discard after picking up (knock, cutthroat): every card of the six,
- the cutthroat maker's five cards kept from ten with the dummy: every choice of five.

The cards exchanged in a 6-ask are shown with the contract's value but not compared with
alternatives.

With ``method="pimc"`` the cards are judged with only what the player could see at that moment
(sampled layouts of the unseen cards, as the PIMC player does); the decisions before play stay
double dummy.

``review_records`` runs a file of records (JSON lines), ``all_decisions`` gathers their
decisions and ``summarise`` turns them into a table by decision type (how often each cost
something, and how much).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from kernels.cards import codes as K
from kernels.cards import layout as L
from kernels.deal.rng import STREAM_PLAY, stream_state
from kernels.play.pimc import sample_world
from kernels.slots import K as KNOW
from kernels.slots import M, R

from ...compute.effort import Effort
from ...compute.engine import replay
from ...compute.point import NothingToDecide, NotYourTurn
from ...compute.solver import card_values, solve_positions
from ...errors import UserError
from ...game.notation import SEATS, SUITS, format_card, format_hand
from ...game.record_points import card_points
from ...game.records import (
    Record,
    RecordError,
    contract_text,
    json_records,
    load_record,
    result_of,
)
from ...game.scoring import net_points
from ...game.seating import declaring_mask, tricks_needed
from ...game.variants import DUMMY
from ...strategy.defaults import DEFAULT_METHOD, REVIEW_WORLDS
from ..odds.answer import odds_at
from ..odds.play_model import PlayModel
from .review_calls import CALL_DEALS, call_rows

DECISION_COLUMNS = ["step", "kind", "seat", "trick", "choice", "best", "value_before",
                    "value_after", "cost_tricks", "cost_points", "note"]


@dataclass
class Review:
    """A reviewed hand: the record, the contract in words, the tricks needed, the double-dummy
    tricks at the first lead, the tricks taken, and one row per decision (``decisions``)."""

    record: Record
    contract: str
    need: int
    dd_tricks: int
    tricks: int
    decisions: pd.DataFrame
    notes: list = field(default_factory=list)
    method: str = DEFAULT_METHOD  # how the cards were judged (REVIEW_METHODS)

    @property
    def judged_by(self) -> str:
        """How the play's values were found, in words (the play table's title says it)."""
        return JUDGED_BY[self.method]

    @property
    def makeable(self) -> bool:
        """Whether the contract could be made with perfect play by everyone."""
        return self.dd_tricks >= self.need

    def to_dict(self) -> dict:
        """A JSON-ready dict (what ``euchre review --json`` prints)."""
        rec = self.record.rec
        return {"variant": self.record.rules.variant, "contract": self.contract,
                "declarer": SEATS[int(rec[R.DECLARER])], "trump": SUITS[int(rec[R.TRUMP])],
                "need": self.need, "dd_tricks_at_first_lead": self.dd_tricks,
                "makeable": self.makeable, "declarer_tricks": self.tricks,
                "result": result_of(self.record), "notes": self.notes,
                "method": self.method, "judged_by": self.judged_by,
                "decisions": [{k: (None if pd.isna(v) else v.item() if hasattr(v, "item")
                                   else v) for k, v in row.items()}
                              for row in self.decisions.to_dict(orient="records")]}


# ---------------------------------------------------------------------------- the hand


@dataclass
class _Hand:
    """The facts of a played hand the review needs, as plain numbers."""

    rules: object
    trump: int
    declarer: int
    contract: int
    hands: list  # natural masks at the first lead
    active: int
    decl: int
    leader: int

    def net(self, tricks: int, contract: int | None = None, seat: int | None = None) -> float:
        """Net points of ``seat`` (default: the declarer) when the declaring side takes
        ``tricks`` (``analyzer.game.scoring.net_points``)."""
        c = self.contract if contract is None else contract
        declaring = True if seat is None else bool((self.decl >> seat) & 1)
        return float(net_points(self.rules, c, tricks, declaring))


def _hand_of(record: Record) -> _Hand:
    rules, rec, hm = record.rules, record.rec, record.hm
    hands = [int(hm[M.PLAY + s]) for s in range(4)]
    active = sum(1 << s for s in range(4) if hands[s])
    declarer = int(rec[R.DECLARER])
    decl = declaring_mask(rules, declarer, active)
    return _Hand(rules, int(rec[R.TRUMP]), declarer, int(rec[R.CONTRACT]), hands, active,
                 decl, int(rec[R.FIRST_LEADER]))


def _need(record: Record) -> int:
    return tricks_needed(record.rules, int(record.rec[R.CONTRACT]))


def _exact(h: _Hand, hands_list, trumps, leaders, actives) -> np.ndarray:
    """Exact declaring-side tricks of whole hands from the first lead."""
    n = len(hands_list)
    answers, _ = solve_positions(h.rules, np.array(hands_list, dtype=np.uint64), trumps,
                                 leaders, actives, h.decl, np.full(n, -1))
    return answers.astype(np.int64)


class _At(NamedTuple):
    """Where a reviewed decision was: its step, its kind, the seat and the trick (None before
    the first)."""

    step: int
    kind: str
    seat: int
    trick: int | None


def _row(at: _At, choice, best, before, after, sign, cost_points, note="") -> dict:
    """A review row: the choice made and the best one, the declaring side's tricks to come
    before and after it (``sign`` +1 for that side), what it cost in points, a note."""
    step, kind, seat, trick = at
    return {"step": step, "kind": kind, "seat": SEATS[seat], "trick": trick, "choice": choice,
            "best": best, "value_before": before, "value_after": after,
            "cost_tricks": None if before is None or after is None else
            round(sign * (before - after) + 0.0, 3),
            "cost_points": cost_points + 0.0, "note": note}


def _side_sign(h: _Hand, seat: int) -> int:
    """+1 when ``seat`` is on the declaring side (it wants more declarer tricks), else -1."""
    return 1 if (h.decl >> seat) & 1 else -1


# ---------------------------------------------------------------------------- cards


def _positions(record: Record, h: _Hand) -> list:
    """Every card played: (trick, seat, card, hands before it, trick leader, cards already on
    the table, declaring-side tricks won before this trick)."""
    rec = record.rec
    hands = list(h.hands)
    positions = []
    won = 0
    for t in range(record.rules.hand_size):
        leader = int(rec[R.TRICK_LEADER + t])
        seat, table = leader, []
        for pos in range(4):
            card = int(rec[R.PLAYS + t * 4 + pos])
            if card < 0:
                break
            positions.append((t, seat, card, list(hands), leader, list(table), won))
            hands[seat] &= ~(1 << card)
            table.append(card)
            seat = (seat + 1) & 3
            while not (h.active >> seat) & 1:
                seat = (seat + 1) & 3
        if (h.decl >> int(rec[R.TRICK_WINNER + t])) & 1:
            won += 1
    return positions


def _values(rules, h: _Hand, hands, leaders, tables_list) -> np.ndarray:
    """Per-card values (natural card id -> declaring-side tricks to come) of many positions."""
    m = len(hands)
    tables = np.full((m, 4), -1, dtype=np.int64)
    for i, t in enumerate(tables_list):
        tables[i, :len(t)] = t
    values, _ = card_values(rules, np.array(hands, dtype=np.uint64), h.trump,
                            np.array(leaders), h.active, h.decl, tables)
    return values.astype(np.int64)


def _card_rows(record: Record, h: _Hand, step0: int) -> tuple[list, int]:
    positions = _positions(record, h)
    values = _values(record.rules, h, [p[3] for p in positions], [p[4] for p in positions],
                     [p[5] for p in positions])
    rows = []
    first_value = None
    for i, (t, seat, card, _, _, _, won_before) in enumerate(positions):
        v = values[i]
        legal = np.nonzero(v >= 0)[0]
        sign = _side_sign(h, seat)
        best_v = v[legal].max() if sign > 0 else v[legal].min()
        before = won_before + int(best_v)
        if first_value is None:
            first_value = before
        best_cards = [c for c in legal if v[c] == best_v]
        if v[card] < 0:
            rows.append(_renege_row(step0 + i, seat, t, card, best_cards, before, sign))
            continue
        after = won_before + int(v[card])
        cost_points = h.net(before, seat=seat) - h.net(after, seat=seat)
        best = "" if after == before else " ".join(format_card(c) for c in best_cards)
        rows.append(_row(_At(step0 + i, "card", seat, t + 1), format_card(card), best, before,
                         after, sign, cost_points))
    return rows, first_value


def _renege_row(step, seat, t, card, best_cards, before, sign) -> dict:
    return _row(_At(step, "card", seat, t + 1), format_card(card),
                " ".join(format_card(c) for c in best_cards), before, None, sign,
                float(K.RENEGE_PENALTY),
                f"renege: did not follow suit; the side loses {K.RENEGE_PENALTY} points")


# ---------------------------------------------------------------------------- pimc judging


def _knowledge(record: Record, h: _Hand, positions, i: int, norm) -> np.ndarray:
    """What the seat to play at position ``i`` can see, as a PIMC player knows it (slots
    ``kernels.slots.K``, masks normalised by ``norm``, the trump's row of ``to_norm``): the
    deck, every card played, the suits each seat has shown out of, the upcard in the
    dealer's hand while it is there, and the cards the seat knows are out of play (the
    turned-down upcard, its own discard, its old hand after a ghost swap)."""
    rec, hm = record.rec, record.hm
    _, seat, _, hands, _, _, _ = positions[i]
    know = np.zeros(KNOW.LEN, dtype=np.uint64)
    know[KNOW.UP_HOLDER] = np.uint64(K.NOBODY)
    played = 0
    for _, sj, cj, _, _, tab, _ in positions[:i]:
        played |= 1 << cj
        if tab and int(norm[cj]) >> 4 != int(norm[tab[0]]) >> 4:
            know[KNOW.VOIDS + sj] |= np.uint64(1 << (int(norm[tab[0]]) >> 4))
    up = int(rec[R.UPCARD])
    dealer = int(rec[R.DEALER])
    dead = 0
    if up >= 0 and record.rules.has_upcard:
        if rec[R.DEALER_DISCARD] >= 0:  # the dealer picked it up: everyone saw it go there
            if (hands[dealer] >> up) & 1:
                know[KNOW.UP_HOLDER] = np.uint64(dealer)
                know[KNOW.UPCARD] = np.uint64(norm[up])
            if seat == dealer:
                dead |= 1 << int(rec[R.DEALER_DISCARD])
        else:
            dead |= 1 << up  # turned down
    if rec[R.SWAP_SEAT] == seat:
        dead |= int(hm[M.DEAD]) & ~int(hm[M.DEALT + seat])
    deck = int(hm[M.KITTY])
    for s in range(4):
        deck |= int(hm[M.DEALT + s])
    for slot, mask in ((KNOW.DECK, deck), (KNOW.PLAYED, played), (KNOW.DEAD + seat, dead)):
        know[slot] = L.normalise_mask(np.uint64(mask), norm)
    return know


def _sample_worlds(state, h: _Hand, hands, seat, know, layout, worlds) -> list:
    """``worlds`` layouts (natural masks) of the hands ``seat`` cannot see that agree with
    what it knows (``know`` of :func:`_knowledge`), drawn by the PIMC players' own sampler
    (``kernels.play.pimc.sample_world``) from the generator ``state``; ``layout`` the trump's rows
    ``(to_norm, from_norm)``."""
    norm, natural = layout
    played = np.array([L.normalise_mask(np.uint64(m), norm) for m in hands], dtype=np.uint64)
    out = np.zeros(4, dtype=np.uint64)
    worlds_out = []
    for _ in range(worlds):
        sample_world(state, seat, played, h.active, know, out)
        worlds_out.append([int(L.denormalise_mask(out[s], natural)) if (h.active >> s) & 1
                           else 0 for s in range(4)])
    return worlds_out


# how a review judges each card: dd on the true deal; pimc and analyzer each on worlds that fit
# what its player saw, played out double dummy (pimc) or by the analyzer's card player
REVIEW_METHODS = ("dd", "pimc", "analyzer")
REVIEW_PLAY = {"pimc": "dd", "analyzer": "analyzer"}
JUDGED_BY = {"dd": "double dummy",
             "pimc": "each card on worlds that fit what its player saw, the rest double dummy",
             "analyzer": "each card on worlds that fit what its player saw, the rest as the "
                         "analyzer's card player plays it"}


def _pimc_card_rows(record: Record, h: _Hand, judge: tuple) -> list:
    """Each card judged as its player could see it, by the odds code (``odds_at`` at the
    card's decision point, :func:`analyzer.game.record_points.card_points`, on ``worlds``
    deals that fit the calls heard and the cards played, the rest played by ``judge``'s
    method (worlds, seed, others, method): the same values ``euchre odds --played ...
    --deals WORLDS --seed SEED --method METHOD`` gives. A point the
    questions cannot state yet (a lone defender's or a ghost swapper's hand, an n-asker's
    after the exchange, a renege before it) is judged on the PIMC players' own sampler's worlds
    instead, and says so."""
    worlds, seed = judge[:2]
    positions = _positions(record, h)
    points = card_points(record)
    asked = record.rec[R.ASK_GIVE] >= 0
    rows = []
    sampled = None
    for i, (t, seat, card, *_) in enumerate(positions):
        try:
            if asked and seat == h.declarer:
                raise UserError("the odds question cannot hold an asker's hand after the "
                                "exchange")
            rows.append(_odds_card_row(record, h, points[i], (i, t, card), judge))
        except UserError as e:
            sampled = sampled or _sampled_card_rows(record, h, worlds, seed)
            row = dict(sampled[i])
            row["note"] += f" (sampled: {e})" if "renege" not in row["note"] else ""
            rows.append(row)
    return rows


# the odds' errors when no deal fits the calls heard under the others' strategy (a record's
# calls need not be any strategy's): the card is then priced without inference
INFERENCE_FAILED = ("no deal fits", "no layout meets")


def _odds_card_row(record: Record, h: _Hand, point, played: tuple, judge: tuple) -> dict:
    """The review row of a card ``played`` (position, trick, card) priced at its decision
    point ``point`` as ``judge`` (worlds, seed, others, method) says; UserError when the
    point cannot be asked."""
    (i, t, card), (worlds, seed, others, method) = played, judge
    seat, n = point.seat, record.rules.hand_size
    effort = Effort(worlds, seed=seed)
    try:
        result = odds_at(point, PlayModel(others, method), effort, play_check=False)
    except (UserError, NotYourTurn, NothingToDecide) as e:
        if isinstance(e, UserError) and any(w in str(e) for w in INFERENCE_FAILED):
            result = odds_at(point, PlayModel(others, method, infer=False), effort,
                             play_check=False)
        else:
            raise UserError(str(e)) from None
    if result.interrupted:  # a shortened estimate would pass for a whole one
        raise KeyboardInterrupt
    table = result.details  # a row per option, in the order of result.choices
    cards = [o.card for o in result.choices]
    ours = (h.decl >> seat) & 1
    decl_tricks = table["tricks"].to_numpy() if ours else n - table["tricks"].to_numpy()
    sign = _side_sign(h, seat)
    ev = table["ev"].to_numpy()
    j = int(np.argmax(ev + 1e-9 * table["tricks"].to_numpy()))
    how = f"{result.deals:,} " + (("layout" if result.deals == 1 else "layouts") + ", every one"
                                  if result.exact else "worlds")
    if card not in cards:
        return _renege_row(i, seat, t, card, [cards[j]], round(float(decl_tricks[j]), 3), sign)
    k = cards.index(card)
    cost_points = max(0.0, float(ev[j] - ev[k]))
    costly = cost_points > 1e-9 or sign * (decl_tricks[j] - decl_tricks[k]) > 1e-9
    return _row(_At(i, "card", seat, t + 1), format_card(card),
                format_card(cards[j]) if costly else "", round(float(decl_tricks[j]), 3),
                round(float(decl_tricks[k]), 3), sign, round(cost_points, 3), how)


def _sampled_card_rows(record: Record, h: _Hand, worlds: int, seed: int) -> list:
    rules = record.rules
    positions = _positions(record, h)
    to_norm, from_norm = rules.layout
    layout = (to_norm[h.trump], from_norm[h.trump])
    all_hands, leaders, tables = [], [], []
    for i, (_, seat, _, hands, leader, table, _) in enumerate(positions):
        know = _knowledge(record, h, positions, i, layout[0])
        state = stream_state(seed, STREAM_PLAY, i)
        for world in _sample_worlds(state, h, hands, seat, know, layout, worlds):
            all_hands.append(world)
            leaders.append(leader)
            tables.append(table)
    values = _values(rules, h, all_hands, leaders, tables).reshape(len(positions), worlds, 64)
    rows = []
    for i, (t, seat, card, _, _, _, won) in enumerate(positions):
        v = values[i]
        legal = np.nonzero(v[0] >= 0)[0]
        sign = _side_sign(h, seat)
        tricks = v[:, legal].mean(axis=0) + won
        net = np.array([[h.net(won + int(x), seat=seat) for x in v[:, c]]
                        for c in legal]).mean(axis=1)
        j = int(np.argmax(net + 1e-9 * sign * tricks))
        if card not in legal:
            rows.append(_renege_row(i, seat, t, card, [int(legal[j])], float(tricks[j]), sign))
            continue
        k = int(np.nonzero(legal == card)[0][0])
        cost_points = max(0.0, net[j] - net[k])
        costly = cost_points > 1e-9 or sign * (tricks[j] - tricks[k]) > 1e-9
        best = format_card(int(legal[j])) if costly else ""
        rows.append(_row(_At(i, "card", seat, t + 1), format_card(card), best,
                         round(float(tricks[j]), 3), round(float(tricks[k]), 3), sign,
                         round(cost_points, 3), f"{worlds} worlds"))
    return rows


# ---------------------------------------------------------------------------- decisions


def _discard_row(record: Record, h: _Hand, step: int) -> dict | None:
    rec = record.rec
    discard = int(rec[R.DEALER_DISCARD])
    if discard < 0:
        return None
    dealer = int(rec[R.DEALER])
    six = h.hands[dealer] | (1 << discard)
    options = [c for c in range(64) if (six >> c) & 1]
    layouts = []
    for c in options:
        hs = list(h.hands)
        hs[dealer] = six & ~(1 << c)
        layouts.append(hs)
    tricks = dict(zip(options, _exact(h, layouts, h.trump, h.leader, h.active).tolist(),
                      strict=True))
    sign = _side_sign(h, dealer)
    best = max(options, key=lambda c: (sign * tricks[c], c == discard))
    return _row(_At(step, "discard", dealer, None), format_card(discard),
                "" if tricks[best] == tricks[discard] else format_card(best), tricks[best],
                tricks[discard], sign,
                h.net(tricks[best], seat=dealer) - h.net(tricks[discard], seat=dealer))


def _dummy_row(record: Record, h: _Hand, step: int) -> dict | None:
    rec, hm = record.rec, record.hm
    if record.rules.seat_w != DUMMY or rec[R.CONTRACT] & K.CT_MAKER_ALONE:
        return None
    dropped = int(hm[M.DUMMY_DISCARD])
    if not dropped:
        return None
    ten = h.hands[h.declarer] | dropped
    cards = [c for c in range(64) if (ten >> c) & 1]
    keeps = [sum(1 << c for c in combo) for combo in itertools.combinations(cards, 5)]
    layouts = []
    for keep in keeps:
        hs = list(h.hands)
        hs[h.declarer] = keep
        layouts.append(hs)
    tricks = _exact(h, layouts, h.trump, h.leader, h.active)
    actual = int(tricks[keeps.index(h.hands[h.declarer])])
    i = int(np.argmax(tricks))
    best = int(tricks[i])
    return _row(_At(step, "keep five", h.declarer, None), format_hand(h.hands[h.declarer]),
                "" if best == actual else format_hand(keeps[i]), best, actual,
                1, h.net(best) - h.net(actual), f"best five of ten ({len(keeps)} choices)")


# ---------------------------------------------------------------------------- API


def review(record: Record, method: str = DEFAULT_METHOD, worlds: int = REVIEW_WORLDS,
           seed: int = 0, call_deals: int = CALL_DEALS, others: str = "analyzer") -> Review:
    """Review a loaded record (see the module docstring). With ``method="pimc"`` each card
    is judged as the player could see it: averaged over ``worlds`` layouts of the cards it
    could not see that agree with what it had seen (its hand, the cards played, the suits
    each player showed out of, the upcard the dealer took); the values are then average
    tricks and the cost average points. Each call is priced on ``call_deals`` deals (0: the
    calls are not priced), later calls by ``others``. Raises RecordError for a record that
    is illegal or was redealt, UserError for an unknown method."""
    if method not in REVIEW_METHODS:
        raise UserError(f"unknown review method {method!r}: choose "
                        f"{', '.join(REVIEW_METHODS)}")
    record = replay(record)
    rec = record.rec
    if rec[R.STATUS] != K.ST_PLAYED:
        raise RecordError("the hand was redealt, so there is no play to review")
    h = _hand_of(record)
    cards, dd_tricks = _card_rows(record, h, 0)
    rows = call_rows(record, call_deals, others, seed, REVIEW_PLAY.get(method, method)) \
        if call_deals else []
    for make in (_dummy_row, _discard_row):
        row = make(record, h, 0)
        if row is not None:
            rows.append(row)
    notes = []
    if rec[R.ASK_GIVE] >= 0:
        notes.append(f"the 6-ask exchange (gave {format_card(int(rec[R.ASK_GIVE]))}, received "
                     f"{format_card(int(rec[R.ASK_RECEIVE]))}) is not compared with others")
    rows += cards if method == "dd" else _pimc_card_rows(record, h, (worlds, seed, others,
                                                                     REVIEW_PLAY[method]))
    for i, row in enumerate(rows):
        row["step"] = i + 1
    frame = pd.DataFrame(rows, columns=DECISION_COLUMNS)
    frame["trick"] = frame["trick"].astype("Int64")  # empty for decisions before play
    return Review(record, contract_text(record), _need(record), dd_tricks,
                  int(rec[R.DECL_TRICKS]), frame, notes, method)


def review_records(path: Path, method: str = DEFAULT_METHOD, worlds: int = REVIEW_WORLDS,
                   seed: int = 0, call_deals: int = CALL_DEALS, others: str = "analyzer"
                   ) -> Iterator[tuple[int, Review | str]]:
    """Review each record of a JSON-lines file (a path, or a text handle already open such as
    standard input's text): ``(line, Review)``, or ``(line, message)`` for a record that
    cannot be reviewed. Raises UserError when the file cannot be read."""
    if hasattr(path, "read"):
        handle = path
    else:
        try:
            handle = open(path, encoding="utf-8")
        except OSError as e:
            raise UserError(f"cannot read {path}: {e.strerror or e}") from None
    with handle:
        try:
            for line, value in json_records(handle):
                if isinstance(value, UserError):
                    yield line, str(value)
                    continue
                try:
                    yield line, review(load_record(value), method, worlds, seed, call_deals,
                                       others)
                except UserError as e:
                    yield line, str(e)
        except UnicodeDecodeError:
            raise UserError(f"{path} is not a UTF-8 text file") from None


def reviewed(path: Path, method: str = DEFAULT_METHOD, worlds: int = REVIEW_WORLDS,
             seed: int = 0, variant: str | None = None,
             on_skipped: Callable[[int, str], None] | None = None,
             call_deals: int = CALL_DEALS, others: str = "analyzer") -> list:
    """``(line, Review)`` of every record of a JSON-lines file (a path or an open text handle)
    that can be reviewed (and is of
    ``variant`` when given); ``on_skipped(line, why)`` hears each record skipped."""
    good = []
    for line, r in review_records(path, method, worlds, seed, call_deals, others):
        if isinstance(r, str):
            why = r
        elif variant is not None and r.record.rules.variant != variant:
            why = f"a {r.record.rules.variant} hand in a {variant} report"
        else:
            good.append((line, r))
            continue
        if on_skipped is not None:
            on_skipped(line, why)
    return good


def all_decisions(reviews: list[tuple[int, Review]]) -> pd.DataFrame:
    """Every decision of a batch, with the record's line number and contract."""
    frames = []
    for line, r in reviews:
        d = r.decisions.copy()
        d.insert(0, "record_line", line)
        d.insert(1, "contract", r.contract)
        frames.append(d)
    if not frames:
        return pd.DataFrame(columns=["record_line", "contract"] + DECISION_COLUMNS)
    return pd.concat(frames, ignore_index=True)


def summarise(decisions: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(by_type, costliest)`` of a batch's ``all_decisions``: per decision type, how many
    were made, how many cost something, and the tricks and points lost in total and per
    decision; and the 20 single decisions that cost the most points."""
    if decisions.empty:
        empty = pd.DataFrame(columns=["kind", "decisions", "costly", "tricks_lost",
                                      "points_lost", "points_lost_per_decision"])
        return empty, decisions
    all_rows = decisions.assign(costly=(decisions["cost_points"] > 0)
                                | (decisions["cost_tricks"].fillna(0) > 0))
    by_type = all_rows.groupby("kind", as_index=False).agg(
        decisions=("step", "size"), costly=("costly", "sum"),
        tricks_lost=("cost_tricks", "sum"), points_lost=("cost_points", "sum"))
    by_type["points_lost_per_decision"] = by_type["points_lost"] / by_type["decisions"]
    by_type = by_type.sort_values("points_lost", ascending=False, ignore_index=True)
    costliest = all_rows[all_rows["costly"]].sort_values(
        ["cost_points", "cost_tricks"], ascending=False).head(20).drop(columns="costly")
    return by_type, costliest.reset_index(drop=True)
