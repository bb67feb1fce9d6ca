"""Quest's progression points (rulebook: "Progression points").

"The current application awards 10 permanent points per correct challenge
answer, from 0 to 50. A CPU victory awards 25 points; a CPU loss awards none.
[...] They cannot be spent." A forfeit counts as a loss (assumed).
Achievements, streaks and standings are in "Player progression", a document
we do not have; they are not built. Accounts keeps the ledger.
"""

from __future__ import annotations

from enum import StrEnum

from games.kit.progression import PointsTable
from games.kit.refusal import Refusal

POINTS_PER_CORRECT_ANSWER = 10
QUESTIONS_PER_ATTEMPT = 5  # rulebook: an attempt is 5 questions, so 0..50 points
CPU_VICTORY_POINTS = 25
CPU_LOSS_POINTS = 0


class MatchOutcome(StrEnum):
    VICTORY = "victory"
    DEFEAT = "defeat"
    FORFEIT = "forfeit"


_MATCH_POINTS = {
    MatchOutcome.VICTORY: CPU_VICTORY_POINTS,
    MatchOutcome.DEFEAT: CPU_LOSS_POINTS,
    MatchOutcome.FORFEIT: CPU_LOSS_POINTS,
}


def points_for_answers(correct_count: object) -> int:
    """10 points per correct answer of one attempt (0..5 correct: 0..50 points).

    ``object``, not ``int``: compiled (mypyc), an ``int`` parameter turns ``True`` into 1
    before the body could refuse it."""
    if (
        isinstance(correct_count, bool)
        or not isinstance(correct_count, int)
        or not 0 <= correct_count <= QUESTIONS_PER_ATTEMPT
    ):
        raise Refusal(
            "invalid_correct_count", f"an attempt has 0..{QUESTIONS_PER_ATTEMPT} correct answers"
        )
    return POINTS_PER_CORRECT_ANSWER * correct_count


def match_outcome(outcome: str) -> MatchOutcome:
    try:
        return MatchOutcome(outcome)
    except ValueError as exc:
        raise Refusal("invalid_outcome", f"unknown match outcome {outcome!r}") from exc


def points_for_cpu_match(outcome: str) -> int:
    """25 points for a CPU victory; none for a defeat or a forfeit."""
    return _MATCH_POINTS[match_outcome(outcome)]


QUEST_POINTS = PointsTable("quest", points_for_answers, points_for_cpu_match)
