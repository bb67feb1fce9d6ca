"""Faults under load: SIGKILL of cards, a RabbitMQ restart and a PostgreSQL restart.

    python bench/faults.py [--duration 240] [--workers 8] [--settle 300]

Starts the whole platform as separate processes (``deckyard run --service X``
for accounts, authoring, challenge, cards, battle and the gateway) against a
PostgreSQL cluster and a RabbitMQ node of its own, drives a steady load
through the gateway, and injects three faults while the load runs:

``cards``
    SIGKILL of the cards process (no clean shutdown: unacknowledged messages,
    open transactions and RPCs in flight die with it), ``--downtime`` seconds
    without it, then a new ``deckyard run --service cards``.
``rabbitmq``
    the broker stops (``rabbitmqctl stop``: every connection closes), stays down
    ``--downtime`` seconds, then starts again on the same data directory.
``postgres``
    the database server stops (``pg_ctl stop -m fast``, or ``--pg-stop-mode
    immediate`` for a crash), stays down ``--downtime`` seconds, starts again.

After each fault it waits until every service's ``/ready`` and the gateway's
``/ready`` answer 200 (nobody touches the services), then runs a probe as a
new player: a starter grant, a CPU battle forfeited, an attempt completed;
and it waits until the attempt's reward shows in ``GET /quest/attempts/{id}``
and both progression entries in ``GET /me/progression``: the RPC paths and
the event paths (outbox relay, broker, reliable handlers) work again.

The load: ``--workers`` threads, each a sequence of new players (one
development token each; every thread its own loopback source address, so the
gateway's per-address rate limit sees ordinary clients). A player does one
of: a Quest attempt (start at a published event inserted into the challenge
read model as ``bench/answers.py`` does, then five answers, mostly the right
option so rewards have cards), a starter grant, or a CPU battle (starter,
deck, battle, a few greedy actions or the whole match, forfeit if not over).
Every step is retried while the platform answers 0/429/5xx, as an app would
(each request is idempotent or keyed; a lost reply is retried), for at most
``STEP_TIMEOUT`` seconds.

After the load it waits (at most ``--settle`` seconds) until everything owed
has happened, then checks the databases against each other and prints:

* completed attempts (challenge) against ``reward_grants`` rows and owned
  reward copies (cards: exactly the rolled number of copies per attempt), the
  reward shown back in challenge (``RewardGranted`` consumed) and the attempt's
  progression entry (accounts);
* finished matches (battle) against progression entries (accounts);
* starter grants: one ``starter_grants`` row and exactly 5 copies per player;
* each player's points against the sum of their entries;
* what the clients were told (acknowledged completions, matches, starters)
  against the databases;
* every service's outbox: rows, not yet published, republished;
* every consumer, delay and dead-letter queue's depth;
* the timeline of the faults, and the requests and flows of the load.

Exit status 1 if anything was lost or doubled, an outbox row is unpublished,
a message is parked or stuck in a queue, or a service did not recover by
itself (2 if the run could not be made).

Servers: by default a private PostgreSQL cluster (``initdb`` into a temporary
directory, port ``--pg-port``, run as the ``postgres`` user when this runs as
root) and a private RabbitMQ node (``rabbitmq-server`` with its own node name,
ports ``--amqp-port`` and +1, data directory, Erlang cookie and an empty plugin
list), both stopped and deleted at the end, also on failure and Ctrl-C: the
machine's shared servers are never touched. ``--database-url URL`` and
``--amqp-uri URI`` use existing servers instead (databases
``deckyard_faults_<random>_*``, dropped at the end, and a private vhost);
their restart is then ``--postgres-restart CMD`` / ``--rabbitmq-restart CMD``
(shell commands, e.g. ``'pg_ctlcluster --skip-systemctl-redirect 15 main
restart'``), and a fault without its command is skipped. Logs of every
process: ``bench/results/logs/faults-*.log``.
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    # Tokens, the read model and the settings come from the project's code.
    harness.reexec_in_venv()

import argparse
import contextlib
import http.client
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from harness import (
    HOST,
    LOG_DIR,
    VENV,
    BenchError,
    Child,
    Children,
    describe_code,
    http_get,
    ignoring_stop_signals,
    migrate,
    private_vhost,
    refuse_busy_ports,
    resolve_source,
    script_main,
    service_env,
)

SERVICES = ("accounts", "authoring", "challenge", "cards", "battle")
PROCESSES = (*SERVICES, "gateway")
FAULTS = ("cards", "rabbitmq", "postgres")
FAULT_AT = {"cards": 0.2, "rabbitmq": 0.45, "postgres": 0.7}  # share of --duration
DATABASE_PREFIX = "deckyard_faults"
RPC_EXCHANGE = "deckyard-faults-rpc"
VHOST_PREFIX = "deckyard-faults"
SEED = "services/authoring/seed/quest_cards.json"
AFFINITIES = ("Wit", "Grit", "Spark")  # the starter affinities the seed offers
STARTER_COPIES = 5  # 3 Creatures + 2 Power cards (docs/quest-collection.md)
FLOW_WEIGHTS = {"attempt": 3, "starter": 1, "battle": 2}
PLAY_OUT_SHARE = 0.3  # battles played to the end; the others forfeit after a few moves
MAX_ACTIONS = 40  # a played-out battle forfeits after this many actions
RIGHT_ANSWER_SHARE = 0.7  # so most attempts score 3+ and win cards

HTTP_TIMEOUT = 15.0  # the gateway answers 503 after RPC_TIMEOUT_SECONDS (5 s) anyway
STEP_TIMEOUT = 120.0  # seconds a flow retries one step before it gives up
THINK = (0.05, 0.25)  # seconds a player waits between two requests
RETRY_STATUSES = frozenset({0, 429, 500, 502, 503, 504})
READY_TIMEOUT = 180.0  # seconds for every /ready to answer 200 after a fault
PROBE_TIMEOUT = 120.0  # seconds for a probe's effects to show
SERVER_TIMEOUT = 120.0  # seconds for a private server to start or stop
START_TIMEOUT = 90.0  # seconds for the services to answer after start
CATALOGUE_TIMEOUT = 120.0  # seconds for the seed to reach cards' read model
MIN_GAP = 20.0  # seconds of plain load between a recovery and the next fault
PROGRESS_EVERY = 15.0
LOAD_STOP_TIMEOUT = STEP_TIMEOUT + 30.0


def log(message: str) -> None:
    print(f"  {message}", flush=True)


# -- private servers ----------------------------------------------------------------------


def _postgres_bin(explicit: str | None) -> Path:
    """The directory of initdb/pg_ctl: --pg-bin, else PostgreSQL 15's (PostGIS is there)."""
    candidates = [Path(explicit)] if explicit else []
    candidates += [Path("/usr/lib/postgresql/15/bin")]
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    if shutil.which("pg_config"):
        done = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True)
        candidates.append(Path(done.stdout.strip()))
    for path in candidates:
        if (path / "initdb").exists() and (path / "pg_ctl").exists():
            return path
    raise BenchError("no PostgreSQL initdb/pg_ctl found (give --pg-bin DIR)")


