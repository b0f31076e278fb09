"""Score breakdowns: every item on its own line, and the worked examples of the rule texts."""

from __future__ import annotations

from xeri.cards import DECK, Card, parse_cards
from xeri.engine import Deal, Round
from xeri.rules import find_ruleset
from xeri.scoring import base_points_total, card_values, most_cards_side, score_round

CLASSIC = find_ruleset("classic")


def lines(breakdown: object) -> dict[str, int]:
    return {line.label: line.points for line in breakdown.lines}  # type: ignore[attr-defined]


def test_classic_totals_25_points() -> None:
    assert base_points_total(CLASSIC) == 25
    assert base_points_total(CLASSIC.replace(two_of_spades=True)) == 26
    assert base_points_total(find_ruleset("pisti")) == 16


def test_every_item_is_its_own_line() -> None:
    captured = [list(DECK[:26]), list(DECK[26:])]
    a, b = score_round(CLASSIC, captured, [[], []])
    # DECK[:26] is all clubs and diamonds: 2C, 10D among them.
    la = lines(a)
    assert la == {"Aces": 2, "Kings": 2, "Queens": 2, "Jacks": 2, "Tens": 2, "good 10 (10♦)": 1, "good 2 (2♣)": 1}
    assert "most cards (26)" not in la  # 26-26 split: nobody gets the 3 points
    assert a.total + b.total == 25 - 3


def test_most_cards_three_points_and_ties() -> None:
    assert most_cards_side([27, 25]) == 0
    assert most_cards_side([26, 26]) is None
    assert most_cards_side([20, 16, 16]) == 0
    assert most_cards_side([18, 18, 16]) is None


def test_ten_of_diamonds_taken_as_xeri_scores_2_plus_10() -> None:
    """The scoring example of 000: the 10♦ captured xeri."""
    td = Card.parse("TD")
    deal = Deal(hands=(parse_cards("9h TH"), parse_cards("TD 3s")), pile=parse_cards("6c 7c 8c 9c"), talon=())
    r = Round(CLASSIC, 1, deal, check=False)
    r.play("9h")  # seat 0 takes the pile
    r.play("TD")  # seat 1 leads the 10♦ onto the empty pile
    r.play("TH")  # seat 0 takes it xeri
    r.play("3s")
    assert r.xeris(0) == ((td, False),)
    a = r.scores[0]  # type: ignore[index]
    la = lines(a)
    assert la["Tens"] == 2 and la["good 10 (10♦)"] == 1 and la["xeri x1"] == 10
    # 10♦: 1 (ten) + 1 (good ten) + 10 (xeri) = 12 of seat 0's points come from it.
    assert la["good 10 (10♦)"] + 1 + la["xeri x1"] == 12


def test_two_of_spades_option() -> None:
    ruleset = CLASSIC.replace(two_of_spades=True)
    a, _ = score_round(ruleset, [list(parse_cards("2s 2c")), list(parse_cards("3c"))], [[], []])
    assert lines(a) == {"most cards (2)": 3, "good 2 (2♣)": 1, "2♠": 1}


def test_jack_xeri_values() -> None:
    jx = [(Card.parse("JS"), True)]
    for points in (20, 25, 10):
        ruleset = CLASSIC.replace(jack_xeri_points=points)
        a, _ = score_round(ruleset, [list(parse_cards("JS JD")), []], [jx, []])
        assert lines(a)["Jack xeri x1"] == points


def test_pisti_scoring() -> None:
    pisti = find_ruleset("pisti")
    values = card_values(pisti.scoring, pisti.two_of_spades)
    assert values[Card.parse("2C").index] == 2
    assert values[Card.parse("TD").index] == 3
    assert values[Card.parse("JH").index] == 1 and values[Card.parse("AH").index] == 1
    assert values[Card.parse("KH").index] == 0 and values[Card.parse("TH").index] == 0
    a, b = score_round(pisti, [list(DECK[:30]), list(DECK[30:])], [[(Card.parse("5h"), False)], []])
    assert lines(a)["most cards (30)"] == 3 and lines(a)["xeri x1"] == 10
    assert a.total + b.total == 16 + 10


def test_four_players_score_per_team() -> None:
    ruleset = CLASSIC.replace(players=4)
    r = Round.new(ruleset, 0, 1)
    import random

    rng = random.Random(3)
    while not r.is_over:
        r.play(rng.choice(r.legal_moves))
    assert r.scores is not None and [s.side for s in r.scores] == [0, 1]
    assert sum(s.cards for s in r.scores) == 52
