"""A pure-Python rollout of a decision point, sharing no code with kernels/ or analyzer/.

From a full deal, the calls heard and the asker's option, the rest of the hand is played the
slow, obvious way: every later call and exchange by the built-in point-count strategy (as
``euchre strategy show points`` and the docstrings of ``kernels/bidding/bidding.py`` and
``kernels/bidding/exchange_heuristics.py`` describe it), the tricks by the brute-force double-dummy
search of ``tests.reference``, the net points from RULES.md's scoring tables. Heard calls of
seats other than the asker are checked against the strategy (``Inconsistent``), which is what
inference promises of every deal it accepts.

Default rules only (no joker, no 32-card or double deck); cards are strings like "JH".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.reference import (
    SAME_COLOUR,
    SUITS,
    dd_tricks,
    effective_suit,
    left_of,
    partner,
    players_of,
    trump_order,
)

TRUMP_POINTS = {"right": 3.0, "left": 2.5, "A": 2.0, "K": 1.5, "Q": 1.25, "T": 1.0, "9": 1.0}
SIDE_ACE = 1.0
VOID, VOID_MIN_TRUMPS = 0.5, 2
TH = {"3": 4.0, "4": 5.5, "5": 7.0, "ask": 8.5, "moon": 11.0, "order": 4.5,
      "order_alone": 8.5, "name": 4.5, "name_alone": 8.5, "defend_alone": 99.0,
      "swap_below": 2.5}
UP_DEALER, UP_PARTNER, UP_OPPONENT = 0.5, 0.75, 0.5
NATURAL_RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"]  # a card's natural id: suit * 8 + rank


class Inconsistent(Exception):
    """A heard call that the strategy would not have made with the cards dealt."""


@dataclass
class Option:
    """The asker's option (-1 / None: the strategy decides): its call, alone, the dealer's
    discard, the n-ask's card given, the trump it names on winning, defending alone."""

    call: str | None = None
    alone: int = -1
    discard: str | None = None
    give: str | None = None
    trump: str | None = None
    defend: int = -1


@dataclass
class Outcome:
    """How the hand ended: ``redeal``, or the declarer, the contract, the declaring side's
    tricks double dummy, and the asker's net points."""

    status: str
    declarer: str | None = None
    contract: str | None = None
    tricks: int = 0
    net: float = 0.0
    calls: list = field(default_factory=list)


# ---------------------------------------------------------------------------- the point count


def card_points(card: str, trump: str) -> float:
    if effective_suit(card, trump) == trump:
        if card == "J" + trump:
            return TRUMP_POINTS["right"]
        if card == "J" + SAME_COLOUR[trump]:
            return TRUMP_POINTS["left"]
        return TRUMP_POINTS[card[0]]
    return SIDE_ACE if card[0] == "A" else 0.0


def points(hand: list[str], trump: str) -> float:
    total = sum(card_points(c, trump) for c in hand)
    if sum(effective_suit(c, trump) == trump for c in hand) >= VOID_MIN_TRUMPS:
        total += VOID * sum(1 for s in SUITS if s != trump and
                            not any(effective_suit(c, trump) == s for c in hand))
    return total


def best_suit(hand: list[str], suits=SUITS) -> tuple[float, str]:
    """The first suit (C, D, H, S order) with the most points."""
    best = None
    for s in SUITS:
        if s in suits and (best is None or points(hand, s) > best[0]):
            best = (points(hand, s), s)
    return best


def order_points(hand, up, seat, dealer, seats) -> float:
    trump = up[1]
    if seat == dealer:
        return points(hand + [up], trump) - UP_DEALER
    share = card_points(up, trump)
    if len(seats) == 4 and partner(seat) == dealer:
        return points(hand, trump) + share * UP_PARTNER
    return points(hand, trump) - share * UP_OPPONENT


def place_of(seat, dealer, seats) -> int:
    return (seats.index(seat) - seats.index(dealer)) % len(seats)


# ---------------------------------------------------------------------------- card choices


def natural_id(card: str) -> int:
    return 32 if card == "JK" else SUITS.index(card[1]) * 8 + NATURAL_RANKS.index(card[0])


def keep_value(card: str, hand: list[str], trump: str) -> tuple:
    """(value, slot, position): the heuristics' keep value, ties to the lowest slot, then
    position (side suits in C D H S order without trump, trump last)."""
    s = effective_suit(card, trump)
    if s == trump:
        low_to_high = list(reversed([c for c in trump_order(trump) if c[0] not in "78" and
                                     c != "JK"]))
        return 1000 + low_to_high.index(card), 3, low_to_high.index(card)
    ranks = [r for r in NATURAL_RANKS[2:] if not (r == "J" and s == SAME_COLOUR[trump])]
    pos = ranks.index(card[0])
    length = sum(effective_suit(c, trump) == s for c in hand)
    value = 10 * pos - 5 * length + (200 if card[0] == "A" else 0)
    return value, [x for x in SUITS if x != trump].index(s), pos


def discard_card(hand: list[str], trump: str) -> str:
    return min(hand, key=lambda c: keep_value(c, hand, trump))


