"""The odds engine: "what are my odds of making 5 with this hand?"

A query fixes what the asking player knows (their hand, seat, the dealer, the upcard), deals
the unseen cards many times (or enumerates every layout), plays every option of the variant on
the *same* deals with the double-dummy solver, and reports probabilities with 95% intervals and
expected points. ``odds(...)`` is the Python API; ``euchre odds`` prints it.

Points are *net* (``analyzer.game.scoring.net_points``): in the partnership variants our
side's points minus theirs; in the three-player variants my points minus the mean of my two
opponents'.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from kernels import codes as K
from kernels import layout as L
from kernels import query as Q

from ..compute.query import MAX_TRIES, DealQuery, run_query
from ..compute.runner import DEFAULT_CHUNK, run_chunks, using_threads
from ..errors import UserError
from ..game.notation import (
    SEATS,
    SUITS,
    CardReader,
    NotationError,
    format_card,
    format_hand,
    parse_seat,
    parse_suit,
)
from ..game.scoring import net_points
from ..game.seating import default_leader, next_active, seating, tricks_needed
from ..game.variants import DUMMY, GHOST, LADDER, Rules, make_rules
from ..stats import mean_interval, wilson
from ..strategy.named import DEFAULT_WORLDS, method_policies
from .given import parse_given

EXACT_LIMIT_SECONDS = 30 * 60


# ---------------------------------------------------------------------------- query setup


@dataclass
class Option:
    """One row of the answer: an option of the asking player (or of the table), the scenario
    that plays it, whether the asker is on the declaring side, and the contract code its
    points come from."""

    trump: int
    name: str
    scenario: int
    asker_declares: bool
    contract: int
    detail: str = ""


@dataclass
class Question:
    """An odds question: what the asker knows and the deals (``deal``), the options read
    from its scenarios, the opponents' scenarios for passing (bid) and, in a ladder auction,
    the asker's scenario per trump for the trick distribution."""

    deal: DealQuery
    seat: int
    dealer: int | None
    hand: int
    options: list = field(default_factory=list)
    defend: list = field(default_factory=list)
    tricks: dict = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self.deal.rules


def build_query(rules: Rules, hand: int, seat: int, dealer: int | None, upcard: int | None,
                trumps: list[int], bid: str | None, defend: bool = True) -> Question:
    """The scenarios and options of an odds question (see the module docstring)."""
    n = rules.hand_size
    known = np.zeros(4, dtype=np.uint64)
    known[seat] = np.uint64(hand)
    seen = hand | ((1 << upcard) if upcard is not None and upcard >= 0 else 0)
    unseen = [c for c in range(64) if (int(L.deck_mask(rules.deck)) >> c) & 1 and
              not (seen >> c) & 1]
    others = [s for s in range(4) if s != seat]
    group_seat = [-1 if s == 3 and rules.seat_w == GHOST else s for s in others]  # -1: dead
    sizes = [n] * len(others)
    if len(unseen) > sum(sizes):
        sizes.append(len(unseen) - sum(sizes))
        group_seat.append(-1)  # the kitty, or the ladder dealer's extra card
    deal = DealQuery(rules, known, -1 if upcard is None else upcard,
                     np.array(unseen, dtype=np.int64), np.array(sizes, dtype=np.int64),
                     np.array(group_seat, dtype=np.int64))
    q = Question(deal, seat, dealer, hand)
    if rules.auction == LADDER:
        _ladder_options(q, trumps, bid, defend)
    else:
        _upcard_options(q, trumps)
    return q


