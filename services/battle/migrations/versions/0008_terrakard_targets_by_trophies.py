"""TerraKard's arena targets found by trophies: two indexes, one each way from the
attacker's trophies, in the arena's own order (the closest first, then the most
recently seen, then the id), instead of (level, trophies), which made the query read
and sort every player of three levels (docs/performance.md, "TerraKard").

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

Indexes only; the query that needs them (services/battle/terrakard_store.py) still
works without them, only slower, so either order of deployment is safe.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

PAST_TUTORIAL = sa.text("tutorial_done_at IS NOT NULL")


def upgrade() -> None:
    op.create_index(
        "ix_terrakard_arena_trophies_up",
        "terrakard_arena",
        ["trophies", sa.text("seen_at DESC"), "player_id"],
        postgresql_where=PAST_TUTORIAL,
    )
    op.create_index(
        "ix_terrakard_arena_trophies_down",
        "terrakard_arena",
        [sa.text("trophies DESC"), sa.text("seen_at DESC"), "player_id"],
        postgresql_where=PAST_TUTORIAL,
    )
    op.drop_index("ix_terrakard_arena_targets", table_name="terrakard_arena")


def downgrade() -> None:
    op.create_index(
        "ix_terrakard_arena_targets",
        "terrakard_arena",
        ["level", "trophies"],
        postgresql_where=PAST_TUTORIAL,
    )
    op.drop_index("ix_terrakard_arena_trophies_down", table_name="terrakard_arena")
    op.drop_index("ix_terrakard_arena_trophies_up", table_name="terrakard_arena")
