"""Pricing a file of hands (``euchre evaluate``): every hand gets the odds engine's answer.

Input is CSV (a header with a ``hand`` column and optional ``seat``, ``dealer``, ``upcard``,
``trump``, ``auction``, ``score``: then the hand is priced in games won at that score, the
``p_win`` column), JSON lines (one object per line with the same keys; ``hand`` a string
or a list) or plain text (one hand per line, optionally followed by ``key=value`` fields, a
value with spaces in double quotes, ``auction="E pass, S pass"``; ``#`` starts a comment).
Each hand is priced at its decision point: the calls in ``auction`` heard (none: the hand's
first call), every legal call there played out to the end of the hand.

Rows are read one at a time and their results appended to a journal,
``OUT.partial.csv``, as each finishes; when the file is done the journal becomes the output
(renamed for CSV, converted in row batches for Parquet). So memory stays bounded whatever the
file's length, an interrupted run loses at most the hand in progress, and ``resume=True``
continues after the last row in the journal. Each hand is dealt from the same seed, so a
resumed run gives exactly the rows an uninterrupted one would.

A bad row (not a hand, a card twice, a seat that does not exist, ...) is reported with its line
number and skipped, or with ``strict=True`` stops the run; a bad file (missing, no ``hand``
column, unknown columns) is a UserError.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ...compute.effort import Effort
from ...errors import UserError
from ...game.heard import heard_text, parse_heard
from ...game.notation import SEATS, CardReader, NotationError
from ...game.variants import Rules
from ...numbers import json_loads
from ...outputs import check_output
from ...strategy.defaults import DEFAULT_METHOD
from ...strategy.defaults import DEFAULT_STRATEGY as DEFAULT_OTHERS
from ...strategy.named import DEFAULT_WORLDS
from ..odds.answer import odds
from ..odds.options import option_label
from ..odds.play_model import PlayModel

MAX_LINE = 10_000  # characters: a row of hands is far shorter; longer is not one
FIELDS = ("hand", "seat", "dealer", "upcard", "trump", "auction", "score")
NUMBER_FIELDS = ("score",)  # read as written: the one number rule refuses a space in them
OUT_COLUMNS = ["line", "hand", "seat", "dealer", "upcard", "trump", "auction", "score",
               "best_option", "best_trump", "best_detail", "ev", "ev_low", "ev_high", "p_win",
               "p_we_make",
               "p_we_make_low", "p_we_make_high", "p_they_make", "runner_up", "margin",
               "margin_low", "margin_high", "too_close", "deals", "acceptance", "options"]
FLOAT_COLUMNS = ("ev", "ev_low", "ev_high", "p_win", "p_we_make", "p_we_make_low", "p_we_make_high",
                 "p_they_make", "margin", "margin_low", "margin_high", "acceptance")
_FIELD = re.compile(r'(\w+)=(?:"([^"]*)"|([^\s,]*))')
DEFAULT_DEALS = 2_000


@dataclass
class Row:
    """One input row: its line number in the file and its fields (name -> text)."""

    line: int
    fields: dict


@dataclass
class BadRow:
    """An input row that cannot be evaluated, with the reason in one line."""

    line: int
    message: str


@dataclass
class EvalSummary:
    """What a run did: rows evaluated now, rows found done in the journal, bad rows (line,
    message), whether it was interrupted, and the output file (None until finished)."""

    evaluated: int = 0
    resumed: int = 0
    bad: list = field(default_factory=list)
    interrupted: bool = False
    output: Path | None = None
    fresh: bool = False  # --resume found no interrupted run and started from the first row


# ---------------------------------------------------------------------------- reading


def detect_format(path: Path) -> str:
    """``csv``, ``tsv``, ``jsonl`` or ``text`` from the file name's ending."""
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv"):
        return suffix[1:]
    if suffix in (".jsonl", ".ndjson", ".json"):
        return "jsonl"
    return "text"


