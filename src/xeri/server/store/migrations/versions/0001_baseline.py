"""The baseline: the schema of xeri serve before migrations (tables, seats, moves, results, leases, processes).

Exactly what ``metadata.create_all`` made until then (tests/server/store/migrations/test_server_migrations.py
compares it, on SQLite and PostgreSQL, with databases made by that code:
tests/server/store/migrations/data/schema_main). A database made then has no version table and counts as this revision.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "xeri_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("ruleset", sa.Text, nullable=False),
        sa.Column("turn_timer", sa.Float),
        sa.Column("takeover_after", sa.Float),
        sa.Column("takeover_level", sa.String(64), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("match_seed", sa.String(24), nullable=False),
        sa.Column("salt_key", sa.String(64), nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("names", sa.Text),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float),
        sa.Column("finished_at", sa.Float),
        sa.Column("result", sa.Text),
        sa.Column("record", sa.Text),
    )
    op.create_index("ix_xeri_tables_status", "xeri_tables", ["status"])
    op.create_index("ix_xeri_tables_finished_at", "xeri_tables", ["finished_at"])
    op.create_table(
        "xeri_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("human", sa.Boolean, nullable=False),
        sa.Column("bot_level", sa.String(64)),
        sa.Column("name", sa.String(64)),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("left", sa.Boolean, nullable=False),
    )
    op.create_table(
        "xeri_moves",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("card", sa.String(2), nullable=False),
        sa.Column("auto", sa.String(16)),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "xeri_results",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("human", sa.Boolean, nullable=False),
        sa.Column("side", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("xeris", sa.Integer, nullable=False),
        sa.Column("jack_xeris", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_index("ix_xeri_results_name", "xeri_results", ["name"])
    op.create_table(
        "xeri_leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(40), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_table(
        "xeri_nodes",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("until", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("xeri_nodes", "xeri_leases", "xeri_results", "xeri_moves", "xeri_seats", "xeri_tables"):
        op.drop_table(name)
