"""Names and defaults of the strategies and of the ways to play the cards, with nothing heavy
to import: the command line's options read them before anything is computed."""

DEFAULT_STRATEGY = "analyzer"  # the best strategy the project has: every later call, by default
# how a seat bids (kernels.hand.policies D_*): "analyzer" by its table and, where the rules have
# one (knock), its fitted model (analyzer.strategy.fitted.has_model), playing to the score when
# a game's score is known (analyzer.strategy.score_lens); "analyzer-points" the same by the points
# of the hand, score or not (the analyzer before it played to the score); "table" by its table
# alone, score-blind
DECISION_NAMES = ("random", "points", "analyzer", "table", "analyzer-points")
SCORE_BLIND = "analyzer-points"
# the card play the built strategies' calls are played out with (their tables and models)
BUILT_PLAY = "heuristic"
BUILT_STRATEGIES = ("analyzer", "table", "analyzer-points")
# how a seat plays (kernels.hand.policies P_*): "analyzer" the learned card player
# (kernels.play.analyzer_player, its weights from analyzer.strategy.card_player)
PLAY_NAMES = ("random", "heuristic", "dd", "pimc", "analyzer")
METHODS = ("analyzer", "dd", "heuristic", "pimc")  # how a question's hands are played
DEFAULT_METHOD = "analyzer"  # how a question's hands are played when it does not say: the
# analyzer's card player (docs/card-player.md); "dd" and "heuristic" on request
DEFAULT_PLAY = DEFAULT_METHOD  # how a seat plays its cards when no one says (euchre play,
# simulate): the same player
DEFAULT_WORLDS = 20  # worlds a PIMC player samples at each card
# the card players of `euchre match`: every play policy above (a new one is a player once it
# is named there) and the player whose every card is the card question's answer
ADVISED = "advise"
MATCH_PLAYERS = (*PLAY_NAMES, ADVISED)
MATCH_WORLDS = 100  # worlds a pimc player samples at each card in a match
ADVISE_DEALS = 500  # deals of a bot's question (euchre advise): it asks at every turn
CALL_DEALS = 400  # deals a reviewed call is priced on
REVIEW_WORLDS = 40  # worlds per card when a review judges cards by PIMC
TREMBLE = 0.03  # inference: the chance a seat makes another legal call than its strategy's
LIMIT_SECONDS = 6 * 3600  # runs estimated longer are refused (the CLI's --force lifts it)
