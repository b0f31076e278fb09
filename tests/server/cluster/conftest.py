"""Several ``xeri serve`` processes on one PostgreSQL and one Redis: each test's fresh database (the ``database``
fixture) and the helpers come from tests/support/cluster.py."""

from support.cluster import database  # noqa: F401
