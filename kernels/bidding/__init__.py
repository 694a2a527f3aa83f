"""What a call is worth and what the exchanges are: the point count and the analyzer's table
(``bidding``), its fitted model of the upcard auction (``upcard_model``), the exchanges'
rules (``exchange_rules``: who takes the upcard or the dummy, what an n-ask returns) and the
heuristic choices in them (``exchange_heuristics``). Imports cards/ and deal/."""
