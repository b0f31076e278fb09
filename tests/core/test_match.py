"""Matches: dealer rotation, ending by rounds or by target, and every tie rule."""

from __future__ import annotations

import random

import pytest

from xeri.errors import GameOverError
from xeri.events import MatchOver, RoundStarted
from xeri.match import Match, decide
from xeri.rules import find_ruleset


def play_match(match: Match, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves))


def test_deal_passes_to_the_next_player() -> None:
    match = Match(find_ruleset("classic", players=3), seed=1, first_dealer=2)
    play_match(match)
    dealers = [r.dealer for r in match.rounds]
    assert dealers[:4] == [2, 0, 1, 2]


def test_rounds_match_won_by_most_rounds() -> None:
    match = Match(find_ruleset("classic"), seed=2)
    play_match(match)
    assert len(match.rounds) >= 5
    assert match.winner == max(range(2), key=lambda s: match.round_wins[s])
    assert isinstance(match.events[-1], MatchOver)
    with pytest.raises(GameOverError, match="match is over"):
        match.play("2c")


def test_target_match_ends_when_target_reached() -> None:
    match = Match(find_ruleset("cardgames"), seed=3)
    play_match(match)
    assert match.winner is not None and match.scores[match.winner] >= 51


def test_same_seed_same_match() -> None:
    a, b = Match(find_ruleset("cardgames"), seed=9), Match(find_ruleset("cardgames"), seed=9)
    play_match(a, 4)
    play_match(b, 4)
    assert a.events == b.events
    c = Match(find_ruleset("cardgames"), seed=10)
    assert c.round.deal != a.rounds[0].deal


def test_round_started_events() -> None:
    match = Match(find_ruleset("classic"), seed=2)
    assert match.events[0] == RoundStarted(1, 0)


class TestDecide:
    rounds = find_ruleset("classic")
    raise_ = find_ruleset("classic-points")
    another = find_ruleset("cardgames")
    higher = find_ruleset("cardgames", tie_rule="higher")

    def test_rounds(self) -> None:
        assert decide(self.rounds, [0, 0], [3, 1], 4, None).winner is None
        assert decide(self.rounds, [0, 0], [3, 2], 5, None).winner == 0
        assert decide(self.rounds, [0, 0], [2, 2], 5, None).winner is None  # play on while tied
        assert decide(self.rounds, [0, 0], [2, 3], 6, None).winner == 1

    def test_one_side_reaches_target(self) -> None:
        assert decide(self.another, [52, 40], [0, 0], 3, 51).winner == 0
        assert decide(self.another, [50, 40], [0, 0], 3, 51).winner is None

    def test_raise_to_next_threshold(self) -> None:
        d = decide(self.raise_, [160, 155], [0, 0], 4, 151)
        assert (d.winner, d.target) == (None, 251)
        d = decide(self.raise_, [260, 255], [0, 0], 4, 151)
        assert (d.winner, d.target) == (None, 351)
        d = decide(self.raise_, [260, 200], [0, 0], 4, 251)
        assert (d.winner, d.target) == (0, 251)

    def test_another_hand(self) -> None:
        d = decide(self.another, [60, 70], [0, 0], 3, 51)
        assert (d.winner, d.tiebreak) == (None, True)
        assert decide(self.another, [80, 75], [0, 0], 4, 51, tiebreak=True).winner == 0
        d = decide(self.another, [80, 80], [0, 0], 4, 51, tiebreak=True)
        assert (d.winner, d.tiebreak) == (None, True)

    def test_higher(self) -> None:
        assert decide(self.higher, [60, 70], [0, 0], 3, 51).winner == 1
        d = decide(self.higher, [70, 70], [0, 0], 3, 51)
        assert (d.winner, d.tiebreak) == (None, True)

    def test_three_sides(self) -> None:
        three = find_ruleset("cardgames", players=3, tie_rule="higher")
        assert decide(three, [60, 70, 20], [0, 0, 0], 3, 51).winner == 1


def test_view_carries_match_scores() -> None:
    match = Match(find_ruleset("cardgames"), seed=3, names=["Ana", "Bo"])
    view = match.view(0)
    assert view.match_scores == (0, 0) and view.target == 51 and view.names == ("Ana", "Bo")


def test_bad_match_arguments() -> None:
    with pytest.raises(ValueError, match="names"):
        Match(find_ruleset("classic"), names=["a"])
    with pytest.raises(ValueError, match="first dealer"):
        Match(find_ruleset("classic"), first_dealer=5)
