"""The drivers over the hand engine, each many hands for one kind of question: a decision
point and an option played out from it (``forced``), the odds query (``query``), the strategy
tables' decision rows (``decisions``) and whole games and matches (``games``). Imports every
room below it."""