class PrivatePostgres:
    """A PostgreSQL cluster of this run: initdb, pg_ctl start/stop, deleted at the end."""

    def __init__(self, workdir: Path, port: int, bin_dir: Path) -> None:
        self.port = port
        self._bin = bin_dir
        self._home = workdir / "postgres"
        self._data = self._home / "data"
        self.log_path = LOG_DIR / "faults-postgres.log"
        # initdb refuses root: run the server as the postgres user then.
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            self._as = {"user": "postgres", "group": "postgres", "extra_groups": []}

    @property
    def url(self) -> str:
        return f"postgresql://postgres@{HOST}:{self.port}/postgres"

    def _run(self, *argv: str, timeout: float = SERVER_TIMEOUT) -> None:
        done = subprocess.run(
            list(argv),
            cwd=self._home,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            **self._as,
        )
        if done.returncode != 0:
            raise BenchError(f"{Path(argv[0]).name} failed: {(done.stderr or done.stdout)[-800:]}")

    def create(self) -> None:
        self._home.mkdir(parents=True)
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        self.log_path.write_text("")
        if self._as:
            shutil.chown(self._home, "postgres", "postgres")
            shutil.chown(self.log_path, "postgres", "postgres")
        self._run(
            str(self._bin / "initdb"),
            "-D", str(self._data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync",
        )  # fmt: skip

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self._home} -c listen_addresses={HOST} "
            "-c max_connections=300 -c fsync=on"
        )
        self._run(
            str(self._bin / "pg_ctl"), "-D", str(self._data), "-l", str(self.log_path),
            "-o", options, "-w", "-t", str(int(SERVER_TIMEOUT)), "start",
        )  # fmt: skip

    def running(self) -> bool:
        return (self._data / "postmaster.pid").exists()

    def stop(self, mode: str = "fast") -> None:
        if not self.running():
            return
        self._run(
            str(self._bin / "pg_ctl"), "-D", str(self._data), "-m", mode,
            "-w", "-t", str(int(SERVER_TIMEOUT)), "stop",
        )  # fmt: skip

    def destroy(self, keep: bool) -> None:
        try:
            self.stop("fast")
        except (BenchError, subprocess.TimeoutExpired) as exc:
            print(f"  PostgreSQL did not stop cleanly ({exc}): immediate", file=sys.stderr)
            with contextlib.suppress(BenchError, subprocess.TimeoutExpired):
                self.stop("immediate")
        if keep:
            print(f"  kept the PostgreSQL data directory {self._data}")
        else:
            shutil.rmtree(self._home, ignore_errors=True)


def _rabbitmq_bin(explicit: str | None) -> Path:
    """The directory of rabbitmq-server and rabbitmqctl themselves (not /usr/sbin's
    wrappers, which switch to the rabbitmq user and its cookie)."""
    candidates = [Path(explicit)] if explicit else []
    candidates.append(Path("/usr/lib/rabbitmq/bin"))
    found = shutil.which("rabbitmq-server")
    if found:
        candidates.append(Path(found).resolve().parent)
    for path in candidates:
        if (path / "rabbitmq-server").exists() and (path / "rabbitmqctl").exists():
            return path
    raise BenchError("no rabbitmq-server found (give --rabbitmq-bin DIR)")


