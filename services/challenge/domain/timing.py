"""How long an attempt lasts, and when an answer is on time (rulebook: "Questions and timing")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from fractions import Fraction


def time_limit(difficulties: Sequence[int]) -> timedelta:
    """By the average difficulty: at most 1.5 -> 90 s; up to 2.5 -> 120 s; above -> 150 s.

    Exact fractions, so an average of exactly 1.5 or 2.5 falls on the right side.
    """
    if not difficulties:
        raise ValueError("an attempt has questions")
    average = Fraction(sum(difficulties), len(difficulties))
    if average <= Fraction(3, 2):
        return timedelta(seconds=90)
    if average <= Fraction(5, 2):
        return timedelta(seconds=120)
    return timedelta(seconds=150)


def on_time(received_at: datetime, deadline: datetime) -> bool:
    """Strictly before the deadline: an answer received exactly at it is late."""
    return received_at < deadline