def _ladder_options(q: Question, trumps, bid, defend) -> None:
    """Every bid on every trump; the n-ask per card worth giving; the moon; and (with
    partners) passing, valued as the opponents bidding 3 in their best suit."""
    rules, seat, d = q.rules, q.seat, q.deal
    for t in trumps:
        team = d.add(t, seat, *seating(rules, seat), seat)
        q.tricks[t] = team
        for k in rules.bid_ladder:
            if k < K.ASK and bid in (None, str(k)):
                q.options.append(Option(t, rules.bid_name(k), team, True, k))
        lone = seating(rules, seat, "moon") if rules.partnership else seating(rules, seat)
        if rules.has_ask and bid in (None, "ask", str(rules.hand_size)):
            for give in ask_candidates(rules, q.hand, t):
                sc = d.add(t, seat, *lone, seat, Q.SK_ASK, give)
                q.options.append(Option(t, rules.bid_name(K.ASK), sc, True, K.ASK,
                                        f"give {format_card(give)}"))
        if bid in (None, "moon", str(rules.hand_size)):
            moon = d.add(t, seat, *lone, seat) if rules.partnership else team
            q.options.append(Option(t, "moon", moon, True, K.MOON))
    if defend and bid is None and rules.partnership:
        lho = (seat + 1) & 3
        for t in range(4):
            q.defend.append(d.add(t, lho, *seating(rules, lho), lho))


def ask_candidates(rules: Rules, hand: int, trump: int) -> list[int]:
    """The cards worth considering to give away in an n-ask: the lowest of each suit (trump
    counting the bowers). The bidder must take every trick, so keeping the higher of two
    cards of a suit is never worse than keeping the lower one."""
    to_norm, _ = rules.layout
    lowest = {}
    for c in range(64):
        if (hand >> c) & 1:
            b = int(to_norm[trump, c])
            if b >> 4 not in lowest or b < int(to_norm[trump, lowest[b >> 4]]):
                lowest[b >> 4] = c
    return sorted(lowest.values())


def _contract_scenario(q: Question, trump: int, declarer: int, alone: bool, kind: int,
                       arg: int = -1) -> int:
    """A scenario of the upcard auction: ``declarer`` makes ``trump``, alone or not."""
    rules = q.rules
    active, decl = seating(rules, declarer, "alone" if alone else "normal")
    lead = default_leader(rules, declarer, active, q.dealer, alone, None)
    return q.deal.add(trump, declarer, active, decl, lead, kind, arg, q.dealer)


def _upcard_options(q: Question, trumps) -> None:
    """Order up (with the dealer's pick-up), alone, name a suit in round 2, pass (the dealer
    picks up), and with a dummy the defenders' view (the next player orders up)."""
    rules, seat, up = q.rules, q.seat, q.deal.upcard
    dummy = Q.SK_DUMMY if rules.seat_w == DUMMY else 0
    with_dummy = " with the dummy" if dummy else ""
    up_suit = -1 if up == L.JOKER else (up & 31) // 8
    if up != L.JOKER or seat == q.dealer:
        for t in ([up_suit] if up != L.JOKER else list(range(4))):
            if not trumps or t in trumps:
                _order_options(q, t, dummy, with_dummy)
    if up == L.JOKER:
        return
    for t in range(4):
        if (trumps and t not in trumps) or (t == up_suit and not rules.name_turned_down):
            continue
        for alone in (False, True):
            sc = _contract_scenario(q, t, seat, alone, 0 if alone else dummy)
            q.options.append(Option(t, f"name {SUITS[t]}" + (" alone" if alone else with_dummy),
                                    sc, True, K.CT_MAKER_ALONE if alone else 0))
    if trumps and up_suit not in trumps:
        return
    if seat != q.dealer:
        sc = _contract_scenario(q, up_suit, q.dealer, False, Q.SK_PICKUP | dummy)
        mine = rules.partnership and (q.dealer & 1) == (seat & 1)
        q.options.append(Option(up_suit, f"pass: {SEATS[q.dealer]} picks it up", sc, mine, 0))
    lho = next_active(seat, (1 << rules.players) - 1)
    if dummy and lho != q.dealer:
        sc = _contract_scenario(q, up_suit, lho, False, Q.SK_PICKUP | dummy)
        q.options.append(Option(up_suit, f"defend: {SEATS[lho]} orders up", sc, False, 0))


