"""The ``euchre`` command line: wires each command to a library function and prints the result.

Every user mistake (a bad card, deal, record, option or file) ends with one line on stderr,
``error: ...``, and exit code 2; never a traceback.
"""

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from kernels import rules as K

from .cli_common import (
    JsonOption,
    SchedulerOption,
    SeedOption,
    Variant,
    VariantOption,
    console,
    err_console,
    print_json,
    read_text,
    rules_for,
    with_rule_options,
)
from .describe import describe, option_help_lines
from .errors import UserError
from .hands import play_one, score_record
from .notation import SEATS, format_card, parse_deal, parse_seat, parse_suit
from .record import Record, contract_text, read_json, result_of, to_json
from .solve import solve_deal
from .strategies import DECISIONS, DEFAULT_WORLDS, PLAYS
from .variants import VARIANTS, make_rules

app = typer.Typer(
    help="Euchre strategy analyzer: rules, odds, double-dummy solving and simulation for Bid, "
         "Ghost Hand, Cutthroat and Knock Euchre.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def on_cluster(spec: str | None):
    """The cluster context of ``--scheduler`` (nothing to start when it is not given)."""
    if not spec:
        import contextlib

        return contextlib.nullcontext()
    from .cluster import scheduler

    return scheduler(spec)


@app.command("rules")
@with_rule_options
def rules_cmd(
    variant: Annotated[Variant | None, typer.Argument(help="bid, ghost, cutthroat or knock "
                                                      "(all four when left out).",
                                                      case_sensitive=False)] = None,
    rule_opts: dict | None = None,
):
    """Print the rules in force in words: deck, deal, bidding ladder, scoring table, target.

    Examples:

      euchre rules knock

      euchre rules bid --stick-the-dealer --failed-moon-points 24
    """
    given = {k: v for k, v in (rule_opts or {}).items() if v is not None}
    if variant is None:
        if given:
            raise UserError("name the variant the options are for, e.g. 'euchre rules knock "
                            "--joker'")
        for i, name in enumerate(VARIANTS):
            if i:
                console.print()
            _print_rules(make_rules(name))
        return
    _print_rules(rules_for(variant, given))


def _print_rules(rules) -> None:
    lines = describe(rules)
    console.print(f"[bold]{lines[0]}[/bold]")
    for line in lines[1:]:
        console.print(line, soft_wrap=True)
    console.print("House-rule options:")
    for line in option_help_lines(rules.variant):
        console.print(f"  {line}", soft_wrap=True)


@app.command("play")
@with_rule_options
def play_cmd(
    variant: VariantOption,
    seed: SeedOption = 0,
    dealer: Annotated[str, typer.Option(help="The dealer's seat (N, E, S; W too with 4 "
                                        "players).")] = "N",
    strategy: Annotated[str, typer.Option(help="How players bid and decide: "
                                          f"{', '.join(DECISIONS)}.")] = "random",
    play: Annotated[str | None, typer.Option(help=f"How players play cards: {', '.join(PLAYS)}"
                                             " (default: random with the random strategy, "
                                             "else heuristic).")] = None,
    worlds: Annotated[int, typer.Option(help="Worlds a pimc player samples per card.",
                                        min=1)] = DEFAULT_WORLDS,
    json_out: JsonOption = False,
    rule_opts: dict | None = None,
):
    """Deal and play one hand with built-in players and print its record.

    The --json record is the recorded-hand format, so it round-trips:

      euchre play --variant knock --seed 1 --json | euchre score -
    """
    rules = rules_for(variant, rule_opts)
    seat = parse_seat(dealer)
    if seat >= rules.players:
        raise UserError(f"in {rules.variant} W holds the "
                        f"{'ghost hand' if rules.variant == 'ghost' else 'dummy'} and cannot deal")
    record = play_one(rules, seed=seed, dealer=seat, strategy=strategy, play=play, worlds=worlds)
    if json_out:
        print_json(to_json(record))
    else:
        how = f"strategy {strategy}" + (f", play {play}" if play else "")
        _print_record(record, f"{rules.variant}, seed {seed}, {how}")


@app.command("score")
def score_cmd(
    record_path: Annotated[str, typer.Argument(metavar="RECORD.json",
                                               help="A recorded hand (JSON), or - for stdin.")],
    json_out: JsonOption = False,
):
    """Check a recorded hand step by step and print tricks and points per side.

    Every step is validated (a card not in that hand, a bid below the current one, an option
    the variant lacks ...); a renege is allowed but costs the offending side 2 points.

      euchre score hand.json

      euchre play --variant bid --seed 3 --json | euchre score - --json
    """
    source = "standard input" if record_path == "-" else record_path
    record = score_record(read_json(read_text(record_path), source))
    result = result_of(record)
    if json_out:
        print_json(result)
        return
    _print_result(record, result)


def _print_result(record: Record, result: dict) -> None:
    rules = record.rules
    if result["status"] != "played":
        console.print(f"No play: {result['status']}. Points: none.")
        return
    decl = result["declarer"]
    console.print(f"{rules.variant}: declarer {decl} ({contract_text(record)}), trump "
                  f"{result['trump']}.")
    console.print(f"Tricks: declaring side {result['declarer_tricks']}, defenders "
                  f"{result['defender_tricks']}  ("
                  + ", ".join(f"{k} {v}" for k, v in result["tricks"].items()) + ")")
    console.print("Points: " + ", ".join(f"{k} {v:+d}" for k, v in result["points"].items()))
    for seat, n in result.get("reneges", {}).items():
        console.print(f"Renege: {seat} failed to follow suit {n} time(s); their side loses 2.")


def _print_record(record: Record, title: str) -> None:
    rules, rec = record.rules, record.rec
    console.print(f"[bold]{title}[/bold]  (dealer {SEATS[rec[K.R_DEALER]]})")
    data = to_json(record)
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
        console.print(f"  6-ask: gives {data['ask']['give']}, receives {data['ask']['receive']}")
    table = Table("trick", "leader", "cards", "winner", box=None)
    for t in range(rules.hand_size):
        cards = " ".join(format_card(int(c)) for c in rec[K.R_PLAYS + 4 * t:K.R_PLAYS + 4 * t + 4]
                         if c >= 0)
        table.add_row(str(t + 1), SEATS[rec[K.R_TRICK_LEADER + t]], cards,
                      SEATS[rec[K.R_TRICK_WINNER + t]])
    console.print(table)
    _print_result(record, result)


@app.command("review")
def review_cmd(
    record_path: Annotated[str, typer.Argument(
        metavar="RECORD", help="A recorded hand (.json, or - for stdin), or a file of records "
                               "(.jsonl, one per line) for a summary.")],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Batch: write every decision "
                                             "to this .csv or .parquet.")] = None,
    method: Annotated[str, typer.Option(help="dd (everything seen) or pimc (each card judged "
                                        "with what its player could see).")] = "dd",
    worlds: Annotated[int, typer.Option(help="Worlds per card for pimc.", min=1, max=1000)]
    = 40,
    seed: SeedOption = 0,
    json_out: JsonOption = False,
):
    """Review a played hand double dummy: the value before and after every decision (bid,
    trump, discard, alone, each card), the decisions that cost tricks or points and what was
    best, whether the contract was makeable, and any renege with its penalty.

      euchre review hand.json

      euchre play --variant knock --seed 4 --json | euchre review -

      euchre review hand.json --method pimc --worlds 100

      euchre review club-night.jsonl -o decisions.csv
    """
    from .record import load_record
    from .review import all_decisions, review, summarise

    if record_path.endswith((".jsonl", ".ndjson")):
        if out is not None and out.suffix.lower() not in (".csv", ".parquet"):
            raise UserError(f"-o {out}: the output must end in .csv or .parquet")
        good = _reviewed(Path(record_path), method, worlds, seed)
        decisions = all_decisions(good)
        by_type, costliest = summarise(decisions)
        if out is not None:
            if out.suffix.lower() == ".parquet":
                decisions.to_parquet(out)
            else:
                decisions.to_csv(out, index=False)
        if json_out:
            print_json({"records": len(good), "by_type": by_type.to_dict(orient="records"),
                        "costliest": costliest.to_dict(orient="records")})
            return
        made = sum(r.tricks >= r.need for _, r in good)
        makeable = sum(r.makeable for _, r in good)
        console.print(f"{len(good):,} hands reviewed: {made:,} contracts made, {makeable:,} "
                      f"makeable double dummy")
        console.print(_frame_table(by_type, "Decisions by type (points lost by the side that "
                                            "decided)"))
        console.print(_frame_table(costliest.drop(columns=["value_before", "value_after"])
                                   .rename(columns=REVIEW_HEADERS), "The costliest decisions"))
        return
    source = "standard input" if record_path == "-" else record_path
    result = review(load_record(read_json(read_text(record_path), source)), method, worlds,
                    seed)
    if json_out:
        print_json(result.to_dict())
        return
    rec = result.record.rec
    console.print(f"[bold]{result.record.rules.variant}[/bold]: {SEATS[rec[K.R_DECLARER]]} "
                  f"{result.contract}, trump {'CDHS'[rec[K.R_TRUMP]]}; needs {result.need}, "
                  f"worth {result.dd_tricks} double dummy at the first lead "
                  f"({'makeable' if result.makeable else 'not makeable'}); took {result.tricks}")
    frame = result.decisions.rename(columns=REVIEW_HEADERS)
    frame["!"] = ["*" if (c or 0) > 0 or (p or 0) > 0 else ""
                  for c, p in zip(result.decisions["cost_tricks"].fillna(0),
                                  result.decisions["cost_points"], strict=True)]
    console.print(_frame_table(frame, "Decisions: the declaring side's tricks double dummy "
                                      "with the best choice (before) and the choice made "
                                      "(after); * = cost tricks or points"))
    for note in result.notes:
        console.print(f"note: {note}")


