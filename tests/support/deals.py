"""Hand-built deals for the engine's tests."""

from __future__ import annotations

from collections.abc import Sequence

from xeri.cards import DECK, Card, parse_cards
from xeri.engine import Deal
from xeri.rules import Ruleset


def build_deal(
    ruleset: Ruleset,
    hands: Sequence[str],
    pile: str,
    talon: str = "",
    face_down: str = "",
    exposed: str | None = None,
    fill_hands: bool = True,
) -> Deal:
    """A deal with the given hands, pile (bottom first) and talon start.

    Hands shorter than the hand size are topped up, and the talon filled, with
    the unused cards in index order (the exposed card, if any, goes last).
    """
    used: list[Card] = []
    hand_cards = [list(parse_cards(h)) for h in hands]
    hand_cards += [[] for _ in range(ruleset.players - len(hand_cards))]
    pile_cards = list(parse_cards(pile))
    talon_cards = list(parse_cards(talon))
    exposed_card = Card.parse(exposed) if exposed else None
    for cards in [*hand_cards, pile_cards, talon_cards]:
        used.extend(cards)
    if exposed_card:
        used.append(exposed_card)
    spare = [c for c in DECK if c not in used]
    if fill_hands:
        for h in hand_cards:
            while len(h) < ruleset.hand_size:
                h.append(spare.pop(0))
    talon_cards.extend(spare)
    if exposed_card:
        talon_cards.append(exposed_card)
    return Deal(
        hands=tuple(tuple(h) for h in hand_cards),
        pile=tuple(pile_cards),
        talon=tuple(talon_cards),
        face_down=parse_cards(face_down),
        exposed=exposed_card,
    )
