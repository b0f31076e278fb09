"""The master bot: card counting and inference early, exact play of the last cards.

Early in a round it weighs each legal card as the expert does (card counting:
what the next player can take with a discard, a xeri included; the worth of a
capture and of a kept Jack), with two changes that measured better: it reads
the others' plays (``inference``: a seat that passed on the top card's rank
lacks it, so a discard of that rank is safe), and it keeps Jacks for less
(``jack_keep`` 3 points, not 5). With two players, once the talon is empty
and few cards are left, it solves each sampled world exactly
(``endgame.Solver``): every unseen card is then in the other hand (in Pişti
but for the face-down cards taken), one world is all there is, and the play is
perfect. With four the others' hands stay hidden to the end, and the rollouts
below play on to the last card (``endgame_cards``). ``early=pimc`` uses determinized Monte Carlo
playouts instead of the counting rules (measured weaker, kept for research).
``search=N`` (research, off by default: measured no better than the counting
rules, docs/reference/bots-measurements.md) searches each sampled world to the end of the current
deal once at most N cards are in the hands, against opponents that play a
fixed policy (``opponents=policy``; ``minimax`` opponents would know our hand
in each world and were measured worse still), with worlds dealt to fit the
inference (``inference.sample_consistent``).

``evaluate`` gives every legal card's expected round margin (own side's points
minus the other sides' mean), the quantity ``choose`` maximises: the points
so far plus the counting estimate of the move early on, the exact final
margin (averaged over worlds) in the endgame. Hints and ``xeri review`` read it.

``early=rollout`` (the level) plays each legal card in 2,048 worlds dealt from the
seat's view and finishes the deal with the compiled expert (each other seat: the
style it showed, below) (``xeri.fast.rollout_values``, reached through the ``xeri.playouts`` entry points:
the bots never import numba); ``sampler=kernel`` deals those worlds in the kernel
too, ``python`` with ``sample_consistent`` (three quarters of the time of 256 worlds went to it).

The rollouts read the others' plays (``opponent_model``): ``model`` plays each other
seat as the style its finished deals fit (the expert, greedy, random, or a style
of its own, rolled out as the expert), and ``weigh`` weights each world by how
likely it makes the deal's plays so far under that style (a play off the style's
best cards keeps ``weigh`` of its weight): PIMC with inference, as in Skat programs.

Budgets count worlds and playouts (reproducible: the same seed gives the same
moves on any machine); ``seconds`` adds a wall-clock cap for interactive play.

The options named here by their spec keys are the fields of one frozen ``MasterConfig`` (``master_config``).
"""

from __future__ import annotations

import itertools
import math
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..cards import Card
from ..engine import SeatView
from ..events import Event
from ..rules import Ruleset
from ..scoring import margin
from .determinize import Determinizer
from .endgame import Solver
from .expert import ExpertBot
from .inference import lacked_indices, lacked_ranks, sample_consistent
from .ismcts import SearchStats, rollout_playout
from .master_config import Early, EndgameWorlds, MasterConfig, Partner, Sampler, SearchOpponents
from .match_value import at_stake, outcome_table
from .opponent_model import MODELS, WIDE_MODELS, Decision, OpponentModel, deal_decisions
from .playouts import offered_playout
from .sim import SimState, new_state
from .style_fit import StyleFit

#: The exact search starts when at most this many cards are left in the hands (and the talon is empty).
ENDGAME_CARDS = 12
#: Worlds per call of the compiled rollouts: the ``seconds`` cap is checked between batches.
_BATCH = 16
#: Worlds per call when the kernel deals them (``sampler=kernel``).
_KERNEL_BATCH = 128
#: The endgame solves every placement of the unseen cards when there are at most this many (``endworlds=weighted``).
ENUMERATE = 64
#: Else it deals this many worlds in the kernel and solves ``worlds`` of them, drawn by their weights.
ENDGAME_DEALT = 256
#: An enumerated world where a seat holds a rank it passed on keeps this much of its weight (the kernel deals
#: such worlds again, ``sample_consistent``).
LACK_WEIGHT = 0.1


