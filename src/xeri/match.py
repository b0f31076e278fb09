"""A match: rounds with the deal passing on, cumulative scores, targets and tie rules.

Every round's shuffle comes from a per-round seed drawn from the match seed,
so one seed fixes the whole match, and a server can publish a commitment to
each round's seed before the deal and reveal it afterwards.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Sequence

from .cards import Card
from .engine import Deal, Round, SeatView
from .errors import GameOverError, TakebackError
from .events import Dealt, Event, MatchOver, Played, RoundStarted, ThresholdRaised
from .rules import Ruleset


@dataclasses.dataclass(frozen=True)
class Takeback:
    """A retraction: ``seat`` took back its last card of round ``round`` and the cards played after it.

    ``at`` is how many of the round's moves were kept (the retracted run began after them); ``cards`` are the
    retracted moves in the order they were played, the seat's own card first. The deck does not change: the
    round goes on from its same deal, so its fairness commitment still holds.
    """

    round: int
    at: int
    seat: int
    cards: tuple[Card, ...]


class Match:
    """Rounds until the ruleset's end condition names a winning side."""

    def __init__(
        self,
        ruleset: Ruleset,
        seed: int | None = None,
        names: Sequence[str] | None = None,
        first_dealer: int = 0,
        deals: Sequence[Deal] = (),
    ) -> None:
        """``deals`` replaces the shuffles of the first rounds (replaying a record).

        Round seeds are still drawn from the match seed, so a replayed match
        goes on exactly as the original would have.
        """
        n = ruleset.players
        self.ruleset = ruleset
        self.seed: int = secrets.randbits(64) if seed is None else seed
        self.names: tuple[str, ...] = tuple(names) if names else tuple(f"Player {i + 1}" for i in range(n))
        if len(self.names) != n:
            raise ValueError(f"{len(self.names)} names given for {n} players")
        if not 0 <= first_dealer < n:
            raise ValueError(f"first dealer {first_dealer} is not a seat of a {n}-player game")
        self.first_dealer = first_dealer
        self._rng = random.Random(self.seed)
        self.rounds: list[Round] = []
        self.round_seeds: list[int] = []
        self.scores = [0] * ruleset.sides
        self.round_wins = [0] * ruleset.sides
        self.target: int | None = ruleset.target if ruleset.match_end == "target" else None
        self.winner: int | None = None
        self._tiebreak = False
        self._events: list[Event] = []
        self._deals = list(deals)
        #: where each round's events begin in the log (a takeback rebuilds the current round's part)
        self._round_begin: list[int] = []
        #: every takeback so far, in order (the record keeps them beside the moves)
        self.takebacks: list[Takeback] = []
        self._start_round()

    # --- reading -------------------------------------------------------------

    @property
    def round(self) -> Round:
        """The current (or, once the match is over, the last) round."""
        return self.rounds[-1]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def turn(self) -> int | None:
        return None if self.winner is not None else self.round.turn

    @property
    def legal_moves(self) -> tuple[Card, ...]:
        return () if self.winner is not None else self.round.legal_moves

    @property
    def events(self) -> tuple[Event, ...]:
        """The full match log (server-side: it holds every hand)."""
        return tuple(self._events)

    def log_for(self, seat: int | None) -> tuple[Event, ...]:
        from .events import redact

        return redact(self._events, seat)

    def view(self, seat: int | None) -> SeatView:
        """The current round's view for ``seat``, with the match scores."""
        return self.round.view(
            seat,
            match_scores=tuple(self.scores),
            round_wins=tuple(self.round_wins),
            round_number=len(self.rounds),
            target=self.target,
            names=self.names,
        )

    def side_label(self, side: int) -> str:
        seats = self.ruleset.side_seats(side)
        return " & ".join(self.names[s] for s in seats)

    # --- transitions -----------------------------------------------------------

    def play(self, card: Card | str, seat: int | None = None) -> tuple[Event, ...]:
        """Play a card in the current round; finishing a round starts the next one."""
        if self.winner is not None:
            raise GameOverError(f"the match is over: {self.side_label(self.winner)} won")
        return self._after(self.round.play(card, seat))

    def play_allowed(self, card: Card) -> tuple[Event, ...]:
        """Play a move the table's rules already allowed (``xeri.table_rules.verify_move``) without checking it
        again: the one check of a move on the server and the offline page is the rules'."""
        return self._after(self.round.play_allowed(card))

    def _after(self, out: tuple[Event, ...]) -> tuple[Event, ...]:
        """A move's events, logged; a round it finished is scored and the next one starts."""
        self._events.extend(out)
        if self.round.is_over:
            out += self._finish_round()
        return out

    def takeback_run(self, seat: int) -> int:
        """How many of the current round's moves a takeback by ``seat`` retracts: its last card and every card
        played after it. Raises ``TakebackError`` when there is none to take back (docs/play.md#takebacks).

        The card must be in the hand being played: once new hands are dealt after it (or the round is over) it
        stays, since the player has seen cards they could not know at that move.
        """
        if self.winner is not None:
            raise TakebackError("game_over", "the match is over: there is nothing to take back")
        if not 0 <= seat < self.ruleset.players:
            raise TakebackError("bad_seat", f"seat {seat} is not a seat of a {self.ruleset.players}-player game")
        count = 0
        for event in reversed(self.round.events):
            if type(event) is Played:
                count += 1
                if event.seat == seat:
                    return count
            elif type(event) is Dealt:
                if any(s == seat for s, _ in self.round.played):
                    raise TakebackError("new_hand", "new hands were dealt after your last card: it stays played")
                break
        if len(self.rounds) > 1 and any(s == seat for s, _ in self.rounds[-2].played):
            raise TakebackError("round_over", "the round of your last card is over: it stays played")
        raise TakebackError("nothing_to_take_back",
                            "you have played no card in this hand: there is nothing to take back")

    def take_back(self, seat: int) -> Takeback:
        """Retract ``seat``'s last card and the cards played after it (``takeback_run``); the round goes on
        from the same deal, as if they had not been played. The log loses their events; ``takebacks`` keeps
        what was retracted."""
        return self.retract(seat, self.takeback_run(seat))

    def retract(self, seat: int, count: int) -> Takeback:
        """Retract the last ``count`` moves of the round, a takeback by ``seat`` that the table's rules already
        allowed (``xeri.table_rules.verify_takeback`` gave ``count``, from ``takeback_run``): not walked again."""
        old = self.round
        moves = old.moves
        kept = moves[:len(moves) - count]
        fresh = Round(self.ruleset, old.dealer, old.deal, check=False)
        del self._events[self._round_begin[-1]:]
        self._events.append(RoundStarted(len(self.rounds), old.dealer))
        self._events.extend(fresh.events)
        for card in kept:  # played once already: the same deal allows them again
            self._events.extend(fresh.play_allowed(card))
        self.rounds[-1] = fresh
        taken = Takeback(len(self.rounds), len(kept), seat, tuple(moves[len(kept):]))
        self.takebacks.append(taken)
        return taken

    def _start_round(self) -> tuple[Event, ...]:
        n = len(self.rounds)
        dealer = (self.first_dealer + n) % self.ruleset.players
        round_seed = self._rng.getrandbits(64)
        self.round_seeds.append(round_seed)
        if n < len(self._deals):
            rnd = Round(self.ruleset, dealer, self._deals[n])
        else:
            rnd = Round.new(self.ruleset, dealer, round_seed)
        self.rounds.append(rnd)
        self._round_begin.append(len(self._events))
        out = (RoundStarted(n + 1, dealer), *rnd.events)
        self._events.extend(out)
        return out

    def _finish_round(self) -> tuple[Event, ...]:
        scores = self.round.scores
        assert scores is not None
        totals = [s.total for s in scores]
        for side, pts in enumerate(totals):
            self.scores[side] += pts
        best = max(totals)
        if totals.count(best) == 1:
            self.round_wins[totals.index(best)] += 1
        out: list[Event] = []
        self.winner = self._decide(out)
        if self.winner is not None:
            out.append(MatchOver(self.winner, tuple(self.scores), tuple(self.round_wins)))
            self._events.extend(out)
            return tuple(out)
        self._events.extend(out)
        return (*out, *self._start_round())

    def _decide(self, out: list[Event]) -> int | None:
        decision = decide(self.ruleset, self.scores, self.round_wins, len(self.rounds), self.target, self._tiebreak)
        if decision.target != self.target:
            assert decision.target is not None
            out.append(ThresholdRaised(decision.target))
        self.target, self._tiebreak = decision.target, decision.tiebreak
        return decision.winner

    def finished_round_scores(self) -> list[list[int]]:
        """Each finished round's total per side."""
        return [[s.total for s in r.scores] for r in self.rounds if r.scores is not None]


