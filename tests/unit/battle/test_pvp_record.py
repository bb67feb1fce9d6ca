"""The win/loss record of matches against players and its rule against farming
(services/battle/pvp_record.py, docs/quest-pvp.md "Progression")."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone

from services.battle.pvp_record import COUNTED_PER_PAIR_PER_DAY, Record, record

DAY = datetime(2026, 12, 1, tzinfo=UTC)
ALICE, BOB = uuid.uuid4(), uuid.uuid4()


def test_wins_and_every_other_result_count_as_such():
    results = [
        (ALICE, DAY, "victory"),
        (ALICE, DAY + timedelta(hours=1), "defeat"),
        (BOB, DAY, "forfeit"),
    ]
    assert record(results) == Record(wins=1, losses=2)


def test_only_the_first_three_results_against_one_player_in_a_utc_day_count():
    assert COUNTED_PER_PAIR_PER_DAY == 3
    same_day = [(ALICE, DAY + timedelta(hours=h), "victory") for h in range(5)]
    assert record(same_day) == Record(wins=3, uncounted=2)
    # Counted oldest first, whatever the order given: a late defeat is the uncounted one.
    mixed = [*same_day[:3], (ALICE, DAY + timedelta(hours=10), "defeat")]
    assert record(reversed(mixed)) == Record(wins=3, uncounted=1)
    # Another opponent, or the next UTC day, counts again.
    assert record([*same_day, (BOB, DAY, "victory")]) == Record(wins=4, uncounted=2)
    tomorrow = [(ALICE, DAY + timedelta(days=1, hours=h), "defeat") for h in range(3)]
    assert record([*same_day, *tomorrow]) == Record(wins=3, losses=3, uncounted=2)


def test_the_day_is_the_utc_day_whatever_the_offset_of_the_time_given():
    late = datetime(2026, 12, 1, 23, 30, tzinfo=UTC).astimezone(timezone(timedelta(hours=5)))
    early = datetime(2026, 12, 2, 0, 30, tzinfo=UTC)
    results = [(ALICE, late, "victory")] * 3 + [(ALICE, early, "victory")]
    assert record(results) == Record(wins=4)


def test_a_deleted_opponents_matches_count_as_one_pair():
    results = [(None, DAY + timedelta(minutes=m), "victory") for m in range(4)]
    assert record(results).to_dict() == {"wins": 3, "losses": 0, "uncounted": 1}
