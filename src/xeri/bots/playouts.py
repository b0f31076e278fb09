"""Playouts that packages above the bots offer by name: ``rollout=compiled`` comes from ``xeri.fast`` this way.

The search bots must not import ``xeri.fast`` (it imports them: the layers point
one way, see docs/architecture.md). So ``xeri.fast`` declares its playout as an
entry point in the ``xeri.playouts`` group (pyproject.toml), and a search looks
it up by name when a spec asks for it.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from ..errors import XeriError

#: the entry-point group of playouts: ``name = "module:function"``; ``compiled`` is shaped like ``ismcts.playout``,
#: ``compiled-expert`` like ``xeri.fast.rollout_values.card_values`` (the master's ``early=rollout``),
#: ``compiled-expert-worlds`` like ``xeri.fast.rollout_values.WorldValues`` (the same, its worlds dealt compiled)
GROUP = "xeri.playouts"

#: the extra that installs each playout's dependencies, for the error message
EXTRA = {"compiled": "fast", "compiled-expert": "fast", "compiled-expert-worlds": "fast"}

_LOADED: dict[str, Callable[..., Any]] = {}


def offered_playout(name: str) -> Callable[..., Any]:
    """The playout offered as ``name``; a ValueError (a bot spec error) when it cannot be loaded."""
    got = _LOADED.get(name)
    if got is not None:
        return got
    extra = EXTRA.get(name, "fast")
    found = entry_points(group=GROUP, name=name)
    if not found:
        raise ValueError(f"rollout={name} is not installed: pip install 'xeri[{extra}]'")
    try:
        _LOADED[name] = next(iter(found)).load()
    except (ImportError, XeriError):  # xeri.fast says XeriError when numba is missing
        raise ValueError(f"rollout={name} needs the {extra} extra: pip install 'xeri[{extra}]'") from None
    return _LOADED[name]
