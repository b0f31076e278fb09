"""Throwaway PostgreSQL and Redis on free loopback ports, for a benchmark's cluster runs, removed afterwards.

The same services scripts/test.sh starts for the suite (Debian's newest ``/usr/lib/postgresql/*/bin``, ``fsync=off``;
``redis-server`` without persistence), so that one command can measure three processes without the test script.
As root, the PostgreSQL cluster belongs to the ``postgres`` user, as ``initdb`` requires.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin() -> str:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4].split(".")[0]))
    if not found:
        raise SystemExit("no PostgreSQL here (/usr/lib/postgresql/*/bin/initdb): install postgresql, or pass --pg")
    return os.path.dirname(found[-1])


def _as_postgres(cmd: list[str]) -> list[str]:
    """``cmd`` as the postgres user when we are root (initdb refuses root), else as ourselves."""
    if os.geteuid() != 0:
        return cmd
    return ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(cmd)]


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A fresh PostgreSQL cluster; yields its admin URL (``postgresql://postgres@127.0.0.1:PORT/postgres``)."""
    pg_bin = _pg_bin()
    home = tempfile.mkdtemp(prefix="xeri-bench-pg.")
    if os.geteuid() == 0:
        shutil.chown(home, "postgres")
    data, port = os.path.join(home, "data"), free_port()
    ctl = os.path.join(pg_bin, "pg_ctl")
    try:
        subprocess.run(_as_postgres([os.path.join(pg_bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres"]),
                       check=True, stdout=subprocess.DEVNULL)
        options = f"-k {home} -p {port} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300"
        subprocess.run(_as_postgres([ctl, "-D", data, "-l", os.path.join(home, "log"), "-w", "start", "-o", options]),
                       check=True, stdout=subprocess.DEVNULL)
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres([ctl, "-D", data, "-m", "immediate", "stop"]), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        shutil.rmtree(home, ignore_errors=True)


@contextlib.contextmanager
def redis() -> Iterator[str]:
    """A ``redis-server`` without persistence; yields its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("no redis-server here: install redis-server, or pass --redis")
    home, port = tempfile.mkdtemp(prefix="xeri-bench-redis."), free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", home], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("redis-server did not start")
            time.sleep(0.05)  # polling a starting process
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(home, ignore_errors=True)
