"""Accounts: the accounts (xeri_accounts), their sessions (xeri_sessions), and which account holds a seat.

Optional accounts (server.accounts.service, docs/accounts.md): a guest plays as before. The seats and results tables
stay as they were; ``xeri_seat_accounts`` binds a seat (and so its result) to an account. The revision only adds tables,
so a process of the older code goes on working beside it.

Revision ID: 0003_accounts
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_accounts"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "xeri_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False),
        sa.Column("password_hash", sa.String(255)),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False),
    )
    op.create_index("ux_xeri_accounts_name_key", "xeri_accounts", ["name_key"], unique=True)
    op.create_table(
        "xeri_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_xeri_sessions_account_id", "xeri_sessions", ["account_id"])
    op.create_index("ix_xeri_sessions_expires_at", "xeri_sessions", ["expires_at"])
    op.create_table(
        "xeri_seat_accounts",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("bound_at", sa.Float, nullable=False),
        sa.Column("claimed", sa.Boolean, nullable=False),
    )
    op.create_index("ix_xeri_seat_accounts_account_id", "xeri_seat_accounts", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_xeri_seat_accounts_account_id", table_name="xeri_seat_accounts")
    op.drop_table("xeri_seat_accounts")
    op.drop_index("ix_xeri_sessions_expires_at", table_name="xeri_sessions")
    op.drop_index("ix_xeri_sessions_account_id", table_name="xeri_sessions")
    op.drop_table("xeri_sessions")
    op.drop_index("ux_xeri_accounts_name_key", table_name="xeri_accounts")
    op.drop_table("xeri_accounts")
