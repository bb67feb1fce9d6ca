"""Cursor pages over rows ordered newest first by (a time, an id): the cursor is the
position of the last row shown, ``<microseconds since the epoch>-<id in hex>``, opaque to
clients (docs/api.md, "Lists"). A keyset, not an offset: rows added meanwhile neither
shift nor repeat a page. The append-only histories (ledger, fair rolls) page by their
``seq`` instead: ``sequence`` reads those cursors.

Every cursor is read here, and only ASCII digits are digits: Python's ``\\d`` and
``str.isdigit`` also take other scripts' (``١٢٣``) and superscripts (``²``, which
``int`` then refuses), and a number past PostgreSQL's bigint fails the query. Each is
``422 invalid_cursor``, never a 500 nor an empty page."""

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
CURSOR_PATTERN = re.compile(r"([0-9]{1,19})-([0-9a-f]{32})")
SEQUENCE_PATTERN = re.compile(r"[0-9]{1,19}")
BIGINT_MAX = 2**63 - 1  # PostgreSQL's bigint, the type of every ``seq``
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
        raise _not_given()
    try:
        at = EPOCH + timedelta(microseconds=int(found.group(1)))
    except OverflowError:  # digits no row's time has (beyond the year 9999)
        raise _not_given() from None
    return at, uuid.UUID(hex=found.group(2))


def sequence(cursor: str | None) -> int | None:
    """The ``seq`` a history's cursor stands for (items older than it come next): a
    number a bigint holds, so the query never fails on it."""
    if cursor is None:
        return None
    if SEQUENCE_PATTERN.fullmatch(cursor) is None or int(cursor) > BIGINT_MAX:
        raise _not_given()
    return int(cursor)


def _not_given() -> InvalidInput:
    return InvalidInput("invalid_cursor", "this cursor was not given by this list")


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
