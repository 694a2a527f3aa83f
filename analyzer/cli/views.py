"""Terminal rendering of results (rich tables): the rules, a played hand, a solved deal, odds,
simulations and reviews."""

from __future__ import annotations

import copy
import math

import pandas as pd
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.table import Column, Table

from kernels.slots import R

from ..game.describe import describe, option_help_lines
from ..game.game_score import UNIT_NAMES
from ..game.notation import SEATS, SUITS, format_card
from ..game.outcomes import SHOWN_OUTCOMES
from ..game.records import Record, contract_text, to_json
from ..game.seating import partner
from ..questions.odds.answer import OddsResult
from ..questions.odds.options import option_label
from ..stats import percent_text
from .app import timing_text


def _pct(p: float, lo: float, hi: float, exact: bool, compact: bool = False) -> str:
    """A probability in percent with the larger side of its 95% interval as ±."""
    if isinstance(p, float) and math.isnan(p):
        return "-"
    if exact:
        return f"{100 * p:.1f}"
    return f"{100 * p:.1f}{'' if compact else ' '}±{100 * max(hi - p, p - lo):.1f}"


PROSE = 30  # a column with a cell longer than this, with spaces, holds sentences


def whole_numbers(table: Table) -> WholeColumns:
    """``table`` made so that a narrow terminal or a pipe never cuts a number nor drops a
    label: every column but the first (the labels, which wrap instead) and those of
    sentences (which wrap at their words) is as wide as its widest cell and does not wrap,
    and the columns that do not fit the width go on in
    further tables under it, each row labelled again (:class:`WholeColumns`)."""
    for column in table.columns[1:]:
        cells = [str(c) for c in column.cells]
        if any(len(c) > PROSE and " " in c for c in cells):
            continue  # a column of sentences (a review's notes) wraps at its words
        widest = max([len(c) for c in cells] +
                     [len(line) for line in str(column.header).splitlines()])
        column.no_wrap = True
        column.min_width = widest
    if table.columns:
        table.columns[0].overflow = "fold"
    return WholeColumns(table)


class WholeColumns:
    """A table printed at any width without losing a column: as it is where it fits, else
    as several tables of the label column and as many of the others as fit, in order (rich
    would squeeze the labels away and crop the columns past the edge)."""

    def __init__(self, table: Table):
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions):
        yield from column_blocks(self.table, console, options)


def column_blocks(table: Table, console: Console, options: ConsoleOptions) -> list[Table]:
    """``table`` as tables no wider than ``options.max_width`` (the first with the title):
    the first column and the next columns that fit beside it, then the first column and
    the next, and so on; a single column too wide for the width is left to rich."""
    width = options.max_width
    blocks, block = [], [0]
    for i in range(1, len(table.columns)):
        if block != [0] and _min_width(_block(table, block + [i], True), console,
                                       options) > width:
            blocks.append(block)
            block = [0]
        block.append(i)
    blocks.append(block)
    if len(blocks) == 1:
        return [table]
    return [_block(table, b, k == 0) for k, b in enumerate(blocks)]


def _block(table: Table, columns: list[int], titled: bool) -> Table:
    """A copy of ``table`` with only its ``columns`` (indices), with its title or none."""
    part = copy.copy(table)
    part.columns = [table.columns[i] for i in columns]
    if not titled:
        part.title = None
    return part


def _min_width(table: Table, console: Console, options: ConsoleOptions) -> int:
    """The fewest columns of the terminal ``table`` takes without cutting a cell (measured
    without a limit: rich clamps a measurement to the width)."""
    return Measurement.get(console, options.update_width(UNLIMITED), table).minimum


UNLIMITED = 1_000_000  # a width no table reaches


