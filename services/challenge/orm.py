"""Tables of the challenge database: the read model of published Quest content.

Rows arrive from authoring's events and never change except to be retired
(published content is immutable). Questions keep their private answer key
here: the challenge service marks answers, so it is the one place besides
authoring that holds it.
"""

from geoalchemy2 import Geography
from sqlalchemy import Column, DateTime, Index, Integer, MetaData, String, Table, Text, Uuid
from sqlalchemy.dialects.postgresql import JSONB

from shared.plumbing_tables import PlumbingTables

metadata = MetaData()

questions = Table(
    "questions",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("kind", String(40), nullable=False),
    Column("body", JSONB, nullable=False),
    Column("version", Integer, nullable=False),
    Column("published_at", DateTime(timezone=True), nullable=False),
    Column("retired_at", DateTime(timezone=True), nullable=True),
)

challenges = Table(
    "challenges",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("title", String(80), nullable=False),
    Column("question_ids", JSONB, nullable=False),
    Column("version", Integer, nullable=False),
    Column("published_at", DateTime(timezone=True), nullable=False),
    Column("retired_at", DateTime(timezone=True), nullable=True),
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
    Column("version", Integer, nullable=False),
    Column("published_at", DateTime(timezone=True), nullable=False),
    Column("retired_at", DateTime(timezone=True), nullable=True),
    Index("ix_events_geog", "geog", postgresql_using="gist"),
)

campaigns = Table(
    "campaigns",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("name", String(80), nullable=False),
    Column("event_ids", JSONB, nullable=False),
    Column("version", Integer, nullable=False),
    Column("published_at", DateTime(timezone=True), nullable=False),
    Column("retired_at", DateTime(timezone=True), nullable=True),
)

plumbing = PlumbingTables(metadata)
