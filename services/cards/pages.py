"""Cursor pages for the append-only histories (ledger entries, fair rolls): newest first,
the cursor is the position (``seq``) of the last item shown, opaque to clients."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from shared import pages

T = TypeVar("T")

MAX_PAGE = 100
DEFAULT_PAGE = 50


def after(cursor: str | None) -> int | None:
    """The ``seq`` a cursor stands for (items older than it come next); read where every
    cursor is (shared/pages.py: ASCII digits, within a bigint)."""
    return pages.sequence(cursor)


def page(
    rows: Sequence[T], limit: int, seq: Callable[[T], int], show: Callable[[T], Any]
) -> dict[str, Any]:
    """``rows`` fetched with ``limit + 1``: the page and the cursor of the next, if any."""
    shown = rows[:limit]
    more = len(rows) > limit
    return {
        "items": [show(row) for row in shown],
        "next": str(seq(shown[-1])) if more and shown else None,
    }
