"""Account names: what a name may be, and the key that makes two names the same name.

A name is shown as typed (NFKC, its spaces folded). Two names are the same when their keys are: NFKC, casefolded,
then each character replaced by the least of it and its confusables (Unicode's confusables.txt, through the
``confusable_homoglyphs`` package), so that "Αda" with a Greek capital alpha, "Аda" with a Cyrillic one and "ada"
share a key. On top of that a name may not mix scripts (Latin with Greek, say): a name written in one script is
never a look-alike of a name in another by accident. docs/accounts.md says why both.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import categories, confusables  # type: ignore[import-untyped]

from ..wire.refusals import ProtocolError

#: the bounds of a name, in characters (as shown)
NAME_LENGTH = (2, 24)
#: the name given to a deleted account's seats and records: the prefix and eight characters of its id
DELETED = "deleted player "
#: characters a name may hold besides letters, marks and digits
_PUNCTUATION = set(" -_.'")
#: scripts any name may use beside its own (digits, spaces, punctuation)
_NEUTRAL = {"COMMON", "INHERITED"}


def shown(value: str) -> str:
    """The name as it is shown: NFKC, runs of spaces as one, no spaces at the ends."""
    return " ".join(unicodedata.normalize("NFKC", value).split())


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


def key(name: str) -> str:
    """The name's key: equal for names that read the same (case, compatibility forms, confusables)."""
    folded = unicodedata.normalize("NFKC", shown(name)).casefold()
    return unicodedata.normalize("NFKC", "".join(_representative(ch) for ch in folded))[:128]


@functools.lru_cache(maxsize=4096)
def _representative(ch: str) -> str:
    """The least (by code points) of ``ch`` and the characters Unicode lists as its confusables, casefolded."""
    found = confusables.is_confusable(ch, greedy=True) or []
    glyphs = [g["c"] for entry in found for g in entry.get("homoglyphs", ())]
    return str(min([ch, *(g.casefold() for g in glyphs if g)], key=lambda g: [ord(c) for c in g]))
