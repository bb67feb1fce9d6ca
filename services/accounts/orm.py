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
    PrimaryKeyConstraint,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    text,
)

from shared.clock_control import clock_table
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

# The history behind players.points: one row per source (an attempt, a match), ever,
# with the game it was earned in (its points are that game's table's).
progression_entries = Table(
    "progression_entries",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("player_id", Uuid, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(20), nullable=False),
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

# -- account deletion (docs/account-deletion.md) -------------------------------------------

# A deletion in progress, one per player. It holds the Auth0 subject until the Auth0
# user is deleted; the row goes when the deletion completes (a receipt replaces it).
deletion_sagas = Table(
    "deletion_sagas",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("player_id", Uuid, nullable=False, unique=True),
    Column("auth0_sub", String(255), nullable=False),
    Column("requested_at", DateTime(timezone=True), nullable=False),
    Column("identity_deleted_at", DateTime(timezone=True), nullable=True),
    # Retries of the current step, and when the sweeper next acts (backoff or a lease).
    Column("attempts", Integer, nullable=False, server_default=text("0")),
    Column("next_attempt_at", DateTime(timezone=True), nullable=False),
    Column("last_error", Text, nullable=True),
    Index("ix_deletion_sagas_next_attempt", "next_attempt_at"),
)

# Which services must answer PersonalDataPurged for a deletion, and when each did.
deletion_answers = Table(
    "deletion_answers",
    metadata,
    Column(
        "deletion_id",
        Uuid,
        ForeignKey("deletion_sagas.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("service", String(40), nullable=False),
    Column("answered_at", DateTime(timezone=True), nullable=True),
    PrimaryKeyConstraint("deletion_id", "service", name="pk_deletion_answers"),
)

# Kept 12 months: a deletion was asked for and done. No player id, no subject.
deletion_receipts = Table(
    "deletion_receipts",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("requested_at", DateTime(timezone=True), nullable=False),
    Column("completed_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_deletion_receipts_expires", "expires_at"),
)

# Kept 30 days: HMAC-SHA256 of the deleted Auth0 subject under DELETION_DIGEST_SECRET, so
# that an old token cannot register the subject again while it lives.
deleted_identities = Table(
    "deleted_identities",
    metadata,
    Column("digest", String(64), primary_key=True),
    Column(
        "receipt_id",
        Uuid,
        ForeignKey("deletion_receipts.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("deleted_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_deleted_identities_expires", "expires_at"),
)

plumbing = PlumbingTables(metadata)

# The test clock's offset (CLOCK_CONTROL=1 only), read by every service: shared/clock_control.py.
test_clock = clock_table(metadata)
