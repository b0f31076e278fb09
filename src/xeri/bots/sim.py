"""A lean round simulator for search: cards are ints (``Card.index``), no events, no checks.

The event engine (``xeri.engine.Round``) is the reference; this copy of its
rules exists because search plays millions of moves, and it is proved equal to
the engine by a differential test (``tests/bots/test_bots_sim.py``). Rank of card
``c`` is ``c % 13`` (Jacks are 9), points come from ``scoring.card_values``.
"""

from __future__ import annotations

from ..engine import Deal, Round
from ..rules import Ruleset
from ..scoring import card_values, most_cards_side

JACK = 9  # Card.index % 13 of a Jack


class Rules:
    """The ruleset numbers the simulator needs, read once."""

    __slots__ = (
        "hand_size",
        "jack_xeri_any",
        "jack_xeri_points",
        "last_card_xeri",
        "most_cards_points",
        "players",
        "sides",
        "values",
        "xeri_points",
    )

    def __init__(self, ruleset: Ruleset) -> None:
        self.players = ruleset.players
        self.sides = ruleset.sides
        self.hand_size = ruleset.hand_size
        self.jack_xeri_any = ruleset.jack_xeri_any
        self.xeri_points = ruleset.xeri_points
        self.jack_xeri_points = ruleset.jack_xeri_points
        self.last_card_xeri = ruleset.last_card_xeri
        self.most_cards_points = ruleset.most_cards_points
        self.values: tuple[int, ...] = card_values(ruleset.scoring, ruleset.two_of_spades)


