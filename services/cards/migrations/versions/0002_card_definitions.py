"""card definitions read model

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "card_definitions",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("lineage_id", sa.Uuid(), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("rarity", sa.String(20), nullable=False),
        sa.Column("affinity", sa.String(20), nullable=True),
        sa.Column("reward_eligible", sa.Boolean(), nullable=False),
        sa.Column("evolved", sa.Boolean(), nullable=False),
        sa.Column("starter", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("snapshot", postgresql.JSONB(), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_card_definitions_game_rarity", "card_definitions", ["game", "rarity"])


def downgrade() -> None:
    op.drop_table("card_definitions")
