"""The models of what the server sends (xeri.server.wire.messages) agree with what they describe: the rules' options,
and what the server really sends (an answer that does not fit its model is refused on its way out)."""

from __future__ import annotations

from typing import Literal, get_args, get_origin

import msgspec
import pytest

from xeri.rules import OPTIONS, PRESETS
from xeri.server.wire import messages


def test_the_rule_options_model_has_every_option_and_its_choices() -> None:
    fields = {f.name: f.type for f in msgspec.structs.fields(messages.RuleOptions)}
    assert list(fields) == list(OPTIONS), "RuleOptions must list xeri.rules.OPTIONS, in order"
    for name, option in OPTIONS.items():
        kind = fields[name]
        if get_origin(kind) is Literal:
            assert set(get_args(kind)) == set(option.choices or ()), name
    assert [f.name for f in msgspec.structs.fields(messages.Ruleset)] == [*OPTIONS, "name"]


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_is_a_ruleset_of_the_model(name: str) -> None:
    assert msgspec.convert(PRESETS[name].to_dict(), messages.Ruleset).name == name


def test_an_answer_that_does_not_fit_its_model_is_refused() -> None:
    fine = messages.answer(messages.Stats, {"name": "ann", "games": 1, "wins": 1, "points": 3, "xeris": 0,
                                            "jack_xeris": 0})
    assert msgspec.json.decode(fine)["wins"] == 1
    with pytest.raises(msgspec.ValidationError):
        messages.answer(messages.Stats, {"name": "ann", "games": "1"})
