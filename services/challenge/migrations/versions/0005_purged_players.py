"""purged players (digests): writes for a deleted player are refused (shared/player_gate.py)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from shared.migration_ops import create_purged_players, drop_purged_players

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_purged_players()


def downgrade() -> None:
    drop_purged_players()
