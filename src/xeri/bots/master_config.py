"""The master bot's options: one frozen value, checked once, read from a spec (``master:early=expert,rworlds=256``).

The spec keys stay short and as measured in docs/reference/bots-measurements.md; each maps to a field with a name
that says what it is (``SPEC_KEYS``). Flags are bools (``1``/``0`` in a spec), choices enums (their words in a spec).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from .ismcts import ROLLOUTS, search_budget


class Early(StrEnum):
    """How the master plays before the exact endgame."""

    #: each legal card rolled out to the deal's end by the compiled expert (the ``fast`` extra; the level)
    ROLLOUT = "rollout"
    #: the expert's card counting with inference (what ``rollout`` falls back to without the ``fast`` extra)
    EXPERT = "expert"
    #: determinized Monte Carlo playouts (measured weaker, kept for research)
    PIMC = "pimc"


class RolloutPolicy(StrEnum):
    """The compiled policy that plays the master's own seat in the rollouts (and every seat without the model)."""

    EXPERT = "expert"
    #: the expert tuned for Pişti
    EXPERT_PISTI = "expert-pisti"
    GREEDY = "greedy"
    PLAYOUT = "playout"


class Sampler(StrEnum):
    """Where the rollouts' worlds are dealt: the same distribution either way."""

    #: in the compiled kernel (2,048 worlds cost what 256 dealt in Python did)
    KERNEL = "kernel"
    #: in Python (``inference.sample_consistent``)
    PYTHON = "python"


class EndgameWorlds(StrEnum):
    """Which worlds the exact endgame solves where cards are still hidden (Pişti's face-down cards, 3 or 4 players)."""

    #: dealt in the kernel and weighed by the others' plays (every placement when there are few)
    WEIGHTED = "weighted"
    #: ``exact_worlds`` of them drawn at random
    UNIFORM = "uniform"


class Partner(StrEnum):
    """How the rollouts play the partner, with 4 players."""

    #: the style its plays fit, like the other seats
    MODEL = "model"
    #: as this seat (the rollout policy), its plays weighed loosely: for a partner that is itself a master
    MASTER = "master"


class SearchOpponents(StrEnum):
    """How the others play in the mid-deal search (``search_cards``)."""

    #: a fixed policy
    POLICY = "policy"
    #: minimax (they would know our hand in each world: measured worse)
    MINIMAX = "minimax"


