"""``euchre report`` from Python: build a variant's tables (and, to compare play models, the
same tables played by the other methods on fewer deals), review a file of played hands if
given, and write one report (``reports``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from reports.report import write_html, write_markdown

from ...compute.runner import current_limit, size_limit
from ...errors import TooLong, UserError
from ...game.variants import Rules
from ...outputs import check_output
from ...strategy.defaults import DEFAULT_METHOD
from ...strategy.tables import CHUNK
from ..equity.score_calls import readable, score_thresholds, shows_score
from ..review.review_hand import all_decisions, reviewed, summarise
from .tables import DEFAULT_OTHERS, build_tables, table_meta

FORMATS = ("html", "md")


def compare_sizes(deals: int) -> dict:
    """Deals of the comparison tables: heuristic play as many as the main tables, PIMC a
    hundredth (200 to 2,000)."""
    return {"heuristic": deals, "pimc": max(200, min(2000, deals // 100))}


COMPARE_SECONDS = 120.0  # a comparison may take as long as the report's tables, or this


def compare_chunk(size: int) -> int:
    """The chunk of a comparison's tables: a sixteenth of its deals (at most ``CHUNK``), so
    its progress bar, its size estimate and Ctrl-C come early (a PIMC chunk of 200
    double-deck deals ran for 10 minutes and more with no sign)."""
    return max(1, min(CHUNK, -(-size // 16)))


def review_section(path: Path, rules: Rules, others: str = DEFAULT_OTHERS,
                   on_skipped: Callable[[int, str], None] | None = None) -> dict:
    """The report's tables of a batch review: decisions by type and the costliest ones (the
    records of ``path`` of ``rules``' variant, calls priced with later calls by ``others``;
    ``on_skipped(line, why)`` hears the others)."""
    good = reviewed(path, variant=rules.variant, others=others, on_skipped=on_skipped)
    by_type, costliest = summarise(all_decisions(good))
    return {"review_by_type": by_type, "review_costliest": costliest}


FORMAT_OF = {".html": "html", ".md": "md"}


def report_path(path: Path | str, fmt: str | None, review_file: Path | None = None) -> Path:
    """The report's file, checked before any work (see ``analyzer.outputs``): it ends in
    .html or .md, agreeing with ``fmt`` when one is given."""
    if fmt is not None and fmt not in FORMATS:
        raise UserError(f"--format {fmt!r}: choose html or md")
    path = check_output(path, inputs=[review_file], suffixes=tuple(FORMAT_OF), flag="-o")
    if fmt is not None and FORMAT_OF[path.suffix.lower()] != fmt:
        raise UserError(f"-o {path} ends in {path.suffix}, but --format is {fmt}")
    return path


def build_report(rules: Rules, path: Path, *, deals: int = 100_000, method: str = DEFAULT_METHOD,
                 fmt: str | None = None, compare: bool = True,
                 review_file: Path | None = None, seed: int = 0,
                 others: str = DEFAULT_OTHERS, progress: bool = False,
                 on_skipped: Callable[[int, str], None] | None = None,
                 on_left_out: Callable[[str], None] | None = None) -> Path:
    """Build the tables (every seat bidding by the ``others`` strategy) and write the report
    to ``path`` (``fmt`` html or md; None: from the file's ending); returns the file written.
    The chunks go next to the report, in ``.NAME.tables/``, so a report interrupted by Ctrl-C
    (KeyboardInterrupt) resumes when built again. UserError for a path that cannot be
    written or whose ending disagrees with ``fmt``, before any work. A comparison that would
    take longer than the report's own tables (at least ``COMPARE_SECONDS``; no limit under
    ``--force``) is left out, and ``on_left_out(why)`` hears it."""
    path = report_path(path, fmt, review_file)
    fmt = FORMAT_OF[path.suffix.lower()]
    reviewed_tables = review_section(review_file, rules, others, on_skipped) if review_file else {}
    work = tables_dir(path)
    start = time.perf_counter()
    tables = build_tables(rules, deals, work / method, seed=seed, method=method,
                          others=others, progress=progress)
    own = time.perf_counter() - start
    limit = current_limit()
    compared_tables = {}
    for other, size in compare_sizes(deals).items() if compare else ():
        if other == method:
            continue
        try:
            with size_limit(None if limit is None else min(limit, max(COMPARE_SECONDS, own))):
                compared_tables[other] = build_tables(rules, size, work / other, seed=seed,
                                                      method=other, others=others,
                                                      progress=progress,
                                                      chunk=compare_chunk(size))
        except TooLong as e:  # e.g. PIMC in the double deck: hours for 200 deals
            if on_left_out is not None:
                on_left_out(f"the {other} comparison is left out (it may take as long as the "
                            f"report's own tables, or {COMPARE_SECONDS:.0f} s): {e}")
    tables["meta"] = table_meta(rules, tables)
    tables.update(reviewed_tables)
    tables["score"] = score_section(rules)
    compared = None
    if compared_tables:
        compared = {method: tables}
        for name, t in compared_tables.items():
            t["meta"] = table_meta(rules, t)
            compared[name] = t
    return (write_html if fmt == "html" else write_markdown)(tables, path, compared)


REPORT_SCORE_HANDS = 20_000  # hands at each score and dealer of the report's calls


def score_section(rules: Rules, hands: int = REPORT_SCORE_HANDS) -> dict:
    """What the report shows of the score: the match-equity table as heat-map frames with
    its ``meta``, and, where the analyzer plays to the score with two sides, the calls that
    change with it (``score_calls.readable``; else an empty frame)."""
    from ..equity.build import heat_frames, meta_of

    calls = readable(score_thresholds(rules, hands=hands), only_changed=True) \
        if shows_score(rules) else pd.DataFrame()
    return {"heat": heat_frames(rules), "meta": meta_of(rules), "calls": calls}


def tables_dir(path: Path) -> Path:
    """Where a report's table chunks are kept."""
    return path.parent / f".{path.stem}.tables"
