"""POST /api/verify: check a whole match's record, or one round's deal, against its commitments (xeri.fairness)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ... import fairness
from ...errors import XeriError
from ...record import deal_from_dict, deal_to_dict
from ...rules import Ruleset, find_ruleset
from ..http.bodies import read_body
from ..wire import messages
from ..wire.protocol import VerifyRecord, VerifyRound
from ..wire.refusals import ProtocolError
from .guard import answer


async def verify(request: Request) -> Response:
    body = await read_body(request)
    try:
        if isinstance(body, dict) and "record" in body:
            whole = VerifyRecord.read(body)
            verdict = fairness.verify_match(whole.record, whole.match_commitment)
            checks = verdict.checks
            out = {
                "ok": verdict.ok, "finished": verdict.finished, "scheme": verdict.scheme, "binds": verdict.binds,
                "detail": "; ".join(f"round {c.round}: {c.detail}" if c.round else c.detail for c in checks),
                "rounds": [{"round": c.round, "ok": c.ok, "detail": c.detail} for c in checks if c.round],
            }
        else:
            one = VerifyRound.read(body)
            ruleset = find_ruleset(one.ruleset) if isinstance(one.ruleset, str) else Ruleset.from_dict(one.ruleset)
            if not 0 <= one.dealer < ruleset.players:
                raise ProtocolError("bad_request",
                                    "give ruleset, dealer (a seat), seed (an integer), salt and commitment")
            seed = int(one.seed)  # a 64-bit seed comes as its digits (server.wire.messages), an integer from others
            deal = deal_from_dict(one.deal) if one.deal is not None else None
            check = fairness.verify_round(ruleset, one.dealer, seed, one.salt, one.commitment, deal, one.round)
            out = {"ok": check.ok, "detail": check.detail,
                   "rounds": [{"round": check.round, "ok": check.ok, "detail": check.detail}],
                   "deal": deal_to_dict(check.deal) if check.deal else None}
    except (XeriError, TypeError, AttributeError, ValueError, OverflowError) as exc:
        raise ProtocolError("bad_request", str(exc)) from None
    return answer(messages.Verdict, out)
