"""The advise stream (``euchre advise``): one JSON view a line in, one JSON answer a line out,
in order, each written as soon as it is known — so a bot in any language keeps one process
open (the kernels load once) and asks at every turn. A line that is not a view gets an error
line, ``{"line": N, "error": "..."}`` (with the view's ``id`` when it has one), and the stream
goes on."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable

from ...errors import UserError
from ...numbers import json_loads
from ...outputs import json_text
from .bot_view import advise, view_message


def answer_line(text: str | bytes, number: int, workers: int | None = None) -> dict:
    """The answer to line ``number`` (from 1) of a stream, ``text`` (bytes are read as
    UTF-8): :func:`analyzer.questions.advise.bot_view.advise`'s answer, or ``{"line", "error"}``
    (and the view's ``id``) when the line is not a view. KeyboardInterrupt passes through."""
    view = None
    try:
        if isinstance(text, bytes):
            text = _decoded(text, number)
        text = text.strip()
        if not text:
            raise UserError("an empty line: write one JSON object (a view) a line")
        try:
            view = json_loads(text)  # a number too long for any field: UserError
        except json.JSONDecodeError as e:
            raise UserError(f"not JSON: {e.msg} at column {e.colno}") from None
        except RecursionError:
            raise UserError("not a view: JSON nested too deeply") from None
        return advise(view, workers)
    except UserError as e:
        return _error(number, view_message(e), view)
    except Exception as e:  # noqa: BLE001  (one bad line must not end a bot's stream)
        if _interrupted(e):
            raise KeyboardInterrupt from None
        return _error(number, f"internal error (a bug: please report it with the line): "
                              f"{type(e).__name__}: {e}", view)


def _interrupted(error: BaseException | None) -> bool:
    """Whether ``error`` came from Ctrl-C: numba raises a SystemError when the interrupt
    lands as a compiled function returns, the KeyboardInterrupt as its cause."""
    while error is not None:
        if isinstance(error, KeyboardInterrupt):
            return True
        error = error.__cause__ or error.__context__
    return False


def _decoded(raw: bytes, number: int) -> str:
    """A line's bytes as text (UTF-8; a byte-order mark on the first line is dropped)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError("the line is not UTF-8 text") from None
    return text.removeprefix("\ufeff") if number == 1 else text


def _error(number: int, message: str, view) -> dict:
    """An error line: the line's number, the message, and the view's ``id`` if it had one."""
    out = {"line": number, "error": " ".join(message.split())}
    if isinstance(view, dict) and "id" in view:
        out["id"] = view["id"]
    return out


def answer_stream(lines: Iterable, write: Callable[[str], None],
                  workers: int | None = None) -> int:
    """Answer every line of ``lines`` (text or bytes, one view each) by ``write``-ing one
    line of strict JSON each, in order, until the lines end. Returns the number of lines
    answered; KeyboardInterrupt (Ctrl-C) passes through, between answers."""
    count = 0
    for number, line in enumerate(lines, start=1):
        write(json_text(answer_line(line, number, workers), indent=None) + "\n")
        count = number
    return count


def stdin_lines() -> Iterable[bytes]:
    """Standard input's lines as they arrive (bytes: each decoded, or refused, alone)."""
    source = getattr(sys.stdin, "buffer", None)
    if source is None:  # a text stream without bytes underneath (a test's)
        return (line.encode("utf-8", "surrogateescape") for line in
                iter(sys.stdin.readline, ""))
    return iter(source.readline, b"")


def write_flushed(text: str) -> None:
    """Write ``text`` to standard output and flush it (the bot is waiting for it)."""
    sys.stdout.write(text)
    sys.stdout.flush()
