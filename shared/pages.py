"""Cursor pages over rows ordered newest first by (a time, an id): the cursor is the
position of the last row shown, ``<microseconds since the epoch>-<id in hex>``, opaque to
clients (docs/api.md, "Lists"). A keyset, not an offset: rows added meanwhile neither
shift nor repeat a page."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from shared.errors import InvalidInput

T = TypeVar("T")

MAX_PAGE = 100
DEFAULT_PAGE = 50
CURSOR_PATTERN = re.compile(r"(\d{1,19})-([0-9a-f]{32})")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

Position = tuple[datetime, uuid.UUID]


def cursor_of(at: datetime, row_id: uuid.UUID) -> str:
    micros = (at - EPOCH) // timedelta(microseconds=1)
    return f"{micros}-{row_id.hex}"


def position(cursor: str | None) -> Position | None:
    """The (time, id) a cursor stands for: rows before it come next."""
    if cursor is None:
        return None
    found = CURSOR_PATTERN.fullmatch(cursor)
    if found is None:
        raise InvalidInput("invalid_cursor", "this cursor was not given by this list")
    try:
        at = EPOCH + timedelta(microseconds=int(found.group(1)))
    except OverflowError:  # digits no row's time has (beyond the year 9999)
        raise InvalidInput("invalid_cursor", "this cursor was not given by this list") from None
    return at, uuid.UUID(hex=found.group(2))


def page(
    rows: Sequence[T],
    limit: int,
    position_of: Callable[[T], Position],
    show: Callable[[T], Any],
) -> dict[str, Any]:
    """``rows`` fetched with ``limit + 1``: ``{"items": [...], "next": cursor | None}``."""
    shown = rows[:limit]
    more = len(rows) > limit and bool(shown)
    return {
        "items": [show(row) for row in shown],
        "next": cursor_of(*position_of(shown[-1])) if more else None,
    }
