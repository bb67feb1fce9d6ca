"""A private PostgreSQL cluster and RabbitMQ node, or the given ones, and their restarts."""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from harness import (
    HOST,
    LOG_DIR,
    BenchError,
    ignoring_stop_signals,
    private_vhost,
)

from faults.config import SERVER_TIMEOUT, VHOST_PREFIX, log


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