def _order_options(q: Question, t: int, dummy: int, with_dummy: str) -> None:
    """Ordering up ``t`` (or, under a turned-up joker, the dealer naming it), alone or not;
    a dealer who asks sees each discard."""
    word = "order up" if q.deal.upcard != L.JOKER else f"dealer names {SUITS[t]}"
    for alone in (False, True):
        kind = Q.SK_PICKUP | (0 if alone else dummy)
        name = word + (" alone" if alone else with_dummy)
        contract = K.CT_MAKER_ALONE if alone else 0
        if q.seat != q.dealer:
            q.options.append(Option(t, name, _contract_scenario(q, t, q.seat, alone, kind),
                                    True, contract))
            continue
        for d in [c for c in range(64) if ((q.hand | (1 << q.deal.upcard)) >> c) & 1]:
            sc = _contract_scenario(q, t, q.seat, alone, kind, d)
            q.options.append(Option(t, name, sc, True, contract, f"discard {format_card(d)}"))


# ---------------------------------------------------------------------------- running


def _chunk_work(q: Question, seed: int, exact: bool):
    """The pure work function of a chunk (it may run on a cluster worker): deal, solve or
    play, and count the trick distribution of every scenario."""
    n = q.rules.hand_size
    scen = q.deal.scenario_array()

    def work(first: int, count: int) -> dict:
        c = run_query(q.deal, seed, first, count, exact)
        ok = c.ok
        hist = np.stack([np.bincount(c.outcomes[ok, s].astype(np.int64), minlength=n + 1)[:n + 1]
                         for s in range(len(scen))]) if len(scen) else np.zeros((0, n + 1))
        received = np.zeros((len(scen), 64), dtype=np.int64)
        for s in np.nonzero(scen[:, Q.S.KIND] & Q.SK_ASK)[0]:
            received[s] = np.bincount(c.aux[ok, s].astype(np.int64) & 63, minlength=64)
        part = {"hist": hist.astype(np.int64), "received": received,
                "accepted": np.int64(ok.sum()), "tries": np.int64(np.abs(c.tries).sum()),
                "failed": np.int64((~ok).sum()), "nodes": np.int64(c.nodes.sum())}
        if q.defend:
            best = c.outcomes[ok][:, q.defend].max(axis=1).astype(np.int64)
            part["defend"] = np.bincount(best, minlength=n + 1)[:n + 1]
        return part

    return work


# ---------------------------------------------------------------------------- results


@dataclass
class OddsResult:
    """The answer to one query: the rules, what was asked, how it was computed, and the
    tables (pandas DataFrames) of options and of the trick distribution."""

    rules: Rules
    hand: str
    seat: str
    dealer: str | None
    upcard: str | None
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
    notes: list = field(default_factory=list)
    nodes: int = 0
    keep_swap: dict | None = None

    def to_dict(self) -> dict:
        """A JSON-ready dict (the object ``euchre odds --json`` prints)."""
        def records(df):
            return [{k: (None if isinstance(v, float) and math.isnan(v) else v)
                     for k, v in row.items()} for row in df.to_dict(orient="records")]

        return {"variant": self.rules.variant, "rules": self.rules.options, "hand": self.hand,
                "seat": self.seat, "dealer": self.dealer, "upcard": self.upcard,
                "method": self.method, "seed": self.seed, "exact": self.exact,
                "deals": self.deals, "deals_tried": self.tried, "seconds": self.seconds,
                "interrupted": self.interrupted, "nodes": self.nodes,
                "options": records(self.options), "tricks": records(self.tricks),
                "best": self.best, "keep_swap": self.keep_swap, "notes": self.notes}


