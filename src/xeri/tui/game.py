"""The game loop of ``xeri play``: whose turn, asking people, asking bots, saving.

It knows nothing about how the table is drawn; a ``Frontend`` does that. Each
person sees the log redacted for their seat, and each bot is asked through
``bot_card``, which hands it only its own seat's view.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from rich.text import Text

from .. import saves, seeds
from ..bots import Bot, bot_card, make_bot
from ..bots.hint import suggest
from ..bots.master import NOTICES, strength_news
from ..bots.registry import partnered
from ..cards import Card
from ..engine import SeatView
from ..errors import TakebackError
from ..events import Event, MatchOver, RoundScored, RoundStarted, redact
from ..match import Match
from ..scoring import ScoreBreakdown
from .board import shown_hand
from .choice import ChoiceError, Command, parse_choice
from .narration import Seating, card_text, cards_text, narrate

HELP_LINES = [
    "Play a card by its number in your hand (1, 2, ...) or by its name: 10d, TD, 10♦, Jc.",
    "A rank letter alone (j, q, k, a, t) plays it when you hold only one card of that rank.",
    "Commands: hint (a suggested move and why), seen (cards seen this round, by rank;",
    "          'seen off' and 'seen on' switch it), pile (every card in the pile), help,",
    "          undo (take back your last card and the computer's answers, against the computer),",
    "          quit (save and leave; resume later).",
    "Capture the pile by matching its top card's rank, or with a Jack. Taking a lone card is a xeri.",
]


class Frontend(Protocol):
    """How the game talks to the people at the table."""

    def event(self, line: Text) -> None: ...

    def message(self, line: Text | str) -> None: ...

    def error(self, line: str) -> None: ...

    def board(self, view: SeatView, seating: Seating, prompt_name: str) -> None: ...

    def ask(self, prompt: str) -> str | None:
        """A line typed by the player, or None when input has ended."""
        ...

    def confirm(self, question: str) -> bool: ...

    def handover(self, name: str) -> bool:
        """Hide the table until ``name`` is at the keyboard (hotseat); False if input ended."""
        ...

    def recap(self, title: str, lines: Sequence[Text]) -> None: ...

    def next_round(self, number: int) -> bool:
        """Wait, if a person is watching, before the next round; False if input ended."""
        ...

    def pause(self, spent: float = 0.0) -> None:
        """Let a person follow the computer's move; ``spent`` seconds already went on thinking."""
        ...

    def thinking(self, what: str) -> AbstractContextManager[object]:
        """Shown while a slow answer (a hint) is worked out."""
        ...

    def round_scores(self, scores: Sequence[ScoreBreakdown], seating: Seating, match: Match) -> None: ...

    def match_summary(self, match: Match, seating: Seating) -> None: ...

    def seen(self, view: SeatView) -> None: ...

    def pile(self, view: SeatView) -> None: ...


class _Stop(Exception):
    """The player quit, or input ended: leave the loop (the match is already saved)."""


#: the domain tag of the terminal bots' seeds (xeri.seeds)
SEED_DOMAIN = "play"


def bot_seed(base: int, seat: int, moves_played: int) -> int:
    """A bot's seed, one-way from the seat's saved bot seed; a resumed bot gets a fresh stream.

    ``base`` is never the match seed (``play_bot_seed`` derives it one-way, and old saves hold
    their own draw), and the keyed hash gives no way back to it (docs/fairness.md).
    """
    return seeds.bot_seed(base, seat, domain=SEED_DOMAIN, generation=moves_played)


def play_bot_seed(match_seed: int, seat: int) -> int:
    """The bot seed a new match saves for ``seat``: one-way from the match seed, under its own domain tag."""
    return seeds.derive(match_seed, "play-saved-bot", seat)


