"""Several ``xeri serve`` processes on one PostgreSQL and one Redis (docs/scaling.md).

``node`` is this process's part (the lease loop, adoptions, handovers, the owner's side of a request),
``rpc`` the typed messages between processes and the asking side, ``remote`` a table another process owns
(``RemoteTable``, ``Replica``), ``ownership`` the leases.
"""

from __future__ import annotations

from .node import HANDOVER_HOLD_LEASES, Cluster, ClusterRefused, make_cluster, refuse_mixed_modes
from .ownership import LEASE_SECONDS, Ownership
from .remote import RemoteTable, Replica
from .rpc import RPC_TIMEOUT, NotOwner, retry_later

__all__ = ["HANDOVER_HOLD_LEASES", "LEASE_SECONDS", "RPC_TIMEOUT", "Cluster", "ClusterRefused", "NotOwner",
           "Ownership", "RemoteTable", "Replica", "make_cluster", "refuse_mixed_modes", "retry_later"]
