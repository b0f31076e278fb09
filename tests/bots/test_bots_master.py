"""The master bot: its exact endgame equals brute force, its inference reads only the public log, it hides nothing.

Also the reproducible budget mode (issue 16 §2): with iterations only, decisions do not depend on the machine's
load, so the same seed gives the same moves beside a busy process.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import random

import numpy as np
import pytest

from support.bot_play import last_cards
from xeri import find_ruleset
from xeri.bots import make_bot
from xeri.bots.determinize import Determinizer
from xeri.bots.endgame import Solver
from xeri.bots.inference import lacked_indices, lacked_ranks, sample_consistent
from xeri.bots.master import ENDGAME_CARDS, MasterBot
from xeri.bots.master_config import Early, MasterConfig, Partner
from xeri.bots.registry import BotSpecError, parse_spec
from xeri.bots.sim import SimState, from_round
from xeri.cards import Card, Rank
from xeri.engine import Deal, Round
from xeri.events import Dealt, PileRedealt, Played
from xeri.rules import Ruleset


def brute(st: SimState, root: int) -> float:
    """The root side's final margin under plain minimax over every card (no table, no pruning)."""
    if st.turn < 0:
        pts = st.pts
        others = [p for s, p in enumerate(pts) if s != root]
        return pts[root] - sum(others) / len(others)
    values = []
    for c in list(st.hands[st.turn]):
        child = st.copy()
        child.play(c)
        values.append(brute(child, root))
    return max(values) if st.turn % st.rules.sides == root else min(values)


@pytest.mark.parametrize(("preset", "players", "left"), [("classic", 2, 8), ("pisti", 2, 8), ("cardgames", 4, 8),
                                                          ("berman", 3, 6)])
def test_exact_endgame_equals_brute_force(preset: str, players: int, left: int) -> None:
    for seed in range(6):
        rnd = last_cards(preset, players, left, seed)
        st = from_round(rnd)
        root = st.turn % st.rules.sides
        got = Solver(st).solve_root(st, root)
        assert sorted(got) == sorted(st.hands[st.turn])
        for c, v in got.items():
            child = st.copy()
            child.play(c)
            assert v == pytest.approx(brute(child, root)), (seed, c)


def test_exact_endgame_is_perfect_play_in_the_last_deal() -> None:
    """Two players, empty talon: the master's values are the exact ones, and it plays the best."""
    for seed in range(4):
        rnd = last_cards("classic", 2, 9, seed)
        seat = rnd.turn
        assert seat is not None
        st = from_round(rnd)
        exact = Solver(st).solve_root(st, seat)
        bot = MasterBot(seed=1)
        values = bot.evaluate(rnd.view(seat), rnd.log_for(seat))
        assert {c.index: v for c, v in values.items()} == pytest.approx(exact)
        card = bot.choose(rnd.view(seat), rnd.log_for(seat))
        assert exact[card.index] == max(exact.values())


def horizon_brute(st: SimState, root: int, solver: Solver) -> float:
    """Plain search to the end of the deal: the root side maximises, the others play the solver's policy."""
    margin = solver._margin(st.pts, root)
    if st.turn < 0:
        return margin
    hand = st.hands[st.turn]
    options = list(hand) if st.turn % st.rules.sides == root else [
        solver._policy(tuple(hand), st.pile[-1] % 13 if st.pile else -1, len(st.pile), st.pile_val)]
    values = []
    for c in options:
        child = st.copy()
        tpos = child.tpos
        child.play(c)
        if child.tpos != tpos:  # the next deal was dealt: the horizon
            top = child.pile[-1] % 13 if child.pile else -1
            values.append(solver._margin(child.pts, root)
                          + solver._horizon(root, top, len(child.pile), child.pile_val, tuple(child.cnt)))
        else:
            values.append(horizon_brute(child, root, solver))
    return max(values)


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("pisti", 2), ("cardgames", 4)])
def test_horizon_search_equals_brute_force(preset: str, players: int) -> None:
    """Mid-round, to the end of the deal, against policy opponents: the table and the pruning change no value."""
    ruleset = find_ruleset(preset, players=players)
    checked = 0
    for seed in range(8):
        rnd = Round.new(ruleset, seed % players, seed)
        bots = [make_bot("expert", seed + s) for s in range(players)]
        while not (rnd.is_over or (rnd.talon and sum(len(rnd.hand(s)) for s in range(players)) == 7)):
            seat = rnd.turn
            assert seat is not None
            rnd.play(bots[seat].choose(rnd.view(seat), rnd.log_for(seat)), seat)
        if rnd.is_over:
            continue
        st = from_round(rnd)
        root = st.turn % st.rules.sides
        solver = Solver(st)
        solver.policy_opponents(st.seen)
        got = solver.solve_root(st, root, horizon=True)
        assert sorted(got) == sorted(st.hands[st.turn])
        for c, v in got.items():
            child = st.copy()
            child.play(c)
            assert v == pytest.approx(horizon_brute(child, root, solver)), (seed, c)
        checked += 1
    assert checked >= 4


