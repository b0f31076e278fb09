"""Load benchmark of ``xeri serve``: N concurrent tables, each played by two bot clients over WebSocket.

It starts ``xeri serve`` as a separate process on a free loopback port (SQLite
in a temporary folder), creates N two-player tables, connects two clients per
table, and lets every client play a random legal card as soon as it is its
turn (after an optional think time). A move's latency is the time from sending
it to receiving the ``update`` that carries it. Prints moves/s and the
p50/p90/p99/max latency as JSON.

    python benchmarks/load_server.py --tables 200 --seconds 30 [--think 0.0]

With ``--processes 1,2,3 --pg URL --redis URL`` it measures a cluster
(docs/scaling.md) instead: for each count, a fresh PostgreSQL database, that
many ``xeri serve`` processes on it and Redis, and HAProxy in front with
deploy/haproxy.cfg (unused server slots point at a closed port, so HAProxy
marks them down); tables are created and played through HAProxy, so they
spread over the processes. Each result carries its ratio to one process
(``--tables 200,500`` measures each size in turn), the load average, and the
processor time each part took per move in the measured window (the servers,
PostgreSQL's backends, Redis, HAProxy and these clients): what a bigger
machine needs per move, whatever else the machine was doing. ``--json PATH``
writes every result with the command.

The clients run in this process, on the same machine as the server; a client
whose connection closes reconnects as the browser does (and a close in the
measured window counts as an error).
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
from collections.abc import Callable
from typing import Any

import httpx
from websockets.asyncio.client import connect

#: Every table here comes from one address and runs 99 rounds: lift the per-address caps (docs/security.md).
LIFTED = ["--waiting-per-address", "100000", "--playing-per-address", "100000", "--ws-per-address", "100000",
          "--ws-per-seat", "1000", "--max-rounds", "99", "--ws-opens", "100000", "--connection-rate", "100000"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        #: errors (and closed connections) in the measured window, and before it (connecting, warming up)
        self.errors: dict[str, int] = {}
        self.warmup_errors: dict[str, int] = {}
        self.recording = False

    def error(self, code: str) -> None:
        counts = self.errors if self.recording else self.warmup_errors
        counts[code] = counts.get(code, 0) + 1


async def client(url: str, rng: random.Random, stats: Stats, think: float, stop: asyncio.Event) -> None:
    """Play a seat; reconnect after a close as the browser does (after a short pause)."""
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    while not stop.is_set():
        try:
            await play(url, rng, stats, think, stop)
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
            stats.error("closed")
            await asyncio.sleep(rng.uniform(0.2, 0.5))  # the browser's reconnect pause


async def play(url: str, rng: random.Random, stats: Stats, think: float, stop: asyncio.Event) -> None:
    async with connect(url, max_size=None, ping_interval=None, open_timeout=30) as ws:
        pending: tuple[int, float] | None = None
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "error":
                stats.error(msg["code"])
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


async def run(base: str, tables: int, seconds: float, warmup: float, think: float, seed: int,
              meter: Meter | None = None) -> dict[str, Any]:
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
    started, load = time.perf_counter(), os.getloadavg()
    before = await asyncio.to_thread(meter.read) if meter is not None else {}
    await asyncio.sleep(seconds)
    stats.recording = False
    elapsed = time.perf_counter() - started
    after = await asyncio.to_thread(meter.read) if meter is not None else {}
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
        "errors": stats.errors, "warmup_errors": stats.warmup_errors,
        "load_average": [round(x, 2) for x in load], "nice": os.nice(0),
        **cpu_per_move(before, after, stats.moves),
        "cpus": os.cpu_count(), "python": sys.version.split()[0],
    }


class Meter:
    """Processor seconds used so far by each part of the system under test (Linux /proc, Redis INFO)."""

    def __init__(self, servers: list[int], haproxy: int | None = None, pg: str | None = None,
                 redis_url: str | None = None) -> None:
        self.servers, self.haproxy, self.pg, self.redis_url = servers, haproxy, pg, redis_url

    def read(self) -> dict[str, float]:
        out = {"servers": sum(_cpu(pid) for pid in self.servers), "clients": time.process_time()}
        if self.haproxy is not None:
            out["haproxy"] = _cpu(self.haproxy)
        if self.pg is not None:
            out["postgres"] = sum(_cpu(pid) for pid in _pg_backends(self.pg))
        if self.redis_url is not None:
            import redis

            info = redis.Redis.from_url(self.redis_url).info("cpu")
            out["redis"] = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        return out


def _cpu(pid: int) -> float:
    """A process's user + system seconds so far (0 if it is gone or this is not Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _pg_backends(url: str) -> list[int]:
    """The PostgreSQL backends serving ``url``'s database (the servers' connections)."""
    import asyncpg

    async def pids() -> list[int]:
        conn = await asyncpg.connect(url.replace("postgresql://", "postgres://", 1))
        try:
            rows = await conn.fetch("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                                    "AND pid <> pg_backend_pid()")
            return [int(r["pid"]) for r in rows]
        finally:
            await conn.close()

    return asyncio.run(pids())


def cpu_per_move(before: dict[str, float], after: dict[str, float], moves: int) -> dict[str, Any]:
    """Processor seconds each part took in the window, and milliseconds per move."""
    if not before or not moves:
        return {}
    used = {k: round(after[k] - before[k], 2) for k in before}
    return {"cpu_s": used, "cpu_ms_per_move": {k: round(1000 * v / moves, 3) for k, v in used.items()}
            | {"total": round(1000 * sum(used.values()) / moves, 3)}}


def _run(coro: Any) -> Any:
    """Run the clients on uvloop when it is installed (as the server does): less CPU taken from the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def _wait_ok(url: str, proc: subprocess.Popen[bytes] | None = None, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or (proc is not None and proc.poll() is not None):
            raise SystemExit(f"{url} did not answer")
        time.sleep(0.1)  # poll interval


def _database(pg: str, name: str) -> str:
    import asyncpg

    async def make() -> None:
        conn = await asyncpg.connect(pg.replace("postgresql://", "postgres://", 1))
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(make())
    return pg.rsplit("/", 1)[0] + "/" + name


def failover(base: str, owner: str, kill: Callable[[], None], timeout: float = 60.0) -> float:
    """Seconds from ``kill -9`` of a table's owner to the first move accepted again, played through HAProxy.

    The table (a player against a bot) is created on ``owner``; the player connects through the balancer and
    reconnects as the browser does when its connection drops.
    """
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect as sync_connect

    made = httpx.post(f"{owner}/api/tables", json={"name": "f", "options": {"rounds": 9},
                                                   "seats": [None, {"bot": "easy"}]}, timeout=60).json()
    url = base.replace("http://", "ws://") + f"/ws/tables/{made['table_id']}?token={made['token']}"
    state: dict[str, Any] = {"ws": None, "version": -1, "view": None, "seen": []}

    def recv(wait: float) -> dict[str, Any] | None:
        while state["ws"] is None:
            try:
                state["ws"] = sync_connect(url, open_timeout=5).__enter__()
            except (OSError, ConnectionClosed, TimeoutError):
                time.sleep(0.1)  # the browser's reconnect pause, shortened
        try:
            msg: dict[str, Any] = json.loads(state["ws"].recv(timeout=wait))
        except ConnectionClosed:
            state["ws"] = None
            state["seen"].append("closed")
            return None
        except TimeoutError:
            return {"type": "quiet"}
        if msg["type"] in ("sync", "update"):
            state["version"], state["view"] = msg["version"], msg["view"]
        state["seen"].append(msg["type"] if msg["type"] != "error" else f"error {msg.get('code')}")
        return msg

    def move_accepted(deadline: float) -> float:
        while time.monotonic() < deadline:
            view = state["view"]
            if view is None or view["turn"] != view["seat"]:
                recv(1.0)
                continue
            before = state["version"]
            try:
                state["ws"].send(json.dumps({"type": "move", "card": view["legal_moves"][0], "version": before}))
            except (ConnectionClosed, AttributeError):
                state["ws"] = None
            while state["version"] == before and time.monotonic() < deadline:
                msg = recv(1.0)
                if msg is None or msg["type"] == "error":
                    if msg is not None:
                        time.sleep(0.1)  # a retryable refusal: ask again shortly
                    break
            if state["version"] > before:
                return time.monotonic()
        view = state["view"] or {}
        raise SystemExit(f"no move was accepted after the kill (at version {state['version']}, turn "
                         f"{view.get('turn')}, seat {view.get('seat')}, last messages {state['seen'][-3:]})")

    recv(5.0)
    move_accepted(time.monotonic() + timeout)
    killed = time.monotonic()
    kill()
    return round(move_accepted(killed + timeout) - killed, 2)


def cluster_run(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The same load through HAProxy on 1, 2, 3 ... processes sharing PostgreSQL and Redis."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    results: list[dict[str, Any]] = []
    for tables, n in [(int(t), int(x)) for t in str(args.tables).split(",") for x in args.processes.split(",")]:
        db = _database(args.pg, f"xeri_load_{os.getpid()}_{n}_{int(time.time())}")
        ports = [free_port() for _ in range(n)]
        procs = [subprocess.Popen([sys.executable, "-m", "xeri", "serve", "--port", str(port), "--db", db,
                                   "--redis", args.redis, "--bot-delay", "0", "--rate", "100000",
                                   "--http-rate", "100000", "--log-level", "error", *LIFTED]) for port in ports]
        listen = free_port()
        closed = free_port()  # nothing listens here: HAProxy marks the slot down
        env = {**os.environ, "XERI_LISTEN": f"127.0.0.1:{listen}",
               **{f"XERI_NODE_{i + 1}": f"127.0.0.1:{ports[i] if i < n else closed}" for i in range(3)}}
        haproxy = subprocess.Popen(["haproxy", "-f", os.path.join(root, "deploy", "haproxy.cfg"), "-db"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for port, proc in zip(ports, procs, strict=True):
                _wait_ok(f"http://127.0.0.1:{port}/readyz", proc)
            base = f"http://127.0.0.1:{listen}"
            _wait_ok(f"{base}/readyz")
            # Let HAProxy's checks mark the unused slots down before the load starts.
            while len({httpx.get(f"{base}/readyz", timeout=5).json().get("node") for _ in range(3 * n)}) < n:
                time.sleep(0.1)  # poll interval
            meter = Meter([p.pid for p in procs], haproxy.pid, db, args.redis)
            out = _run(run(base, tables, args.seconds, args.warmup, args.think, args.seed, meter))
            out["processes"] = n
            if n > 1:
                try:
                    out["failover_s"] = failover(base, f"http://127.0.0.1:{ports[0]}", procs[0].kill)
                except (httpx.HTTPError, SystemExit) as exc:
                    out["failover_error"] = f"{type(exc).__name__}: {exc}"
            results.append(out)
            one = next(r for r in results if r["tables"] == tables)
            out["ratio_to_1"] = {"moves_per_s": round(out["moves_per_s"] / max(one["moves_per_s"], 1e-9), 2),
                                 "p50": round(out["latency_ms"]["p50"] / one["latency_ms"]["p50"], 2),
                                 "p99": round(out["latency_ms"]["p99"] / one["latency_ms"]["p99"], 2)}
            print(json.dumps(out), flush=True)
        finally:
            haproxy.terminate()
            for proc in procs:
                proc.terminate()
            for proc in (haproxy, *procs):
                proc.wait(timeout=30)
    return results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default="200", help="tables (with --processes, a comma-separated list of sizes)")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured duration")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--think", type=float, default=0.0, help="mean think time of a client before moving (s)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--url", help="measure a running server instead of starting one")
    ap.add_argument("--db", help="the started server's database (default: SQLite in a temporary folder)")
    ap.add_argument("--processes", help="a cluster: comma-separated process counts, e.g. 1,2,3 (needs --pg, --redis)")
    ap.add_argument("--pg", help="PostgreSQL server URL for --processes (a fresh database is made per count)")
    ap.add_argument("--redis", help="Redis URL for --processes")
    ap.add_argument("--json", help="also write every result, with the command, to this file")
    args = ap.parse_args()
    if args.processes:
        if not (args.pg and args.redis):
            raise SystemExit("--processes needs --pg and --redis")
        results = cluster_run(args)  # prints each count's result as it is measured
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"command": " ".join(["python", *sys.argv]), "machine_cpus": os.cpu_count(),
                           "runs": results}, f, indent=1)
                f.write("\n")
        return 0
    args.tables = int(args.tables)
    if args.url:
        print(json.dumps(_run(run(args.url, args.tables, args.seconds, args.warmup, args.think, args.seed))))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "xeri", "serve", "--port", str(port), "--db",
                                 args.db or os.path.join(tmp, "load.sqlite3"), "--bot-delay", "0", "--rate", "100000",
                                 "--http-rate", "100000", "--log-level", "error", *LIFTED])
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
            out = _run(run(base, args.tables, args.seconds, args.warmup, args.think, args.seed, Meter([proc.pid])))
            print(json.dumps(out))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
