"""Database access shared by the services: engine, unit of work, outbox writes.

psycopg 3 waits for the server with a C function by default. That function
blocks the whole eventlet hub (psycopg recognises gevent's monkey-patching but
not eventlet's), so one slow query would freeze every worker of a service.
``use_cooperative_psycopg`` swaps in psycopg's pure-Python ``select`` wait,
which eventlet's green ``select`` makes cooperative, trying a socket that is
ready before the hub (shared/green_wait.py); ``Database`` refuses to start
without it.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import eventlet
import psycopg
import psycopg.errors
import psycopg.waiting
from psycopg.rows import namedtuple_row
from sqlalchemy import Engine, Table, create_engine, insert, select
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, sessionmaker

from shared import tracing
from shared.errors import ServiceUnavailable, TransactionConflict
from shared.events import Event
from shared.green_wait import wait_ready_first
from shared.logs import REQUEST_ID
from shared.metrics import INBOX_DUPLICATES, TRANSACTION_CONFLICTS
from shared.plumbing_tables import PlumbingTables
from shared.randomness import SystemRandomSource

log = logging.getLogger(__name__)

T = TypeVar("T")
UnitOfWorkT = TypeVar("UnitOfWorkT")


def use_cooperative_psycopg() -> None:
    """Make psycopg wait through ``select`` (green under eventlet's monkey-patch) when
    its socket is not ready at once (shared/green_wait.py)."""
    psycopg.waiting.wait = wait_ready_first


def assert_cooperative_psycopg() -> None:
    if psycopg.waiting.wait is not wait_ready_first:
        raise RuntimeError(
            "psycopg would block the eventlet hub: call shared.db.use_cooperative_psycopg()"
        )


def make_engine(url: URL | str, *, pool_size: int = 10) -> Engine:
    use_cooperative_psycopg()
    assert_cooperative_psycopg()
    # No pool_pre_ping: it cost a round trip on every checkout (a quarter of
    # a simple lookup's, docs/performance.md). After a database restart the
    # first statement on a dead connection fails; SQLAlchemy then invalidates
    # the whole pool, so only requests already in flight see the error.
    #
    # prepare_threshold=None: no server-side prepared statements. After five runs psycopg
    # would prepare a statement and PostgreSQL may pick a generic plan that re-parses a
    # PostGIS point for every row (the nearby-events query: 25 ms -> 15 ms without it).
    return create_engine(
        url,
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_recycle=1800,
        connect_args={"prepare_threshold": None},
    )


def database_unreachable(exc: sa_exc.DBAPIError) -> bool:
    """Whether ``exc`` says the server is away: a lost connection, a refused one, a
    server shutting down or starting up (SQLSTATE class 08, 57P01..57P03)."""
    if exc.connection_invalidated:
        return True
    if not isinstance(exc, (sa_exc.OperationalError, sa_exc.InterfaceError)):
        return False
    sqlstate = getattr(exc.orig, "sqlstate", None)
    return sqlstate is None or sqlstate.startswith(("08", "57P"))


@contextmanager
def unreachable_as_unavailable() -> Iterator[None]:
    """Turn "the database is away" into ServiceUnavailable (503 at the gateway).

    During a database restart every request that needs it fails; without this
    each failure was an unhandled ``OperationalError``, a 500 ``internal_error``
    with a traceback in the gateway's log. Nothing is retried here: a failed
    COMMIT has an unknown outcome, so the caller retries (each write is idempotent
    or keyed) and a reliable event handler redelivers. The pool invalidates its
    connections on the first lost one, so the next request opens fresh ones.
    """
    try:
        yield
    except sa_exc.DBAPIError as exc:
        if not database_unreachable(exc):
            raise
        raise ServiceUnavailable(
            "database_unavailable", "the service's database is unavailable; try again shortly"
        ) from exc


# SQLSTATE 40001 and 40P01: PostgreSQL rolled the whole transaction back, nothing of it
# stays, so running it again from its start is safe.
CONFLICTS = (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected)


def transaction_conflict(exc: BaseException) -> bool:
    """Whether ``exc`` says PostgreSQL gave up the transaction for a deadlock (two
    transactions waiting on each other's row locks; it kills one) or a serialization
    failure: the other one went on, and this one may simply be run again."""
    cause = exc.orig if isinstance(exc, sa_exc.DBAPIError) else exc
    return isinstance(cause, CONFLICTS)


@contextmanager
def conflicts_as_transaction_conflict() -> Iterator[None]:
    """Turn a deadlock or a serialization failure into ``TransactionConflict`` (503
    ``transaction_conflict``), which ``run_unit_of_work`` runs again; before it was an
    unhandled ``OperationalError``, a 500 ``internal_error`` (issue 29)."""
    try:
        yield
    except (sa_exc.DBAPIError, psycopg.Error) as exc:
        if not transaction_conflict(exc):
            raise
        raise TransactionConflict(
            "transaction_conflict",
            "the change met a concurrent one and was not made; send it again",
        ) from exc


@dataclass(frozen=True)
class ConflictRetry:
    """How often, and after what pause, a unit of work rolled back by a transaction
    conflict is run again (``run_unit_of_work``).

    Each pause is drawn uniformly below a cap that doubles from ``first_pause`` up to
    ``max_pause`` ("full jitter"), so two transactions that met do not come back in step.
    With the defaults (ours) a unit of work runs at most 4 times and waits at most
    0.01 + 0.02 + 0.04 = 70 ms in all between them; a deadlock itself costs PostgreSQL's
    ``deadlock_timeout`` (1 s by default) to be found. The pause is eventlet's: the
    service's other green threads run meanwhile. ``random`` (a float in [0, 1)) and
    ``sleep`` are injectable, for tests."""

    attempts: int = 4
    first_pause: float = 0.01
    max_pause: float = 0.1
    random: Callable[[], float] = field(default_factory=lambda: SystemRandomSource().random)
    sleep: Callable[[float], None] = eventlet.sleep

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("a unit of work runs at least once")

    def pause(self, retry: int) -> float:
        """Seconds to wait before retry number ``retry`` (0 for the first)."""
        return self.random() * min(self.max_pause, self.first_pause * 2.0**retry)


CONFLICT_RETRY = ConflictRetry()


def run_unit_of_work(
    open_unit_of_work: Callable[[], AbstractContextManager[UnitOfWorkT]],
    work: Callable[[UnitOfWorkT], T],
    retry: ConflictRetry = CONFLICT_RETRY,
) -> T:
    """``work(uow)`` in a unit of work that commits; run again from its start, in a new
    unit of work, when PostgreSQL rolled it back for a deadlock or a serialization
    failure. The platform's rule for every transaction a request or an event opens.

    ``work`` runs again, not just the commit: it reads again what the other transaction
    committed, and its rules answer on the state as it is now (of two questions retired
    at once, the second is refused once the first is gone). A rolled-back attempt leaves
    nothing: its state, the events it put in the outbox, its idempotency and inbox
    records were in the same transaction. So ``work`` keeps no effect outside the
    transaction (no call to another service, which the platform never makes inside one
    anyway). After the last attempt the ``TransactionConflict`` propagates: 503
    ``transaction_conflict``, which the client may send again, never a 500.
    """
    for attempt in range(1, retry.attempts + 1):
        try:
            with open_unit_of_work() as uow:
                return work(uow)
        except TransactionConflict:
            if attempt == retry.attempts:
                TRANSACTION_CONFLICTS.labels("gave_up").inc()
                log.warning("a transaction conflict outlasted %d attempts", attempt)
                raise
            TRANSACTION_CONFLICTS.labels("retried").inc()
            retry.sleep(retry.pause(attempt - 1))
    raise AssertionError("unreachable: attempts >= 1")


Statement = tuple[str, Sequence[Any]]  # SQL with %s placeholders, and its parameters


def columns(table: Table, leave_out: Sequence[str] = ()) -> str:
    """A table's columns for a ``pipelined`` SELECT, quoted: ``"id", "status", ...``."""
    return ", ".join(f'"{c.name}"' for c in table.c if c.name not in leave_out)


def pipelined(session: Session, statements: Sequence[Statement]) -> list[list[Any]]:
    """Run ``statements`` in the session's transaction in one round trip: each one's rows
    (named tuples: ``row.column``, as SQLAlchemy's rows).

    psycopg's pipeline sends them (and the transaction's BEGIN, if none was sent yet)
    together; PostgreSQL still runs them one after the other, each with a snapshot of
    its own under READ COMMITTED, so a statement sees what committed while an earlier
    one waited for a lock. For the hot path's fixed statements: written as SQL, not
    compiled by SQLAlchemy, so psycopg's own types come back (no result processors).
    A database error comes out as SQLAlchemy's, as from ``session.execute``."""
    connection = session.connection()
    driver = connection.connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    try:
        with driver.pipeline():
            cursors = [
                driver.cursor(row_factory=namedtuple_row).execute(sql, params)
                for sql, params in statements
            ]
        return [cursor.fetchall() if cursor.description else [] for cursor in cursors]
    except psycopg.Error as exc:
        broken = driver.broken or driver.closed
        if broken:
            connection.invalidate(exc)
        raise sa_exc.DBAPIError.instance(
            "; ".join(sql for sql, _ in statements),
            None,
            exc,
            psycopg.Error,
            connection_invalidated=broken,
        ) from exc


class UnitOfWork:
    """One database transaction, with the events it causes.

    Events added with ``add_event`` are written to the outbox in the same
    transaction as the state change, so they commit or vanish together. An event
    written while a request runs carries its id in its envelope (``request_id``;
    consumers ignore the field, the relay publishes it as the message's context).
    """

    def __init__(self, session: Session, plumbing: PlumbingTables, now: Callable[[], datetime]):
        self.session = session
        self._plumbing = plumbing
        self._now = now
        self.events_written = 0

    def add_event(self, event: Event) -> None:
        payload = event.to_message()
        request_id = REQUEST_ID.get()
        if request_id:
            payload["request_id"] = request_id
        tracing.write_trace_context(payload)
        self.session.execute(
            insert(self._plumbing.outbox).values(
                event_id=event.event_id,
                exchange=event.contract.exchange,
                routing_key=event.contract.name,
                payload=payload,
                created_at=event.occurred_at,
            )
        )
        self.events_written += 1

    def first_delivery(self, message_id: uuid.UUID, consumer: str) -> bool:
        """Record that ``consumer`` applies ``message_id``; False if it already did.

        Call it first in the transaction that applies the message: a duplicate
        delivered concurrently waits on the primary key until the first
        commits, then sees the row and does nothing.
        """
        table = self._plumbing.processed_messages
        inserted = self.session.execute(
            pg_insert(table)
            .values(consumer=consumer, message_id=message_id, processed_at=self._now())
            .on_conflict_do_nothing(index_elements=["consumer", "message_id"])
            .returning(table.c.message_id)
        ).first()
        if inserted is None:
            INBOX_DUPLICATES.labels(consumer).inc()
        return inserted is not None

    def already_processed(self, message_id: uuid.UUID, consumer: str) -> bool:
        table = self._plumbing.processed_messages
        row = self.session.execute(
            select(table.c.message_id).where(
                table.c.consumer == consumer, table.c.message_id == message_id
            )
        ).first()
        return row is not None


class Database:
    """A service's own database: engine, sessions and units of work."""

    def __init__(
        self,
        engine: Engine,
        plumbing: PlumbingTables,
        now: Callable[[], datetime],
        on_events_committed: Callable[[], None] = lambda: None,
    ) -> None:
        self.engine = engine
        self.plumbing = plumbing
        self._now = now
        self._sessions = sessionmaker(bind=engine, expire_on_commit=False)
        self._on_events_committed = on_events_committed

    @contextmanager
    def transaction(self) -> Iterator[UnitOfWork]:
        """Commit on success, roll back on any exception (which is re-raised; a deadlock or
        a serialization failure as ``TransactionConflict``). Opened through
        ``run_unit_of_work``, a transaction that conflicted is run again."""
        with (
            conflicts_as_transaction_conflict(),
            unreachable_as_unavailable(),
            self._sessions() as session,
        ):
            uow = UnitOfWork(session, self.plumbing, self._now)
            with session.begin():
                yield uow
        if uow.events_written:
            self._on_events_committed()

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for queries only; whatever it did is rolled back."""
        with (
            conflicts_as_transaction_conflict(),
            unreachable_as_unavailable(),
            self._sessions() as session,
        ):
            try:
                yield session
            finally:
                session.rollback()

    @contextmanager
    def autocommit(self) -> Iterator[Session]:
        """A session whose every statement commits by itself: one round trip per
        read, no BEGIN/COMMIT. For single-statement reads only."""
        with (
            conflicts_as_transaction_conflict(),
            unreachable_as_unavailable(),
            self.engine.connect() as connection,
        ):
            connection = connection.execution_options(isolation_level="AUTOCOMMIT")
            with Session(bind=connection) as session:
                yield session

    def ping(self) -> bool:
        with self.engine.connect() as conn:
            return bool(conn.exec_driver_sql("SELECT 1").scalar() == 1)
