"""the pack inventory: grants of packs keyed by idempotency key, one row per pack, and
each opening persisted with its cards (docs/economy.md)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pack_grants",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("quantity", sa.Integer(), nullable=False),
        sa.Column("source_type", sa.String(30), nullable=False),
        sa.Column("source_id", sa.String(100), nullable=False),
        sa.Column("idempotency_key", sa.String(100), nullable=False),
        sa.Column("ledger_entry_id", sa.Uuid(), nullable=True),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("player_id", "idempotency_key", name="uq_pack_grants_key"),
    )
    op.create_table(
        "packs",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("grant_id", sa.Uuid(), sa.ForeignKey("pack_grants.id"), nullable=False),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_packs_player_game", "packs", ["player_id", "game"])
    op.create_table(
        "pack_openings",
        sa.Column("pack_id", sa.Uuid(), sa.ForeignKey("packs.id"), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("idempotency_key", sa.String(100), nullable=False),
        sa.Column("roll_id", sa.Uuid(), nullable=False),
        sa.Column("cards", postgresql.JSONB(), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("player_id", "idempotency_key", name="uq_pack_openings_key"),
    )


def downgrade() -> None:
    op.drop_table("pack_openings")
    op.drop_index("ix_packs_player_game", table_name="packs")
    op.drop_table("packs")
    op.drop_table("pack_grants")
