"""progression points: players.points and progression_entries

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "players",
        sa.Column("points", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )
    op.create_check_constraint("ck_players_points", "players", "points >= 0")
    op.create_table(
        "progression_entries",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=True),
        sa.Column(
            "player_id",
            sa.Uuid(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("source_type", sa.String(16), nullable=False),
        sa.Column("source_id", sa.Uuid(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(40), nullable=False),
        sa.Column("correct_count", sa.SmallInteger(), nullable=True),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("source_type", "source_id", name="uq_progression_entries_source"),
        sa.CheckConstraint(
            "source_type IN ('attempt', 'match')", name="ck_progression_entries_source_type"
        ),
        sa.CheckConstraint("points >= 0", name="ck_progression_entries_points"),
        sa.CheckConstraint(
            "reason IN ('challenge_answers', 'cpu_victory', 'cpu_defeat', 'cpu_forfeit')",
            name="ck_progression_entries_reason",
        ),
        sa.CheckConstraint(
            "(source_type = 'attempt') = (correct_count IS NOT NULL)"
            " AND (correct_count IS NULL OR correct_count BETWEEN 0 AND 5)",
            name="ck_progression_entries_correct_count",
        ),
    )
    op.create_index(
        "ix_progression_entries_history",
        "progression_entries",
        ["player_id", "occurred_at", "id"],
    )


def downgrade() -> None:
    op.drop_table("progression_entries")
    op.drop_constraint("ck_players_points", "players", type_="check")
    op.drop_column("players", "points")