def test_sampled_worlds_follow_the_inference() -> None:
    """A seat that passed on a rank holds none of it in the sampled worlds, unless no world fits."""
    rs = find_ruleset("classic")
    informed = 0
    for seed in range(6):
        rnd = Round.new(rs, 1, seed)
        bots = [make_bot("expert", seed + s) for s in range(2)]
        for _ in range(5):
            seat = rnd.turn
            assert seat is not None
            rnd.play(bots[seat].choose(rnd.view(seat), rnd.log_for(seat)), seat)
        seat = rnd.turn
        assert seat is not None
        log = rnd.log_for(seat)
        lacks = lacked_indices(log, 2)
        informed += bool(lacks[1 - seat])
        det = Determinizer(rnd.view(seat), log)
        rng = random.Random(seed)
        for _ in range(20):
            world = sample_consistent(det, lacks, rng)
            assert sorted(world.hands[seat]) == sorted(c.index for c in rnd.hand(seat))
            assert not any(c % 13 in lacks[1 - seat] for c in world.hands[1 - seat])
        # Told that the other seat lacks every rank, no world fits: the draw is still a world of this view.
        world = sample_consistent(det, [frozenset(range(13))] * 2, rng, tries=3)
        assert len(world.hands[1 - seat]) == len(rnd.hand(1 - seat))
    assert informed >= 2


def test_inference_reads_a_pass_on_the_top_rank() -> None:
    five, six, nine = Card.parse("5♣"), Card.parse("6♥"), Card.parse("9♦")
    deal = Dealt(dealer=1, hands=(None, None), sizes=(6, 6), pile=(five,), talon=36, first=True)
    # Seat 0 discards a 6 on the 5: it lacks a 5. Seat 1 discards a 9 on the 6: it lacks a 6.
    log = [deal, Played(0, six), Played(1, nine)]
    lacks = lacked_ranks(log, 2)
    assert lacks == [{Rank.FIVE}, {Rank.SIX}]
    # A capture teaches nothing, and new hands forget what the old ones lacked.
    assert lacked_ranks([deal, Played(0, Card.parse("5♦"))], 2) == [set(), set()]
    redeal = Dealt(dealer=1, hands=(None, None), sizes=(6, 6), pile=(), talon=24, first=False)
    assert lacked_ranks([*log, redeal], 2) == [set(), set()]


def hidden_cards(rnd: Round, seat: int) -> set[Card]:
    """Cards ``seat`` cannot place now: other hands, the talon, face-down cards (taken or not)."""
    hidden = {c for s in range(rnd.ruleset.players) if s != seat for c in rnd.hand(s)}
    hidden |= set(rnd.talon) | set(rnd.deal.face_down)
    if rnd.deal.exposed is not None:
        hidden.discard(rnd.deal.exposed)
    for e in rnd.events:
        if type(e) is PileRedealt:
            hidden -= set(e.cards)
    return hidden


