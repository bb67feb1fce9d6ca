"""The test clock (``CLOCK_CONTROL=1``, a test stack only): every process's time is the
system's plus one offset, which only grows.

The offset is one row of the accounts database (``test_clock``, accounts' migration
0005): a restarted process reads it again, so its time never goes back, and the
advance is one committed UPDATE, ``offset + n`` with ``n > 0``, so two advances at once
both count and the offset is monotonic whatever the callers do.

Every process keeps a copy of the offset and reads it again once the copy is
``OFFSET_REFRESH_SECONDS`` (0.5 s) old, counted from when its read began; an advance
commits, then waits that long before it returns. So once ``clock_advance`` has returned,
no process holds a copy read before the commit: every answer from then on, in every
service and replica and the gateway, and every sweeper's next run, is on the new time,
with nothing to notify and no list of processes to wait for. A worker takes the offset
at its first ``now()`` and keeps it (no jump within one worker). The cost on a test
stack: one primary-key read per process every half second at most, and half a second
per advance (docs/operations.md, "Test clock"). The accounts service answers
``clock_show`` and ``clock_advance`` for the gateway's ``/internal/clock`` and
``deckyard clock``.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

from nameko.extensions import DependencyProvider
from sqlalchemy import BigInteger, Column, DateTime, MetaData, SmallInteger, Table, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.engine import Engine

from shared.clock import (
    OFFSET_REFRESH_SECONDS,
    OffsetClock,
    RefreshedOffset,
    SystemClock,
    format_duration,
    parse_duration,
)
from shared.config import ConfigError, Settings, settings_from_nameko_config
from shared.db import make_engine
from shared.errors import InvalidInput, NotFound
from shared.rpc import rpc

OWNER = "accounts"  # the service whose database holds the row
ROW_ID = 1


def clock_table(metadata: MetaData) -> Table:
    """The test clock's one row, in ``metadata`` (accounts': services/accounts/orm.py)."""
    return Table(
        "test_clock",
        metadata,
        Column("id", SmallInteger, primary_key=True, autoincrement=False),  # the one row: 1
        Column("offset_seconds", BigInteger, nullable=False),
        Column("advanced_at", DateTime(timezone=True), nullable=False),  # real time
    )


TEST_CLOCK = clock_table(MetaData())


def require_allowed(settings: Settings) -> None:
    """``load_settings`` refuses CLOCK_CONTROL without DEV_AUTH; this holds for Settings
    built another way too (a process refuses to start rather than run so)."""
    if settings.clock_control and not settings.dev_auth:
        raise ConfigError("CLOCK_CONTROL=1 needs DEV_AUTH=1 (a test stack, never production)")


class ClockOffsets:
    """The offset row, read and advanced through a small pool of its own."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.copy = RefreshedOffset()

    @classmethod
    def for_settings(cls, settings: Settings) -> ClockOffsets:
        require_allowed(settings)
        return cls(make_engine(settings.database_url_for(OWNER), pool_size=2))

    def read(self) -> timedelta:
        with self.engine.connect() as conn:
            seconds = conn.execute(
                select(TEST_CLOCK.c.offset_seconds).where(TEST_CLOCK.c.id == ROW_ID)
            ).scalar()
        return timedelta(seconds=seconds or 0)

    def advance(self, by: timedelta) -> timedelta:
        """Add ``by`` (whole seconds, above zero) and return the new offset."""
        seconds = int(by.total_seconds())
        if seconds <= 0 or by != timedelta(seconds=seconds):
            raise ValueError("the test clock moves forward only, by whole seconds")
        first = insert(TEST_CLOCK).values(
            id=ROW_ID, offset_seconds=seconds, advanced_at=datetime.now(UTC)
        )
        upsert = first.on_conflict_do_update(
            index_elements=[TEST_CLOCK.c.id],
            set_={
                "offset_seconds": TEST_CLOCK.c.offset_seconds + seconds,
                "advanced_at": first.excluded.advanced_at,
            },
        ).returning(TEST_CLOCK.c.offset_seconds)
        with self.engine.begin() as conn:
            total = conn.execute(upsert).scalar_one()
        # Every process's copy read before the commit goes stale meanwhile (eventlet's
        # sleep in a service: only this worker waits).
        time.sleep(OFFSET_REFRESH_SECONDS)
        return timedelta(seconds=total)

    def current(self) -> timedelta:
        """This process's copy, read again when stale."""
        if not self.copy.stale():
            return self.copy.value
        began = self.copy.began()
        return self.copy.store(self.read(), began)

    def clock(self) -> OffsetClock:
        return OffsetClock(self.current)

    def dispose(self) -> None:
        self.engine.dispose()


def clock_view(offset: timedelta, real_now: datetime | None = None) -> dict[str, Any]:
    """What ``clock_show`` answers: the offset and the stack's time now."""
    real_now = real_now or SystemClock().now()
    return {
        "offset_seconds": int(offset.total_seconds()),
        "offset": format_duration(offset),
        "now": (real_now + offset).isoformat(),
        "real_now": real_now.isoformat(),
    }


class ClockOffsetsProvider(DependencyProvider):  # type: ignore[misc]
    """The offset row for the accounts service's clock RPCs; None unless CLOCK_CONTROL=1."""

    def setup(self) -> None:
        settings = settings_from_nameko_config(self.container.config)
        self.offsets = ClockOffsets.for_settings(settings) if settings.clock_control else None

    def stop(self) -> None:
        if self.offsets is not None:
            self.offsets.dispose()

    def kill(self) -> None:
        self.stop()

    def get_dependency(self, worker_ctx: Any) -> ClockOffsets | None:
        return self.offsets


def _enabled(offsets: ClockOffsets | None) -> ClockOffsets:
    if offsets is None:  # as if the RPC were not there: the stack's time is real
        raise NotFound("route_not_found", "The test clock is off (CLOCK_CONTROL is not set).")
    return offsets


class ClockControlEndpoints:
    """The test clock's RPCs, mixed into the service that owns the row (accounts)."""

    clock_offsets = ClockOffsetsProvider()

    @rpc
    def clock_show(self) -> dict[str, Any]:
        """-> ``{"offset_seconds": 176400, "offset": "2d1h", "now": "...", "real_now": "..."}``"""
        return clock_view(_enabled(self.clock_offsets).read())

    @rpc
    def clock_advance(self, by: str) -> dict[str, Any]:
        """``{"by": "49h"}`` -> the new offset, as ``clock_show``. Only forward."""
        offsets = _enabled(self.clock_offsets)
        try:
            duration = parse_duration(by) if isinstance(by, str) else None
        except ValueError as exc:
            raise InvalidInput("validation_failed", str(exc), {"by": [str(exc)]}) from exc
        if duration is None:
            raise InvalidInput("validation_failed", "by: a duration such as 49h", {"by": ["text"]})
        return clock_view(offsets.advance(duration))
