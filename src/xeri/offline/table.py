"""One offline table: a person against the computer, answered with the server's protocol messages.

The server's ``Table`` is the authority over a match played by many clients; here one page plays, so a table is
its match, its version and its bots, and each message is built as the server builds it (``xeri.views``): the
same VIEW, EVENT, ROUND and record objects, the same refusals in the same order, and the same bots seeded the
same way (``bot_seed(match seed, seat, domain="server", generation=move number)``), so a seeded match with the
same moves gives the server's record byte for byte.

A table saves itself as its record (docs/record-format.md) with the few things a record does not hold (the salt
key, which seat is the person's, the bots' levels); ``from_state`` replays it move by move, checked like any record.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .. import fairness
from .. import table_rules as rules
from ..bots import make_bot
from ..bots.hint import HintReason, suggest
from ..bots.registry import bot_missing, parse_spec
from ..cards import Card
from ..errors import XeriError
from ..events import RoundScored
from ..match import Match
from ..record import to_record
from ..rules import Ruleset, find_ruleset
from ..seeds import bot_seed
from ..table_rules import ROUND_PAUSE, Refused, RoundPause
from ..views import Commitments, iso_time, match_record, match_view, round_end_view, sync_events, wire_events

#: the server's bots are seeded in this domain (``xeri.server.autoplay.SEED_DOMAIN``): the same seed, the same moves
SEED_DOMAIN = "server"
#: each level offered offline and its bot spec, weakest first: the server's, but the master plays its counting
#: rules (``early=expert``, what it plays without numba: there is no numba in the browser), and strong needs NumPy
OFFLINE_LEVELS: dict[str, str] = {
    "easy": "random",
    "medium": "greedy",
    "hard": "expert",
    "strong": "learned",
    "master": "master:early=expert",
}
#: the hint's bot: the offline master
HINT_SPEC = OFFLINE_LEVELS["master"]
#: what a saved table's JSON says it is
STATE_FORMAT = "xeri-offline"
STATE_VERSION = 1
#: the seconds between two bot moves, as ``xeri serve --bot-delay`` (the page animates each)
BOT_DELAY = 0.4


class OfflineError(Refused, XeriError):
    """A request the offline engine refuses: ``code`` is the protocol's error code, and nothing changed (a refusal
    of the table's rules, ``xeri.table_rules``, raised as the server raises its ``ProtocolError``)."""


def offline_levels() -> list[str]:
    """The levels this Python can play offline, weakest first (strong only where NumPy is there)."""
    return [level for level, spec in OFFLINE_LEVELS.items() if bot_missing(parse_spec(spec)[0]) is None]


def error(code: str, message: str, ref: Any = None, **extra: Any) -> dict[str, Any]:
    """The protocol's error message (docs/protocol.md), as the server sends it."""
    return {"type": "error", "code": code, "message": message, "ref": ref, **extra}


def new_table_id() -> str:
    """An offline table's id: ``offline-`` and as many random characters as a server's table id."""
    return "offline-" + secrets.token_urlsafe(9)


