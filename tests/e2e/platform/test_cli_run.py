"""The README works as written against `deckyard run`: the run command starts every
service and the gateway, says where the web client is, serves it and /me with a
`deckyard token`, and stops on SIGTERM; every shell example of the README runs as a user
would paste it.

One `deckyard run` serves the whole module (a start migrates five new databases and seeds
them: most of a minute); the SIGTERM test is the module's last."""

import collections
import contextlib
import dataclasses
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from shared.config import SERVICE_NAMES
from shared.migrations import drop_database
from shared.testing import own_vhost
from tests.random_refs import random_suffix

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[3]
DECKYARD = [sys.executable, "-m", "deckyard.cli"]
START_SECONDS = 120  # a bound on start-up, not a speed assertion


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


@dataclasses.dataclass
class Run:
    """A `deckyard run` of this module: its process, environment, ports and output."""

    process: subprocess.Popen[bytes]
    env: dict[str, str]
    gateway_port: int
    health_port: int
    status_port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.gateway_port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def deckyard_run(settings, tmp_path_factory) -> Iterator[Run]:
    """`deckyard run` on ports, databases and a vhost of its own (on the session's vhost
    its services would share the session's event queues), once every service answers."""
    prefix = f"deckyard_cli_{random_suffix()}"
    ports = free_port_block(7)
    log = tmp_path_factory.mktemp("deckyard-run") / "run.log"
    with own_vhost(settings.amqp_uri) as amqp_uri, log.open("wb") as output:
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
        process = subprocess.Popen(
            [*DECKYARD, "run"],
            env=env,
            stdout=output,  # a file, not a pipe nobody drains
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        run = Run(process, env, ports, ports + 1, ports + 6, log)
        try:
            deadline = time.monotonic() + START_SECONDS
            ready = None
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    # Every service answers (the gateway's own /ready needs only the broker).
                    ready = requests.get(
                        f"http://127.0.0.1:{run.status_port}/internal/status", timeout=5
                    )
                    if ready.status_code == 200:
                        break
                except requests.ConnectionError:
                    pass
                time.sleep(0.2)
            assert ready is not None and ready.status_code == 200, run.output()
            yield run
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=30)
            # Whatever is left of the session (a service process whose parent failed to
            # start, or one that would not stop) goes too: it must not outlive the test.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            cli_settings = dataclasses.replace(settings, database_prefix=prefix)
            for service in SERVICE_NAMES:
                drop_database(cli_settings, service)


def test_deckyard_run_says_where_the_web_client_is_and_serves_it(deckyard_run):
    """A new player's first question: the address, printed once the gateway is up."""
    said = f"  web client  {deckyard_run.base}/  (DEV_AUTH=1: sign in with any name)"
    deadline = time.monotonic() + START_SECONDS
    while said not in deckyard_run.output() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert said in deckyard_run.output().splitlines(), deckyard_run.output()
    assert "Deckyard is running." in deckyard_run.output().splitlines()
    page = requests.get(deckyard_run.base + "/", timeout=10)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<div id="app">' in page.text


