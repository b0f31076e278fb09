"""XPN, a one-line notation for a round position (as FEN is for chess).

Fields, separated by single spaces::

    <turn> <dealer> <hands> <pile> <talon> <captures> <last> [e:<exposed>]

* ``turn``: the seat to move, ``-`` once the round is over; ``dealer``: a seat.
* ``hands``: one per seat, in seat order, joined by ``/``. A hand is its cards'
  two-letter codes run together (``ASTD2C``); ``?`` is a card this viewer
  cannot see; ``-`` is an empty hand.
* ``pile``: bottom card first, in the same form; ``?`` is a face-down card
  nobody sees, ``~5H`` a face-down card shown only in a full position.
* ``talon``: how many cards are left to deal.
* ``captures``: one per side, joined by ``/``: ``cards:points`` and, after
  another ``:``, the top cards of that side's xeris (a Jack there is a Jack
  xeri). Points are the public ones (the cards' values and xeri bonuses).
* ``last``: the seat that captured last, ``-`` if none.
* ``e:JD``: the exposed bottom card, while it is still to be dealt.

Example, seat 1 to move in a 2-player round seen by seat 1:
``1 0 ??????/5H9C2DKSQHJD 7C 30 6:2:TD/2:0 0``. Stdlib only, in the core:
tests use it for fixtures, bug reports quote it, and ``xeri replay --position``
prints it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Card
from .engine import Round, SeatView
from .errors import XeriError


class NotationError(XeriError):
    """Text that is not a valid XPN position."""


@dataclass(frozen=True, slots=True)
class PileCard:
    """One pile slot: a card (None if face down and unseen); ``face_down`` if it lies face down."""

    card: Card | None
    face_down: bool = False

    def __str__(self) -> str:
        if self.card is None:
            return "?"
        return ("~" if self.face_down else "") + self.card.code


@dataclass(frozen=True, slots=True)
class Position:
    """A round position, as one viewer knows it (or in full). ``str()`` gives its XPN."""

    turn: int | None
    dealer: int
    hands: tuple[tuple[Card | None, ...], ...]
    pile: tuple[PileCard, ...]
    talon: int
    captured: tuple[int, ...]
    points: tuple[int, ...]
    xeris: tuple[tuple[Card, ...], ...]
    last_capturer: int | None
    exposed: Card | None = None

    def __post_init__(self) -> None:
        _check(self)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def top(self) -> Card | None:
        """The top card of the pile (face up, or None if the pile is empty)."""
        return self.pile[-1].card if self.pile else None

    def can_play(self, card: Card | str) -> bool:
        """Whether the seat to move may play ``card`` here (it is known to be in that hand)."""
        if self.turn is None:
            return False
        wanted = card if isinstance(card, Card) else _card_or_none(card)
        return wanted is not None and wanted in self.hands[self.turn]

    def __str__(self) -> str:
        fields = [
            _seat(self.turn),
            str(self.dealer),
            "/".join(_cards(hand) for hand in self.hands),
            "".join(str(p) for p in self.pile) or "-",
            str(self.talon),
            "/".join(
                f"{n}:{pts}" + (f":{_cards(xs)}" if xs else "")
                for n, pts, xs in zip(self.captured, self.points, self.xeris, strict=True)
            ),
            _seat(self.last_capturer),
        ]
        if self.exposed is not None:
            fields.append(f"e:{self.exposed.code}")
        return " ".join(fields)

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read an XPN line; raise NotationError naming the field that is wrong."""
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        fields = text.split()
        if len(fields) not in (7, 8):
            raise NotationError(
                f"a position has 7 or 8 fields (turn dealer hands pile talon captures last [e:card]), "
                f"not {len(fields)}: {text!r}"
            )
        turn, dealer, hands, pile, talon, captures, last = fields[:7]
        exposed: Card | None = None
        if len(fields) == 8:
            if not fields[7].startswith("e:"):
                raise NotationError(f"the eighth field is the exposed card, written e:JD, not {fields[7]!r}")
            exposed = _one_card(fields[7][2:], "exposed card")
        sides = [part.split(":") for part in captures.split("/")]
        for side in sides:
            if len(side) not in (2, 3):
                raise NotationError(f"a side's captures are cards:points[:xeris], not {':'.join(side)!r}")
        return cls(
            turn=_read_seat(turn, "turn"),
            dealer=_read_int(dealer, "dealer"),
            hands=tuple(tuple(_read_cards(h, "hand", unknown=True)) for h in hands.split("/")),
            pile=_read_pile(pile),
            talon=_read_int(talon, "talon"),
            captured=tuple(_read_int(side[0], "captured count") for side in sides),
            points=tuple(_read_int(side[1], "points") for side in sides),
            xeris=tuple(
                tuple(c for c in _read_cards(side[2], "xeris", unknown=False) if c is not None)
                if len(side) == 3 else ()
                for side in sides
            ),
            last_capturer=_read_seat(last, "last capturer"),
            exposed=exposed,
        )

    @classmethod
    def from_view(cls, view: SeatView) -> Position:
        """What ``view``'s seat knows: other hands and face-down cards are ``?``."""
        hands = tuple(
            tuple(view.hand) if seat == view.seat else (None,) * count
            for seat, count in enumerate(view.hand_counts)
        )
        return cls(
            turn=view.turn,
            dealer=view.dealer,
            hands=hands,
            pile=tuple(PileCard(c, c is None) for c in view.pile),
            talon=view.talon_count,
            captured=view.captured_counts,
            points=view.points,
            xeris=tuple(tuple(top for top, _ in xs) for xs in view.xeris),
            last_capturer=view.last_capturer,
            exposed=view.exposed if view.exposed_holder is None else None,
        )

    @classmethod
    def from_round(cls, rnd: Round) -> Position:
        """The full position: every hand, and face-down pile cards marked ``~``."""
        public = cls.from_view(rnd.view(None))
        pile = tuple(PileCard(card, slot.face_down) for card, slot in zip(rnd.pile, public.pile, strict=True))
        hands = tuple(rnd.hand(seat) for seat in range(rnd.ruleset.players))
        return cls(
            turn=public.turn,
            dealer=public.dealer,
            hands=hands,
            pile=pile,
            talon=public.talon,
            captured=public.captured,
            points=public.points,
            xeris=public.xeris,
            last_capturer=public.last_capturer,
            exposed=public.exposed,
        )


