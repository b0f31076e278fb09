"""The OpenSpiel game: API conformance, golden per-seat strings, information hiding, ISMCTS."""

from __future__ import annotations

import re

import numpy as np
import pyspiel
import pytest

import xeri.integrations.openspiel as xos  # registers python_xeri
from support.playthrough import CASES, GOLDEN, playthrough
from xeri.cards import DECK, Card


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_passes(players: int) -> None:
    for ruleset in ("classic", "cardgames", "pisti"):
        game = pyspiel.load_game("python_xeri", {"players": players, "ruleset": ruleset})
        pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_game_parameters_and_shapes() -> None:
    game = pyspiel.load_game("python_xeri", {"players": 4, "ruleset": "cardgames"})
    assert game.num_players() == 4 and game.num_distinct_actions() == 52
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.observation_tensor_size() < game.information_state_tensor_size()
    with pytest.raises(Exception, match="unknown ruleset"):
        pyspiel.load_game("python_xeri", {"ruleset": "nonsense"})


@pytest.mark.parametrize("name", sorted(CASES))
def test_playthrough_matches_golden_file(name: str) -> None:
    """The per-seat strings are locked; regenerate with ``python tests/support/playthrough.py``."""
    assert playthrough(*CASES[name]) == (GOLDEN / name).read_text(encoding="utf-8")


def _play_to(game: object, rng: np.random.Generator, moves: int) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


_CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


def _hidden_from(state: xos.XeriState, seat: int) -> set[Card]:
    """Cards the seat cannot place: other hands, the talon and face-down pile cards.

    Cards of a redealt initial pile were shown to all before going back into the
    deck, so naming them tells nothing about where they are now.
    """
    rnd = state._round
    assert rnd is not None
    hidden = {c for s in range(state.num_players()) if s != seat for c in rnd.hand(s)} | set(rnd.talon)
    hidden |= set(rnd.deal.face_down) & set(rnd.pile)
    return hidden - {c for pile in rnd.deal.redealt for c in pile}


@pytest.mark.parametrize(("ruleset", "players"), [("classic", 2), ("cardgames", 4), ("pisti", 2), ("pisti", 3)])
def test_seat_strings_and_tensors_hold_no_hidden_card(ruleset: str, players: int) -> None:
    game = pyspiel.load_game("python_xeri", {"players": players, "ruleset": ruleset})
    rng = np.random.default_rng(players)
    for moves in (0, 3, 9, 20, 33):
        state = _play_to(game, rng, moves)
        if state.is_terminal():
            continue
        for seat in range(players):
            hidden = _hidden_from(state, seat)
            assert hidden
            for text in (state.observation_string(seat), state.information_state_string(seat)):
                shown = {Card.parse(t) for t in _CARD.findall(text)}
                assert not shown & hidden, f"seat {seat} sees {shown & hidden}"
            info = np.array(state.information_state_tensor(seat))
            cards_part = info[: 5 * 52].reshape(5, 52)  # hand, pile, top, (face_down + gone), ...
            for c in hidden:
                assert not cards_part[[0, 1, 2], c.index].any()