REVIEW_HEADERS = {"step": "#", "kind": "decision", "choice": "made", "value_before": "before",
                  "value_after": "after", "cost_tricks": "-tricks", "cost_points": "-points"}


def _frame_table(frame, title: str) -> Table:
    table = Table(*[str(c) for c in frame.columns], title=title, box=None)
    for row in frame.itertuples(index=False):
        table.add_row(*["" if v is None or (isinstance(v, float) and v != v) else
                        (f"{v:g}" if isinstance(v, float) else str(v)) for v in row])
    return table


@app.command("solve")
@with_rule_options
def solve_cmd(
    deal: Annotated[str, typer.Argument(help="The deal, seat by seat: 'N: JH JD AH KH QH 9S / "
                                        "E: ... / S: ... / W: ...' (- reads it from stdin).")],
    variant: VariantOption,
    trump: Annotated[str, typer.Option(help="Trump suit: C, D, H or S.")],
    declarer: Annotated[str, typer.Option(help="The bidder / maker.")] = "N",
    leader: Annotated[str | None, typer.Option(help="Who leads the first trick (default: by "
                                               "the variant's rules).")] = None,
    dealer: Annotated[str | None, typer.Option(help="The dealer, for the default leader and "
                                               "the pick-up (knock, cutthroat; default: the "
                                               "seat right of N).")] = None,
    alone: Annotated[bool, typer.Option("--alone", help="Knock, cutthroat: the maker goes "
                                        "alone.")] = False,
    ask: Annotated[bool, typer.Option("--ask", help="Bid: 6-ask (the solver picks the card "
                                      "to give away).")] = False,
    moon: Annotated[bool, typer.Option("--moon", help="Bid: shoot the moon.")] = False,
    defender_alone: Annotated[str | None, typer.Option(help="A defender who goes alone.")]
    = None,
    json_out: JsonOption = False,
    rule_opts: dict | None = None,
):
    """Solve a deal double dummy: tricks of each side with best play by everyone, the value of
    every opening lead, and the nodes searched.

    Every playing hand is given. Knock and cutthroat: give 'up: CARD' and --dealer for a
    pick-up (the solver picks the dealer's best discard unless 'discard: CARD' is given);
    cutthroat with the dummy as 'W:' or 'dummy:': the solver keeps the maker's best 5 of 10.

      euchre solve "N: JH JD AH KH QH / E: 9D TD QD KD AD / S: 9C TC JC QC KC /
      W: 9S TS JS QS KS" --variant knock --trump H --declarer N --json
    """
    rules = rules_for(variant, rule_opts)
    text = read_text("-") if deal == "-" else deal
    parsed = parse_deal(text, rules)
    modes = [m for m, on in (("alone", alone), ("ask", ask), ("moon", moon)) if on]
    if len(modes) > 1:
        raise UserError("choose one of --alone, --ask and --moon")
    result = solve_deal(
        rules, parsed, parse_suit(trump), parse_seat(declarer),
        leader=None if leader is None else parse_seat(leader),
        mode=modes[0] if modes else "normal",
        dealer=None if dealer is None else parse_seat(dealer),
        defender_alone=None if defender_alone is None else parse_seat(defender_alone))
    if json_out:
        print_json(result.to_dict())
        return
    side = result.declarer if rules.players == 3 or modes else \
        result.declarer + SEATS[(SEATS.index(result.declarer) + 2) % 4]
    console.print(f"[bold]{rules.variant}[/bold]: trump {result.trump}, declarer "
                  f"{result.declarer}, {result.leader} leads.")
    console.print(f"Declaring side ({side}): {result.declarer_tricks} tricks; defenders: "
                  f"{result.defender_tricks}.")
    for key, value in result.choices.items():
        console.print(f"Best {key.replace('_', ' ')}: {value}")
    table = Table("opening lead", "declaring side's tricks", box=None)
    for card, v in sorted(result.leads.items(), key=lambda kv: -kv[1]):
        table.add_row(card, str(v))
    console.print(table)
    console.print(f"Nodes searched: {result.nodes:,}")


