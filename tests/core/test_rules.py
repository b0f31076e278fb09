"""Rulesets: presets, options, and errors for unknown options or bad values."""

from __future__ import annotations

import pytest

from xeri.errors import RulesetError, UnknownOptionError
from xeri.rules import OPTIONS, PRESETS, Ruleset, find_ruleset, parse_option_value


def test_defaults_follow_000() -> None:
    r = Ruleset()
    assert (r.players, r.hand_size, r.pile_size, r.initial_pile) == (2, 6, 4, "redeal")
    assert (r.jack_xeri_any, r.xeri_points, r.jack_xeri_points, r.two_of_spades) == (False, 10, 20, False)
    assert r.match_end == "rounds" and r.tie_rule == "raise"
    assert find_ruleset("classic") == r


def test_presets() -> None:
    assert set(PRESETS) >= {"classic", "cardgames", "pisti"}
    cg = find_ruleset("cardgames")
    assert (cg.initial_pile, cg.match_end, cg.target, cg.tie_rule) == ("jack_under", "target", 51, "another_hand")
    p = find_ruleset("Pişti")
    assert (p.hand_size, p.pile_size, p.scoring, p.target) == (4, 4, "pisti", 151)
    b = find_ruleset("berman")
    assert b.jack_xeri_any and b.two_of_spades and b.initial_pile == "redeal_any_jack"


def test_unknown_option_suggests() -> None:
    with pytest.raises(UnknownOptionError, match="did you mean 'jack_xeri_points'"):
        find_ruleset("classic", jack_xeri_point=25)
    assert issubclass(UnknownOptionError, ValueError)


@pytest.mark.parametrize(
    "options",
    [{"players": 5}, {"initial_pile": "shuffle"}, {"jack_xeri_any": "yes"}, {"target": 0}, {"hand_size": 13},
     {"pile_face_down": 4}, {"players": 3, "pile_size": 3}],
)
def test_bad_values(options: dict[str, object]) -> None:
    with pytest.raises(RulesetError):
        find_ruleset("classic", **options)


def test_unknown_preset() -> None:
    with pytest.raises(RulesetError, match="presets are"):
        find_ruleset("bridge")


def test_parse_option_value() -> None:
    assert parse_option_value("exposed_bottom", "on") is True
    assert parse_option_value("jack_xeri_points", "25") == 25
    assert parse_option_value("initial_pile", "keep") == "keep"
    with pytest.raises(RulesetError):
        parse_option_value("target", "many")
    with pytest.raises(UnknownOptionError):
        parse_option_value("colour", "red")


def test_dict_round_trip_and_describe() -> None:
    r = find_ruleset("cardgames", players=4, jack_xeri_points=25)
    assert Ruleset.from_dict(r.to_dict()) == r
    assert r.describe() == "cardgames (players=4, jack_xeri_points=25)"
    assert set(r.options()) == set(OPTIONS)
