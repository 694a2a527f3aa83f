"""A bot's question at its turn: a seat's view read and answered as the odds question
(``bot_view``: ``advise``), a stream of views one JSON line at a time (``advise_stream``), and
whole games whose advised side's cards are the bot's (``advise_games``)."""

from ...exports import lazy_exports

EXPORTS = {
    "advise_games": ("AdvisedHand", "Ask", "card_choices", "check_rules",
                     "play_advised_game"),
    "advise_stream": ("answer_stream", "stdin_lines", "write_flushed"),
    "bot_view": ("advise", "read_view"),
}
__all__ = sorted(name for names in EXPORTS.values() for name in names)
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
