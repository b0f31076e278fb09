"""The protocol's messages as plain JSON-ready dicts, built from a seat's view and redacted log (docs/protocol.md).

The server (``xeri.server.table.views``, which types them as its schema's models, server.wire.messages) and the
offline engine that runs in the browser (``xeri.offline``) both build their VIEW, EVENT, ROUND, replay and record
objects here, so the two send the same messages: this is the one place their content is defined. It imports only
the core: the offline engine runs it under Pyodide, with the standard library alone.

Every event goes through ``redact`` for the receiving seat before ``event_json``, so nothing hidden can reach the
output; a round's seed and salt are revealed only once the round is over, the match seed once the match is. A
64-bit seed travels as its decimal digits (a string), which a browser's JSON.parse keeps exact.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, overload

from . import fairness
from .cards import Card
from .engine import Round, SeatView
from .events import (
    Aspect,
    BottomExposed,
    Captured,
    Dealt,
    Event,
    JackSlipped,
    MatchOver,
    PileRedealt,
    PileUnclaimed,
    Played,
    RoundScored,
    RoundStarted,
    ThresholdRaised,
    Xeri,
    redact,
)
from .match import Match
from .record import deal_from_dict, to_record
from .rules import Ruleset
from .scoring import ScoreBreakdown


@overload
def iso_time(ts: float) -> str: ...
@overload
def iso_time(ts: float | None) -> str | None: ...
def iso_time(ts: float | None) -> str | None:
    """A Unix time as every message and page of the protocol writes it: ISO 8601 in UTC, to the second
    (``2024-01-01T00:00:00Z``); None (not yet) stays None."""
    if ts is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def codes(cards: Iterable[Card | None]) -> list[str | None]:
    return [None if c is None else c.code for c in cards]


def view_json(view: SeatView, *, winner: int | None = None, match_over: bool = False) -> dict[str, Any]:
    """A seat's view as the protocol's VIEW object."""
    return {
        "seat": view.seat,
        "players": view.ruleset.players,
        "sides": view.ruleset.sides,
        "dealer": view.dealer,
        "turn": view.turn,
        "hand": codes(view.hand),
        "legal_moves": codes(view.legal_moves),
        "pile": codes(view.pile),
        "top": view.top.code if view.top else None,
        "hand_counts": list(view.hand_counts),
        "talon_count": view.talon_count,
        "captured_counts": list(view.captured_counts),
        "xeris": [[[c.code, jack] for c, jack in side] for side in view.xeris],
        "points": list(view.points),
        "exposed": view.exposed.code if view.exposed else None,
        "exposed_holder": view.exposed_holder,
        "last_capturer": view.last_capturer,
        "played": [[s, c.code] for s, c in view.played],
        "gone": sorted(c.code for c in view.gone),
        "over": view.over,
        "match_over": match_over,
        "winner": winner,
        "match_scores": list(view.match_scores),
        "round_wins": list(view.round_wins),
        "round_number": view.round_number,
        "target": view.target,
        "names": list(view.names),
    }


def match_view(match: Match | None, seat: int | None) -> dict[str, Any] | None:
    """``seat``'s VIEW of the match (None before it starts)."""
    if match is None:
        return None
    return view_json(match.view(seat), winner=match.winner, match_over=match.is_over)


def round_end_view(match: Match, seat: int | None, events: Sequence[Event], number: int) -> dict[str, Any] | None:
    """``seat``'s VIEW of round ``number`` as it ended, when ``events`` (a move's, from that round) scored it and
    dealt the next: the page draws it behind the round's summary, and the next round only once that is closed.
    None when the move scored no round or ended the match (the VIEW is the round's end then)."""
    if number >= len(match.rounds) or not any(isinstance(e, RoundScored) for e in events):
        return None
    rnd = match.rounds[number - 1]
    view = rnd.view(seat, match_scores=tuple(match.scores), round_wins=tuple(match.round_wins), round_number=number,
                    target=match.target, names=match.names)
    return view_json(view)


def _played(e: Played) -> dict[str, Any]:
    return {"kind": "played", "seat": e.seat, "card": e.card.code}


