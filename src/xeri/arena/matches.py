"""Duplicate matches between two bots: one deal sequence played to the match's end, once from each side.

Match ``i`` is seeded from the arena seed (as deal ``i`` is), and ``Match``
draws each round's shuffle from that seed, so both games of a duplicate match
see the same deals round after round for as long as both go on, bot A on side
0 in the first and on side 1 in the second (with 3 players, three games, A at
each seat in turn and B at the other two). The bots play with the match's view
(its scores, round wins and target) and the round's log, the same as in
``xeri play``, and keep their state from round to round. A game counts as won
for A when A's side wins the match; the interval of the win rate is over
duplicate matches (the mean of their games), which share their deals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..match import Match
from ..rules import Ruleset
from .play import ArenaError, DealTask, PairClock, check_run, deal_seeds, map_work, seat_bots
from .stats import Estimate, mean_ci

#: a match that has not ended after this many rounds is a bug (or a rule that never ends): stop with an error
MAX_ROUNDS = 500


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One match of a duplicate pair, from bot A's side; B's figures are its sides' mean with 3 players."""

    won: bool
    points_a: int
    points_b: float
    rounds: int
    rounds_won_a: int
    seconds_a: float = field(compare=False)
    moves_a: int = 0
    seconds_b: float = field(default=0.0, compare=False)
    moves_b: int = 0


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match played once per side: ``games[k]`` has A on side ``k``."""

    index: int
    games: tuple[MatchGame, ...]


#: What a worker needs to play one duplicate match: what it needs for a deal (the pair, the rules, the index, the
#: match's seed).
MatchTask = DealTask


def play_match(a: str, b: str, ruleset: Ruleset, first_dealer: int, match_seed: int, a_side: int) -> MatchGame:
    """Play one match from ``match_seed`` with bot A on ``a_side``; each bot sees only its seat's view."""
    match = Match(ruleset, seed=match_seed, first_dealer=first_dealer)
    bots, is_a = seat_bots(a, b, ruleset, match_seed, a_side, match)
    clock = PairClock()
    while not match.is_over:
        if len(match.rounds) > MAX_ROUNDS:
            raise ArenaError(f"a match went past {MAX_ROUNDS} rounds without a winner")
        turn = match.turn
        assert turn is not None
        match.play(clock.choose(bots[turn], is_a[turn], match.view(turn), match.round.log_for(turn)), turn)
    others = [match.scores[s] for s in range(ruleset.sides) if s != a_side]
    return MatchGame(
        match.winner == a_side, match.scores[a_side], others[0] if len(others) == 1 else sum(others) / len(others),
        len(match.rounds), match.round_wins[a_side], clock.spent[0], clock.moves[0], clock.spent[1], clock.moves[1],
    )


def play_duplicate_match(task: MatchTask) -> MatchResult:
    """The games of one duplicate match, A on each side in turn (the unit of work sent to workers)."""
    ruleset = Ruleset.from_dict(task.ruleset)
    dealer = task.index % ruleset.players
    games = tuple(play_match(task.a, task.b, ruleset, dealer, task.seed, side) for side in range(ruleset.sides))
    return MatchResult(task.index, games)


def run_matches(
    a: str,
    b: str,
    ruleset: Ruleset,
    matches: int,
    seed: int,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[MatchResult]:
    """Play ``matches`` duplicate matches; ``progress(k)`` is called as k more finish. In match order."""
    check_run(a, b, ruleset, ("matches", matches), jobs, backend)
    tasks = [MatchTask(a, b, ruleset.to_dict(), i, s) for i, s in enumerate(deal_seeds(seed, matches))]
    return map_work(play_duplicate_match, tasks, jobs, backend, address, progress)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """What a match arena run measured, from bot A's side: per match, intervals over duplicate matches."""

    matches: int
    games: int
    win_rate: Estimate
    points_a: float
    points_b: float
    margin: Estimate
    rounds: Estimate
    rounds_won_a: float
    seconds_per_move_a: float
    seconds_per_move_b: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "games": self.games,
            "match_win_rate": self.win_rate.to_dict(),
            "points_per_match": {"a": self.points_a, "b": self.points_b},
            "margin_per_match": self.margin.to_dict(),
            "rounds_per_match": self.rounds.to_dict(),
            "rounds_won_per_match": {"a": self.rounds_won_a},
            "seconds_per_move": {"a": self.seconds_per_move_a, "b": self.seconds_per_move_b},
        }


def summarize_matches(results: Sequence[MatchResult]) -> MatchSummary:
    """Per-match figures; the intervals are over duplicate matches (each the mean of its games)."""
    if not results:
        raise ValueError("no matches")
    games = [g for r in results for g in r.games]

    def per_pair(value: Callable[[MatchGame], float]) -> list[float]:
        return [sum(value(g) for g in r.games) / len(r.games) for r in results]

    def mean(value: Callable[[MatchGame], float]) -> float:
        return sum(value(g) for g in games) / len(games)

    return MatchSummary(
        matches=len(results),
        games=len(games),
        win_rate=mean_ci(per_pair(lambda g: 1.0 if g.won else 0.0)),
        points_a=mean(lambda g: g.points_a),
        points_b=mean(lambda g: g.points_b),
        margin=mean_ci(per_pair(lambda g: g.points_a - g.points_b)),
        rounds=mean_ci(per_pair(lambda g: g.rounds)),
        rounds_won_a=mean(lambda g: g.rounds_won_a),
        seconds_per_move_a=sum(g.seconds_a for g in games) / max(sum(g.moves_a for g in games), 1),
        seconds_per_move_b=sum(g.seconds_b for g in games) / max(sum(g.moves_b for g in games), 1),
    )
