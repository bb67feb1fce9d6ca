"""account deletion: sagas, their answers, receipts and deleted-identity digests

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
        "deletion_sagas",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False, unique=True),
        sa.Column("auth0_sub", sa.String(255), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("identity_deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default=sa.text("0")),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
    )
    op.create_index("ix_deletion_sagas_next_attempt", "deletion_sagas", ["next_attempt_at"])
    op.create_table(
        "deletion_answers",
        sa.Column(
            "deletion_id",
            sa.Uuid(),
            sa.ForeignKey("deletion_sagas.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("service", sa.String(40), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("deletion_id", "service", name="pk_deletion_answers"),
    )
    op.create_table(
        "deletion_receipts",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_deletion_receipts_expires", "deletion_receipts", ["expires_at"])
    op.create_table(
        "deleted_identities",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column(
            "receipt_id",
            sa.Uuid(),
            sa.ForeignKey("deletion_receipts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_deleted_identities_expires", "deleted_identities", ["expires_at"])


def downgrade() -> None:
    op.drop_table("deleted_identities")
    op.drop_table("deletion_receipts")
    op.drop_table("deletion_answers")
    op.drop_table("deletion_sagas")
