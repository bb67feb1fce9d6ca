"""Tables of the battle database: Quest CPU matches and their action logs."""

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    UniqueConstraint,
    Uuid,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB

from shared.player_gate import purged_players_table
from shared.plumbing_tables import PlumbingTables

metadata = MetaData()

# One Quest CPU match. ``state`` is the engine's MatchState.to_dict() (private: it holds
# the seed and the CPU's hand; only views leave the service); ``initial_state`` is the
# state before the first action, so that replaying ``match_actions`` gives ``state``.
matches = Table(
    "matches",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("player_id", Uuid, nullable=False),
    Column("deck_id", Uuid, nullable=False),
    Column("deck_version", Integer, nullable=False),  # the saved deck's version snapshotted
    Column("status", String(16), nullable=False),
    Column("state", JSONB, nullable=False),
    Column("initial_state", JSONB, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("version", Integer, nullable=False),  # the engine's state version
    Column("outcome", String(16), nullable=True),
    # The normal-turn deadline (null in selection phases and once finished): the sweeper's key.
    Column("deadline", DateTime(timezone=True), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    CheckConstraint("status IN ('active', 'finished')", name="ck_matches_status"),
    CheckConstraint(
        "(status = 'active' AND outcome IS NULL AND finished_at IS NULL)"
        " OR (status = 'finished' AND outcome IN ('victory', 'defeat', 'forfeit')"
        " AND finished_at IS NOT NULL AND deadline IS NULL)",
        name="ck_matches_outcome",
    ),
    # Rulebook: a player may have only one active CPU match (race-proof here).
    Index(
        "uq_matches_one_active_per_player",
        "player_id",
        unique=True,
        postgresql_where=text("status = 'active'"),
    ),
    Index("ix_matches_active_deadline", "deadline", postgresql_where=text("status = 'active'")),
    Index("ix_matches_player_created", "player_id", "created_at"),
)

# Every applied action, in order: ``seq`` is the state version it produced, so the log
# replayed over ``initial_state`` is the match. ``response`` is what the player was
# answered for their own action (returned again for the same idempotency key);
# ``events`` are the engine's full events (filtered per side when shown).
match_actions = Table(
    "match_actions",
    metadata,
    Column("match_id", Uuid, ForeignKey("matches.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("side", String(8), nullable=False),
    Column("action", JSONB, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("idempotency_key", String(100), nullable=True),
    Column("response", JSONB, nullable=True),
    Column("events", JSONB, nullable=False),
    PrimaryKeyConstraint("match_id", "seq", name="pk_match_actions"),
    UniqueConstraint("match_id", "idempotency_key", name="uq_match_actions_idempotency_key"),
    CheckConstraint("side IN ('player', 'cpu')", name="ck_match_actions_side"),
)

# Players whose data was purged, as one-way digests (shared/player_gate.py).
purged_players = purged_players_table(metadata)

plumbing = PlumbingTables(metadata)
