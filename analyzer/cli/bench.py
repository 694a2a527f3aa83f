"""``euchre bench``: benchmarks that print figures (speed targets live here, not in timed
tests)."""

from typing import Annotated

import typer
from rich.table import Table

from .app import bench_app
from .common import JsonOption, OthersOption, console, print_json

AgainstOption = Annotated[str | None, typer.Option(
    "--against", metavar="REV",
    help="Also time git revision REV of this checkout (e.g. HEAD~5, a tag), alternating with "
         "this one in fresh processes, and print its figures beside these.")]
RoundsOption = Annotated[int, typer.Option(
    help="With --against: rounds of the alternation; figures are medians.", min=1, max=20)]


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "s":
        return f"{value:,.1f} s"
    if unit in ("ms", "MB"):
        return f"{value:,.0f} {unit}"
    if unit == "×":  # a ratio: 1.4×, not 1×
        return f"{value:,.2f}×"
    return f"{value:,.0f}{unit}"


def _show(kind: str, now: dict, before: dict | None, against: str | None) -> None:
    """Print the figures of ``euchre bench KIND``, each beside its target and, with
    --against, the same figure of that revision."""
    from .. import bench

    columns = ["figure", "now"] + ([against] if before is not None else []) + ["target"]
    table = Table(*columns, box=None)
    for figure in bench.FIGURES[kind]:
        if figure.key not in now:
            continue
        value = now[figure.key]
        ok = bench.met(figure, value)
        target = "-" if ok is None else (f"{'≥' if figure.more_is_better else '≤'} "
                                         f"{_fmt(figure.target, figure.unit)} "
                                         f"{'met' if ok else 'missed'}")
        row = [figure.label, _fmt(value, figure.unit)]
        if before is not None:
            row.append(_fmt(before.get(figure.key), figure.unit))
        table.add_row(*row, target)
    console.print(table)


def _run(kind: str, args: list[str], against: str | None, rounds: int, json_out: bool,
         here) -> None:
    """Run benchmark ``kind`` here (``here(progress)`` returns its figures) or, with
    ``against``, here and at that revision alternately in fresh processes; print."""
    from .. import bench_against

    with console.status("benchmarking") as status:
        def progress(what):
            status.update(f"benchmarking {what}")

        if against is None:
            figures = here(progress)
            now, before = bench_against.flatten(figures), None
        else:
            now, before = bench_against.bench_against(kind, args, against, rounds, progress)
            figures = {"now": now, "against": against, "before": before, "rounds": rounds}
    if json_out:
        print_json(figures)
        return
    header = {"solve": "exact double-dummy solves on fixed seeded deals",
              "odds": "odds queries, double dummy", "play": "the play engine"}[kind]
    threads = now.get("threads") or now.get("knock.threads")
    console.print(f"{header}, {threads:.0f} threads" + (
        f"; medians of {rounds} alternating rounds against {against}" if against else ""))
    _show(kind, now, before, against)


@bench_app.command("solve")
def bench_solve_cmd(
    json_out: JsonOption = False,
    scale: Annotated[float, typer.Option(help="Multiply the number of deals timed (e.g. 0.1 "
                                         "for a quick look).", min=0.0001)] = 1.0,
    cold: Annotated[bool, typer.Option("--cold", help="Also time a fresh process with an "
                                       "empty numba cache (compiles everything).")] = False,
    against: AgainstOption = None,
    rounds: RoundsOption = 1,
):
    """Time exact double-dummy solves on fixed seeded deals per configuration: solves per
    second on all cores and on one thread, nodes per solve, each beside its target.

      euchre bench solve

      euchre bench solve --json --scale 0.2

      euchre bench solve --scale 0.01 --against HEAD~1 --rounds 2
    """

    from .. import bench  # the benchmarks load every question and Dask: only when asked

    def here(progress):
        figures = bench.bench_solve(scale, progress=progress)
        if cold:
            progress("a cold start")
            figures["cold_start_s"], figures["warm_start_s"] = bench.cold_start_seconds()
        return figures

    args = ["--scale", str(scale)] + (["--cold"] if cold else [])
    _run("solve", args, against, rounds, json_out, here)


