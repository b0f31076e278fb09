"""Rulesets: every rule and variant of the three rule texts as one frozen value.

A ``Ruleset`` holds every option. Named presets bundle the options of each
rule text; ``find_ruleset("cardgames", players=4)`` starts from a preset and
overrides options, checking every name and value. ``takes`` and ``makes_xeri``
are the capture and xeri rules themselves: the engine, the bots' arithmetic
and the hints all ask them (docs/architecture.md lists the copies speed keeps).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, Rank
from .errors import RulesetError, UnknownOptionError

INITIAL_PILE_RULES = ("redeal", "jack_under", "redeal_any_jack", "keep")
SCORING_SCHEMES = ("xeri", "pisti")
MATCH_ENDS = ("rounds", "target")
TIE_RULES = ("raise", "another_hand", "higher")


@dataclass(frozen=True)
class Option:
    """Documentation and validation of one ruleset option."""

    name: str
    help: str
    choices: tuple[Any, ...] | None = None
    check: Callable[[Any], bool] | None = None
    check_text: str = ""


def _int_range(lo: int, hi: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option("players", "number of players; 4 play in fixed partnerships, partners opposite", (2, 3, 4)),
        Option("hand_size", "cards dealt to each player per deal (the last deal of 3 players may be shorter)",
               check=_int_range(1, 12), check_text="an integer 1..12"),
        Option("pile_size", "cards dealt to the initial pile", check=_int_range(0, 8), check_text="an integer 0..8"),
        Option("pile_face_down", "initial pile cards dealt face down under the top card (Pişti: 3); "
               "needs initial_pile jack_under or keep",
               check=_int_range(0, 7), check_text="an integer 0..7"),
        Option("initial_pile",
               "redeal: new pile if the top two match or the top is a Jack (000); "
               "jack_under: a Jack on top is slipped under the pile (003); "
               "redeal_any_jack: new pile if the top two match or any Jack is among them (004); "
               "keep: the pile stands as dealt", INITIAL_PILE_RULES),
        Option("jack_xeri_any", "a Jack capturing a lone non-Jack is a xeri (000: no, 004: yes)", (False, True)),
        Option("xeri_points", "points per xeri", check=_int_range(0, 1000), check_text="an integer 0..1000"),
        Option("jack_xeri_points", "points per Jack-on-Jack xeri (20; variants 25, or 10 for 'no Jack xeri')",
               check=_int_range(0, 1000), check_text="an integer 0..1000"),
        Option("scoring", "card points: xeri (A K Q J 10 one each, 10♦ +1, 2♣ 1) or "
               "pisti (Jacks and Aces 1, 2♣ 2, 10♦ 3)", SCORING_SCHEMES),
        Option("two_of_spades", "the 2♠ scores 1 like the 2♣ (004)", (False, True)),
        Option("most_cards_points", "points for most cards captured; nobody scores them on a tie",
               check=_int_range(0, 100), check_text="an integer 0..100"),
        Option("exposed_bottom", "the cut card is shown to all and dealt last; a Jack is passed over (000)",
               (False, True)),
        Option("last_card_xeri", "a xeri made with the very last card of the round counts (off: the "
               "'no xeri with the dealer's last card' variant)", (False, True)),
        Option("match_end", "rounds: a fixed number of rounds, most rounds won wins (000); "
               "target: first to the target score (003)", MATCH_ENDS),
        Option("rounds", "rounds in a match that ends by rounds", check=_int_range(1, 99),
               check_text="an integer 1..99"),
        Option("target", "target score in a match that ends by target (51, 101, 151)",
               check=_int_range(1, 10000), check_text="an integer 1..10000"),
        Option("tie_rule", "when several sides reach the target in the same round: raise: play on to the "
               "next threshold, +100 (000); another_hand: play another round (003); higher: the higher "
               "total wins, another round if equal", TIE_RULES),
    )
}


@dataclass(frozen=True)
class Ruleset:
    """Every rule option. The defaults are the rules of 000 (classic)."""

    name: str = "classic"
    players: int = 2
    hand_size: int = 6
    pile_size: int = 4
    pile_face_down: int = 0
    initial_pile: str = "redeal"
    jack_xeri_any: bool = False
    xeri_points: int = 10
    jack_xeri_points: int = 20
    scoring: str = "xeri"
    two_of_spades: bool = False
    most_cards_points: int = 3
    exposed_bottom: bool = False
    last_card_xeri: bool = True
    match_end: str = "rounds"
    rounds: int = 5
    target: int = 151
    tie_rule: str = "raise"
    # Derived, kept for speed on the hot path.
    sides: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for opt in OPTIONS.values():
            _check_value(opt, getattr(self, opt.name))
        if self.pile_face_down and self.pile_face_down >= self.pile_size:
            raise RulesetError(
                f"pile_face_down={self.pile_face_down} must be smaller than pile_size={self.pile_size}"
            )
        if self.pile_face_down and self.initial_pile in ("redeal", "redeal_any_jack"):
            # A redeal rule judges the dealt pile and turns a bad one back into the deck in view of all;
            # face-down cards may be seen only by whoever captures them (docs/pisti.md).
            raise RulesetError(
                f"pile_face_down={self.pile_face_down} cannot go with initial_pile={self.initial_pile}: a redeal "
                "would show the face-down cards to everyone; use initial_pile=jack_under or keep"
            )
        if self.players * self.hand_size + self.pile_size > 52:
            raise RulesetError(
                f"{self.players} players x {self.hand_size} cards + {self.pile_size} pile cards exceed 52"
            )
        if (52 - self.pile_size) % self.players:
            raise RulesetError(
                f"52 - {self.pile_size} pile cards cannot be dealt evenly to {self.players} players"
            )
        object.__setattr__(self, "sides", 2 if self.players == 4 else self.players)

    def side_of(self, seat: int) -> int:
        """The side (team, or the seat itself) a seat scores for."""
        return seat % self.sides

    def side_seats(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s % self.sides == side)

    def replace(self, **options: Any) -> Ruleset:
        """A copy with some options changed; unknown names and bad values raise."""
        for key in options:
            if key not in OPTIONS and key != "name":
                raise UnknownOptionError(_unknown_option_text(key))
        return dataclasses.replace(self, **options)

    def options(self) -> dict[str, Any]:
        """Every option and its value, in a stable order (the record form)."""
        return {name: getattr(self, name) for name in OPTIONS}

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **self.options()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """The inverse of to_dict; options missing from data take the preset's value."""
        data = dict(data)
        name = str(data.pop("name", "classic"))
        base = PRESETS.get(name, Ruleset(name=name))
        return base.replace(**data)

    def describe(self) -> str:
        """One line naming the preset and how its options differ from it."""
        base = PRESETS.get(self.name)
        diffs = [
            f"{k}={v}" for k, v in self.options().items() if base is None or getattr(base, k) != v
        ]
        return self.name + (f" ({', '.join(diffs)})" if diffs else "")


