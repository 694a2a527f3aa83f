"""Pricing a decision: every legal option at a decision point, each played out to the end of
the hand on the same deals (common random numbers).

The unseen cards are dealt many times (or every layout is enumerated), with inference: a deal
counts only if every other seat, bidding by the ``others`` strategy, makes the calls heard
(the rest are dealt again from the same stream; the acceptance rate is reported). On each deal
each option is made, every later call of every seat (the player's own included) is made by the
``others`` strategy, and the cards are played by the method (``dd``: the declaring side's
tricks with everyone playing double dummy). An option's value is the player's mean net points
(``analyzer.game.scoring.net_points``; an all-pass redeal is worth 0). The best option is
compared with the runner-up on the paired differences of the same deals: when that
difference's 95% interval holds 0, it is too close to call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from kernels.cards import codes as K
from kernels.cards import layout as L
from kernels.deal.dealing import OP_LE
from kernels.slots import S

from ...compute.point import OpenPoint, PointState, open_point
from ...compute.query import DealQuery, no_constraints
from ...errors import UserError
from ...game.decision_point import DecisionPoint, dealer_took_upcard, ghost_taken, n_asker
from ...game.game_score import unit_of
from ...game.notation import SEATS, format_card
from ...game.outcomes import PROBABILITIES, outcome_arrays, unit_points
from ...game.seating import partner, seating
from ...game.variants import LADDER
from ...stats import Z95, mean_interval, percent_text, wilson
from ...strategy.defaults import TREMBLE
from ..equity.build import equity_table
from .options import option_label, options_array, point_options


@dataclass
class Decision:
    """A decision point ready to run: the point opened (``compute.point.OpenPoint``), its
    query (deals, options, trick-table scenarios) and the options in order; an exact run
    that weighs its layouts by the chance of their calls (:func:`layout_weights`) has the
    base of the weights (``likeliest``)."""

    point: DecisionPoint
    opened: OpenPoint
    query: DealQuery
    options: list
    tricks: dict = field(default_factory=dict)  # trump -> scenario of the trick table
    likeliest: int | None = None  # how unlikely the likeliest layout is (R.UNLIKELY)

    @property
    def infers(self) -> bool:
        """Whether its deals are dealt to fit the calls heard."""
        return self.opened.infers

    @property
    def tremble(self) -> float:
        """The chance, in inference, of a call the others' strategy would not make."""
        return self.opened.tremble


def point_query(point: DecisionPoint, opened: OpenPoint) -> DealQuery:
    """The deals of an opened decision point: the player's cards known as dealt (and the card
    an n-asker was passed, in its partner's hand; the ghost hand, when it took it), the upcard
    set aside, the other hands (the ghost hand or dummy at W; after a swap the swapper's
    cards played are the ghost hand's) and the kitty unseen; the calls heard forced and (with
    inference) checked against the strategies of the seats that made them (set on the query
    by the caller)."""
    rules = point.rules
    n = rules.hand_size
    known = np.zeros(4, dtype=np.uint64)
    known[point.seat] = np.uint64(point.dealt_hand())
    known[3] |= np.uint64(point.dummy)  # a cutthroat maker who took it has seen the dummy
    known[partner(point.seat)] |= np.uint64(point.received)  # an n-asker's partner held it
    swapper, ghost = ghost_taken(point)
    known[3] |= np.uint64(ghost)  # the player who swapped knows the ghost hand as dealt
    up = (1 << point.upcard) if point.upcard >= 0 else 0
    for seat, card in point.played:  # a seat held what it played (the dealer: not the upcard;
        if seat != point.seat and (1 << card) != up:  # the swapper: the ghost hand's cards)
            known[3 if seat == swapper else seat] |= np.uint64(1 << card)
    asker, passed = passed_trumps(point, opened.state)
    if passed:
        known[asker] &= ~np.uint64(passed)
    seen = int(np.bitwise_or.reduce(known)) | up | point.discarded
    deck = int(L.deck_mask(rules.deck))
    unseen = [c for c in range(64) if (deck >> c) & 1 and not (seen >> c) & 1]
    others = [s for s in range(4) if s != point.seat]
    sizes = [n - int(known[s]).bit_count() for s in others]
    if min(sizes) < 0:
        raise UserError(f"--played: {SEATS[others[sizes.index(min(sizes))]]} played more cards "
                        f"than a hand holds")
    if len(unseen) > sum(sizes):
        sizes.append(len(unseen) - sum(sizes))
        others.append(-1)  # the kitty, or the cards the ladder dealer discarded
    q = DealQuery(rules, known, np.array(unseen, dtype=np.int64),
                  np.array(sizes, dtype=np.int64), np.array(others, dtype=np.int64))
    q.point = opened.row
    q.cons = void_rows(point, opened.state, others, swapper, (asker, passed))
    return q


