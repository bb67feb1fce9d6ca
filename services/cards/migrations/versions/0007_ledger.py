"""the currency ledger: balances per (player, game, currency), append-only entries keyed
by idempotency key, per-UTC-day counters (docs/economy.md)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "currency_balances",
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("currency", sa.String(30), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game", "currency"),
        sa.CheckConstraint("balance >= 0", name="ck_currency_balances_never_negative"),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("seq", sa.BigInteger(), primary_key=True, autoincrement=True),
        sa.Column("id", sa.Uuid(), nullable=False, unique=True),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("currency", sa.String(30), nullable=False),
        sa.Column("delta", sa.BigInteger(), nullable=False),
        sa.Column("balance_after", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(40), nullable=False),
        sa.Column("idempotency_key", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("player_id", "idempotency_key", name="uq_ledger_entries_key"),
        sa.CheckConstraint("delta <> 0", name="ck_ledger_entries_delta"),
    )
    op.create_index("ix_ledger_entries_player_game", "ledger_entries", ["player_id", "game", "seq"])
    op.create_table(
        "daily_counters",
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("counter", sa.String(60), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game", "counter", "day"),
    )


def downgrade() -> None:
    op.drop_table("daily_counters")
    op.drop_index("ix_ledger_entries_player_game", table_name="ledger_entries")
    op.drop_table("ledger_entries")
    op.drop_table("currency_balances")
