"""Tables of the battle database: matches of any hosted game, their seats and action logs."""

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
    true,
)
from sqlalchemy.dialects.postgresql import JSONB

from shared.player_gate import purged_players_table
from shared.plumbing_tables import PlumbingTables

metadata = MetaData()

# One match of any hosted game (services/battle/games). ``state`` is the engine's
# to_json() (private: it holds the seed and hidden cards; only views leave the service);
# ``initial_state`` is the state before the first action, so that replaying
# ``match_actions`` gives ``state``. Who plays is in ``match_seats``.
#
# Legacy (migration 0004): ``player_id``, ``deck_id``, ``deck_version`` and ``outcome``
# are the one-player shape of the release before it, and the server defaults of
# ``game``/``mode`` are for its inserts. They stay filled for Quest CPU matches while
# that release may still run beside this one (a rolling update); nothing here reads
# them. A later migration drops them with ``uq_matches_one_active_per_player``.
LEGACY_GAME_DEFAULT = "'quest'"
LEGACY_MODE_DEFAULT = "'cpu'"
matches = Table(
    "matches",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("game", String(32), nullable=False, server_default=text(LEGACY_GAME_DEFAULT)),
    Column("mode", String(16), nullable=False, server_default=text(LEGACY_MODE_DEFAULT)),
    Column("player_id", Uuid, nullable=True),  # legacy
    Column("deck_id", Uuid, nullable=True),  # legacy
    Column("deck_version", Integer, nullable=True),  # legacy
    Column("status", String(16), nullable=False),
    Column("state", JSONB, nullable=False),
    Column("initial_state", JSONB, nullable=False),
    Column("seed", BigInteger, nullable=False),
    # The seed's salt (64 hex digits, migration 0005): secret until the match is over;
    # the views show SHA-256("{seed}:{salt}") from the start. Null for a match started
    # before it (or by the previous release during a rolling update): no commitment.
    Column("seed_salt", String(64), nullable=True),
    Column("version", Integer, nullable=False),  # the engine's state version
    Column("outcome", String(16), nullable=True),  # legacy: the player seat's result
    # When the seat to act runs out of time (null when no clock runs and once finished):
    # the sweeper's key.
    Column("deadline", DateTime(timezone=True), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    CheckConstraint("status IN ('active', 'finished')", name="ck_matches_status"),
    CheckConstraint(
        "(status = 'active' AND outcome IS NULL AND finished_at IS NULL)"
        " OR (status = 'finished' AND finished_at IS NOT NULL AND deadline IS NULL)",
        name="ck_matches_finished",
    ),
    # Legacy: the previous release's one active CPU match per player (its inserts name it).
    Index(
        "uq_matches_one_active_per_player",
        "player_id",
        unique=True,
        postgresql_where=text("status = 'active'"),
    ),
    Index("ix_matches_active_deadline", "deadline", postgresql_where=text("status = 'active'")),
    Index("ix_matches_player_created", "player_id", "created_at"),
)

# Who sits in a match: a player (``player_id``), the CPU (the game's policy acts for
# it), or a player's saved plan (``player_id`` its owner; it never acts). ``seat`` is
# the engine's name for it, ``position`` its place in the game's order.
# ``ref_id``/``ref_version``: the saved deck or plan it brought (the state holds the
# snapshot). ``result`` is the game's word once finished.
# ``game`` and ``mode`` repeat the match's (they never change) so that ``one_active``,
# true while the match is active where the rulebook allows one active match per player
# and (game, mode), can be a unique partial index: race-proof.
match_seats = Table(
    "match_seats",
    metadata,
    Column("match_id", Uuid, ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("seat", String(32), nullable=False),
    Column("position", SmallInteger, nullable=False),  # the game's order of its seats
    Column("kind", String(8), nullable=False),
    Column("player_id", Uuid, nullable=True),
    Column("ref_id", Uuid, nullable=True),
    Column("ref_version", Integer, nullable=True),
    Column("result", String(16), nullable=True),
    Column("game", String(32), nullable=False),
    Column("mode", String(16), nullable=False),
    Column("one_active", Boolean, nullable=False),
    PrimaryKeyConstraint("match_id", "seat", name="pk_match_seats"),
    CheckConstraint("kind IN ('player', 'cpu', 'plan')", name="ck_match_seats_kind"),
    # The CPU is nobody. (A player seat loses its id when that player is purged from a
    # match other players keep: hence no NOT NULL for players.)
    CheckConstraint("kind <> 'cpu' OR player_id IS NULL", name="ck_match_seats_cpu"),
    CheckConstraint(
        "NOT one_active OR (player_id IS NOT NULL AND result IS NULL)",
        name="ck_match_seats_one_active",
    ),
    Index(
        "uq_match_seats_one_active",
        "player_id",
        "game",
        "mode",
        unique=True,
        postgresql_where=text("one_active"),
    ),
    Index("ix_match_seats_player", "player_id"),
)

# Every applied action, in order: ``seq`` is the state version it produced, so the log
# replayed over ``initial_state`` is the match. ``side`` is the seat that acted.
# ``response`` is what the seat was answered for its own action (returned again for the
# same idempotency key); ``events`` are the engine's full events (filtered per seat when
# shown).
match_actions = Table(
    "match_actions",
    metadata,
    Column("match_id", Uuid, ForeignKey("matches.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("side", String(32), nullable=False),
    Column("action", JSONB, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("idempotency_key", String(100), nullable=True),
    Column("response", JSONB, nullable=True),
    Column("events", JSONB, nullable=False),
    # The seat's expected version of a keyed request (null: its seq less one).
    Column("expected_version", Integer, nullable=True),
    PrimaryKeyConstraint("match_id", "seq", name="pk_match_actions"),
    UniqueConstraint("match_id", "idempotency_key", name="uq_match_actions_idempotency_key"),
)

# Players whose data was purged, as one-way digests (shared/player_gate.py).
purged_players = purged_players_table(metadata)

plumbing = PlumbingTables(metadata)

# -- matches against another player (docs/chronovore.md, "Against another player") ----------

# The matchmaking queue: a player waiting for an opponent of ``game``, with the legal deck
# they joined with, snapshotted (``deck``: the cards service's ``deck_for_match`` cards), so
# that pairing needs no call outside the database. One entry per player.
pvp_queue = Table(
    "pvp_queue",
    metadata,
    Column("player_id", Uuid, primary_key=True),
    Column("game", String(32), nullable=False),
    Column("deck_id", Uuid, nullable=False),
    Column("deck_version", Integer, nullable=False),
    Column("deck", JSONB, nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    # Pairing takes the oldest entries first, in this order, under row locks.
    Index("ix_pvp_queue_game_joined", "game", "joined_at", "player_id"),
)

# A direct invitation: from one player (with the deck snapshot they invited with) to
# another, pending until accepted, declined, cancelled or expired. At most one pending
# invitation from a player to another per game (a unique partial index: race-proof).
pvp_invitations = Table(
    "pvp_invitations",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("game", String(32), nullable=False),
    Column("from_player_id", Uuid, nullable=False),
    Column("to_player_id", Uuid, nullable=False),
    Column("deck_id", Uuid, nullable=False),
    Column("deck_version", Integer, nullable=False),
    Column("deck", JSONB, nullable=False),
    Column("status", String(16), nullable=False),
    Column("match_id", Uuid, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # Quest's live challenges (2 minutes, a live match: migration 0009) beside the game's
    # standing invitations.
    Column("live_challenge", Boolean, nullable=False, server_default=text("false")),
    CheckConstraint(
        "status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')",
        name="ck_pvp_invitations_status",
    ),
    CheckConstraint(
        "(status = 'accepted') = (match_id IS NOT NULL)", name="ck_pvp_invitations_match"
    ),
    CheckConstraint("from_player_id <> to_player_id", name="ck_pvp_invitations_not_self"),
    Index(
        "uq_pvp_invitations_pending_kind",
        "from_player_id",
        "to_player_id",
        "game",
        "live_challenge",
        unique=True,
        postgresql_where=text("status = 'pending'"),
    ),
    Index("ix_pvp_invitations_from", "from_player_id"),
    Index("ix_pvp_invitations_to", "to_player_id"),
    Index("ix_pvp_invitations_expiry", "expires_at", postgresql_where=text("status = 'pending'")),
)

# What the gateway replicas report of their push connections (services/battle/presence.py,
# docs/quest-pvp.md, "Reconnect"). A replica renews its lease (``lease_until``, real time:
# the liveness of a process, not a game rule) while it runs; ``renewed_at`` is the
# battle clock's time of the last renewal, the moment its players were last known
# connected should it stop renewing (a crash).
push_replicas = Table(
    "push_replicas",
    metadata,
    Column("replica_id", String(64), primary_key=True),
    Column("renewed_at", DateTime(timezone=True), nullable=False),
    Column("lease_until", DateTime(timezone=True), nullable=False),
)

# Per replica and player: the open push connections and when that number last changed
# (battle's clock at the report; 0 connections: when the last one closed there).
push_presence = Table(
    "push_presence",
    metadata,
    Column("replica_id", String(64), nullable=False),
    Column("player_id", Uuid, nullable=False),
    Column("connections", Integer, nullable=False),
    Column("changed_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("replica_id", "player_id", name="pk_push_presence"),
    CheckConstraint("connections >= 0", name="ck_push_presence_connections"),
    Index("ix_push_presence_player", "player_id"),
)

# The pseudonyms players are invited by (derived from the player id: accounts keeps no
# names), written when a player first uses the queue or the invitations; a lookup key.
pvp_pseudonyms = Table(
    "pvp_pseudonyms",
    metadata,
    Column("player_id", Uuid, primary_key=True),
    Column("pseudonym", String(32), nullable=False),
    Index("ix_pvp_pseudonyms_pseudonym", "pseudonym"),
)

# -- TerraKard's arena (docs/terrakard.md, "The arena (ours)") -----------------------------
# One row per player who came to the arena: attack tickets (``tickets`` as of
# ``tickets_since``; they refill with time, games/terrakard/arena.py), the shield, the
# trophies and the experience (``level`` follows from it, kept for the target query),
# when the tutorial ended, when the player was last seen.
terrakard_arena = Table(
    "terrakard_arena",
    metadata,
    Column("player_id", Uuid, primary_key=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("tickets", SmallInteger, nullable=False),
    Column("tickets_since", DateTime(timezone=True), nullable=False),
    Column("shield_until", DateTime(timezone=True), nullable=True),
    Column("trophies", Integer, nullable=False),
    Column("experience", Integer, nullable=False),
    Column("level", Integer, nullable=False),
    Column("tutorial_done_at", DateTime(timezone=True), nullable=True),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    # The player's setting: knowledge questions in their attacks (migration 0010).
    Column("questions", Boolean, nullable=False, server_default=true()),
    CheckConstraint("tickets >= 0", name="ck_terrakard_arena_tickets"),
    CheckConstraint("trophies >= 0", name="ck_terrakard_arena_trophies"),
    CheckConstraint("experience >= 0", name="ck_terrakard_arena_experience"),
    # The arena's targets, found from the attacker's trophies each way, in the arena's
    # order (migration 0008; services/battle/terrakard_store.py, ``targets``).
    Index(
        "ix_terrakard_arena_trophies_up",
        "trophies",
        text("seen_at DESC"),
        "player_id",
        postgresql_where=text("tutorial_done_at IS NOT NULL"),
    ),
    Index(
        "ix_terrakard_arena_trophies_down",
        text("trophies DESC"),
        text("seen_at DESC"),
        "player_id",
        postgresql_where=text("tutorial_done_at IS NOT NULL"),
    ),
)

# What an attack's end earned in cards (a victory pack, rampart tokens), written with the
# end and delivered to cards afterwards under ``idempotency_key`` (retried until
# ``delivered_at``): the cards service grants once per key.
terrakard_rewards = Table(
    "terrakard_rewards",
    metadata,
    Column("match_id", Uuid, nullable=False),
    Column("player_id", Uuid, nullable=False),
    Column("kind", String(16), nullable=False),  # 'pack' or 'currency'
    Column("item", String(32), nullable=False),  # the pack kind or the currency
    Column("amount", Integer, nullable=False),
    Column("idempotency_key", String(100), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("delivered_at", DateTime(timezone=True), nullable=True),
    PrimaryKeyConstraint("match_id", "player_id", "kind", name="pk_terrakard_rewards"),
    CheckConstraint("kind IN ('pack', 'currency')", name="ck_terrakard_rewards_kind"),
    CheckConstraint("amount > 0", name="ck_terrakard_rewards_amount"),
    Index("ix_terrakard_rewards_player", "player_id", "kind", "created_at"),
    Index(
        "ix_terrakard_rewards_pending", "created_at", postgresql_where=text("delivered_at IS NULL")
    ),
)

# Daily objectives' progress, per UTC day (a new day starts from nothing).
terrakard_objectives = Table(
    "terrakard_objectives",
    metadata,
    Column("player_id", Uuid, nullable=False),
    Column("day", Date, nullable=False),
    Column("objective", String(32), nullable=False),
    Column("progress", Integer, nullable=False),
    Column("done_at", DateTime(timezone=True), nullable=True),
    PrimaryKeyConstraint("player_id", "day", "objective", name="pk_terrakard_objectives"),
)