def placement_count(det: Determinizer) -> int:
    """How many ways the unseen cards can be placed (the other hands, face-down pile cards, face-down cards
    taken, the talon), as sets: the multinomial coefficient of the places' sizes."""
    sizes = [*det.need, len(det.face_down_at), *det.hidden_taken, det.talon_need]
    count = math.factorial(len(det.pool))
    for k in sizes:
        count //= math.factorial(k)
    return count


def placements(det: Determinizer) -> Iterator[tuple[list[list[int]], list[int], list[int]]]:
    """Every placement of the unseen cards of an endgame (the talon empty): the hands, the pile with its face-down
    cards filled in, and the points so far per side with the face-down cards taken counted in."""
    if det.talon_need:
        raise ValueError("placements are for the endgame: the talon must be empty")
    values = det.rules.values
    groups = [k for k in det.need] + [len(det.face_down_at)] + list(det.hidden_taken)

    def fill(pool: tuple[int, ...], g: int) -> Iterator[list[tuple[int, ...]]]:
        if g == len(groups):
            yield []
            return
        for chosen in itertools.combinations(pool, groups[g]):
            rest = tuple(c for c in pool if c not in chosen)
            for tail in fill(rest, g + 1):
                yield [chosen, *tail]

    n = len(det.need)
    for parts in fill(tuple(det.pool), 0):
        hands = [det.fixed[s] + list(parts[s]) for s in range(n)]
        pile = det.pile[:]
        for i, c in zip(det.face_down_at, parts[n], strict=True):
            pile[i] = c
        pts = det.pts[:]
        for side, taken in enumerate(parts[n + 1 :]):
            pts[side] += sum(values[c] for c in taken)
        yield hands, pile, pts


def _compiled_rollouts(wait: bool) -> tuple[Callable[..., list[list[float]]] | None, bool]:
    """The compiled expert rollouts (``xeri.fast``, the ``fast`` extra) or None, and whether that answer is final.

    Loading numba takes seconds. ``wait`` loads them now (the reproducible mode: every decision the same);
    otherwise (a wall-clock cap) a background thread loads them and (None, False) is the answer meanwhile.
    """
    global _LOADER
    if wait:
        return _load_rollouts(), True
    if _LOADER is None:
        _LOADER = threading.Thread(target=_load_rollouts, name="xeri-load-rollouts", daemon=True)
        _LOADER.start()
    return (None, False) if _LOADER.is_alive() else (_load_rollouts(), True)


def _load_rollouts() -> Callable[..., list[list[float]]] | None:
    try:
        return offered_playout("compiled-expert")
    except ValueError:
        return None


_LOADER: threading.Thread | None = None

#: What to tell a player about a bot's own strength (its ``status``), once each: its first moves may come before
#: numba has loaded (or, on a fresh install, compiled) its rollouts. The master reports ``warming`` and ``full``;
#: the strong level, where it plays a master (3 players), ``strong-warming`` and ``strong-full``.
NOTICES = {
    "warming": "The master is warming up: until its rollouts are compiled (once, about 18 s of CPU on a fresh "
               "install) it plays by the counting rules, a level below its best.",
    "full": "The master's rollouts are ready: the full master plays from now on.",
    "strong-warming": "The strong level is warming up: until its rollouts are compiled (once, about 18 s of CPU on "
                      "a fresh install) it plays by the counting rules, a little below its level.",
    "strong-full": "The strong level's rollouts are ready: it plays at its full level from now on.",
}


def strength_news(status: str | None, told: set[str]) -> str | None:
    """The status to tell the player of now (a key of ``NOTICES``), or None; ``told`` keeps what was told.

    A warming status is told the first time; a full one once, and only after its own warming one (a bot that
    was itself from the start says nothing)."""
    if status not in NOTICES or status in told:
        return None
    if status.endswith("full") and status.removesuffix("full") + "warming" not in told:
        return None
    told.add(status)
    return status