class PrivateRabbit:
    """A RabbitMQ node of this run: its own name, ports, data, cookie; no plugins."""

    def __init__(self, workdir: Path, port: int, bin_dir: Path) -> None:
        self.port = port
        self._bin = bin_dir
        self._home = workdir / "rabbitmq"
        self.node = f"deckyard-faults-{uuid.uuid4().hex[:6]}@localhost"
        self.log_path = LOG_DIR / "faults-rabbitmq.log"
        self._process: subprocess.Popen[bytes] | None = None
        self._log_file: Any = None

    @property
    def uri(self) -> str:
        return f"amqp://guest:guest@{HOST}:{self.port}/"

    def env(self) -> dict[str, str]:
        home = self._home
        return {
            **os.environ,
            "HOME": str(home),  # the Erlang cookie of this node and its rabbitmqctl
            "RABBITMQ_NODENAME": self.node,
            "RABBITMQ_NODE_IP_ADDRESS": HOST,
            "RABBITMQ_NODE_PORT": str(self.port),
            "RABBITMQ_DIST_PORT": str(self.port + 1),
            "RABBITMQ_MNESIA_BASE": str(home / "mnesia"),
            "RABBITMQ_LOG_BASE": str(home / "log"),
            "RABBITMQ_CONFIG_FILE": str(home / "rabbitmq.conf"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(home / "enabled_plugins"),  # none: no 15672
            "RABBITMQ_CONF_ENV_FILE": str(home / "rabbitmq-env.conf"),  # not /etc/rabbitmq's
            "RABBITMQ_PID_FILE": str(home / "rabbitmq.pid"),
            "ERL_EPMD_ADDRESS": HOST,
            "ERL_FLAGS": "-kernel inet_dist_use_interface {127,0,0,1}",
        }

    def create(self) -> None:
        home = self._home
        (home / "mnesia").mkdir(parents=True)
        (home / "log").mkdir()
        (home / "rabbitmq.conf").write_text(
            f"listeners.tcp.local = {HOST}:{self.port}\nloopback_users = none\n"
        )
        (home / "enabled_plugins").write_text("[].\n")
        (home / "rabbitmq-env.conf").write_text("")
        cookie = home / ".erlang.cookie"
        cookie.write_text(uuid.uuid4().hex.upper())
        cookie.chmod(0o400)
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        self._log_file = open(self.log_path, "ab")  # noqa: SIM115 (closed in destroy)

    def ctl(self, *args: str, timeout: float = 90) -> str:
        done = subprocess.run(
            [str(self._bin / "rabbitmqctl"), "-q", "-n", self.node, *args],
            env=self.env(),
            cwd=self._home,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode != 0:
            raise BenchError(f"rabbitmqctl {' '.join(args)}: {(done.stderr or done.stdout)[-500:]}")
        return done.stdout

    def start(self) -> None:
        self._process = subprocess.Popen(
            [str(self._bin / "rabbitmq-server")],
            env=self.env(),
            cwd=self._home,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + SERVER_TIMEOUT
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise BenchError(f"rabbitmq-server exited ({self.log_path})")
            if amqp_reachable(self.uri):
                return
            time.sleep(0.25)
        raise BenchError(f"RabbitMQ did not start in {SERVER_TIMEOUT:.0f}s ({self.log_path})")

    def stop(self) -> None:
        process = self._process
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(BenchError, subprocess.TimeoutExpired):
            self.ctl("stop", timeout=SERVER_TIMEOUT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            _kill_session(process, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                _kill_session(process, signal.SIGKILL)
                process.wait(timeout=10)

    def destroy(self, keep: bool) -> None:
        try:
            self.stop()
        finally:
            if self._log_file is not None:
                self._log_file.close()
            if keep:
                print(f"  kept the RabbitMQ data directory {self._home}")
            else:
                shutil.rmtree(self._home, ignore_errors=True)


def _kill_session(process: subprocess.Popen[bytes], signum: int) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signum)  # its own session: pgid == pid


def amqp_reachable(uri: str) -> bool:
    from kombu import Connection

    try:
        with Connection(uri, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1)
        return True
    except Exception:
        return False


def run_shell(command: str) -> None:
    done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise BenchError(f"{command!r} failed ({done.returncode}): {done.stderr.strip()[-500:]}")


@dataclass
class Servers:
    """Where the platform's PostgreSQL and RabbitMQ are, and how to restart them."""

    database_url: str
    amqp_uri: str
    restart_postgres: Callable[[float], None] | None
    restart_rabbitmq: Callable[[float], None] | None
    describe: str
    queue_depths: Callable[[], dict[str, tuple[int, int]]]


@contextmanager
def servers(args: argparse.Namespace) -> Iterator[Servers]:
    """Private servers (default) or the given ones; everything started here is stopped."""
    with ExitStack() as stack:
        workdir = Path(tempfile.mkdtemp(prefix="deckyard-faults-"))
        workdir.chmod(0o755)  # the postgres user enters it
        if not args.keep:
            stack.callback(shutil.rmtree, workdir, True)
        if args.database_url:
            database_url = args.database_url
            pg_text = f"PostgreSQL {_redact(database_url)} (given)"
            restart_pg = _shell_restart(args.postgres_restart)
        else:
            pg = PrivatePostgres(workdir, args.pg_port, _postgres_bin(args.pg_bin))
            log(f"private PostgreSQL on {HOST}:{pg.port} (initdb, {pg.log_path})")
            stack.callback(_quietly, pg.destroy, args.keep)
            pg.create()
            pg.start()
            database_url = pg.url

            def restart_pg(downtime: float, pg: PrivatePostgres = pg) -> None:
                pg.stop(args.pg_stop_mode)
                time.sleep(downtime)
                pg.start()

            pg_text = f"private PostgreSQL cluster on port {pg.port} (stop -m {args.pg_stop_mode})"
        if args.amqp_uri:
            amqp_uri = stack.enter_context(private_vhost(args.amqp_uri, False, VHOST_PREFIX))
            rmq_text = f"RabbitMQ {_redact(args.amqp_uri)} (given), vhost of its own"
            restart_rmq = _shell_restart(args.rabbitmq_restart)
            vhost = unquote(urlsplit(amqp_uri).path.lstrip("/"))

            def depths() -> dict[str, tuple[int, int]]:
                return parse_queue_list(
                    _rabbitmqctl_default("list_queues", "-p", vhost, *QUEUE_COLUMNS)
                )
        else:
            rabbit = PrivateRabbit(workdir, args.amqp_port, _rabbitmq_bin(args.rabbitmq_bin))
            log(f"private RabbitMQ node {rabbit.node} on {HOST}:{rabbit.port} ({rabbit.log_path})")
            stack.callback(_quietly, rabbit.destroy, args.keep)
            rabbit.create()
            rabbit.start()
            amqp_uri = rabbit.uri

            def restart_rmq(downtime: float, rabbit: PrivateRabbit = rabbit) -> None:
                rabbit.stop()
                time.sleep(downtime)
                rabbit.start()

            def depths(rabbit: PrivateRabbit = rabbit) -> dict[str, tuple[int, int]]:
                return parse_queue_list(rabbit.ctl("list_queues", *QUEUE_COLUMNS))

            rmq_text = f"private RabbitMQ node on port {rabbit.port} (rabbitmqctl stop, start)"
        yield Servers(
            database_url, amqp_uri, restart_pg, restart_rmq, f"{pg_text}; {rmq_text}", depths
        )


def _quietly(stop: Callable[[bool], None], keep: bool) -> None:
    with ignoring_stop_signals():
        try:
            stop(keep)
        except Exception as exc:  # report and go on with the rest of the clean-up
            print(f"  clean-up: {exc}", file=sys.stderr)


def _shell_restart(command: str | None) -> Callable[[float], None] | None:
    if not command:
        return None

    def restart(downtime: float) -> None:
        run_shell(command)

    return restart


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url


QUEUE_COLUMNS = ("name", "messages_ready", "messages_unacknowledged")


def _rabbitmqctl_default(*args: str) -> str:
    done = subprocess.run(
        ["rabbitmqctl", "-q", *args], capture_output=True, text=True, timeout=90, check=False
    )
    if done.returncode != 0:
        raise BenchError(f"rabbitmqctl {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def parse_queue_list(text: str) -> dict[str, tuple[int, int]]:
    found = {}
    for line in text.splitlines():
        cells = line.split()
        if len(cells) == 3 and cells[1].isdigit() and cells[2].isdigit():
            found[cells[0]] = (int(cells[1]), int(cells[2]))
    return found


# -- the platform ---------------------------------------------------------------------------


class Platform(Children):
    """The service processes; one of them can be killed and started again."""

    def __init__(self, deckyard: Sequence[str], env: dict[str, str], args: argparse.Namespace):
        super().__init__("faults")
        self._deckyard = list(deckyard)
        self._env = env
        self._args = args
        self.current: dict[str, Child] = {}
        self.starts: Counter[str] = Counter()

    def health_port(self, service: str) -> int:
        return self._args.base_port + 81 + SERVICES.index(service)

    def start_service(self, service: str) -> Child:
        self.starts[service] += 1
        env = dict(self._env)
        if service != "gateway":
            env["HEALTH_PORT"] = str(self.health_port(service))
        name = service if self.starts[service] == 1 else f"{service}-{self.starts[service]}"
        child = self.start(
            name, [*self._deckyard, "run", "--service", service], env, self._args.source
        )
        self.current[service] = child
        return child

    def sigkill(self, service: str) -> int:
        child = self.current.pop(service)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.process.pid, signal.SIGKILL)
        child.process.wait(timeout=10)
        child.log_file.close()
        self._children.remove(child)
        return child.process.pid

    def dead(self) -> list[str]:
        return [s for s, c in self.current.items() if not c.running()]


def ready_states(platform: Platform, gateway_port: int) -> dict[str, int]:
    """The status of every service's /ready and of the gateway's (0: no answer)."""
    states = {s: http_get(platform.health_port(s), "/ready")[0] for s in SERVICES}
    states["gateway"] = http_get(gateway_port, "/ready")[0]
    return states


def wait_ready(platform: Platform, gateway_port: int, timeout: float) -> dict[str, int]:
    """Until every /ready is 200 (returns {}) or ``timeout``: the last states otherwise
    (-1: the process exited, which nothing here repairs)."""
    deadline = time.monotonic() + timeout
    states: dict[str, int] = {}
    while time.monotonic() < deadline:
        dead = platform.dead()
        if dead:
            return {service: -1 for service in dead}
        states = ready_states(platform, gateway_port)
        if all(status == 200 for status in states.values()):
            return {}
        time.sleep(0.5)
    return states


# -- HTTP clients -------------------------------------------------------------------------


class Client:
    """One keep-alive connection to the gateway from one loopback source address."""

    def __init__(self, port: int, source: str, recorder: Recorder, label: str) -> None:
        self._port = port
        self._source = source
        self._conn: http.client.HTTPConnection | None = None
        self._recorder = recorder
        self._label = label

    def request(
        self, method: str, path: str, token: str, body: Any = None
    ) -> tuple[int, Any, dict[str, str]]:
        headers = {"Authorization": f"Bearer {token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            if self._conn is None:
                self._conn = http.client.HTTPConnection(
                    HOST, self._port, timeout=HTTP_TIMEOUT, source_address=(self._source, 0)
                )
            self._conn.request(method, path, body=data, headers=headers)
            response = self._conn.getresponse()
            raw = response.read()
            status = response.status
            reply_headers = {k.lower(): v for k, v in response.getheaders()}
            if response.will_close:
                self.close()
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            self._recorder.response(self._label, 0)
            return 0, str(exc), {}
        self._recorder.response(self._label, status)
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw[:300].decode(errors="replace")
        return status, parsed, reply_headers

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


class FlowFailed(Exception):
    """A step gave up: a refusal it cannot retry, or the platform did not answer in time."""


class Stopped(Exception):
    """The run is over (Ctrl-C or the end of the load's grace time)."""


@dataclass
class Recorder:
    """What the clients saw, shared by every thread."""

    started: float = field(default_factory=time.monotonic)
    wall_started: float = field(default_factory=time.time)
    responses: list[tuple[float, str, int]] = field(default_factory=list)
    flows: Counter[tuple[str, str]] = field(default_factory=Counter)
    failures: list[tuple[float, str, str]] = field(default_factory=list)
    completed_attempts: dict[str, str] = field(default_factory=dict)  # attempt -> player
    finished_matches: dict[str, str] = field(default_factory=dict)  # match -> player
    starters: dict[str, str] = field(default_factory=dict)  # player -> affinity

    def __post_init__(self) -> None:
        self.lock = threading.Lock()

    def now(self) -> float:
        return time.monotonic() - self.started

    def response(self, label: str, status: int) -> None:
        with self.lock:
            self.responses.append((self.now(), label, status))

    def flow(self, kind: str, outcome: str) -> None:
        with self.lock:
            self.flows[(kind, outcome)] += 1

    def failed(self, kind: str, reason: str) -> None:
        with self.lock:
            self.flows[(kind, "failed")] += 1
            self.failures.append((self.now(), kind, reason[:300]))


class Player:
    """One new player: a development token, a client, retries of each step."""

    def __init__(
        self,
        client: Client,
        settings: Any,
        rng: random.Random,
        halt: threading.Event,
        think: bool = True,
    ) -> None:
        from gateway.devauth import mint_token

        self.sub = f"auth0|faults-{uuid.uuid4().hex}"
        self.token = mint_token(
            self.sub,
            audience=settings.auth0_audience,
            roles_claim=settings.auth0_roles_claim,
            ttl_seconds=3600,
        )
        self.client = client
        self.rng = rng
        self.halt = halt
        self.think = think
        self.id = ""

    def call(
        self,
        method: str,
        path: str,
        body: Any | Callable[[], Any] = None,
        ok: Sequence[int] = (200, 201),
        also: Sequence[int] = (),
    ) -> tuple[int, Any]:
        """Retry while the platform is away (0, 429, 5xx) for at most STEP_TIMEOUT."""
        deadline = time.monotonic() + STEP_TIMEOUT
        pause = 0.25
        while True:
            if self.halt.is_set():
                raise Stopped
            if self.think:
                time.sleep(self.rng.uniform(*THINK))
            payload = body() if callable(body) else body
            status, data, headers = self.client.request(method, path, self.token, payload)
            if status in ok or status in also:
                return status, data
            if status not in RETRY_STATUSES or time.monotonic() > deadline:
                raise FlowFailed(f"{method} {_shape(path)} -> {status} {str(data)[:200]}")
            wait = pause
            if status == 429:
                with contextlib.suppress(ValueError):
                    wait = max(wait, float(headers.get("retry-after", "1")))
            time.sleep(min(wait, 5.0))
            pause = min(pause * 2, 2.0)

    def me(self) -> None:
        _, body = self.call("GET", "/me")
        self.id = body["id"]

    def starter(self) -> dict[str, Any]:
        affinity = self.rng.choice(AFFINITIES)
        _, grant = self.call("POST", "/quest/starter", {"affinity": affinity})
        return dict(grant)

    def attempt(self, event_id: str) -> dict[str, Any]:
        def location() -> dict[str, Any]:
            return {
                "location": {
                    "lat": CENTRE[0],
                    "lon": CENTRE[1],
                    "accuracy_m": 10.0,
                    "acquired_at": datetime.now(UTC).isoformat(),
                }
            }

        _, view = self.call("POST", f"/quest/events/{event_id}/attempt", location)
        attempt_id = view["id"]
        for question in view["questions"]:
            options = question["options"]
            right = [o for o in options if o["text"] == "right"]
            if right and self.rng.random() < RIGHT_ANSWER_SHARE:
                choice = right[0]["id"]
            else:
                choice = self.rng.choice(options)["id"]
            path = f"/quest/attempts/{attempt_id}/answers/{question['index']}"
            _, view = self.call("PUT", path, {"choice": choice})
        return dict(view)

    def battle(self, play_out: bool) -> dict[str, Any]:
        grant = self.starter()
        cards = sorted(grant["cards"], key=lambda c: (c["kind"], c["name"]))
        body = {"name": "Faults", "cards": [c["id"] for c in cards]}
        _, deck = self.call("POST", "/quest/decks", body)
        status, view = self.call("POST", "/quest/battles", {"deckId": deck["id"]}, also=(409,))
        if status == 409:  # a retried start whose first reply was lost
            match_id = view.get("match_id") if isinstance(view, dict) else None
            if not match_id:
                raise FlowFailed(f"POST /quest/battles -> 409 {view}")
            _, view = self.call("GET", f"/quest/battles/{match_id}")
        path = f"/quest/battles/{view['id']}"
        actions = 0
        budget = MAX_ACTIONS if play_out else self.rng.randint(0, 3)
        while view["status"] != "finished" and actions < budget:
            action = choose(view)
            if action is None:
                break
            version = view["version"]
            body = {
                "expectedVersion": version,
                "action": action,
                "idempotencyKey": f"{view['id']}-{version}",
            }
            status, answer = self.call("POST", path + "/actions", body, also=(409,))
            if status == 409:  # stale: read the match again
                _, view = self.call("GET", path)
            else:
                view = answer
            actions += 1
        if view["status"] != "finished":
            version = view["version"]
            body = {"expectedVersion": version, "idempotencyKey": f"{view['id']}-forfeit"}
            status, answer = self.call("POST", path + "/forfeit", body, also=(409,))
            view = answer if status == 200 else self.call("GET", path)[1]
        return dict(view)


def _shape(path: str) -> str:
    """The path with ids replaced, for error messages."""
    return "/".join("{id}" if len(part) == 36 else part for part in path.split("/"))


def damage(view: dict[str, Any], action: dict[str, Any]) -> int:
    you = view["you"]
    move = you["creatures"][you["active"]]["moves"][action["index"]]
    return int(sum(e.get("amount", 0) for e in move["effects"] if e["type"] == "damage"))


def choose(view: dict[str, Any]) -> dict[str, Any] | None:
    """A greedy player (as tests/e2e/test_quest_battle_api.py): the hardest-hitting
    move, else a Power card, else a selection."""
    legal = [a for a in view.get("legal_actions", []) if a["kind"] != "forfeit"]
    moves = [a for a in legal if a["kind"] == "use_move"]
    if moves:
        try:
            return max(moves, key=lambda a: damage(view, a))
        except (KeyError, IndexError, TypeError):
            return moves[0]
    for kind in ("play_power_card", "select_creature"):
        options = [a for a in legal if a["kind"] == kind]
        if options:
            return options[0]
    return legal[0] if legal else None


# -- the load -------------------------------------------------------------------------------

CENTRE = (51.5080, -0.1281)  # bench/answers.py's event


class Load:
    """``workers`` threads, each playing one new player after the other."""

    def __init__(
        self, args: argparse.Namespace, settings: Any, event_id: str, recorder: Recorder
    ) -> None:
        self._args = args
        self._settings = settings
        self._event_id = event_id
        self.recorder = recorder
        self.stop_new = threading.Event()  # finish the current flow, start no other
        self.halt = threading.Event()  # give up at once
        self._threads = [
            threading.Thread(target=self._work, args=(n,), name=f"load-{n}", daemon=True)
            for n in range(args.workers)
        ]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float) -> int:
        """Let each thread finish its flow (at most ``timeout``); how many did not."""
        self.stop_new.set()
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        self.halt.set()
        for thread in self._threads:
            thread.join(5)
        return sum(thread.is_alive() for thread in self._threads)

    def _work(self, n: int) -> None:
        rng = random.Random()
        # 127.0.0.0/8 is loopback: each thread is another client address for the gateway.
        client = Client(
            self._args.base_port, f"127.0.{1 + n // 200}.{10 + n % 200}", self.recorder, "load"
        )
        kinds = list(FLOW_WEIGHTS)
        weights = [FLOW_WEIGHTS[k] for k in kinds]
        while not self.stop_new.is_set():
            kind = rng.choices(kinds, weights)[0]
            player = Player(client, self._settings, rng, self.halt)
            try:
                run_flow(kind, player, self._event_id, rng, self.recorder)
            except Stopped:
                return
            except FlowFailed as exc:
                self.recorder.failed(kind, str(exc))
            except Exception as exc:  # a bug of this script: note it, keep the load going
                self.recorder.failed(kind, f"{type(exc).__name__}: {exc}")
        client.close()


def run_flow(
    kind: str, player: Player, event_id: str, rng: random.Random, recorder: Recorder
) -> dict[str, Any]:
    """One player's flow; what the client was told is noted in ``recorder``."""
    player.me()
    if kind == "attempt":
        view = player.attempt(event_id)
        if view["status"] != "completed":
            raise FlowFailed(f"the attempt is {view['status']} after five answers")
        with recorder.lock:
            recorder.completed_attempts[view["id"]] = player.id
        recorder.flow(kind, "completed")
        return view
    if kind == "starter":
        grant = player.starter()
        with recorder.lock:
            recorder.starters[player.id] = grant["affinity"]
        recorder.flow(kind, "completed")
        return grant
    view = player.battle(rng.random() < PLAY_OUT_SHARE)
    if view["status"] != "finished":
        raise FlowFailed(f"the match is {view['status']} after forfeit")
    with recorder.lock:
        recorder.finished_matches[view["id"]] = player.id
        recorder.starters[player.id] = "battle"
    recorder.flow(kind, "completed")
    return view


@dataclass
class Probe:
    ok: bool
    text: str
    reward_s: float | None = None  # attempt completed -> its reward shown
    points_s: float | None = None  # both entries in the player's progression


def probe(
    port: int, settings: Any, event_id: str, recorder: Recorder, halt: threading.Event
) -> Probe:
    """A new player after a fault: starter, a battle forfeited, an attempt; then wait for
    the attempt's reward and both progression entries (the event paths)."""
    rng = random.Random()
    client = Client(port, "127.0.0.2", recorder, "probe")
    try:
        battler = Player(client, settings, rng, halt, think=False)
        match = run_flow("battle", battler, event_id, rng, recorder)
        quester = Player(client, settings, rng, halt, think=False)
        attempt = run_flow("attempt", quester, event_id, rng, recorder)
        completed = time.monotonic()
        reward_s = points_s = None
        deadline = completed + PROBE_TIMEOUT
        while time.monotonic() < deadline and (reward_s is None or points_s is None):
            if reward_s is None:
                _, view = quester.call("GET", f"/quest/attempts/{attempt['id']}")
                if view.get("result", {}).get("reward", {}).get("status") == "granted":
                    reward_s = time.monotonic() - completed
            if points_s is None:
                sources = set()
                for player in (battler, quester):
                    _, progression = player.call("GET", "/me/progression")
                    sources |= {e["source_id"] for e in progression.get("entries", [])}
                if {match["id"], attempt["id"]} <= sources:
                    points_s = time.monotonic() - completed
            time.sleep(0.2)
    except FlowFailed as exc:
        return Probe(False, f"failed: {exc}")
    finally:
        client.close()
    if reward_s is None or points_s is None:
        return Probe(False, f"effects missing after {PROBE_TIMEOUT:.0f}s", reward_s, points_s)
    return Probe(
        True,
        f"starter, battle, attempt ok; reward shown {reward_s:.1f}s and points "
        f"{points_s:.1f}s after completion",
        reward_s,
        points_s,
    )


# -- faults ---------------------------------------------------------------------------------


@dataclass
class FaultRecord:
    name: str
    at: float  # seconds into the load
    injected: str = ""
    back_at: float | None = None  # the process or server is up again
    ready_at: float | None = None  # every /ready answers 200
    probe: Probe | None = None
    probe_at: float | None = None
    skipped: str = ""

    @property
    def recovered(self) -> bool:
        return self.skipped != "" or (self.probe is not None and self.probe.ok)


class Timeline:
    def __init__(self, recorder: Recorder) -> None:
        self._recorder = recorder
        self.entries: list[tuple[float, str]] = []

    def note(self, text: str) -> None:
        at = self._recorder.now()
        self.entries.append((at, text))
        print(f"  [{at:7.1f}s] {text}", flush=True)


def inject(
    name: str,
    record: FaultRecord,
    platform: Platform,
    srv: Servers,
    args: argparse.Namespace,
    timeline: Timeline,
) -> None:
    rec = timeline._recorder
    if name == "cards":
        pid = platform.sigkill("cards")
        record.injected = f"SIGKILL cards (pid {pid})"
        timeline.note(record.injected)
        time.sleep(args.downtime)
        child = platform.start_service("cards")
        record.back_at = rec.now()
        timeline.note(f"cards started again (pid {child.process.pid})")
        return
    restart = srv.restart_postgres if name == "postgres" else srv.restart_rabbitmq
    what = "PostgreSQL" if name == "postgres" else "RabbitMQ"
    if restart is None:
        record.skipped = f"no --{name}-restart command for the given server"
        timeline.note(f"{what} restart skipped: {record.skipped}")
        return
    record.injected = f"{what} stopped"
    timeline.note(f"{what} stopping (down for {args.downtime:.0f}s, then started)")
    restart(args.downtime)
    record.back_at = rec.now()
    timeline.note(f"{what} accepts connections again")


def recover(
    record: FaultRecord,
    platform: Platform,
    args: argparse.Namespace,
    settings: Any,
    event_id: str,
    timeline: Timeline,
    halt: threading.Event,
) -> None:
    if record.skipped:
        return
    rec = timeline._recorder
    states = wait_ready(platform, args.base_port, READY_TIMEOUT)
    if states:
        exited = sorted(s for s, status in states.items() if status == -1)
        text = (
            f"{', '.join(exited)} exited (nothing restarts it)"
            if exited
            else f"not ready after {READY_TIMEOUT:.0f}s: {states}"
        )
        timeline.note(text)
        record.probe = Probe(False, text)
        return
    record.ready_at = rec.now()
    timeline.note("every /ready answers 200 (gateway and the five services)")
    record.probe = probe(args.base_port, settings, event_id, rec, halt)
    record.probe_at = rec.now()
    timeline.note(f"probe as a new player: {record.probe.text}")


# -- checking -------------------------------------------------------------------------------


def conninfo(settings: Any, service: str) -> str:
    url = settings.database_url_for(service).set(drivername="postgresql")
    return str(url.render_as_string(hide_password=False))


def query(settings: Any, service: str, sql: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(conninfo(settings, service), autocommit=True, connect_timeout=10) as conn:
        return [tuple(row) for row in conn.execute(sql).fetchall()]  # type: ignore[arg-type]


@dataclass
class Row:
    """One line of the results table."""

    check: str
    expected: int
    found: int
    doubled: int
    lost: int
    extra: int = 0
    note: str = ""

    @property
    def clean(self) -> bool:
        return self.doubled == 0 and self.lost == 0 and self.extra == 0


@dataclass
class Snapshot:
    rows: list[Row]
    outbox: dict[str, tuple[int, int, int]]  # service -> rows, unpublished, republished
    queues: dict[str, tuple[int, int]]
    active_attempts: int
    active_matches: int
    queue_error: str = ""

    @property
    def parked(self) -> dict[str, int]:
        return {q: r + u for q, (r, u) in self.queues.items() if q.endswith(".dead") and r + u}

    @property
    def waiting(self) -> dict[str, int]:
        """Messages still in a consumer or delay queue (not RPC replies)."""
        return {
            q: r + u
            for q, (r, u) in self.queues.items()
            if q.startswith("evt-") and not q.endswith(".dead") and r + u
        }

    @property
    def unpublished(self) -> int:
        return sum(pending for _, pending, _ in self.outbox.values())

    @property
    def settled(self) -> bool:
        return (
            all(row.lost == 0 for row in self.rows)
            and self.unpublished == 0
            and not self.waiting
            and self.active_attempts == 0
            and not self.queue_error
        )

    @property
    def clean(self) -> bool:
        return (
            all(row.clean for row in self.rows)
            and self.unpublished == 0
            and not self.parked
            and not self.waiting
            and not self.queue_error
        )


def snapshot(settings: Any, srv: Servers, recorder: Recorder) -> Snapshot:
    attempts = query(settings, "challenge", "SELECT id, status, reward IS NOT NULL FROM attempts")
    completed = {str(a): shown for a, status, shown in attempts if status == "completed"}
    active_attempts = sum(1 for _, status, _ in attempts if status == "active")
    grants = dict(
        (str(a), int(n))
        for a, n in query(
            settings, "cards", "SELECT attempt_id, jsonb_array_length(rarities) FROM reward_grants"
        )
    )
    reward_copies = _counts(
        query(
            settings,
            "cards",
            "SELECT source_id, count(*) FROM owned_cards "
            "WHERE source_type = 'reward' GROUP BY source_id",
        )
    )
    starters = {str(p) for (p,) in query(settings, "cards", "SELECT player_id FROM starter_grants")}
    starter_copies = _counts(
        query(
            settings,
            "cards",
            "SELECT source_id, count(*) FROM owned_cards "
            "WHERE source_type = 'starter' GROUP BY source_id",
        )
    )
    entries: dict[str, Counter[str]] = {"attempt": Counter(), "match": Counter()}
    for source_type, source_id, n in query(
        settings,
        "accounts",
        "SELECT source_type, source_id, count(*) FROM progression_entries GROUP BY 1, 2",
    ):
        entries.setdefault(source_type, Counter())[str(source_id)] += int(n)
    points_off = query(
        settings,
        "accounts",
        "SELECT p.id FROM players p LEFT JOIN progression_entries e ON e.player_id = p.id "
        "GROUP BY p.id, p.points HAVING p.points <> coalesce(sum(e.points), 0)",
    )
    players = query(settings, "accounts", "SELECT count(*) FROM players")[0][0]
    matches = query(settings, "battle", "SELECT id, status FROM matches")
    finished = {str(m) for m, status in matches if status == "finished"}
    active_matches = sum(1 for _, status in matches if status == "active")

    rows = [
        _row(
            "reward grant per completed attempt", set(completed), Counter(dict.fromkeys(grants, 1))
        ),
        Row(
            "reward copies (as rolled) per attempt",
            sum(grants.values()),
            sum(reward_copies.values()),
            doubled=sum(1 for a, n in reward_copies.items() if n > grants.get(a, 0)),
            lost=sum(1 for a, n in grants.items() if reward_copies.get(a, 0) < n),
            note="attempts with more / fewer copies than their grant rolled",
        ),
        Row(
            "reward shown in challenge",
            len(completed),
            sum(completed.values()),
            doubled=0,
            lost=sum(1 for shown in completed.values() if not shown),
            note="RewardGranted consumed",
        ),
        _row("progression entry per completed attempt", set(completed), entries["attempt"]),
        _row("progression entry per finished match", finished, entries["match"]),
        _row(
            "starter grant: 5 copies per player",
            starters,
            Counter({p: 1 for p, n in starter_copies.items() if n >= STARTER_COPIES}),
            doubled_extra=sum(1 for n in starter_copies.values() if n > STARTER_COPIES),
        ),
        Row(
            "player points = sum of entries",
            int(players),
            int(players) - len(points_off),
            doubled=0,
            lost=len(points_off),
            note="players whose total differs",
        ),
    ]
    with recorder.lock:
        told = (
            dict(recorder.completed_attempts),
            dict(recorder.finished_matches),
            set(recorder.starters),
        )
    rows += [
        _told("acknowledged attempt completions", told[0].keys(), set(completed)),
        _told("acknowledged finished matches", told[1].keys(), finished),
        _told("acknowledged starter grants", told[2], starters),
    ]
    outbox = {}
    for service in SERVICES:
        total, pending, republished = query(
            settings,
            service,
            "SELECT count(*), count(*) FILTER (WHERE published_at IS NULL), "
            "count(*) FILTER (WHERE attempts > 1) FROM outbox",
        )[0]
        outbox[service] = (int(total), int(pending), int(republished))
    queue_error = ""
    try:
        queues = srv.queue_depths()
    except (BenchError, subprocess.TimeoutExpired, OSError) as exc:
        queues, queue_error = {}, str(exc)
    return Snapshot(rows, outbox, queues, active_attempts, active_matches, queue_error)


def _counts(rows: list[tuple[Any, ...]]) -> Counter[str]:
    return Counter({str(key): int(n) for key, n in rows})


def _row(check: str, owed: set[str], got: Counter[str], doubled_extra: int = 0) -> Row:
    return Row(
        check,
        len(owed),
        sum(1 for key in got if key in owed),
        doubled=sum(1 for key, n in got.items() if n > 1) + doubled_extra,
        lost=len(owed - got.keys()),
        extra=len(got.keys() - owed),
    )


def _told(check: str, told: Any, stored: set[str]) -> Row:
    told = set(told)
    return Row(
        check,
        len(told),
        len(told & stored),
        doubled=0,
        lost=len(told - stored),
        note="what the clients were told, found in the database",
    )


def settle(
    settings: Any, srv: Servers, recorder: Recorder, timeout: float
) -> tuple[Snapshot, float]:
    """Snapshots until everything owed has happened or ``timeout``; (last, seconds)."""
    t0 = time.monotonic()
    last_print = t0
    while True:
        snap = snapshot(settings, srv, recorder)
        waited = time.monotonic() - t0
        if snap.settled or waited >= timeout:
            return snap, waited
        if time.monotonic() - last_print >= PROGRESS_EVERY:
            lost = {row.check: row.lost for row in snap.rows if row.lost}
            log(
                f"settling {waited:.0f}s: still owed {lost or 'nothing'}, outbox "
                f"{snap.unpublished}, queued {sum(snap.waiting.values())}, "
                f"active attempts {snap.active_attempts}"
            )
            last_print = time.monotonic()
        time.sleep(2)


def window_effects(
    settings: Any, recorder: Recorder, windows: Sequence[tuple[str, float, float]]
) -> list[tuple[str, tuple[Any, ...]]]:
    """Per window: attempts completed and the slowest completion -> reward granted;
    matches finished and the slowest finish -> progression entry; outbox rows
    written and the slowest write -> published (all from the databases' clocks)."""

    def at(moment: datetime) -> float:
        return moment.timestamp() - recorder.wall_started

    completed = dict(
        query(
            settings,
            "challenge",
            "SELECT id, completed_at FROM attempts WHERE status = 'completed'",
        )
    )
    granted = dict(query(settings, "cards", "SELECT attempt_id, granted_at FROM reward_grants"))
    finished = dict(
        query(settings, "battle", "SELECT id, finished_at FROM matches WHERE status = 'finished'")
    )
    recorded = dict(
        query(
            settings,
            "accounts",
            "SELECT source_id, recorded_at FROM progression_entries WHERE source_type = 'match'",
        )
    )
    outbox = [
        row
        for service in SERVICES
        for row in query(
            settings, service, "SELECT created_at, published_at, routing_key FROM outbox"
        )
    ]
    found = []
    for name, start, end in windows:
        attempts = [a for a, t in completed.items() if start <= at(t) < end]
        matches = [m for m, t in finished.items() if start <= at(t) < end]
        rows = [(c, p, kind) for c, p, kind in outbox if start <= at(c) < end]
        slowest = _slowest([(c, p) for c, p, _ in rows])
        if isinstance(slowest, float) and rows:
            kind = max(rows, key=lambda r: (r[1] - r[0]).total_seconds() if r[1] else 1e9)[2]
            slowest = f"{slowest:.1f} ({kind})"
        found.append(
            (
                name,
                (
                    len(attempts),
                    _slowest([(completed[a], granted.get(a)) for a in attempts]),
                    len(matches),
                    _slowest([(finished[m], recorded.get(m)) for m in matches]),
                    len(rows),
                    slowest,
                ),
            )
        )
    return found


def _slowest(pairs: Sequence[tuple[Any, Any]]) -> float | str:
    """The longest ``after - before`` in seconds; "never" if an ``after`` is missing."""
    if any(after is None for _, after in pairs):
        return "never"
    return max(((after - before).total_seconds() for before, after in pairs), default=0.0)


def _seconds(value: float) -> str:
    return f"{value:.1f}"


# -- report ---------------------------------------------------------------------------------


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(r[i])) for r in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = str(cells[0]).ljust(widths[0])
        rest = (str(c).rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))
        return "| " + " | ".join([first, *rest]) + " |"

    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), sep, *(line(r) for r in rows)])


