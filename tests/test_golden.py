"""Golden transcripts (issue 23): one recorded hand per variant and main option, played with
the point-count bidder and heuristic cards, whose whole ``play --json`` record and ``review
--json`` output are pinned in ``tests/data/golden/``. Any change of behaviour (a rule, the
engine, the solver's values, the review's pricing) shows as a diff here; a deliberate one is
re-pinned with ``GOLDEN_UPDATE=1 pytest tests/test_golden.py`` and the diff read in review."""

import json
import os
from pathlib import Path

import pytest

from analyzer.cli import run
from analyzer.game.variants import option_flag
from tests.conftest import PLAY_CONFIGS, config_id

pytestmark = [pytest.mark.engine, pytest.mark.review]

GOLDEN = Path(__file__).parent / "data" / "golden"
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"
SEED = 11
CALL_DEALS = "60"


def _flags(options: dict) -> list[str]:
    out = []
    for name, value in options.items():
        flag = option_flag(name)
        if value is True:
            out.append(flag)
        elif value is False:
            out.append(f"--no-{flag[2:]}")
        else:
            out += [flag, str(value)]
    return out


def _json_of(capsys, argv) -> dict:
    """The JSON a command prints, or ``{"error": ...}`` for its one-line refusal (a redealt
    hand has no play to review: the refusal is pinned too)."""
    capsys.readouterr()
    code = run(argv)
    out, err = capsys.readouterr()
    if code == 2:
        return {"error": err.strip()}
    assert code == 0, (argv, err)
    return json.loads(out)


@pytest.mark.parametrize("cfg", PLAY_CONFIGS, ids=config_id)
def test_a_recorded_hand_and_its_review_match_the_golden_transcript(cfg, capsys, tmp_path):
    variant, options = cfg
    for seed in range(SEED, SEED + 20):  # the first seed whose hand is played, not redealt
        play = ["play", "--variant", variant, "--seed", str(seed), "--strategy", "points",
                "--play", "heuristic", "--json", *_flags(options)]
        record = _json_of(capsys, play)
        if not record["result"]["status"].startswith("redeal"):
            break
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    # the cards judged double dummy (exact, and seconds), not by the default's sampled worlds
    review = ["review", str(path), "--call-deals", CALL_DEALS, "--others", "points",
              "--method", "dd", "--json"]
    # a double-deck review solves 48 positions of up to 12 cards a hand (minutes): the slow
    # suite's double-deck agreement tests cover that solver; its record is pinned here
    reviewed = None if options.get("double_deck") else _json_of(capsys, review)
    got = {"play": play, "record": record, "review": [*review[:1], "hand.json", *review[2:]],
           "reviewed": reviewed}
    golden = GOLDEN / f"{config_id(cfg)}.json"
    if UPDATE or not golden.exists():
        GOLDEN.mkdir(parents=True, exist_ok=True)
        golden.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        if not UPDATE:
            pytest.fail(f"{golden.name} was missing and is now written: check it in")
    pinned = json.loads(golden.read_text())
    assert got["record"] == pinned["record"], "the played hand changed"
    assert got["reviewed"] == pinned["reviewed"], "the review of the pinned hand changed"