def _unknown_option_text(key: str) -> str:
    import difflib

    close = difflib.get_close_matches(key, OPTIONS, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f"; options are: {', '.join(OPTIONS)}"
    return f"unknown rule option {key!r}{hint}"


def _check_value(opt: Option, value: Any) -> None:
    if opt.choices is not None:
        ok = any(value == c and type(value) is type(c) for c in opt.choices)
        if not ok:
            shown = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in opt.choices)
            raise RulesetError(f"option {opt.name} must be one of {shown}, not {value!r}")
    elif opt.check is not None and not opt.check(value):
        raise RulesetError(f"option {opt.name} must be {opt.check_text}, not {value!r}")


def parse_option_value(name: str, text: str) -> Any:
    """Turn a command-line string into the option's type (``true``, ``25``, ``keep``)."""
    if name not in OPTIONS:
        raise UnknownOptionError(_unknown_option_text(name))
    default = getattr(Ruleset(), name)
    if isinstance(default, bool):
        low = text.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise RulesetError(f"option {name} must be true or false, not {text!r}")
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise RulesetError(f"option {name} must be an integer, not {text!r}") from None
    return text.strip()


_CLASSIC = Ruleset()

PRESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        _CLASSIC,
        dataclasses.replace(_CLASSIC, name="classic-points", match_end="target", target=151, tie_rule="raise"),
        dataclasses.replace(
            _CLASSIC, name="cardgames", initial_pile="jack_under", match_end="target", target=51,
            tie_rule="another_hand",
        ),
        dataclasses.replace(
            _CLASSIC, name="berman", initial_pile="redeal_any_jack", jack_xeri_any=True, two_of_spades=True,
        ),
        dataclasses.replace(
            _CLASSIC, name="pisti", hand_size=4, pile_size=4, pile_face_down=3, initial_pile="jack_under",
            scoring="pisti", last_card_xeri=False, match_end="target", target=151, tie_rule="higher",
        ),
    )
}

PRESET_HELP = {
    "classic": "000: two players, redeal a bad initial pile, most rounds won over 5 rounds",
    "classic-points": "000's point-scoring variant: first to 151, both over it plays on to 251",
    "cardgames": "003: a Jack on top of the initial pile slips under it, first to 51, a tie plays another hand",
    "berman": "004: redeal if any Jack is in the initial pile, a Jack on a lone card is a xeri, 2♠ scores",
    "pisti": "Turkish Pişti: 4-card hands, 3 pile cards face down, Pişti scoring, first to 151",
}


def find_ruleset(name: str = "classic", **options: Any) -> Ruleset:
    """A preset by name (case-insensitive, ``pişti`` accepted), with options overridden."""
    key = name.strip().lower().replace("ş", "s").replace("_", "-")
    if key not in PRESETS:
        raise RulesetError(f"unknown ruleset {name!r}; presets are: {', '.join(PRESETS)}")
    return PRESETS[key].replace(**options) if options else PRESETS[key]


def takes(card: Card, top: Card | None) -> bool:
    """Whether ``card`` captures a pile whose top card is ``top`` (None: an empty pile): same rank, or any Jack."""
    return top is not None and (card.rank is top.rank or card.rank is Rank.JACK)


def makes_xeri(ruleset: Ruleset, card: Card, top: Card | None, pile_size: int, cards_left: int) -> bool:
    """Whether ``card``, played on a pile of ``pile_size`` cards topped by ``top``, makes a xeri.

    A xeri takes a lone card by its rank, or with any Jack under ``jack_xeri_any``. ``cards_left`` counts the
    cards still to be played after this one (hands and talon): without ``last_card_xeri`` the last makes none.
    """
    return (
        top is not None
        and pile_size == 1
        and (card.rank is top.rank or (ruleset.jack_xeri_any and card.rank is Rank.JACK))
        and (ruleset.last_card_xeri or cards_left > 0)
    )


def jack_xeri(card: Card, top: Card) -> bool:
    """Whether a xeri of ``card`` on ``top`` is a Jack xeri (a Jack on a Jack), which scores ``jack_xeri_points``."""
    return card.rank is Rank.JACK and top.rank is Rank.JACK
