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

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from services.cards.orm import (
    collections,
    crafting_entries,
    currency_balances,
    daily_counters,
    deck_cards,
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
from shared.db import UnitOfWork
from shared.events import Event
from shared.outbox import forget_player_events
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
    # First: any write for the player now waits, then finds the tombstone.
    player_gate(session).seal(player_id, now)
    copies = select(owned_cards.c.id).where(owned_cards.c.player_id == player_id)
    session.execute(delete(decks).where(decks.c.player_id == player_id))  # deck cards cascade
    # No other deck may hold these copies (decks hold their owner's copies); if one did,
    # it would lose the card rather than keep the player's copy alive.
    session.execute(delete(deck_cards).where(deck_cards.c.owned_card_id.in_(copies)))
    session.execute(delete(owned_cards).where(owned_cards.c.player_id == player_id))
    session.execute(delete(reward_grants).where(reward_grants.c.player_id == player_id))
    session.execute(delete(starter_grants).where(starter_grants.c.player_id == player_id))
    session.execute(delete(collections).where(collections.c.player_id == player_id))
    # TerraKard: the player's row first (it points at a plan), then the plans.
    session.execute(delete(terrakard_players).where(terrakard_players.c.player_id == player_id))
    session.execute(delete(terrakard_plans).where(terrakard_plans.c.player_id == player_id))
    # The economy, children before parents (foreign keys).
    for table in (
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
    ):
        session.execute(delete(table).where(table.c.player_id == player_id))
    forget_player_events(session, plumbing.outbox, player_id)
