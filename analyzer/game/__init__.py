"""The game itself, as plain Python: the variants and their options, seating and scoring, card
and deal notation, the recorded-hand format, and the rules in words. Nothing here runs the
engine."""
