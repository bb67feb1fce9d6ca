"""The outbox and processed-message tables every service database holds.

They live in each service's own metadata (database per service); the
migration helpers in ``shared.migration_ops`` create exactly these columns,
and each service's model-versus-migration test proves it.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    Uuid,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB


def outbox_table(metadata: MetaData) -> Table:
    return Table(
        "outbox",
        metadata,
        Column("seq", BigInteger, primary_key=True, autoincrement=True),
        Column("event_id", Uuid, nullable=False, unique=True),
        Column("exchange", String(200), nullable=False),
        Column("routing_key", String(200), nullable=False),
        Column("payload", JSONB, nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("published_at", DateTime(timezone=True), nullable=True),
        Column("attempts", Integer, nullable=False, server_default=text("0")),
        Column("last_error", Text, nullable=True),
        Index(
            "ix_outbox_unpublished",
            "seq",
            postgresql_where=text("published_at IS NULL"),
        ),
    )


def processed_messages_table(metadata: MetaData) -> Table:
    return Table(
        "processed_messages",
        metadata,
        Column("consumer", String(200), nullable=False),
        Column("message_id", Uuid, nullable=False),
        Column("processed_at", DateTime(timezone=True), nullable=False),
        PrimaryKeyConstraint("consumer", "message_id", name="pk_processed_messages"),
    )


class PlumbingTables:
    """Both tables, bound to one service's metadata."""

    def __init__(self, metadata: MetaData) -> None:
        self.outbox = outbox_table(metadata)
        self.processed_messages = processed_messages_table(metadata)
