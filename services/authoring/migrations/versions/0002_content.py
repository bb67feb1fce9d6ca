"""content and its audit log

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "content",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("lineage_id", sa.Uuid(), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("body", postgresql.JSONB(), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=True),
        sa.Column("created_by", sa.String(255), nullable=False),
        sa.Column("submitted_by", sa.String(255), nullable=True),
        sa.Column("replaces", sa.Uuid(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "state IN ('draft', 'in_review', 'approved', 'published', 'retired')",
            name="ck_content_state",
        ),
    )
    op.create_index("ix_content_name_key", "content", ["name_key"])
    op.create_index("ix_content_kind_state", "content", ["kind", "state"])
    op.create_table(
        "content_audit",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=True),
        sa.Column("content_id", sa.Uuid(), sa.ForeignKey("content.id"), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("actor", sa.String(255), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("from_state", sa.String(20), nullable=True),
        sa.Column("to_state", sa.String(20), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
    )
    op.create_index("ix_content_audit_content_id", "content_audit", ["content_id"])


def downgrade() -> None:
    op.drop_table("content_audit")
    op.drop_table("content")
