"""owned copies, reward and starter grants, decks

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "owned_cards",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("definition_id", sa.Uuid(), sa.ForeignKey("card_definitions.id"), nullable=False),
        sa.Column("source_type", sa.String(16), nullable=False),
        sa.Column("source_id", sa.Uuid(), nullable=False),
        sa.Column("acquired_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "source_type IN ('reward', 'starter')", name="ck_owned_cards_source_type"
        ),
    )
    op.create_index("ix_owned_cards_player", "owned_cards", ["player_id"])
    op.create_index("ix_owned_cards_source", "owned_cards", ["source_type", "source_id"])
    op.create_table(
        "reward_grants",
        sa.Column("attempt_id", sa.Uuid(), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("event_id", sa.Uuid(), nullable=False),
        sa.Column("correct_count", sa.SmallInteger(), nullable=False),
        sa.Column("rarities", postgresql.JSONB(), nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_reward_grants_player", "reward_grants", ["player_id"])
    op.create_table(
        "starter_grants",
        sa.Column("player_id", sa.Uuid(), primary_key=True),
        sa.Column("affinity", sa.String(20), nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "decks",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_decks_player", "decks", ["player_id"])
    op.create_table(
        "deck_cards",
        sa.Column(
            "deck_id", sa.Uuid(), sa.ForeignKey("decks.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.SmallInteger(), nullable=False),
        sa.Column("owned_card_id", sa.Uuid(), sa.ForeignKey("owned_cards.id"), nullable=False),
        sa.PrimaryKeyConstraint("deck_id", "position"),
        sa.UniqueConstraint("deck_id", "owned_card_id", name="uq_deck_cards_copy_once"),
    )
    op.create_index("ix_deck_cards_owned_card", "deck_cards", ["owned_card_id"])


def downgrade() -> None:
    op.drop_table("deck_cards")
    op.drop_table("decks")
    op.drop_table("starter_grants")
    op.drop_table("reward_grants")
    op.drop_table("owned_cards")