def _no_time_for_another(deadline: float | None, began: float, units: int) -> bool:
    """Under a wall-clock cap, whether to stop after ``units`` worlds (or batches) begun at ``began``: when the next,
    as long as their mean, would end past ``deadline``. The move then ends near the cap, not one unit past it (a
    3-player endgame world takes up to a tenth of a second, more on a busy machine)."""
    if deadline is None:
        return False
    now = time.perf_counter()
    return now + (now - began) / units >= deadline


class MasterBot:
    """Counting rules with inference early, exact minimax per world in the last cards."""

    name = "master"

    def __init__(self, config: MasterConfig | None = None, *, seed: int | None = None) -> None:
        """A master playing ``config`` (the master level's by default), every random choice drawn from ``seed``."""
        config = MasterConfig() if config is None else config
        if not isinstance(config, MasterConfig):
            raise TypeError(f"config must be a MasterConfig, not {type(config).__name__}")
        self.config = config
        #: the budget in force: the config's, but a caller may lift the wall-clock cap (``xeri review`` does, so that
        #: a review depends on the seed alone)
        self.iterations, self.seconds = config.iterations, config.seconds
        self.play_out, self.smart = rollout_playout(config.pimc_rollout)
        # The rollouts play each other seat as the policy its finished deals fit (``opponent_model``).
        models = WIDE_MODELS if config.wide_styles else MODELS
        self.model = OpponentModel(models) if config.opponent_model else None
        #: ``fit``: each seat's style and noise inferred by Bayes (``style_fit``), in place of ``model``'s reading
        self.style_fit = StyleFit() if config.style_fit else None
        self._outcome_key: tuple[object, ...] | None = None
        self._outcome: list[list[float]] | None = None
        # The compiled rollouts come from the ``fast`` extra; without it the counting rules play early.
        self._card_values: Callable[..., list[list[float]]] | None = None
        self._no_rollouts = config.early is not Early.ROLLOUT  # set when the fast extra is missing
        self._expert = ExpertBot(seed, config.jack_keep, config.xeri_weight)
        self._rng = random.Random(seed)
        self.stats = SearchStats()
        #: how the last move before the endgame was played: ``full`` (the rollouts), ``warming`` (the counting
        #: rules while a background thread loads the rollouts), ``without`` (no ``fast`` extra), None (none yet)
        self.status: str | None = None
        if self.seconds is not None and not self._no_rollouts:
            # A wall-clock master (play, hints, a server) starts loading its rollouts now, not at its first move.
            self._card_values, final = _compiled_rollouts(wait=False)
            self._no_rollouts = final and self._card_values is None

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        values = self._values(view, history, self.outcome(view))
        # Ties go to the lowest card index: the choice depends on the cards, not on their order in the hand.
        return max(legal, key=lambda c: (values[c], -c.index))

    def outcome(self, view: SeatView) -> list[list[float]] | None:
        """What ``choose`` plays for: None for the round's points, or (``match``, when the round can change who
        wins the match) the table of the chance each result of the round wins it (``match_value.outcome_table``)."""
        if not self.config.play_for_match or not view.match_scores or not at_stake(view):
            return None
        assert view.seat is not None
        key = (view.match_scores, view.round_wins, view.round_number, view.target, view.seat % view.ruleset.sides)
        if key != self._outcome_key:
            # A wall-clock master does not wait for the match tables (a third of a second, once a process): a
            # background thread computes them and it plays for points until they are there.
            table = outcome_table(view, wait=self.seconds is None)
            if table is None and self.seconds is not None:
                return None
            self._outcome = table
            self._outcome_key = key
        return self._outcome

    def evaluate(self, view: SeatView, history: Sequence[Event]) -> dict[Card, float]:
        """Each legal card -> the expected round margin of this seat's side if it plays it (then plays on well).

        Always in points (hints and ``xeri review`` read it); ``choose`` may play for the match instead.
        """
        return self._values(view, history, None)

    def _values(
        self, view: SeatView, history: Sequence[Event], outcome: list[list[float]] | None,
    ) -> dict[Card, float]:
        """Each legal card's value: its expected round margin, or with ``outcome`` its chance of winning the match
        (in the exact endgame and the rollouts; the counting rules without them stay in points)."""
        start = time.perf_counter()
        cpu = time.process_time()
        det = self._determinizer(view, history)
        legal = [c.index for c in view.legal_moves]
        side = det.seat % det.rules.sides
        in_hands = sum(view.hand_counts)
        if view.talon_count == 0 and in_hands <= self.endgame_cards(view.ruleset):
            totals, done = self._exact(det, legal, side, start, history, outcome=outcome, view=view)
        elif view.talon_count and in_hands <= self.config.search_cards:
            totals, done = self._exact(det, legal, side, start, history, horizon=True)
        elif self.config.early is not Early.PIMC:
            nxt = (det.seat + 1) % det.rules.players
            lacks = lacked_ranks(history, det.rules.players)[nxt] if self.config.inference else set()
            now = margin(view.points, side)
            totals, done = [now + self._expert.score(view, Card.from_index(c), lacks) for c in legal], 0
            self._load_rollouts()
            if self.config.early is Early.ROLLOUT:
                self.status = ("full" if self._card_values is not None else
                               "without" if self._no_rollouts else "warming")
            if self._card_values is not None and (outcome is not None or self._worth_rolling(totals)):
                totals, done = self._rollouts(det, view, history, legal, side, start, totals, outcome)
        else:
            totals, done = self._sampled(det, legal, side, start)
        self.stats.iterations = done
        self.stats.seconds = time.perf_counter() - start
        self.stats.cpu_seconds = time.process_time() - cpu
        return {Card.from_index(c): totals[i] for i, c in enumerate(legal)}

    def _determinizer(self, view: SeatView, history: Sequence[Event]) -> Determinizer:
        """What this seat cannot see, to be sampled (the arena's cheater ``peek-master`` shows it the others' hands)."""
        return Determinizer(view, history)

    def _deadline(self, start: float) -> float | None:
        return None if self.seconds is None else start + self.seconds

    def _exact(
        self, det: Determinizer, legal: list[int], side: int, start: float, history: Sequence[Event],
        horizon: bool = False, outcome: list[list[float]] | None = None, view: SeatView | None = None,
    ) -> tuple[list[float], int]:
        """Mean minimax value over sampled worlds (one world when the unseen cards have one place only).

        ``horizon``: the talon is not empty; each world is searched to the end of the deal (``Solver``'s horizon).
        ``outcome``: each world's value is its chance of winning the match (``Solver.play_for``). With ``view``
        and ``endworlds=weighted`` the worlds are weighed by the others' plays (``_weighted_worlds``).
        """
        unique = sum(1 for k in (*det.need, det.talon_need, len(det.face_down_at), *det.hidden_taken) if k) <= 1
        n = 1 if unique else self.config.exact_worlds
        # Inference-weighted worlds only for the mid-deal search: the endgame's default stays as measured.
        lacks = lacked_indices(history, det.rules.players) if horizon and self.config.inference and not unique else None
        deadline = self._deadline(start)
        rng = self._rng
        totals = [0.0] * len(legal)
        done = 0
        solver: Solver | None = None  # one table for this decision's worlds (its keys hold whole hands)
        weighted = None
        if not unique and not horizon and self.config.endgame_worlds is EndgameWorlds.WEIGHTED and view is not None:
            weighted = self._weighted_worlds(det, view, history, legal, side)
        began = time.perf_counter()
        if weighted is not None:
            mass = 0.0
            for world, w in weighted:
                if solver is None:
                    solver = Solver(world)
                    solver.each_for_itself(self.config.each_for_itself)
                    if outcome is not None:
                        solver.play_for(outcome)
                values = solver.solve_root(world, side)
                for i, c in enumerate(legal):
                    totals[i] += w * values[c]
                mass += w
                done += 1
                if _no_time_for_another(deadline, began, done):
                    break
            return [t / mass for t in totals], done
        while done < n:
            world = det.sample(rng) if lacks is None else sample_consistent(det, lacks, rng)
            if solver is None:
                solver = Solver(world)
                if not horizon:
                    solver.each_for_itself(self.config.each_for_itself)
                if horizon and self.config.search_opponents is SearchOpponents.POLICY:
                    solver.policy_opponents(det.seen)
                if outcome is not None and not horizon:
                    solver.play_for(outcome)
            values = solver.solve_root(world, side, horizon)
            for i, c in enumerate(legal):
                totals[i] += values[c]
            done += 1
            if _no_time_for_another(deadline, began, done):
                break
        return [t / done for t in totals], done

    def _weighted_worlds(
        self, det: Determinizer, view: SeatView, history: Sequence[Event], legal: list[int], side: int,
    ) -> list[tuple[SimState, float]] | None:
        """The endgame's worlds, each with its weight: how likely it makes the deal's plays so far (as the
        rollouts weigh theirs), and whether it fits the inference (a seat holds no rank it passed on).

        Every placement of the unseen cards when there are at most ``ENUMERATE`` (Pişti with 2 players: the other
        hand and the face-down cards taken, 35 at most); else ``ENDGAME_DEALT`` worlds dealt in the kernel and
        ``worlds`` of them drawn by weight. None without the compiled kernel (the ``fast`` extra): uniform worlds.
        """
        if not self._load_rollouts():
            return None
        n = det.rules.players
        lacks = lacked_indices(history, n) if self.config.inference else [frozenset()] * n
        policy, eps, observed = self._reading(det, view, history)
        gone = [c.index for c in view.gone]
        run = self._world_values(det, lacks, legal, side, gone, 0.0, policy, observed, eps,
                                 self.deals_ahead(view.ruleset), None)
        if run is None:
            return None
        if placement_count(det) <= ENUMERATE:
            placed = list(placements(det))
            weights = run.weigh([hands for hands, _, _ in placed])
            for k, (hands, _, _) in enumerate(placed):
                if any(c % 13 in lacks[s] for s, hand in enumerate(hands) if s != det.seat for c in hand):
                    weights[k] *= LACK_WEIGHT
            return [(self._state(det, *p), w) for p, w in zip(placed, weights, strict=True)]
        dealt, weights = run.placements(self._rng.getrandbits(62), ENDGAME_DEALT)
        total = sum(weights)
        step = total / self.config.exact_worlds
        u = self._rng.random() * step
        picks: dict[int, int] = {}
        acc = 0.0
        for k, w in enumerate(weights):  # systematic resampling: ``worlds`` draws in proportion to the weights
            acc += w
            while u < acc and sum(picks.values()) < self.config.exact_worlds:
                picks[k] = picks.get(k, 0) + 1
                u += step
        return [(self._state(det, *dealt[k]), float(m)) for k, m in sorted(picks.items())]

    @staticmethod
    def _state(det: Determinizer, hands: list[list[int]], pile: list[int], pts: list[int]) -> SimState:
        """A world of the endgame (the talon is empty) as a simulator state."""
        return new_state(det.rules, det.dealer, [sorted(h) for h in hands], list(pile), [], det.turn,
                         last=det.last, cnt=det.cnt[:], pts=list(pts), xeris=det.xeris[:], seen=det.seen[:])

    def deals_ahead(self, rules: Ruleset) -> int:
        """The deals the rollouts play past this one: ``rdeals`` if set; else 2 in 2-player Pişti, whose 4-card
        hands leave the rollouts 8 plies and an unvalued pile that the next deal's leader often takes (measured
        +0.63 [+0.12, +1.15] over 1,000 deals, docs/reference/bots-measurements.md), and 1 elsewhere."""
        if self.config.rollout_deals is not None:
            return self.config.rollout_deals
        return 2 if rules.scoring == "pisti" and rules.players == 2 else 1

    def endgame_cards(self, rules: Ruleset) -> int:
        """When the exact endgame starts: ``endgame`` if set; else never with 4 players while the rollouts are
        there, and at ``ENDGAME_CARDS`` elsewhere or without them (no ``fast`` extra, or still loading under a
        wall-clock cap). With 4 the other three hands stay hidden to the last card: the minimax of each sampled
        world lets every seat see every hand and play perfectly, where the rollouts play each other seat in the
        style it showed; they measured better against the experts, and no worse than the deals could tell against
        a team of exact masters. With 3 and in 2-player Pişti they gained less against the experts and lost more
        to the masters (docs/reference/bots-measurements.md, "The last cards")."""
        if self.config.endgame_cards is not None:
            return self.config.endgame_cards
        if rules.players == 4 and self._load_rollouts():  # never there unless ``early=rollout``
            return 0
        return ENDGAME_CARDS

    def _load_rollouts(self) -> bool:
        """Whether the compiled rollouts are there, loading them if need be: at once in the reproducible mode (so
        that a bot made mid-round plays as one made before it), in a background thread under a wall-clock cap."""
        if self._card_values is None and not self._no_rollouts:
            self._card_values, final = _compiled_rollouts(wait=self.seconds is None)
            self._no_rollouts = final and self._card_values is None
        return self._card_values is not None

    @property
    def rollouts_ready(self) -> bool:
        """Whether ``early=rollout`` has its compiled rollouts (the ``fast`` extra), or plays the counting rules."""
        if self._card_values is None and not self._no_rollouts:
            self._card_values = _compiled_rollouts(wait=True)[0]
            self._no_rollouts = self._card_values is None
        return self._card_values is not None

    def _worth_rolling(self, counted: list[float]) -> bool:
        """Whether to roll out: always, or (``close``) when the counting rules' two best cards are that close."""
        if self.config.rollout_when_within <= 0:
            return True
        best, second = sorted(counted, reverse=True)[:2]
        return best - second <= self.config.rollout_when_within

    def _rollouts(
        self, det: Determinizer, view: SeatView, history: Sequence[Event], legal: list[int], side: int,
        start: float, counted: list[float], outcome: list[list[float]] | None = None,
    ) -> tuple[list[float], int]:
        """Mean round margin of each card over ``rworlds`` worlds, the rest played by the compiled expert.

        Worlds fit the inference; all cards share each world and its random stream. ``mix`` blends in the
        counting estimate. Worlds come in batches so that the ``seconds`` cap bounds the time. ``sampler=kernel``
        deals them in the kernel (``WorldValues``: 2,048 worlds cost what 256 dealt in Python did), ``python``
        with ``sample_consistent``; the same distribution. ``outcome``: every world is rolled out to the round's end
        and valued by its chance of winning the match (``match_value.outcome_table``), not mixed.
        """
        assert self._card_values is not None
        deals = 0 if outcome is not None else self.deals_ahead(view.ruleset)
        n = det.rules.players
        lacks = lacked_indices(history, n) if self.config.inference else [frozenset()] * n
        deadline = self._deadline(start)
        rng = self._rng
        gone = [c.index for c in view.gone]
        card_w = 0.1 + view.ruleset.most_cards_points / 60  # the counting rules' worth of a card taken
        totals = [0.0] * len(legal)
        done = 0
        most = self.config.rollout_worlds
        wanted = most if self.iterations is None else min(most, self.iterations)
        policy, eps, observed = self._reading(det, view, history)
        run = self._world_values(det, lacks, legal, side, gone, card_w, policy, observed, eps, deals, outcome)
        weight = 0.0
        began, batches = time.perf_counter(), 0
        while done < wanted:
            if run is not None:  # the worlds dealt in the kernel too
                # To the round's end a world costs up to four times as much: under a wall-clock cap, smaller
                # batches keep it close (the reproducible mode's batches do not change).
                size = _KERNEL_BATCH if deals or self.seconds is None else _KERNEL_BATCH // 4
                batch = min(size, wanted - done)
                if observed:
                    row, w = run.weighted(rng.getrandbits(62), batch)
                    rows = [row]
                    weight += w
                else:
                    rows = [run(rng.getrandbits(62), batch)]
                    weight += batch
            else:
                batch = min(_BATCH, wanted - done)
                worlds = [sample_consistent(det, lacks, rng) for _ in range(batch)]
                if outcome is None:
                    rows = self._card_values(worlds, legal, side, rng.getrandbits(62), gone, policy, deals, card_w)
                else:
                    rows = self._card_values(worlds, legal, side, rng.getrandbits(62), gone, policy, deals, card_w,
                                             outcome)
                weight += batch
            for row in rows:
                for i, v in enumerate(row):
                    totals[i] += v
            done += batch
            batches += 1
            if _no_time_for_another(deadline, began, batches):
                break
        mix = self.config.counting_mix if outcome is None else 0.0
        return [(1 - mix) * t / weight + mix * c for t, c in zip(totals, counted, strict=True)], done

    def _reading(
        self, det: Determinizer, view: SeatView, history: Sequence[Event],
    ) -> tuple[str | list[str], list[float], list[Decision]]:
        """What the others' plays say: each seat's rollout policy, the noise its plays weigh with, and the deal's
        plays so far that weigh the worlds (``opponent_model``)."""
        n = det.rules.players
        policy: str | list[str] = self.config.rollout_policy.value
        eps = [self.config.off_style_weight] * n
        finished, current = deal_decisions(history, n, face_down=self.config.weigh_face_down_plays)
        if self.style_fit is not None:
            readings = self.style_fit.readings(view, finished)
            policy = [r.rollout for r in readings]
            policy[det.seat] = self.config.rollout_policy.value
            # Each seat's plays weigh with the looser of ``weigh`` and its posterior mean noise.
            eps = [max(self.config.off_style_weight, r.noise) for r in readings]
        elif self.model is not None:
            fits = [self.model.models[name] for name in self.model.policies(view, finished)]
            policy = [m.rollout for m in fits]
            policy[det.seat] = self.config.rollout_policy.value
            # Each seat's plays weigh with the looser of ``weigh`` and its model's noise (``own``: a half).
            eps = [max(self.config.off_style_weight, m.noise) for m in fits]
        if isinstance(policy, list) and self.config.partner is Partner.MASTER and n == 4:
            mate = (det.seat + 2) % n
            policy[mate] = self.config.rollout_policy.value
            eps[mate] = max(self.config.off_style_weight, MODELS["own"].noise)
        observed = [d for d in current if d.seat != det.seat] if self.config.off_style_weight else []
        return policy, eps, observed

    def _world_values(
        self, det: Determinizer, lacks: Sequence[frozenset[int]], legal: list[int], side: int, gone: list[int],
        card_w: float, policy: str | list[str], observed: list[Decision], eps: list[float], deals: int,
        outcome: list[list[float]] | None,
    ) -> Any:
        """``sampler=kernel``'s rollouts of this decision (``WorldValues``), or None: Python deals the worlds.

        None too when an older install offers ``compiled-expert`` but not ``compiled-expert-worlds``.
        """
        if self.config.sampler is not Sampler.KERNEL:
            return None
        try:
            make = offered_playout("compiled-expert-worlds")
        except ValueError:
            return None
        if outcome is None:
            return make(det, lacks, legal, side, gone, policy, deals, card_w, observed=observed, eps=eps)
        return make(det, lacks, legal, side, gone, policy, deals, card_w, observed=observed, eps=eps, outcome=outcome)

    def _sampled(self, det: Determinizer, legal: list[int], side: int, start: float) -> tuple[list[float], int]:
        """Mean playout margin of each card over shared sampled worlds and random streams."""
        limit = self.iterations if self.iterations is not None else 1 << 62
        deadline = self._deadline(start)
        rng = self._rng
        rand = rng.random
        k = len(legal)
        totals = [0.0] * k
        done = 0
        rounds = 0
        play_out, smart = self.play_out, self.smart
        while done + k <= limit or rounds == 0:
            world = det.sample(rng)
            stream = [rand() for _ in range(60)]
            for i, card in enumerate(legal):
                st = world.copy()
                st.play(card)
                if st.turn >= 0:
                    play_out(st, iter(stream).__next__, smart)
                totals[i] += margin(st.pts, side)
            done += k
            rounds += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return [t / rounds for t in totals], done
