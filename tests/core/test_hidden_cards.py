"""No event, as a seat or a spectator sees it, names a card hidden from them: every event type, every preset ×
every option that can put a card face down.

Random matches under each ruleset; after each transition, every new event is redacted for each seat and for a
spectator (``xeri.events.redact``, what the server and the bots are given) and checked against the ground truth
of that moment: the other hands, the talon, the face-down pile cards and the face-down cards captured so far.
A ``pile_redealt`` event shows a bad initial pile turned back into the deck, so its cards are public only where
they were face up. Redeal rules with face-down pile cards are refused (docs/pisti.md), so none can leak.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import typing
from collections.abc import Iterator, Sequence

import pytest

from xeri.cards import DECK, Card, Rank
from xeri.engine import Deal, Round
from xeri.errors import RulesetError
from xeri.events import Event, PileRedealt, RoundStarted, redact
from xeri.match import Match
from xeri.rules import INITIAL_PILE_RULES, PRESETS, Ruleset, find_ruleset

EVENT_TYPES = set(typing.get_args(Event))
REDEAL = ("redeal", "redeal_any_jack")


def named_cards(value: object) -> Iterator[Card]:
    """Every card an event names, however deep (score lines included)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from named_cards(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from named_cards(getattr(value, f.name))


def hidden_from(rnd: Round, seat: int | None) -> set[Card]:
    """What ``seat`` (None: a spectator) may not know right now in ``rnd``."""
    if rnd.is_over:
        return set()  # scored: every card is accounted for in public
    n = rnd.ruleset.players
    hidden = set(rnd.talon) | set(rnd._face_down) | set(rnd._hidden_captured)
    for s in range(n):
        if s != seat:
            hidden |= set(rnd.hand(s))
    hidden.discard(rnd.deal.exposed)  # the exposed bottom card is shown to all
    return hidden


def check(events: tuple[Event, ...], match: Match, finished: Round, where: str) -> set[type]:
    """Check new events for every viewer; events up to a ``RoundStarted`` belong to ``finished``."""
    n = match.ruleset.players
    face_down = match.ruleset.pile_face_down
    rnd = finished
    for event in events:
        if isinstance(event, RoundStarted):
            rnd = match.rounds[event.number - 1]
        for seat in (*range(n), None):
            (seen,) = redact([event], seat)
            named = set(named_cards(seen))
            if isinstance(seen, PileRedealt):
                # The bad pile was turned up for all before it went back into the deck: only face-up cards.
                bad = named & set(seen.cards[:face_down])
            else:
                bad = named & hidden_from(rnd, seat)
            assert not bad, f"{where}: seat {seat} sees hidden {sorted(map(str, bad))} in {seen}"
    return {type(e) for e in events}


def play_match(ruleset: Ruleset, seed: int, deals: Sequence[Deal] = ()) -> set[type]:
    match = Match(ruleset, seed=seed, deals=deals)
    where = f"{ruleset.describe()} seed {seed}"
    seen = check(match.events, match, match.round, where)
    rng = random.Random(seed)
    while not match.is_over:
        rnd = match.round
        seen |= check(match.play(rng.choice(match.legal_moves)), match, rnd, where)
    return seen


def face_down_rulesets() -> Iterator[tuple[str, dict[str, object]]]:
    """Every preset × the options that decide what lies face down (how many cards, the initial-pile rule).

    The player count and the cut card vary from one to the next, so each shows up under every rule.
    """
    combos = itertools.product(PRESETS, (0, 1, 3), INITIAL_PILE_RULES)
    for k, (preset, face_down, pile_rule) in enumerate(combos):
        yield preset, {"pile_face_down": face_down, "initial_pile": pile_rule, "players": (2, 3, 4)[k % 3],
                       "exposed_bottom": k % 2 == 1}


def short(preset: str, **options: object) -> Ruleset:
    """The ruleset, cut to a short match that still passes a round boundary (and can raise a target)."""
    base = find_ruleset(preset, **options)
    if base.match_end == "target":
        return base.replace(target=12)
    return base.replace(rounds=2)


def unclaimed_pile() -> set[type]:
    """A round nobody captures in: the four Jacks lie face down in the pile and no card meets its rank on top."""
    ruleset = find_ruleset("pisti", hand_size=1, pile_size=8, pile_face_down=7, initial_pile="keep", target=1)
    jacks = [c for c in DECK if c.rank is Rank.JACK]
    rest = [c for c in DECK if c.rank is not Rank.JACK]  # suit by suit: no two cards in a row share a rank
    pile = tuple(jacks + rest[:4])
    order = rest[4:]  # seat 1 plays first (dealer 0), then seat 0, then the talon in that order
    deal = Deal(hands=(tuple(order[1:2]), tuple(order[0:1])), pile=pile, talon=tuple(order[2:]), face_down=pile[:7])
    return play_match(ruleset, 1, [deal])


def test_redeal_rules_with_face_down_cards_are_refused() -> None:
    for preset, rule, face_down in itertools.product(PRESETS, REDEAL, (1, 3)):
        with pytest.raises(RulesetError, match=f"pile_face_down={face_down} cannot go with initial_pile={rule}"):
            find_ruleset(preset, pile_face_down=face_down, initial_pile=rule)
    with pytest.raises(RulesetError, match="would show the face-down cards"):
        Ruleset.from_dict({**find_ruleset("pisti").to_dict(), "initial_pile": "redeal"})


def test_no_event_names_a_card_hidden_from_its_viewer() -> None:
    seen: set[type] = set()
    played = 0
    for k, (preset, options) in enumerate(face_down_rulesets()):
        try:
            ruleset = short(preset, **options)
        except RulesetError:
            assert options["pile_face_down"] and options["initial_pile"] in REDEAL
            continue  # refused: see the test above
        for seed in range(3):
            seen |= play_match(ruleset, 1000 * k + seed)
        played += 1
    seen |= unclaimed_pile()
    assert played == 60 - 2 * 5 * 2
    assert seen == EVENT_TYPES, f"never produced: {sorted(t.__name__ for t in EVENT_TYPES - seen)}"
