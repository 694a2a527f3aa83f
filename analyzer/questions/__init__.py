"""The questions the analyzer answers: odds, solving a deal, strategy tables and reports,
whole-game simulations, pricing files of hands, and reviewing played hands."""
