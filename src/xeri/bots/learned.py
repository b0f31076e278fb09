"""The ``learned`` bot: a small policy network trained by ``python -m xeri.train``, run in NumPy.

The weights (``xeri/data/learned.npz``, float16) are the actor of a MaskablePPO
policy: observation (``xeri.bots.encoding``, scaled by ``scale``) ->
tanh layers -> 52 card logits. The bot plays the legal card with the highest
logit, so it needs numpy but never torch. It was trained on 2-player rules;
at a table of 3 or 4, or with face-down pile cards, it plays the bot measured between hard and master there: with 3
players the master's rollouts on 256 worlds (``master:rworlds=256``), at 4-player Pişti the expert tuned for Pişti,
elsewhere the counting master (``master:early=expert``).
Like every bot it reads only its seat's view.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ..cards import DECK, Card
from ..engine import SeatView
from ..errors import XeriError
from ..events import Event
from .expert import PISTI_JACK_KEEP, PISTI_XERI_WEIGHT, ExpertBot
from .master import MasterBot
from .master_config import Early, MasterConfig

WEIGHTS = "learned.npz"


class LearnedPolicyError(XeriError):
    """The learned policy's weights or numpy are missing."""


def _np() -> Any:
    try:
        import numpy as np
    except ImportError:
        raise LearnedPolicyError(
            "the learned bot (the strong level) needs numpy: pip install 'xeri[learned]'") from None
    return np


def scale_vector(players: int, sides: int) -> Any:
    """Per-feature divisors that bring counts and points near 0..1 (one-hot parts stay as they are)."""
    np = _np()
    n, s = players, sides
    parts = [(52, 1.0), (52, 1.0), (52, 1.0), (1, 1.0), (52, 1.0), (n, 8.0), (1, 40.0), (s, 52.0), (s, 30.0),
             (s, 4.0), (s, 2.0), (n + 1, 1.0), (n, 1.0), (n + 1, 1.0)]
    return np.concatenate([np.full(k, 1.0 / d, np.float32) for k, d in parts])


class NumpyPolicy:
    """An MLP actor: ``logits(obs)`` for a batch or one observation; ``act(obs, mask)`` picks the best legal card."""

    def __init__(self, layers: Sequence[tuple[Any, Any]], scale: Any) -> None:
        np = _np()
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.scale = np.asarray(scale, np.float32)

    @classmethod
    def load(cls, path: str | Path | None = None, shipped: str = WEIGHTS) -> NumpyPolicy:
        """The weights at ``path``, or the package's file ``shipped`` (in ``xeri/data``)."""
        np = _np()
        try:
            if path is None:
                with resources.files("xeri").joinpath("data", shipped).open("rb") as f:
                    data = dict(np.load(f))
            else:
                data = dict(np.load(path))
        except (FileNotFoundError, OSError, ValueError) as exc:
            raise LearnedPolicyError(f"cannot read the learned policy's weights: {exc}") from None
        count = int(data["layers"])
        return cls([(data[f"w{i}"], data[f"b{i}"]) for i in range(count)], data["scale"])

    def save(self, path: str | Path) -> None:
        np = _np()
        arrays = {"layers": np.array(len(self.layers)), "scale": self.scale}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w.astype(np.float16)
            arrays[f"b{i}"] = b.astype(np.float16)
        np.savez_compressed(path, **arrays)

    def logits(self, obs: Any) -> Any:
        np = _np()
        x = np.asarray(obs, np.float32) * self.scale
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.tanh(x)
        return x

    def act(self, obs: Any, mask: Any) -> Any:
        """The legal card (mask 1) with the highest logit; a batch gives one card per row."""
        np = _np()
        logits = self.logits(obs)
        return np.where(np.asarray(mask) > 0, logits, -np.inf).argmax(axis=-1)


@functools.cache
def default_policy(shipped: str = WEIGHTS) -> NumpyPolicy:
    return NumpyPolicy.load(shipped=shipped)


