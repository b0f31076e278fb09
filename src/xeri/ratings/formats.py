"""Which tables are rated, and in which format: 2-player classic and 4-player classic partnerships.

Every other table is casual. A rated table's every seat is an account or a computer level (a guest has no
rating to move), and its card rules are classic's: the levels' anchors were measured there. The match end
(rounds or a target) may be any: a match is rated as one result.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Ruleset, find_ruleset

#: the rated formats, each rated on its own
FORMATS: tuple[str, ...] = ("classic-2p", "classic-4p")

#: the rule options that end a match; the others (the card rules) must be classic's
MATCH_END_OPTIONS = frozenset({"match_end", "rounds", "target", "tie_rule"})


def team_size(fmt: str) -> int:
    """Players on a side: 1 in classic-2p, 2 in classic-4p (partners sit across)."""
    return 2 if fmt == "classic-4p" else 1


def classic_format(ruleset: Ruleset) -> str | None:
    """The format the ruleset's card rules belong to, or None when they are not classic's at 2 or 4 players."""
    if ruleset.name != "classic" or ruleset.players not in (2, 4):
        return None
    mine, classic = ruleset.to_dict(), find_ruleset("classic", players=ruleset.players).to_dict()
    if any(mine[k] != classic[k] for k in classic if k not in MATCH_END_OPTIONS):
        return None
    return f"classic-{ruleset.players}p"


def format_of(ruleset: Ruleset, rated_seats: Sequence[bool]) -> str | None:
    """The format a table is rated in, or None for a casual one.

    ``rated_seats[i]`` says whether seat ``i`` is an account or a computer level (not a guest).
    """
    fmt = classic_format(ruleset)
    if fmt is None or len(rated_seats) != ruleset.players or not all(rated_seats):
        return None
    return fmt
