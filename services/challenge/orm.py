"""Tables of the challenge database: the read model of published Quest content.

Rows arrive from authoring's events and never change except to be retired
(published content is immutable). Questions keep their private answer key
here: the challenge service marks answers, so it is the one place besides
authoring that holds it.
"""

from geoalchemy2 import Geography
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB

from shared.player_gate import purged_players_table
from shared.plumbing_tables import PlumbingTables

metadata = MetaData()


def published_columns() -> list[Column]:  # type: ignore[type-arg]
    """What every published item keeps: its version, when it was published and retired."""
    return [
        Column("version", Integer, nullable=False),
        Column("published_at", DateTime(timezone=True), nullable=False),
        Column("retired_at", DateTime(timezone=True), nullable=True),
    ]


questions = Table(
    "questions",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("kind", String(40), nullable=False),
    Column("body", JSONB, nullable=False),
    *published_columns(),
)

challenges = Table(
    "challenges",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("title", String(80), nullable=False),
    Column("question_ids", JSONB, nullable=False),
    *published_columns(),
)

events = Table(
    "events",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("name", String(80), nullable=False),
    Column("description", Text, nullable=False),
    Column(
        "geog", Geography(geometry_type="POINT", srid=4326, spatial_index=False), nullable=False
    ),
    Column("radius_m", Integer, nullable=False),
    Column("starts_at", DateTime(timezone=True), nullable=False),
    Column("ends_at", DateTime(timezone=True), nullable=False),
    Column("challenge_id", Uuid, nullable=False),
    Column("reward_definition_id", Uuid, nullable=False),
    *published_columns(),
    Index("ix_events_geog", "geog", postgresql_using="gist"),
)

campaigns = Table(
    "campaigns",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("name", String(80), nullable=False),
    Column("event_ids", JSONB, nullable=False),
    *published_columns(),
)


# Accepted location claims, kept for movement plausibility (purged with the account).
location_claims = Table(
    "location_claims",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("player_id", Uuid, nullable=False),
    Column(
        "geog", Geography(geometry_type="POINT", srid=4326, spatial_index=False), nullable=False
    ),
    Column("accuracy_m", Float, nullable=False),
    Column("acquired_at", DateTime(timezone=True), nullable=False),
    Column("received_at", DateTime(timezone=True), nullable=False),
    Index("ix_location_claims_player_acquired", "player_id", "acquired_at"),
)

attempts = Table(
    "attempts",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("player_id", Uuid, nullable=False),
    Column("event_id", Uuid, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("deadline", DateTime(timezone=True), nullable=False),
    Column("status", String(16), nullable=False),
    # The five questions as chosen and shuffled at start, keys included (private).
    Column("questions", JSONB, nullable=False),
    Column("completed_at", DateTime(timezone=True), nullable=True),
    Column("correct_count", Integer, nullable=True),
    # The cards the cards service granted for this attempt (from RewardGranted):
    # null until it arrives, then never changed. Shown in the result, never rerolled.
    Column("reward", JSONB, nullable=True),
    UniqueConstraint("player_id", "event_id", name="uq_attempts_player_event"),
    Index("ix_attempts_active_deadline", "deadline", postgresql_where=text("status = 'active'")),
)

attempt_answers = Table(
    "attempt_answers",
    metadata,
    Column("attempt_id", Uuid, ForeignKey("attempts.id"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("submitted", JSONB, nullable=False),
    Column("received_at", DateTime(timezone=True), nullable=False),
    Column("correct", Boolean, nullable=False),
    PrimaryKeyConstraint("attempt_id", "position", name="pk_attempt_answers"),
)

# Players whose data was purged, as one-way digests (shared/player_gate.py).
purged_players = purged_players_table(metadata)

plumbing = PlumbingTables(metadata)