@pytest.mark.parametrize(("ruleset", "players"), [("classic", 2), ("cardgames", 4), ("pisti", 2)])
def test_resampled_states_look_the_same_to_the_seat(ruleset: str, players: int) -> None:
    """Redrawing every card a seat cannot place changes nothing it observes: nothing hidden leaks."""
    game = pyspiel.load_game("python_xeri", {"players": players, "ruleset": ruleset})
    rng = np.random.default_rng(7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for moves in (0, 4, 11, 25):
        state = _play_to(game, rng, moves)
        if state.is_terminal():
            continue
        for seat in range(players):
            for _ in range(3):
                other = state.resample_from_infostate(seat, sampler)
                assert other.information_state_string(seat) == state.information_state_string(seat)
                assert other.observation_string(seat) == state.observation_string(seat)
                assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert other.observation_tensor(seat) == state.observation_tensor(seat)
                assert other.legal_actions(seat) == state.legal_actions(seat)
                changed += str(other) != str(state)
    assert changed > 10  # the hidden cards really were redrawn


def test_openspiel_ismcts_bot_plays_a_round() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_xeri")
    rng = np.random.default_rng(3)
    state = _play_to(game, rng, 0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 2.0, 20,
                           random_state=np.random.RandomState(2))
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(0.0)


def test_returns_are_score_margins() -> None:
    game = pyspiel.load_game("python_xeri", {"players": 4})
    state = _play_to(game, np.random.default_rng(5), 60)
    assert state.is_terminal()
    rnd = state._round
    totals = [s.total for s in rnd.scores]
    assert state.returns() == [totals[p % 2] - sum(totals) / 2 for p in range(4)]
    assert state.returns()[0] == state.returns()[2]


def test_a_dealt_card_cannot_be_dealt_again() -> None:
    state = pyspiel.load_game("python_xeri").new_initial_state()
    state.apply_action(DECK[0].index)
    assert 0 not in [a for a, _ in state.chance_outcomes()]


@pytest.mark.parametrize("ruleset", ["classic", "berman"])
def test_max_game_length_is_a_true_bound(ruleset: str) -> None:
    """Force a faulty initial pile every time: after MAX_REDEALS redeals the pile stands and the game fits."""
    game = pyspiel.load_game("python_xeri", {"players": 2, "ruleset": ruleset})
    rs = game.ruleset
    assert game.max_game_length() == 52 + xos.MAX_REDEALS * rs.pile_size + 52 - rs.pile_size
    state = game.new_initial_state()
    in_hands = rs.players * rs.hand_size
    hands = [c.index for c in DECK if c.rank.value != 11][:in_hands]  # no Jack in a hand
    for a in hands:
        state.apply_action(a)
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        drawn = len(state._drawn) - in_hands
        jacks = [a for a in outcomes if DECK[a].rank.value == 11]
        if len(state._redealt) < xos.MAX_REDEALS and 0 <= drawn < rs.pile_size:
            # the top of the pile is a Jack whenever one is left: a redeal every time
            state.apply_action(jacks[0] if drawn == rs.pile_size - 1 else outcomes[0])
        else:
            if 0 <= drawn < rs.pile_size and (drawn == rs.pile_size - 1 or ruleset == "berman"):
                assert not jacks  # only cards that make the pile stand
            state.apply_action(outcomes[0])
    assert len(state._redealt) == xos.MAX_REDEALS
    with pytest.raises(pyspiel.SpielError, match="cannot be drawn"):
        forced = game.new_initial_state()
        for a in state.history()[: in_hands + xos.MAX_REDEALS * rs.pile_size + rs.pile_size - 1]:
            forced.apply_action(a)
        forced.apply_action(next(a for a in forced._pool if DECK[a].rank.value == 11))
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == game.max_game_length()


@pytest.mark.parametrize("ruleset,players", [("classic", 2), ("cardgames", 4), ("pisti", 2)])
def test_deal_actions_lay_out_the_engine_deal(ruleset: str, players: int) -> None:
    import random

    from xeri.engine import shuffle_and_deal
    from xeri.rules import find_ruleset

    rs = find_ruleset(ruleset, players=players)
    game = pyspiel.load_game("python_xeri", {"ruleset": ruleset, "players": players})
    for seed in range(20):
        deal = shuffle_and_deal(rs, players - 1, random.Random(seed))  # the game's first dealer is the last seat
        state = game.new_initial_state()
        for action in xos.deal_actions(rs, players - 1, deal):
            state.apply_action(action)
        assert not state.is_chance_node()
        got = state._round.deal
        assert (got.hands, got.pile, got.talon, got.redealt) == (deal.hands, deal.pile, deal.talon, deal.redealt)
