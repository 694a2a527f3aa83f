# Every target does its own set-up: a fresh clone needs only `make demo` or `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO_DIR ?= out/demo

.PHONY: demo test test-slow lint bench clean serve strategies

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# On a first run the play step compiles the hand engine, minutes of one core: the second core
# compiles the engine's card play meanwhile (kernels.hand.pointers.compile_card_play), which the
# play step then finds cached (97 s against 159 s on two cores), and goes on to a whole-game
# simulation (the analyzer's bidding against the point count; the suite's simulations then
# find its kernels cached). The report runs on the second core while the two odds questions
# run. Their output is shown when they are done.
CARD_PLAY_FIRST = $(BIN)/python -c "import os, sys; from analyzer.game.variants import \
	make_rules; from analyzer.compute.first_compile import compile_card_play_once; \
	compile_card_play_once(make_rules('knock')); os.execv(sys.argv[1], sys.argv[1:])"

demo: $(STAMP)
	$(BIN)/euchre rules knock
	@echo
	@mkdir -p $(DEMO_DIR)
	@$(CARD_PLAY_FIRST) $(BIN)/euchre simulate --variant knock --games 2000 --strategy analyzer \
	    --vs points > $(DEMO_DIR)/simulate.log 2>&1 & sim=$$!; \
	trap 'kill $$sim 2>/dev/null' INT TERM; \
	echo '$(BIN)/euchre play --variant knock --seed 1' && \
	$(BIN)/euchre play --variant knock --seed 1; played=$$?; echo; \
	$(BIN)/euchre report --variant knock --deals 20000 -o $(DEMO_DIR)/knock-report.html \
	    > $(DEMO_DIR)/report.log 2>&1 & report=$$!; \
	trap 'kill $$sim $$report 2>/dev/null' INT TERM; \
	echo '$(BIN)/euchre odds JH JD AH KH QH 9S --variant bid --deals 20000' && \
	$(BIN)/euchre odds JH JD AH KH QH 9S --variant bid --deals 20000 && echo && \
	echo '$(BIN)/euchre odds AH JH KD QD JD --variant knock --upcard 9H --seat E --dealer N' && \
	$(BIN)/euchre odds AH JH KD QD JD --variant knock --upcard 9H --seat E --dealer N && echo; \
	odds=$$?; wait $$sim; simulated=$$?; wait $$report; done=$$?; \
	echo '$(BIN)/euchre simulate --variant knock --games 2000 --strategy analyzer --vs points'; \
	cat $(DEMO_DIR)/simulate.log; echo; \
	echo '$(BIN)/euchre report --variant knock --deals 20000 -o $(DEMO_DIR)/knock-report.html'; \
	cat $(DEMO_DIR)/report.log; \
	[ $$played = 0 ] && [ $$odds = 0 ] && [ $$simulated = 0 ] && [ $$done = 0 ]
	@echo "open $(DEMO_DIR)/knock-report.html in a browser to read the demo report"

serve: $(STAMP)
	$(BIN)/euchre serve

# one pytest worker per core (pytest-xdist): the suite's numba compile and its tests share them;
# a worker that runs out of tests takes some of the other's (worksteal: with xdist's default
# one worker sat idle for the last two minutes while the other ran the tests queued for it)
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist worksteal

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -n auto -m slow

# rebuild the shipped analyzer strategies (analyzer.strategy.best_response.SHIPPED) and fitted
# models (analyzer.strategy.fitted.SHIPPED_MODELS), minutes each; the card players
# (analyzer.strategy.card_player.SHIPPED_PLAYERS), an hour or more each; then the hands of their
# match-equity tables, and where the analyzer plays to the score its lens and the rounds of
# the table iterated with it (analyzer.questions.equity.build.ship_score)
strategies: $(STAMP)
	EUCHRE_STRATEGY_DEALS= EUCHRE_STRATEGY_ROUNDS= $(BIN)/python -c "from analyzer.game.variants \
	import make_rules; from analyzer.strategy.best_response import SHIPPED, ship; \
	[print(ship(make_rules(v, **o))) for v, o in SHIPPED]; \
	from analyzer.strategy.fitted import SHIPPED_MODELS, ship_model; \
	[print(ship_model(make_rules(v, **o))) for v, o in SHIPPED_MODELS]"
	$(BIN)/python -c "from analyzer.game.variants import make_rules; \
	from analyzer.strategy.card_player import SHIPPED_PLAYERS, ship_player; \
	from analyzer.strategy.seats import seat_policies; \
	[print(ship_player(make_rules(v, **o), lambda r: seat_policies('analyzer', 'heuristic', \
	rules=r))) for v, o in SHIPPED_PLAYERS]"
	EUCHRE_STRATEGY_DEALS= EUCHRE_STRATEGY_ROUNDS= $(BIN)/python -c "from analyzer.game.variants import make_rules; from analyzer.questions.equity.build import SHIPPED_EQUITY, ship_equity; [print(ship_equity(make_rules(v, **o))) for v, o in SHIPPED_EQUITY]"
	EUCHRE_STRATEGY_DEALS= EUCHRE_STRATEGY_ROUNDS= $(BIN)/python -c "from analyzer.game.variants import make_rules; from analyzer.questions.equity.build import SHIPPED_EQUITY, ship_score; [print(*ship_score(make_rules(v, **o))) for v, o in SHIPPED_EQUITY]"
	EUCHRE_STRATEGY_DEALS= EUCHRE_STRATEGY_ROUNDS= $(BIN)/python -c "from analyzer.game.variants import make_rules; from analyzer.questions.equity.build import SHIPPED_ROUNDS, ship_rounds; [print(ship_rounds(make_rules(v, **o))) for v, o in SHIPPED_ROUNDS]"

lint: $(STAMP)
	$(BIN)/ruff check analyzer kernels reports tests

clean:
	rm -rf $(VENV) out .pytest_cache

# make bench BENCH_AGAINST=REV: each figure beside git revision REV's, timed alternately
AGAINST = $(if $(BENCH_AGAINST),--against $(BENCH_AGAINST) --rounds 3)
bench: $(STAMP)
	$(BIN)/euchre bench solve --cold $(AGAINST)
	$(BIN)/euchre bench odds $(AGAINST)
	$(BIN)/euchre bench play $(AGAINST)
	$(BIN)/euchre bench cluster
