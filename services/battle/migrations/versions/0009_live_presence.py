"""Live PvP's reconnect rule and direct live challenges (docs/quest-pvp.md, "Live PvP").

- ``push_replicas``/``push_presence``: what the gateway replicas report of their push
  connections (services/battle/presence.py): per replica a lease, per replica and player
  the number of open connections and when it last changed.
- ``pvp_invitations.live_challenge``: Quest's live challenges (2 minutes, a live match)
  beside its standing invitations; false for every earlier row and for the inserts of
  the release before this one (its server default), so either order of deployment works.
  The one pending invitation per pair and game becomes one per pair, game and kind.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

PENDING = sa.text("status = 'pending'")


def upgrade() -> None:
    op.create_table(
        "push_replicas",
        sa.Column("replica_id", sa.String(64), primary_key=True),
        sa.Column("renewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_presence",
        sa.Column("replica_id", sa.String(64), nullable=False),
        sa.Column("player_id", sa.Uuid, nullable=False),
        sa.Column("connections", sa.Integer, nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("replica_id", "player_id", name="pk_push_presence"),
        sa.CheckConstraint("connections >= 0", name="ck_push_presence_connections"),
    )
    op.create_index("ix_push_presence_player", "push_presence", ["player_id"])
    op.add_column(
        "pvp_invitations",
        sa.Column("live_challenge", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index(
        "uq_pvp_invitations_pending_kind",
        "pvp_invitations",
        ["from_player_id", "to_player_id", "game", "live_challenge"],
        unique=True,
        postgresql_where=PENDING,
    )
    op.drop_index("uq_pvp_invitations_pending", table_name="pvp_invitations")


def downgrade() -> None:
    op.execute("DELETE FROM pvp_invitations WHERE live_challenge")
    op.create_index(
        "uq_pvp_invitations_pending",
        "pvp_invitations",
        ["from_player_id", "to_player_id", "game"],
        unique=True,
        postgresql_where=PENDING,
    )
    op.drop_index("uq_pvp_invitations_pending_kind", table_name="pvp_invitations")
    op.drop_column("pvp_invitations", "live_challenge")
    op.drop_index("ix_push_presence_player", table_name="push_presence")
    op.drop_table("push_presence")
    op.drop_table("push_replicas")