def _prob(name: str, k, n, exact: bool) -> dict:
    if exact:
        p = k / n if n else math.nan
        return {name: p, f"{name}_low": p, f"{name}_high": p}
    p, lo, hi = wilson(k, n)
    return {name: p, f"{name}_low": lo, f"{name}_high": hi}


def _row(rules: Rules, h: np.ndarray, pts: np.ndarray, need: int, exact: bool) -> dict:
    """Probabilities and points of one trick distribution ``h`` (deals by tricks 0..n) with
    net points ``pts`` at each trick count."""
    n = rules.hand_size
    t = np.arange(n + 1)
    deals = h.sum()
    row = _prob("p_make", h[t >= need].sum(), deals, exact)
    row.update(_prob("p_march", h[n], deals, exact))
    if rules.has_upcard:
        row.update(_prob("p_euchred", h[t < rules.make].sum(), deals, exact))
    ev, lo, hi = mean_interval(float((h * pts).sum()), float((h * pts * pts).sum()), deals)
    row.update(ev=ev, ev_low=ev if exact else lo, ev_high=ev if exact else hi)
    row["declarer_tricks_mean"] = float((h * t).sum() / deals) if deals else math.nan
    return row


def _option_rows(q: Question, totals, exact: bool) -> pd.DataFrame:
    rules, hist = q.rules, totals.counts["hist"]
    t = np.arange(rules.hand_size + 1)
    rows = []
    for opt in q.options:
        pts = net_points(rules, opt.contract, t, opt.asker_declares)
        row = {"trump": SUITS[opt.trump], "option": opt.name, "detail": opt.detail}
        row.update(_row(rules, hist[opt.scenario].astype(np.float64), pts,
                        tricks_needed(rules, opt.contract), exact))
        received = totals.counts["received"][opt.scenario]
        if opt.detail.startswith("give") and received.sum():
            row["received_most"] = format_card(int(np.argmax(received)))
        rows.append(row)
    if q.defend:
        pts = net_points(rules, 3, t, False)
        row = {"trump": "*", "option": "pass", "detail": "they bid 3 in their best suit"}
        row.update(_row(rules, totals.counts["defend"].astype(np.float64), pts, 3, exact))
        row.pop("p_euchred", None)
        rows.append(row)
    return pd.DataFrame(rows)


def _summarise(q: Question, totals, exact: bool) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    table = _option_rows(q, totals, exact)
    t = np.arange(q.rules.hand_size + 1)
    tricks_rows = []
    for trump, scenario in q.tricks.items():
        h = totals.counts["hist"][scenario].astype(np.float64)
        row = {"trump": SUITS[trump]}
        for k in range(3, q.rules.hand_size + 1):
            row.update(_prob(f"p_at_least_{k}", h[t >= k].sum(), h.sum(), exact))
        tricks_rows.append(row)
    best_row = table.loc[table["ev"].idxmax()] if len(table) else None
    best = {} if best_row is None else {"trump": best_row["trump"], "option": best_row["option"],
                                        "detail": best_row["detail"], "ev": best_row["ev"]}
    return table, pd.DataFrame(tricks_rows), best


# ---------------------------------------------------------------------------- API


@dataclass
class Asked:
    """The checked facts of an odds question."""

    rules: Rules
    hand: int
    seat: int
    dealer: int | None
    upcard: int | None
    trumps: list
    bid: str | None