def print_odds(console: Console, r: OddsResult, details: bool = False) -> None:
    """Print an odds result: the decision point and how it was priced, the trick table
    (ladder auctions), every legal call with its value and chances (ours and theirs), and
    the verdict against the runner-up (``details``: a row for every discard or card given,
    not only each call's best)."""
    rules = r.rules
    up = f", upcard {r.upcard}" if r.upcard else ""
    heard = f"heard: {r.auction}" if r.auction else "first to speak"
    played = f"; played: {r.played}" if r.played else ""
    score = f"; score {r.score}" if r.score else ""
    console.print(f"[bold]{rules.variant}[/bold]: {r.seat} holds {r.hand} (dealer {r.dealer}"
                  f"{up}{score}); {heard}{played}")
    how = "every layout" if r.exact else f"{r.deals:,} deals" + \
        (f" ({r.stopped})" if r.stopped else "")
    changed = ", ".join(f"{k}={v}" for k, v in rules.changed_options.items()) or "defaults"
    play = _play_words(r.method)
    fit = f"; {percent_text(r.acceptance)} of {r.tried:,} deals tried fit the calls heard" \
        if r.inference else ""
    valued = f" (its values from {r.others_play} play)" \
        if r.others_play not in (None, r.method) else ""
    console.print(f"{how}, {play}, later calls by the {r.others} strategy{valued}, seed {r.seed}, "
                  f"rules: {changed}; {timing_text(r.seconds)}{fit}")
    if r.inferred:
        console.print("from the cards played: " + "; ".join(r.inferred))
    if len(r.tricks):
        console.print(whole_numbers(_tricks_table(r)))
    console.print(whole_numbers(_options_table(r, details)))
    hidden = _hidden(r.details if details else r.options, r.decision)
    if hidden is not None:
        console.print(f"and {len(hidden)} more {CHOICE_WORDS[r.decision][1]}s, each "
                      f"{-hidden['vs_best'].max():.2f} points or more behind the best "
                      f"(--json lists every one)")
    _print_marches(console, r)
    _print_verdict(console, r)
    for note in r.notes:
        console.print(f"[yellow]{note}[/yellow]")


# a cutthroat keep has up to dozens of options (every split of five): its table shows the best
SHOWN_KEEPS = 10


def _shown(options, decision: str):
    """The options a table shows: all, or a keep's ``SHOWN_KEEPS`` best (in their order)."""
    if decision != "keep" or len(options) <= SHOWN_KEEPS:
        return options
    return options.loc[options["ev"].nlargest(SHOWN_KEEPS, keep="first").index.sort_values()]


def _hidden(options, decision: str):
    """The options the table leaves out (None: none)."""
    shown = _shown(options, decision)
    return None if len(shown) == len(options) else options.drop(shown.index)


def _print_marches(console: Console, r: OddsResult) -> None:
    """The upcard auction's march (every trick: 2 points, 4 alone) of each making call; in a
    ladder auction the moon and the ask need every trick, so their "we make" says it."""
    if r.rules.bid_ladder:
        return
    rows = _shown(r.options, r.decision).to_dict(orient="records")
    made = [(row, _call_name(row)) for row in rows if row["option"] != "pass"]
    if any(row["p_we_march"] > 0 for row, _ in made):
        console.print("we march (take every trick), %: " + ", ".join(
            f"{name} " + _pct(row["p_we_march"], row["p_we_march_low"], row["p_we_march_high"],
                              r.exact, compact=True) for row, name in made))


def _play_words(method: str) -> str:
    return "double dummy" if method == "dd" else f"{method} play"


def _tricks_table(r: OddsResult) -> Table:
    n = r.rules.hand_size
    play = _play_words(r.method)
    t = Table("trump", *[f"P(≥{k}) %" for k in range(3, n + 1)],
              title=f"If your side declares: its tricks ({play}, you lead)", box=None)
    for row in r.tricks.to_dict(orient="records"):
        stopped = pd.notna(row.get("dropped_after"))  # racing stopped it with its calls
        t.add_row(row["trump"] + ("*" if stopped else ""),
                  *[_pct(row[f"p_at_least_{k}"], row[f"p_at_least_{k}_low"],
                         row[f"p_at_least_{k}_high"], r.exact) for k in range(3, n + 1)])
    return t


def _call_name(row: dict) -> str:
    """A row of the options table in words: the call, its detail, the card an ask brings."""
    name = option_label(row["option"], row["trump"], row.get("detail") or "")
    if isinstance(row.get("received_most"), str):
        name += f", gets {row['received_most']}"
    return name


def _dropped(row: dict) -> bool:
    """Whether the option stopped being played early (racing; the note says when)."""
    return row.get("dropped_after") is not None and row["dropped_after"] == row["dropped_after"]


