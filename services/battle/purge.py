"""Account deletion in battle: a player's CPU matches and their action logs go; then it answers.

rules/quest.txt: "Completed results and action history remain available privately
to the owning player until account deletion." A CPU match is the player's alone
(no other player shares its history), so it goes whole, active or finished.
Idempotent: a second request finds nothing and answers again.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from services.battle.orm import match_actions, matches, plumbing, purged_players
from shared.clock import Clock
from shared.db import UnitOfWork
from shared.events import Event
from shared.outbox import forget_player_events
from shared.player_gate import SqlPlayerGate
from shared.purge import purge_player_once

SERVICE = "battle"


def player_gate(session: Session) -> SqlPlayerGate:
    """Battle's gate: every write for a player passes it (shared/player_gate.py)."""
    return SqlPlayerGate(session, SERVICE, purged_players)


def purge_personal_data(event: Event, tx: UnitOfWork, clock: Clock) -> bool:
    """Purge the player of an AccountDeletionRequested and answer PersonalDataPurged,
    in one transaction; False for a message already applied."""
    return purge_player_once(SERVICE, event, tx, clock, purge_player)


def purge_player(session: Session, player_id: uuid.UUID, now: datetime) -> None:
    # First: any write for the player now waits, then finds the tombstone.
    player_gate(session).seal(player_id, now)
    theirs = select(matches.c.id).where(matches.c.player_id == player_id)
    session.execute(delete(match_actions).where(match_actions.c.match_id.in_(theirs)))
    session.execute(delete(matches).where(matches.c.player_id == player_id))
    forget_player_events(session, plumbing.outbox, player_id)
