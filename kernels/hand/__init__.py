"""One hand, phase by phase (``engine``): the bidding (``auction``), the exchanges
(``exchanges``) and the tricks (``tricks``), every decision dispatched to the seat's policy
by its id (``policies``: the point count and the analyzer's values from bidding/, the
heuristic, PIMC and double-dummy players from play/). Imports every room below it."""