@app.command("odds")
@with_rule_options
def odds_cmd(
    hand: Annotated[list[str], typer.Argument(help="Your cards, e.g. JH JD AH KH QH 9S.")],
    variant: VariantOption,
    trump: Annotated[str | None, typer.Option(help="Only this trump suit (default: all).")]
    = None,
    seat: Annotated[str, typer.Option(help="Your seat.")] = "N",
    dealer: Annotated[str | None, typer.Option(help="The dealer (knock, cutthroat; default: "
                                               "the seat on your right).")] = None,
    upcard: Annotated[str | None, typer.Option(help="The turned-up card (knock, cutthroat).")]
    = None,
    bid: Annotated[str | None, typer.Option(help="Only this bid: 3, 4, 5, ask or moon (bid, "
                                            "ghost).")] = None,
    method: Annotated[str, typer.Option(help="How hands are played: dd (double dummy), "
                                        "heuristic or pimc players.")] = "dd",
    worlds: Annotated[int, typer.Option(help="Worlds a pimc player samples per card.",
                                        min=1)] = DEFAULT_WORLDS,
    deals: Annotated[int | None, typer.Option(help="Random deals to play (default 10,000).",
                                              min=1)] = None,
    precision: Annotated[float | None, typer.Option(help="Deal until every probability's 95% "
                                                    "interval is within ± this.")] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Enumerate every layout of the unseen "
                                        "cards (refused when it would take too long).")] = False,
    given: Annotated[list[str] | None, typer.Option(help="A condition on an unseen hand: "
                                                    "'E: void H', 'S: >=2 trump', 'W: has AS'. "
                                                    "Repeatable.")] = None,
    seed: SeedOption = 0,
    workers: Annotated[int | None, typer.Option(help="Threads to use (default: all cores).",
                                                min=1)] = None,
    defend: Annotated[bool, typer.Option(help="Bid: also estimate passing (the opponents "
                                         "bidding 3 in their best suit).")] = True,
    scheduler: SchedulerOption = None,
    json_out: JsonOption = False,
    rule_opts: dict | None = None,
):
    """What are my odds? Deal the unseen cards many times, play every option on the same
    deals double dummy, and print each option's chance of making, of a march and of being
    euchred, and its expected net points, with 95% intervals.

      euchre odds JH JD AH KH QH 9S --variant bid --bid 5

      euchre odds JH JD AH KD QD --variant knock --upcard 9H --seat E --dealer N

      euchre odds JS AS KS QH 9D 9C --variant ghost --precision 0.01 --json
    """
    from .odds import odds

    rules = rules_for(variant, rule_opts)
    with on_cluster(scheduler):
        result = odds(" ".join(hand), rules.variant, rules=rules, trump=trump, seat=seat,
                      dealer=dealer, upcard=upcard, bid=bid, method=method, deals=deals,
                      precision=precision, exact=exact, seed=seed, workers=workers,
                      given=given or (), defend=defend, progress=not json_out, worlds=worlds)
    if json_out:
        print_json(result.to_dict())
    else:
        from .odds_view import print_odds

        print_odds(console, result)


