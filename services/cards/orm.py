"""Tables of the cards database."""

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
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

# -- TerraKard (docs/terrakard.md, "Hosting") ----------------------------------------------

# Defense plans: five round copies in order, the reserve copy, its condition and the
# posture; ``level`` is the owner's level it was judged at, ``cost`` its cost then.
terrakard_plans = Table(
    "terrakard_plans",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("player_id", Uuid, nullable=False),
    Column("name", String(40), nullable=False),
    Column("version", Integer, nullable=False),
    Column("rounds", JSONB, nullable=False),  # five owned copy ids, in round order
    Column("reserve", Uuid, nullable=False),
    Column("condition", JSONB, nullable=False),
    Column("posture", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_terrakard_plans_player", "player_id"),
)

# One row per TerraKard player: the starting collection was granted (once: primary
# key), the active plan (one at most), the level last seen, which the arena reads, and
# the target id the arena shows others instead of the account id.
terrakard_players = Table(
    "terrakard_players",
    metadata,
    Column("player_id", Uuid, primary_key=True),
    # What others see of the player in the arena (never the account id).
    Column("target_id", Uuid, nullable=False, unique=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column(
        "active_plan_id",
        Uuid,
        ForeignKey("terrakard_plans.id", ondelete="SET NULL"),
        nullable=True,
    ),
    Column("level", Integer, nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Index("ix_terrakard_players_level", "level"),
)

# -- the economy (docs/economy.md) -----------------------------------------------------

# One balance per (player, game, currency): Chronovore Gold and Card Fragments,
# TerraKard tickets and rampart tokens... A spend is one conditional UPDATE of this row
# (``balance >= amount``), in the transaction that writes its entry: never negative.
currency_balances = Table(
    "currency_balances",
    metadata,
    Column("player_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("currency", String(30), nullable=False),
    Column("balance", BigInteger, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("player_id", "game", "currency"),
    CheckConstraint("balance >= 0", name="ck_currency_balances_never_negative"),
)

# Append-only: every grant (delta > 0) and spend (delta < 0), with the balance after it.
# The idempotency key is the player's: a retry finds its entry and gets the first answer.
ledger_entries = Table(
    "ledger_entries",
    metadata,
    Column("seq", BigInteger, primary_key=True, autoincrement=True),
    Column("id", Uuid, nullable=False, unique=True),
    Column("player_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("currency", String(30), nullable=False),
    Column("delta", BigInteger, nullable=False),
    Column("balance_after", BigInteger, nullable=False),
    Column("reason", String(40), nullable=False),
    Column("idempotency_key", String(100), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("player_id", "idempotency_key", name="uq_ledger_entries_key"),
    CheckConstraint("delta <> 0", name="ck_ledger_entries_delta"),
    Index("ix_ledger_entries_player_game", "player_id", "game", "seq"),
)

# Per-UTC-day totals for configured limits: ``counter`` is ``grant:<currency>``,
# ``spend:<currency>`` or ``packs:<group>``.
daily_counters = Table(
    "daily_counters",
    metadata,
    Column("player_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("counter", String(60), nullable=False),
    Column("day", Date, nullable=False),
    Column("amount", BigInteger, nullable=False),
    PrimaryKeyConstraint("player_id", "game", "counter", "day"),
)

# One row per grant of packs (a quantity, from a source, maybe paid for): its key makes a
# retried grant or purchase grant once.
pack_grants = Table(
    "pack_grants",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("player_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("source_type", String(30), nullable=False),
    Column("source_id", String(100), nullable=False),
    Column("idempotency_key", String(100), nullable=False),
    Column("ledger_entry_id", Uuid, nullable=True),  # the payment, when bought
    Column("granted_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("player_id", "idempotency_key", name="uq_pack_grants_key"),
)

# The inventory: one row per pack, unopened while ``opened_at`` is null.
packs = Table(
    "packs",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("grant_id", Uuid, ForeignKey("pack_grants.id"), nullable=False),
    Column("player_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("granted_at", DateTime(timezone=True), nullable=False),
    Column("opened_at", DateTime(timezone=True), nullable=True),
    # Sold back unopened (a kind whose data allows it: Chronovore's Diamond pack), with
    # the ledger entry that paid the price back; a sold pack is neither unopened nor opened.
    Column("sold_at", DateTime(timezone=True), nullable=True),
    Column("sale_entry_id", Uuid, nullable=True),
    Index("ix_packs_player_game", "player_id", "game"),
)

# An opening, persisted in the transaction that creates its copies, before it is shown.
pack_openings = Table(
    "pack_openings",
    metadata,
    Column("pack_id", Uuid, ForeignKey("packs.id"), primary_key=True),
    Column("player_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("idempotency_key", String(100), nullable=False),
    Column("roll_id", Uuid, nullable=False),
    Column("cards", JSONB, nullable=False),
    Column("opened_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("player_id", "idempotency_key", name="uq_pack_openings_key"),
)

# One shred or craft (Chronovore's Card Fragments): the copy it removed or added, the
# fragments and their ledger entry, under the player's key: a retry finds this row and
# gets the same answer, even though a shredded copy no longer exists.
crafting_entries = Table(
    "crafting_entries",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("player_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("action", String(8), nullable=False),  # shred | craft
    Column("owned_card_id", Uuid, nullable=False),  # no foreign key: a shredded copy is gone
    Column("definition_id", Uuid, ForeignKey("card_definitions.id"), nullable=False),
    Column("finish", String(20), nullable=False),
    Column("rarity", String(20), nullable=False),
    Column("fragments", Integer, nullable=False),
    Column("weakened", Boolean, nullable=False),
    Column("ledger_entry_id", Uuid, nullable=False),
    Column("idempotency_key", String(100), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("player_id", "idempotency_key", name="uq_crafting_entries_key"),
    CheckConstraint("action IN ('shred', 'craft')", name="ck_crafting_entries_action"),
    Index("ix_crafting_entries_player", "player_id"),
)

# Upgrades a player is owed after a capped finish overflowed (Chronovore: an extra
# Diamond became Golden, "and the next Golden card from that set upgrades to Diamond").
finish_upgrades_owed = Table(
    "finish_upgrades_owed",
    metadata,
    Column("player_id", Uuid, nullable=False),
    Column("game", String(20), nullable=False),
    Column("finish", String(20), nullable=False),
    Column("amount", Integer, nullable=False),
    PrimaryKeyConstraint("player_id", "game", "finish"),
    CheckConstraint("amount >= 0", name="ck_finish_upgrades_owed_never_negative"),
)

# -- provably fair rolls (docs/fairness.md) ---------------------------------------------

# A player's server seeds: one active (unrevealed) at a time. The seed is secret until
# ``revealed_at``; its hash is shown from the start. ``next_nonce`` counts its rolls.
fair_seeds = Table(
    "fair_seeds",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("player_id", Uuid, nullable=False),
    Column("server_seed", String(64), nullable=False),
    Column("server_seed_hash", String(64), nullable=False),
    Column("client_seed", String(64), nullable=False),
    Column("next_nonce", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revealed_at", DateTime(timezone=True), nullable=True),
    Index("ix_fair_seeds_player", "player_id"),
    Index(
        "uq_fair_seeds_one_active",
        "player_id",
        unique=True,
        postgresql_where=text("revealed_at IS NULL"),
    ),
)

# Every roll, stored with its nonce and client seed before its outcome is shown. One roll
# per source (an attempt's reward, a pack's opening): a retry finds it, never rerolls.
fair_rolls = Table(
    "fair_rolls",
    metadata,
    Column("seq", BigInteger, primary_key=True, autoincrement=True),
    Column("id", Uuid, nullable=False, unique=True),
    Column("player_id", Uuid, nullable=False),
    Column("seed_id", Uuid, ForeignKey("fair_seeds.id"), nullable=False),
    Column("nonce", Integer, nullable=False),
    Column("client_seed", String(64), nullable=False),
    Column("purpose", String(80), nullable=False),
    Column("source_type", String(30), nullable=False),
    Column("source_id", String(100), nullable=False),
    Column("draws", JSONB, nullable=False),
    Column("rolled_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("seed_id", "nonce", name="uq_fair_rolls_nonce"),
    UniqueConstraint("source_type", "source_id", name="uq_fair_rolls_source"),
    Index("ix_fair_rolls_player", "player_id", "seq"),
)

# Players whose data was purged (account deletion), as a one-way digest: a write or an
# event still on its way must not give a deleted player new data (shared/player_gate.py).
purged_players = purged_players_table(metadata)

plumbing = PlumbingTables(metadata)