def _options_table(r: OddsResult, details: bool) -> Table:
    """Every call (at its best discard or card given; ``details``: every one) with its net
    points, its difference from the best (same deals), and the chances: ours (our side
    makes / is set) and theirs (they make), and of a redeal."""
    options = _shown(r.details if details else r.options, r.decision)
    redeal = bool(len(options)) and options["p_redeal"].max() > 0
    kinds = [k for k in SHOWN_OUTCOMES if k != "redeal" or redeal]
    rows = options.to_dict(orient="records")
    names = [_call_name(row) for row in rows]
    in_play = r.decision != "call"  # a discard, a keep, a card: the tricks it brings matter
    scored = "p_win" in options  # with a score: the chance of winning the game decides
    # two-line headers: seven columns of figures and the calls fit 80 columns
    cols = [CHOICE_WORDS[r.decision][0], *(["win\ngame %"] if scored else []), "net\npoints",
            "vs\nbest", *(["our\ntricks"] if in_play else []),
            *(f"{SHOWN_OUTCOMES[k].replace(' ', chr(10), 1)} %" for k in kinds)]
    t = Table(*cols, box=None,
              title=f"Every {CHOICE_WORDS[r.decision][1]}, played out on the same deals (we = "
                    f"your side" + ("; gets: the card the ask most often brings back)" if
                                    r.rules.has_ask and not in_play else ")"))
    for name, row in zip(names, rows, strict=True):
        ev = f"{row['ev']:+.2f}" if r.exact else \
            f"{row['ev']:+.2f}±{(row['ev_high'] - row['ev_low']) / 2:.2f}"
        vs = "best" if row["vs_best"] == 0 and row["vs_best_low"] == 0 else \
            (f"{100 * row['vs_best']:+.1f}" if scored else f"{row['vs_best']:+.2f}") + \
            ("*" if _dropped(row) else "")
        tricks = [f"{row['tricks']:.2f}"] if in_play else []
        win = [_pct(row["p_win"], row["p_win_low"], row["p_win_high"], r.exact,
                    compact=True)] if scored else []
        t.add_row(name, *win, ev, vs, *tricks,
                  *[_pct(row[f"p_{k}"], row[f"p_{k}_low"], row[f"p_{k}_high"], r.exact,
                         compact=True) for k in kinds])
    return t


# each decision's column heading and its options in words
CHOICE_WORDS = {"call": ("call", "call"), "discard": ("discard", "discard"),
                "defend": ("choice", "choice"), "keep": ("keep", "keep"),
                "card": ("card", "card")}


def _print_verdict(console: Console, r: OddsResult) -> None:
    b = r.best
    if not b:
        return
    what = option_label(b["call"], b.get("trump") or "", b.get("detail") or "")
    scored = b.get("win") is not None  # with a score: in games won, points of percentage
    line = f"Best: {what}: " + (f"{b['win']:.1%} to win the game ({b['ev']:+.2f} net points "
                                f"a hand)" if scored else f"{b['ev']:+.2f} net points a hand")
    if b.get("runner_up") is not None:
        other = option_label(b["runner_up"], b.get("runner_up_trump") or "",
                             b.get("runner_up_detail") or "")
        k, f = (100, ".1f") if scored else (1, ".2f")
        margin = f"{k * b['margin']:+{f}}" + ("" if r.exact else f" [{k * b['margin_low']:+{f}}"
                                               f", {k * b['margin_high']:+{f}}]") + \
            (" points of percentage" if scored else "")
        line += f", {margin} against {other}"
        if b.get("same"):
            line += ": the same on every deal"
        elif b["too_close"]:
            line += ": too close to call"
    console.print(line)


def print_rules(console: Console, rules) -> None:
    """The rules in force in words, and the variant's house-rule options."""
    lines = describe(rules)
    console.print(f"[bold]{lines[0]}[/bold]")
    for line in lines[1:]:
        console.print(line, soft_wrap=True)
    console.print("House-rule options:")
    for line in option_help_lines(rules.variant):
        console.print(f"  {line}", soft_wrap=True)


def print_result(console: Console, record: Record, result: dict) -> None:
    """Tricks and points of a scored hand."""
    if result["status"] != "played":
        console.print(f"No play: {result['status']}. Points: none.")
        return
    console.print(f"{record.rules.variant}: declarer {result['declarer']} "
                  f"({contract_text(record)}), trump {result['trump']}.")
    console.print(f"Tricks: declaring side {result['declarer_tricks']}, defenders "
                  f"{result['defender_tricks']}  ("
                  + ", ".join(f"{k} {v}" for k, v in result["tricks"].items()) + ")")
    console.print("Points: " + ", ".join(f"{k} {v:+d}" for k, v in result["points"].items()))
    for seat, n in result.get("reneges", {}).items():
        console.print(f"Renege: {seat} failed to follow suit {n} time(s); their side loses 2.")


