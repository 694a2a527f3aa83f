"""The rules in force, in words: deck, deal, bidding, play, scoring table and target."""

from __future__ import annotations

from kernels.cards import codes as K

from .scoring import points_rows
from .variants import (
    DUMMY,
    GHOST,
    LADDER,
    LEAD_DECLARER,
    LEAD_LEFT_OF_DEALER,
    OPTIONS,
    Rules,
    option_flag,
)


def _deck_words(rules: Rules) -> str:
    ranks = "7 8 9 10 J Q K A" if rules.deck32 else "9 10 J Q K A"
    words = f"{rules.deck_size} cards: {ranks} in four suits"
    if rules.double_deck:
        words += ", two of each (when two identical cards win a trick, the first played wins)"
    if rules.joker:
        words += ", plus the joker (always the highest trump)"
    return words


def _deal_words(rules: Rules) -> str:
    n = rules.hand_size
    who = (f"{n} cards to each of {rules.players} players"
           + (", partners opposite" if rules.partnership else ""))
    if rules.seat_w == GHOST:
        return f"{who} and a face-down ghost hand (seat W)"
    if rules.seat_w == DUMMY:
        who = f"{n} cards to each of {rules.players} players and to the dummy (seat W)"
    if rules.dealer_extra:
        return f"{who}; the dealer gets the extra card and discards one"
    if rules.has_upcard:
        return f"{who}; the other {rules.kitty_size} form the kitty, top card turned up"
    return who


def _ladder_words(rules: Rules) -> list[str]:
    n = rules.hand_size
    moon = f"{n}-moon" if rules.partnership else "moon"
    ladder = " < ".join({K.ASK: f"{n}-ask", K.MOON: moon}.get(c, str(c))
                        for c in rules.bid_ladder)
    return _when(
        (rules.seat_w == GHOST, "Before bidding, one player (the first who wants to) may swap "
                                "their hand for the ghost hand; the old hand is dead."),
        (True, f"One round, clockwise from the dealer's left: pass or bid higher. Ladder: "
               f"{ladder}."),
        (rules.partnership, "Partners may overbid each other. The winner names trump and "
                            "leads."),
        (rules.has_ask, f"{n}-ask: the bidder gives a card to the partner, gets the partner's "
                        f"best trump back, and plays alone. {moon}: alone without help."),
        (rules.stick_the_dealer, "Stick the dealer: if all others pass, the dealer must bid "
                                 "at least 3."),
        (not rules.stick_the_dealer, "If everyone passes the cards are redealt by the next "
                                     "dealer."),
        (rules.ace_no_face, "Ace-No-Face: a player with an ace and no J, Q or K may call a "
                            "redeal."))


def _when(*sentences: tuple[bool, str]) -> list[str]:
    """The sentences whose rule is in force, in order."""
    return [text for applies, text in sentences if applies]


def _upcard_words(rules: Rules) -> list[str]:
    turned = "any suit" if rules.name_turned_down else "any suit but the turned-down one"
    lone = "; a defender may go alone too." if rules.lone_defender_allowed else "."
    return _when(
        (True, "Round 1, clockwise from the dealer's left: pass or order the upcard's suit; the "
               "dealer then takes the upcard and discards one card."),
        (True, f"Round 2: the upcard is turned down; the first player to name {turned} makes "
               f"it trump."),
        (rules.stick_the_dealer, "Stick the dealer: if the others pass in round 2 the dealer "
                                 "must name trump."),
        (not rules.stick_the_dealer, "If everyone passes round 2 the cards are redealt."),
        (rules.joker, "A turned-up joker: the dealer names trump before looking, then takes "
                      "it."),
        (rules.seat_w == DUMMY, "The maker plays against the other two, combining the dummy "
                                "with their hand and keeping the best 5 of 10, unless going "
                                "alone without it; one defender may also go alone."),
        (rules.seat_w != DUMMY, f"The maker may go alone (partner sits out){lone}"))


