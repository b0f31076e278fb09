"""Pairing benchmark ("Play online", server.pairing): 2,000 simulated players join and leave the pools over 5
simulated minutes, on a virtual clock.

Each player arrives once at a random second, seeks a format (xeri-2 half the time, then xeri-4, pisti-2,
pisti-4), rated in half the xeri seeks, with a rating drawn around 1500. While waiting, a player may give up: 15% have a
patience of 0-8 s, and a third of those close the tab instead of cancelling (they stop asking: the service must
drop them after 15 s, not seat them; the pure pools know nothing of asking, so there they cancel). A paired
player plays a game of 60-180 s and then, half the time, seeks again. Two modes:

- ``pools``: the pure pools (server.pairing.pools), paired once a simulated second;
- ``service``: the whole service in-process (server.pairing.service), with every waiting player asking once a
  simulated second, as the page does, and a lobby that makes tables in memory;
- ``cluster_3`` (with ``--redis URL``): three services sharing their pools in Redis (server.pairing.shared),
  each request sent to any of them; the clock is still virtual, the Redis round trips real.

Reported per mode: the median and p95 wait of the paired, pairings a second (simulated), CPU per pairing (real,
this process), players in two games at once (must be 0), players lost (a seek that vanished without its player
cancelling or leaving: must be 0), and players seated after they left (must be 0). Written with the run's record
(benchmarks/run_meta.py) to ``benchmarks/results/pairing.json`` (``--json PATH``).

    python benchmarks/pairing.py                # both modes, seed 1
    python benchmarks/pairing.py --players 500 --seconds 120

    python benchmarks/pairing.py --redis redis://127.0.0.1:6379/0   # and three processes on one Redis
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xeri.server.pairing.pools import FORMATS, Pairing, Pools, Seeker
from xeri.server.pairing.service import DROP_AFTER, PairingService
from xeri.server.pairing.shared import SharedPairing
from xeri.server.table.commands import Join, Origin, Outcome
from xeri.server.wire.refusals import ProtocolError

RESULTS = Path(__file__).resolve().parent / "results"
WEIGHTS = {"xeri-2": 0.5, "xeri-4": 0.2, "pisti-2": 0.2, "pisti-4": 0.1}


@dataclass
class Player:
    who: str
    rating: float
    arrive: float
    format: str
    rated: bool
    #: seconds before giving up (cancel), or None; ``vanish``: stops asking instead of cancelling
    patience: float | None
    vanish: bool
    seek_id: str | None = None
    joined: float = 0.0
    busy_until: float = -1.0
    done: bool = False


@dataclass
class Tally:
    waits: list[float] = field(default_factory=list)
    pairings: int = 0
    cancelled: int = 0
    vanished: int = 0
    in_two_games: int = 0
    lost: int = 0
    seated_after_leaving: int = 0
    cpu: float = 0.0

    def report(self, seconds: float) -> dict[str, Any]:
        waits = sorted(self.waits)
        return {
            "pairings": self.pairings, "seated": len(waits), "cancelled": self.cancelled, "vanished": self.vanished,
            "wait_median_s": round(statistics.median(waits), 2) if waits else None,
            "wait_p95_s": round(waits[int(0.95 * (len(waits) - 1))], 2) if waits else None,
            "pairings_per_second": round(self.pairings / seconds, 2),
            "cpu_per_pairing_ms": round(1000 * self.cpu / max(1, self.pairings), 3),
            "players_in_two_games": self.in_two_games, "players_lost": self.lost,
            "seated_after_leaving": self.seated_after_leaving,
        }


def players(n: int, seconds: float, rng: random.Random) -> list[Player]:
    out = []
    for i in range(n):
        fmt = rng.choices(list(WEIGHTS), list(WEIGHTS.values()))[0]
        rated = FORMATS[fmt].ratable and rng.random() < 0.5
        leaves = rng.random()
        out.append(Player(who=f"p{i}", rating=rng.gauss(1500, 250), arrive=rng.uniform(0, seconds * 0.9),
                          format=fmt, rated=rated, patience=rng.uniform(0, 8) if leaves < 0.15 else None,
                          vanish=leaves < 0.05))
    return out


def _seated(tally: Tally, by_who: dict[str, Player], whos: list[str], now: float, rng: random.Random) -> None:
    tally.pairings += 1
    for who in whos:
        p = by_who[who]
        if p.busy_until > now:
            tally.in_two_games += 1
        if p.done or p.seek_id is None:
            tally.seated_after_leaving += 1
        tally.waits.append(now - p.joined)
        p.seek_id = None
        p.busy_until = now + rng.uniform(60, 180)
        p.arrive = p.busy_until if rng.random() < 0.5 else float("inf")  # half play again


def run_pools(n: int, seconds: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    people = players(n, seconds, rng)
    by_who = {p.who: p for p in people}
    pools, tally, ids = Pools(), Tally(), 0
    for now in range(seconds):
        start = time.process_time()
        for p in people:
            if p.seek_id is None and not p.done and p.arrive <= now:
                ids += 1
                p.seek_id, p.joined = f"s{ids}", float(now)
                pools.add(Seeker(id=p.seek_id, who=p.who, name=p.who, format=p.format, rated=p.rated,
                                 joined_at=float(now), rating=p.rating if p.rated else None))
            elif p.seek_id is not None and p.patience is not None and now - p.joined >= p.patience:
                pools.remove(p.seek_id)
                p.seek_id, p.done = None, True
                tally.cancelled += 1
        made = pools.pair(float(now))
        tally.cpu += time.process_time() - start
        for pairing in made:
            _seated(tally, by_who, [s.who for s in pairing.seekers], float(now), rng)
    return tally.report(seconds)


class _Table:
    def __init__(self, tid: str, players: int) -> None:
        self.id, self.free = tid, list(range(1, players))

    async def handle(self, command: Join, origin: Origin) -> Outcome:
        assert command.seat in self.free
        self.free.remove(command.seat)
        return Outcome(seat=command.seat, token=f"{self.id}:{command.seat}")


class _Lobby:
    """Tables in memory: the service's lobby, without a database."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self.made: list[_Table] = []

    async def create(self, body: Any, address: str | None = None,
                     account: tuple[str, str] | None = None) -> tuple[Any, int | None, str | None]:
        table = _Table(f"{self.name}t{len(self.made)}", body["players"])
        self.made.append(table)
        return table, 0, f"{table.id}:0"


