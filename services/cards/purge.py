"""Account deletion in cards: a player's copies, decks and grants go; then cards answers.

Everything here keyed by the player is personal: the collection, every owned copy
(rewards and the starter set, whose ``source_id`` is the player), saved decks and
their cards, the starter choice and the reward rolls. Card definitions are not
the player's and stay. Idempotent: a second request finds nothing and answers again.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime, timedelta

from sqlalchemy import delete, exists, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.cards.orm import (
    collections,
    deck_cards,
    decks,
    owned_cards,
    plumbing,
    purged_players,
    reward_grants,
    starter_grants,
)
from shared.clock import Clock
from shared.db import UnitOfWork
from shared.events import Event
from shared.outbox import forget_player_events
from shared.purge import purge_once

SERVICE = "cards"
# Ours: long after any event about the player can still be in flight (the handlers
# retry for about 13 minutes before parking a message).
TOMBSTONE_DAYS = 30


def player_digest(player_id: uuid.UUID) -> str:
    """A one-way name for a purged player: the tombstone must not keep the id itself."""
    return hashlib.sha256(f"deckyard-cards-purged:{player_id}".encode()).hexdigest()


def was_purged(session: Session, player_id: uuid.UUID) -> bool:
    return bool(
        session.execute(
            select(exists().where(purged_players.c.player_digest == player_digest(player_id)))
        ).scalar()
    )


def purge_personal_data(event: Event, tx: UnitOfWork, clock: Clock) -> bool:
    """Purge the player of an AccountDeletionRequested and answer PersonalDataPurged,
    in one transaction; False for a message already applied."""
    return purge_once(
        SERVICE,
        event,
        tx,
        clock,
        lambda: purge_player(tx.session, event.data["player_id"], clock.now()),
    )


def purge_player(session: Session, player_id: uuid.UUID, now: datetime) -> None:
    copies = select(owned_cards.c.id).where(owned_cards.c.player_id == player_id)
    session.execute(delete(decks).where(decks.c.player_id == player_id))  # deck cards cascade
    # No other deck may hold these copies (decks hold their owner's copies); if one did,
    # it would lose the card rather than keep the player's copy alive.
    session.execute(delete(deck_cards).where(deck_cards.c.owned_card_id.in_(copies)))
    session.execute(delete(owned_cards).where(owned_cards.c.player_id == player_id))
    session.execute(delete(reward_grants).where(reward_grants.c.player_id == player_id))
    session.execute(delete(starter_grants).where(starter_grants.c.player_id == player_id))
    session.execute(delete(collections).where(collections.c.player_id == player_id))
    forget_player_events(session, plumbing.outbox, player_id)
    session.execute(
        insert(purged_players)
        .values(player_digest=player_digest(player_id), purged_at=now)
        .on_conflict_do_nothing(index_elements=["player_digest"])
    )
    session.execute(  # tombstones expire; each purge clears the old ones
        delete(purged_players).where(
            purged_players.c.purged_at < now - timedelta(days=TOMBSTONE_DAYS)
        )
    )
