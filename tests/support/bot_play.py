"""Bots playing for the tests: a match played by one chooser per seat, a round played to its end or to its last
cards, and a finished match replayed to see how often a bot makes a seat's moves."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xeri.bots import bot_card, make_bot
from xeri.bots.base import Bot
from xeri.cards import Card
from xeri.engine import Round
from xeri.match import Match
from xeri.rules import find_ruleset

Chooser = Callable[[Match], Card]


def play_match(choosers: list[Chooser], seed: int, rounds: int = 1, preset: str = "classic") -> Match:
    """A match played by ``choosers`` (one per seat) until ``rounds`` rounds are over."""
    match = Match(find_ruleset(preset), seed=seed)
    while not match.is_over and len(match.finished_round_scores()) < rounds:
        turn = match.turn
        assert turn is not None
        match.play(choosers[turn](match))
    return match


def bot(spec: str, seed: int) -> Chooser:
    b = make_bot(spec, seed=seed)
    return lambda m: bot_card(m, b)


def seat_follows(done: Match, seat: int, spec: str = "strong") -> tuple[int, int]:
    """Replay a finished match: of ``seat``'s moves, how many the bot ``spec`` makes from the same view, and how
    many there were. A bot seat that failed and played a stand-in card (a server plays the first legal one) shows."""
    match = Match(done.ruleset, seed=done.seed, names=done.names, first_dealer=done.first_dealer,
                  deals=[r.deal for r in done.rounds])
    bot = make_bot(spec, 0)
    same = total = 0
    for played in done.rounds:
        for card in played.moves:
            if match.turn == seat:
                total += 1
                same += bot.choose(match.view(seat), match.round.log_for(seat)) == card
            match.play(card)
    return same, total


def last_cards(preset: str, players: int, left: int, seed: int) -> Round:
    """A round played by the expert until the talon is empty and ``left`` cards are in the hands."""
    ruleset = find_ruleset(preset, players=players)
    rnd = Round.new(ruleset, seed % players, seed)
    bots = [make_bot("expert", seed + s) for s in range(players)]
    while not (rnd.talon == () and sum(len(rnd.hand(s)) for s in range(players)) <= left):
        seat = rnd.turn
        assert seat is not None
        rnd.play(bots[seat].choose(rnd.view(seat), rnd.log_for(seat)), seat)
    return rnd


def play_out(rnd: Round, bots: Sequence[Bot]) -> None:
    """Each seat's bot plays from its own view until the round is over; every card it picks must be legal."""
    while not rnd.is_over:
        seat = rnd.turn
        assert seat is not None
        card = bots[seat].choose(rnd.view(seat), rnd.log_for(seat))
        assert card in rnd.legal_moves
        rnd.play(card, seat)
