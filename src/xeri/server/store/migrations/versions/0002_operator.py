"""The operator's tables: barred addresses (xeri_bars) and the operator's actions and requests (xeri_actions).

``xeri admin bar`` writes the first, which every process reads; every ``xeri admin`` change is noted in the
second, where a ``close`` waits for the table's owner to carry it out (server.ops.operator_store, server.ops.admin).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "xeri_bars",
        sa.Column("network", sa.String(64), primary_key=True),
        sa.Column("until", sa.Float),
        sa.Column("reason", sa.Text),
        sa.Column("actor", sa.String(100), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "xeri_actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("detail", sa.Text),
        sa.Column("actor", sa.String(100), nullable=False),
        sa.Column("done_at", sa.Float),
        sa.Column("done_by", sa.String(40)),
    )
    op.create_index("ix_xeri_actions_done_at", "xeri_actions", ["done_at"])


def downgrade() -> None:
    op.drop_index("ix_xeri_actions_done_at", table_name="xeri_actions")
    op.drop_table("xeri_actions")
    op.drop_table("xeri_bars")
