"""Alembic operations shared by the services' first migrations.

A migration must not change when models change later, so these functions
spell the columns out rather than reading the current metadata.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql


def create_outbox_and_processed_messages() -> None:
    op.create_table(
        "outbox",
        sa.Column("seq", sa.BigInteger(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.Uuid(), nullable=False, unique=True),
        sa.Column("exchange", sa.String(200), nullable=False),
        sa.Column("routing_key", sa.String(200), nullable=False),
        sa.Column("payload", postgresql.JSONB(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default=sa.text("0")),
        sa.Column("last_error", sa.Text(), nullable=True),
    )
    op.create_index(
        "ix_outbox_unpublished",
        "outbox",
        ["seq"],
        postgresql_where=sa.text("published_at IS NULL"),
    )
    op.create_table(
        "processed_messages",
        sa.Column("consumer", sa.String(200), nullable=False),
        sa.Column("message_id", sa.Uuid(), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("consumer", "message_id", name="pk_processed_messages"),
    )


def drop_outbox_and_processed_messages() -> None:
    op.drop_table("processed_messages")
    op.drop_index("ix_outbox_unpublished", table_name="outbox")
    op.drop_table("outbox")


def create_purged_players() -> None:
    """The tombstones of shared/player_gate.py (cards' 0004 spelled the same table)."""
    op.create_table(
        "purged_players",
        sa.Column("player_digest", sa.String(64), primary_key=True),
        sa.Column("purged_at", sa.DateTime(timezone=True), nullable=False),
    )


def drop_purged_players() -> None:
    op.drop_table("purged_players")
