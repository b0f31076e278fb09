"""What each seat may not know, rebuilt from a finished match's record (every hand, the talon, the face-down
cards, each round's seed and salt), and the check that no message to a seat names any of it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from xeri.cards import DECK
from xeri.match import Match
from xeri.record import deal_from_dict
from xeri.rules import Ruleset

CODES = {c.code for c in DECK}


@dataclass
class Snapshot:
    """The truth at one version: what each seat may not know, and the secrets not yet revealed."""

    round_over: bool
    hidden: dict[int | None, set[str]]
    secrets: set[Any]
    face_down: int = 0  # how many cards of a dealt pile lie face down (a redealt pile's too)


def ground_truth(record: dict[str, Any]) -> list[Snapshot]:
    ruleset = Ruleset.from_dict(record["ruleset"])
    deals = [deal_from_dict(r["deal"]) for r in record["rounds"]]
    match = Match(ruleset, seed=record["seed"], names=[s["name"] for s in record["seats"]],
                  first_dealer=record["first_dealer"], deals=deals)
    salts = {r["round"]: r["salt"] for r in record["fairness"]["rounds"]}

    def snap() -> Snapshot:
        rnd = match.round
        number = len(match.rounds)
        hands = [{c.code for c in rnd.hand(s)} for s in range(ruleset.players)]
        unseen = {c.code for c in rnd.talon} | {c.code for c in rnd._face_down} | {
            c.code for c in rnd._hidden_captured}
        if rnd.deal.exposed is not None:
            unseen.discard(rnd.deal.exposed.code)
        public_exposed = {rnd.deal.exposed.code} if rnd.deal.exposed else set()
        hidden: dict[int | None, set[str]] = {
            s: (unseen | set().union(*(hands[o] for o in range(ruleset.players) if o != s))) - public_exposed
            for s in range(ruleset.players)
        }
        hidden[None] = (unseen | set().union(*hands)) - public_exposed
        secrets: set[Any] = set()
        if not rnd.is_over:
            seed = match.round_seeds[number - 1]
            secrets |= {seed, str(seed), salts[number]}
        if not match.is_over:
            secrets |= {match.seed, str(match.seed), record["fairness"]["match"]["salt"]}
        return Snapshot(rnd.is_over, hidden, secrets, ruleset.pile_face_down)

    out = [snap()]
    for r in record["rounds"]:
        for code in r["moves"]:
            if isinstance(code, dict):  # a takeback: the retracted cards are back in their hands, hidden again
                match.take_back(code["seat"])
            else:
                match.play(code)
            out.append(snap())
    return out


def walk(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)
    else:
        yield value


def current_round_parts(msg: dict[str, Any]) -> list[Any]:
    """The parts of a message about the round in play: the view and the events since the last round start.

    A ``pile_redealt`` event is checked on its own (``redealt_face_down``): the rules turn a bad initial
    pile face up for all to see before it goes back into the deck, so its face-up cards are public (but not
    where they went).
    """
    events = msg.get("events") or []
    starts = [i for i, e in enumerate(events) if e["kind"] == "round_started"]
    current = events[starts[-1]:] if starts else events
    return [msg.get("view"), [e for e in current if e["kind"] != "pile_redealt"]]


def redealt_face_down(msg: dict[str, Any], face_down: int) -> list[str]:
    """The cards a ``pile_redealt`` event names that lay face down in the bad pile (bottom first)."""
    return [c for e in msg.get("events") or [] if e["kind"] == "pile_redealt" for c in e["cards"][:face_down]]


def check_round_end(msg: dict[str, Any]) -> None:
    """A round's captured cards and its ``round_end`` view come only once the round is scored: the breakdown's
    ``captured`` in a ``round_scored`` event (before any next round's start), ``round_end`` only in the update that
    scored the round and dealt the next, showing that round over, with no hand and nothing face down."""
    events = msg.get("events") or []
    kinds = [e["kind"] for e in events]
    for i, e in enumerate(events):
        if e["kind"] == "round_scored":
            assert "round_started" not in kinds[:i]
            taken = [c for b in e["scores"] for c in b["captured"]]
            assert len(taken) == len(set(taken)) == sum(b["cards"] for b in e["scores"])
    end = msg.get("round_end")
    if end is None:
        return
    assert "round_scored" in kinds and "round_started" in kinds, msg
    assert end["over"] and end["turn"] is None and end["hand"] == [] and None not in end["pile"], end
    assert end["round_number"] == msg["view"]["round_number"] - 1 and not end["match_over"]


def check_messages(seat: int | None, messages: list[dict[str, Any]], truth: list[Snapshot]) -> int:
    """Assert that no message names a card hidden from ``seat`` or a secret; return how many were checked."""
    version = 0
    for msg in messages:
        if msg["type"] in ("sync", "update"):
            version = msg["version"]
            check_round_end(msg)
        snap = truth[version]
        named = set(walk(msg))
        leaked = named & snap.secrets
        assert not leaked, f"seat {seat} was sent an unrevealed seed or salt at version {version}: {msg}"
        if msg["type"] == "hint":
            assert msg["card"] not in snap.hidden[seat]
        shown = redealt_face_down(msg, snap.face_down)
        assert not shown, f"seat {seat} was sent face-down cards {shown} of a redealt pile at version {version}"
        if msg["type"] not in ("sync", "update") or snap.round_over:
            continue
        cards = {v for v in walk(current_round_parts(msg)) if isinstance(v, str) and v in CODES}
        bad = cards & snap.hidden[seat]
        assert not bad, f"seat {seat} was sent hidden cards {sorted(bad)} at version {version}: {msg}"
    return len(messages)