def print_record(console: Console, record: Record, title: str) -> None:
    """A played hand: hands, auction, contract, every trick, and the result."""
    rules, rec = record.rules, record.rec
    console.print(f"[bold]{title}[/bold]  (dealer {SEATS[rec[R.DEALER]]})")
    data = to_json(record)
    if "score" in data:
        console.print("Score before the hand: " + ", ".join(f"{k} {v}" for k, v in
                                                             data["score"].items()))
    for seat, cards in data["hands"].items():
        console.print(f"  {seat:>5}: {cards}")
    if "upcard" in data:
        console.print(f"  upcard: {data['upcard']}")
    console.print("Auction: " + (", ".join(data["auction"]) or "none"))
    result = data["result"]
    if result["status"] != "played":
        console.print(f"Redeal ({result['status']}).")
        return
    console.print(f"Contract: {result['declarer']} {contract_text(record)}, trump "
                  f"{result['trump']}")
    for key in ("discard", "joker_discard", "dummy_discard"):
        if key in data:
            console.print(f"  {key.replace('_', ' ')}: {data[key]}")
    if "ask" in data:
        console.print(f"  {rules.hand_size}-ask: gives {data['ask']['give']}, receives "
                      f"{data['ask']['receive']}")
    table = Table("trick", "leader", "cards", "winner", box=None)
    for t in range(rules.hand_size):
        plays = rec[R.PLAYS + 4 * t:R.PLAYS + 4 * t + 4]
        table.add_row(str(t + 1), SEATS[rec[R.TRICK_LEADER + t]],
                      " ".join(format_card(int(c)) for c in plays if c >= 0),
                      SEATS[rec[R.TRICK_WINNER + t]])
    console.print(whole_numbers(table))
    print_result(console, record, result)


def frame_table(frame, title: str) -> Table:
    """A rich table of a DataFrame (floats in short form, missing values empty)."""
    table = Table(*[str(c) for c in frame.columns], title=title, box=None)
    for row in frame.itertuples(index=False):
        table.add_row(*["" if v is None or v is pd.NA or (isinstance(v, float) and v != v) else
                        (f"{v:g}" if isinstance(v, float) else str(v)) for v in row])
    return table


REVIEW_HEADERS = {"step": "#", "kind": "decision", "choice": "made", "value_before": "before",
                  "value_after": "after", "cost_tricks": "-tricks", "cost_points": "-points"}


def print_review(console: Console, result) -> None:
    """One reviewed hand: the contract, and every decision with its cost."""
    rec = result.record.rec
    console.print(f"[bold]{result.record.rules.variant}[/bold]: {SEATS[rec[R.DECLARER]]} "
                  f"{result.contract}, trump {'CDHS'[rec[R.TRUMP]]}; needs {result.need}, "
                  f"worth {result.dd_tricks} double dummy at the first lead "
                  f"({'makeable' if result.makeable else 'not makeable'}); took {result.tricks}")
    d = result.decisions
    calls = d[d["kind"] == "call"]
    if len(calls):
        scored = bool(result.record.score)  # the calls are then priced in games won
        value = "win %" if scored else "net points"
        table = Table("#", "seat", "call", value, "best call", f"its {value}", "cost",
                      title="Calls, each priced where it was made (" + (
                          "the caller's chance of winning the game at the score "
                          f"{'-'.join(map(str, result.record.score))}" if scored else
                          "expected net points for the caller") +
                      " over deals that fit the calls heard)", box=None)
        k, f = (100, ".1f") if scored else (1, "+.2f")
        for row in calls.itertuples(index=False):
            cost = f"{k * row.cost_points:.2f} *" if row.cost_points > 0 else \
                "within noise" if row.best else "-"
            table.add_row(str(row.step), row.seat, row.choice, f"{k * row.value_after:{f}}",
                          row.best or "(this one)", f"{k * row.value_before:{f}}", cost)
        console.print(whole_numbers(table))
    play = d[d["kind"] != "call"].drop(columns="note" if d[d["kind"] != "call"]["note"].eq("")
                                       .all() else [])
    frame = play.rename(columns=REVIEW_HEADERS)
    frame["!"] = ["*" if (c or 0) > 0 or (p or 0) > 0 else ""
                  for c, p in zip(play["cost_tricks"].fillna(0), play["cost_points"],
                                  strict=True)]
    console.print(whole_numbers(frame_table(
        frame, f"The play: the declaring side's tricks ({result.judged_by}) with the best "
               "choice (before) and the choice made (after); * = cost tricks or points")))
    for note in result.notes:
        console.print(f"note: {note}")