def keep_best(hand: list[str], keep: int, trump: str) -> list[str]:
    rest = list(hand)
    while len(rest) > keep:
        rest.remove(discard_card(rest, trump))
    return rest


def give_card(hand: list[str], trump: str) -> str:
    def key(card):
        rank = NATURAL_RANKS.index(card[0]) if card != "JK" else 0
        if effective_suit(card, trump) == trump:
            return 1000 + rank * 10, natural_id(card)
        return rank * 10 + sum(c[1] == card[1] for c in hand if c != "JK"), natural_id(card)
    return min(hand, key=key)


def partner_return(hand: list[str]) -> str:
    def key(card):
        rank = NATURAL_RANKS.index(card[0])
        return -((100 if card[0] == "A" else 0) + rank), natural_id(card)
    return min(hand, key=key)


# ---------------------------------------------------------------------------- auctions


class Auction:
    """The calls of one deal: heard first (checked against the strategy unless the asker's),
    then the asker's option at its turn, then the strategy."""

    def __init__(self, heard, asker, option):
        self.heard, self.asker, self.option = list(heard), asker, option
        self.calls = []
        self.asker_called = False

    def call(self, seat, wanted):
        """The next call of ``seat``: heard, the asker's option, or ``wanted`` (the
        strategy's)."""
        j = len(self.calls)
        if j < len(self.heard):
            who, call = self.heard[j]
            if who != seat:
                raise Inconsistent(f"heard call {j + 1} is by {who}, but it is {seat}'s turn")
            if seat != self.asker and call != wanted:
                raise Inconsistent(f"{seat} would call {wanted}, not {call}")
        elif seat == self.asker and not self.asker_called and self.option.call is not None:
            call = self.option.call
            self.asker_called = True
        else:
            call = wanted
        self.calls.append((seat, call))
        return call

    def swaps(self, seat, hand) -> bool:
        """Ghost: whether ``seat`` takes the ghost hand before its bid (heard as a "swap"
        call; the asker's option; else the strategy: when its best suit is worth less than
        the swap threshold)."""
        wanted = best_suit(hand)[0] < TH["swap_below"]
        j = len(self.calls)
        if j < len(self.heard):
            swap = self.heard[j] == (seat, "swap")
            if seat != self.asker and swap != wanted:
                raise Inconsistent(f"{seat} would {'' if wanted else 'not '}swap")
        elif seat == self.asker and not self.asker_called and self.option.call is not None:
            swap = self.option.call == "swap"
            self.asker_called = swap
        else:
            swap = wanted
        if swap:
            self.calls.append((seat, "swap"))
        return swap


def ladder_auction(variant, hands, dealer, auction) -> tuple:
    """Bid and ghost: ``(declarer, contract)`` or None when all pass; ``hands`` changes with
    a ghost swap."""
    seats = players_of(variant)
    ladder = ["3", "4", "5", "ask", "moon"] if variant == "bid" else ["3", "4", "5", "moon"]
    best, declarer, swapped = -1, None, False
    seat = left_of(dealer, seats)
    for _ in seats:
        place = place_of(seat, dealer, seats)
        allowed = ladder[best + 1:]
        if variant == "ghost" and not swapped and auction.swaps(seat, hands[seat]):
            hands[seat], hands["W"] = hands["W"], []
            swapped = True
        call = auction.call(seat, choose_bid(hands[seat], allowed, place))
        if call != "pass":
            best, declarer = ladder.index(call), seat
        seat = left_of(seat, seats)
    return None if declarer is None else (declarer, ladder[best])


def choose_bid(hand, allowed, place) -> str:
    p, _ = best_suit(hand)
    best = "pass"
    for k in ("3", "4", "5", "ask", "moon"):
        if k in allowed and p >= TH[k]:
            best = k
    return best


def upcard_auction(variant, hands, dealer, up, auction, stick) -> tuple | None:
    """Knock and cutthroat: ``(declarer, trump, round)`` or None when all pass."""
    seats = players_of(variant)
    seat = left_of(dealer, seats)
    for _ in seats:
        p = order_points(hands[seat], up, seat, dealer, seats)
        th = TH["order"]
        if auction.call(seat, "order" if p >= th else "pass") == "order":
            return seat, up[1], 1
        seat = left_of(seat, seats)
    names = [s for s in SUITS if s != up[1]]
    for _ in seats:
        p, s = best_suit(hands[seat], names)
        stuck = stick and seat == dealer
        call = auction.call(seat, f"name {s}" if p >= TH["name"] or stuck else "pass")
        if call != "pass":
            return seat, call[5:], 2
        seat = left_of(seat, seats)
    return None


# ---------------------------------------------------------------------------- rollout


