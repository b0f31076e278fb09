"""``xeri serve``: the game server (needs the ``server`` extra). See docs/protocol.md."""

from .app import create_app

__all__ = ["create_app"]
