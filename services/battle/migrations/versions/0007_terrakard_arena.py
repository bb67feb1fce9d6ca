"""TerraKard's arena: tickets, shields, trophies, experience, tutorial, daily objectives,
and the rewards an attack's end earned in cards (delivered afterwards)

Revision ID: 0007
Revises: 0004
Create Date: 2026-12-01

Expand only: three new tables, nothing existing changes.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "terrakard_arena",
        sa.Column("player_id", sa.Uuid(), primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tickets", sa.SmallInteger(), nullable=False),
        sa.Column("tickets_since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("shield_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("trophies", sa.Integer(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("tutorial_done_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("tickets >= 0", name="ck_terrakard_arena_tickets"),
        sa.CheckConstraint("trophies >= 0", name="ck_terrakard_arena_trophies"),
        sa.CheckConstraint("experience >= 0", name="ck_terrakard_arena_experience"),
    )
    op.create_index(
        "ix_terrakard_arena_targets",
        "terrakard_arena",
        ["level", "trophies"],
        postgresql_where=sa.text("tutorial_done_at IS NOT NULL"),
    )
    op.create_table(
        "terrakard_rewards",
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("item", sa.String(32), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("idempotency_key", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("match_id", "player_id", "kind", name="pk_terrakard_rewards"),
        sa.CheckConstraint("kind IN ('pack', 'currency')", name="ck_terrakard_rewards_kind"),
        sa.CheckConstraint("amount > 0", name="ck_terrakard_rewards_amount"),
    )
    op.create_index(
        "ix_terrakard_rewards_player", "terrakard_rewards", ["player_id", "kind", "created_at"]
    )
    op.create_index(
        "ix_terrakard_rewards_pending",
        "terrakard_rewards",
        ["created_at"],
        postgresql_where=sa.text("delivered_at IS NULL"),
    )
    op.create_table(
        "terrakard_objectives",
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("objective", sa.String(32), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("player_id", "day", "objective", name="pk_terrakard_objectives"),
    )


def downgrade() -> None:
    op.drop_table("terrakard_objectives")
    op.drop_index("ix_terrakard_rewards_pending", table_name="terrakard_rewards")
    op.drop_index("ix_terrakard_rewards_player", table_name="terrakard_rewards")
    op.drop_table("terrakard_rewards")
    op.drop_index("ix_terrakard_arena_targets", table_name="terrakard_arena")
    op.drop_table("terrakard_arena")
