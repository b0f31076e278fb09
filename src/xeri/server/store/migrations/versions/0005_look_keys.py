"""Accounts' look keys: the name's second key (server.accounts.names ``look_key``) as a unique column.

Sign-up compared a new name's look key with every live account's name, read whole: O(accounts), and two processes
could each find the name free and both store a look-alike. The key is now a column with a unique index, so the
database refuses the second. Existing live accounts are backfilled in the order they were made; where two of them
already share a look key (made before issue 42's skeleton), the first keeps it and the later one keeps its account,
its name and its sign-in, with the column NULL (docs/accounts.md). Deleted accounts have none. An older process
beside this revision still signs up as before (it leaves the column NULL).

Revision ID: 0005_look_keys
Revises: 0004_ratings
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_look_keys"
down_revision = "0004_ratings"
branch_labels = None
depends_on = None

_accounts = sa.table("xeri_accounts", sa.column("id", sa.String), sa.column("name", sa.String),
                     sa.column("deleted", sa.Boolean), sa.column("created_at", sa.Float),
                     sa.column("look_key", sa.String))


def upgrade() -> None:
    from xeri.server.store.name_keys import look_key

    op.add_column("xeri_accounts", sa.Column("look_key", sa.String(128)))
    conn = op.get_bind()
    a = _accounts.c
    live = conn.execute(sa.select(a.id, a.name).where(a.deleted.is_(False)).order_by(a.created_at, a.id)).all()
    taken: set[str] = set()
    for account_id, name in live:
        key = look_key(str(name))
        if key in taken:
            continue  # a look-alike of an earlier account, made before the check: kept, without the key
        taken.add(key)
        conn.execute(_accounts.update().where(a.id == account_id).values(look_key=key))
    op.create_index("ux_xeri_accounts_look_key", "xeri_accounts", ["look_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_xeri_accounts_look_key", table_name="xeri_accounts")
    op.drop_column("xeri_accounts", "look_key")
