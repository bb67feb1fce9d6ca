"""The reconnect rule's arithmetic (services/battle/presence.py, docs/quest-pvp.md,
"Reconnect", ours): a player disconnected for 90 seconds (exactly 90 counts) loses their
live match; connected, never; the match's start counts as a connection."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from services.battle.presence import RECONNECT_WINDOW, Presence, gone_too_long

START = datetime(2026, 12, 1, tzinfo=UTC)
TICK = timedelta(microseconds=1)


def test_connected_is_never_gone():
    assert not gone_too_long(Presence(True), START, START + timedelta(days=1))


def test_gone_from_the_last_close_exactly_90_seconds_counts():
    closed = START + timedelta(seconds=30)
    gone = Presence(False, closed)
    assert not gone_too_long(gone, START, closed + RECONNECT_WINDOW - TICK)
    assert gone_too_long(gone, START, closed + RECONNECT_WINDOW)


def test_never_connected_has_90_seconds_from_the_start():
    assert timedelta(seconds=90) == RECONNECT_WINDOW
    assert not gone_too_long(Presence(False), START, START + RECONNECT_WINDOW - TICK)
    assert gone_too_long(Presence(False), START, START + RECONNECT_WINDOW)


def test_a_close_before_the_match_counts_from_the_start():
    earlier = Presence(False, START - timedelta(hours=1))
    assert not gone_too_long(earlier, START, START + RECONNECT_WINDOW - TICK)
    assert gone_too_long(earlier, START, START + RECONNECT_WINDOW)
