"""Quest CPU matches and their action logs

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
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
        "matches",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("deck_id", sa.Uuid(), nullable=False),
        sa.Column("deck_version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("state", postgresql.JSONB(), nullable=False),
        sa.Column("initial_state", postgresql.JSONB(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('active', 'finished')", name="ck_matches_status"),
        sa.CheckConstraint(
            "(status = 'active' AND outcome IS NULL AND finished_at IS NULL)"
            " OR (status = 'finished' AND outcome IN ('victory', 'defeat', 'forfeit')"
            " AND finished_at IS NOT NULL AND deadline IS NULL)",
            name="ck_matches_outcome",
        ),
    )
    op.create_index(
        "uq_matches_one_active_per_player",
        "matches",
        ["player_id"],
        unique=True,
        postgresql_where=sa.text("status = 'active'"),
    )
    op.create_index(
        "ix_matches_active_deadline",
        "matches",
        ["deadline"],
        postgresql_where=sa.text("status = 'active'"),
    )
    op.create_index("ix_matches_player_created", "matches", ["player_id", "created_at"])
    op.create_table(
        "match_actions",
        sa.Column("match_id", sa.Uuid(), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(8), nullable=False),
        sa.Column("action", postgresql.JSONB(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("idempotency_key", sa.String(100), nullable=True),
        sa.Column("response", postgresql.JSONB(), nullable=True),
        sa.Column("events", postgresql.JSONB(), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seq", name="pk_match_actions"),
        sa.UniqueConstraint("match_id", "idempotency_key", name="uq_match_actions_idempotency_key"),
        sa.CheckConstraint("side IN ('player', 'cpu')", name="ck_match_actions_side"),
    )


def downgrade() -> None:
    op.drop_table("match_actions")
    op.drop_index("ix_matches_player_created", table_name="matches")
    op.drop_index("ix_matches_active_deadline", table_name="matches")
    op.drop_index("uq_matches_one_active_per_player", table_name="matches")
    op.drop_table("matches")