def read_rows(path: Path, fmt: str | None = None) -> Iterator[Row | BadRow]:
    """The rows of a hand file, one at a time, as Row or BadRow. Raises UserError when the
    file as a whole is unusable."""
    fmt = fmt or detect_format(path)
    try:
        handle = open(path, newline="" if fmt in ("csv", "tsv") else None,
                      encoding="utf-8-sig")
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror or e}") from None
    with handle:
        try:
            if fmt in ("csv", "tsv"):
                try:
                    yield from _csv_rows(handle, path, "\t" if fmt == "tsv" else ",")
                except csv.Error as e:
                    raise UserError(f"{path} is not a {fmt.upper()} file of hands: {e}") \
                        from None
            elif fmt == "jsonl":
                yield from _jsonl_rows(handle)
            else:
                yield from _text_rows(handle)
        except UnicodeDecodeError:
            raise UserError(f"{path} is not a UTF-8 text file") from None


def _shown(text: str, most: int = 60) -> str:
    """``text`` cut to ``most`` characters for a message (a header can be a megabyte)."""
    return text if len(text) <= most else text[:most] + "..."


def _unknown(keys) -> list:
    return [k for k in keys if k not in FIELDS]


def _field_text(key: str, text: str) -> str:
    """A field's text as a row holds it: stripped of the spaces around it, but a number's
    (``NUMBER_FIELDS``), which is read as written in every form of file, as a .jsonl value,
    an option and an API parameter are (``analyzer.numbers``: a space-padded number is
    refused)."""
    return text if key in NUMBER_FIELDS else text.strip()


def _csv_rows(handle, path: Path, delimiter: str) -> Iterator[Row | BadRow]:
    reader = csv.reader(handle, delimiter=delimiter)
    header = None
    last = 0  # the line the previous record ended on
    for record in reader:
        first, last = last + 1, reader.line_num
        if any("\n" in c for c in record):  # a quote never closed swallowed the lines after it
            yield BadRow(first, f'a quote (") opened here is not closed before line {last}')
            continue
        if not record or all(not c.strip() for c in record):
            continue
        if header is None:
            header = [c.strip().lower() for c in record]
            if "hand" not in header:
                raise UserError(f"{path}: the header (line {reader.line_num}) has no "
                                f"'hand' column; it has {_shown(', '.join(header))} "
                                f"(allowed: {', '.join(FIELDS)})")
            if _unknown(header):
                raise UserError(f"{path}: unknown column {_shown(_unknown(header)[0])!r} in "
                                f"the header;"
                                f" columns are {', '.join(FIELDS)}")
            twice = sorted({c for c in header if header.count(c) > 1})
            if twice:
                raise UserError(f"{path}: the column {twice[0]!r} appears twice in the header")
            continue
        line = reader.line_num
        if len(record) != len(header):
            yield BadRow(line, f"{len(record)} fields, but the header has {len(header)}")
            continue
        yield Row(line, {k: _field_text(k, v) for k, v in zip(header, record, strict=True)
                         if v.strip()})


def _jsonl_rows(handle) -> Iterator[Row | BadRow]:
    for line, text in enumerate(handle, start=1):
        if not text.strip():
            continue
        if len(text) > MAX_LINE:
            yield BadRow(line, f"longer than {MAX_LINE:,} characters")
            continue
        try:
            obj = json_loads(text)
        except json.JSONDecodeError as e:
            yield BadRow(line, f"not JSON ({e.msg})")
            continue
        except UserError as e:  # a number too long for any field
            yield BadRow(line, str(e))
            continue
        if not isinstance(obj, dict):
            yield BadRow(line, "not a JSON object")
            continue
        if _unknown(obj):
            yield BadRow(line, f"unknown key {_unknown(obj)[0]!r}; keys are {', '.join(FIELDS)}")
            continue
        if isinstance(obj.get("hand"), list):
            obj["hand"] = " ".join(str(c) for c in obj["hand"])
        yield Row(line, {k: str(v) for k, v in obj.items() if v is not None})


