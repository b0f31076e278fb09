"""The master's opponent pool (issue 43): each member plays legal, seeded moves from its seat's view, in its style.

``pimc-greedy``'s rollout policy and evaluation are the Pişti study's, not the expert's; ``cautious`` banks rank
captures, keeps Jacks for big piles and discards the ranks it has seen most. (That no member reads a hidden card
is ``test_bots_hidden.py``'s twin test, which plays them too.)
"""

from __future__ import annotations

import math

import pytest

from support.bot_play import play_out
from xeri import find_ruleset
from xeri.bots import BOTS, make_bot
from xeri.bots.pimc_greedy import evaluate_state, greedy_card, roll_out
from xeri.bots.registry import POOL, parse_spec
from xeri.bots.sim import Rules, new_state
from xeri.cards import DECK, Card, parse_cards
from xeri.engine import Round, SeatView
from xeri.scoring import margin

CLASSIC = find_ruleset("classic")
FAST = {"pimc-greedy": "pimc-greedy:samples=4"}


def idx(text: str) -> list[int]:
    return [c.index for c in parse_cards(text.split())]


def view(hand: str, pile: str, gone: str = "") -> SeatView:
    """Seat 0's view, its turn, in 2-player classic: ``gone`` holds cards seen besides the pile; the other hand holds
    as many cards, the talon the rest."""
    cards = parse_cards(hand.split())
    on_pile = parse_cards(pile.split())
    seen = frozenset(on_pile) | frozenset(parse_cards(gone.split()))
    talon = len(DECK) - len(seen) - 2 * len(cards)
    return SeatView(
        ruleset=CLASSIC, seat=0, dealer=1, turn=0, hand=cards, pile=on_pile,
        hand_counts=(len(cards), len(cards)), talon_count=talon,
        captured_counts=(0, 0), xeris=((), ()), points=(0, 0), exposed=None, exposed_holder=None,
        last_capturer=None, played=(), gone=seen, over=False,
    )


def test_the_pool_is_registered_and_excludes_the_expert_and_the_master() -> None:
    names = [parse_spec(spec)[0] for spec in POOL]
    assert names == ["pimc-greedy", "ismcts", "learned", "cautious"]
    assert all(name in BOTS for name in names)


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("pisti", 2), ("classic", 4)])
def test_pool_members_finish_a_round_with_legal_moves_and_the_same_seed_plays_the_same(preset: str,
                                                                                      players: int) -> None:
    ruleset = find_ruleset(preset, players=players)
    for spec in ("pimc-greedy:samples=4", "cautious"):
        games = []
        for _ in range(2):
            rnd = Round.new(ruleset, 0, 5)
            bots = [make_bot(spec, 40 + s) for s in range(players)]
            play_out(rnd, bots)
            games.append(rnd.moves)
        assert games[0] == games[1], spec


def _state(hands: list[str], pile: str, talon: str = "") -> object:
    return new_state(Rules(CLASSIC), 1, [idx(h) for h in hands], idx(pile), idx(talon), 0)


def test_greedy_rollouts_take_the_capture_worth_most_a_rank_before_a_jack() -> None:
    st = _state(["5c Jc 2h", "3d"], "9h 5d")
    assert greedy_card(st) == Card.parse("5c").index  # 5♦ by rank, not the Jack, at equal worth
    st = _state(["5c Jc 2h", "3d"], "10d 5d")
    assert greedy_card(st) == Card.parse("5c").index
    st = _state(["Ac Jc 2h", "3d"], "10d 5d")
    assert greedy_card(st) == Card.parse("Jc").index  # the Jack takes the 10♦ (2 points): any capture beats none
    st = _state(["Ac 5c 2h", "3d"], "5d")
    assert greedy_card(st) == Card.parse("5c").index  # the xeri
    st = _state(["Jc 9c", "3d"], "Js")
    assert greedy_card(st) == Card.parse("Jc").index  # a Jack on a lone Jack


def test_greedy_rollouts_discard_the_fewest_points_and_keep_jacks() -> None:
    assert greedy_card(_state(["Ac Jc 10d 7h", "3d"], "")) == Card.parse("7h").index
    assert greedy_card(_state(["Ac Jc 10d 7h", "3d"], "4s")) == Card.parse("Jc").index
    assert greedy_card(_state(["Ac Jc 10d", "3d"], "")) == Card.parse("Ac").index  # 1 point before the Jack's
    assert greedy_card(_state(["Jc 10d", "3d"], "")) == Card.parse("Jc").index  # 1 point before 2


def test_the_evaluation_is_the_round_margin_at_the_end_and_shaped_before() -> None:
    st = new_state(Rules(CLASSIC), 1, [idx("5c 9h"), idx("5d 8s")], idx("2h"), [], 0)
    cut = st.copy()
    roll_out(cut, 1)
    assert cut.turn >= 0
    shaped = margin(cut.pts, 0) + 3 * math.tanh(margin(cut.cnt, 0) / 13)
    assert evaluate_state(cut, 0) == pytest.approx(shaped)
    roll_out(st, 0)
    assert st.turn < 0 and evaluate_state(st, 0) == margin(st.pts, 0) == -evaluate_state(st, 1)


def test_pimc_greedy_refuses_a_bad_budget() -> None:
    for spec in ("pimc-greedy:samples=0", "pimc-greedy:plies=-1", "pimc-greedy:seconds=0", "cautious:jack_cards=1"):
        with pytest.raises(ValueError, match="must be"):
            make_bot(spec, 0)