def passed_trumps(point: DecisionPoint, state) -> tuple[int, int]:
    """Another seat's n-ask seen from the table: the asker and the trumps it has played (a
    natural mask; 0 for none, or when the asker is the player, who knows its card). One of
    them may be its partner's best trump, passed to it: they are dealt to the asker or, at
    most one, to its partner (:func:`passed_rows`), whose best trump the engine checks it
    is."""
    asker = n_asker(point)
    if asker < 0 or asker == point.seat or state.trump < 0:
        return asker, 0
    to_norm, _ = point.rules.layout
    return asker, sum(1 << c for seat, c in point.played if seat == asker and
                      int(to_norm[state.trump, c]) >> 4 == L.TRUMP_SLOT)


def passed_rows(asker: int, passed: int, groups: list[int]) -> list[tuple]:
    """Constraint rows for an n-asker's trumps played (:func:`passed_trumps`): none in a
    group but the asker's and its partner's, at most one in its partner's."""
    if not passed:
        return []
    return [(g, passed, OP_LE, 1 if seat == partner(asker) else 0)
            for g, seat in enumerate(groups) if seat != asker]


def void_rows(point: DecisionPoint, state, groups: list[int], swapper: int,
              asked: tuple[int, int]) -> tuple:
    """Constraint rows (``kernels.deal.dealing``) for the suits each seat has shown out of: none of
    them among its unseen cards (the dealer who took the upcard may have discarded one: at
    most one; the ``swapper``'s are the ghost hand's; an n-asker's trumps played may be among
    its own), and the rows of those trumps (``asked``: the asker and them,
    :func:`passed_trumps`; :func:`passed_rows`). A deal that breaks one is refused by the
    engine too, when it plays the cards heard: the rows only spare the tries."""
    asker, passed = asked
    rows = passed_rows(asker, passed, groups)
    for seat in range(4):
        holder = 3 if seat == swapper else seat  # the swapper holds the ghost hand
        if seat != point.seat and state.voids[seat] and holder in groups:
            took = seat == point.dealer and dealer_took_upcard(point)
            mask = state.voids[seat] & ~(passed if seat == asker else 0)
            rows.append((groups.index(holder), mask, OP_LE, 1 if took else 0))
    if not rows:
        return no_constraints()
    g, m, o, v = zip(*rows, strict=True)
    return (np.array(g, np.int64), np.array(m, np.uint64), np.array(o, np.int64),
            np.array(v, np.int64))


def prepare(point: DecisionPoint, solve: bool, infer: bool = True, tremble: float = TREMBLE,
            trumps: list | None = None, bids: set | None = None,
            infer_play: bool = False, state: PointState | None = None) -> Decision:
    """The decision at ``point`` opened (one trip to the engine, none when ``state`` says
    what is decided there already), its query, its legal options (see
    :func:`point_options`) and, at a ladder auction's call, the trick table: the player's
    side declaring each trump. ``infer_play`` weighs the deals by the cards heard played too.
    The seats' strategies are set on the query after."""
    opened = open_point(point, solve, infer, tremble, infer_play, state)
    _check_tricks(point, opened.state)
    options = point_options(point, opened.state, trumps, bids)
    q = point_query(point, opened)
    q.options = options_array(options)
    d = Decision(point, opened, q, options)
    rules = point.rules
    if rules.auction == LADDER and opened.state.kind == "call":
        for t in (trumps or range(4)):
            d.tricks[t] = q.add(t, point.seat, *seating(rules, point.seat), point.seat)
    return d


