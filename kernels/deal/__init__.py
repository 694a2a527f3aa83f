"""A hand begins: the counter-based random streams (``rng``), a hand's record and the
instructions it is run by (``record``), and the deal, with or without conditions on the
unseen cards (``dealing``). Imports cards/."""
