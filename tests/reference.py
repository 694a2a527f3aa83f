"""Slow, obviously-correct reference of the rules in RULES.md, sharing no code with kernels/ or
analyzer/: cards are strings like "JH", and a recorded hand (the JSON object) is refereed step
by step, the way a careful person at the table would.

``referee(record)`` checks every call and card of a record and returns what happened: the
declarer, trump, the winner of every trick, tricks and points per seat. It raises
``Illegal`` on the first step that breaks a rule (a renege is not illegal here: it is counted).
"""

from __future__ import annotations

SEATS = ["N", "E", "S", "W"]
SUITS = ["C", "D", "H", "S"]
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
PLAIN_ORDER = ["A", "K", "Q", "J", "T", "9", "8", "7"]  # high to low
ORDER_WORDS = {"order"}


class Illegal(Exception):
    """A step of a record that breaks the rules."""


# ----------------------------------------------------------------------------- cards


def rank(card: str) -> str:
    return "JK" if card == "JK" else card[0]


def suit(card: str):
    return None if card == "JK" else card[1]


def effective_suit(card: str, trump: str) -> str:
    """The suit a card belongs to for following and winning: the joker and both bowers are
    trump."""
    if card == "JK":
        return trump
    if rank(card) == "J" and suit(card) == SAME_COLOUR[trump]:
        return trump
    return suit(card)


def trump_order(trump: str) -> list[str]:
    """Every trump from the highest down (with 7s and 8s; cards not in the deck never
    appear)."""
    rest = [r + trump for r in PLAIN_ORDER if r != "J"]
    return ["JK", "J" + trump, "J" + SAME_COLOUR[trump]] + rest


def strength(card: str, led: str, trump: str) -> int:
    """Higher beats lower; cards that are neither trump nor the led suit cannot win (-1)."""
    s = effective_suit(card, trump)
    if s == trump:
        order = trump_order(trump)
        return 100 + (len(order) - order.index(card))
    if s == led:
        return len(PLAIN_ORDER) - PLAIN_ORDER.index(rank(card))
    return -1


def trick_winner(cards: list[str], trump: str) -> int:
    """Index of the winning card; of two identical winning cards the first played wins."""
    led = effective_suit(cards[0], trump)
    best = 0
    for i in range(1, len(cards)):
        if strength(cards[i], led, trump) > strength(cards[best], led, trump):
            best = i
    return best


def legal_cards(hand: list[str], led_card, trump: str) -> list[str]:
    """Cards of ``hand`` that may be played: follow the led effective suit if possible."""
    if led_card is None:
        return list(hand)
    led = effective_suit(led_card, trump)
    follow = [c for c in hand if effective_suit(c, trump) == led]
    return follow if follow else list(hand)


def best_trump(hand: list[str], trump: str):
    trumps = [c for c in trump_order(trump) if c in hand]
    return trumps[0] if trumps else None


def deck(variant: str, options: dict) -> list[str]:
    ranks = ["9", "T", "J", "Q", "K", "A"]
    if options.get("deck32"):
        ranks = ["7", "8"] + ranks
    cards = [r + s for s in SUITS for r in ranks]
    if options.get("double_deck"):
        cards = cards + cards
    if options.get("joker"):
        cards.append("JK")
    return cards


# ----------------------------------------------------------------------------- seats


def players_of(variant: str) -> list[str]:
    return ["N", "E", "S", "W"] if variant in ("bid", "knock") else ["N", "E", "S"]


def left_of(seat: str, seats: list[str]) -> str:
    """The next seat clockwise among ``seats``."""
    i = SEATS.index(seat)
    for k in range(1, 5):
        s = SEATS[(i + k) % 4]
        if s in seats:
            return s
    raise Illegal("no seat")


