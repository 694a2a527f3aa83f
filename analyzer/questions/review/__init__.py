"""Judging what was played: a played hand reviewed double dummy, each card by what it cost
(``review_hand``: ``review``), each call priced where it was made (``review_calls``), and a
file of hands priced by the odds engine (``evaluate``: ``evaluate_file``)."""

from ...exports import lazy_exports

EXPORTS = {
    "evaluate": ("check_run", "count_rows", "evaluate_file"),
    "review_calls": ("call_rows",),
    "review_hand": ("all_decisions", "review", "review_records", "reviewed", "summarise"),
}
__all__ = sorted(name for names in EXPORTS.values() for name in names)
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
