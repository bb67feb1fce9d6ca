"""Injectable time. Services ask a Clock; tests move a FixedClock; a test stack
(``CLOCK_CONTROL=1``) gives each worker an OffsetClock."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        start = start or datetime(2026, 1, 1, tzinfo=UTC)
        if start.tzinfo is None:
            raise ValueError("FixedClock needs a timezone-aware start")
        self._now = start

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        if when.tzinfo is None:
            raise ValueError("FixedClock needs a timezone-aware time")
        self._now = when

    def advance(self, seconds: float = 0, **delta: float) -> datetime:
        self._now = self._now + timedelta(seconds=seconds, **delta)
        return self._now


# A process's copy of the test clock's offset is read again once it is this old (counted
# from when its read began); an advance returns this long after its commit, so once it
# has returned every process answers on the new time (shared/clock_control.py).
OFFSET_REFRESH_SECONDS = 0.5


class RefreshedOffset:
    """One process's copy of the test clock's offset: stale ``OFFSET_REFRESH_SECONDS``
    after the read that brought it began; never lowered (the offset only grows, so an
    older answer arriving late changes nothing)."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self.value = timedelta()
        self._read_began: float | None = None

    def stale(self) -> bool:
        began = self._read_began
        return began is None or self._monotonic() - began >= OFFSET_REFRESH_SECONDS

    def began(self) -> float:
        """Call before reading; give the result to ``store``."""
        return self._monotonic()

    def store(self, value: timedelta, began: float) -> timedelta:
        self.value = max(self.value, value)
        self._read_began = max(self._read_began or began, began)
        return self.value


class OffsetClock:
    """The test clock of one worker: the system's time plus the offset, taken at the first
    ``now()`` and kept, so one worker never sees time jump within itself."""

    def __init__(self, read_offset: Callable[[], timedelta], system: Clock | None = None) -> None:
        self._read_offset = read_offset
        self._system = system or SystemClock()
        self._offset: timedelta | None = None

    def now(self) -> datetime:
        if self._offset is None:
            self._offset = self._read_offset()
        return self._system.now() + self._offset


_DURATION_PART = re.compile(r"(\d+)([dhms])")
_UNITS = {"d": "days", "h": "hours", "m": "minutes", "s": "seconds"}


def parse_duration(text: str) -> timedelta:
    """``"49h"``, ``"7d"``, ``"1d2h30m"``, ``"90s"`` -> a positive timedelta; anything
    else (a sign, a fraction, zero, another unit) raises ValueError."""
    cleaned = text.strip().lower()
    parts = _DURATION_PART.findall(cleaned)
    if not parts or "".join(n + u for n, u in parts) != cleaned:
        raise ValueError(f"a duration such as 49h, 7d or 1d2h30m, not {text!r}")
    duration = sum((timedelta(**{_UNITS[u]: int(n)}) for n, u in parts), timedelta())
    if duration <= timedelta():
        raise ValueError(f"a duration above zero, not {text!r}")
    return duration


def format_duration(duration: timedelta) -> str:
    """Whole seconds as ``parse_duration`` reads them: ``2d1h``, ``0s``."""
    seconds = int(duration.total_seconds())
    out = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        count, seconds = divmod(seconds, size)
        if count:
            out.append(f"{count}{unit}")
    return "".join(out) or "0s"