@bench_app.command("odds")
def bench_odds_cmd(
    json_out: JsonOption = False,
    deals: Annotated[int, typer.Option(help="Deals for the all-trumps query.", min=100)]
    = 100_000,
    others: OthersOption = "analyzer",
    hands: Annotated[int | None, typer.Option(
        help="Random double-deck hands the default question is timed on (drawn by a fixed "
             "seed; default 4, 20 for the figure).", min=1, max=200)] = None,
    against: AgainstOption = None,
    rounds: RoundsOption = 1,
):
    """Time the odds engine, each figure beside its target: the default bid query, a bid
    hand with 100,000 deals on all four trumps (every option, and bid 3 alone), a knock
    decision point and a bid point after two calls heard (10,000 deals each), decisions in
    the play (a knock card at trick 2, a knock dealer's discard, a bid lead), exact mode for
    one hand and trump (extrapolated), the peak memory, and the default bid, ghost and
    double-deck bid questions as a player asks them (each in a fresh process: the seconds,
    the deals the default used and the calls racing dropped; with --against, timed in that
    revision too), and the double-deck question on --hands random hands (median and slowest
    seconds, how often the answer was clear, the time-left estimate's error at the first
    progress line).

      euchre bench odds --json

      euchre bench odds --others points --deals 20000

      euchre bench odds --hands 20
    """

    from .. import bench

    args = ["--deals", str(deals), "--others", others] + (
        ["--hands", str(hands)] if hands is not None else [])
    _run("odds", args, against, rounds, json_out,
         lambda progress: bench.bench_odds(deals, others, progress=progress,
                                           hands=hands or bench.RANDOM_HANDS))


@bench_app.command("play")
def bench_play_cmd(json_out: JsonOption = False, against: AgainstOption = None,
                   rounds: RoundsOption = 1):
    """Time the play engine, each figure beside its target: heuristic hands per second in
    whole games, PIMC hands per second with 20 worlds, a 10,000-game Bid Euchre match, and
    each card player of euchre match (random, heuristic, dd, pimc with 100 worlds, advise)
    in card decisions a second on one thread in knock (a decision: a card played from at
    least two legal cards; whole hands timed, dealing and bidding included).

      euchre bench play --json
    """

    from .. import bench

    _run("play", [], against, rounds, json_out,
         lambda progress: bench.bench_play(progress=progress))


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

    from .. import bench

    with console.status("benchmarking") as status:
        figures = bench.bench_cluster(deals, workers,
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



@bench_app.command("serve")
def bench_serve_cmd(
    clients: Annotated[int, typer.Option(help="Clients asking at once.", min=1, max=200)] = 10,
    requests: Annotated[int, typer.Option(help="Questions in all (the README's knock "
                                          "question, 10,000 deals, each its own seed).",
                                          min=1, max=10_000)] = 50,
    json_out: JsonOption = False,
):
    """Load the page's server: start `euchre serve`, ask it from many clients at once over
    loopback, and print how many were answered or told to retry, the median and slowest
    request, questions a second, the server's peak memory and how fast it stops.

      euchre bench serve

      euchre bench serve --clients 20 --requests 100 --json
    """

    from ..bench_serve import bench_serve

    with console.status("benchmarking") as status:
        figures = bench_serve(clients, requests,
                              progress=lambda what: status.update(f"timing {what}"))
    if json_out:
        print_json(figures)
        return
    console.print(f"{figures['requests']} questions from {figures['clients']} clients at once: "
                  f"{figures['answered']} answered, {figures['refused_with_retry_after']} told "
                  f"to retry (409, Retry-After), {figures['other']} other")
    console.print(f"  each request: median {figures['median_s']:.2f} s, slowest "
                  f"{figures['slowest_s']:.2f} s; all in {figures['wall_s']:.1f} s "
                  f"({figures['per_s']:.1f} questions a second)")
    peak = figures["peak_memory_mb"]
    console.print(f"  server peak memory {peak:.0f} MB" if peak else "  server peak memory: -")
    console.print(f"  stopped {figures['stop_s']:.1f} s after SIGTERM")
