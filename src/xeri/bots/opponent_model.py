"""Which policy each other seat plays like, fitted to its plays in the round's finished deals (public log only).

The master's rollouts finish every world with a policy at each seat. Playing
the others as the expert undervalues lines that a weaker player walks into: a
greedy player spends a Jack on any pile and discards anything. Once a deal is
over, every card a seat held in it has been played face up, so each of its
plays there can be replayed exactly: its hand, the pile, the cards it had seen
and the hand sizes are all public by then. ``OpponentModel`` scores each model
of ``MODELS`` by the likelihood of those plays and keeps the likeliest, the
expert unless the log says otherwise. A model is a bot's best cards (ties
uniform) with a share of uniform noise: 5% for the expert and greedy, half
for ``own``, a player with a style of its own, partly the expert's. ``own``
keeps a player who often plays other cards than the expert would from being
taken for greedy; the rollouts play an ``own`` seat as the expert, and weigh
its plays loosely. There is no random style: no real opponent passes up what
it can take, and rolling one out as random misjudges every pile left to it
(OpenSpiel's ISMCTS and our search bots were taken for random when there was).
A play with one card in hand says nothing and is skipped.

``WIDE_MODELS`` adds two styles for the opponent pool (issue 43); the master fits them with ``wide=1`` (measured,
not the default: docs/reference/bots-measurements.md, "The opponent pool"). ``playout``: the search playout's rules
(take by rank, a Jack only for a pile worth ``ismcts.JACK_MIN``, discard the non-Jack of the rank best accounted
for), a cautious counter's. ``loose-greedy``: greedy's best cards with a quarter of noise, rolled out as greedy: a
searching player (the pool's PIMC with greedy rollouts plays greedy's best card in about 9 plays of 10, the
expert's in 6), which the three models above take for ``own`` and roll out as the expert.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card, Rank
from ..engine import SeatView
from ..events import BottomExposed, Dealt, Event, Played
from ..rules import takes
from .expert import ExpertBot
from .gain import captures, immediate_gain, pile_points, values_of
from .ismcts import JACK_MIN


@dataclass(frozen=True, slots=True)
class Model:
    """A style of play: whose best cards it plays (``best``), how often a uniformly random card instead
    (``noise``), and the compiled policy that plays it in the rollouts (``xeri.fast.policies.NAMES``)."""

    best: str
    noise: float
    rollout: str
    prior: float


#: the candidate models; ``prior`` in log odds: a seat plays like the expert unless its plays say otherwise
MODELS: dict[str, Model] = {
    "expert": Model("expert", 0.05, "expert", math.log(4.0)),
    "greedy": Model("greedy", 0.05, "greedy", 0.0),
    "own": Model("expert", 0.5, "expert", 0.0),
}
#: ``MODELS`` and the pool's styles (``OpponentModel(WIDE_MODELS)``, the master's ``wide=1``)
WIDE_MODELS: dict[str, Model] = {**MODELS, "playout": Model("playout", 0.05, "playout", 0.0),
                                "loose-greedy": Model("greedy", 0.25, "greedy", 0.0)}
#: the expert whose card scores the models read (``score`` draws nothing: the seed is never used)
_EXPERT = ExpertBot(0)
#: the noise of the expert and greedy models (the share of plays off their best cards they allow)
EPSILON = MODELS["expert"].noise


@dataclass(frozen=True, slots=True)
class Decision:
    """One play of a seat, with everything that seat knew then; ``hand`` is its hand then in a finished deal
    (``finished_decisions``), its plays from then on in the deal in progress (``current_decisions``)."""

    seat: int
    hand: tuple[Card, ...]
    played: Card
    pile: tuple[Card | None, ...]
    gone: frozenset[Card]
    hand_counts: tuple[int, ...]
    talon_count: int
    exposed: Card | None


_Snapshot = tuple[int, Card, tuple[Card | None, ...], frozenset[Card], tuple[int, ...], int, Card | None]


def finished_decisions(history: Sequence[Event], players: int) -> list[Decision]:
    """Every play in the round's finished deals (``deal_decisions``' first list)."""
    return deal_decisions(history, players)[0]


def current_decisions(history: Sequence[Event], players: int, face_down: bool = False) -> list[Decision]:
    """The plays of the deal in progress (``deal_decisions``' second list)."""
    return deal_decisions(history, players, face_down)[1]


def deal_decisions(
    history: Sequence[Event], players: int, face_down: bool = False,
) -> tuple[list[Decision], list[Decision]]:
    """The plays of the round's finished deals, each with the player's hand then (its plays from there on), and
    those of the deal in progress, whose ``hand`` holds only the cards the seat has played since (the rest of its
    hand then is the hand it holds now, unseen: a sampled world fills it in, ``xeri.fast`` weighs the world by it).
    Plays in progress made on a pile with face-down cards are left out unless ``face_down``: their piles hold
    ``None`` for each face-down card, which the player knew only as one of the cards it could not see (the
    expert prices it so, ``gain.pile_points``, and so does the kernel that weighs the worlds). One pass over the
    log serves both (the master reads both at each decision).
    """
    done: list[Decision] = []
    deal: list[_Snapshot] = []
    pile: list[Card | None] = []
    gone: set[Card] = set()
    sizes = [0] * players
    talon = 0
    exposed: Card | None = None
    for e in history:
        kind = type(e)
        if kind is Played:
            assert isinstance(e, Played)
            deal.append((e.seat, e.card, tuple(pile), frozenset(gone), tuple(sizes), talon, exposed))
            sizes[e.seat] -= 1
            gone.add(e.card)
            if exposed == e.card:
                exposed = None
            top = pile[-1] if pile else None
            if takes(e.card, top):
                pile = []
            else:
                pile.append(e.card)
        elif kind is Dealt:
            assert isinstance(e, Dealt)
            done.extend(_with_hands(deal))
            deal = []
            if e.first:
                pile = list(e.pile)
                gone = {c for c in e.pile if c is not None}
            sizes = list(e.sizes)
            talon = e.talon
        elif kind is BottomExposed:
            assert isinstance(e, BottomExposed)
            exposed = e.card
    return done, [d for d in _with_hands(deal, whole=False) if face_down or None not in d.pile]


def _with_hands(deal: list[_Snapshot], whole: bool = True) -> list[Decision]:
    out = []
    for i, (seat, card, pile, gone, sizes, talon, exposed) in enumerate(deal):
        hand = tuple(c for s, c, *_ in deal[i:] if s == seat)
        if whole and len(hand) != sizes[seat]:  # not a whole hand (a log that starts mid-deal): nothing to replay
            continue
        out.append(Decision(seat, hand, card, pile, gone, sizes, talon, exposed))
    return out


def _view(d: Decision, like: SeatView) -> SeatView:
    """The seat's view at the decision, as far as the bots' scores read it (the round's tallies are not used)."""
    return SeatView(
        ruleset=like.ruleset, seat=d.seat, dealer=like.dealer, turn=d.seat, hand=d.hand, pile=d.pile,
        hand_counts=d.hand_counts, talon_count=d.talon_count, captured_counts=like.captured_counts,
        xeris=like.xeris, points=like.points, exposed=d.exposed, exposed_holder=None, last_capturer=None,
        played=(), gone=d.gone, over=False,
    )


def _argmax_sets(view: SeatView) -> dict[str, set[Card]]:
    """Each bot's best cards in the view, ties included, as ``ExpertBot.choose`` and ``GreedyBot.choose`` find them,
    and the playout's (``ismcts.policy_card``: its discard's random start makes its ties uniform)."""
    scores = [_EXPERT.score(view, c) for c in view.hand]
    size = len(view.pile)
    gains = [(immediate_gain(view, c), size + 1 if captures(view, c) else 0) for c in view.hand]
    return {
        "expert": {c for c, x in zip(view.hand, scores, strict=True) if x >= max(scores) - 1e-9},
        "greedy": {c for c, g in zip(view.hand, gains, strict=True) if g == max(gains)},
        "playout": _playout_set(view),
    }


def _playout_set(view: SeatView) -> set[Card]:
    """The cards the search playout may play in the view: a rank match; a Jack on a pile worth ``JACK_MIN`` with it;
    else the non-Jacks of the rank the seat best accounts for (shown, or in its hand), fewer points first."""
    hand = view.hand
    top = view.top
    values = values_of(view)
    if top is not None:
        matches = {c for c in hand if c.rank is top.rank}
        if matches:
            return matches
        jacks = {c for c in hand if c.rank is Rank.JACK}
        if jacks and len(hand) > 1 and pile_points(view) + values[next(iter(jacks)).index] >= JACK_MIN:
            return jacks
    plain = [c for c in hand if c.rank is not Rank.JACK]
    if len(hand) == 1 or not plain:
        return set(hand)
    shown = [0] * 15
    for c in view.gone:
        shown[c.rank] += 1

    def key(card: Card) -> int:
        return (shown[card.rank] + sum(1 for d in hand if d.rank is card.rank)) * 8 - values[card.index]

    best = max(key(c) for c in plain)
    return {c for c in plain if key(c) == best}


def likelihood(model: Model, best: set[Card], played: Card, hand: int) -> float:
    """The chance ``model`` plays ``played`` from a hand of ``hand`` cards whose best cards (by its bot) are
    ``best`` (what ``xeri.fast.rollout_values.play_weights`` computes in the kernel)."""
    return (1 - model.noise) * (1 / len(best) if played in best else 0.0) + model.noise / hand


def log_likelihoods(decisions: Sequence[Decision], like: SeatView, players: int,
                    models: dict[str, Model] = MODELS) -> list[dict[str, float]]:
    """Per seat, each model's log-likelihood of that seat's decisions (0 for a seat with none)."""
    out = [dict.fromkeys(models, 0.0) for _ in range(players)]
    for d in decisions:
        k = len(d.hand)
        if k < 2:
            continue
        sets = _argmax_sets(_view(d, like))
        for name, model in models.items():
            out[d.seat][name] += math.log(likelihood(model, sets[model.best], d.played, k))
    return out


def _likeliest(fit: dict[str, float], models: dict[str, Model] = MODELS) -> str:
    return max(models, key=lambda name: fit[name] + models[name].prior)


class OpponentModel:
    """The likeliest model of each seat, kept between decisions: the fit changes only when a deal ends."""

    def __init__(self, models: dict[str, Model] = MODELS) -> None:
        self.models = models
        self._key: tuple[tuple[int, Card], ...] | None = None
        self._fit: list[str] = []

    def policies(self, view: SeatView, decisions: Sequence[Decision]) -> list[str]:
        """Per seat, the name of its likeliest model of ``self.models`` (``expert`` for this seat, and without
        evidence), from the finished deals' plays (``deal_decisions``' first list)."""
        assert view.seat is not None
        players = view.ruleset.players
        key = tuple((d.seat, d.played) for d in decisions)
        if key != self._key:
            self._fit = [_likeliest(f, self.models) for f in log_likelihoods(decisions, view, players, self.models)]
            self._key = key
        fit = self._fit[:]
        fit[view.seat] = "expert"
        return fit