@dataclasses.dataclass(frozen=True)
class MasterConfig:
    """Every option of ``MasterBot``; the defaults are the master level. Checked once, when made.

    Built from Python with these names and types, or from a spec's keys with ``from_spec``. A flag also takes
    ``1``/``0`` and a choice its word (``"expert"``), as a spec gives them; each is stored as a bool or an enum.
    """

    #: Worlds or playouts per move (spec ``iterations``): it caps ``rollout_worlds`` and is ``early=pimc``'s
    #: playouts. A budget in worlds gives the same moves on any machine. None: no cap but ``seconds``.
    iterations: int | None = 2048
    #: A wall-clock cap per move in seconds (spec ``seconds``), for interactive play; None: the reproducible mode.
    seconds: float | None = None
    #: What plays before the exact endgame (spec ``early``).
    early: Early = Early.ROLLOUT
    #: Read the others' plays (spec ``infer``): a seat that passed on the top card's rank lacks it. Measured better.
    inference: bool = True
    #: The counting rules' worth of keeping a Jack (spec ``jack_keep``): 3, not the expert's 5, measured better.
    jack_keep: float = 3.0
    #: The counting rules' weight of a xeri the next player may make (spec ``xeri_weight``).
    xeri_weight: float = 0.5
    #: Worlds each legal card is rolled out in (spec ``rworlds``), at most ``iterations``.
    rollout_worlds: int = 2048
    #: Deals the rollouts play past this one (spec ``rdeals``; 0: to the round's end, measured worse). None: 2 in
    #: 2-player Pişti, whose short hands leave the rollouts few plies, 1 elsewhere (``MasterBot.deals_ahead``).
    rollout_deals: int | None = None
    #: The policy of this seat in the rollouts (spec ``rpolicy``).
    rollout_policy: RolloutPolicy = RolloutPolicy.EXPERT
    #: Roll out only when the counting rules' two best cards are within this many points (spec ``close``), to
    #: save time; 0: always.
    rollout_when_within: float = 0.0
    #: The share of the counting estimate blended into the rollouts' values (spec ``mix``), 0 to 1.
    counting_mix: float = 0.0
    #: Where the rollouts' worlds are dealt (spec ``sampler``).
    sampler: Sampler = Sampler.KERNEL
    #: Roll each other seat out as the style its finished deals fit (spec ``model``; ``opponent_model``), not as
    #: ``rollout_policy``.
    opponent_model: bool = True
    #: The model may also fit the opponent pool's styles (spec ``wide``; ``opponent_model.WIDE_MODELS``): the search
    #: playout's, a cautious counter's, and a loose greedy, a searching player's.
    wide_styles: bool = False
    #: Infer each other seat's style and noise by Bayes from its finished deals' plays (spec ``fit``;
    #: ``style_fit``): its worlds' weights are tempered by how often it plays off its style's best cards, not
    #: weighed as the expert's. Replaces the likeliest-model reading; measured, not the default
    #: (docs/reference/bots-measurements.md, "The opponent pool").
    style_fit: bool = False
    #: Weigh each world by how likely it makes the deal's plays so far (spec ``weigh``): a play off the seat's
    #: style keeps this much of its weight; 0: not weighted (the kernel sampler only). PIMC with inference.
    off_style_weight: float = 0.1
    #: Weigh the plays made onto face-down pile cards too (spec ``downplays``; Pişti's first capture).
    weigh_face_down_plays: bool = True
    #: How the rollouts play the partner with 4 players (spec ``partner``; ``registry.partnered`` sets ``master``).
    partner: Partner = Partner.MODEL
    #: The playout of ``early=pimc`` (spec ``rollout``), one of ``ismcts.ROLLOUTS``.
    pimc_rollout: str = "smart"
    #: The exact endgame starts once at most this many cards are in the hands and the talon is empty (spec
    #: ``endgame``; 0: never). None: ``MasterBot.endgame_cards``' default for the table.
    endgame_cards: int | None = None
    #: Worlds the exact search solves where the unseen cards have several places (spec ``worlds``).
    exact_worlds: int = 24
    #: Which worlds the exact endgame solves where cards are still hidden (spec ``endworlds``).
    endgame_worlds: EndgameWorlds = EndgameWorlds.WEIGHTED
    #: With 3 players, each side plays for itself in the endgame (spec ``maxn``); off: both others play against
    #: this seat (paranoid minimax, exact with two sides only).
    each_for_itself: bool = True
    #: When the round can change who wins the match, play for the chance of winning it (spec ``match``), not for
    #: the round's points.
    play_for_match: bool = True
    #: Research (measured no better): search each sampled world to the deal's end once at most this many cards are
    #: in the hands (spec ``search``); 0: off.
    search_cards: int = 0
    #: How the others play in that search (spec ``opponents``).
    search_opponents: SearchOpponents = SearchOpponents.POLICY

    def __post_init__(self) -> None:
        iterations, seconds = search_budget(self.iterations, self.seconds)
        put = object.__setattr__  # the one place a frozen config is written: when it is checked
        put(self, "iterations", iterations)
        put(self, "seconds", seconds)
        for field in dataclasses.fields(self):
            kind = _CHOICES.get(field.name)
            if kind is not None:
                put(self, field.name, _choice(field.name, kind, getattr(self, field.name)))
            elif field.name in _FLAGS:
                put(self, field.name, _flag(field.name, getattr(self, field.name)))
            elif field.name in _NUMBERS:
                put(self, field.name, _number(field.name, getattr(self, field.name)))
        _count("rollout_worlds", self.rollout_worlds, least=1)
        _count("exact_worlds", self.exact_worlds, least=1)
        _count("rollout_deals", self.rollout_deals, least=0, none=True)
        _count("endgame_cards", self.endgame_cards, least=0, none=True)
        _count("search_cards", self.search_cards, least=0)
        if self.pimc_rollout not in ROLLOUTS:
            raise ValueError(f"{_label('pimc_rollout')} must be one of {', '.join(ROLLOUTS)}, not "
                             f"{self.pimc_rollout!r}")
        if not 0.0 <= self.counting_mix <= 1.0:
            raise ValueError(f"{_label('counting_mix')} must be between 0 and 1, not {self.counting_mix}")
        if not 0.0 <= self.off_style_weight <= 1.0:
            raise ValueError(f"{_label('off_style_weight')} must be between 0 (off) and 1, not "
                             f"{self.off_style_weight}")
        if self.style_fit and (not self.opponent_model or self.wide_styles):
            raise ValueError(f"{_label('style_fit')} reads the styles itself: it needs {_label('opponent_model')} on "
                             f"and {_label('wide_styles')} off")
        if self.rollout_when_within < 0:
            raise ValueError(f"{_label('rollout_when_within')} must be 0 (always roll out) or a positive number of "
                             f"points, not {self.rollout_when_within}")

    @classmethod
    def from_spec(cls, params: Mapping[str, Any]) -> MasterConfig:
        """The config of a spec's parameters (``{"early": "expert", "rworlds": 256}``), by their spec keys."""
        unknown = [key for key in params if key not in SPEC_KEYS]
        if unknown:
            raise ValueError(f"unknown master option {unknown[0]!r}; the options are: {', '.join(SPEC_KEYS)}")
        return cls(**{SPEC_KEYS[key]: value for key, value in params.items()})


