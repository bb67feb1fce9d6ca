"""TerraKard's knowledge questions as the player's own setting (rulebook: "You can turn
the questions off in your settings"): one column of the arena row, on by default.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02

A column with a server default: code that does not know it still inserts rows, so
either order of deployment is safe.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "terrakard_arena",
        sa.Column("questions", sa.Boolean(), nullable=False, server_default=sa.true()),
    )


def downgrade() -> None:
    op.drop_column("terrakard_arena", "questions")