def inferred(d: Decision) -> list[str]:
    """What the cards played tell of the others' hands, in words: the suits each seat has
    shown out of (trump by that name), and where the upcard is when the dealer took it."""
    point, state = d.point, d.opened.state
    if state.kind != "card":
        return []
    to_norm, _ = point.rules.layout
    out = []
    for seat in range(4):
        mask = state.voids[seat]
        if seat == point.seat or not mask:
            continue
        names = sorted({"trump" if int(to_norm[state.trump, c]) >> 4 == L.TRUMP_SLOT
                        else SUITS_WORDS[L.natural_suit(c)] for c in range(64) if mask >> c & 1})
        out.append(f"{SEATS[seat]} has no {' and no '.join(names)} (it showed out)")
    up = point.upcard
    if up >= 0 and dealer_took_upcard(point) and point.seat != point.dealer and \
            not any(c == up for _, c in point.played):
        out.append(f"the dealer {SEATS[point.dealer]} holds the upcard {format_card(up)} (its "
                   f"discard is unseen: its strategy's, deal by deal, of the cards it has not "
                   f"played)")
    if d.opened.infers_play:
        out.append(f"each other seat's cards played weigh the deals: the heuristic player's "
                   f"card, or another legal one {percent_text(d.opened.tremble)} of the time "
                   f"(--infer-play)")
    return out


SUITS_WORDS = ("clubs", "diamonds", "hearts", "spades")


def _check_tricks(point: DecisionPoint, state) -> None:
    """UserError when the tricks of ``--played`` as written (``;`` between them) are not the
    engine's: every trick but the last has a card of each seat that plays."""
    n = state.playing
    for t, size in enumerate(point.trick_sizes, start=1):
        if size > n or (size < n and t < len(point.trick_sizes)):
            raise UserError(f"--played: trick {t} has {size} cards; {n} seats play this hand")


def played_as(d: Decision, *, solve: bool | None = None, infer: bool | None = None,
              strategies: tuple | None = None, tremble: float | None = None) -> Decision:
    """A copy of ``d`` on the same deals and options with its hands solved or played
    (``solve``), with or without inference (``infer``) or another ``tremble``, or with other
    seats' ``strategies`` (``(policies, params)``): the same question asked another way,
    without a second trip to the engine."""
    opened = d.opened
    if solve is not None:
        opened = opened.with_solving(solve)
    if infer is not None or tremble is not None:
        keep = opened.infers if infer is None else infer
        opened = opened.with_inference(keep, (opened.tremble if tremble is None else tremble)
                                       if keep else 0.0)
    query = replace(d.query, point=opened.row, scenarios=list(d.query.scenarios))
    if strategies is not None:
        query.policies, query.params = strategies
    return Decision(d.point, opened, query, list(d.options), dict(d.tricks), d.likeliest)


def keep_options(d: Decision, labels, scenarios: bool = False) -> Decision:
    """A copy of ``d`` with only the options whose (name, trump, detail) is in ``labels`` (in
    ``d``'s order) and, unless ``scenarios``, no trick-table scenarios: e.g. each call at the
    detail another run chose for it."""
    keep = set(labels)
    options = [o for o in d.options if (o.name, o.trump_text, o.detail) in keep]
    query = replace(d.query, options=options_array(options),
                    scenarios=list(d.query.scenarios) if scenarios else [])
    return Decision(d.point, d.opened, query, options, dict(d.tricks) if scenarios else {},
                    d.likeliest)


def keep_tricks(d: Decision, trumps) -> Decision:
    """A copy of ``d`` whose trick table plays only the rows of ``trumps`` (in ``d``'s
    order). Each row kept keeps its number among the question's rows (``S.NUMBER`` of
    ``S.OF``), so it is played exactly as in a run of every row."""
    scenarios = d.query.scenarios
    assert sorted(d.tricks.values()) == list(range(len(scenarios)))  # every row a trump's
    rows, tricks = [], {}
    for trump, s in d.tricks.items():
        if trump in trumps:
            row = list(scenarios[s])
            if row[S.OF] == 0:
                row[S.NUMBER], row[S.OF] = s, len(scenarios)
            tricks[trump] = len(rows)
            rows.append(row)
    return Decision(d.point, d.opened, replace(d.query, scenarios=rows), list(d.options),
                    tricks, d.likeliest)


def option_labels(d: Decision, indices) -> list[tuple]:
    """The (name, trump, detail) of the options ``indices`` of ``d``."""
    return [(d.options[i].name, d.options[i].trump_text, d.options[i].detail) for i in indices]


