"""Every example in the README, in docs/ and in each command's --help runs, in-process through
the CLI, with deal and game counts cut down (the examples show real sizes; the test checks
that they parse and answer). The benchmarks' examples run in the slow suite: they take
minutes by design."""

import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from analyzer.cli import app, run
from analyzer.strategy.toml_files import strategy_text

ROOT = Path(__file__).resolve().parent.parent
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CAPS = {"--deals": 200, "--games": 30}
HANDS_CSV = ("hand,seat,dealer,upcard,auction\nAH JH KD QD JD,E,N,9H,\n"
             "9S TS QH KH AC,S,N,JH,E pass\n")
HANDS_TXT = "JH JD AH KH QH 9S\nAS KS QS 9H TD JC seat=E  # a comment\n"


def doc_examples() -> list[str]:
    """Commands shown in console blocks (``$ euchre ...``) of the README and docs/."""
    out = []
    for path in DOC_FILES:
        in_console = False
        pending = ""
        for line in path.read_text().splitlines():
            if line.startswith("```"):
                in_console = line.strip() == "```console"
                continue
            if not in_console:
                continue
            text = line.strip()
            if pending:
                text, pending = pending + " " + text, ""
            if text.endswith("\\"):
                pending = text[:-1].strip()
                continue
            if text.startswith("$ euchre "):
                out.append(text[2:])
    return out


def help_examples() -> list[str]:
    """Commands in the examples of every command's --help (docstring lines starting with
    ``euchre``, continued on the following lines until a blank one)."""
    callbacks = [c.callback for c in app.registered_commands]
    callbacks += [c.callback for g in app.registered_groups
                  for c in g.typer_instance.registered_commands]
    out = []
    for cb in callbacks:
        current = None
        for line in (cb.__doc__ or "").splitlines() + [""]:
            text = line.strip()
            if current is not None:
                if text:
                    current += " " + text
                    continue
                out.append(current)
                current = None
            if text.startswith("euchre "):
                current = text
    return out


def shrink(args: list[str]) -> list[str]:
    """The example's arguments with deal and game counts capped and a --precision target
    replaced by a small deal count."""
    out = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in CAPS and i + 1 < len(args):
            out += [a, str(min(int(args[i + 1].replace("_", "")), CAPS[a]))]
            i += 2
        elif a == "--precision":
            out += ["--deals", str(CAPS["--deals"])]
            i += 2
        elif a == "--scheduler" and args[i + 1].startswith("tcp://"):
            i += 2  # a cluster of the reader's own; the test runs it here
        else:
            out.append(a)
            i += 1
    if out and out[0] in ("odds", "table") and not {"--deals", "--exact"} & set(out):
        out += ["--deals", str(CAPS["--deals"])]
    if out and out[0] == "review" and "--call-deals" not in out:
        out += ["--call-deals", "50"]
    return out


def run_line(line: str, capsys, monkeypatch) -> None:
    """Run a shell line of one or more piped ``euchre`` commands; every stage must exit 0."""
    stdin = None
    line, _, target = line.partition(" > ")
    for stage in line.split(" | "):
        args = shlex.split(stage)
        assert args[0] == "euchre", line
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        code = run(shrink(args[1:]))
        out, err = capsys.readouterr()
        assert code == 0, f"{line}\n{err[-800:]}"
        stdin = out
    if target:
        Path(target.strip()).write_text(stdin)


@pytest.fixture
def example_dir(tmp_path, monkeypatch, capsys):
    """A working directory with the files the examples name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    (tmp_path / "hands.csv").write_text(HANDS_CSV)
    (tmp_path / "hands.txt").write_text(HANDS_TXT)
    records = []
    for seed in range(3):
        assert run(["play", "--variant", "knock", "--seed", str(seed), "--json"]) == 0
        records.append(json.dumps(json.loads(capsys.readouterr().out)))
    (tmp_path / "hand.json").write_text(records[0])
    (tmp_path / "club-night.jsonl").write_text("\n".join(records) + "\n")
    (tmp_path / "mine.toml").write_text(strategy_text())
    return tmp_path


EXAMPLES = sorted(set(doc_examples() + help_examples()))
# a server runs until it is stopped: tests/test_serve.py starts `euchre serve` and stops it
SERVED = [e for e in EXAMPLES if e.startswith("euchre serve")]
QUICK = [e for e in EXAMPLES if not e.startswith("euchre bench") and e not in SERVED]


def test_the_examples_were_found():
    assert len(doc_examples()) >= 20 and len(help_examples()) >= 25
    names = {e.split()[1] for e in EXAMPLES}
    assert names >= {"rules", "play", "score", "solve", "odds", "simulate", "table", "report",
                     "evaluate", "review", "bench"}


@pytest.mark.parametrize("line", QUICK)
def test_example_runs(line, example_dir, capsys, monkeypatch):
    run_line(line, capsys, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("line", [e for e in EXAMPLES if e not in QUICK + SERVED])
def test_benchmark_example_runs(line, example_dir, capsys, monkeypatch):
    run_line(line, capsys, monkeypatch)


def test_shrink_caps_sizes():
    assert shrink(["odds", "--deals", "1_000_000", "--games", "5", "--precision", "0.01"]) == \
        ["odds", "--deals", "200", "--games", "5", "--deals", "200"]
    assert re.search("200", " ".join(shrink(["table", "--deals", "1000000"])))


def readme_outputs() -> list[tuple[str, list[str]]]:
    """The README's examples shown with their output: ``(command, printed lines)``."""
    out = []
    in_console = False
    for line in (ROOT / "README.md").read_text().splitlines():
        if line.startswith("```"):
            in_console = line.strip() == "```console"
            continue
        if not in_console:
            continue
        if line.startswith("$ euchre "):
            out.append((line[2:], []))
        elif out and line.strip() not in ("", "..."):
            out[-1][1].append(line)
    return [(command, lines) for command, lines in out if lines]


TIMING = re.compile(r"\d[\d.]* (s|min)\b")
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")


def figures(lines) -> list[str]:
    """Every number printed in ``lines``, in order, but the timings (they vary by machine)."""
    return [n for line in lines for n in NUMBER.findall(TIMING.sub("", line))]


def test_the_readme_shows_outputs():
    assert len(readme_outputs()) >= 3


@pytest.mark.parametrize("command, lines", readme_outputs(), ids=lambda v: str(v)[:40])
def test_the_readme_prints_what_the_command_prints(command, lines, capsys, monkeypatch):
    """The figures of an example's output in the README are what the command prints today,
    at the README's sizes (each is seconds here), in order — so a change of behaviour that
    moves an answer shows as a failing README, not a stale one. Wrapping may differ."""
    for name in ("EUCHRE_STRATEGY_DEALS", "EUCHRE_STRATEGY_ROUNDS"):
        monkeypatch.delenv(name, raising=False)  # the shipped strategies, as a reader has
    assert run(shlex.split(command)[1:]) == 0
    printed = figures(capsys.readouterr().out.splitlines())
    want = figures(lines)
    it = iter(printed)
    missing = [n for n in want if n not in it]  # a subsequence, in order
    assert not missing, f"{command}: README shows {want}, the command printed {printed}"
