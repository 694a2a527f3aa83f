"""Whole hands and games played out: two strategies over whole games on the same deals
(``whole_games``: ``simulate``), the rollout bidder that asks the odds question at each of its
calls (``rollout``), duplicate matches between card players and their ladder
(``card_match``: ``match``), and single hands played and scored (``play``)."""

from ...exports import lazy_exports

EXPORTS = {
    "card_match": ("MatchSettings", "ladder", "match", "match_games"),
    "play": ("play_game", "play_hands", "play_one", "score_record"),
    "whole_games": ("SimResult", "simulate"),
}
__all__ = sorted(name for names in EXPORTS.values() for name in names)
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
