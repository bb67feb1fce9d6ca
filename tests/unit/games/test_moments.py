"""``games.kit.moments`` gives exactly what ``datetime`` gives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from games.kit.moments import iso, later

ZONES = [
    UTC,
    timezone(timedelta(hours=2)),
    timezone(-timedelta(hours=5, minutes=30)),
    timezone(timedelta(minutes=7, seconds=3)),
    timezone(timedelta(seconds=1, microseconds=5)),
    ZoneInfo("Europe/Paris"),
    None,
]
MOMENTS = [
    (2026, 12, 1, 0, 0, 0, 0),
    (2026, 3, 29, 1, 59, 59, 999_999),
    (999, 1, 2, 3, 4, 5, 6),
    (1, 1, 1, 0, 0, 0, 10),
    (9999, 12, 31, 23, 59, 59, 0),
]


@pytest.mark.parametrize("zone", ZONES, ids=str)
@pytest.mark.parametrize("fields", MOMENTS, ids=str)
def test_iso_is_isoformat(zone, fields):
    moment = datetime(*fields, tzinfo=zone)
    assert iso(moment) == moment.isoformat()
    assert iso(moment) == moment.isoformat()  # the kept suffix too


@pytest.mark.parametrize("seconds", [0, 1, 15, 20, 30, 86_401, -3])
def test_later_is_a_timedelta_of_seconds(seconds):
    moment = datetime(2026, 5, 1, 12, tzinfo=UTC)
    assert later(moment, seconds) == moment + timedelta(seconds=seconds)
    assert later(moment, seconds) == moment + timedelta(seconds=seconds)
