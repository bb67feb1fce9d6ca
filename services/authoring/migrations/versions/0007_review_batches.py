"""the review queue: its index, and batch approvals' idempotency records

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_content_in_review",
        "content",
        ["updated_at", "id"],
        postgresql_where=sa.text("state = 'in_review'"),
    )
    op.create_table(
        "review_batches",
        sa.Column("actor", sa.String(255), primary_key=True),
        sa.Column("idempotency_key", sa.String(64), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "review_batch_outcomes",
        sa.Column("actor", sa.String(255), primary_key=True),
        sa.Column("idempotency_key", sa.String(64), primary_key=True),
        sa.Column("content_id", sa.Uuid(), primary_key=True),
        sa.Column("outcome", postgresql.JSONB(), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor", "idempotency_key"],
            ["review_batches.actor", "review_batches.idempotency_key"],
            ondelete="CASCADE",
        ),
    )


def downgrade() -> None:
    op.drop_table("review_batch_outcomes")
    op.drop_table("review_batches")
    op.drop_index("ix_content_in_review", table_name="content")
