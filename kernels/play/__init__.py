"""How a card player chooses a card: the rules of thumb (``play_heuristic``) and the players
that solve double dummy, alone or over sampled worlds (``pimc``). Imports cards/, deal/ and
solver/."""
