"""A socket frame becomes its command in one decode (server.wire.protocol ``read_frame``), and a refused one gets
the code, the words and the ``ref`` the careful way (parse under the limits, read the ref, convert) gave."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xeri.server.wire import protocol
from xeri.server.wire.inputs import parse_json
from xeri.server.wire.protocol import (
    Hint,
    Move,
    Ping,
    Ready,
    RefusedFrame,
    Rematch,
    Sync,
    Takeback,
    message_ref,
    read_frame,
    read_message,
)
from xeri.server.wire.refusals import ProtocolError


def careful(text: str) -> tuple[Any, Any]:
    """What the frame was before: parsed under the limits, its ref read, then converted; or (code, message, ref)."""
    ref = None
    try:
        data = parse_json(text)
        ref = message_ref(data)
        return read_message(data), None
    except ProtocolError as exc:
        return None, (exc.code, exc.message, ref)


def read(text: str) -> tuple[Any, Any]:
    try:
        return read_frame(text), None
    except RefusedFrame as exc:
        return None, (exc.code, exc.message, exc.ref)


def test_each_message_is_decoded_once_into_its_command(monkeypatch: pytest.MonkeyPatch) -> None:
    def walked(text: Any) -> Any:
        raise AssertionError("a well-formed frame was walked a second time")

    monkeypatch.setattr(protocol, "parse_json", walked)
    assert read_frame('{"type":"move","card":"TD","version":3,"ref":"a","extra":null}') == Move(
        ref="a", card="TD", version=3)
    assert read_frame('{"ref": 7, "type": "takeback", "version": 12}') == Takeback(ref=7, version=12)
    assert [read_frame(json.dumps({"type": t})) for t in ("hint", "sync", "ping", "rematch")] == [
        Hint(), Sync(), Ping(), Rematch()]
    assert read_frame('{"type":"ready","round":2}') == Ready(round=2)
    assert read_frame('{"type":"ping","ref":"Ξερή ✓"}') == Ping(ref="Ξερή ✓")  # UTF-8 as it is, no escape


def test_a_frame_nested_at_all_is_read_the_careful_way_to_the_same_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """No message's field holds an object or a list: a frame with one (in a field no message has) is scanned as one
    that may nest too deep, and read the careful way; it finds the message all the same."""
    walked: list[Any] = []

    def counted(text: Any) -> Any:
        walked.append(text)
        return parse_json(text)

    monkeypatch.setattr(protocol, "parse_json", counted)
    text = '{"type":"move","card":"TD","version":3,"ref":"a","extra":[1,{"b":null}]}'
    assert read_frame(text) == Move(ref="a", card="TD", version=3) and walked == [text]
    assert read(text) == careful(text)


@pytest.mark.parametrize(("text", "refused"), [
    ("not json", ("bad_json", "the message is not valid JSON", None)),
    ("[" * 40 + "]" * 40, ("bad_json", "JSON may nest at most 32 deep", None)),
    ('{"type": "ping", "x": ' + "[" * 33 + "]" * 33 + "}", ("bad_json", "JSON may nest at most 32 deep", None)),
    ('{"type": "ping", "x": ' + "[1," * 33 + "]" * 33 + "}", ("bad_json", "the message is not valid JSON", None)),
    ('{"type": "move", "card": "TD", "version": ' + "9" * 41 + "}",
     ("bad_json", "numbers are limited to 40 digits", None)),
    ('{"type": "ping", "ref": 1e999}', ("bad_json", "numbers must be finite", None)),
    ('{"type": "ping", "ref": NaN}', ("bad_json", "NaN is not a JSON number", None)),
    ('{"type": "move", "card": "\\u0000", "version": 0}', ("bad_request", "text holds a NUL character", None)),
    ('{"type": "move", "card": "\\ud800", "version": 0}',
     ("bad_request", "text holds a lone surrogate (not valid Unicode)", None)),
    ("[1, 2]", ("bad_message", "a message is a JSON object with a 'type'", None)),
    ('{"type": "ping", "ref": true}', ("bad_message", "ref must be a short string or an integer", None)),
    ('{"type": "dance", "ref": "d"}', ("unknown_type", "unknown message type 'dance': use move, hint, sync, ping, "
                                                       "ready, rematch, takeback or say", "d")),
    ('{"type": "move", "card": 7, "version": true, "ref": 4}',
     ("bad_message", 'a move needs \'card\', a card such as "TD"', 4)),
    ('{"type": "takeback", "version": 1.5, "ref": "t"}',
     ("bad_message", "a takeback needs 'version', the table's state version (an integer)", "t")),
    ('{"type": "leave", "token": "x"}', ("unknown_type", "unknown message type 'leave': use move, hint, sync, ping, "
                                                          "ready, rematch, takeback or say", None)),
])
def test_a_refused_frame_says_why_as_before(text: str, refused: tuple[str, str, Any]) -> None:
    """The codes and words of issue 11's limits and of each field; the server-side commands (a join, a leave) are
    no socket message."""
    assert read(text) == (None, refused) == careful(text)


_values = st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.floats(allow_nan=False)
frames = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "takeback", "hint", "sync", "ping", "ready", "rematch", "join", "x"])},
        optional={"card": _values, "version": _values, "ref": _values, "round": _values,
                  "extra": st.recursive(_values, lambda inner: st.lists(inner, max_size=3), max_leaves=8)},
    ).map(lambda d: json.dumps(d, ensure_ascii=False)),
    st.text(max_size=40),
)


@settings(max_examples=400, deadline=None)
@given(text=frames)
def test_any_frame_reads_as_the_careful_way_reads_it(text: str) -> None:
    assert read(text) == careful(text)
