"""Properties over random games for every preset and player count (hypothesis)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xeri import record
from xeri.cards import DECK, Card
from xeri.engine import Round
from xeri.events import PileRedealt, PileUnclaimed
from xeri.match import Match
from xeri.rules import PRESETS, find_ruleset
from xeri.scoring import base_points_total, card_values, most_cards_side

games = st.tuples(st.sampled_from(sorted(PRESETS)), st.sampled_from([2, 3, 4]), st.integers(0, 2**32), st.booleans())
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards_in(value: object) -> Iterator[Card]:
    """Every Card reachable from a view or event (the ruleset holds none)."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name != "ruleset":
                yield from cards_in(getattr(value, f.name))
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from cards_in(item)


def hidden_from(r: Round, seat: int | None) -> set[Card]:
    hidden = {c for s in range(r.ruleset.players) if s != seat for c in r.hand(s)}
    hidden |= set(r.talon)
    hidden |= set(r.deal.face_down) if not r.is_over else set()
    if r.deal.exposed is not None:
        hidden.discard(r.deal.exposed)
    return hidden


def every_card_once(r: Round) -> None:
    places = [c for s in range(r.ruleset.players) for c in r.hand(s)]
    places += list(r.pile) + list(r.talon)
    places += [c for side in range(r.ruleset.sides) for c in r.captured(side)]
    places += [c for e in r.events if isinstance(e, PileUnclaimed) for c in e.cards]
    assert sorted(places) == sorted(DECK)


@SETTINGS
@given(games)
def test_round_invariants(game: tuple[str, int, int, bool]) -> None:
    preset, players, seed, exposed = game
    ruleset = find_ruleset(preset, players=players, exposed_bottom=exposed)
    r = Round.new(ruleset, seed % players, seed)
    rng = random.Random(seed)
    steps = 0
    while not r.is_over:
        every_card_once(r)
        for seat in [*range(players), None]:
            hidden = hidden_from(r, seat)
            view = r.view(seat)
            assert not hidden & set(cards_in(view)), f"view of seat {seat} leaks a hidden card"
            leaked = set(cards_in([e for e in r.log_for(seat) if not isinstance(e, PileRedealt)]))
            assert not hidden & leaked, f"log of seat {seat} leaks a hidden card"
        r.play(rng.choice(r.legal_moves))
        steps += 1
        assert steps <= 52  # rounds terminate: one card per step
    every_card_once(r)
    assert steps == 52 - ruleset.pile_size
    scores = r.scores
    assert scores is not None
    values = card_values(ruleset.scoring, ruleset.two_of_spades)
    counts = [len(r.captured(s)) for s in range(ruleset.sides)]
    most = most_cards_side(counts)
    for s in scores:
        recount = sum(values[c.index] for c in r.captured(s.side))
        recount += ruleset.most_cards_points if most == s.side else 0
        recount += sum(ruleset.jack_xeri_points if j else ruleset.xeri_points for _, j in r.xeris(s.side))
        assert s.total == recount
        assert s.cards == counts[s.side]
    xeri_points = sum(ruleset.jack_xeri_points if j else ruleset.xeri_points
                      for side in range(ruleset.sides) for _, j in r.xeris(side))
    expected = base_points_total(ruleset) - (ruleset.most_cards_points if most is None else 0)
    assert sum(s.total for s in scores) - xeri_points == expected


@settings(max_examples=25, deadline=None)
@given(games)
def test_replay_of_record_is_the_same_game(game: tuple[str, int, int, bool]) -> None:
    preset, players, seed, exposed = game
    match = Match(find_ruleset(preset, players=players, exposed_bottom=exposed), seed=seed)
    rng = random.Random(seed)
    stop_after = rng.randrange(40, 400)
    while not match.is_over and stop_after:
        match.play(rng.choice(match.legal_moves))
        stop_after -= 1
    data = record.to_record(match)
    again = record.loads(record.dumps(match))
    assert record.to_record(again) == data
    assert again.events == match.events
    if not match.is_over:  # a replayed match goes on exactly like the original
        card = match.legal_moves[0]
        assert again.play(card) == match.play(card)
