"""Players: who may play, the fact of registration, and their progression points."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from games.quest import points as quest_points
from games.quest.points import MatchOutcome
from shared.errors import InvalidInput, refusals_as
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
    points: int = 0  # permanent progression points; never spent (rules/quest.txt)

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


# -- progression points ------------------------------------------------------------------
#
# The points table is Quest's (games/quest/points.py); accounts keeps the ledger.

# How many history entries one read returns (ours, not the rulebook's).
DEFAULT_HISTORY_LIMIT = 50
MAX_HISTORY_LIMIT = 200


class SourceType(StrEnum):
    """What earned the points; with the source's id it names one entry, at most."""

    ATTEMPT = "attempt"
    MATCH = "match"


class Reason(StrEnum):
    CHALLENGE_ANSWERS = "challenge_answers"
    CPU_VICTORY = "cpu_victory"
    CPU_DEFEAT = "cpu_defeat"
    CPU_FORFEIT = "cpu_forfeit"


@dataclass(frozen=True)
class ProgressionEntry:
    """One line of a player's point history: a source, once, with what it earned.

    An entry worth 0 points (a defeat) is still an entry, so the history shows it.
    """

    player_id: uuid.UUID
    source_type: SourceType
    source_id: uuid.UUID
    points: int
    reason: Reason
    correct_count: int | None  # for attempts only
    occurred_at: datetime


@dataclass(frozen=True)
class Progression:
    player_id: uuid.UUID
    points: int
    entries: list[ProgressionEntry]  # newest first


@refusals_as(InvalidInput)
def points_for_answers(correct_count: int) -> int:
    """10 points per correct answer of one attempt (0..5 correct: 0..50 points)."""
    return quest_points.points_for_answers(correct_count)


_MATCH_REASONS = {
    MatchOutcome.VICTORY: Reason.CPU_VICTORY,
    MatchOutcome.DEFEAT: Reason.CPU_DEFEAT,
    MatchOutcome.FORFEIT: Reason.CPU_FORFEIT,
}


def points_for_cpu_match(outcome: str) -> int:
    """25 points for a CPU victory; none for a defeat or a forfeit."""
    return _match_result(outcome)[0]


@refusals_as(InvalidInput)
def _match_result(outcome: str) -> tuple[int, Reason]:
    points = quest_points.points_for_cpu_match(outcome)
    return points, _MATCH_REASONS[quest_points.match_outcome(outcome)]


def attempt_entry(
    player_id: uuid.UUID, attempt_id: uuid.UUID, correct_count: int, completed_at: datetime
) -> ProgressionEntry:
    """The points a completed Quest attempt earns."""
    return ProgressionEntry(
        player_id=player_id,
        source_type=SourceType.ATTEMPT,
        source_id=attempt_id,
        points=points_for_answers(correct_count),
        reason=Reason.CHALLENGE_ANSWERS,
        correct_count=correct_count,
        occurred_at=completed_at,
    )


def cpu_match_entry(
    player_id: uuid.UUID, match_id: uuid.UUID, outcome: str, finished_at: datetime
) -> ProgressionEntry:
    """The points a finished CPU match earns (recorded even when it earns none)."""
    points, reason = _match_result(outcome)
    return ProgressionEntry(
        player_id=player_id,
        source_type=SourceType.MATCH,
        source_id=match_id,
        points=points,
        reason=reason,
        correct_count=None,
        occurred_at=finished_at,
    )
