"""Every event type has every aspect (wire form, narration, encoding, redaction), and their outputs do not move."""

from __future__ import annotations

import dataclasses
import inspect
import json
import typing
from pathlib import Path

import pytest

from support.event_aspects import lines
from xeri import events
from xeri.bots.encoding import EVENT_LINE
from xeri.events import EVENT_TYPES, REDACTION, Aspect, Played, public
from xeri.server.table.views import WIRE_FORM
from xeri.tui.narration import NARRATION

ASPECTS = {"wire form": WIRE_FORM, "narration": NARRATION, "encoding": EVENT_LINE, "redaction": REDACTION}
GOLDEN = Path(__file__).parent / "golden" / "event_aspects.jsonl"


def test_event_types_are_every_event_dataclass() -> None:
    """EVENT_TYPES is the ``Event`` union and every frozen dataclass of events.py: none is left out."""
    defined = {obj for _, obj in inspect.getmembers(events, inspect.isclass)
               if dataclasses.is_dataclass(obj) and obj.__module__ == events.__name__}
    assert set(EVENT_TYPES) == defined
    assert EVENT_TYPES == typing.get_args(events.Event)


@pytest.mark.parametrize("name", sorted(ASPECTS))
def test_every_event_has_every_aspect(name: str) -> None:
    aspect = ASPECTS[name]
    assert aspect.name == name
    assert set(aspect.handlers) == set(EVENT_TYPES)
    assert all(callable(h) for h in aspect.handlers.values())


def test_an_aspect_without_a_handler_is_refused() -> None:
    partial = {t: public for t in EVENT_TYPES if t is not Played}
    with pytest.raises(TypeError, match="missing Played"):
        Aspect("test", partial)
    with pytest.raises(TypeError, match="not event types: int"):
        Aspect("test", {**partial, Played: public, int: public})


def test_outputs_match_the_golden_file() -> None:
    """Wire form, encoding line, narration (text and styles) and redaction of fixed logs, byte for byte."""
    want = GOLDEN.read_text(encoding="utf-8").splitlines()
    got = list(lines())
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"line {k + 1} differs: {json.loads(g)} != {json.loads(w)}"
