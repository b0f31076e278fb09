"""Run a function over many items on a Ray cluster: the ``--backend ray`` of ``xeri arena``.

With no address, a small local Ray instance is started once (a few CPUs, a
128 MB object store, no dashboard) and reused by later calls in the process;
``shutdown()`` stops it. Needs the ``ray`` extra.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..errors import XeriError

T = TypeVar("T")
R = TypeVar("R")

#: CPUs a local instance may use, at most
LOCAL_CPUS = 4
#: bytes of shared memory for a local instance's object store
LOCAL_OBJECT_STORE = 128 * 1024 * 1024


class RayBackendError(XeriError):
    """Ray is missing, or the cluster cannot be reached."""


def _ray() -> Any:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        raise RayBackendError("the ray backend needs the 'ray' extra: pip install 'xeri[ray]'") from None
    return ray


def connect(address: str | None = None, num_cpus: int | None = None) -> Any:
    """Join the cluster at ``address``, or start (once) a small local instance; returns the ``ray`` module."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    if address is not None:
        _check_reachable(address)
    try:
        if address is None:
            ray.init(
                num_cpus=num_cpus or min(os.cpu_count() or 1, LOCAL_CPUS),
                object_store_memory=LOCAL_OBJECT_STORE,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as exc:
        where = "a local Ray instance" if address is None else f"the Ray cluster at {address}"
        if _is_auth_error(ray, exc):
            raise RayBackendError(
                f"{where} refused the connection: authentication failed ({_first_line(exc)}). Give this client "
                f"the cluster's token with Ray's setting RAY_AUTH_TOKEN (or RAY_AUTH_TOKEN_PATH, with "
                f"RAY_AUTH_MODE=token); see Ray's token authentication guide"
            ) from None
        if not isinstance(exc, ConnectionError | ValueError | RuntimeError):
            raise
        raise RayBackendError(f"could not start or reach {where}: {_first_line(exc)}") from None
    return ray


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _is_auth_error(ray: Any, exc: BaseException) -> bool:
    """Ray's own AuthenticationError, or a refusal whose message says the token or authentication failed."""
    auth_error = getattr(getattr(ray, "exceptions", None), "AuthenticationError", None)
    if isinstance(auth_error, type) and isinstance(exc, auth_error):
        return True
    text = str(exc).lower()
    return any(word in text for word in ("unauthenticated", "authentication", "auth token", "permission denied"))


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a cluster address nothing listens on (Ray itself waits for minutes)."""
    if address in ("auto", "local"):
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        raise RayBackendError(f"a Ray address is HOST:PORT (or ray://HOST:PORT, or auto), not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise RayBackendError(f"nothing answers at the Ray address {address}: {exc}") from None


def ray_map(fn: Callable[[T], R], items: Sequence[T], address: str | None = None) -> list[R]:
    """``[fn(x) for x in items]``, one Ray task per item, results in the order of ``items``.

    ``fn`` must be a picklable top-level function; it runs on the cluster's workers.
    """
    items = list(items)
    if not items:
        return []
    ray = connect(address)
    task = ray.remote(num_cpus=1, max_retries=0)(_apply)
    fn_ref = ray.put(fn)  # shipped once, not with every item
    return list(ray.get([task.remote(fn_ref, x) for x in items]))


def _apply(fn: Callable[[T], R], item: T) -> R:
    """The Ray task: any picklable callable (builtins too) applied to one item."""
    return fn(item)


def shutdown() -> None:
    """Stop the Ray instance this process started or joined (nothing if none)."""
    ray = _ray()
    if ray.is_initialized():
        ray.shutdown()