class Game:
    """One match at the terminal, from the first prompt to the summary (or a quit)."""

    def __init__(
        self,
        match: Match,
        setup: saves.PlaySetup,
        frontend: Frontend,
        save_path: Path,
        *,
        seen_enabled: bool = True,
        hint_level: str | None = None,
    ) -> None:
        """``hint_level`` None: hints come from the strongest level, as players are promised."""
        self.match = match
        self.hint_level = hint_level
        self.setup = setup
        self.ui = frontend
        self.save_path = save_path
        self.seen_enabled = seen_enabled
        moves = sum(len(r.moves) for r in match.rounds)
        four = match.ruleset.players == 4
        self.bots: dict[int, Bot] = {
            seat: make_bot(partnered(level, setup.levels.get((seat + 2) % 4) if four else None),
                           bot_seed(setup.bot_seeds[seat], seat, moves), interactive=True)
            for seat, level in setup.levels.items()
        }
        humans = setup.humans
        # With one person, lines are written for their eyes; with several (hotseat)
        # for everyone's, and each hand is shown only after a handover.
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.seating = Seating(match.ruleset, match.names, self.viewer)
        self._unseen: dict[int, list[Event]] = {s: [] for s in humans}
        #: the notices about the master's strength already given (``_say_strength``)
        self._told: set[str] = set()

    @property
    def hotseat(self) -> bool:
        return len(self.setup.humans) > 1

    def save(self) -> None:
        saves.save(self.save_path, self.match, self.setup)

    def run(self, resumed: bool = False) -> int:
        """Play until the match is over or the player leaves; 0 either way (it is saved)."""
        self.save()
        try:
            if resumed:
                rnd = self.match.round
                self.ui.message(
                    f"Continuing the match saved in {self.save_path.name}: round {len(self.match.rounds)}, "
                    f"move {len(rnd.moves) + 1}."
                )
                if self.viewer is not None:
                    log = self.match.round.log_for(self.viewer)
                    self.ui.recap("This round so far:", [ln for e in log if (ln := narrate(e, self.seating))][-8:])
            else:
                self._announce(self.match.events, wait=False)
            while not self.match.is_over:
                seat = self.match.turn
                assert seat is not None
                if seat in self.setup.humans:
                    card = self._human_move(seat)
                    if card is None:  # a takeback: the turn is asked again
                        continue
                else:
                    start = time.monotonic()
                    card = bot_card(self.match, self.bots[seat])
                    self._say_strength(self.bots[seat])
                    self.ui.pause(time.monotonic() - start)
                events = self.match.play(card, seat)
                self.save()
                self._announce(events)
        except _Stop:
            self.ui.message(f"The match is saved in {self.save_path}.")
            self.ui.message("Continue it with: xeri play --resume")
            return 0
        except KeyboardInterrupt:
            self.ui.message(f"\nInterrupted. The match is saved in {self.save_path}.")
            self.ui.message("Continue it with: xeri play --resume")
            return 130
        self.ui.message(f"Saved: {self.save_path}")
        self.ui.message("xeri history lists your matches; xeri replay FILE shows one.")
        return 0

    def _say_strength(self, bot: Bot) -> None:
        """Tell the player, once, that the master (or the strong level's master) plays by the counting rules while
        its rollouts load, and once more when it is itself (the bot's ``status``, ``master.strength_news``)."""
        news = strength_news(getattr(bot, "status", None), self._told)
        if news is not None:
            self.ui.message(NOTICES[news])

    def _announce(self, events: Sequence[Event], wait: bool = True) -> None:
        for seat in self._unseen:
            self._unseen[seat].extend(events)
        for event in redact(events, self.viewer):
            if isinstance(event, RoundStarted) and wait and event.number > 1 and not self.ui.next_round(event.number):
                raise _Stop
            line = narrate(event, self.seating)
            if line is not None:
                self.ui.event(line)
            if isinstance(event, RoundScored):
                self.ui.round_scores(event.scores, self.seating, self.match)
            elif isinstance(event, MatchOver):
                self.ui.match_summary(self.match, self.seating)

    def _human_move(self, seat: int) -> Card | None:
        """The card ``seat`` plays, or None once it took a card back (the match moved back: ask again)."""
        seating = Seating(self.match.ruleset, self.match.names, seat)
        name = seating.names[seat]
        if self.hotseat:
            if not self.ui.handover(name):
                raise _Stop
            own = redact(self._unseen[seat], seat)
            self.ui.recap("Since your last turn:", [ln for e in own if (ln := narrate(e, seating)) is not None][-8:])
        self._unseen[seat].clear()
        view = self.match.view(seat)
        hand = shown_hand(view)
        self.ui.board(view, seating, name)
        numbers = f"1-{len(hand)}" if len(hand) > 1 else "1"
        prompt = f"{name + ', your' if self.hotseat else 'Your'} move ({numbers}, a card, or help): "
        while True:
            text = self.ui.ask(prompt)
            if text is None:
                raise _Stop
            try:
                choice = parse_choice(text, hand)
            except ChoiceError as exc:
                self.ui.error(str(exc))
                continue
            if isinstance(choice, Card):
                return choice
            if choice is Command.QUIT:
                if self.ui.confirm("Quit now? The match is saved and xeri play --resume continues it. [y/N] "):
                    raise _Stop
                self.ui.message("Not quitting.")
            elif choice is Command.HELP:
                for help_line in HELP_LINES:
                    self.ui.message(help_line)
            elif choice is Command.HINT:
                with self.ui.thinking("Thinking about a hint..."):
                    card, reason = suggest(view, self.match.round.log_for(seat), self.hint_level)
                self.ui.message(
                    Text.assemble("Hint: play ", card_text(card), f" (card {hand.index(card) + 1}): {reason}")
                )
            elif choice is Command.SEEN:
                if self.seen_enabled:
                    self.ui.seen(view)
                else:
                    self.ui.error("the seen-cards aid is switched off: type 'seen on' to show it")
            elif choice in (Command.SEEN_ON, Command.SEEN_OFF):
                self.seen_enabled = choice is Command.SEEN_ON
                self.ui.message(f"The seen-cards aid is now {'on' if self.seen_enabled else 'off'}.")
            elif choice is Command.PILE:
                self.ui.pile(view)
            elif choice is Command.UNDO:
                if self._take_back(seat):
                    return None

    def _take_back(self, seat: int) -> bool:
        """Take back ``seat``'s last card and the computer's after it (docs/play.md#takebacks): only for one
        person against the computer, as on the server; a refusal is one line and changes nothing."""
        if self.hotseat:
            self.ui.error("takebacks are for one person against the computer, not between people at one keyboard")
            return False
        try:
            taken = self.match.take_back(seat)
        except TakebackError as exc:
            self.ui.error(str(exc))
            return False
        self.save()
        answers = taken.cards[1:]
        line = Text.assemble("Taken back: your ", card_text(taken.cards[0]))
        if answers:
            line.append_text(Text.assemble(" and the computer's ", cards_text(answers, ", ")))
        self.ui.message(line)
        return True