class OfflineTable:
    """A match against the computer: ``me`` is the person's seat, ``bots`` each seat's level (None: the person).

    It is a table as the rules see it (``xeri.table_rules.Table``), like the server's: it is never waiting, its
    one person never leaves, it has no turn timer and no takeover, it is nobody else's (private), and it allows
    takebacks (one person against the computer).
    """

    turn_timer: float | None = None
    takeover_after: float | None = None
    takeover_level = "easy"
    private = True

    def __init__(self, *, table_id: str, ruleset: Ruleset, names: Sequence[str], bots: Sequence[str | None],
                 me: int, match_seed: int, salt_key: str, first_dealer: int, title: str = "",
                 created_at: float | None = None, bot_delay: float = BOT_DELAY) -> None:
        n = ruleset.players
        if len(names) != n or len(bots) != n:
            raise OfflineError("bad_seats", f"a {n}-player table needs {n} names and {n} seats")
        if not 0 <= me < n or bots[me] is not None:
            raise OfflineError("bad_seat", "the person's seat must be a seat of the table with no bot")
        for seat, level in enumerate(bots):
            if seat != me and level not in offline_levels():
                raise OfflineError("bad_level", f"seat {seat}'s level {level!r} is not played offline; the offline "
                                   f"levels are {', '.join(offline_levels())}")
        self.id = table_id
        self.title = title
        self.ruleset = ruleset
        self.names = list(names)
        self.bots = list(bots)
        self.me = me
        self.match_seed = match_seed
        self.salt_key = salt_key
        self.first_dealer = first_dealer
        self.created_at = time.time() if created_at is None else created_at
        self.finished_at: float | None = None
        self.bot_delay = bot_delay
        self.commitments = Commitments(match_seed, salt_key)
        self.match = Match(ruleset, seed=match_seed, names=self.names, first_dealer=first_dealer)
        self.version = 0
        #: after a round, whether the person still reads its summary, and until when the next round waits
        self.pause = RoundPause(ROUND_PAUSE)

    # --- making one -----------------------------------------------------------------

    @classmethod
    def create(cls, body: Mapping[str, Any], *, table_id: str | None = None, match_seed: int | None = None,
               salt_key: str | None = None, bot_delay: float = BOT_DELAY) -> OfflineTable:
        """A table from the fields of the server's ``POST /api/tables`` that an offline match uses: ``ruleset``,
        ``options``, ``players``, ``target``, ``seats`` (null for the person, ``{"bot": LEVEL}``), ``name``,
        ``seat``, ``title``. The seed, salt key and id are drawn here unless given (a test gives the server's)."""
        if not isinstance(body, Mapping):
            raise OfflineError("bad_request", "a new table is a JSON object")
        options = dict(body.get("options") or {})
        if body.get("players") is not None:
            options["players"] = body["players"]
        if body.get("target") is not None:
            options["match_end"], options["target"] = "target", body["target"]
        try:
            ruleset = find_ruleset(str(body.get("ruleset") or "classic"), **options)
        except (XeriError, TypeError, ValueError) as exc:
            raise OfflineError("bad_ruleset", str(exc)) from None
        n = ruleset.players
        seats = body.get("seats")
        if seats is None:
            seats = [None] + [{"bot": "medium"}] * (n - 1)
        if not isinstance(seats, list) or len(seats) != n:
            raise OfflineError("bad_seats", f"seats must be a list of {n} entries (null or {{\"bot\": level}})")
        bots: list[str | None] = []
        for entry in seats:
            level = entry.get("bot") if isinstance(entry, Mapping) else None
            bots.append(None if level is None else str(level))
        people = [i for i, b in enumerate(bots) if b is None]
        if len(people) != 1:
            raise OfflineError("bad_seats", "an offline table has one person's seat; the others are the computer")
        me = people[0]
        name = str(body.get("name") or "Player").strip()[:32] or "Player"
        names = [name if b is None else f"Bot ({b})" for b in bots]
        seed = secrets.randbits(64) if match_seed is None else int(match_seed)
        return cls(table_id=table_id or new_table_id(), ruleset=ruleset, names=names, bots=bots, me=me,
                   match_seed=seed, salt_key=salt_key or fairness.new_key(), first_dealer=seed % n,
                   title=str(body.get("title") or "").strip(), bot_delay=bot_delay)

    @classmethod
    def from_state(cls, state: Mapping[str, Any], *, bot_delay: float = BOT_DELAY) -> OfflineTable:
        """A saved table (``state()``), replayed from its record's moves; OfflineError if it does not replay."""
        try:
            if state.get("format") != STATE_FORMAT or state.get("version") != STATE_VERSION:
                raise OfflineError("bad_state", f"not a saved offline table ({STATE_FORMAT} {STATE_VERSION})")
            record = state["record"]
            ruleset = Ruleset.from_dict(record["ruleset"])
            table = cls(table_id=str(state["id"]), ruleset=ruleset, names=[s["name"] for s in record["seats"]],
                        bots=list(state["bots"]), me=int(state["me"]), match_seed=int(record["seed"]),
                        salt_key=str(state["salt_key"]), first_dealer=int(record["first_dealer"]),
                        title=str(state.get("title") or ""), created_at=float(state["created_at"]),
                        bot_delay=bot_delay)
            for rnd in record["rounds"]:
                for code in rnd["moves"]:
                    if isinstance(code, Mapping):  # a takeback (docs/record-format.md#takebacks)
                        table.match.take_back(int(code["seat"]))
                    else:
                        table.match.play(Card.parse(str(code)))
                    table.version += 1
        except OfflineError:
            raise
        except (XeriError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise OfflineError("bad_state", f"the saved table does not replay: {exc}") from None
        if table.match.is_over:
            finished = state.get("finished_at")
            table.finished_at = float(finished) if finished is not None else table.created_at
        return table

    def state(self) -> dict[str, Any]:
        """What the browser keeps of the table (IndexedDB): its record so far and what the record does not hold."""
        record = to_record(self.match, reveal_seeds=True)
        record["table"] = self.table_part()
        return {"format": STATE_FORMAT, "version": STATE_VERSION, "id": self.id, "title": self.title,
                "me": self.me, "bots": list(self.bots), "salt_key": self.salt_key, "created_at": self.created_at,
                "finished_at": self.finished_at, "record": record}

    # --- what the page is told --------------------------------------------------------

    @property
    def status(self) -> str:
        return "finished" if self.match.is_over else "playing"

    def table_part(self) -> dict[str, Any]:
        """The record's ``table`` part, as the server writes it."""
        return {"id": self.id, "title": self.title,
                "bots": {str(s): level for s, level in enumerate(self.bots) if level is not None}}

    def has_left(self, seat: int) -> bool:
        """Nobody leaves an offline table: the person's page is the table."""
        return False

    def takeback_allowed(self) -> bool:
        """Always: an offline table is one person against the computer."""
        return True

    def pause_state(self) -> dict[str, Any] | None:
        """The protocol's PAUSE: the seats still reading the round summary and the seconds left, or None."""
        return self.pause.shown()

    def info(self) -> dict[str, Any]:
        """The protocol's TABLE object, as the server builds it (xeri.table_rules), with ``offline``: true."""
        seats = [rules.seat_info(self.ruleset, s, name=self.names[s], bot=level, human=level is None)
                 for s, level in enumerate(self.bots)]
        return rules.table_info(self, seats, offline=True)

    def sync(self) -> dict[str, Any]:
        """Everything the person may know now (the server's ``sync``)."""
        m = self.match
        return {"type": "sync", "table": self.info(), "seat": self.me, "version": self.version,
                "view": match_view(m, self.me), "events": sync_events(m, self.commitments, self.me),
                "history": self.commitments.history(m),
                "fairness": {"match_commitment": self.commitments.of_match(m)}, "timer": None,
                "pause": self.pause_state(), "takeback": self.can_take_back()}

    def table_message(self) -> dict[str, Any]:
        return {"type": "table", "table": self.info(), "timer": None}

    def record(self) -> dict[str, Any]:
        """The finished match's record, with the fairness section that ``xeri verify`` checks (the server's)."""
        if not self.match.is_over:
            raise OfflineError("not_finished", "the match is not finished: its record keeps hidden cards until then")
        return match_record(self.match, self.commitments, self.table_part())

    def record_text(self) -> str:
        """The record as the server sends it (``GET /api/matches/{id}/record``): the same bytes."""
        return json.dumps(self.record(), ensure_ascii=False, separators=(",", ":"))

    def summary(self) -> dict[str, Any]:
        """The match as the history list shows it (``GET /api/matches``)."""
        m = self.match
        over = m.is_over
        return {"id": self.id, "title": self.title, "names": list(self.names), "ruleset": self.ruleset.to_dict(),
                "scores": list(m.scores), "winner": m.winner,
                "winners": [self.names[s] for s in range(self.ruleset.players)
                            if over and self.ruleset.side_of(s) == m.winner],
                "rounds": len(m.rounds), "round_wins": list(m.round_wins), "bots": list(self.bots),
                "finished_at": iso_time(self.finished_at), "created_at": iso_time(self.created_at),
                "status": self.status, "end": None,  # a forfeit is a rated table's: never offline
                "offline": True}

    # --- moves ---------------------------------------------------------------------

    def move(self, seat: int | None, card_text: Any, version: Any, *, bot: bool = False) -> list[dict[str, Any]]:
        """Apply one move; OfflineError (and nothing changed) if it is refused, as the server refuses it (the same
        rules: xeri.table_rules)."""
        m = self.match
        card = rules.allowed(rules.verify_move(self, seat, str(card_text), version, auto=bot), OfflineError)
        assert seat is not None  # verify_move refuses a spectator
        number = len(m.rounds)
        events = m.play_allowed(card)  # the rules checked it: once
        self.version += 1
        # The next round waits until the person has closed the round's summary (or a timeout), as on the server.
        self.pause.after(m, events, [self.me], time.monotonic())
        history = self.commitments.history(m) if any(isinstance(e, RoundScored) for e in events) else None
        update: dict[str, Any] = {"type": "update", "version": self.version,
                                  "events": wire_events(m, self.commitments, events, self.me, number),
                                  "view": match_view(m, self.me), "timer": None, "pause": self.pause_state()}
        if history is not None:
            update["history"] = history
        update["takeback"] = self.can_take_back()
        end = round_end_view(m, self.me, events, number)
        if end is not None:
            update["round_end"] = end
        out = [update]
        if m.is_over:
            self.finished_at = time.time()
            out.append(self.table_message())
        return out

    def can_take_back(self) -> bool:
        """Whether the person may take back their last card now (the server's ``TableState.can_take_back``: an
        offline table is always one person against the computer)."""
        return rules.can_take_back(self, self.me)

    def take_back(self, version: Any) -> list[dict[str, Any]]:
        """The person takes back their last card and the computer's after it, as the server does: a fresh sync."""
        count = rules.allowed(rules.verify_takeback(self, self.me, version), OfflineError)
        self.match.retract(self.me, count)
        self.version += 1
        return [self.sync()]

    def bot_wait(self) -> float | None:
        """Seconds until a bot moves (the bot delay, or what is left of the round pause), None when none will."""
        m = self.match
        if m.is_over or m.turn is None or m.turn == self.me:
            return None
        return max(self.bot_delay, self.pause.left(time.monotonic()), 0.0)

    def bot_move(self) -> list[dict[str, Any]]:
        """The bot to play moves (the server's bot, seeded as the server seeds it); [] when no bot is to play."""
        m = self.match
        seat = m.turn
        if seat is None or seat == self.me or m.is_over:
            return []
        level = self.bots[seat]
        assert level is not None
        bot = make_bot(OFFLINE_LEVELS[level],
                       seed=bot_seed(self.match_seed, seat, domain=SEED_DOMAIN, generation=self.version))
        card = bot.choose(m.view(seat), m.round.log_for(seat))
        return self.move(seat, card.code, self.version, bot=True)

    def hint(self, ref: Any = None) -> dict[str, Any]:
        m = self.match
        rules.allowed(rules.verify_hint(self, self.me), OfflineError)
        card, reason = suggest(m.view(self.me), m.round.log_for(self.me), HINT_SPEC)
        extra = reason.to_json() if isinstance(reason, HintReason) else {}
        return {"type": "hint", "card": card.code, "reason": str(reason), **extra, "ref": ref}

    def ready(self) -> list[dict[str, Any]]:
        """The person closed the round summary: the next round goes on."""
        if not self.pause.ready(self.me):
            return []
        return [self.table_message()]

    # --- the page's socket messages ----------------------------------------------------

    def handle(self, message: Any) -> list[dict[str, Any]]:
        """Answer one message of the page (docs/protocol.md, client → server): what the server would send it."""
        ref = message.get("ref") if isinstance(message, Mapping) else None
        try:
            if not isinstance(message, Mapping) or not isinstance(message.get("type"), str):
                raise OfflineError("bad_message", "a message is a JSON object with a type")
            kind = message["type"]
            if kind == "move":
                version = message.get("version")
                if not isinstance(message.get("card"), str) or isinstance(version, bool) \
                        or not isinstance(version, int):
                    raise OfflineError("bad_message", "a move needs card (a card code) and version (an integer)")
                return self.move(self.me, message["card"], version)
            if kind == "hint":
                return [self.hint(ref)]
            if kind == "sync":
                return [self.sync()]
            if kind == "ping":
                return [{"type": "pong", "ref": ref}]
            if kind == "ready":
                return self.ready()
            if kind == "takeback":
                version = message.get("version")
                if isinstance(version, bool) or not isinstance(version, int):
                    raise OfflineError("bad_message", "a takeback needs 'version', the table's state version "
                                       "(an integer)")
                return self.take_back(version)
            if kind == "rematch":
                raise OfflineError("not_finished" if not self.match.is_over else "offline",
                                   "an offline match has no rematch: start a new match")
            raise OfflineError("unknown_type", f"unknown message type {kind[:40]!r}: use move, hint, sync, ping, "
                               "ready, rematch or takeback")
        except OfflineError as exc:
            return [error(exc.code, exc.message, ref, **exc.extra)]
