"""Whether PostgreSQL (with PostGIS) and RabbitMQ answer, as one line a person can act on.

The CLI asks before it migrates or starts anything, and the test fixtures before they
build a stack: a missing server is one clear line, not a driver's traceback.
"""

from __future__ import annotations

import psycopg
from sqlalchemy.engine import make_url

CONNECT_TIMEOUT_SECONDS = 3


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def postgres_problem(url: str, need_postgis: bool = True) -> str | None:
    """None if the server at ``url`` answers (and has PostGIS); otherwise what is wrong."""
    parsed = make_url(url)
    where = f"{parsed.host or 'localhost'}:{parsed.port or 5432}"
    conninfo = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        with psycopg.connect(conninfo, connect_timeout=CONNECT_TIMEOUT_SECONDS) as conn:
            has_postgis = conn.execute(
                "SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'"
            ).fetchone()
    except psycopg.Error as exc:
        return (
            f"PostgreSQL at {where} did not answer ({_first_line(exc)}): "
            "start it (make run / make test do) or set DATABASE_URL"
        )
    if need_postgis and not has_postgis:
        return (
            f"PostgreSQL at {where} answers but PostGIS is not installed "
            "(apt-get install postgresql-N-postgis-3; make run / make test do)"
        )
    return None


def rabbitmq_problem(uri: str) -> str | None:
    """None if the broker at ``uri`` accepts a connection; otherwise what is wrong."""
    from kombu.connection import Connection

    try:
        with Connection(uri, connect_timeout=CONNECT_TIMEOUT_SECONDS) as conn:
            conn.ensure_connection(max_retries=1)
    except Exception as exc:  # kombu raises many kinds; each is "did not answer" here
        where = Connection(uri).as_uri()  # without the password
        return (
            f"RabbitMQ at {where} did not answer ({_first_line(exc)}): "
            "start it (make run / make test do) or set AMQP_URI"
        )
    return None
