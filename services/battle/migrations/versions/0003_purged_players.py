"""purged players (digests): writes for a deleted player are refused (shared/player_gate.py)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from shared.migration_ops import create_purged_players, drop_purged_players

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_purged_players()


def downgrade() -> None:
    drop_purged_players()