@app.command("simulate")
@with_rule_options
def simulate_cmd(
    variant: VariantOption,
    games: Annotated[int, typer.Option(help="Games to play (rounded up to whole duplicate "
                                       "sets).", min=1)] = 1000,
    strategy: Annotated[str, typer.Option(help=f"Strategy A: {', '.join(DECISIONS)}.")]
    = "points",
    vs: Annotated[str, typer.Option("--vs", help="Strategy B.")] = "points",
    play: Annotated[str, typer.Option(help=f"How A plays cards: {', '.join(PLAYS)}.")]
    = "heuristic",
    vs_play: Annotated[str | None, typer.Option(help="How B plays cards (default: as A).")]
    = None,
    worlds: Annotated[int, typer.Option(help="Worlds a pimc player samples per card.",
                                        min=1)] = DEFAULT_WORLDS,
    seed: SeedOption = 0,
    workers: Annotated[int | None, typer.Option(help="Threads to use (default: all cores).",
                                                min=1)] = None,
    scheduler: SchedulerOption = None,
    json_out: JsonOption = False,
    rule_opts: dict | None = None,
):
    """Play whole games between two strategies on the same deals (each deal set is played with
    the seats swapped) and print A's win rate with its 95% interval, points per hand, and how
    often each side declared and made each contract.

      euchre simulate --variant bid --games 10000 --strategy points --vs random

      euchre simulate --variant knock --games 200 --play pimc --vs-play heuristic --json
    """
    from .simulate import simulate

    rules = rules_for(variant, rule_opts)
    with on_cluster(scheduler):
        result = simulate(rules, games, strategy, vs, play=play, vs_play=vs_play, seed=seed,
                          worlds=worlds, workers=workers, progress=not json_out)
    if json_out:
        print_json(result.to_dict())
        return
    p, lo, hi = result.win_rate
    console.print(f"[bold]{rules.variant}[/bold]: A = {strategy} bidding, {play} play; "
                  f"B = {vs} bidding, {result.vs_play} play; seed {seed}")
    console.print(f"{result.games:,} games, {result.hands:,} hands ({result.redeals:,} "
                  f"redealt) in {result.seconds:.1f} s")
    console.print(f"A wins {100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (a fair share is "
                  f"{100 * result.fair_share:.0f}%)")
    pph = result.points_per_hand
    console.print(f"points per hand: A {pph['A']:+.3f}, B {pph['B']:+.3f}")
    if len(result.decisions):
        table = Table("side", "contract", "per 100 hands", "made %", box=None)
        for row in result.decisions.to_dict(orient="records"):
            table.add_row(row["side"], row["contract"], f"{row['per_100_hands']:.1f}",
                          f"{100 * row['made_rate']:.1f} ±"
                          f"{100 * (row['made_rate_high'] - row['made_rate_low']) / 2:.1f}")
        console.print(table)


