"""A database that goes away is a 503 ``database_unavailable``, and the pool recovers.

Found by the fault runner (bench/faults/): while PostgreSQL restarted, every
request that needed it was an unhandled ``OperationalError``, so a 500
``internal_error`` with a traceback in the gateway's log. The server dropping a
pooled connection (``pg_terminate_backend``, as a restart does to all of them)
stands in for the restart here: the shared server is never restarted by a test.
"""

import dataclasses
import uuid

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError, ProgrammingError

from services.accounts.orm import plumbing
from shared.clock import SystemClock
from shared.db import Database, make_engine, pipelined
from shared.errors import ServiceUnavailable

pytestmark = pytest.mark.integration


@pytest.fixture
def database(settings):
    engine = make_engine(settings.database_url_for("accounts"), pool_size=1)
    yield Database(engine, plumbing, SystemClock().now)
    engine.dispose()


def backend_pid(database):
    with database.read() as session:
        return session.execute(text("SELECT pg_backend_pid()")).scalar_one()


def terminate(settings, pid):
    url = settings.database_url_for("accounts").set(drivername="postgresql")
    with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_dropped_connection_is_one_503_then_the_pool_opens_a_fresh_one(database, settings):
    first = backend_pid(database)
    terminate(settings, first)

    with pytest.raises(ServiceUnavailable) as raised, database.transaction() as uow:
        uow.session.execute(text("SELECT 1"))
    assert raised.value.code == "database_unavailable"
    assert raised.value.status == 503

    assert backend_pid(database) != first  # no manual action: the next request works
    with database.transaction() as uow:
        assert uow.session.execute(text("SELECT 1")).scalar_one() == 1


def test_reads_and_autocommit_reads_say_503_too(database, settings):
    terminate(settings, backend_pid(database))
    with pytest.raises(ServiceUnavailable), database.read() as session:
        session.execute(text("SELECT 1"))
    terminate(settings, backend_pid(database))
    with pytest.raises(ServiceUnavailable), database.autocommit() as session:
        session.execute(text("SELECT 1"))
    assert backend_pid(database)


def test_pipelined_statements_say_503_too_and_keep_other_errors(database, settings):
    """``shared.db.pipelined`` (the player gate, the hot locked reads) talks to psycopg
    itself: a dropped connection is still one 503, and the pool still recovers."""
    first = backend_pid(database)
    terminate(settings, first)
    with pytest.raises(ServiceUnavailable) as raised, database.transaction() as uow:
        pipelined(uow.session, [("SELECT 1", ())])
    assert raised.value.code == "database_unavailable"
    assert backend_pid(database) != first
    with database.transaction() as uow:
        one, two = pipelined(uow.session, [("SELECT 1 AS a", ()), ("SELECT %s AS b", (2,))])
    assert (one[0].a, two[0].b) == (1, 2)
    with pytest.raises(ProgrammingError), database.transaction() as uow:
        pipelined(uow.session, [("SELECT 1", ()), ("SELECT * FROM no_such_table", ())])


def test_an_unreachable_server_is_503(settings):
    away = dataclasses.replace(settings, database_url="postgresql://postgres@127.0.0.1:1/postgres")
    engine = make_engine(away.database_url_for("accounts"), pool_size=1)
    try:
        with (
            pytest.raises(ServiceUnavailable),
            Database(engine, plumbing, SystemClock().now).transaction() as uow,
        ):
            uow.session.execute(text("SELECT 1"))
    finally:
        engine.dispose()


def test_other_database_errors_are_not_disguised(database):
    with pytest.raises(ProgrammingError), database.transaction() as uow:
        uow.session.execute(text("SELECT * FROM no_such_table"))
    player = uuid.uuid4()
    insert = text(
        "INSERT INTO players (id, auth0_sub, status, registered_at) "
        "VALUES (:id, :sub, 'active', now())"
    )
    sub = f"auth0|recovery-{player}"
    with database.transaction() as uow:
        uow.session.execute(insert, {"id": player, "sub": sub})
    with pytest.raises(IntegrityError), database.transaction() as uow:
        uow.session.execute(insert, {"id": uuid.uuid4(), "sub": sub})


def test_the_gateway_sees_503_from_a_service_whose_database_is_away(start_service, settings, rpc):
    away = dataclasses.replace(settings, database_url="postgresql://postgres@127.0.0.1:1/postgres")
    start_service("accounts", settings_override=away)
    with pytest.raises(ServiceUnavailable) as raised:
        rpc.accounts.progression(player_id=str(uuid.uuid4()))
    assert raised.value.code == "database_unavailable"
