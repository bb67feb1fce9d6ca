"""Test fixtures' machinery: real PostgreSQL/PostGIS and RabbitMQ, isolated per run.

Where the services come from, in order:
1. ``DATABASE_URL`` / ``AMQP_URI`` when set (CI and the development machines);
2. testcontainers, when a Docker engine answers;
3. neither: tests that need them are skipped with a message saying what to
   start - unless ``CI`` or ``REQUIRE_SERVICES`` is set, where they fail, so a
   green CI run never hides them.

Each run gets its own database names (a random prefix) and, where
``rabbitmqctl`` is available, its own RabbitMQ virtual host, so tests never
touch a development stack running on the same servers.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from urllib.parse import quote, urlsplit, urlunsplit

from shared.config import SERVICE_NAMES, Settings, load_settings
from shared.player_gate import account_locked
from shared.reachability import postgres_problem, rabbitmq_problem


class ServicesUnavailable(Exception):
    """PostgreSQL or RabbitMQ cannot be reached; the message says what to start."""


def services_required() -> bool:
    return any(
        os.environ.get(name, "").strip() not in ("", "0", "false")
        for name in ("CI", "REQUIRE_SERVICES")
    )


def _docker_answers() -> bool:
    try:
        import docker

        docker.from_env(timeout=2).ping()
        return True
    except Exception:
        return False


@dataclass
class TestStack:
    settings: Settings
    vhost: str | None


@contextlib.contextmanager
def _testcontainers_servers() -> Iterator[tuple[str, str]]:
    from testcontainers.postgres import PostgresContainer
    from testcontainers.rabbitmq import RabbitMqContainer

    with (
        PostgresContainer("postgis/postgis:15-3.4", driver=None) as pg,
        RabbitMqContainer("rabbitmq:3.13") as rabbit,
    ):
        params = rabbit.get_connection_params()
        amqp = f"amqp://guest:guest@{params.host}:{params.port}/"
        yield pg.get_connection_url(), amqp


@contextlib.contextmanager
def server_urls() -> Iterator[tuple[str, str]]:
    database_url = os.environ.get("DATABASE_URL", "").strip()
    amqp_uri = os.environ.get("AMQP_URI", "").strip()
    if database_url and amqp_uri:
        problems = [p for p in (postgres_problem(database_url), rabbitmq_problem(amqp_uri)) if p]
        if problems:
            raise ServicesUnavailable("; ".join(problems))
        yield database_url, amqp_uri
        return
    if _docker_answers():
        with _testcontainers_servers() as urls:
            yield urls
        return
    raise ServicesUnavailable(
        "set DATABASE_URL and AMQP_URI to a PostgreSQL with PostGIS and a RabbitMQ "
        "(e.g. DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres "
        "AMQP_URI=amqp://guest:guest@127.0.0.1:5672/), or start a Docker engine"
    )


def _rabbitmqctl(*args: str) -> bool:
    if shutil.which("rabbitmqctl") is None:
        return False
    result = subprocess.run(["rabbitmqctl", "-q", *args], capture_output=True, timeout=60)
    return result.returncode == 0


def _with_vhost(amqp_uri: str, vhost: str) -> str:
    parts = urlsplit(amqp_uri)
    return urlunsplit(parts._replace(path="/" + quote(vhost, safe="")))


@contextlib.contextmanager
def own_vhost(amqp_uri: str) -> Iterator[str]:
    """``amqp_uri`` on a vhost of its own, deleted afterwards, where a local rabbitmqctl
    can make one (else ``amqp_uri`` as it is). For a test that starts a whole platform
    beside the session's: on the session's vhost its services would share the event
    queues (named by service and handler) and take the session's events in turn."""
    host = urlsplit(amqp_uri).hostname
    user = urlsplit(amqp_uri).username or "guest"
    wanted = f"deckyard-own-{uuid.uuid4().hex[:10]}"
    if host not in ("127.0.0.1", "localhost") or not _rabbitmqctl("add_vhost", wanted):
        yield amqp_uri
        return
    try:
        _rabbitmqctl("set_permissions", "-p", wanted, user, ".*", ".*", ".*")
        yield _with_vhost(amqp_uri, wanted)
    finally:
        _rabbitmqctl("delete_vhost", wanted)


@contextlib.contextmanager
def isolated_stack() -> Iterator[TestStack]:
    """Servers from ``server_urls``, with this run's own databases and vhost."""
    from shared.migrations import drop_database, upgrade

    run_id = uuid.uuid4().hex[:10]
    with server_urls() as (database_url, amqp_uri):
        vhost: str | None = None  # without one: isolation by a private RPC exchange only
        wanted = f"deckyard-test-{run_id}"
        host = urlsplit(amqp_uri).hostname
        user = urlsplit(amqp_uri).username or "guest"
        if host in ("127.0.0.1", "localhost") and _rabbitmqctl("add_vhost", wanted):
            _rabbitmqctl("set_permissions", "-p", wanted, user, ".*", ".*", ".*")
            amqp_uri = _with_vhost(amqp_uri, wanted)
            vhost = wanted
        settings = replace(
            load_settings(
                {
                    "DATABASE_URL": database_url,
                    "AMQP_URI": amqp_uri,
                    "DEV_AUTH": "1",
                    # QUORUM_QUEUES=1 runs the tests on quorum queues (their own vhost).
                    "QUORUM_QUEUES": os.environ.get("QUORUM_QUEUES", ""),
                }
            ),
            database_prefix=f"deckyard_test_{run_id}",
            rpc_exchange=f"deckyard-test-rpc-{run_id}",
            rpc_timeout=5.0,
        )
        try:
            for service in SERVICE_NAMES:
                upgrade(settings, service)
            yield TestStack(settings, vhost)
        finally:
            for service in SERVICE_NAMES:
                with contextlib.suppress(Exception):
                    drop_database(settings, service)
            if vhost:
                _rabbitmqctl("delete_vhost", vhost)


class FakePlayerGate:
    """shared.player_gate.PlayerGate for unit tests: ``purged`` players are refused,
    ``busy`` ones are skipped by ``try_admit``; ``admitted`` records who passed."""

    def __init__(self, purged: set[object] | None = None, busy: set[object] | None = None):
        self.purged = set(purged or ())
        self.busy = set(busy or ())
        self.admitted: list[object] = []

    def admit(self, player_id: object) -> None:
        if not self.admits(player_id):
            raise account_locked()

    def admits(self, player_id: object) -> bool:
        self.admitted.append(player_id)
        return player_id not in self.purged

    def try_admit(self, player_id: object) -> bool:
        return player_id not in self.busy and self.admits(player_id)
