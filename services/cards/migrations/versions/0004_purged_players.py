"""purged players (digests), so that late events grant them nothing

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "purged_players",
        sa.Column("player_digest", sa.String(64), primary_key=True),
        sa.Column("purged_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("purged_players")