# ---------------------------------------------------------------------------- counting


def chunk_counts(d: Decision, chunk) -> dict:
    """One chunk's sums: per option the counts of each outcome, the net points, their squares
    and products (for paired differences), the cards received in an n-ask; the trick
    distribution of each trick-table scenario; deals accepted and tried. In an exact run
    that weighs its layouts each sum is of the layouts' weights (:func:`layout_weights`):
    ``accepted`` is their total, ``layouts`` how many were kept."""
    ok = chunk.ok
    w = layout_weights(d, chunk)
    o = outcome_arrays(d.point.rules, d.point.seat, chunk.results[ok])
    net = o["net"]
    n = d.point.rules.hand_size
    counts = {k: _summed(o[k], w) for k in PROBABILITIES + ("failed",)}
    # einsum, not ``net.T @ net``: BLAS's threads keep spinning after the product and take
    # the cores from the kernel's next chunk (a default query ran 8% longer); every term is
    # a multiple of 1/4 (times a weight's grain) far below 2**53, so the sums are exact in
    # any order
    counts.update(net=_summed(net, w), tricks=_summed(o["tricks"], w),
                  products=_products(net, w),
                  accepted=np.int64(ok.sum()) if w is None else w.sum(),
                  tries=np.int64(np.abs(chunk.tries).sum()),
                  trembled=np.int64((chunk.trembled[ok] > 0).sum()),
                  unmet=np.int64((~ok).sum()), nodes=np.int64(chunk.nodes.sum()))
    if w is not None:
        counts.update(layouts=np.int64((w > 0).sum()),
                      trembled_weight=w[chunk.trembled[ok] > 0].sum())
    if d.point.score:
        win = game_chances(d, chunk.results[ok])
        counts.update(win=_summed(win, w), win_products=_products(win, w, WEIGHED_WIN_GRAIN))
    aux = o["received"]
    counts["received"] = np.stack([np.bincount(aux[:, i], weights=w, minlength=64)
                                   for i in range(net.shape[1])]) if net.shape[1] else \
        np.zeros((0, 64), dtype=np.int64)
    scen = chunk.outcomes[ok].astype(np.int64)
    counts["hist"] = np.stack([np.bincount(scen[:, s], weights=w, minlength=n + 1)[:n + 1]
                               for s in range(scen.shape[1])]) if scen.shape[1] else \
        np.zeros((0, n + 1), dtype=np.int64)
    return counts


# An exact run weighs each layout by the chance of the calls (and cards) it fits only as
# trembles, against the likeliest layout's: a weight of 1 down to this grain (rounded to it,
# so the weighted sums are exact in any order, whatever the threads and the chunks)
WEIGHT_GRAIN = 2.0 ** -16
WEIGHED_WIN_GRAIN = 2.0 ** -32  # a weighted product of two chances of winning, rounded


def layout_weights(d: Decision, chunk) -> np.ndarray | None:
    """Each accepted layout's weight in an exact run that weighs them (``d.likeliest`` set:
    inference with a tremble), the chance of its calls against the likeliest layout's, on a
    grain of ``WEIGHT_GRAIN``; None when every deal counts once."""
    if d.likeliest is None:
        return None
    unlikely = chunk.unlikely[chunk.ok] - d.likeliest
    return np.round(np.exp2(-unlikely / K.UNLIKELY_STEP) / WEIGHT_GRAIN) * WEIGHT_GRAIN


