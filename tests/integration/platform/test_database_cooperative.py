"""psycopg must not block the eventlet hub: slow queries in one process overlap."""

import eventlet
import psycopg.waiting
import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from shared.db import assert_cooperative_psycopg, make_engine, pipelined

pytestmark = pytest.mark.integration


@pytest.fixture
def engine(settings):
    engine = make_engine(settings.database_url_for("accounts"))
    yield engine
    engine.dispose()


def sleep_in_database(engine, seconds):
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_sleep(:s)"), {"s": seconds})


def test_a_ticker_keeps_ticking_during_a_one_second_query(engine):
    ticks = []

    def ticker():
        while True:
            eventlet.sleep(0.01)
            ticks.append(1)

    ticking = eventlet.spawn(ticker)
    eventlet.sleep(0)
    sleep_in_database(engine, 1)
    ticking.kill()
    # With a hub-blocking wait the ticker would get at most one turn in that second.
    assert len(ticks) >= 20


def test_concurrent_slow_queries_are_in_flight_together(engine, settings):
    marker = "overlap_probe"
    sleepers = [eventlet.spawn(sleep_in_database, engine, 1.5) for _ in range(5)]
    eventlet.sleep(0.5)
    with engine.connect() as conn:
        in_flight = conn.execute(
            text(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND state = 'active' "
                "AND query LIKE 'SELECT pg_sleep%' AND query NOT LIKE :marker"
            ),
            {"marker": f"%{marker}%"},
        ).scalar_one()
    for sleeper in sleepers:
        sleeper.wait()
    assert in_flight == 5


def test_the_database_refuses_to_start_with_the_blocking_wait(monkeypatch):
    monkeypatch.setattr(
        psycopg.waiting,
        "wait",
        getattr(psycopg.waiting, "wait_c", None) or psycopg.waiting.wait_poll,
    )
    with pytest.raises(RuntimeError, match="block the eventlet hub"):
        assert_cooperative_psycopg()


def test_a_pipeline_goes_round_the_hub_only_to_wait_for_the_server(engine, monkeypatch):
    """psycopg asks "may I write?" before each command of a pipeline; a socket ready at
    once must not cost a trip round the hub each time (issue 29: on a busy process a
    pipeline of 19 deletes took 1.7 s, longer than the statements one by one)."""
    green_waits = []
    green_select = psycopg.waiting.select.select

    def counted(*args):
        green_waits.append(args)
        return green_select(*args)

    statements = [("SELECT %s", (n,)) for n in range(50)]
    with Session(engine) as session:
        session.connection()
        monkeypatch.setattr(psycopg.waiting.select, "select", counted)
        rows = pipelined(session, statements)
        monkeypatch.undo()
    assert [r[0][0] for r in rows] == list(range(50))
    assert len(green_waits) <= 10  # waits for the server's answers, not one per command
