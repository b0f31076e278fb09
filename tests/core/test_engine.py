"""Every rule of play on hand-built deals."""

from __future__ import annotations

import random

import pytest

from support.deals import build_deal
from xeri.cards import Card, parse_cards
from xeri.engine import Deal, Round, shuffle_and_deal
from xeri.errors import CardError, DealError, GameOverError, IllegalMoveError, OutOfTurnError
from xeri.events import (
    BottomExposed,
    Captured,
    Dealt,
    JackSlipped,
    PileRedealt,
    PileUnclaimed,
    Played,
    RoundScored,
    Xeri,
)
from xeri.rules import find_ruleset

CLASSIC = find_ruleset("classic")
C = Card.parse


def classic_round(hands: list[str], pile: str, talon: str = "", **rules: object) -> Round:
    ruleset = CLASSIC.replace(**rules) if rules else CLASSIC
    return Round(ruleset, 1, build_deal(ruleset, hands, pile, talon))


class TestPlay:
    def test_non_dealer_plays_first_and_turns_alternate(self) -> None:
        r = classic_round(["2h 3h", "4h 5h"], "6c 7c 8c 9c")
        assert r.turn == 0
        r.play("2h")
        assert r.turn == 1

    def test_matching_rank_captures_whole_pile(self) -> None:
        r = classic_round(["9h"], "6c 7c 8c 9c")
        events = r.play("9h")
        assert events == (Played(0, C("9h")), Captured(0, parse_cards("6c 7c 8c 9c 9h")))
        assert r.pile == () and r.captured(0) == parse_cards("6c 7c 8c 9c 9h")
        assert r.last_capturer == 0

    def test_jack_captures_any_pile(self) -> None:
        r = classic_round(["JH"], "6c 7c 8c 9c")
        r.play("JH")
        assert len(r.captured(0)) == 5 and r.pile == ()

    def test_other_card_goes_on_top(self) -> None:
        r = classic_round(["2h"], "6c 7c 8c 9c")
        assert r.play("2h") == (Played(0, C("2h")),)
        assert r.pile == parse_cards("6c 7c 8c 9c 2h")

    def test_jack_on_empty_pile_captures_nothing(self) -> None:
        r3 = classic_round(["9h", "9s JD"], "6c 7c 8c 9c")
        r3.play("9h")
        assert r3.play("JD") == (Played(1, C("JD")),)
        assert r3.pile == (C("JD"),) and r3.captured(1) == ()

    def test_only_rank_matters(self) -> None:
        r = classic_round(["9h"], "6c 7c 8c 9s")
        r.play("9h")
        assert r.pile == ()


class TestXeri:
    def test_lone_card_matched_is_a_xeri(self) -> None:
        r = classic_round(["9h 2d", "9s 2s"], "6c 7c 8c 9c")
        r.play("9h")
        r.play("2s")
        events = r.play("2d")
        assert Xeri(0, C("2s"), False, 10) in events
        assert r.xeris(0) == ((C("2s"), False),)

    def test_jack_on_lone_jack_is_a_jack_xeri(self) -> None:
        r = classic_round(["9h JD", "9s JS"], "6c 7c 8c 9c")
        r.play("9h")
        r.play("JS")  # Jack on the empty pile: captures nothing
        events = r.play("JD")
        assert Xeri(0, C("JS"), True, 20) in events

    @pytest.mark.parametrize("points", [25, 10])
    def test_jack_xeri_value_option(self, points: int) -> None:
        r = classic_round(["9h JD", "9s JS"], "6c 7c 8c 9c", jack_xeri_points=points)
        r.play("9h")
        r.play("JS")
        assert Xeri(0, C("JS"), True, points) in r.play("JD")

    def test_jack_on_lone_card_not_a_xeri_by_default(self) -> None:
        r = classic_round(["9h JD", "9s 2s"], "6c 7c 8c 9c")
        r.play("9h")
        r.play("2s")
        events = r.play("JD")
        assert not any(isinstance(e, Xeri) for e in events)
        assert r.captured(0)[-2:] == parse_cards("2s JD")

    def test_jack_on_lone_card_is_a_xeri_with_option(self) -> None:
        r = classic_round(["9h JD", "9s 2s"], "6c 7c 8c 9c", jack_xeri_any=True)
        r.play("9h")
        r.play("2s")
        assert Xeri(0, C("2s"), False, 10) in r.play("JD")

    def test_capturing_bigger_pile_is_no_xeri(self) -> None:
        r = classic_round(["9h"], "6c 7c 8c 9c")
        assert not any(isinstance(e, Xeri) for e in r.play("9h"))


