"""The match-equity table (analyzer.game.match_equity, analyzer.questions.equity.build, euchre
equity): the game's end is the kernels' rule, the dynamic programme is right on games small enough
to solve by hand or by one linear system, the shipped tables are probabilities (monotone where
they must be) that agree with whole games played from a score, and the command prints and
writes them."""

import numpy as np
import pandas as pd
import pytest

from analyzer.cli import run
from analyzer.game import match_equity as E
from analyzer.game.variants import make_rules
from analyzer.questions.equity import build as Q
from analyzer.questions.equity.equity_check import check_states, check_table
from analyzer.stats import wilson
from kernels.drivers.games import game_winner
from kernels.slots import R

pytestmark = pytest.mark.strategy

VARIANTS = ("knock", "cutthroat", "bid", "ghost")
Z999 = 3.2905  # the check's interval in the test: 99.9% (32 states; 95% would fail one by luck)


@pytest.fixture(scope="module", autouse=True)
def shipped_tables(tmp_path_factory):
    """The tables a reader has: the shipped strategies and hands (not the test suite's small
    strategies), solved into a cache of the module's own."""
    with pytest.MonkeyPatch.context() as mp:
        for name in ("EUCHRE_STRATEGY_DEALS", "EUCHRE_STRATEGY_ROUNDS"):
            mp.delenv(name, raising=False)
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        Q._TABLES.clear()
        yield
        Q._TABLES.clear()


def test_the_game_ends_by_the_kernels_rule():
    """``ScoreRules.winner`` is ``kernels.drivers.games.game_winner`` on every row: ties at the top
    play on, a lead under win_by plays on, negative scores and three players too."""
    rng = np.random.default_rng(1)
    for units, target, win_by in ((2, 10, 1), (2, 10, 2), (2, 32, 1), (3, 10, 1), (3, 32, 1)):
        rules = E.ScoreRules(units, target, win_by, -10, target + 5)
        scores = rng.integers(target - 4, target + 4, size=(3000, units))
        scores[:300] = rng.integers(-12, target + 30, size=(300, units))
        want = [game_winner(np.append(s, [0] * (4 - units)), units, target, win_by)
                for s in scores]
        assert rules.winner(scores).tolist() == want


def _toy_chain(target: int, points, chance, low: int = 0) -> E.ScoreChain:
    rules = E.ScoreRules(2, target, 1, low, target - 1 + max(1, int(np.max(points))))
    counts = np.round(np.asarray(chance) * 10 ** 9).astype(np.int64)
    return E.build_chain(rules, E.HandOutcomes(np.asarray(points), counts))


def test_a_one_point_game_solved_by_hand():
    """To 1 point: the dealing side scores with chance p, the other q, a redeal r passes the
    deal: x = p + r (1 - x), x = (p + r) / (1 + r) — in order and by sweeps alike."""
    p, q, r = 0.5, 0.3, 0.2
    chain = _toy_chain(1, [[1, 0], [0, 1], [0, 0]], [p, q, r])
    assert chain.in_order
    start = np.flatnonzero((chain.states == 0).all(axis=1))[0]
    for solved in (E.solve_in_order(chain), E.solve_by_sweeps(chain)):
        assert solved.values[start, 0] == pytest.approx((p + r) / (1 + r), abs=1e-9)


def test_sweeps_agree_with_one_linear_system():
    """Where scores fall (a set loses points) the sweeps reach the solution of the whole
    linear system, V = B + P V, within their bound; the chances of the units sum to 1."""
    chain = _toy_chain(5, [[1, 0], [2, 0], [0, 1], [-2, 1], [1, -1], [0, 0]],
                       [0.3, 0.1, 0.3, 0.1, 0.15, 0.05], low=-3)
    assert not chain.in_order
    solved = E.solve_by_sweeps(chain)
    n, units = chain.ending.shape
    system = np.eye(n * units)
    for k, p in enumerate(chain.chance):
        going = np.flatnonzero(chain.following[k] < n)
        for j in range(units):  # V(s)[j] takes V(next)[j - 1]
            np.add.at(system, (going * units + j,
                               chain.following[k, going] * units + (j - 1) % units), -p[going])
    exact = np.linalg.solve(system, chain.ending.reshape(-1)).reshape(n, units)
    assert np.abs(solved.values - exact).max() <= solved.unfinished + 1e-12
    assert np.allclose(exact.sum(axis=1), 1)