MethodOption = Annotated[str, typer.Option(help="How hands are played: dd, heuristic or "
                                           "pimc.")]


@app.command("table")
@with_rule_options
def table_cmd(
    variant: VariantOption,
    out: Annotated[str, typer.Option("-o", "--out", help="Directory for the tables.")],
    deals: Annotated[int, typer.Option(help="Random deals.", min=1)] = 100_000,
    method: MethodOption = "dd",
    worlds: Annotated[int, typer.Option(help="Worlds per card for pimc.", min=1)]
    = DEFAULT_WORLDS,
    seed: SeedOption = 0,
    scheduler: SchedulerOption = None,
    rule_opts: dict | None = None,
):
    """Build the strategy tables of a variant over random deals and write each as Parquet and
    CSV: by hand features, by hand strength, every hand class with its best option (and in
    ghost, keep or swap). Interrupted runs resume from the directory.

      euchre table --variant bid --deals 1000000 -o tables/bid

      euchre table --variant knock --method heuristic -o tables/knock-heuristic
    """
    from .tables import build_tables, table_meta, write_tables

    rules = rules_for(variant, rule_opts)
    try:
        with on_cluster(scheduler):
            tables = build_tables(rules, deals, Path(out), seed=seed, method=method,
                                  worlds=worlds, progress=True)
    except KeyboardInterrupt:
        _stopped_resumable(out)
    tables["meta"] = table_meta(rules, tables)
    written = write_tables(tables, Path(out))
    from reports.report import how_to_bid

    console.print(f"[bold]{rules.variant}[/bold]: {tables['meta']['deals']:,} deals, {method},"
                  f" seed {seed}; {len(written)} files in {out}")
    for line in how_to_bid(tables):
        console.print(f"  {line}", soft_wrap=True)


def _stopped_resumable(where) -> None:
    """Ctrl-C during a table build: say where the finished chunks are, exit 130."""
    console.print(f"interrupted: the chunks done are saved in {where}; run the same command to "
                  f"continue")
    raise typer.Exit(130) from None


