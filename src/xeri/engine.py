"""A round of Xeri as a state machine: deal, turns, captures, xeris, scoring.

``Round.deal(ruleset, dealer, seed)`` shuffles, cuts and deals; ``Round(ruleset,
dealer, deal)`` starts from an explicit ``Deal`` (how records replay). Every
transition returns frozen events, and ``Round.events`` is the full log.
``view(seat)`` and ``log_for(seat)`` give only what that seat may know.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import DECK, Card, Rank, format_cards
from .errors import DealError, GameOverError, IllegalMoveError, OutOfTurnError
from .events import (
    BottomExposed,
    Captured,
    Dealt,
    Event,
    JackSlipped,
    PileRedealt,
    PileUnclaimed,
    Played,
    RoundScored,
    Xeri,
    redact,
)
from .events import (
    played as make_played,
)
from .rules import Ruleset, jack_xeri, makes_xeri, takes
from .scoring import ScoreBreakdown, card_values, score_round, xeri_value

_JACK = Rank.JACK


@dataclass(frozen=True, slots=True)
class Deal:
    """An explicit arrangement of the 52 cards at the start of a round.

    ``pile`` is bottom first, after the initial-pile rule was applied; ``talon``
    is in dealing order; ``face_down`` lists pile cards still face down.
    ``redealt`` and ``slipped`` record what the initial-pile rule did.
    """

    hands: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]
    talon: tuple[Card, ...]
    face_down: tuple[Card, ...] = ()
    exposed: Card | None = None
    redealt: tuple[tuple[Card, ...], ...] = ()
    slipped: tuple[Card, ...] = ()


def pile_fault(ruleset: Ruleset, pile: Sequence[Card]) -> str | None:
    """Why an initial pile must be redealt under the ruleset, or None if it stands."""
    rule = ruleset.initial_pile
    if rule not in ("redeal", "redeal_any_jack") or not pile:
        return None
    if len(pile) >= 2 and pile[-1].rank is pile[-2].rank:
        return "the top two cards are equal in rank"
    if rule == "redeal" and pile[-1].rank is _JACK:
        return "the top card is a Jack"
    if rule == "redeal_any_jack" and any(c.rank is _JACK for c in pile):
        return "a Jack is in the pile"
    return None


def deal_order(ruleset: Ruleset, dealer: int) -> tuple[int, ...]:
    """Seats in dealing and playing order: the dealer's next seat first, the dealer last."""
    n = ruleset.players
    return tuple((dealer + 1 + k) % n for k in range(n))


def shuffle_and_deal(ruleset: Ruleset, dealer: int, rng: random.Random) -> Deal:
    """Shuffle, cut, deal hands and the pile, and apply the initial-pile rule."""
    deck = list(DECK)
    rng.shuffle(deck)
    cut = rng.randrange(1, len(deck))
    deck = deck[cut:] + deck[:cut]
    exposed = None
    if ruleset.exposed_bottom:
        # The cut card becomes the bottom card; a Jack is passed over (000).
        i = len(deck) - 1
        while deck[i].rank is _JACK:
            i -= 1
        exposed = deck.pop(i)
        deck.append(exposed)
    p = ruleset.pile_size
    pos = ruleset.players * ruleset.hand_size
    pile, rest = deck[pos : pos + p], deck[pos + p :]
    redealt: list[tuple[Card, ...]] = []
    while pile_fault(ruleset, pile):
        redealt.append(tuple(pile))
        body = pile + (rest[:-1] if exposed else rest)
        rng.shuffle(body)
        if exposed:
            body.append(exposed)
        pile, rest = body[:p], body[p:]
    return lay_out(ruleset, dealer, deck[:pos] + pile + rest, exposed=exposed, redealt=tuple(redealt))


