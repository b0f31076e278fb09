"""The page: ``/`` (or a placeholder where the page is not installed) and an invite link ``/t/<table>``."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from .offline_pack import WEB_DIR
from .static import page_response

PLACEHOLDER = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Xeri</title>
<body><h1>Xeri server</h1><p>The browser page is not installed. The API is described in docs/protocol.md:
try <a href="/api/meta">/api/meta</a> and <a href="/api/tables">/api/tables</a>.</p></body></html>"""


async def index(request: Request) -> Response:
    page = WEB_DIR / "index.html"
    return page_response(request, page) if page.is_file() else HTMLResponse(PLACEHOLDER)


async def invite(request: Request) -> Response:
    return RedirectResponse(f"/#/t/{request.path_params['table_id']}", status_code=302)