def _text_rows(handle) -> Iterator[Row | BadRow]:
    for line, text in enumerate(handle, start=1):
        if len(text) > MAX_LINE:
            yield BadRow(line, f"longer than {MAX_LINE:,} characters")
            continue
        text = text.split("#", 1)[0].strip()
        if not text:
            continue
        pairs = [(m.group(1).lower(), m.group(2) if m.group(2) is not None else m.group(3))
                 for m in _FIELD.finditer(text)]
        pairs = [(k, _field_text(k, v)) for k, v in pairs]
        fields = dict(pairs)
        cards = _FIELD.sub(" ", text).replace(",", " ").split()
        if len(fields) < len(pairs):
            keys = [k for k, _ in pairs]
            yield BadRow(line, f"the field {next(k for k in keys if keys.count(k) > 1)!r} is "
                               f"given twice")
            continue
        if _unknown(fields):
            yield BadRow(line, f"unknown field {_unknown(fields)[0]!r}; fields are "
                               f"{', '.join(FIELDS[1:])}")
            continue
        fields["hand"] = " ".join(cards)
        yield Row(line, fields)


def count_rows(path: Path) -> int:
    """Non-blank lines of the file (an upper bound on its rows, for the progress bar)."""
    try:
        with open(path, "rb") as f:
            return sum(1 for text in f if text.strip())
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror}") from None


# ---------------------------------------------------------------------------- one hand


def evaluate_row(rules: Rules, row: Row, *, deals: int, method: str, seed: int,
                 others: str = DEFAULT_OTHERS, worlds: int = DEFAULT_WORLDS) -> dict:
    """The output row (``OUT_COLUMNS``) for one input row: the best call at its decision
    point against the runner-up, and every call's value. Raises UserError for a bad row and
    KeyboardInterrupt when interrupted mid-hand (a partial answer is never written)."""
    f = row.fields
    if not f.get("hand"):
        raise UserError("no hand")
    if rules.has_upcard and "upcard" not in f:
        raise UserError(f"{rules.variant} hands need an upcard")
    result = odds(f["hand"], rules=rules, trump=f.get("trump"), seat=f.get("seat", "N"),
                  dealer=f.get("dealer"), upcard=f.get("upcard"), auction=f.get("auction"),
                  score=f.get("score") or None, method=method, others=others, deals=deals,
                  seed=seed, worlds=worlds,
                  all_details=True)  # the row lists every option's value
    if result.interrupted:
        raise KeyboardInterrupt
    table = result.options
    v = result.best
    best = table[table["label"] == v["label"]].iloc[0]  # by games won when there is a score
    out = {"line": row.line, "hand": result.hand, "seat": result.seat,
           "dealer": result.dealer or "", "upcard": result.upcard or "",
           "trump": f.get("trump", "").upper(), "auction": result.auction,
           "score": result.score,
           "best_option": v["call"], "best_trump": v["trump"], "best_detail": v["detail"],
           "runner_up": option_label(v["runner_up"] or "", v["runner_up_trump"] or "",
                                   v["runner_up_detail"] or ""),
           "too_close": bool(v["too_close"]), "deals": result.deals,
           # every option priced, each discard and card given too (the verdict compares calls)
           "options": json.dumps({option_label(r.option, r.trump, r.detail): round(float(r.ev), 4)
                                  for r in result.details.itertuples()})}
    for col in ("ev", "ev_low", "ev_high", "p_we_make", "p_we_make_low", "p_we_make_high",
                "p_they_make"):
        out[col] = float(best[col])
    out["p_win"] = float(best["p_win"]) if "p_win" in best else math.nan
    for col in ("margin", "margin_low", "margin_high"):
        out[col] = math.nan if v[col] is None else round(float(v[col]), 4)
    out["acceptance"] = float(result.acceptance)
    return out




# ---------------------------------------------------------------------------- the journal


def journal_path(out: Path) -> Path:
    """Where rows go while a run is in progress."""
    return out.with_name(out.name + ".partial.csv")


def _settings_path(out: Path) -> Path:
    return out.with_name(out.name + ".partial.json")