def lay_out(
    ruleset: Ruleset,
    dealer: int,
    cards: Sequence[Card],
    *,
    exposed: Card | None = None,
    redealt: tuple[tuple[Card, ...], ...] = (),
) -> Deal:
    """The ``Deal`` of 52 cards in dealing order (hands, the pile that stands, the talon).

    The hands go out in ``deal_order``; the pile's lowest ``pile_face_down`` cards lie face down; under
    ``jack_under`` a Jack on top slips under the pile and the next card turns face up.
    """
    h, p = ruleset.hand_size, ruleset.pile_size
    hands: list[tuple[Card, ...]] = [()] * ruleset.players
    pos = 0
    for seat in deal_order(ruleset, dealer):
        hands[seat] = tuple(cards[pos : pos + h])
        pos += h
    pile = list(cards[pos : pos + p])
    face_down = set(pile[: ruleset.pile_face_down])
    slipped: list[Card] = []
    if ruleset.initial_pile == "jack_under":
        while pile and pile[-1].rank is _JACK and not all(c.rank is _JACK for c in pile):
            jack = pile.pop()
            pile.insert(0, jack)
            slipped.append(jack)
            face_down.discard(pile[-1])  # the next card is turned face up
    return Deal(
        hands=tuple(hands),
        pile=tuple(pile),
        talon=tuple(cards[pos + p :]),
        face_down=tuple(c for c in pile if c in face_down),
        exposed=exposed,
        redealt=redealt,
        slipped=tuple(slipped),
    )


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know; ``seat`` None is a spectator. Holds nothing hidden.

    ``pile`` is bottom first with ``None`` for a face-down card. ``gone`` is every
    card that has been face up on the pile this round (so is no longer in any
    hand or the talon). Per-side tuples are indexed by side (team in 4 players).
    """

    ruleset: Ruleset
    seat: int | None
    dealer: int
    turn: int | None
    hand: tuple[Card, ...]
    pile: tuple[Card | None, ...]
    hand_counts: tuple[int, ...]
    talon_count: int
    captured_counts: tuple[int, ...]
    xeris: tuple[tuple[tuple[Card, bool], ...], ...]
    points: tuple[int, ...]
    exposed: Card | None
    exposed_holder: int | None
    last_capturer: int | None
    played: tuple[tuple[int, Card], ...]
    gone: frozenset[Card]
    over: bool
    match_scores: tuple[int, ...] = ()
    round_wins: tuple[int, ...] = ()
    round_number: int = 1
    target: int | None = None
    names: tuple[str, ...] = field(default=())

    @property
    def top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    @property
    def legal_moves(self) -> tuple[Card, ...]:
        return self.hand if self.turn is not None and self.turn == self.seat else ()

    def can_play(self, card: Card) -> bool:
        """Whether this seat may play ``card`` now (a predicate: never raises)."""
        return card in self.legal_moves

    def unseen(self) -> frozenset[Card]:
        """Cards this seat cannot place: in other hands, the talon or face down."""
        return frozenset(DECK) - self.gone - frozenset(self.hand)


class Round:
    """One round, from the deal to the score. Seats play in order seat+1, seat+2, …"""

    def __init__(self, ruleset: Ruleset, dealer: int, deal: Deal, *, check: bool = True) -> None:
        n = ruleset.players
        if not 0 <= dealer < n:
            raise DealError(f"dealer {dealer} is not a seat of a {n}-player game")
        if check:
            _check_deal(ruleset, deal)
        self.ruleset = ruleset
        self.dealer = dealer
        self.deal = deal
        self._n = n
        self._sides = ruleset.sides
        self._hands = [list(h) for h in deal.hands]
        self._in_hands = sum(len(h) for h in deal.hands)
        self._pile = list(deal.pile)
        self._face_down = set(deal.face_down)
        self._talon = deal.talon
        self._talon_pos = 0
        self._captured: list[list[Card]] = [[] for _ in range(self._sides)]
        self._hidden_captured: set[Card] = set()
        self._xeris: list[list[tuple[Card, bool]]] = [[] for _ in range(self._sides)]
        self._last_capturer: int | None = None
        self._turn = (dealer + 1) % n
        self._next = tuple((s + 1) % n for s in range(n))
        self._order = deal_order(ruleset, dealer)
        self._scores: tuple[ScoreBreakdown, ...] | None = None
        events: list[Event] = []
        if deal.exposed is not None:
            events.append(BottomExposed(deal.exposed))
        for old in deal.redealt:
            events.append(PileRedealt(old, pile_fault(ruleset, old) or "redeal"))
        events.extend(JackSlipped(j) for j in deal.slipped)
        events.append(
            Dealt(
                dealer=dealer,
                hands=deal.hands,
                sizes=tuple(len(h) for h in deal.hands),
                pile=deal.pile,
                talon=len(deal.talon),
                first=True,
                face_down=tuple(i for i, c in enumerate(deal.pile) if c in self._face_down),
            )
        )
        self._events: list[Event] = events
        self._view_cache: tuple[int, dict[str, Any]] | None = None

    @classmethod
    def new(cls, ruleset: Ruleset, dealer: int = 0, seed: int | random.Random | None = None) -> Round:
        """Shuffle with the seed (or the given Random) and deal a fresh round."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        return cls(ruleset, dealer, shuffle_and_deal(ruleset, dealer, rng), check=False)

    # --- reading the state -------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to play, or None when the round is over."""
        return None if self._scores is not None else self._turn

    @property
    def is_over(self) -> bool:
        return self._scores is not None

    @property
    def scores(self) -> tuple[ScoreBreakdown, ...] | None:
        return self._scores

    @property
    def events(self) -> tuple[Event, ...]:
        """The full log, hidden cards included: for the server and records only."""
        return tuple(self._events)

    @property
    def legal_moves(self) -> tuple[Card, ...]:
        """The cards the seat to play may play (every card in hand)."""
        return () if self._scores is not None else tuple(self._hands[self._turn])

    def can_play(self, card: Card, seat: int | None = None) -> bool:
        """Whether ``play(card, seat)`` would be accepted now (a predicate: never raises)."""
        if self._scores is not None or (seat is not None and seat != self._turn):
            return False
        return card in self._hands[self._turn]

    @property
    def played(self) -> tuple[tuple[int, Card], ...]:
        """Every (seat, card) played this round, in order."""
        return tuple((e.seat, e.card) for e in self._events if type(e) is Played)

    @property
    def moves(self) -> tuple[Card, ...]:
        return tuple(e.card for e in self._events if type(e) is Played)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._hands[seat])

    @property
    def pile(self) -> tuple[Card, ...]:
        return tuple(self._pile)

    @property
    def talon(self) -> tuple[Card, ...]:
        """The undealt cards in dealing order (hidden information)."""
        return self._talon[self._talon_pos :]

    def captured(self, side: int) -> tuple[Card, ...]:
        return tuple(self._captured[side])

    def xeris(self, side: int) -> tuple[tuple[Card, bool], ...]:
        return tuple(self._xeris[side])

    @property
    def last_capturer(self) -> int | None:
        return self._last_capturer

    def log_for(self, seat: int | None) -> tuple[Event, ...]:
        """The log as a seat (None: a spectator) may see it."""
        return redact(self._events, seat)

    def view(self, seat: int | None, **match: Any) -> SeatView:
        """Everything ``seat`` may know, and nothing else; ``match`` adds the match's fields (``Match.view``)."""
        if seat is not None and not 0 <= seat < self._n:
            raise OutOfTurnError(f"seat {seat} is not a seat of a {self._n}-player game")
        hand = tuple(self._hands[seat]) if seat is not None else ()
        return SeatView(seat=seat, hand=hand, **self._shared_view(), **match)

    def _shared_view(self) -> dict[str, Any]:
        """The view's fields that are the same for every seat, worked out once a move.

        A server builds a view per seat after each move: this is most of the work.
        Every change of state appends an event, so the event count keys the cache.
        """
        key = len(self._events)
        cached = self._view_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        over = self._scores is not None
        values = card_values(self.ruleset.scoring, self.ruleset.two_of_spades)
        hidden = self._hidden_captured
        points = tuple(
            sum(values[c.index] for c in cards if c not in hidden)
            + sum(xeri_value(self.ruleset, jack) for _, jack in xs)
            for cards, xs in zip(self._captured, self._xeris, strict=False)
        )
        played = self.played
        gone = frozenset(c for c in self.deal.pile if c not in self.deal.face_down).union(c for _, c in played)
        exposed = self.deal.exposed
        holder = None
        if exposed is not None:
            if exposed in gone:
                exposed = None
            elif self._talon_pos == len(self._talon):
                holder = self.dealer
        fields: dict[str, Any] = {
            "ruleset": self.ruleset,
            "dealer": self.dealer,
            "turn": None if over else self._turn,
            "pile": tuple(None if c in self._face_down else c for c in self._pile),
            "hand_counts": tuple(len(h) for h in self._hands),
            "talon_count": len(self._talon) - self._talon_pos,
            "captured_counts": tuple(len(c) for c in self._captured),
            "xeris": tuple(tuple(x) for x in self._xeris),
            "points": points,
            "exposed": exposed,
            "exposed_holder": holder,
            "last_capturer": self._last_capturer,
            "played": played,
            "gone": gone,
            "over": over,
        }
        self._view_cache = (key, fields)
        return fields

    def play(self, card: Card | str, seat: int | None = None) -> tuple[Event, ...]:
        """Play a card for the seat to move; ``seat``, if given, must be that seat."""
        if self._scores is not None:
            raise GameOverError("the round is over: no more cards can be played")
        turn = self._turn
        if seat is not None and seat != turn:
            raise OutOfTurnError(f"it is seat {turn}'s turn, not seat {seat}'s")
        if type(card) is not Card:
            card = Card.parse(card) if isinstance(card, str) else _not_a_card(card)
        hand = self._hands[turn]
        try:
            hand.remove(card)
        except ValueError:
            raise IllegalMoveError(
                f"{card} is not in seat {turn}'s hand (hand: {format_cards(hand) or 'empty'})"
            ) from None
        return self._played(turn, card)

    def play_allowed(self, card: Card) -> tuple[Event, ...]:
        """Play ``card`` for the seat to move, a move the table's rules already allowed
        (``xeri.table_rules.verify_move``): the server and the offline engine check a move once, there, and this
        trusts it. Anything else plays through ``play``, which checks."""
        turn = self._turn
        self._hands[turn].remove(card)
        return self._played(turn, card)

    def _played(self, turn: int, card: Card) -> tuple[Event, ...]:
        """The move of ``card``, taken from ``turn``'s hand: the pile, a capture, the next deal or the score."""
        self._in_hands -= 1
        played = make_played(turn, card)
        self._events.append(played)
        pile = self._pile
        self._turn = self._next[turn]
        if pile and takes(card, pile[-1]):
            out = self._capture(turn, card, played)
        else:
            pile.append(card)
            out = (played,)
        if not self._in_hands:
            out += self._deal_or_finish()
        return out

    def _capture(self, seat: int, card: Card, played: Played) -> tuple[Event, ...]:
        pile = self._pile
        top = pile[-1]
        size = len(pile)
        pile.append(card)
        side = seat % self._sides
        self._captured[side].extend(pile)
        self._last_capturer = seat
        if self._face_down:
            hidden = tuple(c for c in pile if c in self._face_down)
            self._face_down.difference_update(hidden)
            self._hidden_captured.update(hidden)
            captured = Captured(seat, tuple(c for c in pile if c not in hidden), len(hidden), hidden)
        else:
            captured = Captured(seat, tuple(pile))
        pile.clear()
        self._events.append(captured)
        # Only a lone card can be a xeri: the guard spares the hot path a call.
        if size == 1 and makes_xeri(self.ruleset, card, top, 1, self._in_hands + len(self._talon) - self._talon_pos):
            jack = jack_xeri(card, top)
            xeri = Xeri(seat, top, jack, xeri_value(self.ruleset, jack))
            self._xeris[side].append((top, jack))
            self._events.append(xeri)
            return (played, captured, xeri)
        return (played, captured)

    def _deal_or_finish(self) -> tuple[Event, ...]:
        left = len(self._talon) - self._talon_pos
        if left:
            k = min(self.ruleset.hand_size, left // self._n)
            hands: list[tuple[Card, ...]] = [()] * self._n
            pos = self._talon_pos
            for seat in self._order:
                hands[seat] = self._talon[pos : pos + k]
                self._hands[seat].extend(hands[seat])
                pos += k
            self._talon_pos = pos
            self._in_hands = k * self._n
            dealt = Dealt(self.dealer, tuple(hands), (k,) * self._n, (), len(self._talon) - pos, False)
            self._events.append(dealt)
            return (dealt,)
        out: list[Event] = []
        if self._pile:
            leftover = tuple(self._pile)
            self._pile.clear()
            if self._last_capturer is not None:
                seat = self._last_capturer
                self._captured[seat % self._sides].extend(leftover)
                out.append(Captured(seat, leftover, leftover=True))
            else:
                out.append(PileUnclaimed(leftover))
        self._face_down.clear()
        self._scores = score_round(self.ruleset, self._captured, self._xeris)
        out.append(RoundScored(self._scores))
        self._events.extend(out)
        return tuple(out)


def _not_a_card(value: object) -> Card:
    from .errors import CardError

    raise CardError(f"expected a card or a card string such as '10d', not {value!r}")


def _check_deal(ruleset: Ruleset, deal: Deal) -> None:
    """Reject a deal that is not a valid start of a round under the ruleset."""
    n = ruleset.players
    if len(deal.hands) != n:
        raise DealError(f"the deal has {len(deal.hands)} hands for {n} players")
    for seat, h in enumerate(deal.hands):
        if len(h) != ruleset.hand_size:
            raise DealError(f"seat {seat} was dealt {len(h)} cards, not {ruleset.hand_size}")
    if len(deal.pile) != ruleset.pile_size:
        raise DealError(f"the initial pile has {len(deal.pile)} cards, not {ruleset.pile_size}")
    everything = [c for h in deal.hands for c in h] + list(deal.pile) + list(deal.talon)
    seen: set[Card] = set()
    for c in everything:
        if c in seen:
            raise DealError(f"{c} appears twice in the deal")
        seen.add(c)
    if len(seen) != 52:
        missing = format_cards(sorted(frozenset(DECK) - seen))
        raise DealError(f"the deal is missing cards: {missing}")
    fault = pile_fault(ruleset, deal.pile)
    if fault:
        raise DealError(f"the initial pile breaks the '{ruleset.initial_pile}' rule: {fault}")
    if ruleset.initial_pile == "jack_under" and deal.pile and deal.pile[-1].rank is _JACK:
        if not all(c.rank is _JACK for c in deal.pile):
            raise DealError("a Jack is on top of the initial pile under the jack_under rule")
    if not set(deal.face_down) <= set(deal.pile[:-1]):
        raise DealError("face-down cards must be pile cards under the top card")
    if ruleset.exposed_bottom:
        if deal.exposed is None or not deal.talon or deal.talon[-1] != deal.exposed:
            raise DealError("with exposed_bottom the exposed card must be the talon's last card")
        if deal.exposed.rank is _JACK:
            raise DealError("the exposed bottom card cannot be a Jack")
    elif deal.exposed is not None:
        raise DealError("the deal names an exposed card, but exposed_bottom is off")
