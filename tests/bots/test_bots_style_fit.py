"""The master's ``fit=1``: each other seat's style and noise read by Bayes from its finished deals' plays."""

from __future__ import annotations

import pytest

from xeri import find_ruleset
from xeri.bots import make_bot
from xeri.bots.master import MasterBot
from xeri.bots.master_config import MasterConfig
from xeri.bots.opponent_model import finished_decisions
from xeri.bots.registry import BotSpecError
from xeri.bots.style_fit import NOISE_GRID, NOISE_PRIOR, StyleFit, read_seats
from xeri.cards import Card
from xeri.engine import Round


def _round(specs: list[str], seed: int) -> tuple[Round, list[Card]]:
    """A 2-player classic round of ``specs`` played to its end, and its cards in order."""
    ruleset = find_ruleset("classic", players=2)
    rnd = Round.new(ruleset, seed % 2, seed)
    bots = [make_bot(spec, seed + s) for s, spec in enumerate(specs)]
    cards = []
    while not rnd.is_over:
        seat = rnd.turn
        assert seat is not None
        card = bots[seat].choose(rnd.view(seat), rnd.log_for(seat))
        cards.append(card)
        rnd.play(card, seat)
    return rnd, cards


def test_the_prior_keeps_the_default_weighing_without_evidence() -> None:
    """Before any finished deal the noise is the prior mean, under the master's ``weigh`` floor (0.1)."""
    assert abs(sum(NOISE_PRIOR) - 1) < 1e-12 and len(NOISE_GRID) == len(NOISE_PRIOR)
    rnd, _ = _round(["expert", "expert"], 0)
    reading = read_seats([], rnd.view(0), 2)
    assert all(r.style == "expert" and r.noise < MasterConfig().off_style_weight for r in reading)


@pytest.mark.parametrize(("other", "style", "low", "high"), [
    ("expert", "expert", 0.0, 0.1), ("greedy", "greedy", 0.0, 0.1), ("random", None, 0.3, 1.0)])
def test_the_reading_names_each_bots_style_and_noise(other: str, style: str | None, low: float, high: float) -> None:
    """After the round's finished deals the expert and greedy read as themselves with little noise (greedy in most
    rounds: where few of its plays leave the expert's, it reads as a noisy expert), a random player as noisy
    whatever style it is taken for."""
    named = []
    for seed in range(4):
        rnd, _ = _round(["expert", other], seed)
        log = rnd.log_for(0)
        last = max(i for i, e in enumerate(log) if type(e).__name__ == "Dealt")
        r = read_seats(finished_decisions(log[:last], 2), rnd.view(0), 2)[1]
        named.append(r.style)
        if style is None or r.style == style:
            assert low <= r.noise <= high, (seed, r)
        else:
            assert r.noise > 0.1, (seed, r)  # taken for another style, it reads as playing off it
        assert 0.5 <= r.belief <= 1.0
    assert style is None or named.count(style) >= 3, named


def test_the_reading_is_kept_until_a_deal_ends_and_this_seat_is_never_read() -> None:
    rnd, _ = _round(["expert", "random"], 1)
    log = rnd.log_for(0)
    fit = StyleFit()
    first = fit.readings(rnd.view(0), finished_decisions(log, 2))
    assert first == fit.readings(rnd.view(0), finished_decisions(log, 2))
    assert first[0].style == "expert" and first[0].noise == 0.0 and first[1].noise > 0.2


def test_a_fitting_master_is_seeded() -> None:
    """Nothing in the reading is drawn: the same seed plays the same cards."""
    spec = "master:fit=1,rworlds=64"
    assert _round([spec, "random"], 5)[1] == _round([spec, "random"], 5)[1]
    bot = make_bot(spec, seed=1)
    assert isinstance(bot, MasterBot) and bot.config.style_fit and bot.style_fit is not None


def test_bad_fit_options_are_refused() -> None:
    with pytest.raises(BotSpecError, match="fit"):
        make_bot("master:fit=2")
    with pytest.raises(BotSpecError, match="opponent_model"):
        make_bot("master:fit=1,model=0")
    with pytest.raises(BotSpecError, match="wide"):
        make_bot("master:fit=1,wide=1")
    with pytest.raises(ValueError, match="style"):
        StyleFit({})
    rnd, _ = _round(["expert", "expert"], 0)
    with pytest.raises(ValueError, match="style"):
        read_seats([], rnd.view(0), 2, {})
