"""Attempt time limit by average difficulty, and on-time answers (rulebook "Questions and
timing"; "Answers, expiry, and feedback")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.challenge.domain.timing import on_time, time_limit

DEADLINE = datetime(2030, 5, 1, 12, 1, 30, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)
LIMITS = {timedelta(seconds=90), timedelta(seconds=120), timedelta(seconds=150)}

five_difficulties = st.lists(st.integers(1, 3), min_size=5, max_size=5)


@pytest.mark.parametrize(
    ("difficulties", "seconds"),
    [
        ([1, 1, 1, 1, 1], 90),  # average 1.0
        ([1, 1, 1, 2, 2], 90),  # average 1.4
        ([1, 1, 2, 1, 2, 2], 90),  # average exactly 1.5 (six questions)
        ([1, 2], 90),  # average exactly 1.5
        ([1, 1, 2, 2, 2], 120),  # average 1.6: just above 1.5
        ([2, 2, 2, 2, 2], 120),  # average 2.0
        ([2, 3], 120),  # average exactly 2.5
        ([2, 2, 3, 3, 3, 2], 120),  # average exactly 2.5 (six questions)
        ([2, 2, 3, 3, 3], 150),  # average 2.6: just above 2.5
        ([3, 3, 3, 3, 3], 150),  # average 3.0
    ],
)
def test_time_limit_by_average_difficulty(difficulties, seconds):
    assert time_limit(difficulties) == timedelta(seconds=seconds)


def test_average_of_exactly_one_and_a_half_gets_90_seconds():
    assert time_limit([1, 2, 1, 2]) == timedelta(seconds=90)


def test_average_just_above_one_and_a_half_gets_120_seconds():
    assert time_limit([1, 1, 2, 2, 2]) == timedelta(seconds=120)


def test_average_of_exactly_two_and_a_half_gets_120_seconds():
    assert time_limit([2, 3, 2, 3]) == timedelta(seconds=120)


def test_average_of_two_point_six_gets_150_seconds():
    assert time_limit([2, 2, 3, 3, 3]) == timedelta(seconds=150)


def test_all_easy_questions_get_90_seconds_and_all_hard_ones_150():
    assert time_limit([1] * 5) == timedelta(seconds=90)
    assert time_limit([3] * 5) == timedelta(seconds=150)


def test_no_questions_has_no_time_limit():
    with pytest.raises(ValueError):
        time_limit([])


@given(five_difficulties)
def test_time_limit_is_always_90_120_or_150_seconds(difficulties):
    assert time_limit(difficulties) in LIMITS


@given(five_difficulties, five_difficulties)
def test_time_limit_is_monotonic_in_the_sum_of_five_difficulties(a, b):
    if sum(a) <= sum(b):
        assert time_limit(a) <= time_limit(b)
    else:
        assert time_limit(a) >= time_limit(b)


@given(five_difficulties)
def test_time_limit_of_five_depends_only_on_the_sum_thresholds(difficulties):
    total = sum(difficulties)  # 5 questions: average <= 1.5 <=> sum <= 7.5
    expected = 90 if total <= 7 else 120 if total <= 12 else 150
    assert time_limit(difficulties) == timedelta(seconds=expected)


@given(five_difficulties, st.permutations(range(5)))
def test_time_limit_does_not_depend_on_question_order(difficulties, order):
    assert time_limit([difficulties[i] for i in order]) == time_limit(difficulties)


def test_answer_one_microsecond_before_the_deadline_is_on_time():
    assert on_time(DEADLINE - MICROSECOND, DEADLINE) is True


def test_answer_exactly_at_the_deadline_is_late():
    assert on_time(DEADLINE, DEADLINE) is False


def test_answer_after_the_deadline_is_late():
    assert on_time(DEADLINE + MICROSECOND, DEADLINE) is False
    assert on_time(DEADLINE + timedelta(hours=1), DEADLINE) is False


@given(st.datetimes(timezones=st.just(UTC)))
def test_on_time_means_strictly_before_the_deadline(received_at):
    assert on_time(received_at, DEADLINE) == (received_at < DEADLINE)
