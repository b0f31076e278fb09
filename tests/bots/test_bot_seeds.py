"""A bot's seed opens nothing of the deal (issue 16 §1), wherever the bot is built.

The terminal game, the arena, the Gymnasium env and the server each seed their bots one-way from the match or
deal seed (``xeri.seeds``, a keyed hash with a domain tag per place). For bots built through each code path, the
seed and everything reachable from the bot object (``gc.get_referents``) are checked: no match or round seed
equals or appears in it, none follows by the old affine relation ``seed = match_seed + 7919·(seat+1)``, no random
generator in it was seeded with one of them, it holds no round, match or deal, and no card list in it is another
seat's hand, the talon or the face-down cards. A control bot that does hold the round (the arena's oracle) is
caught by the same check, so the check can fail.
"""

from __future__ import annotations

import gc
import io
import random
import sys
import types
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from xeri import cli, saves, seeds
from xeri.arena import play as arena
from xeri.bots import Bot, make_bot, make_cheater
from xeri.cards import Card
from xeri.engine import Deal, Round
from xeri.match import Match
from xeri.rules import find_ruleset
from xeri.server.table import autoplay
from xeri.tui import game as game_module
from xeri.tui.game import Game

#: fair bots, with budgets small enough for a unit test (the levels' own specs are the same bots)
SPECS = ("random", "greedy", "expert", "ismcts:iterations=20", "pimc:iterations=10", "playout")
CARD_CONTAINERS = (tuple, list, set, frozenset)


def reachable(root: object, limit: int = 500_000) -> Iterator[object]:
    """Every object reachable from ``root`` through ``gc.get_referents``, not through modules or classes."""
    modules = {id(vars(m)) for m in list(sys.modules.values()) if isinstance(m, types.ModuleType)}
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or id(obj) in modules or isinstance(obj, types.ModuleType | type):
            continue
        seen.add(id(obj))
        assert len(seen) < limit, "the walk did not end"
        yield obj
        stack.extend(gc.get_referents(obj))


def leaks(bot: object, seat: int, secrets: Sequence[int], deal: Deal | None, match_seed: int | None) -> list[str]:
    """What in ``bot`` opens the deal: a list of findings, empty if nothing does."""
    found: list[str] = []
    forbidden = {s % 2**64 for s in secrets} | {s % 2**63 for s in secrets}
    texts = {str(s) for s in secrets}
    fresh = {random.Random(s).getstate() for s in secrets}
    affine = {random.Random((match_seed + 7919 * (seat + 1)) % 2**63).getstate()} if match_seed is not None else set()
    hidden: list[tuple[str, tuple[Card, ...]]] = []
    if deal is not None:
        hidden += [(f"seat {s}'s hand", h) for s, h in enumerate(deal.hands) if s != seat]
        hidden += [("the talon", deal.talon), ("the face-down cards", deal.face_down)]
    for obj in reachable(bot):
        if isinstance(obj, Round | Match | Deal):
            found.append(f"a {type(obj).__name__} object")
        elif isinstance(obj, int) and not isinstance(obj, bool):
            if abs(obj) in forbidden:
                found.append(f"the secret {obj}")
            elif match_seed is not None and (obj - 7919 * (seat + 1)) % 2**63 == match_seed % 2**63:
                found.append(f"{obj}, the match seed plus 7919·(seat+1)")
        elif isinstance(obj, str) and any(t in obj for t in texts):
            found.append(f"a string naming a secret: {obj[:80]!r}")
        elif isinstance(obj, random.Random) and obj.getstate() in fresh:
            found.append("a random generator seeded with a secret")
        elif isinstance(obj, random.Random) and obj.getstate() in affine:
            found.append("a random generator seeded with the match seed plus 7919·(seat+1)")
        elif isinstance(obj, CARD_CONTAINERS) and obj and all(isinstance(c, Card) for c in obj):
            for what, cards in hidden:
                if len(cards) >= 2 and (tuple(obj) == tuple(cards) or set(obj) == set(cards)):
                    found.append(f"a card list equal to {what}")
    return found


def assert_opens_nothing(bot: object, seat: int, secrets: Sequence[int], deal: Deal | None,
                         match_seed: int | None, where: str) -> None:
    found = leaks(bot, seat, secrets, deal, match_seed)
    assert not found, f"{where}: the bot at seat {seat} holds {found[:3]}"