def _captured(e: Captured) -> dict[str, Any]:
    # ``hidden`` is never sent: a redacted Captured holds none, and this drops it regardless.
    return {"kind": "captured", "seat": e.seat, "cards": codes(e.cards), "hidden_count": e.hidden_count,
            "leftover": e.leftover}


def _xeri(e: Xeri) -> dict[str, Any]:
    return {"kind": "xeri", "seat": e.seat, "card": e.card.code, "jack": e.jack, "points": e.points}


def _dealt(e: Dealt) -> dict[str, Any]:
    return {"kind": "dealt", "dealer": e.dealer, "hands": [None if h is None else codes(h) for h in e.hands],
            "sizes": list(e.sizes), "pile": codes(e.pile), "talon": e.talon, "first": e.first,
            "face_down": list(e.face_down)}


def _round_started(e: RoundStarted) -> dict[str, Any]:
    return {"kind": "round_started", "number": e.number, "dealer": e.dealer}


def breakdown_json(score: ScoreBreakdown) -> dict[str, Any]:
    """A side's score of a finished round (the protocol's Breakdown): the record's lines, and every card the side
    took, which every seat may see once the round is over (its seed is revealed then too)."""
    return {**score.to_dict(), "captured": codes(score.captured)}


def _round_scored(e: RoundScored) -> dict[str, Any]:
    return {"kind": "round_scored", "scores": [breakdown_json(s) for s in e.scores]}


def _match_over(e: MatchOver) -> dict[str, Any]:
    return {"kind": "match_over", "winner": e.winner, "scores": list(e.scores), "round_wins": list(e.round_wins)}


def _pile_redealt(e: PileRedealt) -> dict[str, Any]:
    return {"kind": "pile_redealt", "cards": codes(e.cards), "reason": e.reason}


def _jack_slipped(e: JackSlipped) -> dict[str, Any]:
    return {"kind": "jack_slipped", "card": e.card.code}


def _bottom_exposed(e: BottomExposed) -> dict[str, Any]:
    return {"kind": "bottom_exposed", "card": e.card.code}


def _pile_unclaimed(e: PileUnclaimed) -> dict[str, Any]:
    return {"kind": "pile_unclaimed", "cards": codes(e.cards)}


def _threshold_raised(e: ThresholdRaised) -> dict[str, Any]:
    return {"kind": "threshold_raised", "target": e.target}


#: each event type's EVENT object (docs/reference/protocol-messages.md)
WIRE_FORM: Aspect[[], dict[str, Any]] = Aspect("wire form", {
    Played: _played,
    Captured: _captured,
    Xeri: _xeri,
    Dealt: _dealt,
    RoundStarted: _round_started,
    RoundScored: _round_scored,
    MatchOver: _match_over,
    PileRedealt: _pile_redealt,
    JackSlipped: _jack_slipped,
    BottomExposed: _bottom_exposed,
    PileUnclaimed: _pile_unclaimed,
    ThresholdRaised: _threshold_raised,
})


def event_json(event: Event) -> dict[str, Any]:
    """One (already redacted) engine event as the protocol's EVENT object."""
    return WIRE_FORM(event)


def full_state_json(view: SeatView, hands: Sequence[Sequence[Card]], pile: Sequence[Card]) -> dict[str, Any]:
    """A replay step of a finished match: a spectator's view plus every hand and the whole pile."""
    out = view_json(view)
    out["hands"] = [codes(h) for h in hands]
    out["pile"] = codes(pile)
    out["top"] = pile[-1].code if pile else None
    return out


# --- the fair shuffle of one match: commitments, reveals, the record's part -------------------------


