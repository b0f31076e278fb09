"""Where the points went: every move of one seat, weighed by the master, from that seat's information only.

The record is replayed through the engine. At each of the seat's moves the
master's evaluator gets exactly what a bot in that seat would get,
``match.view(seat)`` and ``round.log_for(seat)``, so no hidden card can reach
the review: two records that differ only in cards the seat never saw get the
same review. The evaluator searches by playouts only (no wall-clock cap) with
a seed derived one-way from the move's place in the match (never from the
match seed, which fixes the deal), so a review is identical on any machine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from . import seeds
from .bots.registry import LEVELS, make_bot, parse_spec
from .cards import Card
from .engine import SeatView
from .errors import RecordError, XeriError
from .events import Event
from .match import Match
from .record import from_record
from .rules import jack_xeri, makes_xeri, takes
from .scoring import ScoreBreakdown, card_values, margin, xeri_value

#: The evaluator's seed secret. It is public on purpose: a review seed may depend only on what the seat knows.
SEED_SECRET = "xeri-review-v1"
SEED_DOMAIN = "review"
#: Points lost at or above each bound earn that grade (lichess-style labels); below the first, "good".
GRADES: tuple[tuple[float, str], ...] = ((5.0, "blunder"), (2.0, "mistake"), (0.5, "inaccuracy"))
COSTLIEST = 3


class ReviewError(XeriError):
    """A record or seat that cannot be reviewed."""


class Evaluator(Protocol):
    def evaluate(self, view: SeatView, history: Sequence[Event]) -> dict[Card, float]: ...


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class Effect:
    """What a card does to the pile, as the seat sees it: ``kind`` is xeri, capture, jack, lead or discard."""

    kind: str
    cards: int  # cards taken (capture, jack, xeri) or the pile's size after a lead or discard
    points: int  # card points taken, the xeri bonus included; or card points left on the pile
    rank: str  # the card's rank label
    unseen: int  # other cards of its rank the seat cannot place (a lead or discard is safe when none are)

    def describe(self) -> str:
        if self.kind == "xeri":
            return f"makes a xeri ({_points(self.points)})"
        if self.kind in ("capture", "jack"):
            what = "the pile of" if self.kind == "jack" else ""
            return f"takes {what} {self.cards} cards ({_points(self.points)})".replace("  ", " ")
        risk = (f"no other {self.rank} unseen" if not self.unseen
                else f"{self.unseen} other {self.rank}{'s' if self.unseen > 1 else ''} unseen")
        if self.kind == "lead":
            return f"leads onto the empty pile, {risk}"
        return f"leaves {self.cards} cards ({_points(self.points)}) on the pile, {risk}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": self.cards, "points": self.points, "rank": self.rank,
                "unseen": self.unseen}


@dataclass(frozen=True)
class MoveReview:
    """One move of the reviewed seat: each legal card's expected round margin and what the chosen one cost."""

    round: int  # 1-based
    move: int  # 1-based position among all the round's moves
    seat: int
    played: Card
    best: Card
    values: tuple[tuple[Card, float], ...]  # best first; empty for a forced move (one card in hand)
    lost: float  # value of the best card minus the played card's, >= 0
    grade: str  # forced, best, good, inaccuracy, mistake, blunder
    reason: str
    played_effect: Effect
    best_effect: Effect

    @property
    def forced(self) -> bool:
        return not self.values

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round, "move": self.move, "seat": self.seat, "played": self.played.code,
            "best": self.best.code, "values": {c.code: round(v, 3) for c, v in self.values},
            "lost": round(self.lost, 3), "grade": self.grade, "forced": self.forced, "reason": self.reason,
            "played_effect": self.played_effect.to_dict(), "best_effect": self.best_effect.to_dict(),
        }


@dataclass(frozen=True)
class RoundReview:
    number: int
    moves: tuple[MoveReview, ...]
    margin: float | None  # the seat's side's points minus the others' mean in this round; None if unfinished

    @property
    def lost(self) -> float:
        return sum(m.lost for m in self.moves)

    def to_dict(self) -> dict[str, Any]:
        grades = {g: sum(m.grade == g for m in self.moves) for _, g in GRADES}
        return {"number": self.number, "lost": round(self.lost, 3), "margin": self.margin, "grades": grades,
                "moves": [m.to_dict() for m in self.moves]}