@app.command("report")
@with_rule_options
def report_cmd(
    variant: VariantOption,
    out: Annotated[str, typer.Option("-o", "--out", help="The report file (.html or .md).")]
    = "report.html",
    deals: Annotated[int, typer.Option(help="Random deals.", min=1)] = 100_000,
    method: MethodOption = "dd",
    fmt: Annotated[str, typer.Option("--format", help="html (one self-contained file) or md "
                                     "(Markdown with image files).")] = "html",
    compare: Annotated[bool, typer.Option(help="Add the heuristic and PIMC play models "
                                          "(fewer deals) to compare with.")] = True,
    review_file: Annotated[Path | None, typer.Option(
        "--review", help="A file of played records (.jsonl) to review and add as a "
                         "section.")] = None,
    seed: SeedOption = 0,
    scheduler: SchedulerOption = None,
    rule_opts: dict | None = None,
):
    """Build the tables of a variant and write a report: the rules in force, method, deals and
    seed, a short "how to bid" summary drawn from the tables, every plot and table.

      euchre report --variant knock --deals 1000000 -o knock.html

      euchre report --variant bid --deals 20000 --format md -o report/bid.md
    """
    from reports.report import write_html, write_markdown

    from .tables import build_tables, table_meta

    if fmt not in ("html", "md"):
        raise UserError(f"--format {fmt!r}: choose html or md")
    rules = rules_for(variant, rule_opts)
    reviewed = _review_section(review_file, rules) if review_file is not None else {}
    path = Path(out)
    work = path.parent / f".{path.stem}.tables"
    try:
        with on_cluster(scheduler):
            tables = build_tables(rules, deals, work / method, seed=seed, method=method,
                                  progress=True)
            others = {}
            if compare:
                sizes = {"heuristic": deals, "pimc": max(200, min(2000, deals // 100))}
                for other, size in sizes.items():
                    if other != method:
                        others[other] = build_tables(rules, size, work / other, seed=seed,
                                                     method=other, progress=True)
    except KeyboardInterrupt:
        _stopped_resumable(work)
    tables["meta"] = table_meta(rules, tables)
    tables.update(reviewed)
    compared = None
    if others:
        compared = {method: tables}
        for name, t in others.items():
            t["meta"] = table_meta(rules, t)
            compared[name] = t
    written = (write_html if fmt == "html" else write_markdown)(tables, path, compared)
    console.print(f"report written to {written.resolve()}")


def _reviewed(path: Path, method: str = "dd", worlds: int = 40, seed: int = 0,
              variant: str | None = None) -> list:
    """``(line, Review)`` of every record of a JSON-lines file that can be reviewed (and is of
    ``variant`` when given); a warning on stderr for each one skipped."""
    from .review import review_records

    good = []
    for line, r in review_records(path, method, worlds, seed):
        if isinstance(r, str):
            why = r
        elif variant is not None and r.record.rules.variant != variant:
            why = f"a {r.record.rules.variant} hand in a {variant} report"
        else:
            good.append((line, r))
            continue
        err_console.print(f"warning: {path}, line {line}: {why}; skipped", soft_wrap=True)
    return good


def _review_section(path: Path, rules) -> dict:
    """The report's tables of a batch review: decisions by type and the costliest ones."""
    from .review import all_decisions, summarise

    by_type, costliest = summarise(all_decisions(_reviewed(path, variant=rules.variant)))
    return {"review_by_type": by_type, "review_costliest": costliest}


@app.command("evaluate")
@with_rule_options
def evaluate_cmd(
    file: Annotated[Path, typer.Argument(help="Hands: .csv (a 'hand' column, optional seat, "
                                         "dealer, upcard, trump), .jsonl, or text (one hand "
                                         "per line, then key=value fields).")],
    variant: VariantOption,
    deals: Annotated[int, typer.Option(help="Random deals per hand.", min=1)] = 2_000,
    method: MethodOption = "dd",
    worlds: Annotated[int, typer.Option(help="Worlds per card for pimc.", min=1)]
    = DEFAULT_WORLDS,
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write rows to this .csv or "
                                             ".parquet as they finish.")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted run into "
                                         "the same -o file.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Stop at the first bad row instead "
                                         "of skipping it.")] = False,
    seed: SeedOption = 0,
    json_out: Annotated[bool, typer.Option("--json", help="Print each row as one JSON line.")]
    = False,
    scheduler: SchedulerOption = None,
    rule_opts: dict | None = None,
):
    """Price every hand of a file with the odds engine: the best option, its chance of making
    with a 95% interval, and the expected points of every option. Rows are written as they
    finish; a killed run continues with --resume. Bad rows are reported with their line
    number and skipped (--strict stops).

      euchre evaluate hands.csv --variant knock -o priced.parquet

      euchre evaluate hands.txt --variant bid --deals 500 --method heuristic --json

      euchre evaluate hands.csv --variant knock -o priced.parquet --resume
    """
    import json as jsonlib

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from .evaluate import count_rows, evaluate_file

    rules = rules_for(variant, rule_opts)
    err = err_console
    show_bar = out is not None and not json_out
    total = count_rows(file) if show_bar and file.is_file() else 0  # a quick first pass
    bar = Progress("evaluating", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=err, transient=True, disable=not show_bar)

    def on_row(row):
        if json_out:
            print(jsonlib.dumps({**row, "options": jsonlib.loads(row["options"])}), flush=True)
        elif out is None:
            console.print(f"line {row['line']}: {row['hand']} -> {row['best_option']} "
                          f"({row['best_trump']}) {row['best_detail']}".rstrip() +
                          f", P(make) {100 * row['p_make']:.1f}% [{100 * row['p_make_low']:.1f},"
                          f" {100 * row['p_make_high']:.1f}], EV {row['ev']:+.2f}",
                          soft_wrap=True)

    with on_cluster(scheduler), bar:
        task = bar.add_task("rows", total=total)
        summary = evaluate_file(
            file, rules, out, deals=deals, method=method, seed=seed, worlds=worlds,
            resume=resume, strict=strict, on_row=on_row,
            on_bad=lambda b: err.print(f"warning: {file}, line {b.line}: {b.message}; skipped",
                                       soft_wrap=True),
            on_progress=lambda line: bar.update(task, completed=line))
    if summary.interrupted:
        where = "; run the same command with --resume to continue" if out else ""
        err.print(f"interrupted after {summary.evaluated + summary.resumed:,} hands{where}")
        raise typer.Exit(130)
    if not json_out:
        done = f"{summary.evaluated:,} hands evaluated"
        if summary.resumed:
            done += f" ({summary.resumed:,} more were done before --resume)"
        if summary.bad:
            done += f", {len(summary.bad):,} bad rows skipped"
        if summary.output is not None:
            done += f"; written to {summary.output}"
        err.print(done)


