"""The test clock's pieces that need nothing running: the setting refused without
development sign-in, durations, and one worker's clock reading the offset once."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from gateway.server import main as gateway_main
from shared.clock import (
    OFFSET_REFRESH_SECONDS,
    FixedClock,
    OffsetClock,
    RefreshedOffset,
    format_duration,
    parse_duration,
)
from shared.clock_control import require_allowed
from shared.config import ConfigError, load_settings


def test_clock_control_without_development_sign_in_refuses_to_start():
    with pytest.raises(ConfigError, match="CLOCK_CONTROL=1 needs DEV_AUTH=1"):
        load_settings({"CLOCK_CONTROL": "1"})
    with pytest.raises(ConfigError, match="CLOCK_CONTROL=1 needs DEV_AUTH=1"):
        load_settings({"CLOCK_CONTROL": "1", "DEV_AUTH": "0"})
    # Production refuses DEV_AUTH, so it never has a test clock either.
    with pytest.raises(ConfigError):
        load_settings({"CLOCK_CONTROL": "1", "DEV_AUTH": "1", "DECKYARD_ENV": "production"})


def test_clock_control_is_off_unless_asked_for_with_development_sign_in():
    assert load_settings({}).clock_control is False
    assert load_settings({"DEV_AUTH": "1"}).clock_control is False
    assert load_settings({"DEV_AUTH": "1", "CLOCK_CONTROL": "1"}).clock_control is True


def test_a_gateway_with_clock_control_and_no_development_sign_in_does_not_start(monkeypatch):
    monkeypatch.setenv("CLOCK_CONTROL", "1")
    monkeypatch.setenv("DEV_AUTH", "")
    with pytest.raises(ConfigError, match="CLOCK_CONTROL"):
        gateway_main([])


def test_settings_built_without_load_settings_are_refused_too():
    settings = replace(load_settings({}), clock_control=True, dev_auth=False)
    with pytest.raises(ConfigError, match="CLOCK_CONTROL"):
        require_allowed(settings)
    require_allowed(replace(settings, dev_auth=True))  # allowed: no error


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("49h", timedelta(hours=49)),
        ("7d", timedelta(days=7)),
        ("1d2h30m", timedelta(days=1, hours=2, minutes=30)),
        (" 90S ", timedelta(seconds=90)),
    ],
)
def test_durations_read(text, expected):
    assert parse_duration(text) == expected
    assert parse_duration(format_duration(expected)) == expected


@pytest.mark.parametrize("text", ["", "0s", "0h0m", "-1h", "+1h", "1.5h", "1w", "h", "1h 2m"])
def test_a_duration_is_forward_only_and_whole(text):
    with pytest.raises(ValueError):
        parse_duration(text)


def test_a_worker_reads_the_offset_once_and_keeps_it():
    reads = []
    offsets = iter([timedelta(hours=1), timedelta(hours=50)])

    def read() -> timedelta:
        reads.append(1)
        return next(offsets)

    system = FixedClock(datetime(2026, 6, 1, tzinfo=UTC))
    worker = OffsetClock(read, system)
    assert reads == []  # a worker that never asks the time reads nothing
    assert worker.now() == datetime(2026, 6, 1, 1, tzinfo=UTC)
    system.advance(minutes=5)
    assert worker.now() == datetime(2026, 6, 1, 1, 5, tzinfo=UTC)  # no jump within a worker
    assert len(reads) == 1
    assert OffsetClock(read, system).now() == datetime(2026, 6, 3, 2, 5, tzinfo=UTC)  # the next


def test_a_process_copy_goes_stale_half_a_second_after_its_read_began_and_never_drops():
    monotonic = [100.0]
    copy = RefreshedOffset(lambda: monotonic[0])
    assert copy.stale()  # never read
    began = copy.began()
    monotonic[0] += 0.2  # the read took a while: its age counts from its start
    assert copy.store(timedelta(hours=49), began) == timedelta(hours=49)
    monotonic[0] = began + OFFSET_REFRESH_SECONDS - 0.01
    assert not copy.stale()
    monotonic[0] = began + OFFSET_REFRESH_SECONDS
    assert copy.stale()
    # A slow read that began earlier and brings an older value changes nothing.
    assert copy.store(timedelta(hours=1), began - 1) == timedelta(hours=49)
    assert copy.stale()
