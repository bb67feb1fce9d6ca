"""Tables of the authoring database."""

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    Uuid,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB

from shared.player_gate import purged_players_table
from shared.plumbing_tables import PlumbingTables

metadata = MetaData()

STATES = "('draft', 'in_review', 'approved', 'published', 'retired')"

content = Table(
    "content",
    metadata,
    Column("id", Uuid, primary_key=True),
    # Replacement content shares the lineage of what it replaces (and may keep its name).
    Column("lineage_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("state", String(20), nullable=False),
    Column("version", Integer, nullable=False),
    Column("body", JSONB, nullable=False),
    Column("name_key", String(80), nullable=True),
    Column("created_by", String(255), nullable=False),
    Column("submitted_by", String(255), nullable=True),
    Column("replaces", Uuid, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("published_at", DateTime(timezone=True), nullable=True),
    Column("retired_at", DateTime(timezone=True), nullable=True),
    CheckConstraint(f"state IN {STATES}", name="ck_content_state"),
    Index("ix_content_name_key", "name_key"),
    Index("ix_content_kind_state", "kind", "state"),
    # The review queue: what waits in review, oldest submission first (updated_at is
    # when it was submitted: nothing else changes content in review).
    Index(
        "ix_content_in_review",
        "updated_at",
        "id",
        postgresql_where=text("state = 'in_review'"),
    ),
)

content_audit = Table(
    "content_audit",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("content_id", Uuid, ForeignKey("content.id"), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("actor", String(255), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("action", String(20), nullable=False),
    Column("from_state", String(20), nullable=True),
    Column("to_state", String(20), nullable=False),
    Column("reason", Text, nullable=True),
)


# A batch approval sent with an Idempotency-Key (services/authoring/review.py): the
# items it named (their fingerprint), and each item's outcome, recorded in the same
# transaction as the approval it reports; the same key again answers the same.
review_batches = Table(
    "review_batches",
    metadata,
    Column("actor", String(255), primary_key=True),
    Column("idempotency_key", String(64), primary_key=True),
    Column("fingerprint", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

review_batch_outcomes = Table(
    "review_batch_outcomes",
    metadata,
    Column("actor", String(255), primary_key=True),
    Column("idempotency_key", String(64), primary_key=True),
    Column("content_id", Uuid, primary_key=True),
    Column("outcome", JSONB, nullable=False),
    ForeignKeyConstraint(
        ["actor", "idempotency_key"],
        ["review_batches.actor", "review_batches.idempotency_key"],
        ondelete="CASCADE",
    ),
)


# Which seeded item (by its stable reference in the seed files) became which
# content, so `deckyard seed` can run again without creating anything twice.
seed_refs = Table(
    "seed_refs",
    metadata,
    Column("ref", String(120), primary_key=True),
    Column("content_id", Uuid, ForeignKey("content.id"), nullable=False),
)

# Authors whose account was deleted, as one-way digests of the subject
# (shared/player_gate.py): their writes racing the purge are refused.
purged_players = purged_players_table(metadata)

plumbing = PlumbingTables(metadata)
