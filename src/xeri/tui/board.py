"""What the table looks like: renderables built from one seat's ``SeatView``.

Everything here reads a ``SeatView`` (or scores that are public), so the
screen can only ever show what that seat may know. The layout fits 80x24 and
stays readable without colour: suits are symbols, not just colours.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..cards import Card, Rank
from ..engine import SeatView
from ..match import Match
from ..scoring import ScoreBreakdown
from .narration import RED, Seating, card_text, cards_text


def shown_hand(view: SeatView) -> tuple[Card, ...]:
    """The hand in the order it is shown and numbered: by rank, then suit."""
    return tuple(sorted(view.hand))


def big_card(card: Card | None, empty: bool = False) -> Text:
    """The pile's top card drawn five lines high."""
    if empty:
        lines = ["╭ ─ ─ ╮", "       ", " empty ", "       ", "╰ ─ ─ ╯"]
        return Text("\n".join(lines), style="dim")
    if card is None:
        label, symbol, style = "??", "?", "dim"
    else:
        label, symbol, style = card.rank.label, card.suit.symbol, (RED if card.suit.is_red else "bold")
    text = Text("╭─────╮\n│")
    text.append(f"{label:<5}", style)
    text.append("│\n│")
    text.append(f"{symbol:^5}", style)
    text.append("│\n│")
    text.append(f"{label:>5}", style)
    text.append("│\n╰─────╯")
    return text


def header(view: SeatView) -> Text:
    r, n = view.ruleset, view.round_number
    if view.target is not None:
        title = f"Round {n} · first to {view.target}"
    else:
        title = f"Round {n} of {r.rounds}" if n <= r.rounds else f"Round {n} (tie-break)"
    return Text(f"{title} · {r.describe()}", style="bold", overflow="ellipsis", no_wrap=True)


def status_table(view: SeatView, seating: Seating) -> Table:
    """One row per side: cards in hand, captured, xeris, points so far, match score."""
    r = view.ruleset
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column("")
    for title in ("Hand", "Captured", "Xeris", "Points", "Match"):
        table.add_column(title, justify="right")
    rounds_mode = view.target is None
    if rounds_mode:
        table.add_column("Rounds won", justify="right")
    for side in range(r.sides):
        seats = r.side_seats(side)
        name = Text(seating.side(side))
        if view.dealer in seats:
            name.append(" (D)", "dim")
        if view.turn in seats:
            name.stylize("reverse" if view.turn == seating.viewer else "underline")
        cells: list[str | Text] = [
            name,
            "+".join(str(view.hand_counts[s]) for s in seats),
            str(view.captured_counts[side]),
            str(len(view.xeris[side])),
            str(view.points[side]),
            str(view.match_scores[side]) if view.match_scores else "0",
        ]
        if rounds_mode:
            cells.append(str(view.round_wins[side]) if view.round_wins else "0")
        table.add_row(*cells)
    return table


def pile_facts(view: SeatView, seating: Seating) -> Text:
    size = len(view.pile)
    down = sum(c is None for c in view.pile)
    lines = [Text(f"Pile: {size} card{'s' * (size != 1)}" + (f" ({down} face down)" if down else ""))]
    lines.append(Text(f"Talon: {view.talon_count} cards"))
    lines.append(Text(f"Dealer: {seating.who(view.dealer)}"))
    if view.exposed is not None:
        lines.append(Text.assemble("Bottom card: ", card_text(view.exposed), " (dealt last)"))
    if view.played:
        seat, card = view.played[-1]
        lines.append(Text.assemble(f"Last: {seating.who(seat)} played ", card_text(card)))
    return Text("\n").join(lines)


def hand_line(hand: Sequence[Card], label: str = "Your hand") -> Text:
    text = Text(f"{label}: ", style="bold")
    for i, card in enumerate(hand, 1):
        text.append(f" {i})", style="cyan")
        text.append(" ")
        text.append_text(card_text(card))
    return text


