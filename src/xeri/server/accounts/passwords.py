"""Passwords: argon2id hashes (argon2-cffi), checked off the event loop, and the same work for an unknown name.

Each hash is 64 MiB and some 50 ms of a core's time: a sign-in flood hashed in asyncio's default pool (up to
six threads a process) took the cores from the tables (a move's p99 at 186-545 ms, issue 42). So hashes run in
a pool of their own, ``WORKERS`` threads (half the cores), with at most ``QUEUE`` waiting beside them; one more
is refused at once, ``rate_limited`` with ``retry_after`` (HTTP 429, ``Retry-After``), and nothing changes. libargon2
runs a hash's four lanes in four threads of its own, started by the pool's thread: on Linux the pool's threads are
held to half the cores (``os.sched_setaffinity``, which those threads inherit), so the other half stays the tables'.

Signing in with a name no account has still verifies a password, against a dummy hash made at start with the same
parameters, so the answer takes as long as for a real name with a wrong password (argon2's own comparison is in
constant time). docs/security.md lists the promise and its test.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import secrets
import threading
from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..limits.caps import LimitExceeded
from ..wire.protocol import PASSWORD_LENGTH
from ..wire.refusals import ProtocolError

#: argon2id's parameters: RFC 9106's second recommended option (64 MiB, 3 passes, 4 lanes)
TIME_COST, MEMORY_KIB, LANES = 3, 64 * 1024, 4
#: hashes computed at once: half the cores, so the tables always keep the other half
WORKERS = max(1, (os.cpu_count() or 1) // 2)
#: hashes that may wait for a thread (a second or so of work); one more is refused
QUEUE = 16
#: what a refused hash tells the client to wait, in seconds
RETRY_AFTER = 1

T = TypeVar("T")


def hashing_cores(workers: int) -> set[int] | None:
    """The cores the hashing threads may use: the last ``workers`` of this process's, keeping at least one for the
    rest; None where the system cannot say (then they run anywhere)."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    cores = sorted(os.sched_getaffinity(0))
    return set(cores[-workers:]) if len(cores) > 1 else None


def _hold_to(cores: set[int] | None) -> None:
    """The pool thread's initializer: pin this thread (and libargon2's, which it starts) to ``cores``."""
    if cores is not None:
        os.sched_setaffinity(0, cores)  # on Linux, 0 is the calling thread


def busy() -> LimitExceeded:
    """The refusal of a hash beyond the queue: HTTP 429 with Retry-After (server.api.guard), nothing changed."""
    return LimitExceeded("rate_limited", "the server is checking too many passwords at once: try again in a second",
                         retry_after=RETRY_AFTER)


class Passwords:
    """Hash and verify passwords with argon2id; ``memory_kib`` and ``time_cost`` lower only for tests."""

    def __init__(self, time_cost: int = TIME_COST, memory_kib: int = MEMORY_KIB, lanes: int = LANES,
                 workers: int = WORKERS, queue: int = QUEUE) -> None:
        if workers < 1 or queue < 0:
            raise ValueError("password hashing needs at least one thread and a queue of zero or more")
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=lanes, type=Type.ID)
        #: what an unknown name's password is checked against (no password matches it)
        self.dummy = self.hasher.hash(secrets.token_urlsafe(24))
        self.workers, self.queue = workers, queue
        cores = hashing_cores(min(workers, max(1, (os.cpu_count() or 1) // 2)))
        self._pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="xeri-argon2",
                                                           initializer=_hold_to, initargs=(cores,))
        self._lock = threading.Lock()
        #: hashes running or waiting: counted down by the thread that ends one (a cancelled wait still runs it)
        self.in_flight = 0

    def check_room(self) -> None:
        """Refuse now (``busy``) if the queue is full: before the sign-in counts, so a refusal costs no attempt."""
        if self.in_flight >= self.workers + self.queue:
            raise busy()

    async def _run(self, work: Callable[..., T], *args: object) -> T:
        with self._lock:
            if self.in_flight >= self.workers + self.queue:
                raise busy()
            self.in_flight += 1
        try:
            job = self._pool.submit(work, *args)
        except BaseException:
            self._done(None)
            raise
        job.add_done_callback(self._done)
        return await asyncio.wrap_future(job)

    def _done(self, _job: object) -> None:
        with self._lock:
            self.in_flight -= 1

    @staticmethod
    def check_new(password: str, name: str) -> str:
        """A new password, or ``bad_password``: 10..256 characters, not the name, not one character repeated."""
        lo, hi = PASSWORD_LENGTH
        if not lo <= len(password) <= hi:
            raise ProtocolError("bad_password", f"a password has {lo} to {hi} characters")
        if password.casefold() == name.casefold() or len(set(password)) < 4:
            raise ProtocolError("bad_password", "choose a password that is not the name and not so repetitive")
        return password

    async def hash(self, password: str) -> str:
        return await self._run(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` hashes; None (no such account) costs the same and fails."""
        return await self._run(self._verify, stored, password)

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            ok = self.hasher.verify(stored or self.dummy, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return ok and stored is not None
