"""The README's run command works: `deckyard run` serves /me with a `deckyard token`."""

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from shared.config import SERVICE_NAMES
from shared.migrations import drop_database
from shared.testing import own_vhost
from tests.random_refs import random_suffix

pytestmark = pytest.mark.e2e

DECKYARD = [sys.executable, "-m", "deckyard.cli"]


# Below the kernel's ephemeral range (``ip_local_port_range``, 32768-60999 by default),
# where nothing else of the suite binds: every other test and every outgoing connection
# takes its port from that range, and a port probed free here once lost that race (it was
# taken before `deckyard run` bound it). The bench's ports (18000-18999) are left out too.
PORT_RANGE = (20000, 32000)


def free_port_block(size):
    """A port with `size` free ports after it (for the per-service health servers)."""
    low, high = PORT_RANGE
    with contextlib.suppress(OSError, ValueError):
        ranges = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
        ephemeral_low = int(ranges.split()[0])
        high = min(high, ephemeral_low)
    for _ in range(200):
        base = random.randrange(low, high - size)
        sockets = []
        try:
            for port in range(base, base + size):
                s = socket.socket()
                sockets.append(s)
                s.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    pytest.fail("no free port block")


@pytest.fixture
def amqp_uri(settings):
    """A vhost of its own: `deckyard run` on the session's would share its event queues."""
    with own_vhost(settings.amqp_uri) as uri:
        yield uri


def test_deckyard_run_serves_me_and_stops_on_sigterm(settings, amqp_uri, tmp_path):
    import dataclasses

    prefix = f"deckyard_cli_{random_suffix()}"
    ports = free_port_block(7)
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "AMQP_URI": amqp_uri,
        "DATABASE_PREFIX": prefix,
        "RPC_EXCHANGE": f"deckyard-cli-{prefix}",
        "DEV_AUTH": "1",
        "GATEWAY_PORT": str(ports),
        "HEALTH_PORT": str(ports + 1),
        "STATUS_PORT": str(ports + 6),
    }
    log = (tmp_path / "run.log").open("wb")  # a file, not a pipe nobody drains
    process = subprocess.Popen(
        [*DECKYARD, "run"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{ports}"
    try:
        deadline = time.monotonic() + 120  # a bound on start-up, not a speed assertion
        ready = None
        while time.monotonic() < deadline and process.poll() is None:
            try:
                # Every service answers (the gateway's own /ready needs only the broker).
                ready = requests.get(f"http://127.0.0.1:{ports + 6}/internal/status", timeout=5)
                if ready.status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            time.sleep(0.2)
        assert ready is not None and ready.status_code == 200, (tmp_path / "run.log").read_text()
        assert requests.get(base + "/ready", timeout=5).json() == {"ready": True, "broker": "ok"}

        token = subprocess.run(
            [*DECKYARD, "token", "--sub", "auth0|cli-smoke"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        me = requests.get(base + "/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert me.status_code == 200, me.text
        assert me.json()["roles"] == ["player"]
        health = requests.get(f"http://127.0.0.1:{ports + 1}/health", timeout=5)
        assert health.json() == {"status": "alive"}

        # `run` seeded the empty platform; the catalogue reaches cards through events.
        catalogue = []
        while time.monotonic() < deadline and len(catalogue) < 30:
            catalogue = requests.get(base + "/cards/catalogue?game=quest", timeout=10).json()[
                "items"
            ]
            time.sleep(0.2)
        assert {"Quillip", "Voltiki", "Karrik", "Field Kit", "Reserve Focus"} <= {
            card["name"] for card in catalogue
        }
        assert len(catalogue) == 30
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            code = None
        # Whatever is left of the session (a service process whose parent failed to
        # start, or one that would not stop) goes too: it must not outlive the test.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        if code is None:
            code = process.wait()
        cli_settings = dataclasses.replace(settings, database_prefix=prefix)
        for service in SERVICE_NAMES:
            drop_database(cli_settings, service)
    assert code == 0