def _last_done(journal: Path) -> tuple[int, int]:
    """``(line, rows)``: the input line number of the last complete row in the journal (0 if
    none) and how many rows it holds; a row cut off by a kill is removed first."""
    with open(journal, "rb+") as f:
        size = f.seek(0, os.SEEK_END)
        f.seek(0)
        data = f.read()
        end = data.rfind(b"\n") + 1  # 0 when no complete line is there
        f.truncate(end if end else size)
    lines = data[:end].splitlines()[1:]  # the header first
    first = lines[-1].split(b",", 1)[0] if lines else b""
    return (int(first) if first.isdigit() else 0), len(lines)


def _open_journal(out: Path, settings: dict, resume: bool) -> tuple[object, int, int]:
    """``(handle, last line done, rows done)`` of the run's journal: a new one, or with
    ``resume`` the interrupted run's (UserError when its settings differ)."""
    journal, saved = journal_path(out), _settings_path(out)
    if journal.exists() and not resume:
        raise UserError(f"an interrupted run left {journal}: add --resume to continue it, or "
                        f"delete it to start again")
    done = rows = 0
    if resume and journal.exists():
        before = json.loads(saved.read_text()) if saved.exists() else {}
        if before != settings:
            changed = [k for k in settings if before.get(k) != settings[k]]
            raise UserError(f"--resume: the interrupted run used different settings "
                            f"({', '.join(changed)}); run it with the same ones")
        done, rows = _last_done(journal)
        handle = open(journal, "a", newline="", encoding="utf-8")
        if journal.stat().st_size == 0:
            csv.writer(handle).writerow(OUT_COLUMNS)
    else:
        saved.write_text(json.dumps(settings))
        handle = open(journal, "w", newline="", encoding="utf-8")
        csv.writer(handle).writerow(OUT_COLUMNS)
    handle.flush()
    return handle, done, rows


def _finish(out: Path) -> Path:
    """Turn the journal into the output file and remove the run's scratch files."""
    journal = journal_path(out)
    if out.suffix.lower() == ".parquet":
        import pyarrow as pa
        import pyarrow.csv as pacsv
        import pyarrow.parquet as pq

        types = {c: pa.string() for c in OUT_COLUMNS}
        types.update({c: pa.float64() for c in FLOAT_COLUMNS}, line=pa.int64(), deals=pa.int64(),
                     too_close=pa.bool_())
        schema = pa.schema([(c, types[c]) for c in OUT_COLUMNS])
        reader = pacsv.open_csv(journal, convert_options=pacsv.ConvertOptions(
            column_types=types, strings_can_be_null=False))
        with pq.ParquetWriter(out, schema) as writer:
            for batch in reader:
                writer.write_batch(batch)
        journal.unlink()
    else:
        journal.replace(out)
    _settings_path(out).unlink(missing_ok=True)
    return out


# ---------------------------------------------------------------------------- the run


def evaluate_file(path: Path, rules: Rules, out: Path | None, *, deals: int = DEFAULT_DEALS,
                  method: str = DEFAULT_METHOD, seed: int = 0, others: str = DEFAULT_OTHERS,
                  worlds: int = DEFAULT_WORLDS,
                  resume: bool = False, strict: bool = False,
                  on_row: Callable[[dict], None] | None = None,
                  on_bad: Callable[[BadRow], None] | None = None,
                  on_progress: Callable[[int], None] | None = None) -> EvalSummary:
    """Evaluate every hand of ``path`` for ``rules``, writing rows to ``out`` (CSV or
    Parquet; None writes nothing and only calls ``on_row``). ``on_bad`` hears each bad row,
    ``on_progress`` the line number reached. Returns an EvalSummary. Raises UserError for a
    bad file, bad settings, or (``strict``) the first bad row."""
    check_run(path, out, method, deals)
    summary = EvalSummary()
    handle, done = None, 0
    if out is not None:
        settings = {"file": str(path.resolve()), "variant": rules.variant,
                    "rules": rules.options, "deals": deals, "method": method, "seed": seed,
                    "others": others, "worlds": worlds}
        summary.fresh = resume and not journal_path(out).exists()
        handle, done, summary.resumed = _open_journal(out, settings, resume)
    writer = csv.writer(handle) if handle else None
    if done:
        _check_unchanged(path, out, rules)
    try:
        for row in read_rows(path):
            if row.line <= done:  # priced before --resume (counted from the journal)
                continue
            if isinstance(row, Row):
                try:
                    result = evaluate_row(rules, row, deals=deals, method=method, seed=seed,
                                          others=others, worlds=worlds)
                except UserError as e:
                    row = BadRow(row.line, str(e))
                else:
                    if writer is not None:
                        writer.writerow([_cell(result[c]) for c in OUT_COLUMNS])
                        handle.flush()
                    summary.evaluated += 1
                    if on_row is not None:
                        on_row(result)
            if isinstance(row, BadRow):
                if strict:
                    raise UserError(f"{path}, line {row.line}: {row.message} (--strict)")
                summary.bad.append((row.line, row.message))
                if on_bad is not None:
                    on_bad(row)
            if on_progress is not None:
                on_progress(row.line)
    except KeyboardInterrupt:
        summary.interrupted = True
    except UserError:  # --strict stopped at a bad row: the run failed, nothing to resume
        summary.evaluated = summary.resumed = 0
        raise
    finally:
        if handle is not None:
            handle.close()
            if summary.evaluated + summary.resumed == 0:
                _remove_scratch(out)  # nothing priced, or a failed run: nothing to resume
    return _close_run(summary, path, out)