def _asked(rules: Rules, hand, seat, dealer, upcard, trump, bid) -> Asked:
    """The question's facts parsed and checked (UserError naming what is wrong)."""
    reader = CardReader(rules)
    try:
        mask = hand if isinstance(hand, int) else reader.cards(hand)
        up = None if upcard is None else reader.card(upcard)
    except NotationError as e:
        raise UserError(str(e)) from None
    s = parse_seat(seat)
    if s >= rules.players:
        raise UserError(f"{SEATS[s]} does not play in {rules.variant}")
    if bin(mask).count("1") != rules.hand_size:
        raise UserError(f"the hand has {bin(mask).count('1')} cards; {rules.variant} hands "
                        f"have {rules.hand_size}")
    d = None if dealer is None else parse_seat(dealer)
    if rules.has_upcard:
        if up is None:
            raise UserError(f"{rules.variant} odds need the --upcard")
        d = d if d is not None else (s - 1) % rules.players
        if d >= rules.players:
            raise UserError(f"{SEATS[d]} does not play in {rules.variant}, so it cannot deal")
    elif upcard is not None:
        raise UserError(f"{rules.variant} has no upcard")
    trumps = list(range(4)) if trump is None else [parse_suit(trump)]
    return Asked(rules, mask, s, d, up, trumps, _checked_bid(rules, bid))


def _checked_bid(rules: Rules, bid) -> str | None:
    if bid is None:
        return None
    if rules.auction != LADDER:
        raise UserError(f"--bid is for bid and ghost; {rules.variant} has no bids")
    bid = str(bid).lower()
    ladder = [str(k) for k in rules.bid_ladder if k < K.ASK] + ["moon", str(rules.hand_size)]
    if rules.has_ask:
        ladder.append("ask")
    if bid not in ladder:
        raise UserError(f"--bid {bid}: {rules.variant} bids are {', '.join(ladder)}")
    return bid


def _check_sizes(deals, precision, exact) -> None:
    if deals is not None and deals < 1:
        raise UserError("--deals must be at least 1")
    if precision is not None and not 0 < precision < 0.5:
        raise UserError("--precision is a half-width between 0 and 0.5, e.g. 0.01")
    if sum(x is not None and x is not False for x in (deals, precision, exact or None)) > 1:
        raise UserError("choose one of --deals, --precision and --exact")


def odds(hand: str | int, variant: str = "bid", *, trump: str | None = None, seat: str = "N",
         dealer: str | None = None, upcard: str | None = None, bid: str | None = None,
         method: str = "dd", deals: int | None = None, precision: float | None = None,
         exact: bool = False, seed: int = 0, workers: int | None = None, given=(),
         rules: Rules | None = None, defend: bool = True, progress: bool = False,
         chunk: int = DEFAULT_CHUNK, swap_samples: int = 100,
         worlds: int = DEFAULT_WORLDS) -> OddsResult:
    """Answer an odds query (see the module docstring). ``hand`` is the asker's cards as text
    (or a natural mask); ``deals`` the number of random deals (default 10,000), or
    ``precision`` the widest 95% interval half-width to stop at, or ``exact`` to enumerate
    every layout; with a ghost hand, ``swap_samples`` ghost hands value the swap. ``method``
    is how each option is played: ``dd`` double dummy, or played out by ``heuristic`` or
    ``pimc`` players (``worlds`` per card). Raises UserError for bad input."""
    rules = rules or make_rules(variant)
    q_policies = method_policies(method, worlds)
    a = _asked(rules, hand, seat, dealer, upcard, trump, bid)
    _check_sizes(deals, precision, exact)
    q = build_query(rules, a.hand, a.seat, a.dealer, a.upcard, a.trumps, a.bid, defend)
    q.deal.cons = parse_given(given, q.deal, a.seat, None if trump is None else a.trumps[0])
    q.deal.policies, q.deal.params = q_policies
    with using_threads(workers):
        result = _run(q, method, seed, deals, precision, exact, progress, chunk)
        if rules.seat_w == GHOST and swap_samples > 0 and trump is None and a.bid is None \
                and not given:
            result.keep_swap = keep_or_swap(rules, a.hand, a.seat, float(result.best["ev"]),
                                            seed, swap_samples)
    return result