def play_out(r: Round, rng: random.Random | None = None) -> None:
    rng = rng or random.Random(0)
    while not r.is_over:
        r.play(rng.choice(r.legal_moves))


class TestEndOfRound:
    def test_last_capturer_takes_the_rest_and_round_is_scored(self) -> None:
        r = Round.new(CLASSIC, 0, 3)
        play_out(r)
        assert r.is_over and r.turn is None and r.legal_moves == ()
        events = r.events
        assert isinstance(events[-1], RoundScored)
        last = [e for e in events if isinstance(e, Captured) and e.leftover]
        assert len(last) <= 1
        assert sum(len(r.captured(s)) for s in range(2)) == 52

    def test_play_after_end_raises(self) -> None:
        r = Round.new(CLASSIC, 0, 3)
        play_out(r)
        with pytest.raises(GameOverError, match="over"):
            r.play("2c")

    def test_nobody_captured_leaves_the_pile_unclaimed(self) -> None:
        # With a full deck the second Jack played always captures, so only a partial
        # (unchecked) deal can reach this: the pile then scores for nobody.
        deal = Deal(hands=(parse_cards("2h 4h"), parse_cards("3h 5h")), pile=parse_cards("6c 7c 8c 9c"), talon=())
        r = Round(CLASSIC, 1, deal, check=False)
        play_out(r)
        assert r.last_capturer is None
        unclaimed = [e for e in r.events if isinstance(e, PileUnclaimed)]
        assert len(unclaimed) == 1 and set(unclaimed[0].cards) == set(parse_cards("6c 7c 8c 9c 2h 3h 4h 5h"))
        assert r.scores is not None and all(s.cards == 0 for s in r.scores)

    @pytest.mark.parametrize("counts", [True, False])
    def test_xeri_with_the_dealers_last_card(self, counts: bool) -> None:
        ruleset = CLASSIC.replace(last_card_xeri=counts)
        hands = (parse_cards("9h 5h 7h"), parse_cards("2s 5s 7s"))
        r = Round(ruleset, 1, Deal(hands=hands, pile=parse_cards("6c 7c 8c 9c"), talon=()), check=False)
        r.play("9h")  # seat 0 takes the pile
        r.play("2s")  # a lone 2 on the empty pile
        r.play("5h")  # no match: the pile is 2s 5h
        r.play("5s")  # seat 1 takes two cards: no xeri
        r.play("7h")  # a lone 7 ...
        events = r.play("7s")  # ... taken by the dealer's very last card
        assert any(isinstance(e, Captured) for e in events)
        assert any(isinstance(e, Xeri) for e in events) is counts

    def test_xeri_before_the_last_card_always_counts(self) -> None:
        ruleset = CLASSIC.replace(last_card_xeri=False)
        hands = (parse_cards("9h 5h 7h"), parse_cards("2s 5s 7s"))
        r = Round(ruleset, 1, Deal(hands=hands, pile=parse_cards("6c 7c 8c 9c"), talon=()), check=False)
        r.play("9h")
        r.play("5s")
        assert any(isinstance(e, Xeri) for e in r.play("5h"))


class TestErrorsLeaveStateUnchanged:
    def snapshot(self, r: Round) -> tuple[object, ...]:
        return (r.turn, r.pile, r.hand(0), r.hand(1), r.events, r.talon)

    def test_card_not_in_hand(self) -> None:
        r = classic_round(["2h 3h"], "6c 7c 8c 9c")
        before = self.snapshot(r)
        with pytest.raises(IllegalMoveError, match=r"not in seat 0's hand \(hand: "):
            r.play("AS")
        assert self.snapshot(r) == before

    def test_out_of_turn(self) -> None:
        r = classic_round(["2h 3h"], "6c 7c 8c 9c")
        before = self.snapshot(r)
        with pytest.raises(OutOfTurnError, match="seat 0's turn"):
            r.play(r.hand(1)[0], seat=1)
        assert self.snapshot(r) == before

    def test_malformed_card(self) -> None:
        r = classic_round(["2h 3h"], "6c 7c 8c 9c")
        before = self.snapshot(r)
        with pytest.raises(CardError):
            r.play("zz")
        with pytest.raises(CardError):
            r.play(12)  # type: ignore[arg-type]
        assert self.snapshot(r) == before

    def test_all_errors_are_value_errors(self) -> None:
        for exc in (IllegalMoveError, OutOfTurnError, GameOverError, CardError, DealError):
            assert issubclass(exc, ValueError)


