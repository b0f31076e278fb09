"""Match records for the fairness tests: a finished match's record with its fairness section as a server writes
it, and a record cut short as the engine would write it."""

from __future__ import annotations

import json
import random
from typing import Any

from xeri import fairness
from xeri.match import Match
from xeri.record import from_record, to_record
from xeri.rules import find_ruleset
from xeri.views import Commitments


def served_record(seed: int = 99, scheme: str = fairness.SCHEME) -> dict[str, object]:
    """A finished match's record with a fairness section, as the server writes it (or wrote it, ``SCHEME_V1``)."""
    ruleset = find_ruleset("classic", rounds=2)
    match = Match(ruleset, seed=seed)
    rng = random.Random(seed)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves))
    key = fairness.new_key()
    data = to_record(match)
    if scheme == fairness.SCHEME_V3:
        data["fairness"] = Commitments(seed, key).record_section(match)
        return data
    salt = fairness.salt_for(key, "match")
    whole = (fairness.commitment(seed, salt) if scheme.startswith("sha256(xeri-v1")
             else fairness.match_commitment(seed, salt, ruleset, match.names, match.first_dealer))
    data["fairness"] = {
        "scheme": scheme,
        "match": {"commitment": whole, "salt": salt},
        "rounds": [{"round": i + 1, "salt": fairness.salt_for(key, f"round:{i + 1}"),
                    "commitment": fairness.commitment(s, fairness.salt_for(key, f"round:{i + 1}"))}
                   for i, s in enumerate(match.round_seeds)],
    }
    return data


def copy_record(data: Any) -> Any:
    return json.loads(json.dumps(data))


def cut_record(data: dict[str, Any], rounds: int, moves: int | None = None) -> dict[str, Any]:
    """``data`` cut after ``rounds`` whole rounds (and ``moves`` more), remade as the engine would write it."""
    whole = from_record(data)
    match = Match(whole.ruleset, seed=whole.seed, names=whole.names, first_dealer=whole.first_dealer)
    for r in data["rounds"][:rounds]:
        for code in r["moves"]:
            match.play(code)
    for code in (data["rounds"][rounds]["moves"][:moves] if moves is not None else []):
        match.play(code)
    out = to_record(match)
    if moves is not None:
        out["rounds"][-1]["seed"] = None  # "not revealed yet"
    assert out["result"]["over"] is False
    out["fairness"] = copy_record(data["fairness"])
    return out
