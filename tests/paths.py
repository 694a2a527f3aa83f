"""Paths and small files the tests share: the checkout, the recorded hands, a hand file."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "records"
KNOCK_ROW = "AH JH KD QD JD,E,N,9H"  # a knock hand file's row: hand, seat, dealer, upcard


def hands_file(tmp_path, rows=(KNOCK_ROW,), name="h.csv", header="hand,seat,dealer,upcard"):
    """A CSV file of hands under ``tmp_path``: the ``header`` line, then ``rows``."""
    f = tmp_path / name
    f.write_text(header + "\n" + "\n".join(rows) + "\n")
    return f