def _summed(values: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Per option the sum over the deals of ``values`` ``[deals, options]`` (weighed by
    ``w`` when given; counts stay integers without)."""
    if w is None:
        return values.sum(axis=0) if values.dtype != bool else \
            values.sum(axis=0).astype(np.int64)
    return (values * w[:, None]).sum(axis=0)


def _products(values: np.ndarray, w: np.ndarray | None, grain: float | None = None
              ) -> np.ndarray:
    """The sums over the deals of each two options' ``values`` multiplied (weighed by ``w``;
    each weighed term rounded to ``grain`` when given, so the sums stay exact)."""
    if w is None:
        return np.einsum("di,dj->ij", values, values)
    terms = np.einsum("d,di,dj->dij", w, values, values)
    if grain is not None:
        terms = np.round(terms / grain) * grain
    return terms.sum(axis=0)


# a deal's chance of winning the game is kept to this grain, so its sums (and their squares'
# sums) are exact in any order: the same numbers whatever the threads or the pieces
WIN_GRAIN = 2.0 ** -16


def game_chances(d: Decision, results: np.ndarray) -> np.ndarray:
    """Per result (``results[deals, options, X.LEN]``) the player's chance of winning the
    game after the hand, from the point's score (``d.point.score``) by the match-equity
    table (``analyzer.questions.equity.build``); in ghost the mean of the two ways the defenders'
    tricks may split. Floats ``[deals, options]`` on a grain of ``WIN_GRAIN``."""
    point, rules = d.point, d.point.rules
    table = equity_table(rules)
    me = unit_of(rules, point.seat)
    one, other = unit_points(rules, results)
    win = table.after_hand(point.score, point.dealer, one)[..., me]
    if other is not one:
        win = (win + table.after_hand(point.score, point.dealer, other)[..., me]) / 2
    return np.round(win / WIN_GRAIN) * WIN_GRAIN


def value_counts(counts: dict) -> tuple[np.ndarray, np.ndarray]:
    """What the options are compared by: per option the sums and their products' sums of
    the chance of winning the game when the question has a score, else of net points."""
    if "win" in counts:
        return counts["win"], counts["win_products"]
    return counts["net"], counts["products"]


# chunk_counts' rows per option
PER_OPTION = PROBABILITIES + ("failed", "net", "tricks", "received")


def restrict_counts(counts: dict, kept: list[int]) -> None:
    """Make ``counts`` (:func:`chunk_counts`' sums) those of the options ``kept`` only, in
    that order, in place: what the same deals give when only they are played."""
    for key in PER_OPTION + (("win",) if "win" in counts else ()):
        counts[key] = counts[key][kept]
    for key in ("products", "win_products"):
        if key in counts:
            counts[key] = counts[key][np.ix_(kept, kept)]


# ---------------------------------------------------------------------------- summary


def _prob(name: str, k, total, exact: bool) -> dict:
    if exact:
        p = k / total if total else math.nan
        return {f"p_{name}": p, f"p_{name}_low": p, f"p_{name}_high": p}
    p, lo, hi = wilson(k, total)
    return {f"p_{name}": p, f"p_{name}_low": lo, f"p_{name}_high": hi}


def paired(counts: dict, a: int, b: int, exact: bool = False, z: float = Z95
           ) -> tuple[float, float, float]:
    """``(mean, low, high)`` of option ``a``'s value minus option ``b``'s (net points, or
    with a score the chance of winning the game: :func:`value_counts`), paired on the same
    deals, the interval ``z`` standard errors each side (95% by default; it collapses in
    exact mode)."""
    deals = counts["accepted"]
    s, p = value_counts(counts)
    total = s[a] - s[b]
    sq = p[a, a] - 2 * p[a, b] + p[b, b]
    mean, lo, hi = mean_interval(total, sq, deals, z)
    return (mean, mean, mean) if exact else (mean, lo, hi)


def best_per_call(d: Decision, counts: dict) -> list[int]:
    """The option indices that stand for the calls: for each call (its name and trump), the
    option with the most net points among its details (the dealer's discards, the 6-ask's
    card given away), in the options' order. A call is compared with other calls at its best
    detail; the details themselves are not calls — unless they are all the decision has (a
    dealer's discard once the auction is over): then every one stands for itself."""
    if len({(o.name, o.trump_text) for o in d.options}) == 1:
        return list(range(len(d.options)))
    best: dict = {}
    value = value_counts(counts)[0]
    for i, opt in enumerate(d.options):
        key = (opt.name, opt.trump_text)
        if key not in best or value[i] > value[best[key]]:
            best[key] = i
    return sorted(best.values())


def option_table(d: Decision, counts: dict, exact: bool, details: bool = False
                 ) -> pd.DataFrame:
    """One row per call at its best detail (``details``: one per option, every discard or
    card given): its value with interval, its difference from the best (paired), and the
    probability of each outcome, ours or theirs."""
    deals = float(counts["accepted"])
    best = int(np.argmax(value_counts(counts)[0])) if len(d.options) else 0
    shown = range(len(d.options)) if details else best_per_call(d, counts)
    rows = []
    for i in shown:
        opt = d.options[i]
        ev, lo, hi = mean_interval(counts["net"][i], counts["products"][i, i], deals)
        row = {"option": opt.name, "trump": opt.trump_text, "detail": opt.detail,
               "label": option_label(opt.name, opt.trump_text, opt.detail), "ev": ev,
               "ev_low": ev if exact else lo, "ev_high": ev if exact else hi,
               "tricks": float(counts["tricks"][i] / deals) if deals else math.nan}
        if "win" in counts:  # with a score: the chance of winning the game after the hand
            win, lo, hi = mean_interval(counts["win"][i], counts["win_products"][i, i], deals)
            row.update(p_win=win, p_win_low=win if exact else max(lo, 0.0),
                       p_win_high=win if exact else min(hi, 1.0))
        diff = paired(counts, i, best, exact)
        row.update(vs_best=diff[0], vs_best_low=diff[1], vs_best_high=diff[2])
        for name in PROBABILITIES:
            row.update(_prob(name, counts[name][i], deals, exact))
        received = counts["received"][i]
        if opt.call == K.ASK and received.sum():
            row["received_most"] = format_card(int(np.argmax(received)))
        rows.append(row)
    return pd.DataFrame(rows)


def verdict(d: Decision, counts: dict, exact: bool) -> dict:
    """The best call (at its best detail) against the runner-up call on the same deals: the
    difference with its 95% interval, and whether that interval holds 0 (too close to call).
    Every key is always there: the runner-up's are None when only one call is legal;
    ``same`` says the two came to the same net points on every deal (a verdict between them
    means nothing). ``best`` repeats ``call`` (its name until this release; kept for one
    release); ``sentence`` is the verdict as a player would say it."""
    if not d.options:
        return {}
    calls = best_per_call(d, counts)
    value = value_counts(counts)[0]
    order = sorted(calls, key=lambda i: -value[i])
    best = order[0]
    deals = max(1, counts["accepted"])
    out = {"call": d.options[best].name, "trump": d.options[best].trump_text,
           "detail": d.options[best].detail,
           "ev": float(counts["net"][best] / deals),
           "win": float(value[best] / deals) if "win" in counts else None,
           "runner_up": None, "runner_up_trump": None, "runner_up_detail": None,
           "margin": None, "margin_low": None, "margin_high": None, "too_close": None,
           "same": None}
    if len(order) > 1:
        second = order[1]
        diff, lo, hi = paired(counts, best, second, exact)
        close = diff <= 0 if exact else lo <= 0
        out.update(runner_up=d.options[second].name, runner_up_trump=d.options[second].trump_text,
                   runner_up_detail=d.options[second].detail, margin=diff, margin_low=lo,
                   margin_high=hi, too_close=bool(close),
                   same=bool(same_on_every_deal(counts, best, second)))
    out["best"] = out["call"]
    out["label"] = option_label(out["call"], out["trump"], out["detail"])
    out["runner_up_label"] = None if out["runner_up"] is None else option_label(
        out["runner_up"], out["runner_up_trump"], out["runner_up_detail"])
    out["sentence"] = verdict_sentence(out, exact)
    return out


def against_other_call(v: dict, table: pd.DataFrame, choices: list, exact: bool) -> str:
    """Verdict ``v``'s sentence, but when its runner-up is the best call itself alone (or
    with partner), against the next other call of ``table`` (the answer's rows, those
    dropped early too, by their "vs best": passing, most often, the question a player
    asks), then against the twin. ``choices``: the options (``CallOption``) of the rows."""
    code = {(o.name, o.trump_text, o.detail): (o.call, o.trump) for o in choices}
    best = code.get((v["call"], v["trump"], v["detail"]))
    twin = code.get((v["runner_up"], v["runner_up_trump"], v["runner_up_detail"]))
    if best is None or best[0] < 0 or twin != best:
        return v["sentence"]
    rows = [r for r in table.to_dict(orient="records")
            if code.get((r["option"], r["trump"], r["detail"])) != best]
    if not rows:
        return v["sentence"]
    row = max(rows, key=lambda r: r["vs_best"])
    other = {"runner_up_label": row["label"], "margin": -row["vs_best"],
             "too_close": bool(row["vs_best"] >= 0 if exact else row["vs_best_high"] >= 0),
             "same": row["vs_best_low"] == row["vs_best_high"] == 0}
    return verdict_sentence({**v, **other}, exact) + " " + _twin_clause(v, exact)


def _twin_clause(v: dict, exact: bool) -> str:
    """The best call against its twin (itself alone, or with partner), verdict ``v``'s
    runner-up, in a short sentence: ``Against order up alone S: 0.9 points a hand more;
    sure.``"""
    if v["same"]:
        return f"Against {v['runner_up_label']}: the same on every deal."
    sure = "" if exact else ("; too close to call" if v["too_close"] else "; sure")
    return f"Against {v['runner_up_label']}: {_margin_text(v, v['margin'])} more{sure}."


def same_on_every_deal(counts: dict, a: int, b: int) -> bool:
    """Whether options ``a`` and ``b`` came to the same value (:func:`value_counts`) on every
    deal (their paired differences are all 0: the sum of their squares is)."""
    s, p = value_counts(counts)
    return bool(s[a] == s[b] and p[a, a] - 2 * p[a, b] + p[b, b] == 0)


def verdict_sentence(v: dict, exact: bool = False, play_decides: tuple | None = None) -> str:
    """The verdict ``v`` (:func:`verdict`'s dict) as a player would say it: ``"Order up S:
    worth about 0.9 points a hand more than passing; sure."`` ``play_decides``: ``(label,
    margin)`` of the option another card play (by default heuristic play, checking double
    dummy) prefers on the same deals when it is not ``v``'s (by ``margin``), and optionally
    how each was played in words (``"with perfect play"``, ``"with realistic play"``): the
    sentence then says first that the card play decides, never "sure"."""
    best = v["label"][:1].upper() + v["label"][1:]
    if v["runner_up"] is None:
        return f"{best}: the only legal choice here."
    if play_decides is not None:
        other, by, *how = play_decides
        ours, theirs = how or ("with perfect play", "with realistic play")
        return (f"The card play decides it: {v['label']} {ours} (by "
                f"{_margin_text(v, v['margin'])}), {other} {theirs} (by "
                f"{_margin_text(v, by)}).")
    other = "passing" if v["runner_up_label"] == "pass" else v["runner_up_label"]
    if v["same"]:
        return f"{best} or {other}: the same on every deal."
    margin = v["margin"]
    if v.get("win") is not None:  # with a score: in games won
        sure = "too close to call" if v["too_close"] and not exact else "sure"
        return (f"{best}: {v['win']:.1%} to win the game, {100 * margin:+.1f} points of "
                f"percentage against {other}" + ("" if exact else f"; {sure}") + ".")
    size = _size(margin)
    if exact:
        return f"{best}: exactly {size} points a hand more than {other} (every layout)."
    if v["too_close"]:
        return (f"{best} or {other}: too close to call ({v['label']} by {margin:.2f} points a "
                f"hand, within the margin of error).")
    return f"{best}: worth about {size} points a hand more than {other}; sure."


def _size(margin: float) -> str:
    """A margin in net points as the verdict says it: two decimals below 0.1, else one."""
    return f"{margin:.2f}" if abs(margin) < 0.1 else f"{margin:.1f}"


def _margin_text(v: dict, margin: float) -> str:
    """A margin of verdict ``v``'s kind in words: points of percentage with a score, else
    points a hand."""
    if v.get("win") is not None:
        return f"{100 * margin:.1f} points of percentage"
    return f"{_size(margin)} points a hand"


def trick_table(d: Decision, counts: dict, exact: bool) -> pd.DataFrame:
    """At a ladder auction's call: per trump, the chance the player's side takes at least k
    tricks declaring it (from the player's lead, the hand played by the question's method)."""
    return pd.DataFrame([trick_row(trump, counts["hist"][scenario], exact)
                         for trump, scenario in d.tricks.items()])


def trick_row(trump: int, hist: np.ndarray, exact: bool) -> dict:
    """A row of the trick table: P(at least k tricks) for k from 3, from ``hist`` (how many
    deals the side took each number of tricks on)."""
    h = hist.astype(np.float64)
    t = np.arange(len(h))
    row = {"trump": "CDHS"[trump], "deals": int(h.sum())}
    for k in range(3, len(h)):
        row.update(_prob(f"at_least_{k}", h[t >= k].sum(), h.sum(), exact))
    return row