def test_pimc_greedy_takes_a_xeri_and_leads_a_safe_card() -> None:
    bot = make_bot("pimc-greedy:samples=16", 1)
    spot = view("5c Kh 2h 9d", "5d", gone="2c 3c 4c 6c 7c 8c 10c")  # the talon: three more deals of 12
    assert spot.talon_count == 36
    assert bot.choose(spot, []) == Card.parse("5c")
    # On an empty pile it leads the 9, whose three other copies are gone, not a card the other seat may match.
    assert bot.choose(view("Kh 2h 9d 4s", "", gone="9c 9h 9s 2c 3c 4c 6c 7c"), []) == Card.parse("9d")


def test_cautious_banks_rank_captures_and_keeps_jacks_for_big_piles() -> None:
    bot = make_bot("cautious", 3)
    assert bot.choose(view("5c Jc 2h 9d", "Kd 5d"), []) == Card.parse("5c")
    small = view("Jc 2h 9d Qs", "4d 6c", gone="2s 2c 2d")
    assert bot.choose(small, []) == Card.parse("2h")  # no Jack on 0 points and 2 cards: the most-seen rank instead
    big = view("Jc 2h 9d Qs", "4d 6c 10d")
    assert bot.choose(big, []) == Card.parse("Jc")  # 10♦'s 2 points and the Jack's 1
    many = view("Jc 2h 9d Qs", "4d 6c 7c 8c")
    assert bot.choose(many, []) == Card.parse("Jc")  # five cards with the Jack
    lone = view("Jc 2h 9d Qs", "4d")
    assert bot.choose(lone, []) == Card.parse("2h")  # a Jack on a lone card is no xeri in classic: kept
    assert bot.choose(view("Jc Jd", "4d 6c"), []) in parse_cards(["Jc", "Jd"])


def test_cautious_leads_the_rank_it_has_seen_most_and_never_a_jack() -> None:
    bot = make_bot("cautious", 3)
    # Three 9s gone: the last 9 is in its hand, nobody can take a lone 9 by rank.
    assert bot.choose(view("Jc 2h 9d Qs", "", gone="9c 9h 9s Qd"), []) == Card.parse("9d")
    # One queen and one 4 unseen, two 2s: the queen or the 4; points break the tie (the Q♠ is worth 1, the 4♠ 0).
    assert bot.choose(view("Jc Qs 4s 2c", "", gone="Qd Qh 4d 4h 2d"), []) == Card.parse("4s")


def test_cautious_plays_a_style_of_its_own() -> None:
    """In the positions of its own rounds the cautious bot plays cards outside the expert's best ones and outside
    greedy's: its rules are neither's (it agrees with the expert in most positions; it keeps Jacks longer)."""
    from xeri.bots.opponent_model import _argmax_sets

    c, e = make_bot("cautious", 0), make_bot("expert", 0)
    decisions = off_expert = off_greedy = 0
    for k in range(4):
        rnd = Round.new(CLASSIC, k % 2, 300 + k)
        while not rnd.is_over:
            seat = rnd.turn
            assert seat is not None
            v, h = rnd.view(seat), rnd.log_for(seat)
            card = (c if seat else e).choose(v, h)
            if seat and len(v.legal_moves) > 1:
                sets = _argmax_sets(v)
                decisions += 1
                off_expert += card not in sets["expert"]
                off_greedy += card not in sets["greedy"]
            rnd.play(card, seat)
    assert off_expert >= 0.05 * decisions and off_greedy >= 0.05 * decisions, (off_expert, off_greedy, decisions)


def test_the_playout_style_is_the_search_playouts_choices() -> None:
    """``_playout_set`` holds every card ``ismcts.policy_card`` plays from any start of its discard scan, no other."""
    from xeri.bots.ismcts import policy_card
    from xeri.bots.opponent_model import _playout_set

    values = Rules(CLASSIC).values
    checked = 0
    for k in range(3):
        rnd = Round.new(CLASSIC, k % 2, 70 + k)
        bots = [make_bot("expert", 1), make_bot("cautious", 2)]
        while not rnd.is_over:
            seat = rnd.turn
            assert seat is not None
            v = rnd.view(seat)
            hand = [c.index for c in v.hand]
            seen = [0] * 13
            for c in v.gone:
                seen[c.index % 13] += 1
            top = v.top.index % 13 if v.top is not None else -1
            pile_val = sum(values[c.index] for c in v.pile if c is not None)
            starts = [float(i) / len(hand) for i in range(len(hand))]
            played = {policy_card(hand, top, pile_val, seen, values, lambda x=x: x) for x in starts}  # type: ignore[misc]
            if len(played) == 1 and v.top is not None and next(iter(played)) % 13 in (top, 9):
                assert played <= {c.index for c in _playout_set(v)}  # one capturing card of the hand; the set: all
            else:
                assert played == {c.index for c in _playout_set(v)}
            checked += 1
            rnd.play(bots[seat].choose(v, rnd.log_for(seat)), seat)
    assert checked > 100


def test_the_wide_opponent_model_takes_a_playout_player_for_the_playout_style() -> None:
    from xeri.bots.opponent_model import MODELS, WIDE_MODELS, OpponentModel, finished_decisions

    rnd = Round.new(CLASSIC, 1, 90)
    bots = [make_bot("expert", 1), make_bot("playout", 2)]
    while not rnd.is_over:
        seat = rnd.turn
        assert seat is not None
        rnd.play(bots[seat].choose(rnd.view(seat), rnd.log_for(seat)), seat)
    log = rnd.log_for(0)
    decisions = finished_decisions(log, 2)
    assert OpponentModel(WIDE_MODELS).policies(rnd.view(0), decisions) == ["expert", "playout"]
    assert OpponentModel(MODELS).policies(rnd.view(0), decisions)[1] != "playout"
    assert OpponentModel(WIDE_MODELS).policies(rnd.view(1), decisions)[0] == "expert"
