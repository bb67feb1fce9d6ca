"""Players: who may play, the fact of registration, and their progression points."""

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
# rules/quest.txt, "Progression points": "The current application awards 10 permanent
# points per correct challenge answer, from 0 to 50. A CPU victory awards 25 points; a
# CPU loss awards none. [...] They cannot be spent." A forfeit counts as a loss
# (assumed). Achievements, streaks and standings are in "Player progression", a
# document we do not have; they are not built here.

POINTS_PER_CORRECT_ANSWER = 10
QUESTIONS_PER_ATTEMPT = 5  # rules/quest.txt: an attempt is 5 questions, so 0..50 points
CPU_VICTORY_POINTS = 25
CPU_LOSS_POINTS = 0

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


class MatchOutcome(StrEnum):
    VICTORY = "victory"
    DEFEAT = "defeat"
    FORFEIT = "forfeit"


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


def points_for_answers(correct_count: int) -> int:
    """10 points per correct answer of one attempt (0..5 correct: 0..50 points)."""
    if isinstance(correct_count, bool) or not 0 <= correct_count <= QUESTIONS_PER_ATTEMPT:
        raise InvalidInput(
            "invalid_correct_count", f"an attempt has 0..{QUESTIONS_PER_ATTEMPT} correct answers"
        )
    return POINTS_PER_CORRECT_ANSWER * correct_count


_MATCH_RESULTS = {
    MatchOutcome.VICTORY: (CPU_VICTORY_POINTS, Reason.CPU_VICTORY),
    MatchOutcome.DEFEAT: (CPU_LOSS_POINTS, Reason.CPU_DEFEAT),
    MatchOutcome.FORFEIT: (CPU_LOSS_POINTS, Reason.CPU_FORFEIT),
}


def points_for_cpu_match(outcome: str) -> int:
    """25 points for a CPU victory; none for a defeat or a forfeit."""
    return _match_result(outcome)[0]


def _match_result(outcome: str) -> tuple[int, Reason]:
    try:
        return _MATCH_RESULTS[MatchOutcome(outcome)]
    except ValueError as exc:
        raise InvalidInput("invalid_outcome", f"unknown match outcome {outcome!r}") from exc


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