def print_review_summary(console: Console, good: list, by_type, costliest) -> None:
    """A batch review: hands made and makeable, decisions by type, the costliest ones."""
    made = sum(r.tricks >= r.need for _, r in good)
    makeable = sum(r.makeable for _, r in good)
    console.print(f"{len(good):,} hands reviewed: {made:,} contracts made, {makeable:,} "
                  f"makeable double dummy")
    console.print(whole_numbers(frame_table(by_type, "Decisions by type (points lost by the "
                                                     "side that decided)")))
    console.print(whole_numbers(frame_table(costliest.drop(
        columns=["value_before", "value_after"]).rename(columns=REVIEW_HEADERS),
        "The costliest decisions")))


def print_solution(console: Console, rules, result, lone: bool) -> None:
    """A solved deal: each side's tricks, the best choices, every opening lead's value."""
    side = result.declarer if not rules.partnership or lone else \
        result.declarer + SEATS[partner(SEATS.index(result.declarer))]
    console.print(f"[bold]{rules.variant}[/bold]: trump {result.trump}, declarer "
                  f"{result.declarer}, {result.leader} leads.")
    console.print(f"Declaring side ({side}): {result.declarer_tricks} tricks; defenders: "
                  f"{result.defender_tricks}.")
    for key, value in result.choices.items():
        console.print(f"Best {key.replace('_', ' ')}: {value}")
    table = Table("opening lead", "declaring side's tricks", box=None)
    for card, v in sorted(result.leads.items(), key=lambda kv: -kv[1]):
        table.add_row(card, str(v))
    console.print(whole_numbers(table))
    console.print(f"Nodes searched: {result.nodes:,}")


def print_simulation(console: Console, result) -> None:
    """A match: who played, A's win rate, points per hand, contracts by side."""
    p, lo, hi = result.win_rate
    console.print(f"[bold]{result.rules.variant}[/bold]: A = {result.strategy} bidding, "
                  f"{result.play} play; B = {result.vs} bidding, {result.vs_play} play; "
                  f"seed {result.seed}")
    console.print(f"{result.games:,} games, {result.hands:,} hands ({result.redeals:,} "
                  f"redealt) in {result.seconds:.1f} s")
    console.print(f"A wins {100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (a fair share is "
                  f"{100 * result.fair_share:.0f}%)")
    pph = result.points_per_hand
    console.print(f"points per hand: A {pph['A']:+.3f}, B {pph['B']:+.3f}")
    if len(result.decisions):
        table = Table(Column("side", min_width=4), "contract", "per 100 hands", "made %",
                      "march %", "net", box=None)
        for row in result.decisions.to_dict(orient="records"):
            table.add_row(row["side"], row["contract"], f"{row['per_100_hands']:.1f}",
                          _rate(row, "made_rate"), _rate(row, "march_rate"),
                          f"{row['net_points_per_hand']:+.2f}")
        console.print(whole_numbers(table))
    for side, lone in result.lone_hands.items():
        console.print(f"{side}'s lone hands: {lone['per_100_hands']:.1f} per 100 hands, "
                      f"march {100 * lone['march_rate']:.1f}% [{100 * lone['march_rate_low']:.1f}, "
                      f"{100 * lone['march_rate_high']:.1f}], made {100 * lone['made_rate']:.1f}%, "
                      f"{lone['net_points_per_hand']:+.2f} points a hand")