def twin_anywhere(rnd: Round, seat: int, rng: random.Random) -> Round:
    """The same round, at any point, with the cards ``seat`` cannot place shuffled among their places in the deal."""
    deal = rnd.deal
    hidden = hidden_cards(rnd, seat)
    rows = [list(h) for h in deal.hands] + [list(deal.pile), list(deal.talon)]
    slots = [(row, i) for row in rows for i, c in enumerate(row) if c in hidden]
    cards = [row[i] for row, i in slots]
    rng.shuffle(cards)
    for (row, i), c in zip(slots, cards, strict=True):
        row[i] = c
    n = rnd.ruleset.players
    pile = rows[n]
    down = tuple(pile[i] for i, c in enumerate(deal.pile) if c in deal.face_down)
    twin = Round(rnd.ruleset, rnd.dealer, Deal(tuple(map(tuple, rows[:n])), tuple(pile), tuple(rows[n + 1]), down,
                                               deal.exposed, deal.redealt, deal.slipped))
    for s, c in rnd.played:
        twin.play(c, s)
    return twin


MASTER_SPECS = ["master", "master:iterations=40,early=pimc", "master:worlds=3,endgame=16",
                "master:search=8,worlds=3", "master:search=6,worlds=3,opponents=minimax",
                "master:early=rollout,rworlds=20,rdeals=0", "master:early=rollout,rworlds=20,rdeals=1,mix=0.5",
                "master:early=expert", "master:sampler=python,rworlds=20", "master:rworlds=200,rdeals=2",
                "master:rworlds=200,model=1,weigh=0.1", "master:sampler=python,rworlds=20,model=1",
                "master:rworlds=200,partner=master", "master:rworlds=200,endworlds=uniform,downplays=0",
                "master:rworlds=200,match=0", "learned"]
#: specs also asked in a match at stake (the match scores and rounds won in the view: ``match_value``)
MATCH_SPECS = ["master", "master:rworlds=200,sampler=python", "master:rworlds=200,partner=master"]


def experts_played(ruleset: Ruleset, dealer: int, rng: random.Random, low: int, high: int) -> Round:
    """A round dealt from ``rng`` and played by experts for a number of cards drawn from ``[low, high)``."""
    rnd = Round.new(ruleset, dealer, rng.getrandbits(64))
    bots = [make_bot("expert", s) for s in range(ruleset.players)]
    stop = rng.randrange(low, high)
    while len(rnd.played) < stop and not rnd.is_over:
        seat = rnd.turn
        assert seat is not None
        rnd.play(bots[seat].choose(rnd.view(seat), rnd.log_for(seat)), seat)
    return rnd


@pytest.mark.parametrize(("preset", "players"), [("classic", 3), ("pisti", 4), ("pisti", 2)])
def test_the_strong_levels_table_fallbacks_decide_the_same_whatever_the_hidden_cards(preset: str, players: int) -> None:
    """The strong level's own bots at 3 players (the master on 256 worlds) and at 4-player Pişti (the expert tuned
    for Pişti) read the view only, as the Pişti-tuned rollout policy does."""
    ruleset = find_ruleset(preset, players=players)
    rng = random.Random(11)
    differed = 0
    for k in range(4):
        rnd = experts_played(ruleset, k % players, rng, 8, 40)
        seat = rnd.turn
        assert seat is not None and not rnd.is_over
        twin = twin_anywhere(rnd, seat, rng)
        differed += any(twin.hand(s) != rnd.hand(s) for s in range(players))
        view, log = rnd.view(seat), rnd.log_for(seat)
        assert (twin.view(seat), twin.log_for(seat)) == (view, log)
        for spec in ("learned", "master:rworlds=200,rpolicy=expert-pisti"):
            seed = rng.getrandbits(32)
            assert make_bot(spec, seed).choose(view, log) == make_bot(spec, seed).choose(
                twin.view(seat), twin.log_for(seat)), spec
    assert differed == 4


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("pisti", 2), ("cardgames", 4)])
def test_master_decides_the_same_whatever_the_hidden_cards(preset: str, players: int) -> None:
    """Twins late in the round too, where the exact endgame and the inference decide."""
    ruleset = find_ruleset(preset, players=players)
    rng = random.Random(5)
    differed = 0
    for k in range(6):
        rnd = experts_played(ruleset, k % players, rng, 30, 52 - ruleset.pile_size - 1)
        if rnd.is_over:
            continue
        seat = rnd.turn
        assert seat is not None
        twin = twin_anywhere(rnd, seat, rng)
        differed += any(twin.hand(s) != rnd.hand(s) for s in range(players))
        view, log = rnd.view(seat), rnd.log_for(seat)
        assert (twin.view(seat), twin.log_for(seat)) == (view, log)
        for spec in MASTER_SPECS:
            seed = rng.getrandbits(32)
            a = make_bot(spec, seed)
            b = make_bot(spec, seed)
            assert a.choose(view, log) == b.choose(twin.view(seat), twin.log_for(seat)), spec
        # The same positions in a match at stake: the master plays for the match (``outcome_table``).
        target = 51 if preset != "pisti" else 61
        rules = ruleset.replace(match_end="target", target=target)
        match_state = {"ruleset": rules, "match_scores": (target - 6, target - 11), "round_wins": (1, 1),
                       "round_number": 3, "target": target}
        mine = dataclasses.replace(view, **match_state)
        theirs = dataclasses.replace(twin.view(seat), **match_state)
        assert mine == theirs
        for spec in MATCH_SPECS:
            seed = rng.getrandbits(32)
            a = make_bot(spec, seed)
            assert a.outcome(mine) is not None, spec  # type: ignore[attr-defined]
            assert a.choose(mine, log) == make_bot(spec, seed).choose(theirs, twin.log_for(seat)), spec
    assert differed >= 3


