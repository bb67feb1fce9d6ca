"""the reward shown in an attempt's result

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("attempts", sa.Column("reward", postgresql.JSONB(), nullable=True))


def downgrade() -> None:
    op.drop_column("attempts", "reward")
