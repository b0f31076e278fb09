"""Shared test helpers: hand-built deals, and the check of every server log for tracebacks (tests/server_logs.py)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

import server_logs
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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_traceback(*names): the test provokes, on purpose, a logged traceback "
                            "whose text contains one of the names (tests/server_logs.py)")


@pytest.fixture(autouse=True)
def no_tracebacks(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test whose servers logged a traceback it did not name with ``@pytest.mark.allow_traceback``."""
    allowed = [name for mark in request.node.iter_markers("allow_traceback") for name in mark.args]
    with server_logs.watching(allowed) as found:
        yield
        unallowed = list(found)
    if unallowed:
        pytest.fail(f"{len(unallowed)} traceback(s) in the server logs (name one the test provokes with "
                    f"@pytest.mark.allow_traceback):\n" + "\n".join(unallowed)[:8000], pytrace=False)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A server stopped after its last test (a module's fixture) and logged a traceback: the run fails."""
    if server_logs.late:
        print("\ntraceback(s) in the logs of servers stopped after their tests:\n" + "\n".join(server_logs.late)[:8000])
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