def _decisions(spec: str) -> list[str]:
    """Every move of two seeded rounds between the bot and the expert."""
    out = []
    for seed in (1, 2):
        rnd = Round.new(find_ruleset("classic"), 0, seed)
        bots = [make_bot(spec, 7), make_bot("expert", 8)]
        while not rnd.is_over:
            seat = rnd.turn
            assert seat is not None
            card = bots[seat].choose(rnd.view(seat), rnd.log_for(seat))
            out.append(str(card))
            rnd.play(card, seat)
    return out


def _burn(stop: multiprocessing.synchronize.Event) -> None:
    x = 0
    while not stop.is_set():
        x = (x * 31 + 7) % 1_000_003


@pytest.mark.parametrize("spec", ["master", "master:iterations=60,early=pimc", "pimc:iterations=60"])
def test_reproducible_mode_is_identical_beside_a_busy_process(spec: str) -> None:
    """Iteration budgets only: the same decisions alone and with every core kept busy by other processes."""
    quiet = _decisions(spec)
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    burners = [ctx.Process(target=_burn, args=(stop,), daemon=True) for _ in range(multiprocessing.cpu_count())]
    for p in burners:
        p.start()
    try:
        busy = _decisions(spec)
        assert all(p.is_alive() for p in burners)  # the machine really was busy throughout
    finally:
        stop.set()
        for p in burners:
            p.join(timeout=10)
    assert busy == quiet


def test_bad_master_parameters_are_refused_naming_the_option() -> None:
    for params in ("worlds=0", "endgame=-1", "early=foo", "iterations=0", "search=-1", "opponents=foo", "rworlds=0",
                   "rdeals=-1", "rpolicy=random", "mix=2", "close=-1", "sampler=numpy", "infer=2", "model=yes",
                   "weigh=1.5", "endworlds=all", "partner=me", "rollout=slow", "jack_keep=x", "worlds=2.5"):
        key = params.split("=")[0]
        with pytest.raises(ValueError, match=key):
            MasterConfig.from_spec(parse_spec(f"master:{params}")[1])
        with pytest.raises(BotSpecError, match=key):
            make_bot(f"master:{params}")
    with pytest.raises(BotSpecError, match="unknown master option 'wrolds'"):
        make_bot("master:wrolds=2")
    with pytest.raises(ValueError, match=r"off_style_weight \(spec weigh\)"):
        MasterConfig(off_style_weight=2.0)
    with pytest.raises(TypeError, match="MasterConfig"):
        MasterBot(3)  # type: ignore[arg-type]


