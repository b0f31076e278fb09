"""Every bot plays legal moves under every preset and player count; specs, levels and hints behave."""

from __future__ import annotations

import random

import pytest

from support.bot_play import play_out
from xeri import PRESETS, Match, find_ruleset
from xeri.bots import BOTS, LEVELS, Bot, BotSpecError, bot_card, make_bot, make_cheater, parse_spec
from xeri.bots.expert import p_holds
from xeri.bots.hint import REASON_TEXT, HintReason, suggest
from xeri.bots.ismcts import IsmctsBot
from xeri.cards import Card
from xeri.engine import Round

SPECS = ["random", "greedy", "expert", "ismcts:iterations=40", "pimc:iterations=60", "playout",
         "ismcts:iterations=40,opponents=policy", "master", "master:early=pimc,iterations=40,worlds=4"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_bots_finish_rounds_with_legal_moves(preset: str, players: int) -> None:
    ruleset = find_ruleset(preset, players=players, exposed_bottom=preset == "classic")
    for k, spec in enumerate(SPECS):
        rnd = Round.new(ruleset, k % players, 17 + k)
        bots = [make_bot(spec, s) for s in range(players)]
        play_out(rnd, bots)


def test_oracle_plays_through_a_match() -> None:
    match = Match(find_ruleset("classic", rounds=1), seed=4)
    oracle = make_cheater("oracle-cheater:iterations=30", match, seed=1)
    other = make_bot("greedy", 2)
    while not match.is_over:
        seat = match.turn
        card = bot_card(match, oracle if seat == 0 else other)
        match.play(card)


@pytest.mark.parametrize(("preset", "players"), [("pisti", 2), ("pisti", 4), ("classic", 3)])
def test_the_peeking_master_sees_the_other_hands_and_nothing_else(preset: str, players: int) -> None:
    """The diagnostic cheater's worlds hold the true hands; the talon and face-down cards are still dealt at random."""
    rnd = Round.new(find_ruleset(preset, players=players), 0, 11)
    peek = make_cheater("peek-master:rworlds=32,iterations=32", rnd, seed=1)
    fair = make_bot("master:rworlds=32,iterations=32", 1)
    for _ in range(6):
        seat = rnd.turn
        assert seat is not None
        view, log = rnd.view(seat), rnd.log_for(seat)
        det = peek._determinizer(view, log)  # type: ignore[attr-defined]
        assert fair._determinizer(view, log).need == [0 if s == seat else len(rnd.hand(s)) for s in range(players)]  # type: ignore[attr-defined]
        assert det.need == [0] * players
        world = det.sample(random.Random(seat))
        assert [sorted(h) for h in world.hands] == [sorted(c.index for c in rnd.hand(s)) for s in range(players)]
        others = {c.index for s in range(players) if s != seat for c in rnd.hand(s)}
        assert det.pool == sorted({c.index for c in view.unseen()} - others)
        talons = {tuple(det.sample(random.Random(k)).talon) for k in range(8)}
        assert not rnd.talon or len(talons) == 8  # the talon is still dealt at random
        card = peek.choose(view, log)
        assert card in rnd.legal_moves
        rnd.play(card, seat)


def test_bots_follow_the_protocol_and_the_registry() -> None:
    for name in BOTS:
        bot = make_bot(name, 0)
        assert isinstance(bot, Bot)
        assert bot.name == name


def test_levels_are_bots_and_in_order() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "strong", "master"]
    assert list(LEVELS.values()) == ["random", "greedy", "expert", "learned", "master"]
    for level in LEVELS:
        make_bot(level, 0)
    assert "oracle" not in " ".join(LEVELS.values())
    # A level's name never hides another bot: a name that is both is the same bot (only master).
    assert all(LEVELS[name] == name for name in set(LEVELS) & set(BOTS))


def test_every_level_but_the_first_has_its_margin_over_the_one_below() -> None:
    import itertools

    from xeri.bots.registry import LEVEL_MARGINS

    names = list(LEVELS)
    assert list(LEVEL_MARGINS) == names[1:]
    for below, level in itertools.pairwise(names):
        assert f" over {below}" in LEVEL_MARGINS[level] and LEVEL_MARGINS[level].startswith("+")


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ("nosuch", "unknown bot"),
        ("ismcts:iterations=0", "bad parameters"),
        ("ismcts:seconds=-1", "bad parameters"),
        ("ismcts:iterations=2.5", "bad parameters"),
        ("ismcts:depth=3", "bad parameters"),
        ("ismcts:iterations", "key=value"),
        ("ismcts:rollout=wild", "bad parameters"),
        ("greedy:x=1", "bad parameters"),
        ("pimc:iterations=0", "bad parameters"),
        ("ismcts:opponents=psychic", "bad parameters"),
    ],
)
def test_bad_specs_are_refused(spec: str, error: str) -> None:
    with pytest.raises(BotSpecError, match=error):
        make_bot(spec, 0)


