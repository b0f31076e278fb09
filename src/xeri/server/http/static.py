"""The page's files as browsers should get them: revalidated by ETag, compressed, the manifest typed.

Starlette's ``StaticFiles`` already sends an ETag and answers ``If-None-Match`` with 304;
``Cache-Control: no-cache`` makes browsers ask every time, so a new release is seen at once
while an unchanged file costs a 304 of a few bytes. ``GZipMiddleware`` (added in ``app``)
compresses what is worth it.
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

#: every page file is revalidated (ETag) before use
CACHE_CONTROL = "no-cache"

mimetypes.add_type("application/manifest+json", ".webmanifest")


class PageFiles(StaticFiles):
    """``/static``: the page's files with ``Cache-Control`` and an ETag."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = CACHE_CONTROL
        return response


def page_response(request: Request, page: Path) -> Response:
    """``index.html`` with an ETag, answered 304 when the browser already has it."""
    response = FileResponse(page, headers={"Cache-Control": CACHE_CONTROL}, stat_result=os.stat(page))
    etag = response.headers.get("etag")
    if etag and etag in Headers(scope=request.scope).get("if-none-match", ""):
        return Response(status_code=304, headers={"ETag": etag, "Cache-Control": CACHE_CONTROL})
    return response
