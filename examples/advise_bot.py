"""A bot that plays whole knock games by asking `euchre advise` for every card.

Side A's cards are chosen by the advise stream (a child process: one JSON view a line out,
one JSON answer a line back); everything else — both sides' calls by the analyzer strategy,
side B's cards by the heuristic player — is the engine's. Games come in duplicate pairs: the
same deals with A at N/S, then at E/W.

    python examples/advise_bot.py --games 2 --deals 200
    python examples/advise_bot.py --games 1000 --seed 7 --json    # a measurement
"""

import argparse
import json
import subprocess
import sys
import time

from analyzer import make_rules
from analyzer.errors import UserError
from analyzer.questions.advise.advise_games import default_match, match_summary, play_advised_game


class Advisor:
    """`euchre advise` in a child process, asked one view at a time."""

    def __init__(self, effort: dict):
        self.effort = effort  # deals, seed: added to every view
        self.child = subprocess.Popen(
            [sys.executable, "-m", "analyzer", "advise", "--workers", "1"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            start_new_session=True)  # Ctrl-C stops the bot, which then ends the stream
        self.times: list[float] = []

    def __call__(self, view: dict) -> dict:
        """The answer to ``view`` (UserError when the stream answers with an error)."""
        start = time.perf_counter()
        self.child.stdin.write(json.dumps({**view, **self.effort}) + "\n")
        self.child.stdin.flush()
        answer = json.loads(self.child.stdout.readline())
        self.times.append(time.perf_counter() - start)
        if "error" in answer:  # the driver then plays the seat's own card, and counts it
            raise UserError(answer["error"])
        return answer

    def close(self) -> int:
        """End the stream; its exit code."""
        self.child.stdin.close()  # end of input: the stream ends, exit 0
        return self.child.wait()


def main() -> None:
    """Play the games the command line asks for and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games (whole pairs)")
    parser.add_argument("--deals", type=int, default=500, help="deals per decision")
    parser.add_argument("--seed", type=int, default=0, help="the games' deals")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--log", help="write each game as a JSON line to this file")
    args = parser.parse_args()

    rules = make_rules("knock")
    match = default_match(rules, play="heuristic", vs_play="heuristic")
    advisor = Advisor({"deals": args.deals, "seed": args.seed})
    games, start = [], time.perf_counter()
    log = open(args.log, "w") if args.log else None
    try:
        for game in range(args.games + args.games % 2):
            g = play_advised_game(rules, match, advisor, args.seed, game)
            games.append(g)
            if log:
                print(json.dumps({"game": game, **g.to_dict()}), file=log, flush=True)
            print(f"game {game + 1}: advise ({'NS' if g.a_unit == 0 else 'EW'}) "
                  f"{g.scores[g.a_unit]} - {g.scores[1 - g.a_unit]} heuristic, "
                  f"{len(g.nets)} hands, {g.asked} cards asked", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        games = games[:len(games) - len(games) % 2]  # whole pairs only
    advisor.close()
    summary = match_summary(games) if games else {}
    warm = advisor.times[1:]  # the first answer loads the kernels
    summary.update(seed=args.seed, deals=args.deals, seconds=time.perf_counter() - start,
                   decisions_per_second=len(warm) / sum(warm) if warm else None)
    if args.json:
        print(json.dumps(summary))
    elif games:
        print(f"advise won {summary['wins']} of {summary['games']} games: "
              f"{summary['win_rate']:.1%} [{summary['win_low']:.1%}, {summary['win_high']:.1%}]; "
              f"{summary['edge']:+.3f} points a hand on the same deals; "
              f"{summary['decisions_per_second']:.1f} decisions/s"
              + (f"; {summary['fallbacks']} unanswered" if summary["fallbacks"] else ""))


if __name__ == "__main__":
    main()
