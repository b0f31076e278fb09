"""The game-record format: a versioned JSON document of a whole match.

Writing takes a ``Match``; reading replays the record through the engine and
rejects anything inconsistent (a card twice, an illegal move, wrong scores).
The format is documented in docs/record-format.md.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, format_cards
from .engine import Deal, shuffle_and_deal
from .errors import RecordError, TakebackError, XeriError
from .match import Match, Takeback
from .rules import Ruleset

FORMAT = "xeri-record"
#: the version of a record without takebacks; one with a takeback is written as ``TAKEBACK_VERSION``, so that a
#: reader that knows no takebacks refuses it by its version rather than misreading it
VERSION = 1
TAKEBACK_VERSION = 2
VERSIONS = (VERSION, TAKEBACK_VERSION)
#: why a rated seat forfeits (a server's ``rated.policy.forfeits``): its player left, stayed away at their turn
#: longer than ``takeover_after``, or ran out of ``turn_timer``
FORFEIT_REASONS = ("left", "away", "timer")

#: what a terminal would obey rather than show: C0 and C1 controls, DEL, and the bidirectional overrides
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: of those, what JSON text may hold raw (json.dumps escapes the C0 controls itself)
_UNPRINTABLE_IN_JSON = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` safe to print as one line: each control character written as an escape (``\\x1b``).

    A record is data from anyone: a name or move holding ``ESC [2K`` could erase a line of ``xeri verify``'s
    output, and a newline could forge one. Every command prints record text through this.
    """
    return _UNPRINTABLE.sub(_escape, text)


