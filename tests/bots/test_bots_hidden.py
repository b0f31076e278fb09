"""Bots cannot see hidden cards: their inputs hold none, and hidden cards cannot change a decision."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from xeri import find_ruleset
from xeri.bots import BotSpecError, make_bot
from xeri.bots.determinize import Determinizer
from xeri.cards import Card
from xeri.engine import Deal, Round
from xeri.events import PileRedealt
from xeri.rules import Ruleset

BOT_SPECS = [
    "random", "greedy", "learned", "expert", "playout", "ismcts:iterations=60", "ismcts:iterations=30,rollout=fast",
    "ismcts:iterations=30,opponents=policy", "pimc:iterations=60", "master", "master:early=pimc,iterations=40",
    "pimc-greedy:samples=6", "pimc-greedy:samples=4,plies=6", "cautious", "master:rworlds=200,wide=1",
]
CASES = [
    ("classic", 2, {}),
    ("classic", 2, {"exposed_bottom": True}),
    ("pisti", 2, {}),
    ("berman", 3, {}),
    ("cardgames", 4, {}),
    ("pisti", 4, {"exposed_bottom": True}),
]


def cards_in(obj: object) -> Iterator[Card]:
    """Every Card reachable from a view, an event or a container of them."""
    if isinstance(obj, Card):
        yield obj
    elif isinstance(obj, (tuple, list, frozenset, set)):
        for item in obj:
            yield from cards_in(item)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, (type, Ruleset)):
        for f in dataclasses.fields(obj):
            yield from cards_in(getattr(obj, f.name))


def hidden_from(rnd: Round, seat: int) -> set[Card]:
    """Cards ``seat`` may not place right now: other hands, the talon, face-down cards (taken or not)."""
    hidden = {c for s in range(rnd.ruleset.players) if s != seat for c in rnd.hand(s)}
    hidden |= set(rnd.talon) | set(rnd.deal.face_down)
    if rnd.deal.exposed is not None:
        hidden.discard(rnd.deal.exposed)  # shown to everyone at the deal
    for e in rnd.events:
        if type(e) is PileRedealt:  # shown, then shuffled back: public, but placed nowhere
            hidden -= set(e.cards)
    return hidden


def play_randomly(rnd: Round, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if rnd.is_over:
            return
        rnd.play(rng.choice(rnd.legal_moves))


@pytest.mark.parametrize(("preset", "players", "options"), CASES)
def test_views_and_logs_hold_no_hidden_card(preset: str, players: int, options: dict[str, bool]) -> None:
    ruleset = find_ruleset(preset, players=players, **options)
    rng = random.Random(3)
    for k in range(10):
        rnd = Round.new(ruleset, k % players, rng.getrandbits(64))
        while not rnd.is_over:
            seat = rnd.turn
            assert seat is not None
            hidden = hidden_from(rnd, seat)
            leaked = (set(cards_in(rnd.view(seat))) | set(cards_in(rnd.log_for(seat)))) & hidden
            assert not leaked, f"seat {seat} could see {sorted(leaked)}"
            held = {c for s in range(players) if s != seat for c in rnd.hand(s)}
            assert held <= set(cards_in(rnd.events))  # the checker does find them in the full log
            rnd.play(rng.choice(rnd.legal_moves))


def twin_round(rnd: Round, seat: int, rng: random.Random) -> Round:
    """The same round with every card ``seat`` cannot place shuffled among the hidden places.

    Only call it before the first redeal of hands, when the hidden places are the
    unplayed cards of other initial hands, the talon (bar an exposed card) and the
    face-down pile cards.
    """
    deal = rnd.deal
    played = {c for _, c in rnd.played}
    hands = [list(h) for h in deal.hands]
    pile = list(deal.pile)
    talon = list(deal.talon)
    slots: list[tuple[list[Card], int]] = []
    for s, h in enumerate(hands):
        if s != seat:
            slots += [(h, i) for i, c in enumerate(h) if c not in played]
    slots += [(talon, i) for i in range(len(talon) - (1 if deal.exposed is not None else 0))]
    slots += [(pile, i) for i, c in enumerate(pile) if c in deal.face_down]
    cards = [where[i] for where, i in slots]
    rng.shuffle(cards)
    for (where, i), c in zip(slots, cards, strict=True):
        where[i] = c
    down = tuple(pile[i] for i, c in enumerate(deal.pile) if c in deal.face_down)
    twin_deal = Deal(
        tuple(map(tuple, hands)), tuple(pile), tuple(talon), down, deal.exposed, deal.redealt, deal.slipped
    )
    twin = Round(rnd.ruleset, rnd.dealer, twin_deal)
    for s, c in rnd.played:
        twin.play(c, s)
    return twin


@pytest.mark.parametrize(("preset", "players", "options"), CASES)
def test_hidden_cards_do_not_change_decisions(preset: str, players: int, options: dict[str, bool]) -> None:
    ruleset = find_ruleset(preset, players=players, **options)
    rng = random.Random(11)
    differed = 0
    for k in range(6):
        rnd = Round.new(ruleset, k % players, rng.getrandbits(64))
        play_randomly(rnd, rng, rng.randrange(players * ruleset.hand_size // 2))
        seat = rnd.turn
        assert seat is not None
        twin = twin_round(rnd, seat, rng)
        differed += any(twin.hand(s) != rnd.hand(s) for s in range(players)) or twin.talon != rnd.talon
        view, log = rnd.view(seat), rnd.log_for(seat)
        assert (twin.view(seat), twin.log_for(seat)) == (view, log)
        for spec in BOT_SPECS:
            seed = rng.getrandbits(32)
            assert make_bot(spec, seed).choose(view, log) == make_bot(spec, seed).choose(
                twin.view(seat), twin.log_for(seat)
            ), spec
    assert differed >= 5  # the twins really hid different cards


def test_views_are_plain_values_without_a_path_to_the_round() -> None:
    rnd = Round.new(find_ruleset("classic"), 0, 5)
    view = rnd.view(1)
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        assert not isinstance(value, Round)
        assert isinstance(value, (int, tuple, frozenset, bool, Card, Ruleset, type(None), str))


@pytest.mark.parametrize("spec", ["oracle-cheater", "oracle", "oracle-cheater:iterations=10", "peek-master"])
def test_the_cheating_oracle_is_not_a_normal_bot(spec: str) -> None:
    with pytest.raises(BotSpecError, match="hidden cards"):
        make_bot(spec, 0)


def test_determinizations_keep_public_facts_and_place_only_unseen_cards() -> None:
    ruleset = find_ruleset("pisti", exposed_bottom=True)
    rng = random.Random(2)
    for k in range(20):
        rnd = Round.new(ruleset, k % 2, rng.getrandbits(64))
        play_randomly(rnd, rng, rng.randrange(30))
        if rnd.is_over:
            continue
        seat = rnd.turn
        assert seat is not None
        view = rnd.view(seat)
        det = Determinizer(view, rnd.log_for(seat))
        unseen = {c.index for c in view.unseen()}
        for _ in range(5):
            st = det.sample(rng)
            assert [len(h) for h in st.hands] == list(view.hand_counts)
            assert len(st.talon) == view.talon_count
            assert sorted(st.hands[seat]) == sorted(c.index for c in view.hand)
            placed = [c for s, h in enumerate(st.hands) if s != seat for c in h] + st.talon
            placed += [c for c, shown in zip(st.pile, view.pile, strict=True) if shown is None]
            assert set(placed) <= unseen and len(set(placed)) == len(placed)
            if view.exposed is not None and view.exposed_holder is None:
                assert st.talon[-1] == view.exposed.index
            if view.exposed is not None and view.exposed_holder is not None:
                assert view.exposed.index in st.hands[view.exposed_holder]


def test_determinizations_are_uniform() -> None:
    """Each unseen card lands in the opponent's hand as often as its share of the hidden places says."""
    rnd = Round.new(find_ruleset("classic"), 0, 9)
    view = rnd.view(1)
    det = Determinizer(view, rnd.log_for(1))
    rng = random.Random(0)
    n = 4000
    counts = dict.fromkeys(det.pool, 0)
    for _ in range(n):
        for c in det.sample(rng).hands[0]:
            counts[c] += 1
    p = 6 / len(det.pool)
    sd = (n * p * (1 - p)) ** 0.5
    assert all(abs(k - n * p) < 4.5 * sd for k in counts.values())