class LearnedBot:
    """Plays the shipped policy's best legal card; at 3 or 4 players, or with face-down pile cards, the bot measured
    to sit between the expert and the master there (docs/reference/bots-measurements.md, "Levels everywhere"):
    with 3 players the master's rollouts on ``rworlds`` worlds (the counting master is no better than the expert
    at that table), at 4-player Pişti the expert tuned for Pişti (the counting master is nearly the master
    there), elsewhere the counting master (``master:early=expert``: the expert's rules with inference, then the
    exact endgame)."""

    name = "learned"
    #: the package's weights file (``xeri/data``) when no ``weights`` is given
    shipped = WEIGHTS

    def __init__(self, seed: int | None = None, weights: str | None = None, fallback: str = "table",
                 rworlds: int = 256, seconds: float | None = None) -> None:
        self.policy = default_policy(self.shipped) if weights is None else NumpyPolicy.load(weights)
        if fallback not in ("table", "counting", "expert", "none"):
            raise ValueError("fallback must be table (by the table), counting (the counting master), expert, or none "
                             "(the network at every table its input fits: an exploiter's weights)")
        #: ``none``: the network plays every table (``xeri exploit`` trains such weights for 4 players too)
        self._network_everywhere = fallback == "none"
        if not isinstance(rworlds, int) or rworlds < 1:
            raise ValueError("rworlds must be a positive integer")
        # ``expert``: the fallback as it was before issue 28 (a level no stronger than hard at those tables);
        # ``counting``: the counting master at every table (issue 28's first fallback).
        # ``seconds``: the wall-clock cap of interactive play (``make_bot(..., interactive=True)``), for the masters.
        self._fallback: MasterBot | ExpertBot = (ExpertBot(seed=seed) if fallback in ("expert", "none")
                                                 else MasterBot(MasterConfig(early=Early.EXPERT, seconds=seconds),
                                                                seed=seed))
        #: with 3 players (``table``): the master's rollouts on few worlds, made at the first 3-player view (a
        #: capped master starts loading numba when it is made); without numba it plays the counting rules, as the
        #: master itself does (and with a cap, while numba loads)
        self._fallback3: MasterBot | ExpertBot | None = None if fallback == "table" else self._fallback
        self._seed, self._rworlds, self._seconds = seed, rworlds, seconds
        self._last_at3 = False
        #: at 4-player Pişti (``table``): the expert's rules tuned for Pişti (the counting master is nearly as
        #: strong as the master there, leaving no level between them)
        self._fallback_pisti4: MasterBot | ExpertBot = (
            ExpertBot(seed=seed, jack_keep=PISTI_JACK_KEEP, xeri_weight=PISTI_XERI_WEIGHT) if fallback == "table"
            else self._fallback)

    @property
    def status(self) -> str | None:
        """How the last move was played, for the notices (``master.NOTICES``): ``strong-warming`` while the
        3-player master's rollouts load, ``strong-full`` once they are there; None at other tables."""
        fallback = self._fallback3
        if self._last_at3 and isinstance(fallback, MasterBot) and fallback.status in ("warming", "full"):
            return f"strong-{fallback.status}"
        return None

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        legal = view.legal_moves
        self._last_at3 = view.ruleset.players == 3
        if len(legal) == 1:
            return legal[0]
        if self._network_everywhere:
            return self._network(view)
        if view.ruleset.players == 3:
            if self._fallback3 is None:
                self._fallback3 = MasterBot(MasterConfig(rollout_worlds=self._rworlds, seconds=self._seconds),
                                            seed=self._seed)
            return self._fallback3.choose(view, history)
        if view.ruleset.players == 4 and view.ruleset.scoring == "pisti":
            return self._fallback_pisti4.choose(view, history)
        if view.ruleset.players != 2 or any(c is None for c in view.pile):
            return self._fallback.choose(view, history)
        return self._network(view)

    def _network(self, view: SeatView) -> Card:
        """The policy's best legal card (its input must fit the table's observation)."""
        from . import encoding

        obs = encoding.vector(view, ())
        if obs.shape[0] != self.policy.layers[0][0].shape[0]:
            raise LearnedPolicyError(f"these weights take {self.policy.layers[0][0].shape[0]} inputs, not the "
                                     f"{obs.shape[0]} of a {view.ruleset.players}-player table")
        return DECK[int(self.policy.act(obs, encoding.action_mask(view)))]


class DistilledBot(LearnedBot):
    """The distilled master (``python -m xeri.distill``): a small network fitted to the master's own moves in
    2-player classic, the master's fast stand-in (for ``xeri exploit``). Elsewhere it plays as the learned bot does
    (its fallbacks), since its network saw only that table."""

    name = "distilled"
    shipped = "distilled.npz"
