"""Tables of the cards database."""

from sqlalchemy import (
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
    UniqueConstraint,
    Uuid,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB

from shared.player_gate import purged_players_table
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


# Read model of published card definitions (from authoring's ContentPublished), of
# every game. Published content is immutable, so a row never changes except to be
# retired, by authoring or by a newer version of its lineage: one active version a
# lineage. Name, kind and rarity are every game's; the rest of what the service
# filters on is the game's ``attributes`` (Quest: affinity, reward_eligible, evolved,
# starter), validated by the game's package when the definition arrives. Pools are
# read by (game, rarity) on a catalogue of hundreds of rows a game, so attribute
# containment needs no index of its own.
card_definitions = Table(
    "card_definitions",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("lineage_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("name", String(80), nullable=False),
    Column("rarity", String(20), nullable=False),
    Column("attributes", JSONB, nullable=False),
    Column("version", Integer, nullable=False),
    Column("snapshot", JSONB, nullable=False),
    Column("published_at", DateTime(timezone=True), nullable=False),
    Column("retired_at", DateTime(timezone=True), nullable=True),
    Index("ix_card_definitions_game_rarity", "game", "rarity"),
    Index(
        "uq_card_definitions_active_lineage",
        "lineage_id",
        unique=True,
        postgresql_where=text("retired_at IS NULL"),
    ),
)

# A player's individual cards. A definition describes a card; each owned copy has
# its own id, so two awards of one definition are two rows. ``source_type`` and
# ``source_id`` say what granted it (Quest: the attempt of a reward, the player of a
# starter grant; other games: a pack, a craft...), ``finish`` how it looks (standard,
# or a game's own finishes); the game's rules say which are allowed. A copy's game is
# its definition's: kept once, so the two can never disagree.
owned_cards = Table(
    "owned_cards",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("player_id", Uuid, nullable=False),
    Column("definition_id", Uuid, ForeignKey("card_definitions.id"), nullable=False),
    Column("source_type", String(16), nullable=False),
    Column("source_id", Uuid, nullable=False),
    Column("finish", String(20), nullable=False, server_default=text("'standard'")),
    Column("acquired_at", DateTime(timezone=True), nullable=False),
    Index("ix_owned_cards_player", "player_id"),
    Index("ix_owned_cards_source", "source_type", "source_id"),
)

# One row per completed attempt: the persisted roll. Its primary key is what makes
# a redelivered (or re-sent) AttemptCompleted grant nothing more.
reward_grants = Table(
    "reward_grants",
    metadata,
    Column("attempt_id", Uuid, primary_key=True),
    Column("player_id", Uuid, nullable=False),
    Column("event_id", Uuid, nullable=False),
    Column("correct_count", SmallInteger, nullable=False),
    Column("rarities", JSONB, nullable=False),
    Column("granted_at", DateTime(timezone=True), nullable=False),
    Index("ix_reward_grants_player", "player_id"),
)

# The starter choice, once per player (primary key): concurrent choices grant once.
starter_grants = Table(
    "starter_grants",
    metadata,
    Column("player_id", Uuid, primary_key=True),
    Column("affinity", String(20), nullable=False),
    Column("granted_at", DateTime(timezone=True), nullable=False),
)

# A saved deck is of one game, and holds only that game's copies.
decks = Table(
    "decks",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("player_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("name", String(40), nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_decks_player_game", "player_id", "game"),
)

# A copy appears at most once in a deck (the rulebook), and may be in many decks.
deck_cards = Table(
    "deck_cards",
    metadata,
    Column("deck_id", Uuid, ForeignKey("decks.id", ondelete="CASCADE"), nullable=False),
    Column("position", SmallInteger, nullable=False),
    Column("owned_card_id", Uuid, ForeignKey("owned_cards.id"), nullable=False),
    PrimaryKeyConstraint("deck_id", "position"),
    UniqueConstraint("deck_id", "owned_card_id", name="uq_deck_cards_copy_once"),
    Index("ix_deck_cards_owned_card", "owned_card_id"),
)

# Players whose data was purged (account deletion), as a one-way digest: a write or an
# event still on its way must not give a deleted player new data (shared/player_gate.py).
purged_players = purged_players_table(metadata)

plumbing = PlumbingTables(metadata)