@dataclasses.dataclass(frozen=True)
class Decision:
    """What the end-of-round check decided: a winner (or None) and the state to carry on."""

    winner: int | None
    target: int | None
    tiebreak: bool


def decide(
    ruleset: Ruleset,
    scores: Sequence[int],
    round_wins: Sequence[int],
    rounds_played: int,
    target: int | None,
    tiebreak: bool = False,
) -> Decision:
    """Apply the match-end and tie rules after a round (documented in docs/rules.md).

    rounds: after the agreed number of rounds, most rounds won wins; while
    that is tied, play on until one side leads. target: one side at or over
    the target wins; several at once follow ``tie_rule`` — raise (+100 until
    at most one is over), another_hand (one more round, then the higher total,
    repeating while equal), higher (the higher total, another round if equal).
    """
    if ruleset.match_end == "rounds":
        winner = _unique_max(round_wins) if rounds_played >= ruleset.rounds else None
        return Decision(winner, target, tiebreak)
    assert target is not None
    if tiebreak:
        return Decision(_unique_max(scores), target, True)
    reached = [s for s, pts in enumerate(scores) if pts >= target]
    if len(reached) <= 1:
        return Decision(reached[0] if reached else None, target, False)
    if ruleset.tie_rule == "raise":
        while sum(pts >= target for pts in scores) > 1:
            target += 100
        reached = [s for s, pts in enumerate(scores) if pts >= target]
        return Decision(reached[0] if reached else None, target, False)
    if ruleset.tie_rule == "another_hand":
        return Decision(None, target, True)
    winner = _unique_max(scores)
    return Decision(winner, target, winner is None)


def _unique_max(values: Sequence[int]) -> int | None:
    best = max(values)
    return values.index(best) if list(values).count(best) == 1 else None

