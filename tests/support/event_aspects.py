"""Every aspect of every event (wire form, encoding line, narration, redaction) on fixed matches, as JSON lines.

``tests/core/golden/event_aspects.jsonl`` holds what this printed before the aspects moved into one registry;
``test_events_registry`` compares. Regenerate (only for an intended change of an output) with
``python tests/support/event_aspects.py > tests/core/golden/event_aspects.jsonl``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import msgspec

from xeri.bots.encoding import event_line
from xeri.cards import Card
from xeri.events import Captured, Event, PileUnclaimed, Played, ThresholdRaised, redact
from xeri.match import Match
from xeri.rules import Ruleset, find_ruleset
from xeri.server.wire import messages
from xeri.tui.narration import Seating, narrate
from xeri.views import event_json


def wire(event: Event) -> object:
    """An event's EVENT object, checked against the schema's model (the server sends the core's as it is)."""
    return msgspec.to_builtins(msgspec.convert(event_json(event), messages.GameEvent))


#: (preset, options, seed): one round each, chosen so the logs hold a redeal, a slipped Jack, a cut card
#: shown, face-down pile cards, and seats in partnership
CASES: list[tuple[str, dict[str, object], int]] = [
    ("classic", {"match_end": "rounds", "rounds": 1}, 1),
    ("cardgames", {"match_end": "rounds", "rounds": 1}, 1),
    ("pisti", {"match_end": "rounds", "rounds": 1}, 0),
    ("classic", {"players": 4, "exposed_bottom": True, "match_end": "rounds", "rounds": 1}, 0),
]


def _synthetic() -> list[Event]:
    """Events no short seeded match here makes: a pile nobody claimed, a raised target, a hidden leftover."""
    c = Card.parse
    return [PileUnclaimed((c("2C"), c("TD"))), ThresholdRaised(251),
            Captured(1, (c("5H"), c("5S")), hidden_count=2, hidden=(c("KD"), c("3C")), leftover=True)]


def _match(preset: str, options: dict[str, object], seed: int) -> Match:
    match = Match(find_ruleset(preset, **options), seed=seed)
    rng = random.Random(seed)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves))
    return match


def lines() -> Iterator[str]:
    logs: list[tuple[str, Ruleset, tuple[Event, ...]]] = []
    for preset, options, seed in CASES:
        match = _match(preset, options, seed)
        logs.append((f"{preset} {options} seed {seed}", match.ruleset, match.events))
    logs.append(("synthetic", find_ruleset("classic"), tuple(_synthetic())))
    for name, ruleset, log in logs:
        names = tuple(f"P{i}" for i in range(ruleset.players))
        for viewer in (0, None):
            seating = Seating(ruleset, names, viewer)
            # A few plays of each seat are enough: the plays are alike, the captures and deals are not.
            plays = 0
            for event in redact(log, viewer):
                plays += type(event) is Played
                if type(event) is Played and plays > 2 * ruleset.players:
                    continue
                text = narrate(event, seating)
                yield json.dumps({"case": name, "viewer": viewer, "wire": wire(event),
                                  "line": event_line(event, viewer), "narration": None if text is None else text.plain,
                                  "style": None if text is None else str(text.style),
                                  "spans": None if text is None else [str(s) for s in text.spans]},
                                 ensure_ascii=False)


if __name__ == "__main__":
    for line in lines():
        print(line)