class Commitments:
    """Commitments and reveals of one table's match, from its match seed and salt key (docs/fairness.md).

    Each round's seed is committed to before its deal and revealed once the round is over; the match seed only
    once the match is over. The match commitment (scheme ``xeri-v3``) binds the seat names too, each as a salted
    hash, so it exists once the table is full and the match starts, before the first deal.
    """

    def __init__(self, match_seed: int, salt_key: str) -> None:
        self.match_seed = match_seed
        self.salt_key = salt_key
        self._rounds: list[str] = []

    def salt(self, number: int) -> str:
        return fairness.salt_for(self.salt_key, f"round:{number}")

    def match_salt(self) -> str:
        return fairness.salt_for(self.salt_key, "match")

    def name_salt(self, seat: int) -> str:
        """The salt of seat ``seat``'s name hash (revealed with the record, unless the name is withheld)."""
        return fairness.salt_for(self.salt_key, f"name:{seat}")

    def of_round(self, match: Match, number: int) -> str:
        """The published commitment of round ``number`` (1-based)."""
        while len(self._rounds) < number:
            i = len(self._rounds)
            self._rounds.append(fairness.commitment(match.round_seeds[i], self.salt(i + 1)))
        return self._rounds[number - 1]

    def of_match(self, match: Match | None) -> str | None:
        """The match commitment shown at the table from the start (None while seats are still free)."""
        if match is None:
            return None
        hashes = [fairness.name_hash(self.name_salt(seat), name) for seat, name in enumerate(match.names)]
        return fairness.match_commitment_v3(self.match_seed, self.match_salt(), match.ruleset, hashes,
                                            match.first_dealer)

    def reveal(self, match: Match, number: int) -> dict[str, Any]:
        """The protocol's ``reveal`` event of a round that is over."""
        rnd = match.rounds[number - 1]
        assert rnd.is_over, "a round's seed is revealed only once the round is over"
        # The 64-bit seed as its digits: JSON readers (a browser's) hold integers exactly only up to 2**53.
        return {"kind": "reveal", "round": number, "dealer": rnd.dealer, "seed": str(match.round_seeds[number - 1]),
                "salt": self.salt(number), "commitment": self.of_round(match, number)}

    def history(self, match: Match | None) -> list[dict[str, Any]]:
        """Every finished round (the protocol's ROUND): breakdown, totals, and the revealed seed and salt."""
        if match is None:
            return []
        out = []
        for i, rnd in enumerate(match.rounds):
            if rnd.scores is None:
                continue
            reveal = self.reveal(match, i + 1)
            out.append({"round": i + 1, "dealer": rnd.dealer, "scores": [breakdown_json(s) for s in rnd.scores],
                        "totals": [s.total for s in rnd.scores], "commitment": reveal["commitment"],
                        "seed": reveal["seed"], "salt": reveal["salt"]})
        return out

    def report(self, ruleset: Ruleset, match: Match | None) -> dict[str, Any]:
        """The table's fairness report: each round's commitment, and its check once revealed."""
        rounds = []
        if match is not None:
            for i, rnd in enumerate(match.rounds):
                entry: dict[str, Any] = {"round": i + 1, "dealer": rnd.dealer,
                                         "commitment": self.of_round(match, i + 1), "revealed": rnd.is_over,
                                         "seed": None, "salt": None, "ok": None,
                                         "detail": "revealed when the round is over"}
                if rnd.is_over:
                    r = self.reveal(match, i + 1)
                    check = fairness.verify_round(ruleset, rnd.dealer, int(r["seed"]), r["salt"], r["commitment"],
                                                  rnd.deal, i + 1)
                    entry.update(seed=r["seed"], salt=r["salt"], ok=check.ok, detail=check.detail)
                rounds.append(entry)
        over = match is not None and match.is_over
        return {"scheme": fairness.SCHEME, "match_commitment": self.of_match(match),
                "match_seed": str(self.match_seed) if over else None,
                "match_salt": self.match_salt() if over else None, "rounds": rounds}

    def record_section(self, match: Match) -> dict[str, Any]:
        """The ``fairness`` section of a finished match's record, which ``xeri verify`` checks."""
        return {
            "scheme": fairness.SCHEME,
            "match": {"commitment": self.of_match(match), "salt": self.match_salt(),
                      "seats": [{"salt": self.name_salt(seat)} for seat in range(len(match.names))]},
            "rounds": [{"round": i + 1, "commitment": self.of_round(match, i + 1), "salt": self.salt(i + 1)}
                       for i in range(len(match.rounds))],
        }


def wire_events(match: Match, commitments: Commitments, events: Sequence[Event], seat: int | None,
                round_number: int) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them, with the commitment after each round start and the reveal after each
    round's score. ``round_number`` is the round the first event belongs to."""
    out: list[dict[str, Any]] = []
    for e in redact(events, seat):
        out.append(event_json(e))
        if isinstance(e, RoundStarted):
            round_number = e.number
            out.append({"kind": "commitment", "round": e.number, "commitment": commitments.of_round(match, e.number)})
        elif isinstance(e, RoundScored):
            out.append(commitments.reveal(match, round_number))
    return out


