"""Tables of the cards database."""

from sqlalchemy import Column, DateTime, MetaData, Table, Uuid

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

plumbing = PlumbingTables(metadata)