def _pairs_line(console: Console, played, what: str) -> None:
    """A duplicate run's size: its pairs (sets with three players), the hands, the time."""
    figures = played.figures()
    unit = "pairs" if figures["seatings"] == 2 else "sets"
    how = "each deal played with the seats swapped" if figures["seatings"] == 2 else \
        "each deal played three times, A in each seat against two B's"
    asked = f"; {figures['questions']:,} cards asked ({figures['fallbacks']:,} unanswered)" \
        if "questions" in figures else ""
    console.print(f"{figures['pairs']:,} {unit} of hands, {figures['hands']:,} hands {what}"
                  f"({how}; {figures['redeals']:,} deals redealt){asked} in "
                  f"{figures['seconds']:.1f} s")


def _settings_text(figures: dict, players: list[str]) -> str:
    """How a match's ``players`` bid and play, from its JSON figures (the worlds when a
    pimc player or question plays)."""
    text = f"every seat bidding by {figures['bidding']}"
    if "pimc" in players or figures.get("method") == "pimc":
        text += f"; pimc samples {figures['worlds']:,} worlds a card"
    if "method" in figures:
        text += f"; advise asks {figures['method']} on {figures['deals']:,} deals a card"
    return text


def print_match(console: Console, result) -> None:
    """A duplicate match of two card players: A's points a hand less B's with its
    interval, each side's points a hand."""
    d = result.to_dict()
    console.print(f"[bold]{d['variant']}[/bold]: A = {d['a']} against B = {d['b']}, "
                  f"{_settings_text(d, [d['a'], d['b']])}; seed {d['seed']}")
    _pairs_line(console, result.played, "")
    console.print(f"A's points a hand minus B's: {d['points_diff']:+.3f} "
                  f"[{d['points_diff_low']:+.3f}, {d['points_diff_high']:+.3f}]")
    console.print(f"points a hand: A {d['points_a']:+.3f}, B {d['points_b']:+.3f}")


def print_ladder(console: Console, result) -> None:
    """A round robin of card players: each player's rating (its points a hand less its
    opponents', over the field) best first, then every match."""
    d = result.to_dict()
    console.print(f"[bold]{d['variant']}[/bold] ladder: {', '.join(d['players'])}, "
                  f"{_settings_text(d, d['players'])}; seed {d['seed']}")
    _pairs_line(console, result.played, "a match ")
    ratings = Table("player", "rating (points a hand less the field's)", box=None)
    for row in d["ratings"]:
        ratings.add_row(row["player"], f"{row['rating']:+.3f} [{row['rating_low']:+.3f}, "
                        f"{row['rating_high']:+.3f}]")
    console.print(ratings)
    matches = Table("A", "B", "A's points a hand minus B's", "A", "B", box=None)
    for row in d["matches"]:
        matches.add_row(row["a"], row["b"], f"{row['points_diff']:+.3f} "
                        f"[{row['points_diff_low']:+.3f}, {row['points_diff_high']:+.3f}]",
                        f"{row['points_a']:+.3f}", f"{row['points_b']:+.3f}")
    console.print(matches)


def _rate(row: dict, key: str) -> str:
    """A rate of a decisions row in percent with the half-width of its 95% interval."""
    return f"{100 * row[key]:.1f} ±{100 * (row[key + '_high'] - row[key + '_low']) / 2:.1f}"


def print_game(console: Console, records: list[Record], winner: int, title: str) -> None:
    """A whole game, a line a hand (dealer, contract, points, the score after it), and who
    won (``winner``: a unit, or -1 for a game cut off)."""
    units = len(records[0].score)
    names = UNIT_NAMES[units]
    console.print(f"[bold]{title}[/bold]")
    table = Table("hand", "dealer", "contract", "points", "score after", box=None)
    final = ""
    for i, record in enumerate(records):
        rec = record.rec
        points = [int(rec[R.POINTS + u]) for u in range(units)]
        final = "-".join(str(b + p) for b, p in zip(record.score, points, strict=True))
        contract = "redeal" if rec[R.DECLARER] < 0 else \
            f"{SEATS[rec[R.DECLARER]]} {contract_text(record)}, {SUITS[rec[R.TRUMP]]}"
        table.add_row(str(i + 1), SEATS[rec[R.DEALER]], contract,
                      " ".join(f"{n} {p:+d}" for n, p in zip(names, points, strict=True)),
                      final)
    console.print(whole_numbers(table))
    if winner >= 0:
        console.print(f"{names[winner]} wins, {final}, after {len(records)} hands.")
    else:
        console.print(f"No winner after {len(records)} hands ({final}).")
