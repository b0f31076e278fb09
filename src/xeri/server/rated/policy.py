"""Rated tables on the server: who may make one, who may sit at one, what it refuses, and the leaderboard's rules.

A table is rated when its creator asks (``"rated": true``), is signed in, and its rules are a rated format's
(xeri.ratings: 2-player classic, or 4-player classic partnerships) played to a standard end: to 51 or to 101
points, never one round (issue 41: one lucky round against the computer moved a rating by 200). Every person at it
is then signed in (a guest cannot join), nobody may ask for hints (a hint is the computer playing for you) or see
the counting aid, and there are no takebacks. The match's end moves the accounts' ratings (server.store.ratings).
Everything else is casual, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...ratings import FORMATS
from ...ratings.formats import classic_format
from ...rules import Ruleset
from ..wire.refusals import ProtocolError

#: a leaderboard lists the players with at least this many rated matches in its format ...
LEADERBOARD_MIN_GAMES = 10
#: ... and a deviation at most this (a new player's is 500; about ten matches bring it under 300)
LEADERBOARD_MAX_DEVIATION = 300.0
#: the most players a leaderboard lists
LEADERBOARD_SIZE = 100
#: the target scores a rated match may be played to (a server may allow any end: ``ServerConfig(rated_targets=None)``)
RATED_TARGETS = (51, 101)


@dataclass(frozen=True)
class LeaderboardRules:
    """Who a leaderboard lists (a server may set its own: ``ServerConfig(leaderboard=...)``)."""

    min_games: int = LEADERBOARD_MIN_GAMES
    max_deviation: float = LEADERBOARD_MAX_DEVIATION
    size: int = LEADERBOARD_SIZE


def rated_format(rated: bool, ruleset: Ruleset, signed_in: bool, humans: Sequence[bool],
                 private: bool = False, targets: Sequence[int] | None = RATED_TARGETS) -> str | None:
    """The format a new table is rated in (None: casual), or the refusal of a ``rated`` that cannot be.

    ``targets``: the scores a rated match may be played to (None: any match end, for a server that asks so)."""
    if not rated:
        return None
    if not signed_in:
        raise ProtocolError("rated_needs_account", "a rated table is made by a signed-in player: sign in first")
    if private:
        raise ProtocolError("rated_private", "a rated table is listed: its result moves a public rating")
    fmt = classic_format(ruleset)
    if fmt is None:
        raise ProtocolError("not_ratable", "rated tables play classic with 2 players or 4 in partnerships, with "
                            "classic's card rules (any match end); this table would be casual")
    if not any(humans):
        raise ProtocolError("not_ratable", "a rated table needs a person at it")
    if targets is not None and (ruleset.match_end != "target" or ruleset.target not in targets):
        ends = " or ".join(str(t) for t in targets)
        raise ProtocolError("rated_match_end", f"a rated match is played to {ends} points; this table would "
                            "be casual (choose the target, or untick Rated)")
    return fmt


#: rated matches left or forfeited after their start (``forfeits``) are counted over this window (30 days) ...
LEAVES_WINDOW = 30 * 24 * 3600.0
#: ... the first ones forgiven (a lost connection, a real emergency) ...
LEAVES_FORGIVEN = 1
#: ... each one more adds this wait (seconds) before a rated pairing, up to the longest
LEAVE_PENALTY, MAX_PENALTY = 30.0, 300.0


def leave_penalty(leaves: int) -> float:
    """The extra wait before a rated pairing of a player who left ``leaves`` rated matches early lately (issue 41):
    whoever leaves rated matches again and again waits longer, so a losing position is not dodged for free."""
    return min(LEAVE_PENALTY * max(0, leaves - LEAVES_FORGIVEN), MAX_PENALTY)


def check_takeover(fmt: str | None, takeover_after: float | None) -> None:
    """A rated match always ends (issue 41): a rated seat away longer than ``takeover_after`` seconds at its turn
    forfeits (``forfeits``); a rated table with no limit (null) could hang for ever."""
    if fmt is not None and takeover_after is None:
        raise ProtocolError("rated_takeover", "a rated table needs takeover_after: the seconds an away player may "
                            "take at their turn before they forfeit the match (a rated loss)")


def forfeits(fmt: str | None, reason: str | None) -> bool:
    """What an abandoned rated match scores (issue 42), the one rule of the tables and the pairing.

    The computer never plays a person's seat at a rated table (its result would be the computer's, not the
    account's), so ``takeover_level`` is ignored there. A rated seat whose player leaves after the start
    (``reason`` "left"), stays away at their turn longer than ``takeover_after`` ("away"), or runs out of
    ``turn_timer`` ("timer") forfeits: the match ends at once, the forfeiting side (with 4 players, the team) loses
    a rated match and the other side wins, whatever the score. The forfeit is stored as the seat's leave, so
    ``leave_penalty`` counts it (``Ratings.rated_leaves``). At a casual table the computer takes over, as before."""
    return fmt is not None and reason is not None


def check_join(fmt: str | None, account: str | None, seated: Sequence[str | None]) -> None:
    """A guest cannot take a seat at a rated table (every person's rating is moved by its end), and an account
    takes one seat at it (a player is not their own opponent, nor their own partner)."""
    if fmt is None:
        return
    if account is None:
        raise ProtocolError("rated_needs_account", "this table is rated: sign in to sit at it")
    if account in seated:
        raise ProtocolError("seat_taken", "you have a seat at this rated table already: one account, one seat")


def check_hint(fmt: str | None) -> None:
    if fmt is not None:
        raise ProtocolError("rated_no_hints", "there are no hints at a rated table")


def check_format(fmt: str) -> str:
    """A leaderboard's format from a path, or 404."""
    if fmt not in FORMATS:
        raise ProtocolError("no_such_format", f"there is no rated format {fmt[:40]!r}; formats are: "
                            + ", ".join(FORMATS))
    return fmt
