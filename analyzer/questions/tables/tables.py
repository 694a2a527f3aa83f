"""``euchre table``: a variant's strategy tables (``analyzer.strategy.tables``) played by a
method, written as Parquet and CSV with ``meta.json``."""

from __future__ import annotations

import json
from pathlib import Path

from ...compute.effort import Effort
from ...game.describe import describe
from ...game.variants import Rules
from ...outputs import check_output_dir, written_whole
from ...strategy.defaults import DEFAULT_METHOD, DEFAULT_STRATEGY
from ...strategy.named import DEFAULT_WORLDS
from ...strategy.seats import others_policies
from ...strategy.tables import CHUNK, bid_rows, tabulate
from ..odds.play_model import PlayModel

DEFAULT_OTHERS = DEFAULT_STRATEGY


def build_tables(rules: Rules, deals: int, out_dir: Path | None = None, *, seed: int = 0,
                 method: str = DEFAULT_METHOD, others: str = DEFAULT_OTHERS,
                 worlds: int = DEFAULT_WORLDS, progress: bool = False,
                 chunk: int = CHUNK) -> dict:
    """The tables of ``rules`` over ``deals`` random deals: every seat bids by the ``others``
    strategy, and at each of N's calls every legal call is played out with the cards played
    by ``method`` (``dd``, ``heuristic`` or ``pimc`` with ``worlds``); see
    ``analyzer.strategy.tables.tabulate`` for ``out_dir`` (resumable chunks)."""
    PlayModel(others, method, worlds).check()
    run = {"method": method, "others": others, "worlds": worlds if method == "pimc" else None}
    policies, params = others_policies(others, method, rules, worlds)
    return tabulate(rules, policies, params, Effort(deals, seed=seed, chunk=chunk,
                                                    progress=progress),
                    out_dir, solve=method == "dd", run=run)


def table_meta(rules: Rules, tables: dict) -> dict:
    """Add what reports need to a table run's ``meta``: the options that differ from the
    defaults, the rules in words, and what the variant can do."""
    meta = dict(tables["meta"])
    meta["changed"] = rules.changed_options
    meta["rules_text"] = describe(rules)
    meta.update(auction=rules.auction, partnership=rules.partnership, seat_w=rules.seat_w,
                hand_size=rules.hand_size,
                bids=[f"bid {codes}" for _, codes in sorted(bid_rows(rules).items())])
    return meta


def write_tables(tables: dict, out_dir: Path) -> list[Path]:
    """Write every table as Parquet and CSV (and ``meta.json``) into ``out_dir``; returns the
    files written."""
    out_dir = check_output_dir(out_dir)
    out_dir.mkdir(exist_ok=True)
    written = []
    for name, frame in tables.items():
        if name == "meta":
            continue
        for suffix, writer in ((".parquet", frame.to_parquet), (".csv", frame.to_csv)):
            path = out_dir / f"{name}{suffix}"
            with written_whole(path) as tmp:
                writer(tmp, index=False)
            written.append(path)
    meta_path = out_dir / "meta.json"
    with written_whole(meta_path) as tmp:
        tmp.write_text(json.dumps(tables["meta"], indent=2, default=str))
    written.append(meta_path)
    return written
