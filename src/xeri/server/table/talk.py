"""Table talk: the preset phrases, the checks of a ``say`` and each seat's rate (docs/security.md#table-talk).

Talk is not play: it changes no state, no version, and is never stored or replayed (not in the record, a sync or
the history). The server knows the presets only by id (the page words them); free text, which a moderator cannot
read later, is for private tables only, where the players invited each other.
"""

from __future__ import annotations

from typing import get_args

from ..limits.bucket import TokenBucket
from ..wire import messages
from ..wire.protocol import Say
from ..wire.refusals import ProtocolError

#: every preset id a ``say`` may name
PHRASES: tuple[str, ...] = get_args(messages.Phrase)
#: free text's bounds, in characters, once its whitespace is collapsed
TEXT_LENGTH = (1, 140)
#: each seat's talk: this many at once, then one every 1/RATE seconds
BURST = 3.0
RATE = 0.5
#: what text may not hold besides the control characters: the bidirectional overrides and isolates, which can make
#: a line read as something else
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_text(text: str) -> str:
    """``text`` with its whitespace collapsed, or the ``ProtocolError`` that says why it cannot be said."""
    collapsed = " ".join(text.split())
    if not TEXT_LENGTH[0] <= len(collapsed) <= TEXT_LENGTH[1]:
        raise ProtocolError("bad_text", f"text must be {TEXT_LENGTH[0]} to {TEXT_LENGTH[1]} characters once its "
                                        f"spaces are collapsed, not {len(collapsed)}")
    if any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or c in _BIDI for c in collapsed):
        raise ProtocolError("bad_text", "text may not hold control characters")
    return collapsed


class Talk:
    """A table's talk: each seat's rate, and what a ``say`` becomes."""

    def __init__(self) -> None:
        self._buckets: dict[int, TokenBucket] = {}

    def said(self, seat: int, say: Say, private: bool) -> messages.SaidMessage:
        """The ``said`` everyone hears of ``seat``'s ``say`` at a table (``private`` or not), or the refusal, which
        goes to the sender alone and changes nothing (a refused say takes no turn of the rate)."""
        if (say.phrase is None) == (say.text is None):
            raise ProtocolError("bad_say", "say needs exactly one of 'phrase' (a preset id) and 'text'")
        if say.text is not None and not private:
            raise ProtocolError("talk_private_only", "free text is for private tables: say a preset phrase")
        said = (messages.SaidMessage(seat=seat, phrase=say.phrase) if say.phrase is not None
                else messages.SaidMessage(seat=seat, text=clean_text(say.text or "")))
        if not self._buckets.setdefault(seat, TokenBucket(RATE, BURST)).take():
            raise ProtocolError("talk_rate", f"slow down: {BURST:g} messages at once, then one every "
                                             f"{1 / RATE:g} s")
        return said
