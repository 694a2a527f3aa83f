"""The chance of winning the game from every score, and what the score changes: a rule set's
match-equity table, its hands played by self-play, shipped and cached (``build``), checked
against whole games played from a score (``equity_check``) and iterated with the strategy
that plays to the score (``equity_rounds``); the seats told the score (``to_score``) and the
calls that change with it (``score_calls``)."""

from ...exports import lazy_exports

EXPORTS = {
    "build": ("equity_frame", "equity_table", "heat_frames", "meta_of", "view_frames"),
    "equity_check": ("check_frame", "check_table"),
    "score_calls": ("readable", "score_thresholds", "shows_score"),
    "to_score": ("scored_match", "tell_score"),
}
__all__ = sorted(name for names in EXPORTS.values() for name in names)
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
