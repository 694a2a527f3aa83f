"""``euchre advise``: a bot's interface — one JSON view a line on standard input, one JSON
answer a line on standard output (``questions.advise.advise_stream``)."""

import signal

import typer

from . import common as opt
from .app import app


@app.command("advise")
def advise_cmd(workers: opt.WorkersOption = None):
    """A bot's interface: one JSON view a line in (what one seat knows at its turn), one
    JSON answer a line out (the best action and every legal option's net points).

    Each answer is written and flushed as soon as it is known, in order. The kernels load
    once, so a bot keeps this process open and asks at every turn, from any language. A line
    that is not a view gets {"line": N, "error": "..."} and the stream goes on; it ends at
    the end of the input (exit 0) or on Ctrl-C (exit 130). The same view and seed give the
    same answer. A view's fields (docs/advise.md): variant, rules, seat, dealer, hand (held
    now), upcard, auction, played, discarded, dummy, trump; deals (default 500), method
    (default dd), seed; id (echoed in the answer).

      echo '{"variant": "knock", "seat": "E", "dealer": "N", "hand": "JS AS KS 9H TD",
      "upcard": "QS"}' | euchre advise

      cat views.jsonl | euchre advise --workers 1 > answers.jsonl

      python examples/advise_bot.py --games 2    (a bot playing whole knock games)
    """
    from ..questions.advise.advise_stream import answer_stream, stdin_lines, write_flushed

    written = [0]

    def write(text: str) -> None:
        # a Ctrl-C waits until the line is out and counted (masking the signal is not
        # enough: another thread may take it, and the main thread raises at its next step)
        pending: list = []
        before = signal.signal(signal.SIGINT, lambda *_: pending.append(True))
        try:
            write_flushed(text)
            written[0] += 1
        finally:
            signal.signal(signal.SIGINT, before)
        if pending:
            raise KeyboardInterrupt

    try:
        answer_stream(stdin_lines(), write, workers)
    except KeyboardInterrupt:
        n = written[0]
        opt.err_console.print(f"interrupted after {n:,} answer{'' if n == 1 else 's'}",
                              soft_wrap=True)
        raise typer.Exit(130) from None
