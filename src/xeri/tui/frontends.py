"""The two ways ``xeri play`` talks to people: a rich terminal table, or plain lines.

``RichFrontend`` is for a person at a terminal: the table is redrawn for each
of their turns, the computer's moves come one at a time with a short pause,
rounds end with a score table. ``PlainFrontend`` is for scripts: one line per
event out, one line per answer in, no pauses and no waiting between rounds.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TextIO

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from ..engine import SeatView
from ..match import Match
from ..scoring import ScoreBreakdown
from . import board
from .narration import Seating, card_text


class RichFrontend:
    """The table drawn with rich; colour follows the terminal and ``NO_COLOR``."""

    def __init__(self, console: Console, delay: float = 0.8, script: Iterator[str] | None = None) -> None:
        """``script`` replaces the keyboard with canned answers (used to render the screenshot)."""
        self.console = console
        self.delay = delay
        self.script = script

    def event(self, line: Text) -> None:
        self.console.print(line)

    def message(self, line: Text | str) -> None:
        self.console.print(line)

    def error(self, line: str) -> None:
        self.console.print(Text(line, style="yellow"))

    def board(self, view: SeatView, seating: Seating, prompt_name: str) -> None:
        self.console.print()
        self.console.print(board.board(view, seating))

    def ask(self, prompt: str) -> str | None:
        if self.script is not None:
            answer = next(self.script, None)
            if answer is not None:
                self.console.print(Text(prompt, style="bold"), answer, sep="")
            return answer
        try:
            return self.console.input(Text(prompt, style="bold"))
        except EOFError:
            self.console.print()
            return None

    def confirm(self, question: str) -> bool:
        answer = self.ask(question)
        return answer is not None and answer.strip().lower() in ("y", "yes")

    def handover(self, name: str) -> bool:
        self.console.clear()
        answer = self.ask(f"{name}'s turn: pass the keyboard to {name}, then press Enter. ")
        return answer is not None and answer.strip().lower() not in ("quit", "exit")

    def recap(self, title: str, lines: Sequence[Text]) -> None:
        if lines:
            self.console.print(Text(title, style="bold"))
            for line in lines:
                self.console.print(Text("  ").append_text(line))

    def next_round(self, number: int) -> bool:
        answer = self.ask(f"Press Enter to deal round {number} (or type quit): ")
        return answer is not None and answer.strip().lower() not in ("quit", "exit")

    def pause(self, spent: float = 0.0) -> None:
        if self.delay > spent:
            time.sleep(self.delay - spent)  # pacing for the eye only; --fast turns it off

    def thinking(self, what: str) -> AbstractContextManager[object]:
        if self.script is not None or not self.console.is_terminal:
            return contextlib.nullcontext()
        return self.console.status(what, spinner="dots")

    def round_scores(self, scores: Sequence[ScoreBreakdown], seating: Seating, match: Match) -> None:
        self.console.print(board.score_table(scores, seating, match))

    def match_summary(self, match: Match, seating: Seating) -> None:
        self.console.print(board.match_table(match, seating))

    def seen(self, view: SeatView) -> None:
        self.console.print(Text(f"Seen face up on the pile this round ({len(view.gone)} cards):", style="bold"))
        self.console.print(Columns(board.seen_entries(view), padding=(0, 3)))

    def pile(self, view: SeatView) -> None:
        self.console.print(board.pile_line(view))


class PlainFrontend:
    """Plain lines for scripts and pipes: nothing waits, nothing is drawn."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out

    def _write(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def event(self, line: Text) -> None:
        self._write(line.plain)

    def message(self, line: Text | str) -> None:
        self._write(line.plain if isinstance(line, Text) else line.strip("\n"))

    def error(self, line: str) -> None:
        self._write(f"error: {line}")

    def board(self, view: SeatView, seating: Seating, prompt_name: str) -> None:
        top = view.top
        n = len(view.pile)
        pile = f"pile top {card_text(top).plain} ({n} card{'s' * (n != 1)})" if n else "pile empty"
        hand = " ".join(f"{i}) {c}" for i, c in enumerate(board.shown_hand(view), 1))
        self._write(f"Your turn ({prompt_name}): {pile}; talon {view.talon_count}; hand {hand}")

    def ask(self, prompt: str) -> str | None:
        line = self.inp.readline()
        return line.rstrip("\r\n") if line else None

    def confirm(self, question: str) -> bool:
        self._write(question.strip())
        answer = self.ask(question)
        return answer is not None and answer.strip().lower() in ("y", "yes")

    def handover(self, name: str) -> bool:
        self._write(f"{name}'s turn")
        return True

    def recap(self, title: str, lines: Sequence[Text]) -> None:
        """Plain output is never cleared, so there is nothing to recap."""

    def next_round(self, number: int) -> bool:
        return True

    def pause(self, spent: float = 0.0) -> None:
        """Scripts do not wait."""

    def thinking(self, what: str) -> AbstractContextManager[object]:
        return contextlib.nullcontext()

    def round_scores(self, scores: Sequence[ScoreBreakdown], seating: Seating, match: Match) -> None:
        for line in board.score_cells_plain(scores, seating):
            self._write(line)
        self._write("Match score: " + ", ".join(f"{seating.side(s)} {p}" for s, p in enumerate(match.scores)))

    def match_summary(self, match: Match, seating: Seating) -> None:
        rounds = "; ".join(
            f"round {i}: " + "-".join(map(str, totals)) for i, totals in enumerate(match.finished_round_scores(), 1)
        )
        wins = "-".join(map(str, match.round_wins))
        self._write(f"Summary: {rounds}; total " + "-".join(map(str, match.scores)) + f"; rounds won {wins}")

    def seen(self, view: SeatView) -> None:
        self._write("Seen: " + " | ".join(e.plain for e in board.seen_entries(view)))

    def pile(self, view: SeatView) -> None:
        self._write(board.pile_line(view).plain)