class SimState:
    """A round in progress. ``pts`` holds points so far (cards and xeris), ``cnt`` cards captured."""

    __slots__ = (
        "cnt",
        "dealer",
        "hands",
        "in_hands",
        "last",
        "order",
        "pile",
        "pile_val",
        "pts",
        "rules",
        "seen",
        "talon",
        "tpos",
        "turn",
        "xeris",
    )

    rules: Rules
    hands: list[list[int]]
    pile: list[int]
    pile_val: int
    talon: list[int]
    tpos: int
    in_hands: int
    turn: int
    dealer: int
    order: tuple[int, ...]
    last: int
    cnt: list[int]
    pts: list[int]
    xeris: list[int]
    seen: list[int]

    def copy(self) -> SimState:
        s = SimState.__new__(SimState)
        s.rules = self.rules
        s.hands = [h[:] for h in self.hands]
        s.pile = self.pile[:]
        s.pile_val = self.pile_val
        s.talon = self.talon
        s.tpos = self.tpos
        s.in_hands = self.in_hands
        s.turn = self.turn
        s.dealer = self.dealer
        s.order = self.order
        s.last = self.last
        s.cnt = self.cnt[:]
        s.pts = self.pts[:]
        s.xeris = self.xeris[:]
        s.seen = self.seen[:]
        return s

    @property
    def over(self) -> bool:
        return self.turn < 0

    def play(self, c: int) -> int:
        """Play card ``c`` for the seat to move; returns cards captured (0: none)."""
        rules = self.rules
        t = self.turn
        self.hands[t].remove(c)
        self.in_hands -= 1
        pile = self.pile
        self.turn = (t + 1) % rules.players
        taken = 0
        r = c % 13
        self.seen[r] += 1
        if pile and (r == pile[-1] % 13 or r == JACK):
            top = pile[-1]
            lone = len(pile) == 1
            pile.append(c)
            side = t % rules.sides
            taken = len(pile)
            self.cnt[side] += taken
            self.pts[side] += self.pile_val + rules.values[c]
            self.last = t
            pile.clear()
            self.pile_val = 0
            if (
                lone
                and (r == top % 13 or rules.jack_xeri_any)
                and (rules.last_card_xeri or self.in_hands or self.tpos < len(self.talon))
            ):
                self.xeris[side] += 1
                self.pts[side] += rules.jack_xeri_points if (r == JACK and top % 13 == JACK) else rules.xeri_points
        else:
            pile.append(c)
            self.pile_val += rules.values[c]
        if not self.in_hands:
            self._deal_or_finish()
        return taken

    def _deal_or_finish(self) -> None:
        rules = self.rules
        n = rules.players
        left = len(self.talon) - self.tpos
        if left:
            k = min(rules.hand_size, left // n)
            pos = self.tpos
            for seat in self.order:
                self.hands[seat].extend(self.talon[pos : pos + k])
                pos += k
            self.tpos = pos
            self.in_hands = k * n
            return
        if self.pile and self.last >= 0:
            side = self.last % rules.sides
            self.cnt[side] += len(self.pile)
            self.pts[side] += self.pile_val
        self.pile = []
        self.pile_val = 0
        self.turn = -1
        if rules.most_cards_points:
            most = most_cards_side(self.cnt)
            if most is not None:
                self.pts[most] += rules.most_cards_points

    def totals(self) -> list[int]:
        """Each side's points (final once the round is over)."""
        return self.pts[:]


def new_state(
    rules: Rules,
    dealer: int,
    hands: list[list[int]],
    pile: list[int],
    talon: list[int],
    turn: int,
    *,
    last: int = -1,
    cnt: list[int] | None = None,
    pts: list[int] | None = None,
    xeris: list[int] | None = None,
    seen: list[int] | None = None,
) -> SimState:
    """A state from explicit parts (ints); ``talon`` is the undealt rest in dealing order.

    ``seen`` counts, per rank, the cards shown face up so far (for playout policies only).
    """
    s = SimState.__new__(SimState)
    s.rules = rules
    s.hands = hands
    s.pile = pile
    s.pile_val = sum(rules.values[c] for c in pile)
    s.talon = talon
    s.tpos = 0
    s.in_hands = sum(len(h) for h in hands)
    s.turn = turn
    s.dealer = dealer
    n = rules.players
    s.order = tuple((dealer + 1 + k) % n for k in range(n))
    s.last = last
    s.cnt = cnt if cnt is not None else [0] * rules.sides
    s.pts = pts if pts is not None else [0] * rules.sides
    s.xeris = xeris if xeris is not None else [0] * rules.sides
    if seen is None:
        seen = [0] * 13
        for c in pile:
            seen[c % 13] += 1
    s.seen = seen
    return s


def from_deal(ruleset: Ruleset, dealer: int, deal: Deal, rules: Rules | None = None) -> SimState:
    """The simulator state at the start of a round dealt as ``deal``."""
    rules = rules or Rules(ruleset)
    return new_state(
        rules,
        dealer,
        [[c.index for c in h] for h in deal.hands],
        [c.index for c in deal.pile],
        [c.index for c in deal.talon],
        (dealer + 1) % ruleset.players,
    )


def from_round(rnd: Round) -> SimState:
    """The true state of an engine round, hidden cards included: for the oracle and tests only."""
    ruleset = rnd.ruleset
    rules = Rules(ruleset)
    values = rules.values
    pts = []
    for side in range(ruleset.sides):
        xp = sum(ruleset.jack_xeri_points if jack else ruleset.xeri_points for _, jack in rnd.xeris(side))
        pts.append(sum(values[c.index] for c in rnd.captured(side)) + xp)
    turn = rnd.turn
    return new_state(
        rules,
        rnd.dealer,
        [[c.index for c in rnd.hand(s)] for s in range(ruleset.players)],
        [c.index for c in rnd.pile],
        [c.index for c in rnd.talon],
        -1 if turn is None else turn,
        last=-1 if rnd.last_capturer is None else rnd.last_capturer,
        cnt=[len(rnd.captured(s)) for s in range(ruleset.sides)],
        pts=pts,
        xeris=[len(rnd.xeris(s)) for s in range(ruleset.sides)],
        seen=[sum(1 for c in rnd.view(None).gone if c.index % 13 == r) for r in range(13)],
    )
