"""the test clock's offset

One row, written only on a test stack (CLOCK_CONTROL=1): how far every process's clock
is ahead of the system's (shared/clock_control.py). Empty everywhere else.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "test_clock",
        sa.Column("id", sa.SmallInteger(), primary_key=True, autoincrement=False),
        sa.Column("offset_seconds", sa.BigInteger(), nullable=False),
        sa.Column("advanced_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("test_clock")
