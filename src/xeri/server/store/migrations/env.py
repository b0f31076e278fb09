"""Alembic's environment for xeri's schema: the migrations run on the connection xeri hands them.

``server.store.migrations`` runs Alembic's commands (``xeri db upgrade``, ``xeri serve --auto-migrate``) with the
connection in ``config.attributes``, inside its own transaction (and, on PostgreSQL, its advisory lock).
"""

from alembic import context

from xeri.server.store.migrations import VERSION_TABLE, target_metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("xeri's migrations run through `xeri db upgrade` (xeri.server.store.migrations), "
                       "on its connection")
context.configure(connection=connection, target_metadata=target_metadata(), version_table=VERSION_TABLE,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
