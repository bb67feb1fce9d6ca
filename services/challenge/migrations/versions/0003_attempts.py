"""location claims, attempts and answers

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op
from geoalchemy2 import Geography
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "location_claims",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column(
            "geog",
            Geography(geometry_type="POINT", srid=4326, spatial_index=False),
            nullable=False,
        ),
        sa.Column("accuracy_m", sa.Float(), nullable=False),
        sa.Column("acquired_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_location_claims_player_acquired", "location_claims", ["player_id", "acquired_at"]
    )
    op.create_table(
        "attempts",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("event_id", sa.Uuid(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("questions", postgresql.JSONB(), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("correct_count", sa.Integer(), nullable=True),
        sa.UniqueConstraint("player_id", "event_id", name="uq_attempts_player_event"),
    )
    op.create_index(
        "ix_attempts_active_deadline",
        "attempts",
        ["deadline"],
        postgresql_where=sa.text("status = 'active'"),
    )
    op.create_table(
        "attempt_answers",
        sa.Column("attempt_id", sa.Uuid(), sa.ForeignKey("attempts.id"), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("submitted", postgresql.JSONB(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("attempt_id", "position", name="pk_attempt_answers"),
    )


def downgrade() -> None:
    op.drop_table("attempt_answers")
    op.drop_table("attempts")
    op.drop_table("location_claims")
