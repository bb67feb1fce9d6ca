"""Tables of the cards database."""

from sqlalchemy import Boolean, Column, DateTime, Index, Integer, MetaData, String, Table, Uuid
from sqlalchemy.dialects.postgresql import JSONB

from shared.plumbing_tables import PlumbingTables

metadata = MetaData()

# One row per player: the collection exists from registration on, so "no cards
# yet" and "unknown player" are different answers.
collections = Table(
    "collections",
    metadata,
    Column("player_id", Uuid, primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


# Read model of published card definitions (from authoring's ContentPublished).
# Published content is immutable, so a row never changes except to be retired.
card_definitions = Table(
    "card_definitions",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("lineage_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("name", String(80), nullable=False),
    Column("rarity", String(20), nullable=False),
    Column("affinity", String(20), nullable=True),
    Column("reward_eligible", Boolean, nullable=False),
    Column("evolved", Boolean, nullable=False),
    Column("starter", Boolean, nullable=False),
    Column("version", Integer, nullable=False),
    Column("snapshot", JSONB, nullable=False),
    Column("published_at", DateTime(timezone=True), nullable=False),
    Column("retired_at", DateTime(timezone=True), nullable=True),
    Index("ix_card_definitions_game_rarity", "game", "rarity"),
)

plumbing = PlumbingTables(metadata)