def assert_seed_is_one_way(seed: int, seat: int, secrets: Sequence[int], match_seed: int | None) -> None:
    assert seed not in secrets and seed % 2**63 not in {s % 2**63 for s in secrets}
    if match_seed is not None:
        assert (seed - 7919 * (seat + 1)) % 2**63 != match_seed % 2**63
        assert random.Random(seed).getrandbits(64) not in secrets  # not the match seed under another name


# --- the control: the check catches a bot that holds the deal ------------------------------------------


def test_the_check_catches_a_bot_holding_the_round() -> None:
    rnd = Round.new(find_ruleset("pisti"), 1, 77)
    cheat = make_cheater("oracle-cheater", rnd, seed=5)
    found = leaks(cheat, 0, [77], rnd.deal, None)
    assert "a Round object" in found and any("seat 1's hand" in f for f in found)
    affine = types.SimpleNamespace(seed=(123456789 + 7919 * 2) % 2**63)
    assert leaks(affine, 1, [999], None, 123456789) == [f"{affine.seed}, the match seed plus 7919·(seat+1)"]
    assert leaks(types.SimpleNamespace(rng=random.Random(77)), 0, [77], None, None)


# --- the server ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "pisti"])
def test_server_bots_open_nothing(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built through the server's own path (``autoplay.server_bot``: a fresh bot per move), no server needed."""
    given: list[int | None] = []

    def recording_make_bot(spec: str, seed: int | None = None, **options: Any) -> Bot:
        given.append(seed)
        return make_bot(spec, seed, **options)

    monkeypatch.setattr(autoplay, "make_bot", recording_make_bot)
    match_seed = 2**63 + 987654321
    match = Match(find_ruleset(preset, players=4), seed=match_seed)
    rng = random.Random(1)
    for version in range(6):
        seat = match.turn
        assert seat is not None
        spec = SPECS[version % len(SPECS)]
        bot = autoplay.server_bot(spec, match_seed, seat, version)
        secrets = [match_seed, *match.round_seeds]
        seed = given.pop()
        assert seed == seeds.bot_seed(match_seed, seat, domain=autoplay.SEED_DOMAIN, generation=version)
        assert_seed_is_one_way(seed, seat, secrets, match_seed)
        assert_opens_nothing(bot, seat, secrets, match.round.deal, match_seed, f"server {spec}")
        card = bot.choose(match.view(seat), match.round.log_for(seat))
        assert_opens_nothing(bot, seat, secrets, match.round.deal, match_seed, f"server {spec} after a move")
        match.play(card if rng.random() < 0.5 else rng.choice(match.legal_moves))


# --- the terminal ---------------------------------------------------------------------------------------


class _NoFrontend:
    """``Game`` builds its bots without touching the frontend."""


@pytest.mark.parametrize("level", ["hard", "medium", "ismcts:iterations=20"])
def test_terminal_bots_open_nothing(level: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    match_seed = 4_000_000_000_123
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the match starts, is saved, and input ends
    assert cli.main(["play", "--seed", str(match_seed), "--players", "4", "--ruleset", "pisti",
                     "--level", level, "--fast", "--data-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    (path,) = (tmp_path / "matches").glob("*.json")
    match, setup = saves.load(path)
    for seat, saved in setup.bot_seeds.items():
        # What the save keeps for each bot is itself one-way from the match seed.
        assert saved == seeds.derive(match_seed, "play-saved-bot", seat)
        assert_seed_is_one_way(saved, seat, [match_seed, *match.round_seeds], match_seed)
    given: list[int | None] = []

    def recording_make_bot(spec: str, seed: int | None = None, **options: Any) -> Bot:
        given.append(seed)
        return make_bot(spec, seed, **options)

    monkeypatch.setattr(game_module, "make_bot", recording_make_bot)
    game = Game(match, setup, _NoFrontend(), path)  # type: ignore[arg-type]  # the resume path builds the bots
    moves = sum(len(r.moves) for r in match.rounds)
    assert sorted(game.bots) == [1, 2, 3]
    # Each bot's seed is its saved seed, hashed one-way again.
    expected = {seat: seeds.bot_seed(setup.bot_seeds[seat], seat, domain=game_module.SEED_DOMAIN, generation=moves)
                for seat in game.bots}
    assert sorted(given) == sorted(expected.values())  # type: ignore[type-var]
    for seat, seed in expected.items():
        assert_seed_is_one_way(seed, seat, [match_seed, *match.round_seeds], match_seed)
    rng = random.Random(3)
    for _ in range(4):
        seat = match.turn
        assert seat is not None
        secrets = [match_seed, *match.round_seeds]
        if seat in game.bots:
            bot = game.bots[seat]
            assert_opens_nothing(bot, seat, secrets, match.round.deal, match_seed, f"terminal {level}")
            match.play(bot.choose(match.view(seat), match.log_for(seat)))
            assert_opens_nothing(bot, seat, secrets, match.round.deal, match_seed, f"terminal {level}, moved")
        else:
            match.play(rng.choice(match.legal_moves))


def test_an_old_save_still_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Saves written before the one-way seeds hold bot seeds drawn another way: they load and play on."""
    match = Match(find_ruleset("classic", rounds=1), seed=42, names=["You", "Computer"])
    match.play(match.legal_moves[0])
    old = saves.PlaySetup(humans=(0,), levels={1: "hard"}, bot_seeds={1: random.Random("xeri-play:42").getrandbits(63)})
    path = tmp_path / "matches" / "old.json"
    path.parent.mkdir()
    saves.save(path, match, old)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    assert cli.main(["play", "--resume", str(path), "--fast", "--data-dir", str(tmp_path)]) == 0
    assert "Continuing the match" in capsys.readouterr().out
    resumed, setup = saves.load(path)
    assert setup.bot_seeds == old.bot_seeds and sum(len(r.moves) for r in resumed.rounds) >= 3


# --- the arena ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "pisti"])
def test_arena_bots_open_nothing(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[tuple[str, int | None, Bot]] = []

    def recording_make_bot(spec: str, seed: int | None = None, **options: Any) -> Bot:
        bot = make_bot(spec, seed, **options)
        built.append((spec, seed, bot))
        return bot

    rounds: list[tuple[int, Round]] = []
    real_new = Round.new

    def recording_new(ruleset: Any, dealer: int = 0, seed: Any = None) -> Round:
        rnd = real_new(ruleset, dealer, seed)
        rounds.append((seed, rnd))
        return rnd

    monkeypatch.setattr(arena, "make_bot", recording_make_bot)
    monkeypatch.setattr(arena.Round, "new", recording_new)
    ruleset = find_ruleset(preset, players=4)
    deal_seed = 2**64 - 12345
    for a_side in (0, 1):
        built.clear()
        rounds.clear()
        arena.play_game("ismcts:iterations=20", "expert", ruleset, 1, deal_seed, a_side)
        ((seed, _),) = rounds
        assert seed == deal_seed and len(built) == 4
        for seat, (spec, bot_seed, bot) in enumerate(built):
            # The keyed one-way hash of the deal seed, under the arena's own domain tag.
            assert bot_seed == seeds.bot_seed(deal_seed, seat, domain=arena.SEED_DOMAIN, generation=a_side)
            assert_seed_is_one_way(bot_seed, seat, [deal_seed], None)
            # After the whole round every card is public: the deal's secrets are what must not be there.
            assert_opens_nothing(bot, seat, [deal_seed], None, None, f"arena {spec}")


# --- the Gymnasium env ----------------------------------------------------------------------------------


def test_gym_opponents_open_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gymnasium", reason="the rl extra is installed by scripts/test.sh")
    from xeri.integrations import gym

    given: list[int | None] = []

    def recording_make_bot(spec: str, seed: int | None = None, **options: Any) -> Bot:
        given.append(seed)
        return make_bot(spec, seed, **options)

    monkeypatch.setattr(gym, "make_bot", recording_make_bot)
    deals: list[int] = []
    real_new = Round.new

    def recording_new(ruleset: Any, dealer: int = 0, seed: Any = None) -> Round:
        deals.append(seed)
        return real_new(ruleset, dealer, seed)

    monkeypatch.setattr(Round, "new", recording_new)
    for preset, spec in (("pisti", "ismcts:iterations=20"), ("classic", "expert")):
        env = gym.XeriEnv(opponent=spec, players=4, ruleset=preset)
        given.clear()
        env.reset(seed=7)
        rnd = env._round
        assert rnd is not None and deals
        secrets = [deals[-1]]
        for _ in range(2):
            for seat, bot in enumerate(env._bots):
                if bot is not None:
                    assert_opens_nothing(bot, seat, secrets, rnd.deal, None, f"gym {spec}")
            env.step(int(env.action_masks().argmax()))
        # The keyed one-way hash of the deal seed, under the env's own domain tag, for seats 1, 2 and 3.
        assert given == [seeds.bot_seed(deals[-1], seat, domain=gym.SEED_DOMAIN) for seat in (1, 2, 3)]
        for seat, seed in zip((1, 2, 3), given, strict=True):
            assert seed is not None
            assert_seed_is_one_way(seed, seat, secrets, None)