async def _run_service(n: int, seconds: int, seed: int, redis: str | None = None,
                       processes: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    people = players(n, seconds, rng)
    by_who = {p.who: p for p in people}
    clock = [0.0]
    lobby = _Lobby()
    service = PairingService(lobby, clock=lambda: clock[0])
    # A cluster: ``processes`` services on one Redis, each request to any of them (as a balancer spreads them).
    lobbies = [_Lobby(f"n{i}-") for i in range(processes)]
    database = f"bench-{seed}-{time.time()}"  # one cluster: one key prefix, apart from any earlier run
    shared = [SharedPairing(redis, lb, database, clock=lambda: clock[0]) for lb in lobbies] if redis else []
    tables: dict[str, list[str]] = {}
    tally = Tally()
    last_ask: dict[str, float] = {}
    within_grace = 0
    pair = service.pools.pair

    def watched(now: float) -> list[Pairing]:
        """The pools' pairings, checked as they are made: nobody busy, nobody silent past the drop."""
        nonlocal within_grace
        made = pair(now)
        for pairing in made:
            for s in pairing.seekers:
                p = by_who[s.who]
                if p.busy_until > now:
                    tally.in_two_games += 1
                if p.done:
                    if now - last_ask[p.who] > DROP_AFTER:
                        tally.seated_after_leaving += 1
                    else:
                        within_grace += 1  # stopped asking less than DROP_AFTER ago: not known to have left
        return made

    service.pools.pair = watched  # type: ignore[method-assign]
    pick: Any = (lambda: rng.choice(shared)) if shared else (lambda: service)
    for now in range(seconds):
        clock[0] = float(now)
        start = time.process_time()
        for p in people:
            if p.seek_id is None and not p.done and p.arrive <= now:
                p.joined = last_ask[p.who] = float(now)
                p.seek_id = await pick().seek(p.format, p.rated, p.who, p.who,
                                               rating=p.rating if p.rated else None)
                continue
            if p.seek_id is None or p.done:
                continue
            if p.patience is not None and now - p.joined >= p.patience:
                p.done = True
                if p.vanish:  # stops asking: the service must drop them
                    tally.vanished += 1
                    continue
                if await pick().cancel(p.seek_id):
                    tally.cancelled += 1
                    p.seek_id = None
                    continue
            try:
                state = await pick().poll(p.seek_id)
                last_ask[p.who] = float(now)
            except ProtocolError:
                tally.lost += 1
                p.seek_id, p.done = None, True
                continue
            if state["status"] == "paired":
                if p.busy_until > now:
                    tally.in_two_games += 1
                tables.setdefault(state["table_id"], []).append(p.who)
                p.done = False
                tally.waits.append(now - p.joined)
                p.seek_id = None
                p.busy_until = now + rng.uniform(60, 180)
                p.arrive = p.busy_until if rng.random() < 0.5 else float("inf")
        tally.cpu += time.process_time() - start
    if shared:
        tally.pairings = sum(sv.pairings for sv in shared)
        assert tally.pairings == sum(len(lb.made) for lb in lobbies), "one table per pairing"
        for sv in shared:
            await sv.close()
    else:
        tally.pairings = service.pairings
        assert service.pairings == len(lobby.made), "one table per pairing"
    # Each table's seats went to different players (a vanished player's seat is not fetched, so <=).
    tally.in_two_games += sum(len(w) - len(set(w)) for w in tables.values())
    out = tally.report(seconds)
    out["seated_within_grace"] = within_grace
    if shared:  # the pairings are made inside Redis's claims, out of this check's sight
        out["seated_after_leaving"] = out["seated_within_grace"] = None
    return out


def run_service(n: int, seconds: int, seed: int) -> dict[str, Any]:
    return asyncio.run(_run_service(n, seconds, seed))


def run_cluster(redis: str) -> Any:
    """The service of three processes sharing their pools in Redis (server.pairing.shared)."""
    return lambda n, seconds, seed: asyncio.run(_run_service(n, seconds, seed, redis, 3))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seconds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=RESULTS / "pairing.json")
    parser.add_argument("--redis", help="a Redis URL: also run three processes sharing the pools there")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import run_meta

    out: dict[str, Any] = {**run_meta.run_meta(args.seed), "machine_cpus": os.cpu_count(),
                           "players": args.players, "seconds": args.seconds, "modes": {}}
    modes: list[tuple[str, Any]] = [("pools", run_pools), ("service", run_service)]
    if args.redis:
        modes.append(("cluster_3", run_cluster(args.redis)))
    for mode, run in modes:
        out["modes"][mode] = result = run(args.players, args.seconds, args.seed)
        print(mode, json.dumps(result))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=1) + "\n")
    print("wrote", args.json)
    bad = [m for m, r in out["modes"].items()
           if r["players_in_two_games"] or r["players_lost"] or r["seated_after_leaving"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
