"""Players: who may play, the fact of registration, and their progression points."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from games.kit.progression import PointsTable
from games.quest.points import MatchOutcome, match_outcome
from services.accounts.games import POINTS_TABLES
from shared.content import Game
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
# Each game's points table is its package's (services/accounts/games.py: Quest's is
# games/quest/points.py); accounts keeps one ledger, each entry with its game.

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
    game: str = Game.QUEST


@dataclass(frozen=True)
class Progression:
    player_id: uuid.UUID
    points: int
    entries: list[ProgressionEntry]  # newest first


def points_table(game: str) -> PointsTable:
    table = POINTS_TABLES.get(game)
    if table is None:
        raise InvalidInput("unknown_game", f"no points are kept for the game {game!r}")
    return table


@refusals_as(InvalidInput)
def points_for_answers(correct_count: int, game: str = Game.QUEST) -> int:
    """The points of one attempt's correct answers (Quest: 10 each, 0..50)."""
    return points_table(game).for_answers(correct_count)


_MATCH_REASONS = {
    MatchOutcome.VICTORY: Reason.CPU_VICTORY,
    MatchOutcome.DEFEAT: Reason.CPU_DEFEAT,
    MatchOutcome.FORFEIT: Reason.CPU_FORFEIT,
}


def points_for_cpu_match(outcome: str, game: str = Game.QUEST) -> int:
    """Quest: 25 points for a CPU victory; none for a defeat or a forfeit."""
    return _match_result(outcome, game)[0]


@refusals_as(InvalidInput)
def _match_result(outcome: str, game: str) -> tuple[int, Reason]:
    # The outcomes (victory, defeat, forfeit) and their reasons are the platform's CPU
    # match results; what each is worth is the game's.
    points = points_table(game).for_cpu_match(outcome)
    return points, _MATCH_REASONS[match_outcome(outcome)]


def attempt_entry(
    player_id: uuid.UUID,
    attempt_id: uuid.UUID,
    correct_count: int,
    completed_at: datetime,
    game: str = Game.QUEST,
) -> ProgressionEntry:
    """The points a completed attempt earns in its game."""
    return ProgressionEntry(
        player_id=player_id,
        source_type=SourceType.ATTEMPT,
        source_id=attempt_id,
        points=points_for_answers(correct_count, game),
        reason=Reason.CHALLENGE_ANSWERS,
        correct_count=correct_count,
        occurred_at=completed_at,
        game=game,
    )


def cpu_match_entry(
    player_id: uuid.UUID,
    match_id: uuid.UUID,
    outcome: str,
    finished_at: datetime,
    game: str = Game.QUEST,
) -> ProgressionEntry:
    """The points a finished CPU match earns in its game (recorded even when it earns
    none). ``game`` defaults to Quest: MatchFinished v1 was Quest's only."""
    points, reason = _match_result(outcome, game)
    return ProgressionEntry(
        player_id=player_id,
        source_type=SourceType.MATCH,
        source_id=match_id,
        points=points,
        reason=reason,
        correct_count=None,
        occurred_at=finished_at,
        game=game,
    )
