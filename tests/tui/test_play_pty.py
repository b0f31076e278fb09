"""``xeri play`` driven as a person would: the real program in an 80x24 pseudo-terminal.

Every step waits for text on the screen (``expect``), never for time; ``--fast``
only removes the pauses a person would see between the computer's moves.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from xeri import record, saves
from xeri.cards import DECK, Card

SRC = str(Path(__file__).resolve().parents[2] / "src")
PROMPT = r"move \((?:1-)?(\d+), a card, or help\): "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """One run of ``python -m xeri play`` in a pseudo-terminal."""

    def __init__(self, data: Path, *args: str, colour: bool = False) -> None:
        env = dict(os.environ, NO_COLOR="1", XERI_DATA_DIR=str(data), PYTHONPATH=SRC, TERM="xterm")
        if colour:
            env.pop("NO_COLOR")
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        # As a shell starts a program in a terminal: ^C interrupts it, whatever this test process ignores (an
        # ignored SIGINT is inherited, and Python then leaves it ignored).
        self.child = pexpect.spawn(sys.executable, ["-m", "xeri", "play", "--fast", *args], env=env,
                                   dimensions=(24, 80), encoding="utf-8", timeout=30,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.screen: list[str] = []

    def expect(self, pattern: str | list[object]) -> int:
        index = self.child.expect(pattern)
        self.screen.append(ANSI.sub("", (self.child.before or "") + str(self.child.after)))
        return int(index)

    def text(self) -> str:
        return "".join(self.screen)

    def hand(self) -> list[Card]:
        """The hand as numbered on the last table drawn."""
        line = [ln for ln in self.screen[-1].splitlines() if ln.startswith("Your hand:")][-1]
        return [Card.parse(c) for c in re.findall(r"\d+\) (\S+)", line)]

    def play_on(self, limit: int = 500) -> Iterator[int]:
        """Play the first card at every prompt, press Enter between rounds, until the program ends."""
        for _ in range(limit):
            index = self.expect([PROMPT, "Press Enter to deal round", pexpect.EOF])
            if index == 0:
                yield len(self.hand())
                self.child.sendline("1")
            elif index == 1:
                self.child.sendline("")
            else:
                return
        raise AssertionError("the match did not end")

    def close(self) -> int:
        self.child.close()
        return int(self.child.exitstatus or 0)


def saved(data: Path) -> Path:
    files = list((data / "matches").glob("*.json"))
    assert len(files) == 1
    return files[0]


def test_a_whole_round_against_the_random_bot(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "--seed", "3", "--level", "random", "--option", "rounds=1", "--name", "Tess")
    hands = list(term.play_on())
    assert term.close() == 0
    screen = term.text()
    assert hands[:6] == [6, 5, 4, 3, 2, 1]  # the hand, numbered, shrinks by the card played
    assert len(hands) % 24 == 0
    assert "Computer plays" in screen and "Round score" in screen and "round total" in screen
    assert "Match summary" in screen and "Match over:" in screen
    for line in screen.splitlines():
        assert len(line) <= 80, line
    assert record.loads(saved(tmp_path).read_text()).is_over


def test_a_whole_round_against_the_strong_level(tmp_path: Path) -> None:
    """The strong level is the learned bot (NumPy only): it plays its seat, and every card is the network's."""
    from support.bot_play import seat_follows

    term = Terminal(tmp_path, "--seed", "4", "--level", "strong", "--option", "rounds=1")
    hands = list(term.play_on())
    assert term.close() == 0
    assert hands and "Match over:" in term.text()
    path = saved(tmp_path)
    match, setup = saves.load(path)
    assert match.is_over and setup.levels == {1: "strong"}
    same, total = seat_follows(match, 1)
    assert total >= 12 and same == total


