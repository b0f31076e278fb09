"""What the server offers: its health, rule presets, bot levels, limits and offline pack (GET /api/meta and kin)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ... import __version__ as _version
from ...bots.registry import available_levels
from ...rules import PRESET_HELP, PRESETS
from ...scoring import point_items
from ..context import ctx
from ..http import offline_pack as offline
from ..lobby.lobby import NAME_LENGTH, options_help
from ..socket.connection import MAX_MESSAGE
from ..wire import messages
from ..wire.protocol import TAKEOVER_AFTER, TURN_TIMER
from .guard import answer


async def health(_request: Request) -> Response:
    return JSONResponse({"ok": True})


def _rulesets() -> list[dict[str, Any]]:
    """Each preset with its options and its point cards, so How to play tells what every card is worth."""
    return [{"name": name, "help": PRESET_HELP.get(name, ""), "options": r.options(),
             "point_items": [{"label": i.label, "points": i.points, "each": len(i.cards) > 1}
                             for i in point_items(r.scoring, r.two_of_spades)]}
            for name, r in PRESETS.items()]


async def meta(request: Request) -> Response:
    return answer(messages.ServerMeta, {
        "rulesets": _rulesets(), "options": options_help(), "levels": available_levels(), "version": _version,
        "limits": {"turn_timer": list(TURN_TIMER), "takeover_after": list(TAKEOVER_AFTER),
                   "name_length": NAME_LENGTH, "message_bytes": MAX_MESSAGE},
        # The offline pack this server serves (its levels, size and version), or null (server.http.offline_pack).
        "offline": await offline.summary(request),
        "rated_targets": None if (targets := ctx(request).lobby.rated_targets) is None else list(targets),
    })


async def list_rulesets(_request: Request) -> Response:
    return JSONResponse(_rulesets())


async def levels(_request: Request) -> Response:
    return JSONResponse(available_levels())