@dataclass(frozen=True)
class MatchReview:
    seat: int
    name: str
    side: int
    evaluator: str  # the bot spec that weighed the moves
    rounds: tuple[RoundReview, ...]

    @property
    def moves(self) -> tuple[MoveReview, ...]:
        return tuple(m for r in self.rounds for m in r.moves)

    @property
    def lost(self) -> float:
        return sum(r.lost for r in self.rounds)

    @property
    def costliest(self) -> tuple[MoveReview, ...]:
        """The (up to) three moves that lost the most points, costliest first; moves that lost nothing are left out."""
        ranked = sorted((m for m in self.moves if m.lost > 0), key=lambda m: -m.lost)
        return tuple(ranked[:COSTLIEST])

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "name": self.name, "side": self.side, "evaluator": self.evaluator,
            "lost": round(self.lost, 3), "moves_reviewed": len(self.moves),
            "costliest": [{"round": m.round, "move": m.move} for m in self.costliest],
            "rounds": [r.to_dict() for r in self.rounds],
        }


def evaluator_spec(iterations: int | None = None, level: str = "master") -> str:
    """The level's bot spec in reproducible mode: its wall-clock cap removed, its playout budget optionally set."""
    name, params = parse_spec(LEVELS.get(level, level))
    params.pop("seconds", None)
    if name == "master":
        params.setdefault("match", 0)  # a review weighs the round's points: the master plays for them too
    if iterations is not None:
        params["iterations"] = iterations
    return name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


def move_seed(round_number: int, move: int, seat: int) -> int:
    """The evaluator's seed for one move: from the move's place only, one-way, the same on every machine."""
    return seeds.derive(SEED_SECRET, SEED_DOMAIN, round_number, move, seat)


def make_evaluator(spec: str, seed: int) -> Evaluator:
    """The bot that weighs one move. A wall-clock cap the bot sets by itself is lifted when it has a playout
    budget, so that the review depends on the seed alone, never on how busy the machine is."""
    bot = make_bot(spec, seed=seed)
    if not callable(getattr(bot, "evaluate", None)):
        raise ReviewError(f"the bot {spec!r} cannot weigh moves: it has no evaluate()")
    if getattr(bot, "seconds", None) is not None and getattr(bot, "iterations", None) is not None:
        bot.seconds = None  # type: ignore[attr-defined]
    return bot  # type: ignore[return-value]


def effect_of(view: SeatView, card: Card) -> Effect:
    """What playing ``card`` does to the pile, read off the seat's view (the engine's capture rules)."""
    rules = view.ruleset
    values = card_values(rules.scoring, rules.two_of_spades)
    pile = view.pile
    top = view.top
    shown = sum(values[c.index] for c in pile if c is not None)
    unseen = sum(1 for c in view.unseen() if c.rank is card.rank)
    label = card.rank.label
    if top is not None and takes(card, top):
        taken = shown + values[card.index]
        if makes_xeri(rules, card, top, len(pile), sum(view.hand_counts) - 1 + view.talon_count):
            return Effect("xeri", 2, taken + xeri_value(rules, jack_xeri(card, top)), label, unseen)
        return Effect("jack" if card.rank is not top.rank else "capture", len(pile) + 1, taken, label, unseen)
    if not pile:
        return Effect("lead", 1, values[card.index], label, unseen)
    return Effect("discard", len(pile) + 1, shown + values[card.index], label, unseen)


def grade_of(lost: float, played: Card, best: Card) -> str:
    if played == best:
        return "best"
    return next((g for bound, g in GRADES if lost >= bound), "good")


def reason_line(played: Card, best: Card, lost: float, grade: str, played_effect: Effect, best_effect: Effect) -> str:
    """One line on why the move was good or what the better card would have done."""
    if grade == "forced":
        return f"{played} was the only card in hand"
    if grade == "best":
        return f"{played} {played_effect.describe()}: the master's choice"
    if grade == "good":
        return f"{played} {played_effect.describe()}: about as good as {best}"
    return f"{played} {played_effect.describe()}. Better: {best} (+{lost:.1f}), which {best_effect.describe()}"


def review_move(view: SeatView, history: Sequence[Event], played: Card, evaluator: Evaluator, round_number: int,
                move: int) -> MoveReview:
    """Weigh one move from the seat's view and redacted log only."""
    assert view.seat is not None
    legal = view.legal_moves
    if played not in legal:
        raise ReviewError(f"round {round_number}, move {move}: {played} is not in the hand of seat {view.seat}")
    played_effect = effect_of(view, played)
    if len(legal) == 1:
        return MoveReview(round_number, move, view.seat, played, played, (), 0.0, "forced",
                          reason_line(played, played, 0.0, "forced", played_effect, played_effect),
                          played_effect, played_effect)
    values = evaluator.evaluate(view, history)
    top = max(values.values())
    best = played if values[played] >= top else max(values, key=values.__getitem__)  # a tie with the best is best
    lost = max(0.0, values[best] - values[played])
    grade = grade_of(lost, played, best)
    best_effect = effect_of(view, best)
    ranked = tuple(sorted(values.items(), key=lambda cv: -cv[1]))
    return MoveReview(round_number, move, view.seat, played, best, ranked, lost, grade,
                      reason_line(played, best, lost, grade, played_effect, best_effect), played_effect, best_effect)


