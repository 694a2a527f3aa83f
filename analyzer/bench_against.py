"""Benchmarks of two checkouts in one run (``euchre bench ... --against REV``): this checkout
and a git revision of it are timed alternately in fresh processes, so both see the same
machine load, and each figure is the median over the rounds."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from .errors import UserError

ROOT = Path(__file__).resolve().parent.parent


def _git(*args: str) -> str:
    result = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise UserError(f"git {' '.join(args)}: {result.stderr.strip() or 'failed'}")
    return result.stdout.strip()


def checkout_of(rev: str) -> Path:
    """A worktree of revision ``rev`` of this repository, made on first use and kept (with
    its numba cache) under ``~/.cache/euchre-analyzer/bench/<commit>``. UserError when this is not a
    git checkout or ``rev`` is not a commit of it."""
    if not (ROOT / ".git").exists():
        raise UserError("--against needs a git checkout of the analyzer (no .git here)")
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet",
                            f"{rev}^{{commit}}"], capture_output=True, text=True)
    sha = found.stdout.strip()
    if found.returncode != 0 or not sha:
        raise UserError(f"--against: {rev!r} is not a commit of this repository")
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    path = cache / "euchre-analyzer" / "bench" / sha
    if not (path / "analyzer").is_dir():
        path.parent.mkdir(parents=True, exist_ok=True)
        _git("worktree", "add", "--detach", "--force", str(path), sha)
    return path


def run_bench(root: Path, kind: str, args: list[str]) -> dict:
    """``euchre bench KIND --json ARGS`` of the checkout at ``root``, in a fresh process;
    its figures. UserError (with the last line it printed) if it fails."""
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("NUMBA_CACHE_DIR", None)  # ours names this checkout's sources: REV keys its own
    result = subprocess.run([sys.executable, "-m", "analyzer", "bench", kind, "--json", *args],
                            cwd=root, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no message"])[-1]
        raise UserError(f"bench {kind} of {root} failed: {last}")
    return json.loads(result.stdout)


def flatten(figures: dict, prefix: str = "") -> dict[str, float]:
    """The numeric leaves of nested benchmark figures, keyed ``outer.inner``."""
    out = {}
    for key, value in figures.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, f"{name}."))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[name] = float(value)
    return out


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    """Per key, the median over the runs that have it."""
    keys = {k for run in runs for k in run}
    return {k: statistics.median([run[k] for run in runs if k in run]) for k in keys}


def bench_against(kind: str, args: list[str], rev: str, rounds: int,
                  progress=None) -> tuple[dict[str, float], dict[str, float]]:
    """Time ``euchre bench KIND ARGS`` ``rounds`` times in this checkout and in revision
    ``rev``, alternating (this one first); returns the median figures ``(now, before)``,
    flattened (see :func:`flatten`)."""
    other = checkout_of(rev)
    now, before = [], []
    for r in range(rounds):
        for label, root, runs in (("this checkout", ROOT, now), (rev, other, before)):
            if progress:
                progress(f"{kind}: {label}, round {r + 1} of {rounds}")
            figures = flatten(run_bench(root, kind, args))
            if kind == "odds" and root is other:
                figures = {**_questions(other, args, progress), **figures}
            runs.append(figures)
    return medians(now), medians(before)


def _questions(root: Path, args: list[str], progress) -> dict[str, float]:
    """The odds benchmark's questions asked as a player asks them (``bench.ODDS_QUESTIONS``)
    in the checkout at ``root``, which may predate them in its own benchmark."""
    from .bench import odds_question_figures

    others = args[args.index("--others") + 1] if "--others" in args else "analyzer"
    return flatten(odds_question_figures(root, others, progress))