def status_counts(responses: Sequence[tuple[float, str, int]]) -> dict[str, int]:
    counts = dict.fromkeys(("requests", "2xx", "4xx", "429", "500", "503", "other 5xx"), 0)
    counts["no answer"] = 0
    counts["requests"] = len(responses)
    for _, _, status in responses:
        if status == 0:
            counts["no answer"] += 1
        elif status in (429, 500, 503):
            counts[str(status)] += 1
        elif status >= 500:
            counts["other 5xx"] += 1
        elif status >= 400:
            counts["4xx"] += 1
        else:
            counts["2xx"] += 1
    return counts


def report(
    args: argparse.Namespace,
    srv: Servers,
    settings: Any,
    recorder: Recorder,
    timeline: Timeline,
    faults: Sequence[FaultRecord],
    snap: Snapshot,
    settled_s: float,
    load_s: float,
    unfinished_threads: int,
    total_s: float,
) -> bool:
    print()
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs, code {args.code}\n"
        f"servers: {srv.describe}\n"
        f"load: {args.workers} players at a time for {load_s:.0f}s; faults "
        f"{', '.join(f.name for f in faults) or 'none'}, each down {args.downtime:.0f}s; "
        f"settled {settled_s:.0f}s after the load (at most {args.settle:.0f}s); "
        f"whole run {total_s:.0f}s"
    )
    print("\nTimeline (seconds from the start of the load)")
    for at, text in timeline.entries:
        print(f"  {at:7.1f}  {text}")

    print("\nRecovery (no manual action: the runner only restarts what it killed or stopped)")
    rows = []
    for f in faults:
        if f.skipped:
            rows.append((f.name, f"{f.at:.0f}", "-", "-", "-", "skipped", "-"))
            continue
        ready = f"{f.ready_at - f.at:.1f}" if f.ready_at is not None else "never"
        back = f"{f.back_at - f.at:.1f}" if f.back_at is not None else "-"
        p = f.probe
        reward = f"{p.reward_s:.1f}" if p and p.reward_s is not None else "-"
        points = f"{p.points_s:.1f}" if p and p.points_s is not None else "-"
        rows.append(
            (f.name, f"{f.at:.0f}", back, ready, reward, "yes" if f.recovered else "NO", points)
        )
    print(
        table(
            (
                "fault", "at s", "back after s", "all /ready after s", "probe reward s",
                "recovered", "probe points s",
            ),
            rows,
        )
    )  # fmt: skip
    for f in faults:
        if f.probe is not None and not f.probe.ok:
            print(f"  {f.name}: probe {f.probe.text}")

    print("\nRequests of the load, by window")
    windows = _windows(faults, load_s)
    rows = []
    for name, start, end in windows:
        counts = status_counts(
            [r for r in recorder.responses if start <= r[0] < end and r[1] == "load"]
        )
        rows.append((name, f"{start:.0f}-{end:.0f}", *(str(v) for v in counts.values())))
    print(table(("window", "s", *status_counts([]).keys()), rows))
    print(
        "  (every step is retried on 0/429/5xx; 500 is an unhandled error in the gateway, "
        "503 a service or its database away)"
    )
    effects = window_effects(settings, recorder, windows)
    print("\nWork done in each window, and how long its effects took (seconds)")
    print(
        table(
            (
                "window", "attempts completed", "slowest reward", "matches finished",
                "slowest match points", "outbox rows", "slowest relay",
            ),
            [
                (name, *(_seconds(v) if isinstance(v, float) else str(v) for v in values))
                for name, values in effects
            ],
        )
    )  # fmt: skip
    kinds = sorted({k for k, _ in recorder.flows})
    flow_rows = [
        (k, str(recorder.flows[(k, "completed")]), str(recorder.flows[(k, "failed")]))
        for k in kinds
    ]
    print("\nFlows (a new player each; the probes' flows included)")
    print(table(("flow", "completed", "gave up"), flow_rows))
    for at, kind, reason in recorder.failures[:10]:
        print(f"  gave up at {at:.0f}s ({kind}): {reason}")
    if len(recorder.failures) > 10:
        print(f"  ... and {len(recorder.failures) - 10} more")
    if unfinished_threads:
        print(f"  {unfinished_threads} load thread(s) still in a flow at the end")

    print("\nEffects owed and found")
    print(
        table(
            ("check", "expected", "found", "doubled", "lost", "unexpected"),
            [
                (r.check, str(r.expected), str(r.found), str(r.doubled), str(r.lost), str(r.extra))
                for r in snap.rows
            ],
        )
    )
    print(
        f"  still active at the end: {snap.active_attempts} attempt(s), "
        f"{snap.active_matches} match(es) (nothing owed for them yet)"
    )

    print("\nOutboxes")
    print(
        table(
            ("service", "rows", "not published", "published after a failed try"),
            [(s, str(t), str(p), str(r)) for s, (t, p, r) in snap.outbox.items()],
        )
    )
    print("\nQueues")
    if snap.queue_error:
        print(f"  could not list the queues: {snap.queue_error}")
    events = {q: v for q, v in snap.queues.items() if q.startswith("evt-")}
    dead = [q for q in events if q.endswith(".dead")]
    retry = [q for q in events if ".retry." in q]
    print(
        f"  {len(events) - len(dead) - len(retry)} consumer queues, {len(retry)} delay queues, "
        f"{len(dead)} dead-letter queues; messages waiting: "
        f"{', '.join(f'{q} {n}' for q, n in snap.waiting.items()) or 'none'}; parked: "
        f"{', '.join(f'{q} {n}' for q, n in snap.parked.items()) or 'none'}"
    )
    recovered = all(f.recovered for f in faults)
    clean = snap.clean and recovered
    print(
        "\nRESULT: "
        + (
            "nothing lost, nothing doubled, every outbox row relayed, no message parked, "
            "every service recovered by itself"
            if clean
            else "PROBLEMS (see above)"
        )
    )
    return clean