def test_a_spec_maps_into_one_frozen_config() -> None:
    bot = make_bot("master:early=expert,rworlds=256,infer=0,partner=master,close=2,endgame=12", seed=1)
    assert isinstance(bot, MasterBot)
    assert bot.config == MasterConfig(early=Early.EXPERT, rollout_worlds=256, inference=False, partner=Partner.MASTER,
                                      rollout_when_within=2.0, endgame_cards=12)
    assert make_bot("master", seed=1).config == MasterConfig()  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        bot.config.rollout_worlds = 1  # type: ignore[misc]


def test_rollouts_reach_two_deals_ahead_in_two_player_pisti_only_unless_told() -> None:
    from xeri import find_ruleset

    pisti2, pisti4, classic = (find_ruleset("pisti", players=2), find_ruleset("pisti", players=4),
                               find_ruleset("classic"))
    bot = MasterBot(seed=1)
    assert [bot.deals_ahead(r) for r in (pisti2, pisti4, classic)] == [2, 1, 1]
    one = MasterBot(MasterConfig(rollout_deals=1), seed=1)
    assert [one.deals_ahead(r) for r in (pisti2, pisti4, classic)] == [1, 1, 1]
    assert MasterBot(MasterConfig(rollout_deals=0), seed=1).deals_ahead(pisti2) == 0


def test_the_exact_endgame_plays_the_last_cards_but_at_four_players_while_the_rollouts_are_there() -> None:
    two, three, four = (find_ruleset("classic", players=n) for n in (2, 3, 4))
    pisti4 = find_ruleset("pisti", players=4)
    bot = MasterBot(seed=1)
    assert bot.rollouts_ready
    pisti2 = find_ruleset("pisti", players=2)
    tables = (two, pisti2, three, four, pisti4)
    assert [bot.endgame_cards(r) for r in tables] == [ENDGAME_CARDS, ENDGAME_CARDS, ENDGAME_CARDS, 0, 0]
    # Told, or without the rollouts (the counting rules play early), it solves the last cards exactly.
    assert MasterBot(MasterConfig(endgame_cards=12), seed=1).endgame_cards(four) == 12
    assert MasterBot(MasterConfig(endgame_cards=0), seed=1).endgame_cards(two) == 0
    assert MasterBot(MasterConfig(early=Early.EXPERT), seed=1).endgame_cards(four) == ENDGAME_CARDS
    without = MasterBot(seed=1)
    without._no_rollouts = True  # as where the fast extra is missing
    assert without.endgame_cards(four) == ENDGAME_CARDS
    # A bot made in the last cards (a resumed round, a hint) plays them as one that played the whole round.
    assert MasterBot(seed=1).endgame_cards(four) == 0


def test_interactive_mode_adds_a_wall_clock_cap_and_reproducible_mode_none() -> None:
    from xeri.bots.registry import INTERACTIVE_SECONDS, LEVELS

    assert all("seconds" not in spec for spec in LEVELS.values())  # the levels are the reproducible mode
    assert vars(make_bot("master", 0))["seconds"] is None
    assert vars(make_bot("master", 0, interactive=True))["seconds"] == INTERACTIVE_SECONDS
    assert vars(make_bot("pimc:iterations=50,seconds=0.2", 0, interactive=True))["seconds"] == 0.2
    assert make_bot("expert", 0, interactive=True).name == "expert"  # no budget to cap


