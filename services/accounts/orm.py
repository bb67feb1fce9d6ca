"""Tables of the accounts database."""

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    UniqueConstraint,
    Uuid,
    text,
)

from shared.plumbing_tables import PlumbingTables

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Uuid, primary_key=True),
    # The Auth0 subject ("auth0|abc..."): the one link between identity and player.
    Column("auth0_sub", String(255), nullable=False, unique=True),
    Column("status", String(16), nullable=False),
    Column("registered_at", DateTime(timezone=True), nullable=False),
    # The sum of the player's progression entries, kept here (updated in the same
    # transaction as each entry) so that `me` reads one row. Never lowered.
    Column("points", Integer, nullable=False, server_default=text("0")),
    CheckConstraint("status IN ('active', 'locked')", name="ck_players_status"),
    CheckConstraint("points >= 0", name="ck_players_points"),
)

# The history behind players.points: one row per source (an attempt, a match), ever.
progression_entries = Table(
    "progression_entries",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("player_id", Uuid, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("source_type", String(16), nullable=False),
    Column("source_id", Uuid, nullable=False),
    Column("points", Integer, nullable=False),
    Column("reason", String(40), nullable=False),
    Column("correct_count", SmallInteger, nullable=True),
    Column("occurred_at", DateTime(timezone=True), nullable=False),
    Column("recorded_at", DateTime(timezone=True), nullable=False),
    # Points are keyed by what earned them, not by the message that said so: a second
    # message about the same attempt or match finds this and adds nothing.
    UniqueConstraint("source_type", "source_id", name="uq_progression_entries_source"),
    CheckConstraint(
        "source_type IN ('attempt', 'match')", name="ck_progression_entries_source_type"
    ),
    CheckConstraint("points >= 0", name="ck_progression_entries_points"),
    CheckConstraint(
        "reason IN ('challenge_answers', 'cpu_victory', 'cpu_defeat', 'cpu_forfeit')",
        name="ck_progression_entries_reason",
    ),
    CheckConstraint(
        "(source_type = 'attempt') = (correct_count IS NOT NULL)"
        " AND (correct_count IS NULL OR correct_count BETWEEN 0 AND 5)",
        name="ck_progression_entries_correct_count",
    ),
    # A player's history, newest first, is a backward scan of this index.
    Index("ix_progression_entries_history", "player_id", "occurred_at", "id"),
)

plumbing = PlumbingTables(metadata)