def default_seat(data: Mapping[str, Any]) -> int:
    """The first person's seat in a ``xeri play`` save, else seat 0."""
    play = data.get("play")
    humans = play.get("humans") if isinstance(play, dict) else None
    if isinstance(humans, list) and humans and isinstance(humans[0], int):
        return humans[0]
    return 0


@dataclass(frozen=True)
class MoveTask:
    """One move to weigh: the seat's view and redacted log at that move, and nothing else. Picklable, so a
    server's worker process can run it (``run_task``)."""

    round: int
    move: int
    played: Card
    view: SeatView
    history: tuple[Event, ...]
    spec: str

    def run(self) -> MoveReview:
        assert self.view.seat is not None
        evaluator = make_evaluator(self.spec, move_seed(self.round, self.move, self.view.seat))
        return review_move(self.view, self.history, self.played, evaluator, self.round, self.move)


def run_task(task: MoveTask) -> MoveReview:
    """A worker pool's job: weigh one move."""
    return task.run()


@dataclass(frozen=True)
class ReviewPlan:
    """Everything a review needs, read off the replayed record: one task per move of the seat."""

    seat: int
    name: str
    side: int
    spec: str
    tasks: tuple[MoveTask, ...]
    margins: tuple[float | None, ...]  # per played round

    def assemble(self, moves: Sequence[MoveReview]) -> MatchReview:
        """The review from the tasks' results, in task order."""
        if len(moves) != len(self.tasks):
            raise ValueError(f"{len(moves)} move reviews for {len(self.tasks)} tasks")
        rounds = tuple(
            RoundReview(n, tuple(m for m in moves if m.round == n), margin)
            for n, margin in enumerate(self.margins, start=1)
        )
        return MatchReview(self.seat, self.name, self.side, self.spec, rounds)


def plan_review(data: Any, seat: int | None = None, *, iterations: int | None = None,
                level: str = "master") -> ReviewPlan:
    """Replay a record (a parsed JSON object) and list the seat's moves to weigh; RecordError/ReviewError on bad
    input. ``iterations`` overrides the evaluator's playout budget (tests use small ones)."""
    checked = from_record(data)  # validates the whole record: deals, moves, scores
    if seat is None:
        seat = default_seat(data)
    players = checked.ruleset.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ReviewError(f"seat must be 0..{players - 1} in this {players}-player match, not {seat!r}")
    spec = evaluator_spec(iterations, level)
    make_evaluator(spec, 0)  # fail early on a bot that cannot weigh moves
    match = Match(checked.ruleset, seed=checked.seed, names=checked.names, first_dealer=checked.first_dealer,
                  deals=[r.deal for r in checked.rounds])
    side = checked.ruleset.side_of(seat)
    tasks: list[MoveTask] = []
    margins: list[float | None] = []
    for number, original in enumerate(checked.rounds, start=1):
        if not original.moves:
            break  # the next round had been dealt when the record was written, but not played
        for k, card in enumerate(original.moves, start=1):
            if match.turn == seat:
                tasks.append(MoveTask(number, k, card, match.view(seat), match.round.log_for(seat), spec))
            match.play(card)
        margins.append(_margin(original.scores, side))
    return ReviewPlan(seat, checked.names[seat], side, spec, tuple(tasks), tuple(margins))


def review_record(
    data: Any,
    seat: int | None = None,
    *,
    iterations: int | None = None,
    level: str = "master",
    progress: Callable[[int, int], None] | None = None,
) -> MatchReview:
    """Review every move of ``seat`` in a record (a parsed JSON object); RecordError/ReviewError on bad input.

    ``progress(done, total)`` is called after each of the seat's moves.
    """
    plan = plan_review(data, seat, iterations=iterations, level=level)
    moves: list[MoveReview] = []
    for task in plan.tasks:
        moves.append(task.run())
        if progress is not None:
            progress(len(moves), len(plan.tasks))
    return plan.assemble(moves)


def _margin(scores: Sequence[ScoreBreakdown] | None, side: int) -> float | None:
    if scores is None:
        return None
    return margin([s.total for s in scores], side)


def load_record(text: str) -> Any:
    """Parse a record file's text; RecordError on anything that is not JSON."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"the record is not valid JSON: {exc.msg} at line {exc.lineno}") from None
