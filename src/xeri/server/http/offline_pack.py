"""The installable page's service worker and the offline pack (docs/web.md#offline).

``/sw.js`` is ``web/sw.js`` with its version and its list of the page's files written in: the version is a hash
of those files, so any change to the page is a new service worker, which caches the new files together and
takes over only when the page asks (no stale mix of old and new files).

``/offline/...`` is the offline pack, fetched only when a player asks for it ("Play offline") or installs the
app: Pyodide's runtime and standard library from the folder ``xeri serve --offline-pack DIR`` names (npm's
``pyodide`` package; ``$XERI_OFFLINE_PACK`` by default), the wheel of this server's own core and bots
(``xeri.offline.pack``, built from the running package when first asked for), ``pack.json`` (the version, the
files and their sizes, the levels) and the Web Worker that runs it. Big files are gzipped once, in a thread,
and kept: a pack costs the server nothing until the first player asks for it.

A download costs little and cannot be held (issue 42): each file's ETag is hashed once, at start-up (the wheel's
when it is built), never per request; a file is sent in chunks of ``CHUNK`` bytes, read from disk (or from the
one gzipped copy) only as the client takes them, so a client that never reads holds one chunk, not the file; one
address has at most ``PER_ADDRESS`` downloads open (one more is answered 429), and a download whose client takes
nothing for ``STALL_SECONDS`` is dropped.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import logging
import os
import re
import threading
from collections.abc import AsyncGenerator, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from ...offline import pack

log = logging.getLogger("xeri.server")

#: the page's folder: the package's, or $XERI_WEB_DIR (a customised page; the tests serve a changed copy)
WEB_DIR = Path(os.environ.get("XERI_WEB_DIR") or Path(__file__).resolve().parents[2] / "web")
#: the page's files that the service worker caches, by URL: what loads the page with no network
SHELL_GLOBS = ("css/*.css", "js/**/*.js", "icon.svg", "manifest.webmanifest")
#: the scripts that are not the page's: the service worker itself, and the offline pack's worker
NOT_SHELL = ("js/sw.js", "js/offline/worker.js")
#: the worker's own policy: Pyodide compiles WebAssembly ('wasm-unsafe-eval'), and nothing else changes
WORKER_CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; object-src 'none'; "
              "base-uri 'none'")
#: files the worker reads, and their media types (WebAssembly is compiled as it streams only as application/wasm)
MEDIA = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".zip": "application/zip",
         ".json": "application/json", ".whl": "application/zip"}
#: every answer is revalidated (ETag), as the page's files are
CACHE_CONTROL = "no-cache"
ENV = "XERI_OFFLINE_PACK"
#: bytes of a pack file sent at once: what a client that stops reading holds, beside the socket's own buffers
CHUNK = 64 * 1024
#: a client's pack downloads open at once, per address (the page fetches the pack's six files, a few at a time)
PER_ADDRESS = 6
#: seconds a download may wait for its client to take the next chunk; then it is dropped
STALL_SECONDS = 30.0
#: what a refused download tells the client to wait, in seconds
RETRY_AFTER = 5
_VERSION_LINE = re.compile(r'^const VERSION = "[^"]*";$', re.M)
_SHELL_LINE = re.compile(r"^const SHELL = \[[^\]]*\];$", re.M)


def shell_files(web: Path = WEB_DIR) -> list[tuple[str, Path]]:
    """(URL, file) of every file of the page, the page itself (``/``) first."""
    files = [("/", web / "index.html")]
    for pattern in SHELL_GLOBS:
        files += [(f"/static/{p.relative_to(web).as_posix()}", p) for p in sorted(web.glob(pattern))
                  if p.relative_to(web).as_posix() not in NOT_SHELL]
    return files


def _etag(data: bytes) -> str:
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


def _answer(request: Request, data: bytes, media: str, headers: dict[str, str] | None = None,
            gzipped: bytes | None = None) -> Response:
    """``data`` with an ETag (304 when the browser has it), gzipped where it was and the browser takes it."""
    etag = _etag(data)
    base = {"ETag": etag, "Cache-Control": CACHE_CONTROL, "Vary": "Accept-Encoding", **(headers or {})}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=base)
    if gzipped is not None and "gzip" in request.headers.get("accept-encoding", "").lower():
        return Response(gzipped, media_type=media, headers={**base, "Content-Encoding": "gzip"})
    return Response(data, media_type=media, headers=base)


@dataclass
class ServiceWorker:
    """``/sw.js``, rebuilt when a file of the page changes (its size or time)."""

    web: Path = WEB_DIR
    _key: tuple[tuple[str, int, int], ...] | None = None
    _text: bytes = b""

    def script(self) -> bytes:
        files = shell_files(self.web)
        stats = [(url, p.stat()) for url, p in [*files, ("/sw.js", self.web / "js" / "sw.js")]]
        key = tuple((url, s.st_size, s.st_mtime_ns) for url, s in stats)
        if key != self._key:
            digest = hashlib.sha256()
            for url, path in files:
                digest.update(url.encode() + b"\0" + path.read_bytes() + b"\0")
            source = (self.web / "js" / "sw.js").read_text()
            digest.update(source.encode())
            version = digest.hexdigest()[:16]
            source = _VERSION_LINE.sub(f'const VERSION = "{version}";', source, count=1)
            source = _SHELL_LINE.sub(f"const SHELL = {json.dumps([url for url, _ in files])};", source, count=1)
            self._key, self._text = key, source.encode()
        return self._text


@dataclass(frozen=True)
class PackFile:
    """One file of the pack, as served: its bytes on disk (``path``) or in memory (``data``: the wheel), its
    ETag hashed once, and its gzipped copy once made."""

    etag: str
    size: int
    path: Path | None = None
    data: bytes | None = None

    def chunks(self) -> Generator[bytes, None, None]:
        """The file, ``CHUNK`` bytes at a time, read from disk as they are asked for."""
        if self.data is not None:
            yield from (self.data[i:i + CHUNK] for i in range(0, len(self.data), CHUNK))
            return
        assert self.path is not None
        with self.path.open("rb") as f:
            while chunk := f.read(CHUNK):
                yield chunk


@dataclass
class OfflinePack:
    """The pack's files: Pyodide's from ``folder`` (hashed here, once), the wheel built from this package, each
    gzipped once; the downloads open per address."""

    folder: Path
    per_address: int = PER_ADDRESS
    stall_seconds: float = STALL_SECONDS
    _wheel: bytes | None = None
    _manifest: bytes | None = None
    _files: dict[str, PackFile] = field(default_factory=dict)
    _gzipped: dict[str, bytes] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    #: per client address, its downloads open now
    downloads: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        pack.check_pyodide(self.folder)
        for name in pack.PYODIDE_FILES:
            path = self.folder / name
            digest = hashlib.sha256()
            with path.open("rb") as f:
                while chunk := f.read(1 << 20):
                    digest.update(chunk)
            self._files[f"pyodide/{name}"] = PackFile('"' + digest.hexdigest()[:32] + '"', path.stat().st_size, path)

    def wheel(self) -> bytes:
        with self._lock:
            if self._wheel is None:
                self._wheel = pack.build_wheel()
            return self._wheel

    def manifest(self) -> bytes:
        wheel = self.wheel()
        with self._lock:
            if self._manifest is None:
                self._manifest = json.dumps(pack.manifest(self.folder, wheel)).encode()
            return self._manifest

    def find(self, name: str) -> PackFile | None:
        """A file of the pack, or None if the pack has no such file (the wheel is built when first asked for)."""
        if name == pack.wheel_name():
            wheel = self.wheel()
            with self._lock:
                if name not in self._files:
                    self._files[name] = PackFile(_etag(wheel), len(wheel), data=wheel)
        return self._files.get(name)

    def gzipped(self, name: str, found: PackFile) -> bytes:
        """``found`` gzipped, made once (in a thread: the caller's) and kept."""
        with self._lock:
            zipped = self._gzipped.get(name)
        if zipped is None:
            zipped = gzip.compress(b"".join(found.chunks()), 6, mtime=0)
            with self._lock:
                self._gzipped[name] = zipped
        return zipped

    @contextmanager
    def download(self, address: str) -> Iterator[bool]:
        """One download of ``address`` open while inside; False (and nothing counted) when it has its share."""
        if self.downloads.get(address, 0) >= self.per_address:
            yield False
            return
        self.downloads[address] = self.downloads.get(address, 0) + 1
        try:
            yield True
        finally:
            left = self.downloads[address] - 1
            if left:
                self.downloads[address] = left
            else:
                del self.downloads[address]


class PackResponse(Response):
    """A pack file streamed chunk by chunk while its address's download is counted; a client that takes no chunk
    for ``stall_seconds`` is dropped (the server returns unfinished, and uvicorn closes the connection)."""

    def __init__(self, found: OfflinePack, address: str, body: AsyncGenerator[bytes, None], size: int, media: str,
                 headers: dict[str, str]) -> None:
        super().__init__(None, media_type=media, headers={**headers, "Content-Length": str(size)})
        self.found, self.address, self.body_chunks = found, address, body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        with self.found.download(self.address) as admitted:
            if not admitted:
                await _too_many(self.found.per_address)(scope, receive, send)
                return
            # Streamed until done, stalled or the client gone (uvicorn's send then returns at once: without the
            # listener the rest of the file would be read for nobody).
            streaming = asyncio.ensure_future(self._stream(scope, send))
            gone = asyncio.ensure_future(_disconnected(receive))
            try:
                await asyncio.wait((streaming, gone), return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (streaming, gone):
                    task.cancel()
                await asyncio.gather(streaming, gone, return_exceptions=True)
                await self.body_chunks.aclose()
            error = streaming.exception() if streaming.done() and not streaming.cancelled() else None
            if error is not None:
                raise error

    async def _stream(self, scope: Scope, send: Send) -> None:
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow the cancel of a client gone
        stall = self.found.stall_seconds
        try:
            async with asyncio.timeout(stall):
                await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
            if scope.get("method") != "HEAD":
                async for chunk in self.body_chunks:
                    async with asyncio.timeout(stall):
                        await send({"type": "http.response.body", "body": chunk, "more_body": True})
            async with asyncio.timeout(stall):
                await send({"type": "http.response.body", "body": b""})
        except TimeoutError:
            log.info("dropped a stalled offline-pack download from %s", self.address)


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def _too_many(most: int) -> Response:
    return JSONResponse({"error": {"code": "rate_limited", "retry_after": RETRY_AFTER,
                                   "message": f"at most {most} downloads of the offline pack at once from "
                                   "one address: try again when one has finished"}},
                        status_code=429, headers={"Retry-After": str(RETRY_AFTER)})


async def _from_disk(found: PackFile) -> AsyncGenerator[bytes, None]:
    """``found``'s chunks, each read in a thread (the event loop never waits on the disk) at its own offset, so a
    download stopped mid-read leaves nothing shared behind."""
    if found.data is not None:
        async for chunk in _from_memory(found.data):
            yield chunk
        return
    assert found.path is not None
    fd = await asyncio.to_thread(os.open, found.path, os.O_RDONLY)
    try:
        offset = 0
        while chunk := await asyncio.to_thread(os.pread, fd, CHUNK, offset):
            offset += len(chunk)
            yield chunk
    finally:
        os.close(fd)


async def _from_memory(data: bytes) -> AsyncGenerator[bytes, None]:
    for i in range(0, len(data), CHUNK):
        yield data[i:i + CHUNK]


def pack_folder(given: str | None) -> Path | None:
    """The folder of Pyodide's files: ``--offline-pack``, else ``$XERI_OFFLINE_PACK``, else none."""
    chosen = given or os.environ.get(ENV) or None
    return Path(chosen).expanduser() if chosen else None


def _no_pack() -> Response:
    return JSONResponse({"error": {"code": "no_offline_pack", "message": "this server serves no offline pack: "
                                   "start it with xeri serve --offline-pack DIR (npm's pyodide package)"}},
                        status_code=404)


def _pack(request: Request) -> OfflinePack | None:
    return getattr(request.app.state, "offline_pack", None)


async def summary(request: Request) -> dict[str, Any] | None:
    """What ``/api/meta`` says of the pack: its levels, its size and its version, or None without one."""
    found = _pack(request)
    if found is None:
        return None
    data = json.loads(await asyncio.to_thread(found.manifest))
    return {"levels": data["levels"], "bytes": data["bytes"], "version": data["version"]}


async def service_worker(request: Request) -> Response:
    worker: ServiceWorker = request.app.state.service_worker
    data = await asyncio.to_thread(worker.script)
    return _answer(request, data, "text/javascript", {"Service-Worker-Allowed": "/"})


async def worker_script(request: Request) -> Response:
    """The offline engine's Web Worker, under its own policy: the one page script that may compile WebAssembly."""
    if _pack(request) is None:
        return _no_pack()
    data = (WEB_DIR / "js" / "offline" / "worker.js").read_bytes()
    return _answer(request, data, "text/javascript", {"Content-Security-Policy": WORKER_CSP})


async def manifest(request: Request) -> Response:
    found = _pack(request)
    if found is None:
        return _no_pack()
    return _answer(request, await asyncio.to_thread(found.manifest), "application/json")


async def pack_file(request: Request) -> Response:
    found = _pack(request)
    if found is None:
        return _no_pack()
    name = request.path_params["name"]
    file = await asyncio.to_thread(found.find, name)
    if file is None:
        return JSONResponse({"error": {"code": "not_found", "message": "the offline pack has no such file"}},
                            status_code=404)
    headers = {"ETag": file.etag, "Cache-Control": CACHE_CONTROL, "Vary": "Accept-Encoding"}
    if file.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    media = MEDIA.get(Path(name).suffix, "application/octet-stream")
    address = request.client.host if request.client else "-"
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        zipped = await asyncio.to_thread(found.gzipped, name, file)
        return PackResponse(found, address, _from_memory(zipped), len(zipped), media,
                            {**headers, "Content-Encoding": "gzip"})
    return PackResponse(found, address, _from_disk(file), file.size, media, headers)
