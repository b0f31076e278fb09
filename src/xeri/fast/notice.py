"""A word to the user while numba compiles the kernels the first time (later runs load numba's cache).

``compiling(kernel, ...)`` is a context manager: when a kernel has no cache
entry yet, it prints one line to stderr and, on a terminal, shows a spinner
until the block ends. With every kernel cached it does nothing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

NOTICE = "xeri.fast: compiling the simulator's kernels (once; later runs load them from numba's cache)"


def is_cached(kernel: Any) -> bool:
    """Whether numba has this kernel compiled in this process or in its on-disk cache."""
    if getattr(kernel, "signatures", None):
        return True
    try:
        return Path(kernel._cache._cache_file._index_path).exists()
    except AttributeError:  # another numba version's internals: assume it must compile
        return False


@contextmanager
def compiling(*kernels: Any) -> Iterator[None]:
    if all(is_cached(k) for k in kernels):
        yield
        return
    start = time.perf_counter()
    print(NOTICE, file=sys.stderr, flush=True)
    if not sys.stderr.isatty():
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status("compiling ...", spinner="dots"):
        yield
    print(f"xeri.fast: compiled in {time.perf_counter() - start:.0f} s", file=sys.stderr)