def _positions(preset: str, players: int, count: int, seed: int) -> list[Round]:
    """Rounds stopped at a random move before the last deal, the expert playing every seat."""
    ruleset = find_ruleset(preset, players=players)
    rng = random.Random(seed)
    out = []
    for k in range(count):
        rnd = Round.new(ruleset, k % players, rng.getrandbits(64))
        bots = [make_bot("expert", k + s) for s in range(players)]
        stop = rng.randrange(0, 52 - ruleset.pile_size - ruleset.players * ruleset.hand_size)
        while len(rnd.played) < stop:
            seat = rnd.turn
            assert seat is not None
            rnd.play(bots[seat].choose(rnd.view(seat), rnd.log_for(seat)), seat)
        out.append(rnd)
    return out


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("pisti", 2), ("cardgames", 4)])
def test_compiled_rollouts_replay_the_python_simulator(preset: str, players: int) -> None:
    """``early=rollout``'s kernel: each card, then the policy, to the round's end or the deal's, in each world.

    With the playout policy the kernel's stream is ``xeri.fast.rollout.finish``'s, whose moves the Python
    simulator replays: the same margin to the round's end, and to the end of the deal (cards taken worth ``w``).
    """
    from xeri.bots.playouts import offered_playout
    from xeri.fast.rollout import finish
    from xeri.scoring import margin

    card_values = offered_playout("compiled-expert")
    rng = random.Random(3)
    w = 0.25
    for rnd in _positions(preset, players, 6, 17):
        seat = rnd.turn
        assert seat is not None
        view, log = rnd.view(seat), rnd.log_for(seat)
        det = Determinizer(view, log)
        worlds = [det.sample(rng) for _ in range(3)]
        cards = [c.index for c in view.legal_moves]
        side = seat % rnd.ruleset.sides
        seed = rng.getrandbits(62)
        gone = [c.index for c in view.gone]
        whole = card_values(worlds, cards, side, seed, gone, "playout", 0, w)
        deal = card_values(worlds, cards, side, seed, gone, "playout", 1, w)
        for k, c in enumerate(cards):
            st = worlds[0].copy()
            st.play(c)
            moves = np.full(52, -1, np.int64)
            if st.turn >= 0:
                finish(st, seed, moves=moves)
            assert whole[0][k] == pytest.approx(margin(st.pts, side))
            st = worlds[0].copy()
            tpos = st.tpos
            for m in [c, *(int(x) for x in moves if x >= 0)]:
                st.play(m)
                if st.turn < 0 or st.tpos != tpos:
                    break
            if st.turn < 0:
                assert deal[0][k] == pytest.approx(margin(st.pts, side))
            else:
                worth = [p + w * n for p, n in zip(st.pts, st.cnt, strict=True)]
                assert deal[0][k] == pytest.approx(margin(worth, side))


def test_rollout_master_weighs_each_card_by_its_rollouts() -> None:
    """Its values are the mean rollout margins (the points so far included); a xeri is worth taking."""
    rs = find_ruleset("classic")
    for rnd in _positions("classic", 2, 4, 5):
        seat = rnd.turn
        assert seat is not None
        view, log = rnd.view(seat), rnd.log_for(seat)
        bot = MasterBot(MasterConfig(early=Early.ROLLOUT, rollout_worlds=48, rollout_deals=1), seed=2)
        values = bot.evaluate(view, log)
        assert set(values) == set(view.legal_moves) and bot.stats.iterations == 48
        assert all(abs(v) < 200 for v in values.values())
    # A lone card on the pile and a card of its rank in hand: the xeri (10 points) is the card to play.
    rng = random.Random(6)
    found = 0
    for k in range(40):
        rnd = Round.new(rs, k % 2, rng.getrandbits(64))
        bots = [make_bot("expert", k), make_bot("expert", k + 1)]
        while rnd.talon and found < 3:
            seat = rnd.turn
            assert seat is not None
            view = rnd.view(seat)
            top = view.top
            if len(view.pile) == 1 and top is not None and top.rank is not Rank.JACK:
                xeri = [c for c in view.hand if c.rank is top.rank]
                if xeri:
                    found += 1
                    bot = MasterBot(MasterConfig(early=Early.ROLLOUT, rollout_worlds=32, rollout_deals=1), seed=k)
                    assert bot.choose(view, rnd.log_for(seat)) in xeri
            rnd.play(bots[seat].choose(view, rnd.log_for(seat)), seat)
    assert found == 3