def test_three_players_against_the_strong_level_which_says_it_warms_up(tmp_path: Path) -> None:
    """At 3 players the strong level plays a master (issue 28): its first move comes before the compiled rollouts
    are loaded, so the player is told, once, that it plays by the counting rules until they are."""
    from xeri.bots.master import NOTICES

    term = Terminal(tmp_path, "--players", "3", "--seed", "4", "--level", "strong", "--option", "rounds=1")
    hands = list(term.play_on())
    assert term.close() == 0
    assert hands[:6] == [6, 5, 4, 3, 2, 1] and "Match over:" in term.text()
    flat = " ".join(term.text().split())  # the notice is wrapped to the terminal's width
    assert flat.count(" ".join(NOTICES["strong-warming"].split())) == 1
    assert flat.count(" ".join(NOTICES["strong-full"].split())) <= 1
    assert NOTICES["warming"] not in flat  # it is the strong level that says so, not the master
    match, setup = saves.load(saved(tmp_path))
    assert match.is_over and setup.levels == {1: "strong", 2: "strong"}


def test_bad_input_at_the_prompt(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "--seed", "8", "--level", "random")
    term.expect(PROMPT)
    hand = term.hand()
    absent = next(c for c in DECK if c not in hand)
    for typed, reason in [("zz", "not a card or a command"), ("9", "there is no card 9 in your hand"),
                          ("", "type a card"), (absent.code, f"you do not hold {absent}")]:
        term.child.sendline(typed)
        term.expect(reason)
        term.expect(PROMPT)  # a new prompt, and nothing was played
        assert "You play" not in term.screen[-1] and "You play" not in term.screen[-2]
    term.child.sendline(hand[0].code.lower())
    term.expect(PROMPT)
    assert f"You play {hand[0]}" in term.screen[-1]
    term.child.sendline("quit")
    term.expect(r"\[y/N\]")
    term.child.sendline("y")
    term.expect(pexpect.EOF)
    assert term.close() == 0
    match = record.loads(saved(tmp_path).read_text())
    assert [c for s, c in match.round.played if s == 0] == [hand[0]]


def test_quit_then_resume(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "--seed", "21", "--level", "random", "--option", "rounds=1")
    moves = term.play_on()
    next(moves), next(moves), next(moves)  # two cards played; the third prompt is waiting
    term.child.sendline("quit")
    term.expect(r"\[y/N\]")
    term.child.sendline("n")
    term.expect("Not quitting")
    term.expect(PROMPT)
    term.child.sendline("quit")
    term.expect(r"\[y/N\]")
    term.child.sendline("y")
    term.expect("xeri play --resume")
    term.expect(pexpect.EOF)
    assert term.close() == 0
    path = saved(tmp_path)
    match, _ = saves.load(path)
    assert not match.is_over and [s for s, _ in match.round.played].count(0) == 2
    hand = sorted(match.round.hand(0))

    again = Terminal(tmp_path, "--resume")
    again.expect("Continuing the match")
    again.expect("This round so far:")
    again.expect(PROMPT)
    assert again.hand() == hand  # the same hand, numbered the same way
    assert "Round 1 of 1 · classic (rounds=1)" in again.screen[-1]
    again.child.sendline("1")
    list(again.play_on())
    assert again.close() == 0
    assert saved(tmp_path) == path  # the same file was continued, not a new match
    final = record.loads(path.read_text())
    assert final.is_over and final.rounds[0].moves[: len(match.round.moves)] == match.round.moves


def test_four_players_with_a_bot_partner(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "--players", "4", "--seed", "6", "--level", "random", "--option", "rounds=1")
    hands = list(term.play_on())
    assert term.close() == 0
    assert hands[:6] == [6, 5, 4, 3, 2, 1] and len(hands) % 12 == 0  # 12 cards each per round
    screen = term.text()
    assert "Partner plays" in screen and "Rival 1 plays" in screen and "Rival 2 plays" in screen
    assert "You & Partner" in screen and "Rival 1 & Rival 2" in screen
    data = record.to_record(record.loads(saved(tmp_path).read_text()))
    assert [s["side"] for s in data["seats"]] == [0, 1, 0, 1]
    assert data["result"]["over"]