def _windows(faults: Sequence[FaultRecord], load_s: float) -> list[tuple[str, float, float]]:
    """(name, start, end): before the faults, each fault to its probe's end, between."""
    windows = []
    cursor = 0.0
    for f in faults:
        if f.skipped:
            continue
        end = f.probe_at or f.ready_at or f.back_at or f.at
        windows.append(("steady" if cursor == 0.0 else "between", cursor, f.at))
        windows.append((f"during {f.name}", f.at, end))
        cursor = end
    windows.append(("after the faults", cursor, max(load_s, cursor) + LOAD_STOP_TIMEOUT))
    return [w for w in windows if w[2] > w[1]]


# -- running --------------------------------------------------------------------------------


def wait_for_catalogue(port: int, platform: Platform, expected: int) -> None:
    deadline = time.monotonic() + CATALOGUE_TIMEOUT
    count = 0
    while time.monotonic() < deadline:
        if platform.dead():
            raise BenchError(f"{platform.dead()} exited\n{platform.log_tails()}")
        status, body = http_get(port, "/cards/catalogue?game=quest")
        if status == 200:
            count = len(json.loads(body))
            if count >= expected:
                return
        time.sleep(0.5)
    raise BenchError(
        f"the catalogue has {count} of {expected} cards after {CATALOGUE_TIMEOUT:.0f}s"
    )