def sync_window(match: Match) -> tuple[int, int]:
    """Where a sync's events begin in the match's log, and the round they begin in: the current round's start, or
    the last round's score when the next round has just been dealt (so a page that reconnects still sees the
    round end)."""
    log = match.events
    starts = [i for i, e in enumerate(log) if isinstance(e, RoundStarted)]
    begin, number = starts[-1], len(starts)
    if len(starts) > 1:
        scored = [i for i in range(starts[-2], starts[-1]) if isinstance(log[i], RoundScored)]
        if scored:
            begin, number = scored[-1], len(starts) - 1
    return begin, number


def sync_events(match: Match | None, commitments: Commitments, seat: int | None) -> list[dict[str, Any]]:
    """A sync's events (``sync_window``), as ``seat`` may see them."""
    if match is None:
        return []
    begin, number = sync_window(match)
    return wire_events(match, commitments, match.events[begin:], seat, number)


def match_record(match: Match, commitments: Commitments, table: Mapping[str, Any]) -> dict[str, Any]:
    """A finished match's record (docs/record-format.md) with the fairness section that ``xeri verify`` checks,
    and ``table`` (``{"id", "title", "bots": {seat: level}}``) as its table part."""
    assert match.is_over
    data = to_record(match, reveal_seeds=True)
    data["fairness"] = commitments.record_section(match)
    data["table"] = dict(table)
    return data


# --- replays of finished matches -------------------------------------------------------------------


def _state(match: Match, rnd: Round) -> dict[str, Any]:
    view = dataclasses.replace(rnd.view(None), match_scores=tuple(match.scores), round_wins=tuple(match.round_wins),
                               round_number=match.rounds.index(rnd) + 1, target=match.target, names=match.names)
    hands = [rnd.hand(s) for s in range(match.ruleset.players)]
    state = full_state_json(view, hands, rnd.pile)
    state["match_over"], state["winner"] = match.is_over, match.winner
    return state


def replay_steps(record: Mapping[str, Any]) -> dict[str, Any]:
    """Every step of a finished match: each round's deal, then each move, with the whole table shown."""
    ruleset = Ruleset.from_dict(record["ruleset"])
    names = [s["name"] for s in record["seats"]]
    deals = [deal_from_dict(r["deal"]) for r in record["rounds"]]
    match = Match(ruleset, seed=record.get("seed") or 0, names=names, first_dealer=record.get("first_dealer", 0),
                  deals=deals)
    first = {"round": 1, "seat": None, "card": None, "events": [event_json(e) for e in match.events],
             "state": _state(match, match.round)}
    steps: list[dict[str, Any]] = [first]
    for r in record["rounds"]:
        for code in r["moves"]:
            if isinstance(code, dict):
                # A takeback (docs/record-format.md): the step shows the table with the retracted cards back.
                taken = match.take_back(int(code["seat"]))
                steps.append({"round": len(match.rounds), "seat": taken.seat, "card": None, "events": [],
                              "takeback": [c.code for c in taken.cards], "state": _state(match, match.round)})
                continue
            rnd, seat = match.round, match.turn
            number = len(match.rounds)
            events = match.play(code)
            split = next((i for i, e in enumerate(events) if isinstance(e, RoundStarted)), len(events))
            steps.append({"round": number, "seat": seat, "card": code,
                          "events": [event_json(e) for e in events[:split]], "state": _state(match, rnd)})
            if split < len(events):
                steps.append({"round": number + 1, "seat": None, "card": None,
                              "events": [event_json(e) for e in events[split:]], "state": _state(match, match.round)})
    table = record.get("table") or {}
    levels = table.get("bots") or {}
    bots = [levels.get(str(s)) for s in range(ruleset.players)]
    # A forfeit (a rated seat's, docs/ratings.md) ends the match before its score does: the replay says so.
    end = record.get("end")
    return {"id": table.get("id"), "names": names, "bots": bots, "ruleset": ruleset.to_dict(), "steps": steps,
            "end": end.get("by") if isinstance(end, dict) else None}