def test_four_players_against_the_master_who_plays_the_last_cards_by_its_rollouts(tmp_path: Path) -> None:
    """With 4 players the master's rollouts play to the last card (issue 28): a whole round against a master team,
    with a master partner, in the terminal under the wall-clock cap (the rollouts there once loaded, the exact
    endgame while they load), each notice told once at most, and the saved round holds every card played."""
    from xeri.bots.master import NOTICES

    term = Terminal(tmp_path, "--players", "4", "--seed", "6", "--level", "master", "--option", "rounds=1")
    hands = list(term.play_on())
    assert term.close() == 0
    assert hands[:6] == [6, 5, 4, 3, 2, 1] and len(hands) == 12 and "Match over:" in term.text()
    flat = " ".join(term.text().split())
    assert flat.count(" ".join(NOTICES["warming"].split())) <= 1
    assert flat.count(" ".join(NOTICES["full"].split())) <= 1
    match, setup = saves.load(saved(tmp_path))
    assert match.is_over and setup.levels == {1: "master", 2: "master", 3: "master"}
    assert len(match.round.played) == 48


@pytest.mark.parametrize("dimensions", [(24, 80)])
def test_hotseat_hides_each_hand_until_enter(tmp_path: Path, dimensions: tuple[int, int]) -> None:
    term = Terminal(tmp_path, "--hotseat", "--seed", "2", "--name", "Ann", "--name", "Bob")
    term.expect("pass the keyboard to Bob, then press Enter")
    assert "Your hand" not in term.screen[-1]  # nobody's hand is on screen before Enter
    term.child.sendline("")
    term.expect(PROMPT)
    bob = term.hand()
    term.child.sendline("1")
    term.expect("pass the keyboard to Ann, then press Enter")
    assert "\x1b[2J" in term.child.before or "\x1b[H" in term.child.before  # the screen was cleared
    term.child.sendline("")
    term.expect(PROMPT)
    assert "Since your last turn:" in term.screen[-1] and f"Bob plays {bob[0]}" in term.screen[-1]
    term.child.sendline("quit")
    term.expect(r"\[y/N\]")
    term.child.sendline("y")
    term.expect(pexpect.EOF)
    assert term.close() == 0


def test_suits_are_coloured_unless_no_color(tmp_path: Path) -> None:
    red_card = re.compile(r"\x1b\[[0-9;]*31m(?:10|[2-9JQKA])[♦♥]")
    raw = {}
    for colour in (True, False):
        term = Terminal(tmp_path / str(colour), "--seed", "4", colour=colour)
        term.expect(PROMPT)
        raw[colour] = term.child.before
        term.child.sendline("quit")
        term.expect(r"\[y/N\]")
        term.child.sendline("y")
        term.expect(pexpect.EOF)
        assert term.close() == 0
    assert red_card.search(raw[True])
    assert not red_card.search(raw[False])
    assert re.search("[♦♥]", ANSI.sub("", raw[False]))  # without colour, the suits are still written


def test_ctrl_c_leaves_the_match_saved(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "--seed", "5", "--level", "random")
    moves = term.play_on()
    next(moves), next(moves)  # one card played; the second prompt is waiting
    term.child.sendintr()
    term.expect("Interrupted")
    term.expect("xeri play --resume")
    term.expect(pexpect.EOF)
    assert term.close() == 130
    match, _ = saves.load(saved(tmp_path))
    assert not match.is_over and [s for s, _ in match.round.played].count(0) == 1


def test_undo_in_the_terminal_takes_the_card_back_and_the_save_keeps_it(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "--seed", "8", "--level", "random")
    term.expect(PROMPT)
    hand = term.hand()
    term.child.sendline("1")
    term.expect(PROMPT)
    term.child.sendline("undo")
    term.expect("Taken back: your")
    term.expect(PROMPT)
    assert term.screen[-1].lstrip().startswith(f"{hand[0]}")  # the line goes on with the card taken back
    assert sorted(term.hand()) == sorted(hand)  # the card is back in the hand
    term.child.sendline("quit")
    term.expect(r"\[y/N\]")
    term.child.sendline("y")
    term.expect(pexpect.EOF)
    assert term.close() == 0
    match, _ = saves.load(saved(tmp_path))
    assert [t.cards[0] for t in match.takebacks] == [hand[0]]
    assert [c for s, c in match.round.played if s == 0] == []