def run(args: argparse.Namespace) -> int:
    from shared.config import load_settings
    from shared.migrations import drop_database

    t_run = time.monotonic()
    ports = [args.base_port, *(args.base_port + 81 + n for n in range(len(SERVICES)))]
    if not args.database_url:
        ports.append(args.pg_port)
    if not args.amqp_uri:
        ports += [args.amqp_port, args.amqp_port + 1]
    refuse_busy_ports(ports)
    deckyard = [str(VENV / "bin" / "python"), "-m", "deckyard.cli"]
    print(f"code from {args.code}", flush=True)

    prefix = DATABASE_PREFIX
    if args.database_url:  # a shared server: names no other run uses
        prefix = f"{DATABASE_PREFIX}_{uuid.uuid4().hex[:8]}"
    with servers(args) as srv:
        base = service_env(
            database_prefix=prefix,
            rpc_exchange=RPC_EXCHANGE,
            gateway_port=args.base_port,
            health_port=args.base_port + 81,
            extra={
                "PYTHONPATH": str(args.source),
                "DATABASE_URL": srv.database_url,
                "AMQP_URI": srv.amqp_uri,
            },
        )
        settings = load_settings(base)
        try:
            return drive(args, srv, base, settings, deckyard, t_run)
        finally:
            if args.database_url and not args.keep:
                with ignoring_stop_signals():
                    for service in SERVICES:
                        with contextlib.suppress(Exception):
                            drop_database(settings, service)