class TestInitialPile:
    def test_redeal_when_top_two_match(self) -> None:
        # Search seeds for a redeal and check its log and the final pile.
        for seed in range(500):
            deal = shuffle_and_deal(CLASSIC, 0, random.Random(seed))
            if deal.redealt:
                break
        else:
            pytest.fail("no redeal in 500 deals")
        bad = deal.redealt[0]
        assert bad[-1].rank is bad[-2].rank or bad[-1].is_jack
        top = deal.pile[-1]
        assert not top.is_jack and top.rank is not deal.pile[-2].rank
        r = Round(CLASSIC, 0, deal)
        assert isinstance(r.events[0], PileRedealt)

    def test_redeal_reshuffles_pile_into_deck_and_keeps_hands(self) -> None:
        # Same seed, rule 'keep' vs 'redeal': hands are dealt before the pile and are kept.
        keep = CLASSIC.replace(initial_pile="keep")
        for seed in range(500):
            a = shuffle_and_deal(CLASSIC, 0, random.Random(seed))
            if a.redealt:
                b = shuffle_and_deal(keep, 0, random.Random(seed))
                assert a.hands == b.hands
                assert b.pile == a.redealt[0]
                return
        pytest.fail("no redeal found")

    def test_jack_under(self) -> None:
        ruleset = find_ruleset("cardgames")
        for seed in range(500):
            deal = shuffle_and_deal(ruleset, 0, random.Random(seed))
            if deal.slipped:
                assert deal.pile[0] is deal.slipped[-1]
                assert not deal.pile[-1].is_jack
                r = Round(ruleset, 0, deal)
                assert any(isinstance(e, JackSlipped) for e in r.events)
                return
        pytest.fail("no Jack on top in 500 deals")

    def test_redeal_any_jack(self) -> None:
        ruleset = find_ruleset("berman")
        for seed in range(300):
            deal = shuffle_and_deal(ruleset, 0, random.Random(seed))
            assert not any(c.is_jack for c in deal.pile)
            assert deal.pile[-1].rank is not deal.pile[-2].rank

    def test_keep_allows_anything(self) -> None:
        ruleset = CLASSIC.replace(initial_pile="keep")
        deal = build_deal(ruleset, [], "2c 3c JH JD")
        assert Round(ruleset, 0, build_deal(ruleset, ["", ""], "2c 3c JH JD")).pile[-1] == C("JD")
        assert deal.pile[-1] == C("JD")

    def test_invalid_pile_rejected(self) -> None:
        with pytest.raises(DealError, match="top card is a Jack"):
            Round(CLASSIC, 0, build_deal(CLASSIC, ["", ""], "2c 3c 4h JD"))
        with pytest.raises(DealError, match="equal in rank"):
            Round(CLASSIC, 0, build_deal(CLASSIC, ["", ""], "2c 3c 4h 4D"))


class TestDealChecks:
    def test_duplicate_card(self) -> None:
        deal = build_deal(CLASSIC, ["", ""], "2c 3c 4h 5d")
        bad = deal.__class__(deal.hands, deal.pile, (*deal.talon[:-1], deal.pile[0]))
        with pytest.raises(DealError, match="appears twice"):
            Round(CLASSIC, 0, bad)

    def test_wrong_hand_size(self) -> None:
        deal = build_deal(CLASSIC, ["", ""], "2c 3c 4h 5d")
        bad = deal.__class__((deal.hands[0][:5], deal.hands[1]), deal.pile, (*deal.talon, deal.hands[0][5]))
        with pytest.raises(DealError, match="5 cards"):
            Round(CLASSIC, 0, bad)


class TestExposedBottom:
    def test_exposed_card_is_public_and_not_a_jack(self) -> None:
        ruleset = CLASSIC.replace(exposed_bottom=True)
        for seed in range(100):
            r = Round.new(ruleset, 1, seed)
            exposed = r.deal.exposed
            assert exposed is not None and not exposed.is_jack and r.deal.talon[-1] is exposed
            assert r.events[0] == BottomExposed(exposed)
            for seat in (0, 1, None):
                assert r.view(seat).exposed is exposed

    def test_exposed_card_is_dealt_to_the_dealer_last(self) -> None:
        ruleset = CLASSIC.replace(exposed_bottom=True)
        r = Round.new(ruleset, 1, 11)
        exposed = r.deal.exposed
        rng = random.Random(0)
        while r.view(0).talon_count:
            r.play(rng.choice(r.legal_moves))
        assert exposed in r.hand(1) or exposed in [c for _, c in r.played]
        if exposed in r.hand(1):
            assert r.view(0).exposed_holder == 1