def test_deckyard_run_serves_me_with_a_deckyard_token_and_the_seeded_catalogue(deckyard_run):
    base = deckyard_run.base
    assert requests.get(base + "/ready", timeout=5).json() == {"ready": True, "broker": "ok"}
    token = subprocess.run(
        [*DECKYARD, "token", "--sub", "auth0|cli-smoke"],
        env=deckyard_run.env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    me = requests.get(base + "/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert me.status_code == 200, me.text
    assert me.json()["roles"] == ["player"]
    health = requests.get(f"http://127.0.0.1:{deckyard_run.health_port}/health", timeout=5)
    assert health.json() == {"status": "alive"}

    # `run` seeded the empty platform; the catalogue reaches cards through events.
    catalogue: list[dict] = []
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and len(catalogue) < 30:
        catalogue = requests.get(base + "/cards/catalogue?game=quest", timeout=10).json()["items"]
        time.sleep(0.2)
    assert {"Quillip", "Voltiki", "Karrik", "Field Kit", "Reserve Focus"} <= {
        card["name"] for card in catalogue
    }
    assert len(catalogue) == 30


# The README's examples: its ```sh blocks. A block of `make` commands is the set-up (the
# stack this module runs is its `make run`), checked to name the Makefile's targets and
# never run here; every other block runs in bash -e -o pipefail, as pasted, against this
# module's `deckyard run` (the README's ports replaced by its own).
SHELL_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)
README_PORTS = {"127.0.0.1:8000": "gateway_port", "127.0.0.1:8090": "status_port"}
# A refusal the README shows on purpose is announced in the line's comment: "# 401 ...".
ANNOUNCED_REFUSAL = re.compile(r"#\s*([45]\d\d)\b")
# curl as the user has it, except that each answer's HTTP status is noted in a file: a 404
# from a path gone stale exits 0 like any answer (`curl -s`), and must still fail here.
CURL_NOTING_STATUS = r"""
curl() {
  local body status
  body=$(mktemp)
  status=$(command curl --output "$body" --write-out '%{http_code}' "$@") \
    || { cat "$body"; rm -f "$body"; return 1; }
  cat "$body"; rm -f "$body"
  printf '%s\t%s\n' "$status" "${*//$'\n'/ }" >> "$CURL_STATUSES"
}
"""


def readme_shell_blocks() -> list[str]:
    return SHELL_BLOCK.findall((ROOT / "README.md").read_text())


def is_set_up(block: str) -> bool:
    commands = [line for line in block.splitlines() if line.strip()]
    return all(line.startswith("make ") for line in commands)


def test_the_readme_make_commands_name_targets_of_the_makefile():
    makefile = (ROOT / "Makefile").read_text()
    set_up = [block for block in readme_shell_blocks() if is_set_up(block)]
    assert set_up, "the README starts with its make commands"
    for block in set_up:
        for line in block.splitlines():
            target = line.split()[1]
            assert re.search(rf"^{re.escape(target)}:", makefile, re.M), line


def test_every_shell_example_of_the_readme_runs_as_written(deckyard_run, tmp_path):
    examples = [block for block in readme_shell_blocks() if not is_set_up(block)]
    assert len(examples) >= 3, "Try it, Play an event challenge, Author workflow"
    # The demo events reach the challenge service through events after the seed.
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        near = requests.get(
            deckyard_run.base + "/v1/quest/events?lat=51.5080&lon=-0.1281", timeout=10
        )
        if near.status_code == 200 and near.json()["items"]:
            break
        time.sleep(0.2)
    for n, example in enumerate(examples, start=1):
        script = example
        for readme_port, port in README_PORTS.items():
            script = script.replace(readme_port, f"127.0.0.1:{getattr(deckyard_run, port)}")
        statuses = tmp_path / f"statuses-{n}"
        statuses.write_text("")
        done = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", CURL_NOTING_STATUS + script],
            cwd=ROOT,  # `.venv/bin/deckyard`, as the README says it
            env={**deckyard_run.env, "CURL_STATUSES": str(statuses)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        shown = f"example {n}:\n{example}\nits output:\n{done.stdout}\n{done.stderr}"
        assert done.returncode == 0, shown
        answers = [line.split("\t", 1) for line in statuses.read_text().splitlines()]
        assert answers, shown
        refused = collections.Counter(status for status, _ in answers if int(status) >= 400)
        announced = collections.Counter(ANNOUNCED_REFUSAL.findall(example))
        assert refused == announced, f"{shown}\nanswers: {answers}"


def test_deckyard_run_stops_on_sigterm(deckyard_run):
    deckyard_run.process.send_signal(signal.SIGTERM)
    assert deckyard_run.process.wait(timeout=30) == 0, deckyard_run.output()