def printable_json(text: str) -> str:
    """JSON text safe to print: the controls json.dumps leaves raw written as ``\\u`` escapes (still valid JSON)."""
    return _UNPRINTABLE_IN_JSON.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def _escape(found: re.Match[str]) -> str:
    code = ord(found[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


@dataclass(frozen=True)
class Forfeit:
    """A match that ended by a seat's forfeit rather than by its score (a record's ``end``): ``seat``'s side lost,
    ``winner`` won, whatever the score. The record's moves stop there, so the replayed match is not over."""

    seat: int
    side: int
    reason: str
    winner: int

    def to_dict(self) -> dict[str, Any]:
        return {"by": "forfeit", "seat": self.seat, "side": self.side, "reason": self.reason, "winner": self.winner}


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    return {
        "hands": [_codes(h) for h in deal.hands],
        "pile": _codes(deal.pile),
        "face_down": _codes(deal.face_down),
        "talon": _codes(deal.talon),
        "exposed": deal.exposed.code if deal.exposed else None,
        "redealt": [_codes(p) for p in deal.redealt],
        "slipped": _codes(deal.slipped),
    }


def deal_from_dict(data: Mapping[str, Any]) -> Deal:
    def cards(key: str) -> tuple[Card, ...]:
        value = data.get(key, [])
        if not isinstance(value, list):
            raise RecordError(f"deal field {key!r} must be a list of cards")
        return tuple(Card.parse(str(c)) for c in value)

    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError("deal field 'hands' must be a list of lists of cards")
    redealt = data.get("redealt", [])
    if not isinstance(redealt, list):
        raise RecordError("deal field 'redealt' must be a list of piles")
    exposed = data.get("exposed")
    return Deal(
        hands=tuple(tuple(Card.parse(str(c)) for c in h) for h in hands),
        pile=cards("pile"),
        talon=cards("talon"),
        face_down=cards("face_down"),
        exposed=Card.parse(str(exposed)) if exposed else None,
        redealt=tuple(tuple(Card.parse(str(c)) for c in p) for p in redealt),
        slipped=cards("slipped"),
    )


def to_record(match: Match, *, reveal_seeds: bool = True) -> dict[str, Any]:
    """The record of a match, finished or not.

    With ``reveal_seeds`` False, the match seed and the seed of the round in
    play are left out (a server does this until the round is over).
    """
    r = match.ruleset
    rounds = []
    for i, rnd in enumerate(match.rounds):
        over = rnd.scores is not None
        rounds.append(
            {
                "number": i + 1,
                "dealer": rnd.dealer,
                "seed": match.round_seeds[i] if (reveal_seeds or over) else None,
                "deal": deal_to_dict(rnd.deal),
                "moves": _entries(rnd.moves, [t for t in match.takebacks if t.round == i + 1]),
                "scores": [s.to_dict() for s in rnd.scores] if rnd.scores is not None else None,
            }
        )
    return {
        "format": FORMAT,
        "version": TAKEBACK_VERSION if match.takebacks else VERSION,
        "ruleset": r.to_dict(),
        "seats": [{"seat": s, "name": match.names[s], "side": r.side_of(s)} for s in range(r.players)],
        "seed": match.seed if (reveal_seeds or match.is_over) else None,
        "first_dealer": match.first_dealer,
        "rounds": rounds,
        "result": _result(match),
    }


def _entries(live: Sequence[Card], takebacks: Sequence[Takeback]) -> list[Any]:
    """A round's ``moves`` entries: every card played in order, the retracted ones too, each takeback where it was
    made (``{"seat": s, "takeback": [cards]}``).

    Rebuilt from the round's moves that stand and its takebacks, last first: before each takeback the round's
    moves were the ``at`` it kept and the cards it retracted; the moves after it are what followed on the kept ones.
    """
    if not takebacks:
        return _codes(live)
    out: list[Any] = []
    moves = list(live)
    for taken in reversed(takebacks):
        out.extend(reversed(_codes(moves[taken.at:])))
        out.append({"seat": taken.seat, "takeback": _codes(taken.cards)})
        moves = moves[:taken.at] + list(taken.cards)
    out.extend(reversed(_codes(moves)))
    out.reverse()
    return out


def dumps(match: Match, **kwargs: Any) -> str:
    return json.dumps(to_record(match, **kwargs), ensure_ascii=False, indent=1)


def loads(text: str) -> Match:
    """Parse and replay a record; raise RecordError on anything inconsistent."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"the record is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    return from_record(data)


def from_record(data: Any) -> Match:
    """Replay a record (a parsed JSON object) into a Match, checking every step."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a xeri record: the 'format' field must be {FORMAT!r}")
    if data.get("version") not in VERSIONS:
        raise RecordError(f"unsupported record version {data.get('version')!r}; this reader knows "
                          f"{' and '.join(map(str, VERSIONS))}")
    try:
        return _replay(data)
    except RecordError:
        raise
    except XeriError as exc:
        raise RecordError(str(exc)) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordError(f"malformed record: {exc!r}") from None


def _replay(data: dict[str, Any]) -> Match:
    ruleset = Ruleset.from_dict(data["ruleset"])
    seats = data["seats"]
    names = [str(s["name"]) for s in seats]
    rounds = data["rounds"]
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("the record has no rounds")
    deals = [deal_from_dict(r["deal"]) for r in rounds]
    seed = data.get("seed")
    match = Match(ruleset, seed=seed if seed is not None else 0, names=names,
                  first_dealer=int(data.get("first_dealer", 0)), deals=deals)
    for i, rdata in enumerate(rounds):
        if i >= len(match.rounds):
            raise RecordError(f"round {i + 1} is recorded, but the match was already over")
        rnd = match.rounds[i]
        if rdata.get("dealer") != rnd.dealer:
            raise RecordError(f"round {i + 1}: the dealer should be seat {rnd.dealer}, not {rdata.get('dealer')!r}")
        round_seed = rdata.get("seed")
        if round_seed is not None:
            expected = shuffle_and_deal(ruleset, rnd.dealer, random.Random(round_seed))
            if expected != rnd.deal:
                raise RecordError(f"round {i + 1}: the deal does not follow from the round's seed")
            if seed is not None and match.round_seeds[i] != round_seed:
                raise RecordError(f"round {i + 1}: the round seed does not follow from the match seed")
        for k, code in enumerate(rdata["moves"]):
            if isinstance(code, dict):
                _take_back(match, code, data.get("version"), f"round {i + 1}, entry {k + 1}")
                rnd = match.rounds[i]  # the round goes on from its deal: a new Round object
                continue
            if rnd.is_over:
                raise RecordError(f"round {i + 1}, move {k + 1} ({code}): round {i + 1} ended with move {k}, "
                                  "so this move belongs to a later round")
            try:
                match.play(Card.parse(str(code)))
            except XeriError as exc:
                raise RecordError(f"round {i + 1}, move {k + 1} ({code}): {exc}") from None
        recorded = rdata.get("scores")
        if recorded is not None:
            if rnd.scores is None:
                count = len(rdata["moves"])
                raise RecordError(f"round {i + 1} has scores, but its moves do not finish it: it stops at move "
                                  f"{count}, with {len(rnd.legal_moves)} card(s) "
                                  "still to play for the seat to move")
            got = [s.to_dict() for s in rnd.scores]
            if got != recorded:
                totals = [s.total for s in rnd.scores]
                raise RecordError(f"round {i + 1}: recorded scores do not match the replay (replayed totals {totals})")
        elif i + 1 < len(rounds):
            raise RecordError(f"round {i + 1} is unfinished, but a later round is recorded")
    _check_result(data.get("result"), match, len(rounds), len(rounds[-1]["moves"]))
    forfeit_of(data, match)
    return match


def forfeit_of(data: Mapping[str, Any], match: Match) -> Forfeit | None:
    """The record's end by forfeit (its ``end``), checked against ``match``, the record's replay; None without one.

    A forfeit must name a seat, its side, a reason of ``FORFEIT_REASONS`` and the other side as the winner, and it
    must be where the moves stop: in a two-sided match that its score has not ended, and, for a seat that stayed
    away or ran out of time, at that seat's turn. Anything else is a ``RecordError`` naming what is wrong.
    """
    end = data.get("end")
    if end is None:
        return None
    shape = '{"by": "forfeit", "seat": SEAT, "side": SIDE, "reason": "left" | "away" | "timer", "winner": SIDE}'
    if not isinstance(end, Mapping) or end.get("by") != "forfeit":
        raise RecordError(f"end: a match ends by its score (no 'end') or by a forfeit, {shape}, "
                          f"not {json.dumps(end)[:80]}")
    fields = {key: end.get(key) for key in ("seat", "side", "winner")}
    bad = [key for key, value in fields.items() if type(value) is not int]
    if bad or end.get("reason") not in FORFEIT_REASONS:
        what = f"its {', '.join(bad)} must be whole numbers" if bad else \
            f"its reason must be one of {', '.join(FORFEIT_REASONS)}, not {json.dumps(end.get('reason'))[:40]}"
        raise RecordError(f"end: a forfeit is {shape}: {what}")
    ruleset = match.ruleset
    seat, side, winner, reason = int(end["seat"]), int(end["side"]), int(end["winner"]), str(end["reason"])
    where = f"after round {len(match.rounds)}, move {len(match.round.moves)}"
    if not 0 <= seat < ruleset.players:
        raise RecordError(f"end: the forfeit names seat {seat}, but the match has seats 0 to {ruleset.players - 1}")
    if ruleset.sides != 2:
        raise RecordError(f"end: a forfeit needs two sides (the other one wins), and this match has {ruleset.sides}")
    if side != ruleset.side_of(seat) or winner != 1 - ruleset.side_of(seat):
        raise RecordError(f"end: seat {seat} plays for side {ruleset.side_of(seat)}, so its forfeit is side "
                          f"{ruleset.side_of(seat)}'s loss and side {1 - ruleset.side_of(seat)}'s win, not side "
                          f"{side}'s loss and side {winner}'s win")
    if match.is_over:
        raise RecordError(f"end: the record ends by seat {seat}'s forfeit, but its moves end the match by its score "
                          f"{where}: a forfeit comes before the end")
    if reason != "left" and match.turn != seat:
        raise RecordError(f"end: seat {seat} forfeits for {reason!r} at its turn, but the moves stop {where} at "
                          f"seat {match.turn}'s turn")
    return Forfeit(seat, side, reason, winner)


def _take_back(match: Match, entry: dict[str, Any], version: Any, where: str) -> None:
    """Replay a takeback entry: the rule must allow it there, and it must name exactly the cards it retracts."""
    if version != TAKEBACK_VERSION:
        raise RecordError(f"{where}: a takeback entry needs record version {TAKEBACK_VERSION}, not {version!r}")
    seat, cards = entry.get("seat"), entry.get("takeback")
    if type(seat) is not int or not isinstance(cards, list) or not cards or set(entry) != {"seat", "takeback"}:
        raise RecordError(f"{where}: a takeback entry is {{\"seat\": SEAT, \"takeback\": [CARDS]}}, "
                          f"not {json.dumps(entry)[:60]}")
    named = tuple(Card.parse(str(c)) for c in cards)
    if match.rounds[-1].is_over:
        raise RecordError(f"{where}: a takeback after the round ended")
    try:
        count = match.takeback_run(seat)
    except TakebackError as exc:
        raise RecordError(f"{where}: seat {seat} may not take back here: {exc}") from None
    retracted = match.round.moves[-count:]
    if named != retracted:
        raise RecordError(f"{where}: the takeback names {format_cards(named)}, but seat {seat}'s takeback "
                          f"retracts {format_cards(retracted)}")
    match.take_back(seat)


def _result(match: Match) -> dict[str, Any]:
    return {
        "scores": list(match.scores),
        "round_wins": list(match.round_wins),
        "target": match.target,
        "winner": match.winner,
        "over": match.is_over,
    }


def _check_result(recorded: Any, match: Match, last_round: int, last_move: int) -> None:
    """The recorded ``result`` must be the one the moves make: a changed score or winner is refused."""
    where = f"after round {last_round}, move {last_move} (the end of the record)"
    if not isinstance(recorded, dict):
        raise RecordError(f"the record has no 'result' object; the replay's is {_result(match)} {where}")
    for key, replayed in _result(match).items():
        if key not in recorded:
            raise RecordError(f"result: the record has no {key!r}; the replay gives {replayed!r} {where}")
        if recorded[key] != replayed or type(recorded[key]) is not type(replayed):
            raise RecordError(f"result: the recorded {key} {recorded[key]!r} is not the replay's {replayed!r} {where}")


def summary_lines(match: Match) -> list[str]:
    """The match round by round with score breakdowns, for ``xeri replay``."""
    r = match.ruleset
    lines = [f"Ruleset: {r.describe()}", f"Seats: {', '.join(f'{i}: {n}' for i, n in enumerate(match.names))}"]
    for i, rnd in enumerate(match.rounds):
        lines.append("")
        lines.append(f"Round {i + 1} (dealer: {match.names[rnd.dealer]})")
        lines.append(f"  initial pile: {format_cards(rnd.deal.pile)}")
        lines.append(f"  moves: {len(rnd.moves)}")
        taken_back = [t for t in match.takebacks if t.round == i + 1]
        entries = _entries(rnd.moves, taken_back) if taken_back else []
        places = [k + 1 for k, e in enumerate(entries) if isinstance(e, dict)]
        for place, taken in zip(places, taken_back, strict=True):
            after = f" and the {len(taken.cards) - 1} card(s) played after it ({format_cards(taken.cards[1:])})" \
                if len(taken.cards) > 1 else ""
            lines.append(f"  takeback (entry {place} of the moves): {match.names[taken.seat]} took back "
                         f"{format_cards(taken.cards[:1])}{after}")
        if rnd.scores is None:
            lines.append("  (unfinished)")
            continue
        for s in rnd.scores:
            lines.append(f"  {match.side_label(s.side)}: {s.total} points, {s.cards} cards")
            for line in s.lines:
                shown = f" [{format_cards(line.cards)}]" if line.cards else ""
                lines.append(f"    {line.label:<16} {line.points:>3}{shown}")
    lines.append("")
    score = ", ".join(f"{match.side_label(s)} {p}" for s, p in enumerate(match.scores))
    lines.append(f"Match score: {score}")
    if match.winner is not None:
        lines.append(f"Winner: {match.side_label(match.winner)}")
    else:
        lines.append("The match is unfinished.")
    return lines
