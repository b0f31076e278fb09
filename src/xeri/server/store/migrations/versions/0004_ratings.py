"""Ratings: which tables are rated (xeri_rated_tables), each account's rating per format, and its history.

Rated matches (xeri.ratings, docs/ratings.md): a table is rated when its row is in ``xeri_rated_tables``, whose
``rated_at`` marks that the finished match has moved the ratings (one transaction with the update).
``xeri_ratings`` holds each account's rating per format, ``xeri_rating_history`` its rating after each rated
match (the profile's chart). The revision only adds tables, so a process of the older code goes on working beside
it (its tables are casual).

Revision ID: 0004_ratings
Revises: 0003_accounts
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_ratings"
down_revision = "0003_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "xeri_rated_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rated_at", sa.Float),
    )
    op.create_index("ix_xeri_rated_tables_rated_at", "xeri_rated_tables", ["rated_at"])
    op.create_table(
        "xeri_ratings",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("format", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "xeri_rating_history",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_xeri_rating_history_account", "xeri_rating_history", ["account_id", "format", "at"])


def downgrade() -> None:
    op.drop_index("ix_xeri_rating_history_account", table_name="xeri_rating_history")
    op.drop_table("xeri_rating_history")
    op.drop_table("xeri_ratings")
    op.drop_index("ix_xeri_rated_tables_rated_at", table_name="xeri_rated_tables")
    op.drop_table("xeri_rated_tables")