def _check(p: Position) -> None:
    n = len(p.hands)
    if not 2 <= n <= 4:
        raise NotationError(f"a position has 2, 3 or 4 hands, not {n}")
    sides = len(p.captured)
    if sides != (2 if n == 4 else n) or not len(p.points) == len(p.xeris) == sides:
        raise NotationError(f"a {n}-player position has {2 if n == 4 else n} sides of captures, not {sides}")
    for name, seat in (("turn", p.turn), ("dealer", p.dealer), ("last capturer", p.last_capturer)):
        if seat is not None and not 0 <= seat < n:
            raise NotationError(f"the {name} {seat} is not a seat of a {n}-player game")
    if p.talon < 0 or any(c < 0 for c in p.captured):
        raise NotationError("card counts cannot be negative")
    known = [c for hand in p.hands for c in hand if c is not None]
    known += [s.card for s in p.pile if s.card is not None]
    known += [c for xs in p.xeris for c in xs]  # a xeri's card lies among the captures, nowhere else
    if len(set(known)) != len(known):
        twice = sorted({c.code for c in known if known.count(c) > 1})
        raise NotationError(f"a card is in two places: {', '.join(twice)}")
    total = sum(len(h) for h in p.hands) + len(p.pile) + p.talon + sum(p.captured)
    if total != 52:
        raise NotationError(f"the hands, pile, talon and captures hold {total} cards, not 52")


def _seat(seat: int | None) -> str:
    return "-" if seat is None else str(seat)


def _cards(cards: Iterable[Card | None]) -> str:
    return "".join("?" if c is None else c.code for c in cards) or "-"


def _read_int(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        raise NotationError(f"the {what} is a small whole number, not {text!r}")
    return int(text)


def _read_seat(text: str, what: str) -> int | None:
    return None if text == "-" else _read_int(text, what)


def _card_or_none(code: str) -> Card | None:
    try:
        return Card.parse(code)
    except XeriError:
        return None


def _one_card(code: str, what: str) -> Card:
    card = _card_or_none(code) if len(code) == 2 else None
    if card is None:
        raise NotationError(f"the {what} {code!r} is not a two-letter card code such as TD or JS")
    return card


def _read_cards(text: str, what: str, *, unknown: bool) -> list[Card | None]:
    if text == "-":
        return []
    out: list[Card | None] = []
    i = 0
    while i < len(text):
        if text[i] == "?" and unknown:
            out.append(None)
            i += 1
            continue
        out.append(_one_card(text[i : i + 2], f"card in the {what}"))
        i += 2
    return out


def _read_pile(text: str) -> tuple[PileCard, ...]:
    if text == "-":
        return ()
    out: list[PileCard] = []
    i = 0
    while i < len(text):
        if text[i] == "?":
            out.append(PileCard(None, True))
            i += 1
        elif text[i] == "~":
            out.append(PileCard(_one_card(text[i + 1 : i + 3], "face-down card in the pile"), True))
            i += 3
        else:
            out.append(PileCard(_one_card(text[i : i + 2], "card in the pile")))
            i += 2
    return tuple(out)
