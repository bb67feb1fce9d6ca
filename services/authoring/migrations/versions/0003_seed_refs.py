"""seed references

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seed_refs",
        sa.Column("ref", sa.String(120), primary_key=True),
        sa.Column("content_id", sa.Uuid(), sa.ForeignKey("content.id"), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seed_refs")
