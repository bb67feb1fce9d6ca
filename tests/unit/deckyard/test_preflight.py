"""`deckyard` says in one line what is missing, and a second `deckyard run` does not start."""

import os
import socket
import subprocess
import sys
import types

import eventlet
import pytest
from nameko.web.server import WebServer

from deckyard.preflight import PreflightFailed, require_free_ports
from shared.web_server import ExclusiveWebServer

DECKYARD = [sys.executable, "-m", "deckyard.cli"]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nobody listens there once the probe is closed


def deckyard(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*DECKYARD, *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_migrate_without_postgres_is_one_line_and_exit_1():
    url = f"postgresql://postgres@127.0.0.1:{closed_port()}/postgres"
    done = deckyard("migrate", DATABASE_URL=url)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("deckyard: PostgreSQL at 127.0.0.1:")
    assert "DATABASE_URL" in lines[0]


def test_run_without_rabbitmq_is_one_line_and_exit_1():
    uri = f"amqp://guest:guest@127.0.0.1:{closed_port()}/"
    done = deckyard("run", "--service", "gateway", AMQP_URI=uri, GATEWAY_PORT=str(closed_port()))
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("deckyard: RabbitMQ at amqp://guest:**@127.0.0.1:")
    assert "AMQP_URI" in lines[0]


def test_a_second_run_on_a_busy_port_refuses_to_start():
    with socket.socket() as first:  # the first deckyard's gateway
        first.bind(("127.0.0.1", 0))
        first.listen()
        port = first.getsockname()[1]
        done = deckyard("run", "--service", "gateway", GATEWAY_PORT=str(port))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"deckyard: port {port} on 127.0.0.1 (gateway) is in use: is deckyard already "
        "running? Stop it, or set GATEWAY_PORT / HEALTH_PORT / STATUS_PORT"
    ]


def test_free_ports_pass_the_preflight():
    require_free_ports([("gateway", "127.0.0.1", closed_port())])


def test_a_busy_port_fails_the_preflight():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(PreflightFailed, match="is in use"):
            require_free_ports([("accounts", "127.0.0.1", taken.getsockname()[1])])


def _server(cls: type[WebServer], port: int) -> WebServer:
    server = cls()
    server.container = types.SimpleNamespace(
        config={"WEB_SERVER_ADDRESS": f"127.0.0.1:{port}"},
        spawn_managed_thread=lambda run: None,
    )
    return server


def test_nameko_web_servers_share_a_port_but_ours_does_not():
    """Why the preflight is not the only guard: nameko binds with SO_REUSEPORT, so two
    processes that both pass it at the same moment would still split the traffic."""
    port = closed_port()
    first = eventlet.listen(("127.0.0.1", port))  # as nameko's WebServer listens
    try:
        stock = _server(WebServer, port)
        stock.start()  # the kernel lets it share the port: the defect
        stock._sock.close()
        with pytest.raises(OSError):
            _server(ExclusiveWebServer, port).start()
    finally:
        first.close()