def rollout(variant: str, hands: dict, dealer: str, up: str | None, heard: list, asker: str,
            option: Option, heard_alone: set = frozenset(), stick: bool | None = None
            ) -> Outcome:
    """Play the deal out from the point (see the module docstring). ``hands``: seat -> cards
    (W: the ghost hand or the dummy); ``heard``: [(seat, call)]; ``heard_alone``: makers heard
    going alone."""
    hands = {s: list(c) for s, c in hands.items()}
    auction = Auction(heard, asker, option)
    if variant in ("bid", "ghost"):
        won = ladder_auction(variant, hands, dealer, auction)
        if won is None:
            return Outcome("redeal", calls=auction.calls)
        return _ladder_play(variant, hands, won, asker, option, auction)
    stick = variant == "knock" if stick is None else stick
    won = upcard_auction(variant, hands, dealer, up, auction, stick)
    if won is None:
        return Outcome("redeal", calls=auction.calls)
    return _upcard_play(variant, hands, dealer, up, won, asker, option, heard_alone, auction)


def _ladder_play(variant, hands, won, asker, option, auction) -> Outcome:
    declarer, contract = won
    trump = option.trump if declarer == asker and option.trump else best_suit(hands[declarer])[1]
    seats = players_of(variant)
    active = list(seats)
    if variant == "bid" and contract in ("ask", "moon"):
        mate = partner(declarer)
        if contract == "ask":
            give = option.give if declarer == asker and option.give else \
                give_card(hands[declarer], trump)
            trumps = [c for c in trump_order(trump) if c in hands[mate]]
            get = trumps[0] if trumps else partner_return(hands[mate])
            hands[declarer] = [c for c in hands[declarer] if c != give] + [get]
            hands[mate] = [c for c in hands[mate] if c != get] + [give]
        active.remove(mate)
    side = {declarer, partner(declarer)} & set(active) if variant == "bid" else {declarer}
    tricks = _tricks(hands, trump, declarer, active, side)
    net = _ladder_net(variant, contract, tricks, asker in side or
                      (variant == "bid" and partner(asker) == declarer), len(hands[declarer]))
    return Outcome("played", declarer, contract, tricks, net, auction.calls)


def _tricks(hands, trump, leader, active, side) -> int:
    return dd_tricks({s: hands[s] for s in active}, trump, leader, active, side)


def _ladder_net(variant, contract, t, ours, n=6) -> float:
    if contract == "ask":
        decl = 2 * n if t == n else -n
    elif contract == "moon":
        decl = 4 * n if t == n else -n
    else:
        decl = t if t >= int(contract) else -int(contract)
    if variant == "bid":
        net = decl - (n - t)
        return net if ours else -net
    net = decl - (n - t) / 2
    return net if ours else -net / 2


def _upcard_play(variant, hands, dealer, up, won, asker, option, heard_alone, auction):
    declarer, trump, rnd = won
    seats = players_of(variant)
    if rnd == 1:
        six = hands[dealer] + [up]
        d = option.discard if dealer == asker and option.discard else discard_card(six, trump)
        hands[dealer] = [c for c in six if c != d]
    alone = _maker_alone(hands, declarer, trump, rnd, dealer, seats, asker, option,
                         heard_alone, len(auction.calls) <= len(auction.heard))
    active = list(seats)
    if variant == "knock" and alone:
        active.remove(partner(declarer))
    if variant == "cutthroat":
        if not alone:
            hands[declarer] = keep_best(hands[declarer] + hands["W"], 5, trump)
        lone = _lone_defender(declarer, seats, asker, option)
        if lone:
            active.remove([s for s in seats if s not in (declarer, lone)][0])
        leader = left_of(declarer if alone else lone or dealer, active)
    else:
        lone = None
        leader = left_of(dealer, active)
    side = {declarer, partner(declarer)} & set(active) if variant == "knock" else {declarer}
    tricks = _tricks(hands, trump, leader, active, side)
    ours = asker in {declarer, partner(declarer)} if variant == "knock" else asker == declarer
    net = _upcard_net(variant, tricks, alone, lone, ours)
    return Outcome("played", declarer, "alone" if alone else "", tricks, net, auction.calls)


def _maker_alone(hands, maker, trump, rnd, dealer, seats, asker, option, heard_alone,
                 made_by_heard) -> bool:
    if maker == asker and option.alone >= 0:
        return bool(option.alone)
    kind = "order_alone" if rnd == 1 else "name_alone"
    wanted = points(hands[maker], trump) >= TH[kind]
    if made_by_heard:
        if maker != asker and wanted != (maker in heard_alone):
            raise Inconsistent(f"{maker} would {'' if wanted else 'not '}go alone")
        return maker in heard_alone
    return wanted


def _lone_defender(declarer, seats, asker, option):
    seat = left_of(declarer, seats)
    while seat != declarer:
        if seat == asker and option.defend >= 0:
            if option.defend:
                return seat
        seat = left_of(seat, seats)
    return None  # the strategy never defends alone (its threshold is 99 points)


def _upcard_net(variant, t, alone, lone, ours) -> float:
    if variant == "knock":
        if t == 5:
            net = 4 if alone else 2
        elif t >= 3:
            net = 1
        else:
            net = -2
        return net if ours else -net
    if t == 5:
        decl, defend = 3, 0
    elif t >= 3:
        decl, defend = 1, 0
    else:
        decl, defend = 0, (4 if lone and t == 0 else 2)
    net = decl - defend
    return net if ours else -net / 2