def test_without_the_compiled_rollouts_the_master_plays_the_counting_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pip install xeri`` has no numba: ``early=rollout`` falls back to the counting rules, and says so."""
    import xeri.bots.master as master

    def missing(name: str) -> None:
        raise ValueError(f"rollout={name} is not installed")

    monkeypatch.setattr(master, "offered_playout", missing)
    bot = MasterBot(MasterConfig(early=Early.ROLLOUT), seed=4)
    assert not bot.rollouts_ready
    counting = MasterBot(MasterConfig(early=Early.EXPERT), seed=4)
    for rnd in _positions("classic", 2, 3, 8):
        seat = rnd.turn
        assert seat is not None
        view, log = rnd.view(seat), rnd.log_for(seat)
        assert bot.evaluate(view, log) == counting.evaluate(view, log)


def test_rollouts_stop_at_the_wall_clock_cap() -> None:
    """A budget of a million worlds with a 50 ms cap: the cap ends it (checked between batches of worlds)."""
    rnd = _positions("classic", 2, 1, 9)[0]
    seat = rnd.turn
    assert seat is not None
    import xeri.bots.master as master

    bot = MasterBot(MasterConfig(early=Early.ROLLOUT, rollout_worlds=1_000_000, iterations=None, seconds=0.05), seed=1)
    bot.evaluate(rnd.view(seat), rnd.log_for(seat))  # a capped master's first move in a process starts the loader
    assert master._LOADER is not None
    master._LOADER.join(120)  # then plays with the rollouts (alone, this test saw none: iterations 0)
    bot.evaluate(rnd.view(seat), rnd.log_for(seat))
    assert bot.status == "full" and 0 < bot.stats.iterations < 1_000_000


def test_under_a_cap_the_next_world_is_begun_only_if_it_can_end_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worlds of 250 ms on a clock that only the worlds move: with a 0.9 s cap the third ends at 0.75 s and a fourth
    would end at 1.0 s, so the search stops at three, under the cap, where checking the clock alone ran the
    fourth to 1.0 s (the 3-player endgame's first move passed 0.95 s so)."""
    import xeri.bots.master as master

    clock = [0.0]
    monkeypatch.setattr(master.time, "perf_counter", lambda: clock[0])
    units = 0
    while True:
        clock[0] += 0.25
        units += 1
        if master._no_time_for_another(0.9, 0.0, units):
            break
    assert units == 3 and clock[0] == 0.75
    assert not master._no_time_for_another(None, 0.0, 1)  # the reproducible mode has no cap


