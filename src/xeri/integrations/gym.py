"""Xeri as a single-agent Gymnasium env; importing this module registers ``xeri/Xeri-v0``.

>>> import gymnasium, xeri.integrations.gym
>>> env = gymnasium.make("xeri/Xeri-v0", opponent="expert", players=2)

(or, without the import: ``gymnasium.make("xeri.integrations.gym:xeri/Xeri-v0")``).
An episode is one round. The agent plays ``seat`` (default 0); every other
seat, a partner in 4 players too, is an opponent that sees only its own seat:
a bot level or spec for ``xeri.bots.make_bot``, a callable
``f(observation, mask) -> card index``, or an object with
``act(observation, mask)`` (both given that seat's own tensor and mask). One
opponent plays every other seat; a sequence gives one per seat (length
``players - 1`` in seat order skipping the agent, or ``players`` with None at
the agent's seat). The observation is the agent's float32 tensor
(``xeri.bots.encoding``); ``info["action_mask"]`` and
``action_masks()`` (int8, 52; the sb3-contrib convention) mark the cards it may
play. On the terminal step the mask is all ones, so a vector env or masked
policy never sees an empty mask; the action is not used, and ``step()`` after the
end raises ``EpisodeOverError``. The reward, at the end, is its side's round
score minus the mean of the sides' scores. An illegal card ends the episode
with ``illegal_reward`` and ``info["illegal"] = True``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat, TypeAlias

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, encoding, make_bot
from ..cards import DECK
from ..engine import Round
from ..errors import XeriError
from ..rules import Ruleset, find_ruleset
from ..scoring import zero_sum
from ..seeds import bot_seed

ENV_ID = "xeri/Xeri-v0"
#: the domain tag of the opponents' seeds (xeri.seeds)
SEED_DOMAIN = "gym"

#: a bot spec, a callable ``f(observation, mask) -> card index`` or an object with ``act(observation, mask)``
Opponent: TypeAlias = "str | Callable[[np.ndarray, np.ndarray], Any] | Any"


class EpisodeOverError(XeriError, RuntimeError):
    """``step()`` on an episode that has ended (or not begun): call ``reset()``."""


class OpponentError(XeriError, ValueError):
    """An opponent that is not a bot spec, a callable or a policy, or that chose an illegal card."""


class _PolicySeat:
    """Adapts a callable or an ``act(observation, mask)`` policy to the bot interface, for one seat."""

    name = "policy"

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], Any], seat: int) -> None:
        self._fn = fn
        self._seat = seat

    def choose(self, view: Any, history: Any) -> Any:
        mask = encoding.action_mask(view)
        action = self._fn(encoding.vector(view, ()), mask)
        index = int(action)
        if not 0 <= index < 52 or not mask[index]:
            raise OpponentError(f"the opponent at seat {self._seat} chose {action!r}, not a legal card index")
        return DECK[index]


def _opponent_factory(opponent: Opponent, seat: int) -> Callable[[int], Bot]:
    """A function of the seed that builds this seat's opponent; a bad opponent fails here."""
    if isinstance(opponent, str):
        make_bot(opponent, seed=0)
        return lambda seed: make_bot(opponent, seed=seed)
    act = getattr(opponent, "act", None)
    fn = act if callable(act) else opponent if callable(opponent) else None
    if fn is None:
        raise OpponentError(f"an opponent is a bot spec, a callable or an object with act(observation, mask), "
                            f"not {opponent!r}")
    return lambda _seed: _PolicySeat(fn, seat)


def _per_seat(opponent: Opponent | Sequence[Opponent | None], players: int, seat: int) -> list[Opponent | None]:
    if isinstance(opponent, str) or not isinstance(opponent, Sequence):
        return [None if s == seat else opponent for s in range(players)]
    given = list(opponent)
    if len(given) == players - 1:
        given.insert(seat, None)
    if len(given) != players or given[seat] is not None:
        raise OpponentError(f"give one opponent per other seat ({players - 1}), or {players} with None at "
                            f"the agent's seat {seat}")
    if any(given[s] is None for s in range(players) if s != seat):
        raise OpponentError("every seat but the agent's needs an opponent")
    return given


class XeriEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One round against bots, the agent at ``seat``."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (as gymnasium.Env)

    def __init__(self, opponent: Opponent | Sequence[Opponent | None] = "expert", players: int = 2,
                 ruleset: str | Ruleset = "classic",
                 seat: int = 0, perfect_recall: bool = False, illegal_reward: float = -50.0,
                 render_mode: str | None = None) -> None:
        self.ruleset = find_ruleset(ruleset, players=players) if isinstance(ruleset, str) else ruleset
        if not 0 <= seat < self.ruleset.players:
            raise ValueError(f"seat {seat} is not a seat of a {self.ruleset.players}-player game")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.opponent = opponent
        # A bad spec or opponent fails here, not at the first reset.
        self._factories = [None if o is None else _opponent_factory(o, s)
                           for s, o in enumerate(_per_seat(opponent, self.ruleset.players, seat))]
        self.seat = seat
        self.perfect_recall = perfect_recall
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, encoding.HIGH, (encoding.size(self.ruleset, perfect_recall),),
                                            np.float32)
        self.action_space = spaces.Discrete(52)
        self._round: Round | None = None
        self._bots: list[Bot | None] = []
        self._done = True
        self._mask = np.ones(52, np.int8)

    def _obs_info(self) -> tuple[np.ndarray, dict[str, Any]]:
        assert self._round is not None
        view = self._round.view(self.seat)
        log = self._round.log_for(self.seat) if self.perfect_recall else ()
        self._mask = np.ones(52, np.int8) if self._done else encoding.action_mask(view)
        return encoding.vector(view, log, self.perfect_recall), {"action_mask": self._mask.copy()}

    def action_masks(self) -> np.ndarray:
        """The int8 mask of the cards the agent may play now (all ones once the episode has ended)."""
        return self._mask.copy()

    def _bots_play(self) -> None:
        rnd = self._round
        assert rnd is not None
        while not rnd.is_over and rnd.turn != self.seat:
            seat = rnd.turn
            assert seat is not None
            bot = self._bots[seat]
            assert bot is not None
            rnd.play(bot.choose(rnd.view(seat), rnd.log_for(seat)), seat=seat)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        n = self.ruleset.players
        dealer = int((options or {}).get("dealer", n - 1))
        deal_seed = int(self.np_random.integers(0, 2**63 - 1))
        # Bots are seeded one-way from the deal seed (xeri.seeds): a bot's seed opens nothing of the deal.
        self._bots = [None if f is None else f(bot_seed(deal_seed, s, domain=SEED_DOMAIN))
                      for s, f in enumerate(self._factories)]
        self._round = Round.new(self.ruleset, dealer, deal_seed)
        self._bots_play()
        self._done = self._round.is_over
        return self._obs_info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        rnd = self._round
        if rnd is None or self._done:
            raise EpisodeOverError("the episode has ended (or not begun): call reset() before step()")
        index = int(action)
        card = DECK[index] if 0 <= index < 52 else None
        if card is None or card not in rnd.legal_moves:
            self._done = True
            obs, info = self._obs_info()
            return obs, self.illegal_reward, True, False, {**info, "illegal": True}
        rnd.play(card, seat=self.seat)
        self._bots_play()
        self._done = rnd.is_over
        obs, info = self._obs_info()
        if self.render_mode == "human":
            self.render()
        if rnd.is_over:
            assert rnd.scores is not None
            return obs, zero_sum(rnd.ruleset, [s.total for s in rnd.scores])[self.seat], True, False, info
        return obs, 0.0, False, False, info

    def render(self) -> str | None:
        """The agent's own view of the table: returned ("ansi") or printed ("human")."""
        if self.render_mode is None or self._round is None:
            return None
        text = encoding.observation_string(self._round.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="xeri.integrations.gym:XeriEnv")