def _close_run(summary: EvalSummary, path: Path, out: Path | None) -> EvalSummary:
    """The summary of a run that ended, its output written; UserError when no hand at all
    could be evaluated."""
    if summary.evaluated + summary.resumed == 0 and not summary.interrupted:
        raise UserError(f"no hand in {path} could be evaluated ({_rows(len(summary.bad))} "
                        f"bad)" if summary.bad else f"{path} holds no hands")
    if out is not None and not summary.interrupted:
        summary.output = _finish(out)
    return summary


def _rows(n: int) -> str:
    return f"{n:,} row" + ("" if n == 1 else "s")


def _remove_scratch(out: Path) -> None:
    journal_path(out).unlink(missing_ok=True)
    _settings_path(out).unlink(missing_ok=True)


def check_run(path: Path, out: Path | None, method: str, deals: int) -> None:
    """UserError for settings no row could be evaluated with (the input file, the output
    path, the method, the deals): checked before anything starts."""
    PlayModel(method=method).check()
    Effort(deals).check()
    if path.is_dir():
        raise UserError(f"{path} is a folder: give a file of hands")
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    if out is not None:
        check_output(out, inputs=[path], suffixes=(".csv", ".parquet"))


def _identity(rules: Rules, f: dict) -> tuple:
    """What a row asks, in a canonical form: the hand and upcard as masks, the seats, the
    trump and the calls heard (spelling and card order do not matter)."""
    reader = CardReader(rules)
    seat = (f.get("seat") or "N")[:1].upper()
    try:
        dealer = (f.get("dealer") or SEATS[(SEATS.index(seat) - 1) % rules.players])[:1]
        return (reader.cards(f.get("hand", "")),
                reader.card(f["upcard"]) if f.get("upcard") else -1, seat, dealer.upper(),
                f.get("trump", "").upper(),
                heard_text(parse_heard(f.get("auction", ""), rules), rules),
                f.get("score", "").strip())
    except (NotationError, UserError, ValueError):
        return ("unreadable", f.get("hand"))


def _check_unchanged(path: Path, out: Path, rules: Rules) -> None:
    """UserError when a row the interrupted run priced now asks something else (the input
    was edited since): resuming would keep the old answer."""
    with open(journal_path(out), newline="", encoding="utf-8") as f:
        priced = {int(r["line"]): r for r in csv.DictReader(f) if r.get("line", "").isdigit()}
    last = max(priced, default=0)
    for row in read_rows(path):
        if row.line > last:
            break
        before = priced.get(row.line)
        if before is None:
            continue
        if isinstance(row, BadRow) or _identity(rules, row.fields) != _identity(rules, before):
            raise UserError(f"--resume: line {row.line} of {path} changed since the "
                            f"interrupted run priced it; start again without --resume")


def _cell(value):
    if isinstance(value, float):
        return "" if math.isnan(value) else repr(value)
    return value