def test_without_numba_the_master_level_still_plays() -> None:
    """The README's quick start installs no numba: in a process where ``import numba`` fails, the master plays."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from xeri import find_ruleset\nfrom xeri.bots import make_bot\nfrom xeri.engine import Round\n"
        "rnd = Round.new(find_ruleset('classic'), 0, 4)\nbots = [make_bot('master', 1), make_bot('expert', 2)]\n"
        "while not rnd.is_over:\n"
        "    s = rnd.turn\n    rnd.play(bots[s].choose(rnd.view(s), rnd.log_for(s)), s)\n"
        "print(bots[0].rollouts_ready, 'numba' in sys.modules and sys.modules['numba'] is not None)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("pisti", 2), ("cardgames", 4)])
def test_worlds_dealt_in_the_kernel_keep_the_view_and_roll_out_as_card_values(preset: str, players: int) -> None:
    """``sampler=kernel``: each world keeps every public fact and the inference, and its values are ``card_values``'s.

    The worlds the kernel deals are rebuilt as simulator states and rolled out by ``card_values`` on the same
    stream: the same margins, so the kernel path adds only the dealing.
    """
    from xeri.bots.playouts import offered_playout
    from xeri.bots.sim import new_state
    from xeri.fast.layout import R_POINTS
    from xeri.fast.rollout_values import ROLL_SEED

    card_values = offered_playout("compiled-expert")
    world_values = offered_playout("compiled-expert-worlds")
    rng = random.Random(4)
    informed = 0
    for rnd in _positions(preset, players, 6, 23):
        seat = rnd.turn
        assert seat is not None
        view, log = rnd.view(seat), rnd.log_for(seat)
        det = Determinizer(view, log)
        lacks = lacked_indices(log, players)
        informed += any(lacks[s] for s in range(players) if s != seat)
        cards = [c.index for c in view.legal_moves]
        side = seat % rnd.ruleset.sides
        gone = [c.index for c in view.gone]
        run = world_values(det, lacks, cards, side, gone, "expert", 1, 0.15)
        seed = rng.getrandbits(62)
        hands, hand_len, piles, talons, res0 = run.deal(seed, 12)
        unseen = sorted(c.index for c in view.unseen())
        worlds = []
        for w in range(12):
            hs = [[int(c) for c in hands[w, s, : hand_len[w, s]]] for s in range(players)]
            assert sorted(hs[seat]) == sorted(c.index for c in view.hand)
            assert [len(h) for h in hs] == list(view.hand_counts)
            pile = [int(c) for c in piles[w, : len(view.pile)]]
            assert all(c is None or c.index == p for c, p in zip(view.pile, pile, strict=True))
            talon = [int(c) for c in talons[w, : view.talon_count]]
            hidden = sum(det.hidden_taken)
            placed = [c for s in range(players) if s != seat for c in hs[s]] + talon
            placed += [pile[i] for i in det.face_down_at]
            assert len(placed) + hidden == len(unseen) and set(placed) <= set(unseen)
            if view.exposed is not None and view.exposed_holder is None:
                assert talon[-1] == view.exposed.index
            if not hidden:
                assert sorted(placed) == unseen
            for s in range(players):
                if s != seat:
                    assert not any(c % 13 in lacks[s] for c in hs[s])
            pts = [int(x) for x in res0[w, :, R_POINTS]]  # the view's points, face-down cards taken included
            worlds.append(new_state(det.rules, det.dealer, hs, pile, talon, det.turn, last=det.last, cnt=det.cnt[:],
                                    pts=pts, xeris=det.xeris[:], seen=det.seen[:]))
        got = run(seed, 12)
        rows = card_values(worlds, cards, side, seed ^ ROLL_SEED, gone, "expert", 1, 0.15)
        assert got == pytest.approx([sum(r[k] for r in rows) for k in range(len(cards))])
    assert informed >= 1
    # Uniform: without inference each unseen card lands in the other hand at its share (2 players, 3,000 worlds).
    rnd = _positions("classic", 2, 1, 31)[0]
    seat = rnd.turn
    assert seat is not None
    view, log = rnd.view(seat), rnd.log_for(seat)
    det = Determinizer(view, log)
    run = world_values(det, [frozenset(), frozenset()], [view.legal_moves[0].index], seat, [], "expert", 1, 0.15)
    hands, hand_len, *_ = run.deal(99, 3000)
    other = 1 - seat
    counts = np.bincount(hands[:, other, : hand_len[0, other]].ravel(), minlength=52)
    share = det.need[other] / len(det.pool)
    for c in det.pool:
        assert abs(counts[c] / 3000 - share) < 4 * (share * (1 - share) / 3000) ** 0.5, c


def brute_maxn(st: SimState) -> list[float]:
    """Each side's final points when every side plays for its own margin, by plain recursion (ties: the lowest
    card index, as the solver's sorted scan)."""
    if st.turn < 0:
        return [float(p) for p in st.pts]
    me = st.turn % st.rules.sides
    best: list[float] | None = None
    best_v = -1e9
    for c in sorted(st.hands[st.turn]):
        child = st.copy()
        child.play(c)
        vec = brute_maxn(child)
        v = vec[me] - (sum(vec) - vec[me]) / (len(vec) - 1)
        if v > best_v + 1e-9:
            best, best_v = vec, v
    assert best is not None
    return best


@pytest.mark.parametrize("preset", ["berman", "classic"])
def test_three_player_endgame_lets_each_side_play_for_itself(preset: str) -> None:
    """max^n (``each_for_itself``): each root card's value is its margin when every side then plays for itself."""
    for seed in range(4):
        rnd = last_cards(preset, 3, 6, seed)
        st = from_round(rnd)
        root = st.turn % 3
        solver = Solver(st)
        solver.each_for_itself()
        got = solver.solve_root(st, root)
        for c, v in got.items():
            child = st.copy()
            child.play(c)
            vec = brute_maxn(child)
            assert v == pytest.approx(vec[root] - (sum(vec) - vec[root]) / 2), (seed, c)
        paranoid = Solver(st).solve_root(st, root)
        assert all(paranoid[c] <= got[c] + 1e-9 for c in got)  # both others against the root: never better
