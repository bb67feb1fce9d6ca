"""Injectable time and randomness: tests decide when time moves and what is rolled."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.clock import FixedClock, SystemClock
from shared.randomness import SeededRandomSource, SystemRandomSource

START = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)


def test_fixed_clock_does_not_move_by_itself():
    clock = FixedClock(START)

    assert clock.now() == START
    assert clock.now() == START


def test_fixed_clock_default_start_is_timezone_aware():
    assert FixedClock().now().tzinfo is not None


def test_fixed_clock_advances_by_exactly_what_it_is_told():
    clock = FixedClock(START)

    returned = clock.advance(90)

    assert returned == START + timedelta(seconds=90)
    assert clock.now() == START + timedelta(seconds=90)


def test_fixed_clock_advance_accepts_timedelta_keywords():
    clock = FixedClock(START)

    clock.advance(days=1, minutes=5)

    assert clock.now() == START + timedelta(days=1, minutes=5)


def test_fixed_clock_set_jumps_to_the_given_time():
    clock = FixedClock(START)
    later = START + timedelta(hours=3)

    clock.set(later)

    assert clock.now() == later


def test_fixed_clock_accepts_any_aware_timezone():
    plus_two = timezone(timedelta(hours=2))
    clock = FixedClock(datetime(2030, 1, 1, 14, 0, tzinfo=plus_two))

    assert clock.now() == datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def test_fixed_clock_refuses_a_naive_start():
    with pytest.raises(ValueError, match="timezone-aware"):
        FixedClock(datetime(2030, 1, 1))


def test_fixed_clock_refuses_to_be_set_to_a_naive_time_and_keeps_its_time():
    clock = FixedClock(START)

    with pytest.raises(ValueError, match="timezone-aware"):
        clock.set(datetime(2030, 1, 1))

    assert clock.now() == START


@given(steps=st.lists(st.integers(min_value=0, max_value=10**6), max_size=20))
def test_fixed_clock_total_advance_is_the_sum_of_the_steps(steps):
    clock = FixedClock(START)

    for step in steps:
        clock.advance(step)

    assert clock.now() == START + timedelta(seconds=sum(steps))


def test_system_clock_is_timezone_aware_utc():
    now = SystemClock().now()

    assert now.utcoffset() == timedelta(0)


def _draws(source):
    items = list(range(20))
    source.shuffle(items)
    return (
        [source.random() for _ in range(5)],
        [source.randrange(1000) for _ in range(5)],
        source.choice("abcdefghij"),
        source.sample(range(100), 7),
        items,
        source.seed_for_child(),
    )


@given(seed=st.integers(min_value=0, max_value=2**63))
def test_same_seed_gives_the_same_sequence(seed):
    assert _draws(SeededRandomSource(seed)) == _draws(SeededRandomSource(seed))


@given(
    seeds=st.lists(st.integers(min_value=0, max_value=2**63), min_size=2, max_size=2, unique=True)
)
def test_different_seeds_give_different_sequences(seeds):
    first, second = seeds

    assert _draws(SeededRandomSource(first)) != _draws(SeededRandomSource(second))


def test_seeded_source_values_are_in_range():
    source = SeededRandomSource(7)

    assert all(0.0 <= source.random() < 1.0 for _ in range(200))
    assert all(0 <= source.randrange(3) < 3 for _ in range(200))
    assert all(0 <= source.seed_for_child() < 2**63 for _ in range(200))


def test_sample_accepts_any_sequence_and_does_not_repeat():
    picked = SeededRandomSource(3).sample(("a", "b", "c", "d"), 4)

    assert sorted(picked) == ["a", "b", "c", "d"]


def test_system_source_refuses_to_be_seeded():
    with pytest.raises(TypeError):
        SystemRandomSource(42)  # type: ignore[call-arg]
