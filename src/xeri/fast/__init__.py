"""The batch simulator: many rounds at once, compiled with numba, for rollouts and RL.

It follows the full rules of the presets without face-down pile cards or an
exposed bottom card (``classic``, ``classic-points``, ``cardgames``,
``berman``) for 2, 3 and 4 players; ``tests/fast/test_fast.py`` checks it against
the reference engine round by round. Needs the ``fast`` extra (numba, numpy).

>>> from xeri.fast import simulate
>>> out = simulate(10_000, "classic", policies=("greedy", "random"), seed=1)
>>> out.totals.shape             # (rounds, sides)
(10000, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

try:
    import numba
    import numpy as np

    from . import kernels
    from .layout import R_CARDS, R_JXERIS, R_POINTS, R_TOTAL, R_XERIS, pack_config
    from .notice import compiling
    from .policies import NAMES
except ImportError as exc:  # pragma: no cover - depends on the environment
    from ..errors import XeriError

    raise XeriError(f"xeri.fast needs the 'fast' extra: pip install 'xeri[fast]' ({exc})") from None

from ..cards import DECK, Card
from ..engine import Deal
from ..errors import XeriError
from ..rules import Ruleset, find_ruleset
from ..scoring import card_values

#: the kernels' policies by name (``xeri.fast.policies``: each is the twin of a Python policy of the same name)
POLICIES: dict[str, int] = NAMES
#: flag values in ``FastRounds.flags``
FLAG_NAMES = ("none", "capture", "xeri", "jack_xeri")
#: the smallest types that fit: cards, owners, flags (-1..51) and scores (a side's total is under 32,767)
RECORD_DTYPE = np.int8
RESULT_DTYPE = np.int16


class FastRulesError(XeriError):
    """A ruleset or policy the fast simulator does not cover."""


@dataclass(frozen=True)
class FastRounds:
    """Results of a batch, one row per round; per-side arrays are (rounds, sides), int16.

    ``owners[r, card]`` is the side that captured the card (-1: nobody), and
    with ``record``, ``deals[r]`` is the deal (hands in seat order, pile bottom
    first, talon in dealing order), ``moves[r]`` the cards played in order
    (-1 after the last) and ``flags[r]`` what each move did (``FLAG_NAMES``), all int8 (208 bytes a round).
    """

    ruleset: Ruleset
    dealers: Any
    totals: Any
    cards: Any
    points: Any
    xeris: Any
    jack_xeris: Any
    owners: Any = None
    deals: Any = None
    moves: Any = None
    flags: Any = None

    def __len__(self) -> int:
        return int(self.totals.shape[0])

    def deal(self, r: int) -> Deal:
        """Round ``r``'s deal as the engine's ``Deal`` (needs ``record``)."""
        if self.deals is None:
            raise FastRulesError("the batch was run without record=True")
        n, h, p = self.ruleset.players, self.ruleset.hand_size, self.ruleset.pile_size
        row = [DECK[int(i)] for i in self.deals[r]]
        hands = tuple(tuple(row[s * h : (s + 1) * h]) for s in range(n))
        return Deal(hands=hands, pile=tuple(row[n * h : n * h + p]), talon=tuple(row[n * h + p :]))

    def moves_of(self, r: int) -> list[Card]:
        """The cards played in round ``r``, in order (needs ``record``)."""
        return [DECK[int(i)] for i in self.moves[r] if i >= 0]


def _ruleset(ruleset: Ruleset | str, players: int | None) -> Ruleset:
    rs = find_ruleset(ruleset, **({"players": players} if players else {})) if isinstance(ruleset, str) else ruleset
    if players and rs.players != players:
        rs = rs.replace(players=players)
    if rs.pile_face_down or rs.exposed_bottom or rs.scoring != "xeri":
        raise FastRulesError(
            f"the fast simulator covers rules without face-down pile cards or an exposed bottom card "
            f"and with xeri scoring; {rs.describe()} is not one of them"
        )
    return rs


def config_array(ruleset: Ruleset) -> Any:
    """The ruleset as the int64 array the kernels read."""
    r = ruleset
    return pack_config(r.players, r.sides, r.hand_size, r.pile_size, r.initial_pile, r.jack_xeri_any, r.xeri_points,
                       r.jack_xeri_points, r.most_cards_points, r.last_card_xeri)


def _policies(policies: str | Sequence[str], players: int) -> Any:
    names = [policies] * players if isinstance(policies, str) else list(policies)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise FastRulesError(f"{len(names)} policies given for {players} players")
    for name in names:
        if name not in POLICIES:
            raise FastRulesError(f"unknown fast policy {name!r}; policies are: {', '.join(POLICIES)}")
    return np.array([POLICIES[name] for name in names], dtype=np.int64)


def _chunks(rounds: int) -> int:
    threads = numba.get_num_threads()
    return max(1, min(rounds, threads * 8))


def _split(rs: Ruleset, dealers: Any, results: Any, **extra: Any) -> FastRounds:
    s = rs.sides
    return FastRounds(
        ruleset=rs, dealers=dealers, totals=results[:, :s, R_TOTAL], cards=results[:, :s, R_CARDS],
        points=results[:, :s, R_POINTS], xeris=results[:, :s, R_XERIS],
        jack_xeris=results[:, :s, R_JXERIS], **extra,
    )


def simulate(
    rounds: int,
    ruleset: Ruleset | str = "classic",
    players: int | None = None,
    policies: str | Sequence[str] = "random",
    seed: int = 0,
    first_dealer: int = 0,
    record: bool = False,
) -> FastRounds:
    """Deal and play ``rounds`` rounds; round ``i`` is dealt by ``first_dealer + i``.

    The same seed gives the same rounds whatever the number of threads.
    """
    rs = _ruleset(ruleset, players)
    if rounds < 1:
        raise FastRulesError("rounds must be at least 1")
    cfg, pol = config_array(rs), _policies(policies, rs.players)
    values = np.array(card_values(rs.scoring, rs.two_of_spades), dtype=np.int64)
    results = np.empty((rounds, rs.sides, 5), dtype=RESULT_DTYPE)
    if record:
        owners, moves, flags, deals = (np.empty((rounds, 52), dtype=RECORD_DTYPE) for _ in range(4))
    else:
        owners = moves = flags = deals = np.empty((1, 52), dtype=RECORD_DTYPE)
    seed &= 2**63 - 1
    if not record and (pol == POLICIES["random"]).all():  # the same rounds, on a loop of their own
        with compiling(kernels.random_batch):
            kernels.random_batch(cfg, values, seed, first_dealer, results, _chunks(rounds))
    else:
        with compiling(kernels.simulate_batch):
            kernels.simulate_batch(cfg, values, pol, seed, first_dealer, results, record, owners, moves, flags,
                                   deals, _chunks(rounds))
    # (first_dealer + arange(rounds)) % players, repeated rather than divided: 10x faster on a big batch
    n = rs.players
    dealers = np.tile((first_dealer + np.arange(n)) % n, rounds // n + 1)[:rounds]
    if record:
        return _split(rs, dealers, results, owners=owners, deals=deals, moves=moves, flags=flags)
    return _split(rs, dealers, results)


def play_deals(
    deals: Sequence[Deal],
    dealers: Sequence[int],
    ruleset: Ruleset | str = "classic",
    policies: str | Sequence[str] = "random",
    seed: int = 0,
) -> FastRounds:
    """Play given deals (e.g. from ``xeri.engine.shuffle_and_deal``), recording every move."""
    rs = _ruleset(ruleset, None)
    if len(deals) != len(dealers) or not deals:
        raise FastRulesError("give one dealer for each deal, and at least one deal")
    rows = np.empty((len(deals), 52), dtype=RECORD_DTYPE)
    for r, d in enumerate(deals):
        cards = [c.index for h in d.hands for c in h] + [c.index for c in d.pile] + [c.index for c in d.talon]
        if len(cards) != 52 or d.face_down or d.exposed is not None:
            raise FastRulesError(f"deal {r} is not a full deal of the fast simulator's rules")
        rows[r] = cards
    n = len(deals)
    cfg, pol = config_array(rs), _policies(policies, rs.players)
    values = np.array(card_values(rs.scoring, rs.two_of_spades), dtype=np.int64)
    results = np.empty((n, rs.sides, 5), dtype=RESULT_DTYPE)
    owners, moves, flags = (np.empty((n, 52), dtype=RECORD_DTYPE) for _ in range(3))
    dealer_arr = np.asarray(dealers, dtype=np.int64)
    with compiling(kernels.play_deals_batch):
        kernels.play_deals_batch(cfg, values, pol, seed & (2**63 - 1), dealer_arr, rows, results, owners,
                                 moves, flags, _chunks(n))
    return _split(rs, dealer_arr, results, owners=owners, deals=rows, moves=moves, flags=flags)


__all__ = ["FLAG_NAMES", "POLICIES", "FastRounds", "FastRulesError", "config_array", "play_deals", "simulate"]