def _deal_count(q: Question, seed: int, deals, precision, exact) -> int:
    """How many deals (or layouts) to run; exact mode is refused when it would take long."""
    if not exact:
        return deals if deals is not None else (10_000_000 if precision else 10_000)
    count = q.deal.layouts()
    sample = min(count, 256)
    start = time.perf_counter()
    _chunk_work(q, seed, True)(0, sample)
    estimate = (time.perf_counter() - start) / sample * count
    if estimate > EXACT_LIMIT_SECONDS:
        raise UserError(f"exact mode would solve {count:,} layouts, about "
                        f"{_duration(estimate)} here; use --deals or --precision instead")
    return count


def _run(q: Question, method, seed, deals, precision, exact, progress, chunk) -> OddsResult:
    total = _deal_count(q, seed, deals, precision, exact)
    enough = None
    if precision is not None:
        def enough(totals):
            if totals.done < 1000:
                return False
            table, _, _ = _summarise(q, totals, False)
            return bool(((table["p_make_high"] - table["p_make_low"]) / 2).max() <= precision)
    totals = run_chunks(total, _chunk_work(q, seed, exact), chunk=chunk, enough=enough,
                        progress=progress)
    counts = totals.counts
    if not counts:
        raise UserError("interrupted before the first deals were solved")
    if counts["failed"] > 0:
        raise UserError(f"the --given constraints could not be met: {int(counts['failed'])}"
                        f" deals found none in {MAX_TRIES:,} tries each (impossible or too rare)")
    if int(counts["accepted"]) == 0:
        raise UserError("no layout meets the --given constraints")
    notes = [f"interrupted after {totals.done:,} deals: these are the estimates so far"] \
        if totals.interrupted else []
    table, tricks, best = _summarise(q, totals, exact)
    up = q.deal.upcard
    return OddsResult(
        rules=q.rules, hand=format_hand(q.hand), seat=SEATS[q.seat],
        dealer=None if q.dealer is None else SEATS[q.dealer],
        upcard=None if up < 0 else format_card(up), method=method, seed=seed,
        exact=exact, deals=int(counts["accepted"]), tried=int(counts["tries"]),
        seconds=totals.seconds, interrupted=totals.interrupted, options=table, tricks=tricks,
        best=best, notes=notes, nodes=int(counts["nodes"]))


def keep_or_swap(rules: Rules, hand: int, seat: int, keep_ev: float, seed: int,
                 samples: int = 50) -> dict:
    """With a ghost hand: the value of swapping for it before bidding. For each of
    ``samples`` random ghost hands, the swapped hand's best (trump, bid) is valued exactly
    over every split of the other unseen cards between the opponents (the old hand is dead);
    the swap's value is the mean over ghost hands, with a 95% interval."""
    n = rules.hand_size
    unseen = [c for c in range(64) if (int(L.deck_mask(rules.deck)) >> c) & 1 and
              not (hand >> c) & 1]
    rng = np.random.default_rng([seed, 0x5AAB])
    others = [s for s in range(rules.players) if s != seat]
    values = []
    for _ in range(samples):
        ghost = rng.choice(unseen, size=n, replace=False)
        mine = sum(1 << int(c) for c in ghost)
        q = build_query(rules, mine, seat, None, None, list(range(4)), None, False)
        q.deal.cards = np.array([c for c in unseen if not (mine >> c) & 1], dtype=np.int64)
        q.deal.sizes = np.array([n] * len(others), dtype=np.int64)
        q.deal.group_seat = np.array(others, dtype=np.int64)
        count = q.deal.layouts()
        totals = run_chunks(count, _chunk_work(q, seed, True), chunk=count, progress=False)
        table, _, _ = _summarise(q, totals, True)
        values.append(float(table["ev"].max()))
    arr = np.array(values)
    mean, lo, hi = mean_interval(float(arr.sum()), float((arr * arr).sum()), len(arr))
    return {"keep_ev": keep_ev, "swap_ev": mean, "swap_ev_low": lo, "swap_ev_high": hi,
            "ghost_hands": samples, "advice": "swap" if lo > keep_ev else
            ("keep" if hi < keep_ev else "too close to call")}


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.1f} hours"
