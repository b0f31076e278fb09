"""Xeri as an OpenSpiel game: ``import xeri.integrations.openspiel`` registers ``python_xeri``.

One game is one round of the reference engine. The deal is explicit chance:
one chance node per card, in dealing order (hands, initial pile, then the
talon); a pile the ruleset rejects is redealt by drawing the pile again, as
the engine does. Player actions are card indices (``Card.index``, 0..51).
Seat ``players - 1`` deals, so seat 0 plays first. Returns are each side's
round score minus the mean of all sides' scores (zero-sum).

``resample_from_infostate`` redraws every card the player cannot place, so
OpenSpiel's ``ISMCTSBot`` can play the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ..bots import encoding
from ..cards import DECK, Card, Rank
from ..engine import Deal, Round, SeatView, deal_order, lay_out, pile_fault
from ..errors import XeriError
from ..events import Dealt
from ..rules import Ruleset, find_ruleset
from ..scoring import card_values, zero_sum

SHORT_NAME = "python_xeri"
#: Redealt piles at most: after this many, the pile is drawn only among cards that make it stand,
#: so ``max_game_length`` is a true bound (more would happen with probability below 1e-13 for every preset).
MAX_REDEALS = 50

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Xeri",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "ruleset": "classic"},
)


class OpenSpielRulesError(XeriError):
    """A ruleset the OpenSpiel game does not model."""


def game_ruleset(params: dict[str, Any]) -> Ruleset:
    """The ruleset named by the game parameters."""
    rs = find_ruleset(str(params.get("ruleset", "classic")), players=int(params.get("players", 2)))
    if rs.exposed_bottom:
        raise OpenSpielRulesError("the OpenSpiel game does not model an exposed bottom card")
    return rs


def deal_actions(ruleset: Ruleset, dealer: int, deal: Deal) -> list[int]:
    """The chance actions that lay out an engine ``deal``: to play the same deal in OpenSpiel and in xeri.

    Hands in dealing order, then each redealt pile, the pile and the talon.
    """
    actions = [c.index for seat in deal_order(ruleset, dealer) for c in deal.hands[seat]]
    for old in deal.redealt:
        actions += [c.index for c in old]
    return actions + [c.index for c in deal.pile] + [c.index for c in deal.talon]


class XeriGame(pyspiel.Game):  # type: ignore[misc]
    """One round of Xeri under a preset, for 2, 3 or 4 players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.ruleset = game_ruleset(params)
        rs = self.ruleset
        # Xeris take two cards each, so the most a side can score is bounded by 26 Jack xeris.
        bound = float(sum(card_values(rs.scoring, rs.two_of_spades)) + rs.most_cards_points
                      + 26 * max(rs.xeri_points, rs.jack_xeri_points))
        info = pyspiel.GameInfo(
            num_distinct_actions=52,
            max_chance_outcomes=52,
            num_players=rs.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            # 52 dealt cards, the redrawn piles, and one move for every card not in the initial pile.
            max_game_length=52 + MAX_REDEALS * rs.pile_size + (52 - rs.pile_size),
        )
        super().__init__(_GAME_TYPE, info, {"players": rs.players, "ruleset": rs.name})

    def new_initial_state(self) -> XeriState:
        return XeriState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> XeriObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return XeriObserver(self.ruleset, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class XeriState(pyspiel.State):  # type: ignore[misc]
    """A round: chance deals card by card, then the engine's ``Round`` plays it."""

    def __init__(self, game: XeriGame) -> None:
        super().__init__(game)
        self._rs = game.ruleset
        self._dealer = self._rs.players - 1
        self._drawn: list[int] = []  # hands (in dealing order), then the pile, then the talon
        self._redealt: list[tuple[Card, ...]] = []
        self._pool = set(range(52))
        self._round: Round | None = None

    # --- chance ------------------------------------------------------------

    def current_player(self) -> int:
        if self._round is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._round.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        turn = self._round.turn
        assert turn is not None
        return turn

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = [c for c in sorted(self._pool) if self._may_draw(c)]
        p = 1.0 / len(outcomes)
        return [(o, p) for o in outcomes]

    def _may_draw(self, card: int) -> bool:
        """Whether ``card`` may be drawn next: any card, but after ``MAX_REDEALS`` redeals the pile must stand."""
        rs = self._rs
        if len(self._redealt) < MAX_REDEALS or rs.initial_pile not in ("redeal", "redeal_any_jack"):
            return True
        in_hands = rs.players * rs.hand_size
        at = len(self._drawn) - in_hands  # position in the pile being drawn
        if not 0 <= at < rs.pile_size:
            return True
        if at == rs.pile_size - 1:  # the pile is complete with this card: it must stand
            return pile_fault(rs, [DECK[i] for i in (*self._drawn[in_hands:], card)]) is None
        # A Jack anywhere breaks a redeal_any_jack pile, whatever comes after it.
        return not (rs.initial_pile == "redeal_any_jack" and DECK[card].rank is Rank.JACK)

    def _legal_actions(self, player: int) -> list[int]:
        assert self._round is not None
        return sorted(c.index for c in self._round.legal_moves)

    def _apply_action(self, action: int) -> None:
        if self._round is not None:
            self._round.play(DECK[action])
            return
        if action not in self._pool:
            raise pyspiel.SpielError(f"card {action} was already dealt")
        if not self._may_draw(action):
            raise pyspiel.SpielError(f"card {action} cannot be drawn: the pile was redealt {MAX_REDEALS} times")
        self._pool.discard(action)
        self._drawn.append(action)
        rs = self._rs
        in_hands = rs.players * rs.hand_size
        if len(self._drawn) == in_hands + rs.pile_size:
            pile = [DECK[i] for i in self._drawn[in_hands:]]
            if pile_fault(rs, pile):
                self._redealt.append(tuple(pile))
                del self._drawn[in_hands:]
                self._pool.update(c.index for c in pile)
        if len(self._drawn) == 52:
            deal = lay_out(rs, self._dealer, [DECK[i] for i in self._drawn], redealt=tuple(self._redealt))
            self._round = Round(rs, self._dealer, deal)

    # --- reading -------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        return f"{'Deal' if player == pyspiel.PlayerId.CHANCE else 'Play'} {DECK[action]}"

    def is_terminal(self) -> bool:
        return self._round is not None and self._round.is_over

    def returns(self) -> list[float]:
        if self._round is None or self._round.scores is None:
            return [0.0] * self._rs.players
        return zero_sum(self._rs, [s.total for s in self._round.scores])

    def seat_view(self, seat: int | None) -> SeatView | None:
        """The engine's view for ``seat`` (None while dealing)."""
        return None if self._round is None else self._round.view(seat)

    def dealt_to(self, seat: int) -> list[Card]:
        """The cards dealt to ``seat`` so far, while the chance nodes deal the hands."""
        h = self._rs.hand_size
        k = deal_order(self._rs, self._dealer).index(seat)
        return [DECK[i] for i in self._drawn[k * h : (k + 1) * h]]

    def __str__(self) -> str:
        if self._round is None:
            return f"dealing: {len(self._drawn)} cards drawn"
        rnd = self._round
        hands = " | ".join(" ".join(map(str, rnd.hand(s))) for s in range(self._rs.players))
        return f"hands: {hands}\npile: {' '.join(map(str, rnd.pile))}\ntalon: {len(rnd.talon)}"

    # --- imperfect information -------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> XeriState:
        """A state the player cannot tell from this one, every unplaced card redrawn uniformly."""
        rng = random.Random(int(probability_sampler() * 2**53))
        game = self.get_game()
        target = self.information_state_string(player_id)
        while True:
            state = self._resampled(game, player_id, rng)
            if state is not None and state.information_state_string(player_id) == target:
                return state

    def _chance_count(self) -> int:
        """How many actions of the history are chance: the whole deal comes before any play."""
        return 52 + len(self._redealt) * self._rs.pile_size

    def _known_positions(self, player: int) -> set[int]:
        """Positions in the deal whose card the player has seen there."""
        rs = self._rs
        assert self._round is not None
        seen = {c.index for c in self._round.view(player).gone}
        for e in self._round.log_for(player):
            if type(e) is Dealt:
                seen.update(c.index for c in e.hands[player] or ())
        in_hands = rs.players * rs.hand_size
        redealt_end = in_hands + len(self._redealt) * rs.pile_size
        deal = self.history()[: self._chance_count()]
        # Pile attempts that were redealt are public; their cards went back into the deck.
        return {pos for pos, card in enumerate(deal) if in_hands <= pos < redealt_end or card in seen}

    def _resampled(self, game: XeriGame, player: int, rng: random.Random) -> XeriState | None:
        if self._round is None:
            raise pyspiel.SpielError("resample_from_infostate needs the deal to be over")
        history = self.history()
        known = self._known_positions(player)
        hidden = [k for k in range(self._chance_count()) if k not in known]
        cards = [history[k] for k in hidden]
        rng.shuffle(cards)
        for k, card in zip(hidden, cards, strict=True):
            history[k] = card
        state = game.new_initial_state()
        try:
            for a in history:
                state.apply_action(a)
        except pyspiel.SpielError:
            return None  # a redealt card landed in a hand dealt before that pile: draw again
        return state


class XeriObserver:
    """Tensors and strings of one seat's knowledge (see ``xeri.bots.encoding``)."""

    def __init__(self, ruleset: Ruleset, iig_obs_type: Any) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private cards is not offered")
        self._public_only = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        self._recall = bool(iig_obs_type.perfect_recall)
        layout = encoding.pieces(ruleset, self._recall)
        self.tensor = np.zeros(encoding.size(ruleset, self._recall), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in layout:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + k].reshape(shape)
            at += k

    def _seat(self, player: int) -> int | None:
        return None if self._public_only else player

    def set_from(self, state: XeriState, player: int) -> None:
        self.tensor.fill(0.0)
        seat = self._seat(player)
        view = state.seat_view(seat)
        if view is None:
            if seat is not None:
                for c in state.dealt_to(seat):
                    self.dict["hand"][c.index] = 1.0
            return
        rnd = state._round
        assert rnd is not None
        encoding.encode(view, rnd.log_for(seat) if self._recall else (), self.dict)

    def string_from(self, state: XeriState, player: int) -> str:
        seat = self._seat(player)
        view = state.seat_view(seat)
        if view is None:
            mine = "" if seat is None else " ".join(map(str, state.dealt_to(seat)))
            return f"dealing; seat {player} holds: {mine or '-'}"
        if not self._recall:
            return encoding.observation_string(view)
        rnd = state._round
        assert rnd is not None
        return encoding.information_string(view, rnd.log_for(seat))


pyspiel.register_game(_GAME_TYPE, XeriGame)
