"""``euchre bench``: benchmarks that print figures (speed targets live here, not in timed
tests)."""

from typing import Annotated

import typer
from rich.table import Table

from .app import bench_app
from .common import JsonOption, OthersOption, console, print_json


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

    from .. import bench  # the benchmarks load every question and Dask: only when asked

    with console.status("benchmarking") as status:
        figures = bench.bench_solve(scale, progress=lambda name: status.update(
            f"benchmarking {name}"))
        if cold:
            status.update("timing a cold start")
            figures["cold_start_s"], figures["warm_start_s"] = bench.cold_start_seconds()
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
    others: OthersOption = "analyzer",
):
    """Time the odds engine, each figure beside its target: the default bid query, a bid
    hand with 100,000 deals on all four trumps (every option, and bid 3 alone), a knock
    decision point and a bid point after two calls heard (10,000 deals each), exact mode for
    one hand and trump (extrapolated), and the peak memory.

      euchre bench odds --json
      euchre bench odds --others points --deals 20000
    """

    from .. import bench

    with console.status("benchmarking") as status:
        figures = bench.bench_odds(deals, others, progress=lambda what: status.update(
            f"timing {what}"))
    if json_out:
        print_json(figures)
        return
    target = figures["targets"]

    def line(label: str, key: str) -> None:
        goal = f" (target {target[key]:.0f} s)" if key in target else ""
        console.print(f"  {label}: {figures[key]:.1f} s{goal}")

    console.print(f"odds queries, double dummy, later calls by {figures['others']}, "
                  f"{figures['threads']} threads:")
    line(f"bid {figures['hand']}, 10,000 deals (the default query)", "default_bid_s")
    line(f"the same, {figures['deals']:,} deals, every option in every trump",
         "all_options_s")
    line(f"the same, {figures['deals']:,} deals, bid 3 only", "trick_distribution_s")
    line("knock JS AS KS 9H TD, QS up, first seat, 10,000 deals", "knock_point_s")
    line("bid, S after 'N 3, E 4', 10,000 deals", "bid_heard_s")
    console.print(f"  exact mode, bid 3 in hearts, {figures['exact_layouts']:,} layouts: about "
                  f"{figures['exact_estimated_s'] / 60:.1f} minutes, extrapolated (target "
                  f"{target['exact_estimated_s'] / 60:.0f})")
    console.print(f"  peak memory: {figures['peak_memory_mb']:.0f} MB")


@bench_app.command("play")
def bench_play_cmd(json_out: JsonOption = False):
    """Time the play engine: heuristic hands per second in whole games, PIMC hands per second
    with 20 worlds, and a 10,000-game Bid Euchre match.

      euchre bench play --json
    """

    from .. import bench

    with console.status("benchmarking") as status:
        figures = bench.bench_play(progress=lambda what: status.update(f"timing {what}"))
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

