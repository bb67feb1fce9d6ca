"""Account deletion in cards: a player's copies, decks and grants go; then cards answers.

Everything here keyed by the player is personal: the collection, every owned copy
(rewards, packs and the starter set, whose ``source_id`` is the player), saved decks
and their cards, the starter choice and the reward rolls; TerraKard's plans and player
row (starting collection, active plan, level); the economy's balances, ledger
entries and daily counters; unopened packs, their grants and openings; shreds and
crafts, upgrades owed; the provably fair seeds and rolls. Card definitions are not the
player's and stay. Idempotent: a second request finds nothing and answers again.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Table
from sqlalchemy.orm import Session

from services.cards.orm import (
    collections,
    crafting_entries,
    currency_balances,
    daily_counters,
    decks,
    fair_rolls,
    fair_seeds,
    finish_upgrades_owed,
    ledger_entries,
    owned_cards,
    pack_grants,
    pack_openings,
    packs,
    plumbing,
    purged_players,
    reward_grants,
    starter_grants,
    terrakard_plans,
    terrakard_players,
)
from shared.clock import Clock
from shared.db import Statement, UnitOfWork
from shared.events import Event
from shared.outbox import player_events_statement
from shared.player_gate import SqlPlayerGate
from shared.purge import purge_player_once

SERVICE = "cards"


def player_gate(session: Session) -> SqlPlayerGate:
    """Cards' gate: every write for a player passes it (shared/player_gate.py)."""
    return SqlPlayerGate(session, SERVICE, purged_players)


def purge_personal_data(event: Event, tx: UnitOfWork, clock: Clock) -> bool:
    """Purge the player of an AccountDeletionRequested and answer PersonalDataPurged,
    in one transaction; False for a message already applied."""
    return purge_player_once(SERVICE, event, tx, clock, purge_player)


def purge_player(session: Session, player_id: uuid.UUID, now: datetime) -> None:
    # First the seal: any write for the player now waits, then finds the tombstone. Then
    # every delete, in the same round trip (the gate is held until the purge commits).
    player_gate(session).seal(player_id, now, purge_statements(player_id))


# Children before parents (foreign keys). No other deck may hold the player's copies
# (decks hold their owner's copies); if one did, it would lose the card rather than
# keep the player's copy alive. TerraKard: the player's row (it points at a plan),
# then the plans.
_PLAYER_ROWS: tuple[Table | tuple[str, str], ...] = (
    decks,  # deck cards cascade
    ("deck_cards", "owned_card_id IN (SELECT id FROM owned_cards WHERE player_id = %s)"),
    owned_cards,
    reward_grants,
    starter_grants,
    collections,
    terrakard_players,
    terrakard_plans,
    pack_openings,
    packs,
    pack_grants,
    fair_rolls,
    fair_seeds,
    ledger_entries,
    currency_balances,
    daily_counters,
    crafting_entries,
    finish_upgrades_owed,
)


def purge_statements(player_id: uuid.UUID) -> list[Statement]:
    """Every delete of the purge, as SQL for one pipeline (``shared.db.pipelined``)."""
    statements: list[Statement] = []
    for rows in _PLAYER_ROWS:
        table, where = rows if isinstance(rows, tuple) else (rows.name, "player_id = %s")
        statements.append((f'DELETE FROM "{table}" WHERE {where}', (player_id,)))
    statements.append(player_events_statement(plumbing.outbox, player_id))
    return statements
