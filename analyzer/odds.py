"""The odds engine: "what are my odds of making 5 with this hand?"

A query fixes what the asking player knows (their hand, seat, the dealer, the upcard), deals
the unseen cards many times (or enumerates every layout), plays every option of the variant on
the *same* deals with the double-dummy solver, and reports probabilities with 95% intervals and
expected points. ``odds(...)`` is the Python API; ``euchre odds`` prints it.

Points are *net*: in the partnership variants our side's points minus theirs; in the
three-player variants my points minus the mean of my two opponents'.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from kernels import layout as L
from kernels import query as Q
from kernels import rules as K
from kernels.bidding import N_PARAMS
from kernels.dealing import OP_EQ, OP_GE, OP_LE, binomial_table, layout_count
from kernels.threads import max_threads, num_threads, set_threads

from .errors import UserError
from .notation import (
    SEATS,
    SUITS,
    CardReader,
    NotationError,
    format_card,
    format_hand,
    parse_seat,
    parse_suit,
)
from .runner import DEFAULT_CHUNK, run_chunks
from .solve import partner, table_bits
from .stats import mean_interval, wilson
from .strategies import DEFAULT_WORLDS, seat_policies
from .variants import Rules, make_rules

METHODS = ("dd", "heuristic", "pimc")
MAX_TRIES = 20000
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
    need: int  # tricks the declaring side needs to make it
    detail: str = ""


@dataclass
class Query:
    """Everything a run needs: the rules, what the asker knows, how the unseen cards are
    dealt, constraint rows, the scenarios (kernel rows) and the options read from them."""

    rules: Rules
    seat: int
    dealer: int | None
    hand: int
    upcard: int
    known: np.ndarray
    cards: np.ndarray
    sizes: np.ndarray
    group_seat: np.ndarray
    scenarios: list = field(default_factory=list)
    options: list = field(default_factory=list)
    cons: tuple = (np.zeros(0, np.int64), np.zeros(0, np.uint64), np.zeros(0, np.int64),
                   np.zeros(0, np.int64))
    defend: list = field(default_factory=list)  # bid: scenario per trump, opponents declaring
    tricks: dict = field(default_factory=dict)  # bid, ghost: trump -> the bidder's scenario

    def add(self, trump, declarer, active, decl, leader, kind=0, arg=-1, dealer=-1,
            target=-1) -> int:
        """Add a scenario row; returns its index."""
        row = [0] * Q.S_LEN
        row[Q.S_TRUMP], row[Q.S_DECLARER], row[Q.S_ACTIVE] = trump, declarer, active
        row[Q.S_DECL], row[Q.S_LEADER], row[Q.S_KIND] = decl, leader, kind
        row[Q.S_ARG], row[Q.S_DEALER], row[Q.S_TARGET] = arg, dealer, target
        self.scenarios.append(row)
        return len(self.scenarios) - 1


def _next_active(seat: int, active: int) -> int:
    s = (seat + 1) & 3
    while not (active >> s) & 1:
        s = (s + 1) & 3
    return s


def _suit_of(card: int) -> int:
    return -1 if card == L.JOKER else (card & 31) // 8


def build_query(rules: Rules, hand: int, seat: int, dealer: int | None, upcard: int | None,
                trumps: list[int], bid: str | None, defend: bool = True) -> Query:
    """The scenarios and options of a query (see the module docstring and the README)."""
    players = (1 << rules.players) - 1
    n = rules.hand_size
    known = np.zeros(4, dtype=np.uint64)
    known[seat] = np.uint64(hand)
    seen = hand | ((1 << upcard) if upcard is not None and upcard >= 0 else 0)
    unseen = [c for c in range(64) if (int(L.deck_mask(rules.deck)) >> c) & 1 and
              not (seen >> c) & 1]
    others = [s for s in range(4) if s != seat and (s < rules.players or rules.players == 3)]
    sizes = [n] * len(others)
    group_seat = list(others)
    if rules.variant == "ghost":
        group_seat = [3 if s == 3 else s for s in others]
        group_seat[others.index(3)] = -1  # the ghost hand is dead
    extra = len(unseen) - sum(sizes)
    if extra > 0:
        sizes.append(extra)
        group_seat.append(-1)  # kitty, or the bid dealer's joker discard
    q = Query(rules, seat, dealer, hand, -1 if upcard is None else upcard, known,
              np.array(unseen, dtype=np.int64), np.array(sizes, dtype=np.int64),
              np.array(group_seat, dtype=np.int64))
    if rules.variant == "bid":
        _bid_options(q, trumps, bid, defend)
    elif rules.variant == "ghost":
        for t in trumps:
            sc = q.add(t, seat, players, 1 << seat, seat)
            q.tricks[t] = sc
            for k in (3, 4, 5):
                if bid in (None, str(k)):
                    q.options.append(Option(t, f"bid {k}", sc, True, k, k))
            if bid in (None, "moon", "6"):
                q.options.append(Option(t, "moon", sc, True, K.MOON, n))
    else:
        _upcard_options(q, trumps)
    return q


def _bid_options(q: Query, trumps, bid, defend) -> None:
    rules, seat, n = q.rules, q.seat, q.rules.hand_size
    mate = partner(seat)
    for t in trumps:
        team = q.add(t, seat, 15, (1 << seat) | (1 << mate), seat)
        q.tricks[t] = team
        for k in rules.bid_ladder:
            if k < K.ASK and bid in (None, str(k)):
                q.options.append(Option(t, f"bid {k}", team, True, k, k))
        alone = 15 & ~(1 << mate)
        if bid in (None, "ask", str(n)):
            for give in ask_candidates(rules, q.hand, t):
                sc = q.add(t, seat, alone, 1 << seat, seat, Q.K_ASK, give)
                q.options.append(Option(t, f"{n}-ask", sc, True, K.ASK, n,
                                        f"give {format_card(give)}"))
        if bid in (None, "moon", str(n)):
            sc = q.add(t, seat, alone, 1 << seat, seat)
            q.options.append(Option(t, "moon", sc, True, K.MOON, n))
    if defend and bid is None:
        lho = (seat + 1) & 3
        for t in range(4):
            q.defend.append(q.add(t, lho, 15, (1 << lho) | (1 << partner(lho)), lho))


def ask_candidates(rules: Rules, hand: int, trump: int) -> list[int]:
    """The cards worth considering to give away in a 6-ask: the lowest of each suit (trump
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


def _upcard_options(q: Query, trumps) -> None:
    """Knock and cutthroat: order up (with the dealer's pick-up), alone, name a suit in round
    2, pass (the dealer picks up), and in cutthroat the dummy and the defenders' view."""
    rules, seat, dealer, up = q.rules, q.seat, q.dealer, q.upcard
    players = (1 << rules.players) - 1
    cut = rules.variant == "cutthroat"
    dummy = Q.K_DUMMY if cut else 0

    def lead_of(active, declarer, alone):
        if cut and alone:
            return _next_active(declarer, active)
        return _next_active(dealer, active)

    def team(declarer, alone):
        active = players
        if not cut:
            decl = (1 << declarer) | (1 << partner(declarer))
            if alone:
                active &= ~(1 << partner(declarer))
                decl = 1 << declarer
            return active, decl
        return active, 1 << declarer

    up_suit = _suit_of(up)
    round1 = [up_suit] if up != L.JOKER else list(range(4))
    for t in round1:
        if trumps and t not in trumps:
            continue
        for alone in (False, True):
            active, decl = team(seat, alone)
            kind = Q.K_PICKUP | (0 if alone else dummy)
            word = "order up" if up != L.JOKER else f"dealer names {SUITS[t]}"
            if up == L.JOKER and seat != dealer:
                continue
            name = word + (" alone" if alone else (" with the dummy" if cut else ""))
            contract = K.CT_MAKER_ALONE if alone else 0
            if seat == dealer:
                for d in [c for c in range(64) if ((q.hand | (1 << up)) >> c) & 1]:
                    sc = q.add(t, seat, active, decl, lead_of(active, seat, alone), kind, d,
                               dealer)
                    q.options.append(Option(t, name, sc, True, contract, 3,
                                            f"discard {format_card(d)}"))
            else:
                sc = q.add(t, seat, active, decl, lead_of(active, seat, alone), kind, -1, dealer)
                q.options.append(Option(t, name, sc, True, contract, 3))
    if up != L.JOKER:
        for t in range(4):
            if (trumps and t not in trumps) or (t == up_suit and not rules.name_turned_down):
                continue
            for alone in (False, True):
                active, decl = team(seat, alone)
                kind = 0 if alone else dummy
                name = f"name {SUITS[t]}" + (" alone" if alone else
                                             (" with the dummy" if cut else ""))
                sc = q.add(t, seat, active, decl, lead_of(active, seat, alone), kind)
                q.options.append(Option(t, name, sc, True,
                                        K.CT_MAKER_ALONE if alone else 0, 3))
        if seat != dealer and (not trumps or up_suit in trumps):
            active, decl = team(dealer, False)
            sc = q.add(up_suit, dealer, active, decl, lead_of(active, dealer, False),
                       Q.K_PICKUP | dummy, -1, dealer)
            on_team = (decl >> seat) & 1 == 1
            q.options.append(Option(up_suit, f"pass: {SEATS[dealer]} picks it up", sc, on_team,
                                    0, 3))
        if cut:
            lho = _next_active(seat, players)
            if lho != dealer and (not trumps or up_suit in trumps):
                active, decl = team(lho, False)
                sc = q.add(up_suit, lho, active, decl, lead_of(active, lho, False),
                           Q.K_PICKUP | dummy, -1, dealer)
                q.options.append(Option(up_suit, f"defend: {SEATS[lho]} orders up", sc, False,
                                        0, 3))


# ---------------------------------------------------------------------------- constraints


def parse_given(texts, rules: Rules, seat: int, query: Query, trump: int | None):
    """Constraint rows from ``--given`` texts like "E: void H", "S: >=2 trump", "W: has AS",
    "N: <=1 C". Returns ``(group, mask, op, value)`` arrays for the dealing kernel."""
    rows = []
    for text in texts:
        who, sep, what = text.partition(":")
        if not sep:
            raise UserError(f"--given {text!r}: write it as 'SEAT: void H', 'SEAT: >=2 trump' "
                            f"or 'SEAT: has AS'")
        s = parse_seat(who)
        if s == seat:
            raise UserError(f"--given {text!r}: {SEATS[s]} is the hand being analysed")
        if s not in query.group_seat.tolist():
            raise UserError(f"--given {text!r}: {SEATS[s]} holds no unseen hand in "
                            f"{rules.variant}")
        group = query.group_seat.tolist().index(s)
        words = what.split()
        if len(words) == 2 and words[0].lower() == "void":
            op, value, target = OP_EQ, 0, words[1]
        elif len(words) >= 2 and words[0].lower() == "has":
            for token in words[1:]:
                _place(query, text, group, token, rules)
            continue
        elif len(words) == 2 and words[0][:2] in (">=", "<=") or (
                len(words) == 2 and words[0][:1] == "="):
            sign = words[0][:2] if words[0][:2] in (">=", "<=") else "="
            try:
                value = int(words[0][len(sign):])
            except ValueError:
                raise UserError(f"--given {text!r}: {words[0]!r} is not a count like "
                                f">=2") from None
            op = {">=": OP_GE, "<=": OP_LE, "=": OP_EQ}[sign]
            target = words[1]
        else:
            raise UserError(f"--given {text!r}: write 'void SUIT', 'has CARD' or '>=N SUIT' "
                            f"(also <=N, =N; SUIT may be 'trump')")
        if target.lower() == "trump":
            if trump is None:
                raise UserError(f"--given {text!r}: 'trump' needs --trump")
            to_norm, from_norm = rules.layout
            mask = 0
            for b in range(48, 64):
                cid = int(from_norm[trump, b])
                if cid >= 0:
                    mask |= 1 << cid
        else:
            try:
                suit = parse_suit(target)
            except NotationError as e:
                raise UserError(f"--given {text!r}: {e}") from None
            mask = sum(1 << c for c in range(64) if c != L.JOKER and (c & 31) // 8 == suit)
        rows.append((group, mask & int(L.deck_mask(rules.deck)), op, value))
    if not rows:
        return (np.zeros(0, np.int64), np.zeros(0, np.uint64), np.zeros(0, np.int64),
                np.zeros(0, np.int64))
    g, m, o, v = zip(*rows, strict=True)
    return (np.array(g, np.int64), np.array(m, np.uint64), np.array(o, np.int64),
            np.array(v, np.int64))


def _place(query: Query, text: str, group: int, token: str, rules: Rules) -> None:
    """A "has CARD" condition: the card is dealt to that hand for sure, so it leaves the
    unseen cards (exact enumeration shrinks accordingly)."""
    try:
        card = CardReader(rules).card(token)
    except NotationError as e:
        raise UserError(f"--given {text!r}: {e}") from None
    cards = query.cards.tolist()
    if card not in cards:
        raise UserError(f"--given {text!r}: {format_card(card)} is not an unseen card")
    if query.sizes[group] == 0:
        raise UserError(f"--given {text!r}: that hand is already full")
    cards.remove(card)
    query.cards = np.array(cards, dtype=np.int64)
    query.sizes = query.sizes.copy()
    query.sizes[group] -= 1
    query.known = query.known.copy()
    query.known[query.group_seat[group]] |= np.uint64(1 << card)


# ---------------------------------------------------------------------------- running


def _chunk_work(q: Query, seed: int, exact: bool, method: str = "dd",
                worlds: int = DEFAULT_WORLDS):
    rules = q.rules
    if method == "dd":
        policies = np.zeros((4, 2), dtype=np.int64)
        params = np.zeros((4, N_PARAMS))
    else:
        policies, params = seat_policies("points", method, worlds)
    to_norm, from_norm = rules.layout
    scen = np.array(q.scenarios, dtype=np.int64).reshape(-1, Q.S_LEN)
    n = rules.hand_size
    n_scen = scen.shape[0]
    cons = q.cons

    def work(first: int, count: int) -> dict:
        outcomes, aux, tries, nodes, _ = Q.run_chunk(
            np.int64(seed), np.int64(first), np.int64(count), exact, q.known,
            np.int64(q.upcard), q.cards, q.sizes, q.group_seat, cons[0], cons[1], cons[2],
            cons[3], np.int64(1 if exact else MAX_TRIES), scen, np.int64(n), to_norm,
            from_norm, 1 if rules.double_deck else 0, table_bits(rules), num_threads(),
            rules.config(), policies, params)
        ok = tries > 0
        hist = np.zeros((n_scen, n + 1), dtype=np.int64)
        for s in range(n_scen):
            hist[s] = np.bincount(outcomes[ok, s].astype(np.int64), minlength=n + 1)[:n + 1]
        received = np.zeros((n_scen, 64), dtype=np.int64)
        for s in range(n_scen):
            if scen[s, Q.S_KIND] & Q.K_ASK:
                received[s] = np.bincount(aux[ok, s].astype(np.int64) & 63, minlength=64)
        part = {"hist": hist, "received": received, "accepted": np.int64(ok.sum()),
                "tries": np.int64(np.abs(tries).sum()), "failed": np.int64((~ok).sum()),
                "nodes": np.int64(nodes.sum())}
        if q.defend:
            best = outcomes[ok][:, q.defend].max(axis=1).astype(np.int64)
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


def _points(rules: Rules, option: Option, t: np.ndarray) -> np.ndarray:
    """Net points for the asker of each declaring-side trick count in ``t``."""
    n = rules.hand_size
    decl = np.array([rules.points_table[option.contract, x, 0] for x in t], dtype=np.float64)
    defend = np.array([rules.points_table[option.contract, x, 1] for x in t], dtype=np.float64)
    if rules.variant == "bid":
        mine, theirs = (decl, defend) if option.asker_declares else (defend, decl)
    elif rules.variant == "ghost":
        # each opponent scores their own tricks: on average half of the rest
        mine, theirs = decl, (n - t) / 2.0
    elif rules.variant == "knock":
        mine, theirs = (decl, defend) if option.asker_declares else (defend, decl)
    else:  # cutthroat: the maker against two defenders who score alike
        if option.asker_declares:
            mine, theirs = decl, defend
        else:
            mine, theirs = defend, (decl + defend) / 2.0
    return mine - theirs


def _summarise(q: Query, totals, exact: bool) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    rules = q.rules
    n = rules.hand_size
    hist = totals.counts["hist"]
    t = np.arange(n + 1)
    rows = []
    for opt in q.options:
        h = hist[opt.scenario].astype(np.float64)
        deals = h.sum()
        pts = _points(rules, opt, t)
        made = h[t >= opt.need].sum()
        row = {"trump": SUITS[opt.trump], "option": opt.name, "detail": opt.detail}
        row.update(_prob("p_make", made, deals, exact))
        row.update(_prob("p_march", h[n], deals, exact))
        row.update(_prob("p_euchred", h[t < 3].sum(), deals, exact) if rules.variant in (
            "knock", "cutthroat") else {})
        ev, lo, hi = mean_interval(float((h * pts).sum()), float((h * pts * pts).sum()), deals)
        row.update(ev=ev, ev_low=ev if exact else lo, ev_high=ev if exact else hi)
        row["declarer_tricks_mean"] = float((h * t).sum() / deals) if deals else math.nan
        if opt.detail.startswith("give"):
            rec = totals.counts["received"][opt.scenario]
            if rec.sum():
                row["received_most"] = format_card(int(np.argmax(rec)))
        rows.append(row)
    table = pd.DataFrame(rows)
    if q.defend:
        h = totals.counts["defend"].astype(np.float64)
        deals = h.sum()
        opp = Option(0, "pass", -1, False, 3, 3)
        pts = _points(rules, opp, t)
        ev, lo, hi = mean_interval(float((h * pts).sum()), float((h * pts * pts).sum()), deals)
        row = {"trump": "*", "option": "pass", "detail": "they bid 3 in their best suit"}
        row.update(_prob("p_make", h[t >= 3].sum(), deals, exact))
        row.update(_prob("p_march", h[n], deals, exact))
        row.update(ev=ev, ev_low=ev if exact else lo, ev_high=ev if exact else hi,
                   declarer_tricks_mean=float((h * t).sum() / deals) if deals else math.nan)
        table = pd.concat([table, pd.DataFrame([row])], ignore_index=True)
    # the best card to give in a 6-ask: keep the best row per trump, the others as details
    tricks_rows = []
    for trump, scenario in q.tricks.items():
        h = hist[scenario].astype(np.float64)
        row = {"trump": SUITS[trump]}
        for k in range(3, n + 1):
            row.update(_prob(f"p_at_least_{k}", h[t >= k].sum(), h.sum(), exact))
        tricks_rows.append(row)
    best_row = table.loc[table["ev"].idxmax()] if len(table) else None
    best = {} if best_row is None else {"trump": best_row["trump"], "option": best_row["option"],
                                        "detail": best_row["detail"], "ev": best_row["ev"]}
    return table, pd.DataFrame(tricks_rows), best


def _prob(name: str, k: float, n: float, exact: bool) -> dict:
    if exact:
        p = k / n if n else math.nan
        return {name: p, f"{name}_low": p, f"{name}_high": p}
    p, lo, hi = wilson(k, n)
    return {name: p, f"{name}_low": lo, f"{name}_high": hi}


# ---------------------------------------------------------------------------- API


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
    every layout; in ghost, ``swap_samples`` ghost hands value the swap. ``method`` is how
    each option is played: ``dd`` double dummy, or played out by ``heuristic`` or ``pimc``
    players (``worlds`` per card). Raises UserError for bad input."""
    rules = rules or make_rules(variant)
    if method not in METHODS:
        raise UserError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
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
    d = None
    if rules.variant in ("knock", "cutthroat"):
        if up is None:
            raise UserError(f"{rules.variant} odds need the --upcard")
        d = parse_seat(dealer) if dealer is not None else (s - 1) % rules.players
        if d >= rules.players:
            raise UserError(f"{SEATS[d]} does not play in {rules.variant}, so it cannot deal")
    elif upcard is not None:
        raise UserError(f"{rules.variant} has no upcard")
    elif dealer is not None:
        d = parse_seat(dealer)
    if bid is not None:
        if rules.variant not in ("bid", "ghost"):
            raise UserError(f"--bid is for bid and ghost; {rules.variant} has no bids")
        bid = str(bid).lower()
        ladder = [str(k) for k in rules.bid_ladder if k < K.ASK] + ["moon", str(rules.hand_size)]
        if rules.variant == "bid":
            ladder.append("ask")
        if bid not in ladder:
            raise UserError(f"--bid {bid}: {rules.variant} bids are {', '.join(ladder)}")
    trumps = list(range(4)) if trump is None else [parse_suit(trump)]
    if deals is not None and deals < 1:
        raise UserError("--deals must be at least 1")
    if precision is not None and not 0 < precision < 0.5:
        raise UserError("--precision is a half-width between 0 and 0.5, e.g. 0.01")
    if sum(x is not None and x is not False for x in (deals, precision, exact or None)) > 1:
        raise UserError("choose one of --deals, --precision and --exact")
    q = build_query(rules, mask, s, d, up, trumps, bid, defend)
    q.cons = parse_given(given, rules, s, q, None if trump is None else trumps[0])
    before = num_threads()
    if workers is not None:
        if not 1 <= workers <= max_threads():
            raise UserError(f"--workers must be between 1 and {max_threads()}")
        set_threads(workers)
    try:
        result = _run(q, method, seed, deals, precision, exact, progress, chunk, worlds)
        if rules.variant == "ghost" and swap_samples > 0 and trump is None and bid is None \
                and not given:
            result.keep_swap = keep_or_swap(rules, mask, s, float(result.best["ev"]), seed,
                                            swap_samples)
        return result
    finally:
        set_threads(before)


def _run(q: Query, method, seed, deals, precision, exact, progress, chunk,
         worlds=DEFAULT_WORLDS) -> OddsResult:
    rules = q.rules
    notes = []
    if exact:
        count = layout_count(q.sizes, binomial_table(len(q.cards)))
        work = _chunk_work(q, seed, True, method, worlds)
        start = time.perf_counter()
        sample = min(count, 256)
        work(0, sample)
        per = (time.perf_counter() - start) / sample
        estimate = per * count
        if estimate > EXACT_LIMIT_SECONDS:
            raise UserError(f"exact mode would solve {count:,} layouts, about "
                            f"{_duration(estimate)} here; use --deals or --precision instead")
        total = count
    else:
        work = _chunk_work(q, seed, False, method, worlds)
        total = deals if deals is not None else (10_000_000 if precision else 10_000)
    enough = None
    if precision is not None:
        def enough(totals):
            if totals.done < 1000:
                return False
            table, _, _ = _summarise(q, totals, False)
            widths = (table["p_make_high"] - table["p_make_low"]) / 2
            return bool(widths.max() <= precision)
    totals = run_chunks(total, work, chunk=chunk, enough=enough, progress=progress)
    if not totals.counts:
        raise UserError("interrupted before the first deals were solved")
    if totals.counts["failed"] > 0:
        raise UserError(f"the --given constraints could not be met: {int(totals.counts['failed'])}"
                        f" deals found none in {MAX_TRIES:,} tries each (impossible or too rare)")
    accepted = int(totals.counts["accepted"])
    if accepted == 0:
        raise UserError("no layout meets the --given constraints")
    if totals.interrupted:
        notes.append(f"interrupted after {totals.done:,} deals: these are the estimates so far")
    table, tricks, best = _summarise(q, totals, exact)
    return OddsResult(
        rules=rules, hand=format_hand(q.hand), seat=SEATS[q.seat],
        dealer=None if q.dealer is None else SEATS[q.dealer],
        upcard=None if q.upcard < 0 else format_card(q.upcard), method=method, seed=seed,
        exact=exact, deals=accepted, tried=int(totals.counts["tries"]),
        seconds=totals.seconds, interrupted=totals.interrupted, options=table, tricks=tricks,
        best=best, notes=notes, nodes=int(totals.counts["nodes"]))


def keep_or_swap(rules: Rules, hand: int, seat: int, keep_ev: float, seed: int,
                 samples: int = 50) -> dict:
    """Ghost: the value of swapping for the unseen ghost hand before bidding. For each of
    ``samples`` random ghost hands, the swapped hand's best (trump, bid) is valued exactly over
    every split of the other twelve unseen cards between the opponents (the old hand is
    dead); the swap's value is the mean over ghost hands, with a 95% interval."""
    n = rules.hand_size
    unseen = [c for c in range(64) if (int(L.deck_mask(rules.deck)) >> c) & 1 and
              not (hand >> c) & 1]
    rng = np.random.default_rng([seed, 0x5AAB])
    others = [s for s in range(3) if s != seat]
    to_norm, from_norm = rules.layout
    values = []
    for _ in range(samples):
        ghost = rng.choice(unseen, size=n, replace=False)
        mine = sum(1 << int(c) for c in ghost)
        q = Query(rules, seat, None, mine, -1, np.zeros(4, dtype=np.uint64),
                  np.array([c for c in unseen if not (mine >> c) & 1], dtype=np.int64),
                  np.array([n, n], dtype=np.int64), np.array(others, dtype=np.int64))
        q.known[seat] = np.uint64(mine)
        for t in range(4):
            sc = q.add(t, seat, 7, 1 << seat, seat)
            for k in (3, 4, 5):
                q.options.append(Option(t, f"bid {k}", sc, True, k, k))
            q.options.append(Option(t, "moon", sc, True, K.MOON, n))
        count = layout_count(q.sizes, binomial_table(len(q.cards)))
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
