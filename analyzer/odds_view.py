"""Terminal rendering of an odds result (rich tables)."""

from __future__ import annotations

import math

from rich.console import Console
from rich.table import Table

from .odds import OddsResult


def _pct(p: float, lo: float, hi: float, exact: bool) -> str:
    """A probability in percent with the larger side of its 95% interval as ±."""
    if isinstance(p, float) and math.isnan(p):
        return "-"
    if exact:
        return f"{100 * p:.1f}"
    return f"{100 * p:.1f} ±{100 * max(hi - p, p - lo):.1f}"


def print_odds(console: Console, r: OddsResult) -> None:
    """Print the tables of an odds result: the trick distribution per trump (bid, ghost), the
    options with their probabilities and expected points, the best option and the facts of
    the run (deals, method, seed, rules)."""
    rules = r.rules
    where = f"seat {r.seat}" + (f", dealer {r.dealer}" if r.dealer else "") + (
        f", upcard {r.upcard}" if r.upcard else "")
    console.print(f"[bold]{rules.variant}[/bold] hand {r.hand} ({where})")
    how = "every layout" if r.exact else f"{r.deals:,} deals"
    changed = ", ".join(f"{k}={v}" for k, v in rules.changed_options.items()) or "defaults"
    console.print(f"{how}, {r.method}, seed {r.seed}, rules: {changed}; {r.seconds:.1f} s"
                  + (f"; {r.tried:,} deals tried for {r.deals:,} accepted" if r.tried > r.deals
                     else ""))
    if len(r.tricks):
        n = rules.hand_size
        t = Table("trump", *[f"P(≥{k}) %" for k in range(3, n + 1)],
                  title="Tricks taken by the bidder's side", box=None)
        for row in r.tricks.to_dict(orient="records"):
            t.add_row(row["trump"], *[_pct(row[f"p_at_least_{k}"], row[f"p_at_least_{k}_low"],
                                           row[f"p_at_least_{k}_high"], r.exact)
                                      for k in range(3, n + 1)])
        console.print(t)
    options = r.options
    if rules.variant == "bid" and len(options):
        # one 6-ask row per trump in the terminal: the best card to give (all rows in --json)
        ask = options["option"].str.endswith("-ask")
        keep = options[~ask]
        best_asks = options[ask].sort_values("ev", ascending=False).groupby("trump").head(1)
        options = keep._append(best_asks).sort_index() if hasattr(keep, "_append") else \
            keep.combine_first(best_asks)
    euchred = "p_euchred" in options.columns
    headers = ["trump", "option", "P(make) %", "P(march) %"] + (["P(euchred) %"] if euchred
                                                               else [])
    t = Table(*headers, "net points", title="Options (same deals for every row)", box=None)
    for row in options.to_dict(orient="records"):
        name = row["option"] + (f" ({row['detail']})" if row.get("detail") else "")
        if isinstance(row.get("received_most"), str):
            name += f", gets {row['received_most']} most often"
        cells = [row["trump"], name, _pct(row["p_make"], row["p_make_low"], row["p_make_high"],
                                         r.exact),
                 _pct(row["p_march"], row["p_march_low"], row["p_march_high"], r.exact)]
        if euchred:
            cells.append(_pct(row["p_euchred"], row["p_euchred_low"], row["p_euchred_high"],
                              r.exact))
        ev = f"{row['ev']:+.2f}" if r.exact else \
            f"{row['ev']:+.2f} ±{(row['ev_high'] - row['ev_low']) / 2:.2f}"
        t.add_row(*cells, ev)
    console.print(t)
    if r.best:
        detail = f" ({r.best['detail']})" if r.best.get("detail") else ""
        console.print(f"Best: {r.best['option']}{detail}, trump {r.best['trump']}: "
                      f"{r.best['ev']:+.2f} net points a hand")
    if r.keep_swap:
        ks = r.keep_swap
        console.print(f"Keep or swap for the ghost hand: keep {ks['keep_ev']:+.2f}, swap "
                      f"{ks['swap_ev']:+.2f} [{ks['swap_ev_low']:+.2f}, {ks['swap_ev_high']:+.2f}]"
                      f" ({ks['ghost_hands']} ghost hands, each valued over every split of the "
                      f"rest): {ks['advice']}")
    for note in r.notes:
        console.print(f"[yellow]{note}[/yellow]")
