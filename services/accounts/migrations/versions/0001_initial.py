"""players, outbox and processed messages

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

from shared.migration_ops import (
    create_outbox_and_processed_messages,
    drop_outbox_and_processed_messages,
)

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("auth0_sub", sa.String(255), nullable=False, unique=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("status IN ('active', 'locked')", name="ck_players_status"),
    )
    create_outbox_and_processed_messages()


def downgrade() -> None:
    drop_outbox_and_processed_messages()
    op.drop_table("players")