def _lead_words(rules: Rules) -> str:
    if rules.lead == LEAD_DECLARER:
        return "The winning bidder leads the first trick."
    if rules.lead == LEAD_LEFT_OF_DEALER:
        return "The player left of the dealer leads (skipping a seat that sits out)."
    return ("The player left of the dealer leads; if someone went alone, the first active player"
            " left of the lone player.")


def _ladder_scoring(rules: Rules, rows) -> list[str]:
    n = rules.hand_size
    lines = []
    for contract in rules.bid_ladder:
        made = [r for r in rows if r[0] == contract and r[2] > 0 and r[1] >= (
            contract if contract < K.ASK else n)]
        lost = {r[2] for r in rows if r[0] == contract and r not in made}
        made_words = ("1 point a trick" if contract < K.ASK
                      else f"{made[0][2]} points for all {n} tricks")
        name = rules.bid_name(contract)
        lines.append(f"{name}: made, {made_words}; set, {min(lost)}")
    whom = "each opponent scores their own tricks" if rules.defenders_score_own_tricks else \
        "the opponents score 1 point a trick"
    lines.append(f"Whatever the result, {whom}.")
    return lines


def _upcard_scoring(rules: Rules, rows) -> list[str]:
    n = rules.hand_size
    names = {0: "partners" if rules.partnership else "maker with the dummy",
             K.CT_MAKER_ALONE: "maker alone", K.CT_DEFENDER_ALONE: "against a lone defender",
             K.CT_MAKER_ALONE | K.CT_DEFENDER_ALONE: "maker alone against a lone defender"}
    who = "makers" if rules.partnership else "maker"
    each = "defenders" if rules.partnership else "each defender"
    lines = []
    for contract in rules.contracts:
        bands = []
        for lo, hi in ((0, rules.make - 1), (rules.make, n - 1), (n, n)):
            pts = {(r[2], r[3]) for r in rows if r[0] == contract and lo <= r[1] <= hi}
            for d, f in sorted(pts):
                trick_words = f"{lo}-{hi}" if lo != hi else f"{lo}"
                score = f"{who} {d}" if d else f"{each} {f}"
                bands.append(f"{trick_words} tricks: {score}")
        lines.append(f"{names[contract]}: " + "; ".join(bands))
    return lines


def scoring_lines(rules: Rules) -> list[str]:
    """The points table as lines: one per contract and band of tricks with equal points."""
    rows = list(points_rows(rules))
    if rules.auction == LADDER:
        return _ladder_scoring(rules, rows)
    return _upcard_scoring(rules, rows)


def describe(rules: Rules) -> list[str]:
    """The rules in force as a list of lines for the terminal."""
    lines = [rules.title, ""]
    lines.append(f"Deck: {_deck_words(rules)}.")
    lines.append(f"Deal: {_deal_words(rules)}.")
    lines.append(f"Tricks: {rules.hand_size} per hand.")
    lines.append("Bidding:")
    words = _ladder_words(rules) if rules.auction == LADDER else _upcard_words(rules)
    lines += [f"  {line}" for line in words]
    lines.append("Play: follow the led suit if you can (the left bower is a trump); highest trump"
                 " wins, else the highest card of the led suit.")
    lines.append(f"Lead: {_lead_words(rules)}")
    lines.append("Scoring:")
    lines += [f"  {line}" for line in scoring_lines(rules)]
    lines.append(f"  A renege (not following suit when able) costs the offending side "
                 f"{K.RENEGE_PENALTY} points.")
    win = " and must be won by 2" if rules.win_by_two else ""
    each = "team" if rules.partnership else "player"
    lines.append(f"Game: the first {each} to {rules.target} points wins{win}.")
    opts = ", ".join(f"{option_flag(k)}={_value(v)}" for k, v in rules.options.items())
    lines.append(f"Options in force: {opts or 'none'}.")
    return lines


def _value(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def option_help_lines(variant: str) -> list[str]:
    """One line per option of ``variant``: flag, default and meaning."""
    lines = []
    for o in OPTIONS:
        if variant in o.defaults:
            default = o.defaults[variant]
            shown = "derived" if default is None else _value(default)
            lines.append(f"{option_flag(o.name)} (default {shown}): {o.help}")
    return lines