#: spec key -> ``MasterConfig`` field: the short keys that specs, docs and measurements use
SPEC_KEYS: dict[str, str] = {
    "iterations": "iterations", "seconds": "seconds", "early": "early", "infer": "inference",
    "jack_keep": "jack_keep", "xeri_weight": "xeri_weight", "rworlds": "rollout_worlds", "rdeals": "rollout_deals",
    "rpolicy": "rollout_policy", "close": "rollout_when_within", "mix": "counting_mix", "sampler": "sampler",
    "model": "opponent_model", "wide": "wide_styles", "fit": "style_fit", "weigh": "off_style_weight",
    "downplays": "weigh_face_down_plays",
    "partner": "partner", "rollout": "pimc_rollout", "endgame": "endgame_cards", "worlds": "exact_worlds",
    "endworlds": "endgame_worlds", "maxn": "each_for_itself", "match": "play_for_match", "search": "search_cards",
    "opponents": "search_opponents",
}
_SPEC_KEY = {field: key for key, field in SPEC_KEYS.items()}
_CHOICES: dict[str, type[StrEnum]] = {
    "early": Early, "rollout_policy": RolloutPolicy, "sampler": Sampler, "partner": Partner,
    "endgame_worlds": EndgameWorlds, "search_opponents": SearchOpponents,
}
_FLAGS = frozenset({"inference", "opponent_model", "wide_styles", "style_fit", "weigh_face_down_plays",
                    "each_for_itself", "play_for_match"})
_NUMBERS = frozenset({"jack_keep", "xeri_weight", "rollout_when_within", "counting_mix", "off_style_weight"})


def _label(field: str) -> str:
    """The option as a user may have written it: the field, and its spec key where that differs."""
    key = _SPEC_KEY[field]
    return field if key == field else f"{field} (spec {key})"


def _choice(field: str, kind: type[StrEnum], value: object) -> StrEnum:
    """A choice: its enum, or its word as a spec writes it."""
    if isinstance(value, str):
        try:
            return kind(value)
        except ValueError:
            pass
    words = " or ".join(member.value for member in kind)
    raise ValueError(f"{_label(field)} must be {words}, not {value!r}")


def _flag(field: str, value: object) -> bool:
    """A flag: a bool, or 1/0 as a spec writes it (anything else is refused rather than read as true)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise ValueError(f"{_label(field)} must be 1 (on) or 0 (off), not {value!r}")


def _number(field: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{_label(field)} must be a number, not {value!r}")
    return float(value)


def _count(field: str, value: object, least: int, none: bool = False) -> None:
    if value is None and none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        what = "a positive integer" if least else "a non-negative integer"
        raise ValueError(f"{_label(field)} must be {what}{' or unset' if none else ''}, not {value!r}")