def test_spec_parsing() -> None:
    assert parse_spec("ISMCTS:iterations=2000, seconds=0.5") == ("ismcts", {"iterations": 2000, "seconds": 0.5})
    bot = make_bot("ismcts:iterations=123,c=0.5", 1)
    assert isinstance(bot, IsmctsBot) and bot.iterations == 123 and bot.c == 0.5


def test_same_seed_same_choice() -> None:
    rnd = Round.new(find_ruleset("classic"), 0, 8)
    view, log = rnd.view(1), rnd.log_for(1)
    for spec in SPECS:
        assert {make_bot(spec, 5).choose(view, log) for _ in range(3)} == {make_bot(spec, 5).choose(view, log)}


def test_ismcts_respects_its_budgets() -> None:
    rnd = Round.new(find_ruleset("classic"), 0, 8)
    bot = IsmctsBot(seed=0, iterations=300)
    bot.choose(rnd.view(1), rnd.log_for(1))
    assert bot.stats.iterations == 300
    timed = IsmctsBot(seed=0, seconds=0.05)
    timed.choose(rnd.view(1), rnd.log_for(1))
    assert 0.05 <= timed.stats.seconds < 2.0


@pytest.mark.parametrize("spec", ["greedy", "expert", "ismcts:iterations=400", "pimc:iterations=300", "playout"])
def test_bots_take_a_free_xeri(spec: str) -> None:
    from xeri.cards import DECK, parse_cards
    from xeri.engine import Deal

    ruleset = find_ruleset("classic", initial_pile="keep")
    seat0 = parse_cards("5c 7s 2h 3h 4h 6h")
    seat1 = parse_cards("7d 9c 2d 3c 4c 8d")
    pile = parse_cards("Kc Qd 2s 5d")
    rest = [c for c in DECK if c not in set(seat0) | set(seat1) | set(pile)]
    rnd = Round(ruleset, 1, Deal((seat0, seat1), pile, tuple(rest)))
    for card in ("5c", "9c", "2h", "2d", "7s"):  # seat 0 ends up leading a lone 7 to seat 1
        rnd.play(card)
    assert rnd.turn == 1 and len(rnd.pile) == 1
    assert make_bot(spec, 0).choose(rnd.view(1), rnd.log_for(1)) == Card.parse("7d")


def test_expert_saves_its_jack_for_a_pile_worth_taking() -> None:
    from xeri.cards import DECK, parse_cards
    from xeri.engine import Deal

    ruleset = find_ruleset("classic", initial_pile="keep")
    seat0 = parse_cards("5c 6s 2h 3h 4h 6h")
    seat1 = parse_cards("Jd 9c 9d 3c 4c 8d")
    pile = parse_cards("7c 8c 2s 5d")
    rest = [c for c in DECK if c not in set(seat0) | set(seat1) | set(pile)]
    rnd = Round(ruleset, 1, Deal((seat0, seat1), pile, tuple(rest)))
    rnd.play(Card.parse("5c"))  # seat 0 takes the 0-point pile
    rnd.play(Card.parse("8d"))  # seat 1 leads
    rnd.play(Card.parse("6s"))  # pile: 8 6, worth nothing
    assert make_bot("greedy", 0).choose(rnd.view(1), rnd.log_for(1)) == Card.parse("Jd")
    assert make_bot("expert", 0).choose(rnd.view(1), rnd.log_for(1)) != Card.parse("Jd")


def test_card_counting_probability() -> None:
    assert p_holds(10, 0, 3) == 0.0
    assert p_holds(10, 10, 3) == 1.0
    assert p_holds(4, 1, 1) == pytest.approx(0.25)
    assert p_holds(10, 2, 3) == pytest.approx(1 - (8 * 7 * 6) / (10 * 9 * 8))


def test_hint_suggests_a_legal_card_with_a_reason() -> None:
    rnd = Round.new(find_ruleset("classic"), 0, 12)
    card, reason = suggest(rnd.view(1), rnd.log_for(1))
    assert card in rnd.legal_moves and reason
    card2, _ = suggest(rnd.view(1), rnd.log_for(1), level="medium")
    assert card2 in rnd.legal_moves


def test_bench_reports_search_speed(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from xeri.cli import main

    assert main(["bench", "ismcts", "--seconds", "0.3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["target"] == "ismcts" and data["iterations_per_s"] > 0 and data["moves"] >= 1


def test_hint_reasons_carry_a_code_and_parameters() -> None:
    """A client words a hint from its code and parameters; the English sentence is the same template."""
    reason = HintReason("match", card="TD", top="TH", count=3)
    assert reason == "10♦ matches the 10♥ and takes 3 cards"
    assert reason.to_json() == {"code": "match", "params": {"card": "TD", "top": "TH", "count": 3}}
    rnd = Round.new(find_ruleset("classic"), 0, 12)
    _, given = suggest(rnd.view(1), rnd.log_for(1), level="medium")
    assert isinstance(given, HintReason) and given.code in REASON_TEXT
    assert given == REASON_TEXT[given.code].format(**{k: str(Card.parse(v)) if k in ("card", "top") else v
                                                      for k, v in given.params.items()})
