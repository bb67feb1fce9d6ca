"""What every service's answer to AccountDeletionRequested shares: once per message, the
service's own purge, then its PersonalDataPurged, all in the caller's transaction."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime

from sqlalchemy.orm import Session

from shared.clock import Clock
from shared.db import UnitOfWork
from shared.events import Event, personal_data_purged


def purge_once(
    service: str, event: Event, tx: UnitOfWork, clock: Clock, purge: Callable[[], None]
) -> bool:
    """Run ``purge`` and answer for ``service``; False for a message already applied.

    The inbox name is ``<service>.account_deletion``."""
    if not tx.first_delivery(event.event_id, f"{service}.account_deletion"):
        return False
    purge()
    tx.add_event(personal_data_purged(service, event.data["deletion_id"], clock.now()))
    return True


def purge_player_once(
    service: str,
    event: Event,
    tx: UnitOfWork,
    clock: Clock,
    purge_player: Callable[[Session, uuid.UUID, datetime], None],
) -> bool:
    """``purge_once`` for a service whose purge is keyed by the player id."""
    return purge_once(
        service,
        event,
        tx,
        clock,
        lambda: purge_player(tx.session, event.data["player_id"], clock.now()),
    )
