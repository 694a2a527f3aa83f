"""``--given`` conditions on the unseen hands, the way bridge dealers write them: "E: void H",
"S: >=2 trump", "W: <=1 C", "E: =3 S", "S: has AS KS". Counts become constraint rows for the
dealing kernel; "has" places the cards before dealing (which also shrinks exact mode)."""

from __future__ import annotations

import numpy as np

from kernels.cards import layout as L
from kernels.deal.dealing import OP_EQ, OP_GE, OP_LE

from ...compute.query import DealQuery, no_constraints
from ...errors import UserError
from ...game.notation import SEATS, CardReader, NotationError, format_card, parse_seat, parse_suit
from ...numbers import read_number, shown

FORMS = "write 'void SUIT', 'has CARD' or '>=N SUIT' (also <=N, =N; SUIT may be 'trump')"


def parse_given(texts, q: DealQuery, asker: int, trump: int | None) -> tuple:
    """Constraint rows ``(group, mask, op, value)`` for the dealing kernel from ``--given``
    texts about the unseen hands of ``q`` (placing the cards of "has" conditions in ``q``);
    ``asker`` is the seat whose hand is analysed, ``trump`` the suit 'trump' means (None:
    not given). Raises UserError naming the text and the problem."""
    rows = []
    for text in texts:
        who, sep, what = text.partition(":")
        if not sep:
            raise UserError(f"--given {text!r}: write it as 'SEAT: void H', 'SEAT: >=2 trump' "
                            f"or 'SEAT: has AS'")
        group = _group(q, text, parse_seat(who), asker)
        words = what.split()
        if len(words) >= 2 and words[0].lower() == "has":
            for token in words[1:]:
                _place(q, text, group, token)
            continue
        op, value, target = _count(text, words)
        rows.append((text, group, _suit_mask(q, text, target, trump), op, value))
    if not rows:
        return no_constraints()
    # once every "has" card is placed: the counts are of the whole hand, the dealt part is less
    rows = [_dealt_row(q, *row) for row in rows]
    g, m, o, v = zip(*rows, strict=True)
    return (np.array(g, np.int64), np.array(m, np.uint64), np.array(o, np.int64),
            np.array(v, np.int64))


def _group(q: DealQuery, text: str, seat: int, asker: int) -> int:
    """The dealing group of ``seat``'s unseen hand."""
    if seat == asker:
        raise UserError(f"--given {text!r}: {SEATS[seat]} is the hand being analysed")
    if seat not in q.group_seat.tolist():
        raise UserError(f"--given {text!r}: {SEATS[seat]} holds no unseen hand in "
                        f"{q.rules.variant}")
    return q.group_seat.tolist().index(seat)


def _dealt_row(q: DealQuery, text: str, group: int, mask: int, op: int, value: int) -> tuple:
    """The constraint row on the dealt part of a hand for a count ``value`` of its whole hand
    (the cards placed by "has" conditions are counted already). Raises UserError when no deal
    can meet it: a seat cannot hold more of a suit than it has cards or than are unseen."""
    seat = int(q.group_seat[group])
    placed = (int(q.known[seat]) & mask).bit_count()
    unseen = sum(1 for c in q.cards.tolist() if mask >> c & 1)
    most = placed + min(int(q.sizes[group]), unseen)
    if op in (OP_GE, OP_EQ) and value > most:
        raise UserError(f"--given {text!r}: {SEATS[seat]} can hold at most {most} of those "
                        f"cards")
    if op in (OP_LE, OP_EQ) and value < placed:
        raise UserError(f"--given {text!r}: {SEATS[seat]} already has {placed} of those cards "
                        f"by a 'has' condition")
    return group, mask, op, value - placed


def _count(text: str, words: list) -> tuple[int, int, str]:
    """``(op, value, suit word)`` of a counting condition."""
    if len(words) == 2 and words[0].lower() == "void":
        return OP_EQ, 0, words[1]
    if len(words) != 2 or not (words[0][:2] in (">=", "<=") or words[0][:1] == "="):
        raise UserError(f"--given {text!r}: {FORMS}")
    sign = words[0][:2] if words[0][:2] in (">=", "<=") else "="
    try:
        value = read_number(words[0][len(sign):], "a count", int)
    except UserError:
        raise UserError(f"--given {shown(text)}: {shown(words[0])} is not a count like >=2"
                        ) from None
    return {">=": OP_GE, "<=": OP_LE, "=": OP_EQ}[sign], value, words[1]


def _suit_mask(q: DealQuery, text: str, target: str, trump: int | None) -> int:
    """Natural mask of the cards a condition counts: a suit, or the trumps."""
    rules = q.rules
    if target.lower() == "trump":
        if trump is None:
            raise UserError(f"--given {text!r}: 'trump' needs --trump")
        _, from_norm = rules.layout
        mask = sum(1 << int(from_norm[trump, b]) for b in range(48, 64)
                   if from_norm[trump, b] >= 0)
    else:
        try:
            suit = parse_suit(target)
        except NotationError as e:
            raise UserError(f"--given {text!r}: {e}") from None
        mask = sum(1 << c for c in range(64) if L.natural_suit(c) == suit)
    return mask & int(L.deck_mask(rules.deck))


def _place(q: DealQuery, text: str, group: int, token: str) -> None:
    """A "has CARD" condition: the card is dealt to that hand for sure."""
    try:
        card = CardReader(q.rules).card(token)
    except NotationError as e:
        raise UserError(f"--given {text!r}: {e}") from None
    if card not in q.cards.tolist():
        raise UserError(f"--given {text!r}: {format_card(card)} is not an unseen card")
    if q.sizes[group] == 0:
        raise UserError(f"--given {text!r}: that hand is already full")
    q.place(card, group)
