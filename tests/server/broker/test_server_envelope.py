"""The broker envelope (server.broker.envelope): one typed message, encoded and decoded in one place."""

from __future__ import annotations

import json

import pytest

from xeri.server.broker.envelope import Envelope, EnvelopeError, Frame


def test_each_kind_round_trips_through_its_encoding() -> None:
    message = {"type": "update", "version": 7, "text": "Ξερή ✓", "events": [{"kind": "played", "card": "TD"}]}
    for envelope in (Envelope.sync(7, message), Envelope.update(7, message), Envelope.message(message),
                     Envelope.plain(b'{"type":"pong","ref":null}')):
        assert Envelope.decode(envelope.encode()) == envelope
        frame = Frame("node-1", envelope)
        assert Frame.decode(frame.encode()) == frame
    # The client's JSON is the message itself, compact, its Greek letters as they are (UTF-8 bytes, not escapes).
    body = Envelope.update(7, message).body
    assert json.loads(body) == message and "Ξερή".encode() in body and b", " not in body


def test_the_encoding_is_a_short_json_array() -> None:
    # The seat's text goes in as the JSON it is, never escaped again on its way between processes.
    assert Frame("n", Envelope.update(3, {"a": "Ξ\"x"})).encode() == '["n",["update",3,{"a":"Ξ\\"x"}]]'
    assert json.loads(Envelope.plain(b"x").encode()) == ["plain", None, "x"]
    # A frame of an earlier process, its body a string, still reads.
    assert Envelope.decode('["update",3,"{\\"a\\":1}"]') == Envelope("update", 3, b'{"a":1}')


@pytest.mark.parametrize("text", [
    "", "s3 {}", "[]", '["update", null, "{}"]', '["plain", 3, "{}"]', '["sync", "3", "{}"]', '["other", 1, "{}"]',
    '["update", 1]', '{"kind": "update", "version": 1, "body": "{}"}',
])
def test_a_malformed_envelope_is_refused_with_a_typed_error(text: str) -> None:
    with pytest.raises(EnvelopeError):
        Envelope.decode(text)
    with pytest.raises(EnvelopeError):
        Frame.decode(f'["n", {text or "0"}]')


def test_a_version_goes_with_sync_and_update_only() -> None:
    with pytest.raises(EnvelopeError):
        Envelope("update", None, b"{}")
    with pytest.raises(EnvelopeError):
        Envelope("plain", 1, b"{}")
    assert Envelope("sync", 0, b"{}").version == 0


def test_a_message_text_is_what_json_dumps_writes() -> None:
    """to_json uses msgspec for speed; its JSON is the standard library's, byte for byte (real table messages;
    a float's exponent may be spelt differently, 1e-7 for 1e-07, the same number)."""
    import random

    import msgspec

    from xeri.match import Match
    from xeri.rules import Ruleset
    from xeri.server.broker.envelope import to_json
    from xeri.server.wire.messages import View
    from xeri.views import view_json

    match, rng = Match(Ruleset(), seed=5, names=["Άννα", 'Bo "B" \\ \x01']), random.Random(5)
    odd = {"type": "x", "n": [1, -2, 0.5, 1e-7, 123456789.25, None, True, False], "nested": {"a": [], "ü": "\u2028"}}
    assert json.loads(to_json(odd)) == odd
    messages: list[dict[str, object]] = [{**odd, "n": [1, -2, 0.5, 12.25, None, True, False], "t": "\t\n"}]
    while not match.is_over and len(messages) < 200:
        messages += [{"type": "update", "view": msgspec.to_builtins(msgspec.convert(
            view_json(match.view(seat), match_over=False), View))}
                     for seat in (0, 1, None)]
        match.play(rng.choice(match.legal_moves), match.turn)
    for message in messages:
        assert to_json(message) == json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
