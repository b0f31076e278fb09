"""A table: its plain state and checks (``state``), its messages (``views``), its next automatic move
(``autoplay``), its fairness commitments (``commitments``), and the service that locks, stores and
publishes around them (``service``), which is the ``Table`` the lobby holds."""

from __future__ import annotations

from .service import Table, moved, unavailable
from .state import Applied, TableState

__all__ = ["Applied", "Table", "TableState", "moved", "unavailable"]
