"""matches of any game: game and mode, seats (player, CPU or plan) with per-seat results

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

Expand only (docs/deploy.md: the previous release runs beside this one during a rolling
update). Existing matches become ('quest', 'cpu') with two seats: the player's (from
``player_id``, ``deck_id``, ``deck_version``, ``outcome``) and the CPU's (the opposite
result: victory when the player lost or forfeited, defeat when the player won).
``player_id``, ``deck_id``, ``deck_version`` and ``outcome`` stay, nullable, and the
previous release's unique index stays: its inserts name it. Dropping them is a later
migration's work, once no pod of the previous release runs.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_SEAT_ROWS = """
INSERT INTO match_seats
    (match_id, seat, position, kind, player_id, ref_id, ref_version, result, game, mode,
     one_active)
SELECT id, 'player', 0, 'player', player_id, deck_id, deck_version, outcome, game, mode,
       status = 'active'
FROM matches
UNION ALL
SELECT id, 'cpu', 1, 'cpu', NULL, NULL, NULL,
       CASE WHEN outcome IS NULL THEN NULL WHEN outcome = 'victory' THEN 'defeat'
            ELSE 'victory' END,
       game, mode, false
FROM matches
"""


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("game", sa.String(32), nullable=False, server_default=sa.text("'quest'")),
    )
    op.add_column(
        "matches",
        sa.Column("mode", sa.String(16), nullable=False, server_default=sa.text("'cpu'")),
    )
    for column in ("player_id", "deck_id", "deck_version"):
        op.alter_column("matches", column, nullable=True)
    # Per-game results live in match_seats; a finished match needs no outcome here.
    op.drop_constraint("ck_matches_outcome", "matches", type_="check")
    op.create_check_constraint(
        "ck_matches_finished",
        "matches",
        "(status = 'active' AND outcome IS NULL AND finished_at IS NULL)"
        " OR (status = 'finished' AND finished_at IS NOT NULL AND deadline IS NULL)",
    )
    # A seat of another game may have a longer name than "player" or "cpu".
    op.drop_constraint("ck_match_actions_side", "match_actions", type_="check")
    op.alter_column("match_actions", "side", type_=sa.String(32))
    op.create_table(
        "match_seats",
        sa.Column(
            "match_id",
            sa.Uuid(),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.String(32), nullable=False),
        sa.Column("position", sa.SmallInteger(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("player_id", sa.Uuid(), nullable=True),
        sa.Column("ref_id", sa.Uuid(), nullable=True),
        sa.Column("ref_version", sa.Integer(), nullable=True),
        sa.Column("result", sa.String(16), nullable=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("one_active", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_match_seats"),
        sa.CheckConstraint("kind IN ('player', 'cpu', 'plan')", name="ck_match_seats_kind"),
        sa.CheckConstraint("kind <> 'cpu' OR player_id IS NULL", name="ck_match_seats_cpu"),
        sa.CheckConstraint(
            "NOT one_active OR (player_id IS NOT NULL AND result IS NULL)",
            name="ck_match_seats_one_active",
        ),
    )
    op.execute(_SEAT_ROWS)
    # After the copy: the old index already held one active match per player.
    op.create_index(
        "uq_match_seats_one_active",
        "match_seats",
        ["player_id", "game", "mode"],
        unique=True,
        postgresql_where=sa.text("one_active"),
    )
    op.create_index("ix_match_seats_player", "match_seats", ["player_id"])


def downgrade() -> None:
    # Only matches the previous release can read go back: Quest CPU matches, whose
    # legacy columns this release keeps filled. Another game's cannot exist before 0004.
    others = "SELECT id FROM matches WHERE game <> 'quest' OR mode <> 'cpu'"
    op.execute(f"DELETE FROM match_actions WHERE match_id IN ({others})")
    op.execute(f"DELETE FROM matches WHERE id IN ({others})")
    op.drop_table("match_seats")
    op.alter_column("match_actions", "side", type_=sa.String(8))
    op.create_check_constraint(
        "ck_match_actions_side", "match_actions", "side IN ('player', 'cpu')"
    )
    op.drop_constraint("ck_matches_finished", "matches", type_="check")
    op.create_check_constraint(
        "ck_matches_outcome",
        "matches",
        "(status = 'active' AND outcome IS NULL AND finished_at IS NULL)"
        " OR (status = 'finished' AND outcome IN ('victory', 'defeat', 'forfeit')"
        " AND finished_at IS NOT NULL AND deadline IS NULL)",
    )
    for column in ("player_id", "deck_id", "deck_version"):
        op.alter_column("matches", column, nullable=False)
    op.drop_column("matches", "mode")
    op.drop_column("matches", "game")