def test_hands_are_counted_in_deal_order():
    """A hand's points are read from the dealer's unit on: with partners the dealer's team
    first, with three players the dealer, the player on its left, the third."""
    records = np.zeros((2, R.LEN), dtype=np.int64)
    records[0, R.DEALER], records[0, R.POINTS:R.POINTS + 2] = 1, (2, 0)  # E deals, N-S score 2
    assert Q.deal_order_points(make_rules("knock"), records[:1]).tolist() == [[0, 2]]
    records[1, R.DEALER], records[1, R.POINTS:R.POINTS + 3] = 2, (1, 0, 3)
    assert Q.deal_order_points(make_rules("cutthroat"), records[1:]).tolist() == [[3, 1, 0]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_is_a_probability(variant):
    """Every chance is in [0, 1], the units' chances sum to 1 at every state (past the
    target and under the floor too), a side at the target with the highest score has won,
    and the table came from the shipped hands (solved within its bound)."""
    rules = make_rules(variant)
    table = Q.equity_table(rules)
    assert table.about["hands"] == Q.EQUITY_HANDS and table.about["unfinished"] < 1e-9
    assert np.all((table.values >= 0) & (table.values <= 1))
    assert np.allclose(table.values.sum(axis=1), 1, atol=1e-9)
    units, t = table.rules.units, rules.target
    rng = np.random.default_rng(2)
    scores = rng.integers(table.rules.low - 10, t + 30, size=(5000, units))
    for dealer in range(rules.players):
        chance = table.win_chance(scores, dealer)
        assert np.all((chance >= 0) & (chance <= 1)) and np.allclose(chance.sum(axis=1), 1)
    at_target = np.array([t] + [t - 1] * (units - 1))
    for dealer in range(rules.players):
        assert table.win_chance(at_target, dealer).tolist() == [1.0] + [0.0] * (units - 1)
        assert table.win_chance(np.roll(at_target, 1), dealer)[1] == 1.0


@pytest.mark.parametrize("variant", ["knock", "cutthroat"])
def test_more_points_never_lower_our_chance(variant):
    """Where no hand loses points, a point more for us never lowers our chance and (with
    partners) a point more for them never raises it, whoever deals. With three players a
    point more for one opponent can help me: at 9-7-8, E dealing, E's eighth point lets a
    euchre of mine tie E and S at 10, which plays on, where S would have won alone. (The
    score-blind table, one hand's outcome alike at every score: once the analyzer plays to
    the score each score's hands differ, counted on a few thousand deals, and nothing makes
    that table monotone.)"""
    rules = make_rules(variant)
    table = Q.score_blind_table(rules)
    units, t = table.rules.units, rules.target
    grid = np.stack(np.meshgrid(*[np.arange(t)] * units, indexing="ij"), axis=-1)
    for dealer in range(rules.players):
        ours = table.win_chance(grid, dealer)[..., 0]
        assert np.all(np.diff(ours, axis=0) >= -1e-12)
        for axis in range(1, units):
            rises = np.argwhere(np.diff(ours, axis=axis) > 1e-12).tolist()
            assert rises == ([] if units == 2 or dealer != 1 else
                             [[9, 7, 8]] if axis == 1 else [[9, 8, 7]])


def test_after_hand_is_the_next_dealer_at_the_new_score():
    """``after_hand`` (what the odds code calls per deal) is ``win_chance`` at the score plus
    the hand's points with the deal passed left, and fast on many deals."""
    rules = make_rules("knock")
    table = Q.equity_table(rules)
    points = np.array([[1, 0], [2, 0], [0, 4], [0, 2]])
    after = table.after_hand([8, 7], 3, points)
    assert after[:, 0].tolist() == [
        table.win_chance(np.array([8 + a, 7 + b]), 0)[0] for a, b in points]
    assert after[1].tolist() == [1.0, 0.0] and after[2].tolist() == [0.0, 1.0]
    many = np.random.default_rng(3).integers(0, 5, size=(200_000, 2))
    assert table.after_hand([9, 6], 0, many).shape == (200_000, 2)


def test_win_by_two_plays_on_at_the_target():
    """With --win-by-two, 10-9 is not a win and its table plays the default rules' hands;
    a lead of two at the target wins; the chances still sum to 1."""
    rules = make_rules("knock", win_by_two=True)
    table = Q.equity_table(rules)
    assert Q.equity_name(rules) == Q.equity_name(make_rules("knock"))
    assert 0 < table.win_chance(np.array([10, 9]), 0)[0] < 1
    assert table.win_chance(np.array([11, 9]), 1).tolist() == [1.0, 0.0]
    assert np.allclose(table.values.sum(axis=1), 1)
    plain = Q.equity_table(make_rules("knock"))
    assert table.win_chance(np.array([9, 9]), 0)[0] < plain.win_chance(np.array([9, 9]), 0)[0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_agrees_with_whole_games(variant):
    """From each of eight scores (near the end, halfway, the start, below zero where scores
    fall), 300 whole games played by the engine and scored by the kernels' rules: the share
    N-S (or N) wins is the table's chance within its 99.9% interval."""
    rules = make_rules(variant)
    states = check_states(rules)
    assert len(states) == 8 and len({d for _, d in states}) == rules.players
    for state in check_table(rules, 300, seed=11, states=states):
        _, low, high = wilson(state.wins, state.games, z=Z999)
        assert low <= state.table <= high, state


def test_the_floor_is_deep_enough():
    """Bid's scores kept down to -32: a floor twice as deep moves no chance at scores from 0
    by more than 1e-6 (docs/equity.md)."""
    rules = make_rules("bid")
    outcomes = Q._outcomes_of(Q._hands_of(rules))
    shallow = Q.score_blind_table(rules)
    deep_rules = E.ScoreRules(2, 32, 1, -64, shallow.rules.high)
    chain = E.build_chain(deep_rules, outcomes)
    deep = E.EquityTable(deep_rules, 4, chain.states, E.solve(chain).values, {})
    grid = np.stack(np.meshgrid(np.arange(32), np.arange(32), indexing="ij"), axis=-1)
    assert np.abs(deep.win_chance(grid, 0) - shallow.win_chance(grid, 0)).max() < 1e-6


def test_the_command_prints_and_writes(tmp_path, capsys):
    """``euchre equity`` prints both tables, the chances of the table in percent; ``-o``
    writes CSV or Parquet (every state from each side's seat), ``--plot`` a PNG."""
    rules = make_rules("knock")
    table = Q.equity_table(rules)
    csv, parquet, png = tmp_path / "k.csv", tmp_path / "k.parquet", tmp_path / "k.png"
    assert run(["equity", "--variant", "knock", "-o", str(csv), "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "we deal next" in out and "they deal next" in out
    first_row = next(line for line in out.splitlines() if line.startswith("0 "))
    assert first_row.split()[1] == f"{100 * table.win_chance(np.array([0, 0]), 0)[0]:.1f}"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    frame = pd.read_csv(csv)
    assert list(frame.columns) == ["us", "them", "dealer", "p_win"]
    assert len(frame) == 2 * len(table.states)
    row = frame[(frame.us == 9) & (frame.them == 8) & (frame.dealer == "them")]
    assert row.p_win.item() == pytest.approx(table.win_chance(np.array([9, 8]), 1)[0])
    assert run(["equity", "--variant", "cutthroat", "-o", str(parquet)]) == 0
    three = pd.read_parquet(parquet)
    assert list(three.columns) == ["me", "left", "right", "dealer", "p_win"]
    order = {"me": ["me", "left", "right"], "right": ["right", "me", "left"],
             "left": ["left", "right", "me"]}  # each row's scores from the dealer on
    state = pd.concat([pd.DataFrame(g[cols].to_numpy(), index=g.index)
                       for d, cols in order.items() for g in [three[three.dealer == d]]])
    sums = three.p_win.groupby([state[0], state[1], state[2]]).agg(["sum", "size"])
    assert np.allclose(sums["sum"], 1) and (sums["size"] == 3).all()
    assert "I deal next" in capsys.readouterr().out


def test_a_failed_write_leaves_no_file(tmp_path, monkeypatch, capsys):
    """A write that fails half-way (a full disk) is one line, and leaves no file behind."""
    def half_then_full(frame, path, **_):
        with open(path, "w") as f:
            f.write("us,them\n")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", half_then_full)
    assert run(["equity", "--variant", "knock", "-o", str(tmp_path / "k.csv")]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args, says", [
    (["--variant", "zz"], "'zz' is not one of"),
    (["--variant", "knock", "-o", "table.txt"], "must end in .csv or .parquet"),
    (["--variant", "knock", "--plot", "map.jpg"], "must end in .png"),
    (["--variant", "bid", "--lone-defender"], "does not apply to bid"),
])
def test_bad_input_is_one_line(args, says, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert run(["equity", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and says in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_agrees_with_many_whole_games(variant):
    """The docs' check: 10,000 games from each of the eight scores; the squared z-scores of
    the eight shares won against the table's chances add up to less than chi-square's 99.9%
    point with 8 degrees of freedom (26.1)."""
    checked = check_table(make_rules(variant), 10_000, seed=0)
    z2 = [(c.wins - c.games * c.table) ** 2 / (c.games * c.table * (1 - c.table))
          for c in checked]
    assert sum(z2) < 26.1, checked
