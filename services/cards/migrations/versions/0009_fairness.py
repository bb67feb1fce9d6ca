"""provably fair rolls: each player's server seeds (one active, revealed on rotation) and
every roll with its nonce and draws (docs/fairness.md)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fair_seeds",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("server_seed_hash", sa.String(64), nullable=False),
        sa.Column("client_seed", sa.String(64), nullable=False),
        sa.Column("next_nonce", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_fair_seeds_player", "fair_seeds", ["player_id"])
    op.create_index(
        "uq_fair_seeds_one_active",
        "fair_seeds",
        ["player_id"],
        unique=True,
        postgresql_where=sa.text("revealed_at IS NULL"),
    )
    op.create_table(
        "fair_rolls",
        sa.Column("seq", sa.BigInteger(), primary_key=True, autoincrement=True),
        sa.Column("id", sa.Uuid(), nullable=False, unique=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("seed_id", sa.Uuid(), sa.ForeignKey("fair_seeds.id"), nullable=False),
        sa.Column("nonce", sa.Integer(), nullable=False),
        sa.Column("client_seed", sa.String(64), nullable=False),
        sa.Column("purpose", sa.String(80), nullable=False),
        sa.Column("source_type", sa.String(30), nullable=False),
        sa.Column("source_id", sa.String(100), nullable=False),
        sa.Column("draws", postgresql.JSONB(), nullable=False),
        sa.Column("rolled_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("seed_id", "nonce", name="uq_fair_rolls_nonce"),
        sa.UniqueConstraint("source_type", "source_id", name="uq_fair_rolls_source"),
    )
    op.create_index("ix_fair_rolls_player", "fair_rolls", ["player_id", "seq"])


def downgrade() -> None:
    op.drop_index("ix_fair_rolls_player", table_name="fair_rolls")
    op.drop_table("fair_rolls")
    op.drop_index("uq_fair_seeds_one_active", table_name="fair_seeds")
    op.drop_index("ix_fair_seeds_player", table_name="fair_seeds")
    op.drop_table("fair_seeds")
