"""Players: who may play, and the fact of registration."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from shared.errors import InvalidInput
from shared.events import PLAYER_REGISTERED, Event, new_event

MAX_SUBJECT_LENGTH = 255


class PlayerStatus(StrEnum):
    ACTIVE = "active"
    LOCKED = "locked"  # account deletion requested: every player request is refused


@dataclass(frozen=True)
class Player:
    id: uuid.UUID
    auth0_sub: str
    status: PlayerStatus
    registered_at: datetime

    @property
    def is_active(self) -> bool:
        return self.status is PlayerStatus.ACTIVE


def validate_subject(sub: str) -> str:
    if not isinstance(sub, str) or not sub.strip() or len(sub) > MAX_SUBJECT_LENGTH:
        raise InvalidInput("invalid_subject", "the token subject must be 1-255 characters")
    return sub


def register(sub: str, player_id: uuid.UUID, now: datetime) -> tuple[Player, Event]:
    """A new active player for an authenticated subject, and the event saying so."""
    player = Player(player_id, validate_subject(sub), PlayerStatus.ACTIVE, now)
    event = new_event(
        PLAYER_REGISTERED, {"player_id": player.id, "registered_at": now}, occurred_at=now
    )
    return player, event
