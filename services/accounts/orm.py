"""Tables of the accounts database."""

from sqlalchemy import (
    CheckConstraint,
    Column,
    DateTime,
    MetaData,
    String,
    Table,
    Uuid,
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
    CheckConstraint("status IN ('active', 'locked')", name="ck_players_status"),
)

plumbing = PlumbingTables(metadata)
