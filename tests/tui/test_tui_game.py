"""The game loop in-process through the plain front end: whole matches, saving, resuming, secrecy."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from xeri import record, saves
from xeri.cards import DECK, Card
from xeri.engine import SeatView
from xeri.match import Match
from xeri.rules import find_ruleset
from xeri.tui import board
from xeri.tui.frontends import PlainFrontend
from xeri.tui.game import Game
from xeri.tui.narration import Seating

CARD_RE = re.compile("|".join(re.escape(str(c)) for c in sorted(DECK, key=lambda c: -len(str(c)))))


def cards_in(text: str) -> set[Card]:
    return {Card.parse(m) for m in CARD_RE.findall(text)}


def new_game(tmp_path: Path, answers: list[str], players: int = 2, humans: tuple[int, ...] = (0,),
             rounds: int = 1, preset: str = "classic", seed: int = 11,
             hint_level: str | None = "random") -> tuple[Game, io.StringIO]:
    """A match of P0 (a person) against random bots; hints come from a fast bot unless told otherwise."""
    ruleset = find_ruleset(preset, players=players, rounds=rounds, match_end="rounds")
    names = [f"P{s}" for s in range(players)]
    bots = [s for s in range(players) if s not in humans]
    setup = saves.PlaySetup(humans=humans, levels=dict.fromkeys(bots, "random"), bot_seeds={s: 100 + s for s in bots})
    out = io.StringIO()
    ui = PlainFrontend(io.StringIO("".join(a + "\n" for a in answers)), out)
    game = Game(Match(ruleset, seed=seed, names=names), setup, ui, tmp_path / "m.json", hint_level=hint_level)
    return game, out


def test_a_whole_match_plays_to_the_summary_and_is_saved(tmp_path: Path) -> None:
    game, out = new_game(tmp_path, ["1"] * 300, rounds=2)
    assert game.run() == 0
    text = out.getvalue()
    assert game.match.is_over
    assert "Round scored:" in text and "Score You:" in text and "Summary: round 1:" in text
    assert "Match over:" in text
    data = json.loads((tmp_path / "m.json").read_text())
    assert data["result"]["over"] is True
    # The saved file is a normal record: it replays (ignoring the extra "play" key) to the same match.
    assert saves.PLAY_KEY in data
    assert record.to_record(record.from_record(data)) == record.to_record(game.match)


def test_the_match_is_saved_after_every_move(tmp_path: Path) -> None:
    game, _ = new_game(tmp_path, ["1"] * 300)
    checked = []
    ask = game.ui.ask

    def ask_and_check(prompt: str) -> str | None:
        on_disk = record.loads((tmp_path / "m.json").read_text())
        assert [r.moves for r in on_disk.rounds] == [r.moves for r in game.match.rounds]
        checked.append(True)
        return ask(prompt)

    game.ui.ask = ask_and_check  # type: ignore[method-assign]
    game.run()
    assert len(checked) >= 24


def test_bad_input_changes_nothing_and_asks_again(tmp_path: Path) -> None:
    game, out = new_game(tmp_path, ["zz", "9", "", "help", "pile", "seen", "hint", "quit", "n", "1"], hint_level=None)
    game.run()
    lines = out.getvalue().splitlines()
    errors = [ln for ln in lines if ln.startswith("error:")]
    assert len(errors) == 3
    assert "not a card or a command" in errors[0] and "no card 9" in errors[1]
    assert any(ln.startswith("Hint: play ") for ln in lines)
    assert any(ln.startswith("Seen: ") for ln in lines)
    assert any(ln.startswith("Pile, bottom to top") or ln == "The pile is empty." for ln in lines)
    assert "Not quitting." in lines
    # Only the final "1" was played by the person.
    assert sum(1 for ln in lines if ln.startswith("You play ")) == 1


def test_quit_then_resume_continues_the_same_match(tmp_path: Path) -> None:
    game, out = new_game(tmp_path, ["1", "2", "quit", "y"])
    assert game.run() == 0
    assert "xeri play --resume" in out.getvalue()
    path = saves.newest_unfinished(tmp_path)
    match, setup = saves.load(path)
    before = list(match.round.moves)
    assert sum(1 for s, _ in match.round.played if s == 0) == 2
    out2 = io.StringIO()
    resumed = Game(match, setup, PlainFrontend(io.StringIO("1\n" * 300), out2), path)
    assert resumed.run(resumed=True) == 0
    assert "Continuing the match" in out2.getvalue()
    final = record.loads(path.read_text())
    assert final.is_over and list(final.rounds[0].moves[: len(before)]) == before
    with pytest.raises(saves.SaveError, match="no unfinished match"):
        saves.newest_unfinished(tmp_path)


def test_end_of_input_saves_and_stops(tmp_path: Path) -> None:
    game, out = new_game(tmp_path, ["1"])
    assert game.run() == 0
    assert "is saved in" in out.getvalue()
    assert not record.loads((tmp_path / "m.json").read_text()).is_over


def _known_to(match: Match, seat: int) -> set[Card]:
    """Every card ``seat`` has legitimately seen so far, in any round of the match."""
    known: set[Card] = set()
    for rnd in match.rounds:
        view = rnd.view(seat)
        known |= set(view.gone) | set(view.hand) | {c for p in rnd.deal.redealt for c in p}
        if rnd.deal.exposed is not None:
            known.add(rnd.deal.exposed)
    return known


@pytest.mark.parametrize("players, preset", [(2, "pisti"), (3, "classic"), (4, "berman"), (4, "classic")])
def test_no_line_shows_a_card_the_person_may_not_know(tmp_path: Path, players: int, preset: str) -> None:
    game, _ = new_game(tmp_path, ["hint", "seen", "pile", "1"] * 200, players=players, preset=preset)
    ui = game.ui
    assert isinstance(ui, PlainFrontend)
    leaks: list[str] = []
    write = ui._write

    def checked_write(text: str) -> None:
        # Round-end score lines may list captured face-down cards: the round is over then.
        if not text.startswith("Score "):
            extra = cards_in(text) - _known_to(game.match, 0)
            if extra:
                leaks.append(f"{text!r} shows {sorted(map(str, extra))}")
        write(text)

    ui._write = checked_write  # type: ignore[method-assign]
    game.run()
    assert game.match.is_over
    assert not leaks, leaks[:3]


def test_hotseat_lines_show_no_hand_until_its_turn(tmp_path: Path) -> None:
    game, out = new_game(tmp_path, ["1"] * 300, humans=(0, 1))
    game.run()
    lines = out.getvalue().splitlines()
    assert not any("your hand" in ln for ln in lines)  # the deal is told to the table, not to one seat
    assert any(ln == "P1's turn" for ln in lines) and any(ln.startswith("Your turn (P1)") for ln in lines)


def _render(renderable: object, width: int = 80) -> list[str]:
    console = Console(width=width, record=True, no_color=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text().splitlines()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_table_fits_80x24_without_colour(players: int) -> None:
    match = Match(find_ruleset("classic", players=players), seed=3, names=[f"Name{s}" for s in range(players)])
    while match.round.view(0).talon_count > 20 or match.turn != 0:
        match.play(match.legal_moves[0])
    seating = Seating(match.ruleset, match.names, 0)
    view: SeatView = match.view(0)
    lines = _render(board.board(view, seating))
    assert max(len(ln) for ln in lines) <= 80
    assert len(lines) <= 16  # leaves room for the computer's moves and the prompt
    assert "Your hand:" in lines[-1] and " 1) " in lines[-1]
    assert all(str(c) in "\n".join(lines) for c in view.hand)  # suits are symbols, not only colours
    while not match.round.is_over:
        match.play(match.legal_moves[0])
    scores = match.round.scores
    assert scores is not None
    table = _render(board.score_table(scores, seating, match))
    assert max(len(ln) for ln in table) <= 80 and len(table) <= 20
    assert "round total" in "\n".join(table)


def test_the_computer_pauses_unless_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from xeri.commands import play
    from xeri.tui import frontends

    slept: list[float] = []
    monkeypatch.setattr(frontends.time, "sleep", slept.append)
    monkeypatch.setattr("sys.stdin", io.StringIO())
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    for fast in (False, True):
        ui = play.make_frontend(argparse.Namespace(fast=fast))
        assert isinstance(ui, frontends.RichFrontend)
        ui.pause(spent=0.3)  # the bot already thought for 0.3 s of the pause
    assert slept == [pytest.approx(play.MOVE_DELAY - 0.3)]


class _Warming:
    """A bot that reports, move by move, how a master would: warming up twice, then at full strength."""

    name = "master"

    def __init__(self) -> None:
        self.moves = 0
        self.status: str | None = None

    def choose(self, view: SeatView, history: object) -> Card:
        self.moves += 1
        self.status = "warming" if self.moves <= 2 else "full"
        return view.legal_moves[0]


def test_the_player_is_told_once_while_the_master_warms_up_and_once_when_it_is_itself(tmp_path: Path) -> None:
    from xeri.bots.master import NOTICES

    game, out = new_game(tmp_path, ["1"] * 300, rounds=2)
    game.bots[1] = _Warming()
    assert game.run() == 0
    text = out.getvalue()
    assert text.count(NOTICES["warming"]) == 1 and text.count(NOTICES["full"]) == 1
    assert text.index(NOTICES["warming"]) < text.index(NOTICES["full"])
    quiet, out = new_game(tmp_path, ["1"] * 300)  # a bot that never warms up says nothing
    assert quiet.run() == 0
    assert NOTICES["warming"] not in out.getvalue() and NOTICES["full"] not in out.getvalue()


def test_a_wall_clock_master_reports_how_it_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the rollouts load the master plays the counting rules and says so; once loaded, ``full``."""
    import xeri.bots.master as master
    from xeri.bots import make_bot
    from xeri.engine import Round

    rnd = Round.new(find_ruleset("classic"), 0, 3)
    seat = rnd.turn
    assert seat is not None
    monkeypatch.setattr(master, "_compiled_rollouts", lambda wait: (None, False))  # still loading
    bot = make_bot("master", 1, interactive=True)
    bot.choose(rnd.view(seat), rnd.log_for(seat))
    assert bot.status == "warming"  # type: ignore[attr-defined]
    monkeypatch.setattr(master, "_compiled_rollouts", lambda wait: (None, True))  # no fast extra
    bot = make_bot("master", 1, interactive=True)
    bot.choose(rnd.view(seat), rnd.log_for(seat))
    assert bot.status == "without"  # type: ignore[attr-defined]
    monkeypatch.undo()
    bot = make_bot("master", 1)  # reproducible: waits for the rollouts
    bot.choose(rnd.view(seat), rnd.log_for(seat))
    assert bot.status == "full"  # type: ignore[attr-defined]


