"""``moments.iso`` writes exactly what ``datetime.isoformat`` writes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from games.quest.moments import iso

ZONES = (
    UTC,
    timezone(timedelta(hours=5, minutes=30)),
    timezone(-timedelta(hours=3, seconds=7)),
    timezone(timedelta(minutes=1, microseconds=250)),
    ZoneInfo("Europe/Paris"),
    None,
)
MOMENTS = (
    (2026, 12, 1, 0, 0, 0, 0),
    (2026, 3, 29, 1, 59, 59, 999999),
    (1, 1, 1, 0, 0, 0, 1),
    (999, 7, 4, 23, 5, 9, 120000),
    (9999, 12, 31, 23, 59, 59, 999999),
    (2024, 2, 29, 12, 30, 45, 500),
)


@pytest.mark.parametrize("zone", ZONES, ids=str)
@pytest.mark.parametrize("fields", MOMENTS, ids=str)
def test_iso_is_isoformat(zone: timezone | ZoneInfo | None, fields: tuple[int, ...]) -> None:
    moment = datetime(*fields, tzinfo=zone)
    assert iso(moment) == moment.isoformat()
    assert iso(moment) == moment.isoformat()  # the cached suffix, second time


def test_iso_of_a_deadline_across_a_day() -> None:
    start = datetime(2026, 12, 31, 23, 58, 30, tzinfo=UTC)
    for seconds in range(0, 200, 7):
        moment = start + timedelta(seconds=seconds, microseconds=seconds * 1001)
        assert iso(moment) == moment.isoformat()