bench_app = typer.Typer(help="Benchmarks that print figures (solves per second, nodes).",
                        no_args_is_help=True)
app.add_typer(bench_app, name="bench")


@bench_app.command("solve")
def bench_solve_cmd(
    json_out: JsonOption = False,
    scale: Annotated[float, typer.Option(help="Multiply the number of deals timed (e.g. 0.1 "
                                         "for a quick look).", min=0.0001)] = 1.0,
    cold: Annotated[bool, typer.Option("--cold", help="Also time a fresh process with an "
                                       "empty numba cache (compiles everything).")] = False,
):
    """Time exact double-dummy solves on fixed seeded deals per configuration: solves per
    second on all cores and on one thread, nodes per solve, and the speed-up over the
    pure-Python brute force of the tests.

      euchre bench solve

      euchre bench solve --json --scale 0.2
    """
    from .bench import bench_solve, cold_start_seconds

    with console.status("benchmarking") as status:
        figures = bench_solve(scale, progress=lambda name: status.update(f"benchmarking {name}"))
        if cold:
            status.update("timing a cold start")
            figures["cold_start_s"], figures["warm_start_s"] = cold_start_seconds()
    if json_out:
        print_json(figures)
        return
    table = Table("config", "deals", "solves/s", "1 thread", "nodes", "max nodes",
                  "× ref", "median ms", box=None)
    for name, f in figures.items():
        if not isinstance(f, dict):
            continue
        ratio = f.get("speedup_vs_reference_1thread")
        table.add_row(name, str(f["deals"]), f"{f['solves_per_s']:,.0f}",
                      f"{f['solves_per_s_1thread']:,.0f}", f"{f['mean_nodes']:,.0f}",
                      f"{f['max_nodes']:,}", f"{ratio:,.0f}" if ratio else "-",
                      f"{f['median_ms']:.0f}" if "median_ms" in f else "-")
    console.print(table)
    if cold:
        console.print(f"cold start {figures['cold_start_s']:.1f} s, warm start "
                      f"{figures['warm_start_s']:.1f} s (a new process solving one deal)")


