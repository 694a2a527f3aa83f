"""The odds of a decision point: "what are my odds with this hand?", "should I order up?".
The question is described once (``odds_request``: its fields, ``OddsRequest``), its point
opened and its cards read (``answer``: ``odds``, ``ask``), its legal options listed
(``options``) and each played out on the same deals (``decide``), the calls raced and a
default run stopped once the answer is clear (``race``), the unseen hands conditioned
(``given``) and played as ``PlayModel`` says (``play_model``)."""

from ...exports import lazy_exports

EXPORTS = {
    "answer": ("OddsResult", "Question", "ask", "check_question", "decision_point",
               "exact_estimate", "odds", "odds_at", "question_of"),
    "decide": ("chunk_counts", "prepare"),
    "odds_request": ("FIELD_BY_NAME", "ODDS_FIELDS", "OddsRequest", "request"),
    "options": ("CallOption", "call_label", "call_name", "option_label"),
    "play_model": ("PlayModel",),
}
__all__ = sorted(name for names in EXPORTS.values() for name in names)
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
