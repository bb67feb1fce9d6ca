"""PostGIS, outbox and processed messages

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

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
    op.execute("CREATE EXTENSION IF NOT EXISTS postgis")
    create_outbox_and_processed_messages()


def downgrade() -> None:
    drop_outbox_and_processed_messages()
