"""progression entries carry their game

Every entry so far was earned in Quest (the only game with attempts and matches), so
existing rows get 'quest'; then the column has no default: each entry names its game.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "progression_entries",
        sa.Column("game", sa.String(20), nullable=False, server_default=sa.text("'quest'")),
    )
    op.alter_column("progression_entries", "game", server_default=None)


def downgrade() -> None:
    op.drop_column("progression_entries", "game")
