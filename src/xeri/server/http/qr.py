"""GET /api/qr.svg?url=…: a QR code of one of this server's own links (a friends' table's invite, issue 41).

A phone scans it off a laptop's screen to sit at the table. segno draws it (a well-kept, pure-Python QR library).
Only a link to this very server is drawn (its host is the request's ``Host``), so the route cannot be used to dress up
someone else's link as ours; and the text is short, so each drawing is cheap.
"""

from __future__ import annotations

import io
from urllib.parse import urlsplit

import segno
from starlette.requests import Request
from starlette.responses import Response

from ..wire.refusals import ProtocolError

#: the longest link drawn (an invite is about 60 characters)
MAX_URL = 300


def invite_svg(url: str, host: str, title: str = "QR") -> bytes:
    """The SVG of ``url``'s QR code; a ProtocolError when it is not an http(s) link to ``host`` or too long."""
    if len(url) > MAX_URL:
        raise ProtocolError("bad_request", f"url: at most {MAX_URL} characters")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise ProtocolError("bad_request", "url: not a link") from None
    if parts.scheme not in ("http", "https") or not host or parts.netloc.lower() != host.lower():
        raise ProtocolError("bad_request", "url: only a link to this server is drawn")
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False,
                                    title=title)
    return out.getvalue()


async def qr(request: Request) -> Response:
    """The route: the link's QR code as an image, kept a day by the browser (the same link draws the same)."""
    url = request.query_params.get("url", "")
    svg = invite_svg(url, request.headers.get("host", ""))
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=86400"})