def test_undo_takes_back_the_last_card_and_the_computers_answer_and_is_saved(tmp_path: Path) -> None:
    game, out = new_game(tmp_path, ["1", "undo", "2"] + ["1"] * 300)
    assert game.run() == 0
    text = out.getvalue()
    assert len(game.match.takebacks) == 1
    taken = game.match.takebacks[0]
    assert taken.seat == 0 and len(taken.cards) == 2  # the person's card and the bot's answer
    assert f"Taken back: your {taken.cards[0]} and the computer's {taken.cards[1]}" in text
    # The second choice ("2") is the move that stands: a card other than the one taken back opens the round.
    assert game.match.rounds[0].moves[taken.at] != taken.cards[0]
    # The saved record keeps the takeback, and reads back to the same match.
    saved = record.loads((tmp_path / "m.json").read_text())
    assert saved.takebacks == game.match.takebacks
    assert record.to_record(saved) == record.to_record(game.match)


def test_undo_with_nothing_to_take_back_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    game, out = new_game(tmp_path, ["undo"] + ["1"] * 300)
    assert game.run() == 0
    errors = [ln for ln in out.getvalue().splitlines() if ln.startswith("error:")]
    assert errors == ["error: you have played no card in this hand: there is nothing to take back"]
    assert game.match.takebacks == []


def test_undo_is_refused_between_people_at_one_keyboard(tmp_path: Path) -> None:
    game, out = new_game(tmp_path, ["", "1", "", "undo"] + ["", "1"] * 300, humans=(0, 1))
    game.run()
    assert "error: takebacks are for one person against the computer" in out.getvalue()
    assert game.match.takebacks == []
