"""The server's fairness work for one table: round commitments, their reveals, the report and the record's part.

It lives in the core (``xeri.views.Commitments``), which the offline engine in the browser shares; its dicts are
the content of the protocol's ``reveal``, ROUND and fairness report, which server.table.views types as the
schema's models.
"""

from __future__ import annotations

from ...views import Commitments

__all__ = ["Commitments"]