def drive(
    args: argparse.Namespace,
    srv: Servers,
    base: dict[str, str],
    settings: Any,
    deckyard: list[str],
    t_run: float,
) -> int:
    from answers import publish_event

    log("migrating the five databases")
    migrate(deckyard, SERVICES, args.source, base)
    platform = Platform(deckyard, base, args)
    recorder = Recorder()
    timeline = Timeline(recorder)
    load: Load | None = None
    try:
        for service in PROCESSES:
            platform.start_service(service)
        states = wait_ready(platform, args.base_port, START_TIMEOUT)
        if states:
            raise BenchError(f"not ready after {START_TIMEOUT:.0f}s: {states}")
        log("seeding the catalogue (deckyard seed)")
        subprocess.run(
            [*deckyard, "seed"],
            cwd=args.source,
            env=base,
            check=True,
            timeout=300,
            stdout=subprocess.DEVNULL,
        )
        cards = len(json.loads((args.source / SEED).read_text()))
        wait_for_catalogue(args.base_port, platform, cards)
        event_id = str(publish_event(settings, 20))
        log(f"{cards} cards published; Quest event {event_id} in the challenge read model")

        recorder.started, recorder.wall_started = time.monotonic(), time.time()
        baseline = probe(args.base_port, settings, event_id, recorder, threading.Event())
        if not baseline.ok:
            raise BenchError(f"the platform does not work before any fault: {baseline.text}")
        recorder.started, recorder.wall_started = time.monotonic(), time.time()
        load = Load(args, settings, event_id, recorder)
        load.start()
        timeline.note(
            f"load started: {args.workers} players at a time (before it, a probe: {baseline.text})"
        )
        faults = [FaultRecord(name, args.duration * FAULT_AT[name]) for name in args.faults]
        next_progress = PROGRESS_EVERY
        for record in faults:
            while recorder.now() < record.at:
                time.sleep(0.2)
                if recorder.now() >= next_progress:
                    _progress(recorder)
                    next_progress = recorder.now() + PROGRESS_EVERY
            record.at = recorder.now()
            inject(record.name, record, platform, srv, args, timeline)
            recover(record, platform, args, settings, event_id, timeline, load.halt)
            if not record.skipped:  # the next fault waits for a stretch of plain load
                for later in faults[faults.index(record) + 1 :]:
                    later.at = max(later.at, recorder.now() + MIN_GAP)
        while recorder.now() < args.duration:
            time.sleep(0.2)
            if recorder.now() >= next_progress:
                _progress(recorder)
                next_progress = recorder.now() + PROGRESS_EVERY
        load_s = recorder.now()
        timeline.note("load stops: no new players; current flows finish")
        unfinished = load.stop(LOAD_STOP_TIMEOUT)
        timeline.note(f"load stopped ({_flows_text(recorder)})")
        log(f"settling: at most {args.settle:.0f}s for every effect owed")
        snap, settled_s = settle(settings, srv, recorder, args.settle)
        timeline.note(f"checked after {settled_s:.0f}s of settling")
        states = ready_states(platform, args.base_port)
        if any(status != 200 for status in states.values()):
            timeline.note(f"at the end, /ready: {states}")
            faults.append(
                FaultRecord("final /ready", recorder.now(), probe=Probe(False, str(states)))
            )
        log("stopping the platform")
    finally:
        if load is not None:
            load.halt.set()
        with ignoring_stop_signals():
            platform.stop_all()
    clean = report(
        args,
        srv,
        settings,
        recorder,
        timeline,
        faults,
        snap,
        settled_s,
        load_s,
        unfinished,
        time.monotonic() - t_run,
    )
    return 0 if clean else 1


