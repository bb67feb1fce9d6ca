"""collections, outbox and processed messages

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
        "collections",
        sa.Column("player_id", sa.Uuid(), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    create_outbox_and_processed_messages()


def downgrade() -> None:
    drop_outbox_and_processed_messages()
    op.drop_table("collections")
