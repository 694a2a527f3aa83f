"""``euchre play --interactive``: a hand (``--game``: a game) against the analyzer in the
terminal. The table is printed as the player's seat sees it, each decision is asked at a
prompt (an option's number or its words), graded at once, and the hand ends with the points
and every decision with its grade (``questions.simulate.graded_hand``, as the page's "Play a
hand" tab); a game plays hand after hand at the score to its end and its summary
(``questions.simulate.graded_game``)."""

from __future__ import annotations

from collections.abc import Callable

import typer
from rich.console import Console

from ..errors import UserError
from ..game.game_score import score_dict
from ..questions.simulate.graded_game import NEXT, GradedGame
from ..questions.simulate.graded_hand import GradedHand

Ask = Callable[[str], str]  # a prompt -> the line typed (input() by default)


def play_interactive(table: GradedHand | GradedGame, console: Console,
                     ask: Ask | None = None) -> None:
    """Play ``table`` (a hand or a game, not yet dealt) at the prompt: deal it, show what the
    seat sees, ask each decision until the hand (every hand of the game) is over, grade each,
    and show the review (a game's: after each hand, and the game's summary at the end). A
    line that is not an option is one line and the question again; the input ending is
    UserError; Ctrl-C stops with one line and exit code 130. ``ask``: how a line is read
    (None: ``input``)."""
    ask = ask or input
    what = "game" if isinstance(table, GradedGame) else "hand"
    try:
        table.start()
        if isinstance(table, GradedGame):
            _play_game(table, console, ask)
        else:
            _play_hand(table, table, console, ask)
    except KeyboardInterrupt:
        console.print(f"stopped: the {what} was not finished")
        raise typer.Exit(130) from None


def _play_hand(table: GradedHand | GradedGame, hand: GradedHand, console: Console,
               ask: Ask) -> None:
    """Play ``hand`` (dealt) to its end at the prompt, each decision made by ``table`` (the
    hand, or the game it is in), and show its review."""
    shown = _show_start(hand, console)
    while not hand.done:
        shown = _show_news(hand, console, shown)
        made = table.act(_choose(hand, console, ask))
        console.print("  " + grade_line(made.grade, made.ungraded))
    _show_news(hand, console, shown)
    _show_review(hand, console)


def _play_game(game: GradedGame, console: Console, ask: Ask) -> None:
    """Play ``game`` (dealt) hand after hand to its end, then its summary."""
    while True:
        chance = game.win_chance()
        console.print(f"[bold]hand {game.number}[/bold], {score_line(game.score)}"
                      f" (your chance of winning the game: {chance:.0%})")
        _play_hand(game, game.hand, console, ask)
        if game.done:
            break
        game.act(NEXT)
    t = game.table()["game"]
    won = f"{t['winner']} won" if t["winner"] else "no winner"
    console.print(f"[bold]game over: {won}[/bold] after {len(t['hands'])} hands, "
                  f"{score_line(game.score)}")
    console.print("the game: " + summary_line(t["summary"]))


def score_line(score: tuple) -> str:
    """A score in words: ``score: NS 8, EW 6``."""
    return "score: " + ", ".join(f"{k} {v}" for k, v in score_dict(score).items())


def summary_line(s: dict) -> str:
    """A summary (``graded_hand.summary``) in one line: the decisions by verdict and what
    they gave away."""
    counts = ", ".join(f"{v} {k}" for k, v in s["by_verdict"].items() if v)
    line = f"{counts or 'no decisions'}; {s['points_given_away']:.2f} net points"
    if "win_given_away" in s:
        line += f" and {100 * s['win_given_away']:.1f} points of win chance"
    return line + " given away"


def _show_start(hand: GradedHand, console: Console) -> tuple:
    """Print the deal as the seat sees it; returns what is shown (:func:`_show_news`)."""
    t = hand.table()
    where = f"{t['variant']}, seed {t['seed']}: you are {t['seat']}, {t['dealer']} deals"
    console.print(f"[bold]{where}[/bold]")
    if "upcard" in t:
        console.print(f"upcard {t['upcard']}")
    return 0, 0, False


def _show_news(hand: GradedHand, console: Console, shown: tuple) -> tuple:
    """Print the calls, the contract and the cards since ``shown`` (calls, plays, whether
    the contract is shown); returns what is shown now."""
    calls, plays, told = shown
    table = hand.table()
    for call in table["calls"][calls:]:
        console.print(f"  {call['seat']} {call['call']}")
    if "contract" in table and not told:
        told = True
        console.print(f"contract: {table['declarer']} {table['contract']}, trump "
                      f"{table['trump']}")
    n = hand.playing or 1
    for k in range(plays, len(hand.plays)):
        trick = table["tricks"][k // n]
        play = trick["plays"][k % n]
        won = f"  (won by {trick['winner']})" if k % n == n - 1 and "winner" in trick else ""
        console.print(f"  trick {k // n + 1}: {play['seat']} {play['card']}{won}")
    return len(table["calls"]), len(hand.plays), told


def _choose(hand: GradedHand, console: Console, ask: Ask) -> str:
    """The option the player picks at the prompt (its number or its words), asked again
    after a line that is neither; UserError when the input ends."""
    d = hand.decision
    console.print(f"your hand: {' '.join(hand.table()['hand'])}")
    for i, option in enumerate(d.options, start=1):
        console.print(f"  {i}. {option}")
    while True:
        try:
            line = ask(f"your {d.kind} (1-{len(d.options)}): ").strip()
        except EOFError:
            raise UserError("the input ended before the hand did") from None
        if line.isdigit() and 1 <= int(line) <= len(d.options):
            return d.options[int(line) - 1]
        try:
            return hand.check(line)
        except UserError as e:
            console.print(f"error: {e}")


def grade_line(grade: dict | None, ungraded: str = "") -> str:
    """A grade in one line: ``inaccuracy: 0.21 net points (0.05 to 0.37) behind play QD``."""
    if grade is None:
        return ungraded or "not graded"
    if grade["verdict"] == "best":
        return "best"
    if grade["unit"] == "win":
        return (f"{grade['verdict']}: {100 * grade['cost']:.1f}% win chance "
                f"({100 * grade['low']:.1f}% to {100 * grade['high']:.1f}%) behind "
                f"{grade['best']}")
    return (f"{grade['verdict']}: {grade['cost']:.2f} net points ({grade['low']:.2f} to "
            f"{grade['high']:.2f}) behind {grade['best']}")


def _show_review(hand: GradedHand, console: Console) -> None:
    """The hand's result and every decision with its grade, then the summary."""
    t = hand.table()
    points = t["points"]
    console.print(f"[bold]{points['status']}[/bold]" +
                  (f": {points['declarer']} {points['contract']}, trump {points['trump']}"
                   if points["status"] == "played" else ""))
    console.print("points: " + ", ".join(f"{k} {v}" for k, v in points["points"].items()))
    console.print("hands as dealt: " + "; ".join(f"{k} {v}" for k, v in t["hands"].items()))
    console.print("[bold]your decisions[/bold]")
    for i, d in enumerate(t["decisions"], start=1):
        where = f"trick {d['trick']}" if d["trick"] else d["kind"]
        console.print(f"  {i:>2}. {where}: {d['action']} — "
                      f"{grade_line(d['grade'], d.get('ungraded', ''))}")
    console.print("summary: " + summary_line(t["summary"]))
