"""What TerraKard's e2e tests share: each test's own epoch on the battle service's clock.

The arena offers every player of the session's database who is eligible at the battle
clock's time. Each test's clock starts a month after the previous test's, so the players
of earlier tests (not seen for more than a week by then) are inactive and never offered:
a test sees its own players only."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from shared.clock import FixedClock

BASE = datetime(2026, 12, 1, 9, tzinfo=UTC)
SPACING = timedelta(days=30)  # more than any test moves its clock, plus the inactivity
_epochs = itertools.count()


def next_clock() -> FixedClock:
    return FixedClock(BASE + next(_epochs) * SPACING)
