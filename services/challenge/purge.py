"""Account deletion in challenge: a player's attempts and location claims go; then it answers.

Personal here: every attempt (its questions as shown, the answers given, the score
and the cards shown as its reward) and every accepted location claim. The published
events, challenges and questions are not the player's and stay. Idempotent: a second
request finds nothing and answers again.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from services.challenge.orm import (
    attempt_answers,
    attempts,
    location_claims,
    plumbing,
    purged_players,
)
from shared.clock import Clock
from shared.db import UnitOfWork
from shared.events import Event
from shared.outbox import forget_player_events
from shared.player_gate import SqlPlayerGate
from shared.purge import purge_player_once

SERVICE = "challenge"


def player_gate(session: Session) -> SqlPlayerGate:
    """Challenge's gate: every write for a player passes it (shared/player_gate.py)."""
    return SqlPlayerGate(session, SERVICE, purged_players)


def purge_personal_data(event: Event, tx: UnitOfWork, clock: Clock) -> bool:
    """Purge the player of an AccountDeletionRequested and answer PersonalDataPurged,
    in one transaction; False for a message already applied."""
    return purge_player_once(SERVICE, event, tx, clock, purge_player)


def purge_player(session: Session, player_id: uuid.UUID, now: datetime) -> None:
    # First: any write for the player now waits, then finds the tombstone.
    player_gate(session).seal(player_id, now)
    theirs = select(attempts.c.id).where(attempts.c.player_id == player_id)
    session.execute(delete(attempt_answers).where(attempt_answers.c.attempt_id.in_(theirs)))
    # An active attempt goes too: the sweeper can no longer complete it, so no
    # AttemptCompleted about the player is written after this.
    session.execute(delete(attempts).where(attempts.c.player_id == player_id))
    session.execute(delete(location_claims).where(location_claims.c.player_id == player_id))
    forget_player_events(session, plumbing.outbox, player_id)
