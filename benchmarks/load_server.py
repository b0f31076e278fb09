"""Load benchmark of ``xeri serve``: N concurrent tables, each played by two bot clients over WebSocket.

It starts ``xeri serve`` as a separate process on a free loopback port (SQLite
in a temporary folder), creates N two-player tables, connects two clients per
table, and lets every client play a random legal card as soon as it is its
turn (after an optional think time). A move's latency is the time from sending
it to receiving the ``update`` that carries it. Prints moves/s and the
p50/p90/p99/max latency as JSON.

    python benchmarks/load_server.py --tables 200 --seconds 30 [--think 0.0]

The clients run in this process, on the same machine as the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.recording = False


async def client(url: str, rng: random.Random, stats: Stats, think: float, stop: asyncio.Event) -> None:
    async with connect(url, max_size=None, ping_interval=None) as ws:
        pending: tuple[int, float] | None = None
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                pending = None
                continue
            if kind not in ("sync", "update"):
                continue
            version, view = msg["version"], msg["view"]
            if pending is not None and version >= pending[0]:
                if stats.recording:
                    stats.latencies.append(time.perf_counter() - pending[1])
                    stats.moves += 1
                pending = None
            if view is None or view["match_over"] or view["turn"] != view["seat"] or pending is not None:
                continue
            if think:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            card = rng.choice(view["legal_moves"])
            pending = (version + 1, time.perf_counter())
            await ws.send(json.dumps({"type": "move", "card": card, "version": version}))


async def run(base: str, tables: int, seconds: float, warmup: float, think: float, seed: int) -> dict[str, Any]:
    ws_base = base.replace("http://", "ws://")
    rng = random.Random(seed)
    urls: list[str] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for i in range(tables):
            made = (await http.post("/api/tables", json={"name": f"a{i}", "options": {"rounds": 99},
                                                         "takeover_after": None})).json()
            joined = (await http.post(f"/api/tables/{made['table_id']}/join", json={"name": f"b{i}"})).json()
            urls += [f"{ws_base}/ws/tables/{made['table_id']}?token={made['token']}",
                     f"{ws_base}/ws/tables/{made['table_id']}?token={joined['token']}"]
    stats = Stats()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(client(u, random.Random(rng.random()), stats, think, stop)) for u in urls]
    await asyncio.sleep(warmup)
    stats.recording = True
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.recording = False
    elapsed = time.perf_counter() - started
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(stats.latencies)

    def q(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    return {
        "tables": tables, "connections": len(urls), "seconds": round(elapsed, 1), "think_s": think,
        "moves": stats.moves, "moves_per_s": round(stats.moves / elapsed, 1),
        "latency_ms": {"p50": q(0.50), "p90": q(0.90), "p99": q(0.99), "max": q(1.0),
                       "mean": round(1000 * statistics.fmean(lat), 2) if lat else None},
        "errors": stats.errors, "cpus": os.cpu_count(), "python": sys.version.split()[0],
    }


def _run(coro: Any) -> Any:
    """Run the clients on uvloop when it is installed (as the server does): less CPU taken from the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30.0, help="measured duration")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--think", type=float, default=0.0, help="mean think time of a client before moving (s)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--url", help="measure a running server instead of starting one")
    ap.add_argument("--db", help="the started server's database (default: SQLite in a temporary folder)")
    args = ap.parse_args()
    if args.url:
        print(json.dumps(_run(run(args.url, args.tables, args.seconds, args.warmup, args.think, args.seed))))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "xeri", "serve", "--port", str(port), "--db",
                                 args.db or os.path.join(tmp, "load.sqlite3"), "--bot-delay", "0", "--rate", "100000",
                                 "--http-rate", "100000", "--log-level", "error"])
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.05)
            out = _run(run(base, args.tables, args.seconds, args.warmup, args.think, args.seed))
            print(json.dumps(out))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
