"""TerraKard: defense plans and TerraKard players (starting collection, active plan,
level for the arena)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "terrakard_plans",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("rounds", postgresql.JSONB(), nullable=False),
        sa.Column("reserve", sa.Uuid(), nullable=False),
        sa.Column("condition", postgresql.JSONB(), nullable=False),
        sa.Column("posture", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_terrakard_plans_player", "terrakard_plans", ["player_id"])
    op.create_table(
        "terrakard_players",
        sa.Column("player_id", sa.Uuid(), primary_key=True),
        sa.Column("target_id", sa.Uuid(), nullable=False, unique=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "active_plan_id",
            sa.Uuid(),
            sa.ForeignKey("terrakard_plans.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_terrakard_players_level", "terrakard_players", ["level"])


def downgrade() -> None:
    op.drop_index("ix_terrakard_players_level", table_name="terrakard_players")
    op.drop_table("terrakard_players")
    op.drop_index("ix_terrakard_plans_player", table_name="terrakard_plans")
    op.drop_table("terrakard_plans")
