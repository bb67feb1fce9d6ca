"""matches against another player: the matchmaking queue, invitations, pseudonyms

Revision ID: 0006
Revises: 0004
Create Date: 2026-12-01

Expand only: three new tables (docs/chronovore.md, "Against another player"); nothing
the previous release reads changes.
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _deck_columns() -> list[sa.Column[object]]:
    return [
        sa.Column("deck_id", sa.Uuid, nullable=False),
        sa.Column("deck_version", sa.Integer, nullable=False),
        sa.Column("deck", JSONB, nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "pvp_queue",
        sa.Column("player_id", sa.Uuid, primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        *_deck_columns(),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_pvp_queue_game_joined", "pvp_queue", ["game", "joined_at", "player_id"])
    op.create_table(
        "pvp_invitations",
        sa.Column("id", sa.Uuid, primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("from_player_id", sa.Uuid, nullable=False),
        sa.Column("to_player_id", sa.Uuid, nullable=False),
        *_deck_columns(),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.Uuid, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')",
            name="ck_pvp_invitations_status",
        ),
        sa.CheckConstraint(
            "(status = 'accepted') = (match_id IS NOT NULL)", name="ck_pvp_invitations_match"
        ),
        sa.CheckConstraint("from_player_id <> to_player_id", name="ck_pvp_invitations_not_self"),
    )
    op.create_index(
        "uq_pvp_invitations_pending",
        "pvp_invitations",
        ["from_player_id", "to_player_id", "game"],
        unique=True,
        postgresql_where=sa.text("status = 'pending'"),
    )
    op.create_index("ix_pvp_invitations_from", "pvp_invitations", ["from_player_id"])
    op.create_index("ix_pvp_invitations_to", "pvp_invitations", ["to_player_id"])
    op.create_index(
        "ix_pvp_invitations_expiry",
        "pvp_invitations",
        ["expires_at"],
        postgresql_where=sa.text("status = 'pending'"),
    )
    op.create_table(
        "pvp_pseudonyms",
        sa.Column("player_id", sa.Uuid, primary_key=True),
        sa.Column("pseudonym", sa.String(32), nullable=False),
    )
    op.create_index("ix_pvp_pseudonyms_pseudonym", "pvp_pseudonyms", ["pseudonym"])


def downgrade() -> None:
    op.drop_table("pvp_pseudonyms")
    op.drop_table("pvp_invitations")
    op.drop_table("pvp_queue")