def board(view: SeatView, seating: Seating) -> RenderableType:
    """The whole table for the seat to play: about 13 lines."""
    middle = Table.grid(padding=(0, 3))
    middle.add_row(big_card(view.top, empty=not view.pile), pile_facts(view, seating))
    return Group(header(view), status_table(view, seating), middle, hand_line(shown_hand(view)))


def pile_line(view: SeatView) -> Text:
    if not view.pile:
        return Text("The pile is empty.")
    return Text.assemble(f"Pile, bottom to top ({len(view.pile)} cards): ", cards_text(view.pile))


def seen_entries(view: SeatView) -> list[Text]:
    """For each rank, high to low, the cards seen face up on the pile this round."""
    entries = []
    for rank in sorted(Rank, reverse=True):
        cards = sorted(c for c in view.gone if c.rank is rank)
        text = Text(f"{rank.label:>2}: ", style="bold")
        text.append_text(cards_text(cards) if cards else Text("-", style="dim"))
        entries.append(text)
    return entries


def score_table(scores: Sequence[ScoreBreakdown], seating: Seating, match: Match) -> Table:
    """The breakdown of a finished round for every side, with the match totals."""
    table = Table(title="Round score", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("")
    for s in scores:
        table.add_column(seating.side(s.side), justify="right")
    labels: list[str] = []
    for s in scores:
        for line in s.lines:
            key = _label_key(line.label)
            if key not in labels:
                labels.append(key)
    labels.sort(key=_label_order)
    for label in labels:
        row: list[str | Text] = [label]
        for s in scores:
            found = [ln for ln in s.lines if _label_key(ln.label) == label]
            if not found:
                row.append(Text("-", style="dim"))
                continue
            ln = found[0]
            cell = Text(str(ln.points))
            if ln.cards and len(ln.cards) <= 4:
                cell = Text.assemble(cards_text(ln.cards), " ", cell)
            elif ln.label.startswith("most cards"):
                cell = Text(f"({s.cards}) {ln.points}")
            row.append(cell)
        table.add_row(*row)
    table.add_row("cards taken", *[str(s.cards) for s in scores], style="dim")
    table.add_row(Text("round total", style="bold"), *[Text(str(s.total), style="bold") for s in scores],
                  end_section=True)
    table.add_row("match score", *[str(match.scores[s.side]) for s in scores])
    if match.target is None:
        table.add_row("rounds won", *[str(match.round_wins[s.side]) for s in scores])
    else:
        table.add_row("target", *[str(match.target)] * len(scores), style="dim")
    return table


_ORDER = ["most cards", "Aces", "Kings", "Queens", "Jacks", "Tens", "good 10 (10♦)", "good 2 (2♣)", "2♠",
          "2♣", "10♦", "xeri", "Jack xeri"]


def _label_key(label: str) -> str:
    """Score-line labels without their counts (``xeri x2`` -> ``xeri``)."""
    if label.startswith("most cards"):
        return "most cards"
    return label.rsplit(" x", 1)[0] if label.split(" x")[-1].isdigit() else label


def _label_order(label: str) -> int:
    return _ORDER.index(label) if label in _ORDER else len(_ORDER)


def score_cells_plain(scores: Sequence[ScoreBreakdown], seating: Seating) -> list[str]:
    """One line per side: every score item, for the plain mode."""
    out = []
    for s in scores:
        items = ", ".join(f"{ln.label} {ln.points}" for ln in s.lines) or "nothing"
        out.append(f"Score {seating.side(s.side)}: {items}; total {s.total} ({s.cards} cards taken)")
    return out


def match_table(match: Match, seating: Seating) -> Table:
    """Every round's total per side, the match score and rounds won."""
    table = Table(title="Match summary", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("Round")
    for side in range(match.ruleset.sides):
        table.add_column(seating.side(side), justify="right")
    for i, totals in enumerate(match.finished_round_scores(), 1):
        table.add_row(str(i), *[str(t) for t in totals])
    table.add_row(Text("total", style="bold"), *[Text(str(p), style="bold") for p in match.scores],
                  end_section=True)
    table.add_row("rounds won", *[str(w) for w in match.round_wins])
    return table