@bench_app.command("odds")
def bench_odds_cmd(
    json_out: JsonOption = False,
    deals: Annotated[int, typer.Option(help="Deals for the all-trumps query.", min=100)]
    = 100_000,
):
    """Time the odds engine: a bid hand with 100,000 deals on all four trumps (every option,
    and the trick distribution alone), exact mode for one hand and trump (extrapolated from
    200,000 layouts), and the peak memory.

      euchre bench odds --json
    """
    from .bench import bench_odds

    with console.status("benchmarking") as status:
        figures = bench_odds(deals, progress=lambda what: status.update(f"timing {what}"))
    if json_out:
        print_json(figures)
        return
    console.print(f"bid hand {figures['hand']}, {figures['deals']:,} deals, all trumps, "
                  f"{figures['threads']} threads:")
    console.print(f"  every option (bids, 6-ask, moon, pass): {figures['all_options_s']:.1f} s")
    console.print(f"  trick distribution only: {figures['trick_distribution_s']:.1f} s")
    console.print(f"exact mode, one trump, {figures['exact_layouts']:,} layouts: about "
                  f"{figures['exact_estimated_s'] / 60:.1f} minutes (extrapolated)")
    console.print(f"peak memory: {figures['peak_memory_mb']:.0f} MB")


@bench_app.command("play")
def bench_play_cmd(json_out: JsonOption = False):
    """Time the play engine: heuristic hands per second in whole games, PIMC hands per second
    with 20 worlds, and a 10,000-game Bid Euchre match.

      euchre bench play --json
    """
    from .bench import bench_play

    with console.status("benchmarking") as status:
        figures = bench_play(progress=lambda what: status.update(f"timing {what}"))
    if json_out:
        print_json(figures)
        return
    for key, value in figures.items():
        console.print(f"{key.replace('_', ' ')}: {value:,.1f}")


@bench_app.command("cluster")
def bench_cluster_cmd(
    deals: Annotated[int, typer.Option(help="Deals in the query.", min=1000)] = 1_000_000,
    workers: Annotated[int, typer.Option(help="Workers of the local cluster.", min=1)] = 2,
    json_out: JsonOption = False,
):
    """Time a knock odds query embedded and on a local Dask cluster (--scheduler local:N):
    medians of three runs each, the throughput ratio, and whether the numbers are identical.

      euchre bench cluster --json
    """
    from .bench import bench_cluster

    with console.status("benchmarking") as status:
        figures = bench_cluster(deals, workers,
                                progress=lambda what: status.update(f"timing {what}"))
    if json_out:
        print_json(figures)
        return
    console.print(f"{figures['query']}: {figures['deals']:,} deals, {figures['cores']} cores")
    console.print(f"  embedded: {figures['embedded_s']:.1f} s "
                  f"({figures['embedded_deals_per_s']:,.0f} deals/s)")
    console.print(f"  local:{figures['workers']}: {figures['cluster_s']:.1f} s "
                  f"({figures['cluster_deals_per_s']:,.0f} deals/s), after "
                  f"{figures['cluster_start_s']:.1f} s to start the cluster")
    console.print(f"  throughput ratio {100 * figures['throughput_ratio']:.0f}%, identical "
                  f"results: {figures['identical']}")


def run(argv: list[str]) -> int:
    """Run the CLI on ``argv`` (without the program name); returns the exit code. User errors
    print one line on stderr and return 2."""
    command = typer.main.get_command(app)
    try:
        rv = command.main(args=argv, prog_name="euchre", standalone_mode=False)
    except UserError as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:
        # typer vendors its own click, so its exceptions are recognised by class name.
        names = {c.__name__ for c in type(e).__mro__}
        if "NoArgsIsHelpError" in names:
            print(e.ctx.get_help())
            return 0
        if "UsageError" in names:
            ctx = getattr(e, "ctx", None)
            hint = f" (see 'euchre {ctx.command.name} --help')" if ctx and ctx.parent else ""
            message = " ".join(e.format_message().split())
            print(f"error: {message}{hint}", file=sys.stderr)
            return 2
        if "Abort" in names:
            print("interrupted", file=sys.stderr)
            return 130
        raise
    return rv if isinstance(rv, int) else 0


def main() -> None:
    """Console entry point of ``euchre``."""
    sys.exit(run(sys.argv[1:]))
