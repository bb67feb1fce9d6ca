"""On the real PostgreSQL: a unit of work PostgreSQL rolled back for a deadlock or a
serialization failure runs again, and keeps nothing of the attempt that failed (issue 29).
"""

import random
import uuid

import eventlet
import pytest
from eventlet.event import Event
from sqlalchemy import func, select, text

from services.accounts.orm import plumbing as accounts_plumbing
from shared.clock import SystemClock
from shared.db import ConflictRetry, Database, make_engine, run_unit_of_work
from tests.integration.platform.test_outbox_and_inbox import outbox_row, registered_event

pytestmark = pytest.mark.integration

CONSUMER = "tests.transaction_conflicts"
SERIALIZATION_FAILURE = text(
    "DO $$ BEGIN RAISE EXCEPTION 'could not serialize access' "
    "USING ERRCODE = 'serialization_failure'; END $$"
)
NO_PAUSE = ConflictRetry(sleep=lambda seconds: None)


@pytest.fixture
def accounts_db(settings):
    engine = make_engine(settings.database_url_for("accounts"))
    yield Database(engine, accounts_plumbing, SystemClock().now)
    engine.dispose()


def test_a_retried_unit_of_work_keeps_only_its_last_attempts_events_and_inbox_record(
    accounts_db,
):
    message_id, written = uuid.uuid4(), []

    def work(uow):
        # The first attempt's inbox record went with its rollback: this one is first again.
        assert uow.first_delivery(message_id, CONSUMER)
        event = registered_event()
        uow.add_event(event)
        written.append(event)
        if len(written) == 1:
            uow.session.execute(SERIALIZATION_FAILURE)
        return event

    kept = run_unit_of_work(accounts_db.transaction, work, NO_PAUSE)

    assert len(written) == 2 and kept is written[1]
    assert outbox_row(accounts_db, written[0].event_id) is None
    assert outbox_row(accounts_db, written[1].event_id) is not None
    processed = accounts_db.plumbing.processed_messages
    with accounts_db.read() as session:
        records = session.execute(
            select(func.count()).where(
                processed.c.consumer == CONSUMER, processed.c.message_id == message_id
            )
        ).scalar_one()
    assert records == 1


def test_two_transactions_that_deadlock_both_commit_the_killed_one_on_its_retry(accounts_db):
    """Each takes one lock, waits until the other holds its own, then asks for the
    other's: PostgreSQL kills one (after ``deadlock_timeout``); run again, it waits for
    the survivor's commit and goes through."""
    first, second = random.sample(range(1, 2**31), 2)
    holding = (Event(), Event())
    attempts = [0, 0]

    def locker(me, mine, theirs):
        def work(uow):
            attempts[me] += 1
            uow.session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": mine})
            if attempts[me] == 1:
                holding[me].send()
                holding[1 - me].wait()
            uow.session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": theirs})
            return attempts[me]

        return run_unit_of_work(accounts_db.transaction, work, NO_PAUSE)

    lockers = [eventlet.spawn(locker, 0, first, second), eventlet.spawn(locker, 1, second, first)]

    assert sorted(thread.wait() for thread in lockers) == [1, 2]
