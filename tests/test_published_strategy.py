"""The shipped published point count loads as a strategy file and counts hands as its
source's chart does (euchrestrategy.info's Euchre Point System)."""

from pathlib import Path

import numpy as np
import pytest

from analyzer.game.notation import parse_hand
from analyzer.game.variants import make_rules
from analyzer.strategy.toml_files import load_strategy
from kernels.bidding import bidding as B

pytestmark = pytest.mark.strategy

FILE = Path(__file__).parent.parent / "analyzer/strategy/published/euchrestrategy-info.toml"
HEARTS = 2


def _points(text: str) -> float:
    data = load_strategy(FILE, "knock")
    params = np.tile(data.params_row(20), (4, 1))
    return float(B.hand_points(np.uint64(parse_hand(text, make_rules("knock"))), HEARTS,
                               params, 0))


def test_the_published_chart_counts_trumps_aces_and_a_two_suited_hand():
    # right 4 + ace 3 + queen 2, two small clubs 0, two suits held: 1
    assert _points("JH AH QH 9C TC") == 4 + 3 + 2 + 1
    # left 3 + king 2 + ten 1, a small club 0, an off-suit ace 2; three suits held: the single
    # void's half point (never deciding, every other value being whole)
    assert _points("JD KH TH 9C AS") == 3 + 2 + 1 + 2 + 0.5


def test_the_published_thresholds_call_at_7_and_go_alone_at_10():
    data = load_strategy(FILE, "knock")
    for call, need in ((B.T.ORDER, 7), (B.T.NAME, 7), (B.T.ORDER_ALONE, 10),
                       (B.T.NAME_ALONE, 10)):
        assert (data.thresholds[:, call] == need).all()