def _flows_text(recorder: Recorder) -> str:
    with recorder.lock:
        done = Counter({k: n for (k, o), n in recorder.flows.items() if o == "completed"})
        failed = sum(n for (_, o), n in recorder.flows.items() if o == "failed")
    return ", ".join(f"{k} {n}" for k, n in sorted(done.items())) + f"; gave up {failed}"


def _progress(recorder: Recorder) -> None:
    with recorder.lock:
        recent = [r for r in recorder.responses if r[0] >= recorder.now() - PROGRESS_EVERY]
    counts = status_counts(recent)
    failed = sum(v for k, v in counts.items() if k in ("500", "503", "other 5xx", "no answer"))
    log(
        f"[{recorder.now():7.1f}s] flows: {_flows_text(recorder)}; last {PROGRESS_EVERY:.0f}s: "
        f"{counts['requests']} requests, {failed} failed (5xx or no answer)"
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=240.0, help="seconds of load")
    parser.add_argument("--workers", type=int, default=8, help="players at a time")
    parser.add_argument(
        "--settle", type=float, default=300.0, help="seconds at most for the effects after the load"
    )
    parser.add_argument(
        "--downtime", type=float, default=5.0, help="seconds each fault keeps its target down"
    )
    parser.add_argument(
        "--faults",
        default=",".join(FAULTS),
        help=f"which faults, in order (default {','.join(FAULTS)}; '' for none)",
    )
    parser.add_argument("--pg-stop-mode", choices=("fast", "immediate"), default="fast")
    parser.add_argument("--base-port", type=int, default=19600, help="gateway; health +81..+85")
    parser.add_argument("--pg-port", type=int, default=55433, help="the private PostgreSQL")
    parser.add_argument(
        "--amqp-port", type=int, default=55672, help="the private RabbitMQ (and +1: Erlang)"
    )
    parser.add_argument("--pg-bin", help="directory of initdb and pg_ctl")
    parser.add_argument("--rabbitmq-bin", help="directory of rabbitmq-server and rabbitmqctl")
    parser.add_argument(
        "--database-url", help="use this PostgreSQL server instead of a private one"
    )
    parser.add_argument("--amqp-uri", help="use this RabbitMQ instead of a private node")
    parser.add_argument("--postgres-restart", help="shell command restarting --database-url's")
    parser.add_argument("--rabbitmq-restart", help="shell command restarting --amqp-uri's")
    parser.add_argument("--source", metavar="DIR", help="run the project's code from DIR")
    parser.add_argument(
        "--keep", action="store_true", help="keep the data directories / databases afterwards"
    )
    args = parser.parse_args(argv)
    args.faults = [f for f in (s.strip() for s in args.faults.split(",")) if f]
    unknown = set(args.faults) - set(FAULTS)
    if unknown or len(set(args.faults)) != len(args.faults):
        parser.error(f"--faults takes each of {', '.join(FAULTS)} at most once")
    if not (30 <= args.duration <= 3600 and 1 <= args.workers <= 200):
        parser.error("--duration must be in 30..3600 and --workers in 1..200")
    if not (0 < args.settle <= 3600 and 0 <= args.downtime <= 120):
        parser.error("--settle must be in (0, 3600] and --downtime in 0..120")
    try:
        args.source = resolve_source(args.source)
    except BenchError as exc:
        parser.error(str(exc))
    args.code = describe_code(args.source)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    return script_main(parse_args, run, argv, failed_status=2)


if __name__ == "__main__":
    sys.exit(main())
