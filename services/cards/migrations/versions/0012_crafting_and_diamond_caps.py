"""Chronovore's economy: shredding and crafting in Card Fragments, Diamond upgrades owed
after an overflow, and packs sold back (docs/economy.md, docs/chronovore.md)

Revision ID: 0012
Revises: 0010
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "crafting_entries",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("action", sa.String(8), nullable=False),
        sa.Column("owned_card_id", sa.Uuid(), nullable=False),
        sa.Column("definition_id", sa.Uuid(), sa.ForeignKey("card_definitions.id"), nullable=False),
        sa.Column("finish", sa.String(20), nullable=False),
        sa.Column("rarity", sa.String(20), nullable=False),
        sa.Column("fragments", sa.Integer(), nullable=False),
        sa.Column("weakened", sa.Boolean(), nullable=False),
        sa.Column("ledger_entry_id", sa.Uuid(), nullable=False),
        sa.Column("idempotency_key", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("player_id", "idempotency_key", name="uq_crafting_entries_key"),
        sa.CheckConstraint("action IN ('shred', 'craft')", name="ck_crafting_entries_action"),
    )
    op.create_index("ix_crafting_entries_player", "crafting_entries", ["player_id"])
    op.create_table(
        "finish_upgrades_owed",
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("finish", sa.String(20), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game", "finish"),
        sa.CheckConstraint("amount >= 0", name="ck_finish_upgrades_owed_never_negative"),
    )
    op.add_column("packs", sa.Column("sold_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("packs", sa.Column("sale_entry_id", sa.Uuid(), nullable=True))


def downgrade() -> None:
    op.drop_column("packs", "sale_entry_id")
    op.drop_column("packs", "sold_at")
    op.drop_table("finish_upgrades_owed")
    op.drop_index("ix_crafting_entries_player", table_name="crafting_entries")
    op.drop_table("crafting_entries")
