"""The server's fairness work for one table: round commitments, their reveals, the report and the record's part.

Each round's seed is committed to before its deal and revealed once the round
is over; the match seed only once the match is over (docs/fairness.md).
The match commitment (scheme ``xeri-v2``) binds the seat names too, so it
exists once the table is full and the match starts, before the first deal.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ... import fairness
from ...match import Match
from ...rules import Ruleset
from ...scoring import ScoreBreakdown
from .. import messages


class Commitments:
    """Commitments and reveals of one table's match, from its match seed and salt key."""

    def __init__(self, match_seed: int, salt_key: str) -> None:
        self.match_seed = match_seed
        self.salt_key = salt_key
        self._rounds: list[str] = []

    def salt(self, number: int) -> str:
        return fairness.salt_for(self.salt_key, f"round:{number}")

    def match_salt(self) -> str:
        return fairness.salt_for(self.salt_key, "match")

    def of_round(self, match: Match, number: int) -> str:
        """The published commitment of round ``number`` (1-based)."""
        while len(self._rounds) < number:
            i = len(self._rounds)
            self._rounds.append(fairness.commitment(match.round_seeds[i], self.salt(i + 1)))
        return self._rounds[number - 1]

    def of_match(self, match: Match | None) -> str | None:
        """The match commitment shown at the table from the start (None while seats are still free)."""
        if match is None:
            return None
        return fairness.match_commitment(self.match_seed, self.match_salt(), match.ruleset, match.names,
                                         match.first_dealer)

    def reveal(self, match: Match, number: int) -> messages.RevealEvent:
        """The protocol's ``reveal`` event of a round that is over (its 64-bit seed as digits: JSON readers hold
        integers exactly only up to 2**53)."""
        rnd = match.rounds[number - 1]
        assert rnd.is_over, "a round's seed is revealed only once the round is over"
        return messages.RevealEvent(round=number, dealer=rnd.dealer, seed=str(match.round_seeds[number - 1]),
                               salt=self.salt(number), commitment=self.of_round(match, number))

    def history(self, match: Match | None) -> list[messages.Round]:
        """Every finished round: breakdown, totals, and the revealed seed and salt."""
        if match is None:
            return []
        out = []
        for i, rnd in enumerate(match.rounds):
            if rnd.scores is None:
                continue
            reveal = self.reveal(match, i + 1)
            out.append(messages.Round(round=i + 1, dealer=rnd.dealer, scores=[breakdown(s) for s in rnd.scores],
                                      totals=[s.total for s in rnd.scores], commitment=reveal.commitment,
                                      seed=reveal.seed, salt=reveal.salt))
        return out

    def report(self, ruleset: Ruleset, match: Match | None) -> messages.Fairness:
        """The table's fairness report: each round's commitment, and its check once revealed."""
        rounds = []
        if match is not None:
            for i, rnd in enumerate(match.rounds):
                entry = messages.FairnessRound(round=i + 1, dealer=rnd.dealer, commitment=self.of_round(match, i + 1),
                                               revealed=rnd.is_over, seed=None, salt=None, ok=None,
                                               detail="revealed when the round is over")
                if rnd.is_over:
                    r = self.reveal(match, i + 1)
                    check = fairness.verify_round(ruleset, rnd.dealer, int(r.seed), r.salt, r.commitment, rnd.deal,
                                                  i + 1)
                    entry = msgspec.structs.replace(entry, seed=r.seed, salt=r.salt, ok=check.ok, detail=check.detail)
                rounds.append(entry)
        over = match is not None and match.is_over
        return messages.Fairness(scheme=fairness.SCHEME, match_commitment=self.of_match(match),
                                 match_seed=str(self.match_seed) if over else None,
                                 match_salt=self.match_salt() if over else None, rounds=rounds)

    def record_section(self, match: Match) -> dict[str, Any]:
        """The ``fairness`` section of a finished match's record, which ``xeri verify`` checks."""
        return {
            "scheme": fairness.SCHEME,
            "match": {"commitment": self.of_match(match), "salt": self.match_salt()},
            "rounds": [{"round": i + 1, "commitment": self.of_round(match, i + 1), "salt": self.salt(i + 1)}
                       for i in range(len(match.rounds))],
        }


def breakdown(score: ScoreBreakdown) -> messages.Breakdown:
    """One side's score of a round, as the protocol's breakdown."""
    return messages.Breakdown(side=score.side, cards=score.cards, xeris=score.xeris, jack_xeris=score.jack_xeris,
                              lines=[messages.ScoreLine(label=line.label, points=line.points,
                                                        cards=[c.code for c in line.cards]) for line in score.lines],
                              total=score.total)