class TestPlayerCounts:
    def test_four_players_order_and_teams(self) -> None:
        ruleset = CLASSIC.replace(players=4)
        r = Round.new(ruleset, 2, 5)
        assert r.turn == 3  # the dealer's right in anticlockwise play
        order = []
        for _ in range(4):
            order.append(r.turn)
            r.play(r.legal_moves[0])
        assert order == [3, 0, 1, 2]
        assert ruleset.sides == 2 and ruleset.side_of(0) == ruleset.side_of(2) == 0
        play_out(r)
        assert r.scores is not None and len(r.scores) == 2

    def test_three_players_last_deal_is_four_cards(self) -> None:
        ruleset = CLASSIC.replace(players=3)
        r = Round.new(ruleset, 0, 9)
        sizes = [e.sizes for e in r.events if isinstance(e, Dealt)]
        rng = random.Random(1)
        while not r.is_over:
            r.play(rng.choice(r.legal_moves))
        sizes = [e.sizes for e in r.events if isinstance(e, Dealt)]
        assert sizes == [(6, 6, 6), (6, 6, 6), (4, 4, 4)]
        assert r.scores is not None and len(r.scores) == 3

    def test_two_player_deals(self) -> None:
        r = Round.new(CLASSIC, 0, 9)
        play_out(r)
        assert [e.sizes for e in r.events if isinstance(e, Dealt)] == [(6, 6)] * 4


class TestPisti:
    def test_face_down_cards_are_hidden_until_the_round_ends(self) -> None:
        ruleset = find_ruleset("pisti")
        r = Round.new(ruleset, 0, 4)
        hidden = set(r.deal.face_down)
        assert len(hidden) == 3 or r.deal.slipped
        for seat in (0, 1, None):
            view = r.view(seat)
            assert sum(c is None for c in view.pile) == len(hidden)
            assert not hidden & set(view.pile)
            for e in r.log_for(seat):
                assert not hidden & set(getattr(e, "pile", ()) or ())
        rng = random.Random(2)
        while not r.is_over:
            seat = r.turn
            r.play(rng.choice(r.legal_moves))
            for s in (0, 1):
                view = r.view(s)
                cap_events = [e for e in r.log_for(s) if isinstance(e, Captured)]
                for e in cap_events:
                    assert not (set(e.hidden) & hidden) or seat is None
                assert not hidden & (view.gone - set(r.deal.pile))

    def test_pisti_deals_four_cards(self) -> None:
        r = Round.new(find_ruleset("pisti"), 0, 4)
        assert [len(h) for h in r.deal.hands] == [4, 4]


def test_worked_example_of_003() -> None:
    """003 §3/§5: Player 2 deals, an 8 is on top; Player 1 holds an 8, a Jack and four others."""
    ruleset = find_ruleset("cardgames")
    # Seat 0 is Player 1, seat 1 is Player 2 (the dealer).
    deal = build_deal(ruleset, ["8h JD QS 3c 4c 5c", "QH 2d 3d 4d 5d 6d"], "2c 7s 9s 8c")
    r = Round(ruleset, 1, deal)
    assert r.turn == 0  # the player after the dealer begins
    events = r.play("8h")  # Player 1 plays his 8 and takes the whole pile: 5 cards
    assert Captured(0, parse_cards("2c 7s 9s 8c 8h")) in events
    assert r.pile == ()
    r.play("QH")  # The pile is empty; Player 2 plays a queen
    events = r.play("QS")  # Player 1 takes it: only one card, a xeri worth 10
    assert Xeri(0, C("QH"), False, 10) in events
    assert r.pile == () and r.view(0).points[0] == 1 + 1 + 1 + 10  # 2♣, Q and Q, and the xeri
    # Turns alternate strictly, so the next card on the empty pile is Player 2's (docs/rules.md).
    assert r.turn == 1


@pytest.mark.parametrize("preset", ["classic", "pisti"])
def test_views_worked_out_once_a_move_follow_every_move(preset: str) -> None:
    """A view read before and after each move equals the view of a fresh round replayed to the same point."""
    ruleset = find_ruleset(preset)
    rnd = Round.new(ruleset, dealer=0, seed=5)
    rng = random.Random(5)
    moves: list[Card] = []
    while True:
        fresh = Round(ruleset, 0, rnd.deal)
        for card in moves:
            fresh.play(card)
        for seat in (*range(ruleset.players), None):
            assert rnd.view(seat) == fresh.view(seat)
        if rnd.is_over:
            break
        before = rnd.view(None)
        card = rng.choice(rnd.legal_moves)
        rnd.play(card)
        moves.append(card)
        assert rnd.view(None) != before
