"""A deadlock or a serialization failure runs the unit of work again; past the bound, a 503.

Issue 29, item 3a: two retirements that deadlocked answered 500 ``internal_error``. The
rule is shared/db.py's: ``Database.transaction`` turns the two SQLSTATEs into
``TransactionConflict`` and ``run_unit_of_work`` runs the whole unit of work again, a
few times, after a jittered pause. These tests drive it with a fake unit of work.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg.errors
import pytest
from nameko.exceptions import deserialize, serialize
from sqlalchemy import exc as sa_exc

from shared.db import (
    CONFLICT_RETRY,
    ConflictRetry,
    conflicts_as_transaction_conflict,
    run_unit_of_work,
    transaction_conflict,
)
from shared.errors import Conflict, ServiceUnavailable, TransactionConflict


def db_error(cause: Exception) -> sa_exc.DBAPIError:
    """What SQLAlchemy raises for a statement the server failed with ``cause``."""
    return sa_exc.OperationalError("SELECT ... FOR SHARE", {}, cause)


DEADLOCK = psycopg.errors.DeadlockDetected("deadlock detected")
SERIALIZATION = psycopg.errors.SerializationFailure("could not serialize access")


class Units:
    """Opens fake units of work and remembers how each ended."""

    def __init__(self) -> None:
        self.ended: list[str] = []

    @contextmanager
    def open(self) -> Iterator[int]:
        number = len(self.ended) + 1
        self.ended.append("open")
        try:
            yield number
        except BaseException:
            self.ended[number - 1] = "rolled back"
            raise
        self.ended[number - 1] = "committed"


class Pauses:
    """The injected sleep: records each pause instead of waiting."""

    def __init__(self) -> None:
        self.taken: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.taken.append(seconds)


def retry(pauses: Pauses, attempts: int = 4, draw: float = 0.5) -> ConflictRetry:
    return ConflictRetry(attempts=attempts, random=lambda: draw, sleep=pauses)


def conflict() -> TransactionConflict:
    return TransactionConflict("transaction_conflict", "met a concurrent change")


@pytest.mark.parametrize("cause", [DEADLOCK, SERIALIZATION], ids=["deadlock", "serialization"])
def test_a_deadlock_or_a_serialization_failure_becomes_a_503_transaction_conflict(cause):
    with pytest.raises(TransactionConflict) as raised, conflicts_as_transaction_conflict():
        raise db_error(cause)
    assert isinstance(raised.value, ServiceUnavailable)
    assert (raised.value.status, raised.value.code) == (503, "transaction_conflict")
    assert raised.value.__cause__ is not None  # the server's error stays in the log


@pytest.mark.parametrize(
    "error",
    [
        db_error(psycopg.errors.UniqueViolation("duplicate key")),
        sa_exc.OperationalError("SELECT 1", {}, psycopg.errors.QueryCanceled("timeout")),
        ValueError("a bug"),
    ],
    ids=["unique violation", "statement timeout", "not a database error"],
)
def test_other_errors_pass_through_unchanged(error):
    with pytest.raises(type(error)) as raised, conflicts_as_transaction_conflict():
        raise error
    assert raised.value is error
    assert not transaction_conflict(error)


def test_a_conflict_runs_the_whole_unit_of_work_again_in_a_new_one():
    units, pauses, seen = Units(), Pauses(), []

    def work(uow: int) -> str:
        seen.append(uow)
        if uow < 3:
            raise conflict()
        return f"done in unit {uow}"

    assert run_unit_of_work(units.open, work, retry(pauses)) == "done in unit 3"
    assert seen == [1, 2, 3]  # the work itself ran again, each time in a fresh unit
    assert units.ended == ["rolled back", "rolled back", "committed"]
    assert len(pauses.taken) == 2


def test_past_the_bound_the_conflict_is_answered_503_and_nothing_committed():
    units, pauses = Units(), Pauses()

    def work(uow: int) -> None:
        raise conflict()

    with pytest.raises(TransactionConflict) as raised:
        run_unit_of_work(units.open, work, retry(pauses, attempts=3))
    assert raised.value.code == "transaction_conflict"
    assert units.ended == ["rolled back"] * 3
    assert len(pauses.taken) == 2  # no pause after the last attempt


@pytest.mark.parametrize(
    "error",
    [
        Conflict("question_in_use", "a refusal is an answer, not a conflict"),
        ServiceUnavailable("database_unavailable", "a failed COMMIT's outcome is unknown"),
        db_error(psycopg.errors.UniqueViolation("duplicate key")),
        RuntimeError("a bug"),
    ],
    ids=["refusal", "database away", "other database error", "bug"],
)
def test_other_errors_are_not_retried(error):
    units, pauses, runs = Units(), Pauses(), []

    def work(uow: int) -> None:
        runs.append(uow)
        raise error

    with pytest.raises(type(error)):
        run_unit_of_work(units.open, work, retry(pauses))
    assert runs == [1]
    assert pauses.taken == []


def test_pauses_are_jittered_below_a_doubling_cap_and_small_in_all():
    pauses = Pauses()
    policy = ConflictRetry(attempts=6, first_pause=0.01, max_pause=0.05, sleep=pauses)
    caps = [0.01, 0.02, 0.04, 0.05, 0.05]
    assert [ConflictRetry(random=lambda: 0.5).pause(n) for n in range(3)] == [
        0.005,
        0.01,
        0.02,
    ]
    for _ in range(50):  # the operating system's generator: any draw stays under its cap
        drawn = [policy.pause(n) for n in range(5)]
        assert all(0 <= d < cap for d, cap in zip(drawn, caps, strict=True))
    worst = sum(min(CONFLICT_RETRY.max_pause, CONFLICT_RETRY.first_pause * 2**n) for n in range(3))
    assert CONFLICT_RETRY.attempts == 4 and worst == pytest.approx(0.07)


def test_the_pauses_come_from_the_injected_random_source():
    pauses = Pauses()

    def work(uow: int) -> None:
        raise conflict()

    with pytest.raises(TransactionConflict):
        run_unit_of_work(Units().open, work, retry(pauses, attempts=3, draw=0.25))
    assert pauses.taken == [0.0025, 0.005]


def test_a_unit_of_work_runs_at_least_once():
    with pytest.raises(ValueError):
        ConflictRetry(attempts=0)


def test_a_transaction_conflict_crosses_rpc_as_itself():
    wire = json.loads(json.dumps(serialize(conflict())))
    arrived = deserialize(wire)
    assert type(arrived) is TransactionConflict
    assert (arrived.status, arrived.code) == (503, "transaction_conflict")
