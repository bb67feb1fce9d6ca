"""The win/loss record of matches against players, and the rule against farming it.

Ours (docs/quest-pvp.md, "Progression"): a finished match counts in a player's record only
if it is among the first ``COUNTED_PER_PAIR_PER_DAY`` matches that the same two players
finished that UTC day; later ones stay in the history but count for neither. Two accounts
playing each other on purpose thus gain at most that many results a day from it. Both
players count the same matches (the pair and the day are the same for both). A deleted
opponent's matches count as one pair ("Deleted player"). Pure: no I/O, no clock.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime

COUNTED_PER_PAIR_PER_DAY = 3  # ours
WIN = "victory"


@dataclass(frozen=True)
class Record:
    wins: int = 0
    losses: int = 0
    uncounted: int = 0  # finished matches beyond the daily cap for their pair

    def to_dict(self) -> dict[str, int]:
        return {"wins": self.wins, "losses": self.losses, "uncounted": self.uncounted}


Result = tuple[uuid.UUID | None, datetime, str | None]  # opponent, finished at, own result


def record(results: Iterable[Result], cap: int = COUNTED_PER_PAIR_PER_DAY) -> Record:
    """The record from one player's finished matches (any order: counted oldest first)."""
    seen: Counter[tuple[uuid.UUID | None, date]] = Counter()
    wins = losses = uncounted = 0
    for opponent, finished_at, result in sorted(results, key=lambda r: r[1]):
        pair_day = (opponent, finished_at.astimezone(UTC).date())
        seen[pair_day] += 1
        if seen[pair_day] > cap:
            uncounted += 1
        elif result == WIN:
            wins += 1
        else:  # defeat, forfeit, a missed window
            losses += 1
    return Record(wins, losses, uncounted)