def partner(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def ace_no_face(hand: list[str]) -> bool:
    return any(rank(c) == "A" for c in hand) and not any(rank(c) in "JQK" for c in hand)


# ----------------------------------------------------------------------------- referee


def _all_passed(out: dict, calls: list, i: int, declarer) -> bool:
    """After an auction of ``i`` calls: refuse calls after its end; when nobody declared,
    mark ``out`` as a redeal with no points and say so."""
    if i != len(calls):
        raise Illegal("calls after the auction")
    if declarer is None:
        out["status"] = "redeal: all passed"
        out["points"] = {s: 0 for s in SEATS}
        return True
    return False


def referee(rec: dict) -> dict:
    """Check a record step by step and return the outcome (see module docstring)."""
    variant = rec["variant"]
    opts = rec.get("options", {})
    players = players_of(variant)
    hand_size = 12 if opts.get("double_deck") else (6 if variant in ("bid", "ghost") else 5)
    dealer = rec["dealer"]
    hands = {s: rec["hands"][s].split() for s in ("N", "E", "S", "W") if s in rec["hands"]}
    if variant == "ghost":
        hands["W"] = rec["hands"]["ghost"].split()
    if variant == "cutthroat":
        hands["W"] = rec["hands"]["dummy"].split()
    full = deck(variant, opts)
    dealt = sorted(c for h in hands.values() for c in h)
    kitty = []
    if variant in ("knock", "cutthroat"):
        kitty = [rec["upcard"]] + rec["kitty"].split()
    if sorted(dealt + kitty) != sorted(full):
        raise Illegal("the deal is not the deck")
    out = {"status": "played", "reneges": {s: 0 for s in SEATS}, "winners": []}
    calls = [c.split(None, 1) for c in rec.get("auction", [])]

    if variant == "bid" and opts.get("joker"):
        if len(hands[dealer]) != hand_size + 1:
            raise Illegal("dealer should hold 7")
        d = rec["joker_discard"]
        hands[dealer].remove(d)
    if variant == "bid" and "redeal" in rec:
        if not opts.get("ace_no_face") or not ace_no_face(hands[rec["redeal"]]):
            raise Illegal("redeal not allowed")
        out["status"] = "redeal: ace-no-face"
        out["points"] = {s: 0 for s in SEATS}
        return out

    # ---- auction
    declarer = None
    trump = None
    contract = None
    if variant in ("bid", "ghost"):
        if variant == "bid":
            ladder = [str(k) for k in range(3, hand_size)] + ["ask", "moon"]
        else:
            ladder = ["3", "4", "5", "moon"]
        seat = left_of(dealer, players)
        best = -1
        swapped = False
        i = 0
        for _ in players:
            if variant == "ghost" and i < len(calls) and calls[i][1] == "swap":
                if swapped or calls[i][0] != seat:
                    raise Illegal("bad swap")
                hands[seat], hands["W"] = hands["W"], []
                swapped = True
                i += 1
            if i >= len(calls) or calls[i][0] != seat:
                raise Illegal(f"expected a call by {seat}")
            call = calls[i][1]
            i += 1
            if call == "pass":
                if opts.get("stick_the_dealer") and seat == dealer and declarer is None:
                    raise Illegal("stuck dealer passed")
            else:
                if call not in ladder or ladder.index(call) <= best:
                    raise Illegal(f"bid {call} not allowed")
                best = ladder.index(call)
                declarer = seat
                contract = call
            seat = left_of(seat, players)
        if _all_passed(out, calls, i, declarer):
            return out
        trump = rec["trump"]
    else:
        up = rec["upcard"]
        seat = left_of(dealer, players)
        i = 0
        round_made = None
        if up == "JK":
            if calls[0][0] != dealer or not calls[0][1].startswith("name "):
                raise Illegal("dealer must name under a turned-up joker")
            trump = calls[0][1][5:]
            declarer = dealer
            round_made = 1
            i = 1
        else:
            for _ in players:
                if calls[i][0] != seat or calls[i][1] not in ("pass", "order"):
                    raise Illegal("bad round 1 call")
                i += 1
                if calls[i - 1][1] == "order":
                    declarer, trump, round_made = seat, suit(up), 1
                    break
                seat = left_of(seat, players)
            if declarer is None:
                seat = left_of(dealer, players)
                for _ in players:
                    who, call = calls[i]
                    i += 1
                    if who != seat:
                        raise Illegal("out of turn")
                    if call == "pass":
                        if seat == dealer and opts.get("stick_the_dealer"):
                            raise Illegal("stuck dealer passed")
                    else:
                        named = call[5:]
                        if named == suit(up) and not opts.get("name_turned_down"):
                            raise Illegal("named the turned-down suit")
                        declarer, trump, round_made = seat, named, 2
                        break
                    seat = left_of(seat, players)
        if _all_passed(out, calls, i, declarer):
            return out
        if round_made == 1:
            hands[dealer].append(up)
            hands[dealer].remove(rec["discard"])
    if rec["trump"] != trump or rec["declarer"] != declarer:
        raise Illegal("trump/declarer mismatch")

    # ---- exchanges and who plays
    active = list(players)
    alone = rec.get("alone", [])
    lone_defender = None
    if variant == "bid" and contract in ("ask", "moon"):
        p = partner(declarer)
        if contract == "ask":
            give = rec["ask"]["give"]
            get = rec["ask"]["receive"]
            bt = best_trump(hands[p], trump)
            if bt is not None and get != bt:
                raise Illegal("partner must return the best trump")
            hands[declarer].remove(give)
            hands[p].remove(get)
            hands[declarer].append(get)
            hands[p].append(give)
        active.remove(p)
    if variant in ("knock", "cutthroat"):
        maker_alone = declarer in alone
        others = [s for s in alone if s != declarer]
        if len(others) > 1:
            raise Illegal("two lone defenders")
        if others:
            lone_defender = others[0]
            if variant == "knock" and (not opts.get("lone_defender") or
                                       partner(lone_defender) == declarer):
                raise Illegal("lone defender not allowed")
        if variant == "knock":
            if maker_alone:
                active.remove(partner(declarer))
            if lone_defender:
                active.remove(partner(lone_defender))
        else:
            if not maker_alone:
                combined = hands[declarer] + hands["W"]
                dropped = rec["dummy_discard"].split()
                for c in dropped:
                    combined.remove(c)
                if len(combined) != 5:
                    raise Illegal("maker must keep 5")
                hands[declarer] = combined
            if lone_defender:
                other = [s for s in players if s not in (declarer, lone_defender)][0]
                active.remove(other)
    elif alone:
        raise Illegal("no alone in bid/ghost")

    # ---- first leader
    if variant in ("bid", "ghost"):
        leader = declarer
    elif variant == "knock":
        leader = left_of(dealer, active)
    else:
        if declarer in alone:
            leader = left_of(declarer, active)
        elif lone_defender:
            leader = left_of(lone_defender, active)
        else:
            leader = left_of(dealer, active)

    # ---- tricks
    tricks = rec["tricks"]
    if len(tricks) != hand_size:
        raise Illegal("wrong number of tricks")
    won = {s: 0 for s in SEATS}
    for t, trick in enumerate(tricks):
        cards = trick.split()
        if len(cards) != len(active):
            raise Illegal(f"trick {t + 1} has {len(cards)} cards")
        order = [leader]
        while len(order) < len(active):
            order.append(left_of(order[-1], active))
        for k, (who, card) in enumerate(zip(order, cards, strict=True)):
            if card not in hands[who]:
                raise Illegal(f"trick {t + 1}: {who} does not hold {card}")
            led = cards[0] if k > 0 else None
            if card not in legal_cards(hands[who], led, trump):
                out["reneges"][who] += 1
            hands[who].remove(card)
        w = order[trick_winner(cards, trump)]
        out["winners"].append(w)
        won[w] += 1
        leader = w
    out.update(declarer=declarer, trump=trump, tricks=won)

    # ---- points, straight from RULES.md
    points = {s: 0 for s in SEATS}
    if variant in ("bid", "knock"):
        side = [declarer, partner(declarer)]
    else:
        side = [declarer]
    t = sum(won[s] for s in side)
    opp = [s for s in players if s not in side]
    if variant == "bid":
        if contract == "ask":
            mine = 2 * hand_size if t == hand_size else -hand_size
        elif contract == "moon":
            mine = 4 * hand_size if t == hand_size else -opts.get("failed_moon_points", hand_size)
        else:
            mine = t if t >= int(contract) else -int(contract)
        for s in side:
            points[s] = mine
        for s in opp:
            points[s] = hand_size - t
    elif variant == "ghost":
        if contract == "moon":
            points[declarer] = 24 if t == 6 else -opts.get("failed_moon_points", 6)
        else:
            points[declarer] = t if t >= int(contract) else -int(contract)
        for s in opp:
            points[s] = won[s]
    elif variant == "knock":
        if t == 5:
            mine = 4 if declarer in alone else 2
        elif t >= 3:
            mine = 1
        else:
            mine = 0
        for s in side:
            points[s] = mine
        if t < 3:
            for s in opp:
                points[s] = opts.get("lone_defender_points", 4) if lone_defender else 2
    else:
        if t == 5:
            points[declarer] = opts.get("lone_maker_march_points", 3) if declarer in alone else 3
        elif t >= 3:
            points[declarer] = 1
        elif lone_defender:
            for s in opp:
                points[s] = 4 if t == 0 else 2
        else:
            for s in opp:
                points[s] = 2
    # renege: the offending side loses 2 (once per side)
    penalised = set()
    for s, n in out["reneges"].items():
        if n:
            group = (s, partner(s)) if variant in ("bid", "knock") else (s,)
            key = min(group)
            if key not in penalised:
                penalised.add(key)
                for g in group:
                    points[g] -= 2
    out["points"] = points
    return out


# ----------------------------------------------------------------------------- minimax


def dd_at_least(hands: dict, trump: str, leader: str, active: list, declarers: set, need: int,
                table: tuple = ()) -> bool:
    """Brute force: can the ``declarers`` be sure of at least ``need`` tricks still to come
    (counting a trick in progress), every seat in ``active`` playing its best and seeing every
    card? ``hands`` maps seat -> list of cards; ``table`` holds (seat, card) pairs already
    played to the current trick, which ``leader`` led.

    Plain memoised yes/no minimax: a declarer needs one card that works, a defender needs every
    card to fail; every legal card is tried."""
    order = [s for s in SEATS if s in active]
    suit_of = {}
    power = {}
    for cards in list(hands.values()) + [[c for _, c in table]]:
        for c in cards:
            suit_of[c] = effective_suit(c, trump)
            power[c] = {led: strength(c, led, trump) for led in SUITS}
    memo = {}

    def winner_of(trick):
        led = suit_of[trick[0][1]]
        best = 0
        for i in range(1, len(trick)):
            if power[trick[i][1]][led] > power[trick[best][1]][led]:
                best = i
        return trick[best][0]

    def can(held, leader, trick, need):
        if need <= 0:
            return True
        if len(trick) == len(order):
            winner = winner_of(trick)
            return can(held, winner, (), need - (1 if winner in declarers else 0))
        seat = leader if not trick else left_of(trick[-1][0], order)
        i = order.index(seat)
        hand = held[i]
        if need > len(hand):
            return False
        key = (held, leader, trick, need)
        if key in memo:
            return memo[key]
        led = suit_of[trick[0][1]] if trick else None
        follow = [c for c in hand if suit_of[c] == led]
        results = []
        for card in sorted(set(follow if follow else hand)):
            rest = list(hand)
            rest.remove(card)
            new = held[:i] + (tuple(rest),) + held[i + 1:]
            results.append(lambda new=new, card=card: can(new, leader, trick + ((seat, card),),
                                                          need))
        if seat in declarers:
            answer = any(r() for r in results)
        else:
            answer = all(r() for r in results)
        memo[key] = answer
        return answer

    held = tuple(tuple(sorted(hands[s])) for s in order)
    return can(held, leader, tuple(table), need)


def dd_tricks(hands: dict, trump: str, leader: str, active: list, declarers: set,
              table: tuple = ()) -> int:
    """Brute-force double-dummy value: the most tricks still to come (counting a trick in
    progress) the declarers can be sure of; the largest ``need`` for which
    :func:`dd_at_least` holds."""
    n = 0
    while dd_at_least(hands, trump, leader, active, declarers, n + 1, table):
        n += 1
    return n


def dd_card_values(hands: dict, trump: str, leader: str, active: list, declarers: set,
                   table: tuple = ()) -> dict:
    """Brute-force value (tricks to come for the declarers, counting the current trick) of
    every legal card of the seat to play."""
    seat = leader if not table else left_of(table[-1][0], active)
    led = table[0][1] if table else None
    out = {}
    for card in set(legal_cards(hands[seat], led, trump)):
        hand = list(hands[seat])
        hand.remove(card)
        rest = dict(hands)
        rest[seat] = hand
        out[card] = dd_tricks(rest, trump, leader, active, declarers, table + ((seat, card),))
    return out


# ----------------------------------------------------------------------------- whose turn


def legal_calls(variant: str, opts: dict, dealer: str, up, calls: list):
    """``(seat, calls)``: the seat to speak after ``calls`` ([(seat, call)], the record's
    call words) and the set of calls the rules allow it, or None when the auction is over.
    Written from RULES.md alone."""
    players = players_of(variant)
    seat = left_of(dealer, players)
    i = 0
    if variant in ("bid", "ghost"):
        hand_size = 12 if opts.get("double_deck") else 6
        ladder = ([str(k) for k in range(3, hand_size)] + ["ask", "moon"] if variant == "bid"
                  else ["3", "4", "5", "moon"])
        best, swapped = -1, False
        for _ in players:
            if variant == "ghost" and not swapped and i < len(calls) and \
                    calls[i] == (seat, "swap"):
                swapped, i = True, i + 1
                if i == len(calls):
                    return seat, _bids(ladder, best, seat == dealer and best < 0 and
                                       opts.get("stick_the_dealer"))
            if i == len(calls):
                extra = {"swap"} if variant == "ghost" and not swapped else set()
                return seat, extra | _bids(ladder, best, seat == dealer and best < 0 and
                                           opts.get("stick_the_dealer"))
            if calls[i][1] != "pass":
                best = ladder.index(calls[i][1])
            i += 1
            seat = left_of(seat, players)
        return None
    if up == "JK":
        return (dealer, {f"name {s}" for s in SUITS}) if not calls else None
    for _ in players:
        if i == len(calls):
            return seat, {"pass", "order"}
        if calls[i][1] == "order":
            return None
        i += 1
        seat = left_of(seat, players)
    stick = opts.get("stick_the_dealer", variant == "knock")
    for _ in players:
        if i == len(calls):
            names = {f"name {s}" for s in SUITS if s != suit(up) or opts.get("name_turned_down")}
            return seat, names | (set() if stick and seat == dealer else {"pass"})
        if calls[i][1] != "pass":
            return None
        i += 1
        seat = left_of(seat, players)
    return None


def _bids(ladder, best, stuck) -> set:
    return set(ladder[best + 1:]) | (set() if stuck else {"pass"})
