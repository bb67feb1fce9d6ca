"""Plumbing shared by the benchmark scripts (``run.py`` and the scripts it runs, and others).

Standard library only at import time, so a script can import it before it
re-runs itself in the project's virtualenv (:func:`reexec_in_venv`); the few
helpers that need the project's code import it when called. It holds:

* a script's ``main`` and its shared options (:func:`script_main`,
  :func:`add_stack_options`, :func:`resolve_source_option`);
* starting service processes and stopping them, by pid (SIGTERM to each
  child's own process group, then SIGKILL after a grace period), also on
  failure and Ctrl-C (:func:`children`, :func:`terminate_on_sigterm`);
* waiting until a URL answers (:func:`http_get`, :func:`wait_until`);
* running wrk with a Lua script that prints a ``BENCH`` line (``report.lua``)
  and parsing that line (:func:`wrk_command`, :func:`run_wrk`,
  :func:`parse_report`);
* CPU accounting from ``/proc`` (:class:`CpuWindow`);
* results and tables: :class:`Result`, :func:`table` (one script's wrk runs),
  :func:`summary_table` (``run.py``'s one table, with :func:`times_baseline`),
  :func:`markdown`, :func:`percentile`, :func:`cpu_summary`, :func:`log_problems`;
* the services' environment (:func:`service_env`), ``deckyard migrate``
  (:func:`migrate`), a gateway stack's environment and tokens
  (:func:`gateway_stack_env`, :func:`dev_tokens`), starting it
  (:func:`start_stack`), fresh databases (:func:`fresh_databases`),
  ``--source DIR`` (:func:`resolve_source`, :func:`describe_code`);
* a private RabbitMQ virtual host per run (:func:`private_vhost`): nameko
  names every service's RPC queue ``rpc-<service>`` whatever the RPC
  exchange, so two stacks on one vhost would take each other's calls.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote, urlsplit, urlunsplit

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
VENV = ROOT / ".venv"
REPORT_LUA = BENCH / "report.lua"
LOG_DIR = BENCH / "results" / "logs"

HOST = "127.0.0.1"  # loopback only, always
DEV_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
DEV_AMQP_URI = "amqp://guest:guest@127.0.0.1:5672/"

START_TIMEOUT = 60.0  # seconds for services to answer after start
MIGRATE_TIMEOUT = 180.0
STOP_GRACE = 15.0  # seconds between SIGTERM and SIGKILL
WRK_SLACK = 30.0  # seconds wrk may run beyond its duration before it is killed
CLK_TCK = os.sysconf("SC_CLK_TCK")
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class BenchError(RuntimeError):
    """The benchmark could not run; the message says why."""


# -- the interpreter and the code under test ----------------------------------------------


def in_venv() -> bool:
    """Whether this interpreter is the project's virtualenv's."""
    return Path(sys.prefix).resolve() == VENV.resolve()


def reexec_in_venv() -> None:
    """Re-run this script with ``.venv/bin/python`` unless already in it (or it is missing)."""
    python = VENV / "bin" / "python"
    if not in_venv() and python.exists():
        os.execv(str(python), [str(python), *sys.argv])


def resolve_source(source: str | Path | None, marker: str = "deckyard/cli.py") -> Path:
    """The directory of the project's code: ``--source DIR`` resolved, or this checkout.

    Raises BenchError if DIR has no ``marker`` file (it is not a copy of the project).
    """
    if source is None:
        return ROOT
    path = Path(source).resolve()
    if not (path / marker).exists():
        raise BenchError(f"--source {path}: not a copy of the project")
    return path


def describe_code(source: Path) -> str:
    """The commit the project's code is at, and whether the tree has changes."""
    try:
        done = subprocess.run(
            ["git", "-C", str(source), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return f"{source} (not a git checkout)"
    return f"{source} at {done.stdout.strip()}"


def engines_built() -> str:
    """How the game engines run in this process: compiled with mypyc (``make engines``,
    what a deployed process runs) or as Python. Call it once the code is on ``sys.path``."""
    import games.kit.frozen as frozen

    # Code from before the compiled engines (``--source``) has no ``COMPILED``: Python.
    compiled = getattr(frozen, "COMPILED", False)
    return "engines compiled (mypyc)" if compiled else "engines as Python (not compiled)"


STATUS_PORT_OFFSET = 90


def service_env(
    *,
    database_prefix: str,
    rpc_exchange: str,
    gateway_port: int,
    health_port: int,
    extra: dict[str, str] | None = None,
) -> dict[str, str]:
    """This process's environment for the services: development defaults, then the bench's.

    DATABASE_URL and AMQP_URI keep their values if set; ``extra`` is applied last.
    """
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", DEV_DATABASE_URL)
    env.setdefault("AMQP_URI", DEV_AMQP_URI)
    env.update(
        {
            "DECKYARD_ENV": "development",
            "DEV_AUTH": "1",
            "DATABASE_PREFIX": database_prefix,
            "RPC_EXCHANGE": rpc_exchange,
            "BIND_HOST": HOST,
            "GATEWAY_PORT": str(gateway_port),
            "HEALTH_PORT": str(health_port),
            # The gateway's internal status port, tied to its API port so that two
            # benches on different ports never meet on the default 8090.
            "STATUS_PORT": str(gateway_port + STATUS_PORT_OFFSET),
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(extra or {})
    return env


def migrate(
    deckyard: Sequence[str], services: Sequence[str], cwd: Path, env: dict[str, str]
) -> None:
    """``deckyard migrate --service S ...`` (bounded in time; raises if it fails)."""
    flags = [flag for service in services for flag in ("--service", service)]
    subprocess.run(
        [*deckyard, "migrate", *flags],
        cwd=cwd,
        env=env,
        check=True,
        timeout=MIGRATE_TIMEOUT,
        stdout=subprocess.DEVNULL,
    )


def deckyard_command(venv: Path = VENV) -> list[str]:
    """``deckyard`` as a module run by the virtualenv's Python, so that PYTHONPATH
    (``--source DIR``) decides which copy of the code runs."""
    return [str(venv / "bin" / "python"), "-m", "deckyard.cli"]


def gateway_stack_env(
    args: argparse.Namespace, *, database_prefix: str, rpc_exchange: str, extra: dict[str, str]
) -> tuple[dict[str, str], Any]:
    """The environment of a stack behind the gateway, and the project's settings for it.

    ``args`` has ``gateway_port``, ``health_ports`` (the first is the env's
    HEALTH_PORT), ``source`` and ``code``; BenchError if a port is taken. The code
    runs from ``args.source`` (PYTHONPATH). The database and development-auth
    variables also go to this process's environment, for the project's code the
    script calls in-process.
    """
    from shared.config import load_settings

    refuse_busy_ports([args.gateway_port, *args.health_ports])
    env = service_env(
        database_prefix=database_prefix,
        rpc_exchange=rpc_exchange,
        gateway_port=args.gateway_port,
        health_port=args.health_ports[0],
        extra={"PYTHONPATH": str(args.source), **extra},
    )
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "DATABASE_PREFIX", "DEV_AUTH")})
    print(f"code from {args.code}", flush=True)
    return env, load_settings(env)


def dev_tokens(settings: Any, subject: str, count: int) -> list[str]:
    """``count`` development tokens, an hour long, for ``<subject>0``, ``<subject>1``, ..."""
    from gateway.devauth import mint_token

    return [
        mint_token(
            f"{subject}{n}",
            audience=settings.auth0_audience,
            roles_claim=settings.auth0_roles_claim,
            ttl_seconds=3600,
        )
        for n in range(count)
    ]


@contextmanager
def fresh_databases(settings: Any, services: Sequence[str], keep: bool) -> Iterator[None]:
    """The services' databases dropped before the block, so migrations start afresh,
    and after it (unless ``keep``), however it ends."""
    from shared.migrations import drop_database

    names = ", ".join(str(settings.database_url_for(s).database) for s in services)
    try:
        for service in services:
            drop_database(settings, service)
        yield
    finally:
        if keep:
            print(f"  kept {names}", flush=True)
        else:
            for service in services:
                with contextlib.suppress(Exception):
                    drop_database(settings, service)


# -- signals ------------------------------------------------------------------------------


def terminate_on_sigterm() -> None:
    """SIGTERM/SIGHUP unwind like Ctrl-C, so every ``finally`` stops its services."""

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGHUP, handler)


@contextmanager
def ignoring_stop_signals() -> Iterator[None]:
    """Ignore Ctrl-C, SIGTERM and SIGHUP for a bounded clean-up, then restore the handlers."""
    previous = {s: signal.signal(s, signal.SIG_IGN) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


# -- a script's options and main ----------------------------------------------------------


def add_source_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", metavar="DIR", help="run the project's code from DIR")


def add_stack_options(parser: argparse.ArgumentParser, keep: str = "the databases") -> None:
    """``--source DIR``, ``--shared-vhost`` and ``--keep``: a script with services has them."""
    add_source_option(parser)
    parser.add_argument(
        "--shared-vhost",
        action="store_true",
        help="use AMQP_URI's vhost as it is (another run on it may take this one's messages)",
    )
    parser.add_argument("--keep", action="store_true", help=f"keep {keep} afterwards")


def resolve_source_option(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``args.source`` as the project's directory (a usage error if it is not one), and
    ``args.code``, the commit it is at."""
    try:
        args.source = resolve_source(args.source)
    except BenchError as exc:
        parser.error(str(exc))
    args.code = describe_code(args.source)


def script_main(
    parse_args: Callable[[Sequence[str] | None], argparse.Namespace],
    run: Callable[[argparse.Namespace], object],
    argv: Sequence[str] | None,
    failed_status: int = 1,
) -> int:
    """A benchmark script's ``main``: its arguments, the project's code (``args.source``)
    first on ``sys.path``, SIGTERM unwinding like Ctrl-C, then ``run(args)``.

    Returns the exit status: ``run``'s if it returns an int, else 0; 130 if
    interrupted; ``failed_status`` if the run could not be made (a BenchError, a
    failed or overrunning command). Every ``finally`` of the run has stopped its
    services by then.
    """
    args = parse_args(argv)
    sys.path.insert(0, str(args.source))
    terminate_on_sigterm()
    try:
        status = run(args)
    except KeyboardInterrupt:
        print("\ninterrupted; what it had started is stopped", file=sys.stderr)
        return 130
    except (BenchError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        print(f"benchmark failed: {exc}", file=sys.stderr)
        return failed_status
    return status if isinstance(status, int) else 0


# -- processes ----------------------------------------------------------------------------


@dataclass
class Child:
    """One service process, with the log file its output goes to."""

    name: str
    process: subprocess.Popen[bytes]
    log_path: Path
    log_file: IO[bytes]

    def running(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 25) -> str:
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(text[-lines:])


class Children:
    """The service processes this script started; stops each of them, by pid.

    Each child gets its own session (so a Ctrl-C in the terminal reaches only
    this script, which then stops the children in order), and is stopped with
    SIGTERM to its own process group, then SIGKILL if it lingers.
    """

    def __init__(self, log_prefix: str) -> None:
        self._children: list[Child] = []
        self._log_prefix = log_prefix

    def start(self, name: str, argv: Sequence[str], env: dict[str, str], cwd: Path) -> Child:
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        log_path = LOG_DIR / f"{self._log_prefix}-{name}.log"
        log_file = open(log_path, "wb")  # noqa: SIM115 (closed in stop_all)
        process = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        child = Child(name, process, log_path, log_file)
        self._children.append(child)
        return child

    def check_alive(self) -> None:
        for child in self._children:
            if not child.running():
                raise BenchError(
                    f"{child.name} exited with status {child.process.returncode}; "
                    f"its log ({child.log_path}) ends with:\n{child.log_tail()}"
                )

    def log_tails(self, lines: int = 10) -> str:
        return "\n".join(
            f"--- {child.log_path} ends with:\n{child.log_tail(lines)}" for child in self._children
        )

    def pids(self) -> dict[str, int]:
        return {child.name: child.process.pid for child in self._children}

    def stop_all(self) -> None:
        """Stop the children one by one, the last started first.

        One by one, because a caller stopped after its callee waits for RPC
        replies that never come (stock nameko waits forever).
        """
        for child in reversed(self._children):
            _signal_group(child.process, signal.SIGTERM)
            try:
                child.process.wait(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                print(f"  {child.name} ignored SIGTERM for {STOP_GRACE:.0f}s: SIGKILL", flush=True)
                _signal_group(child.process, signal.SIGKILL)
                try:
                    child.process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    print(f"  {child.name} (pid {child.process.pid}) did not die", flush=True)
            child.log_file.close()
        self._children.clear()


def _signal_group(process: subprocess.Popen[bytes], signum: int) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signum)  # its own session: pgid == pid


@contextmanager
def children(log_prefix: str) -> Iterator[Children]:
    """A :class:`Children` whose processes are all stopped when the block ends, however."""
    started = Children(log_prefix)
    try:
        yield started
    finally:
        # A second Ctrl-C must not leave services behind: stopping is bounded
        # (STOP_GRACE, then SIGKILL), so signals wait until it is done.
        with ignoring_stop_signals():
            started.stop_all()


def log_problems(child: Child, first: int = 5) -> tuple[Counter[str], list[str]]:
    """How many ERROR / WARNING / CRITICAL / Traceback lines the child's log has,
    and the first few of them."""
    try:
        lines = child.log_path.read_text(errors="replace").splitlines()
    except OSError:
        return Counter(), []
    counts: Counter[str] = Counter()
    shown: list[str] = []
    for line in lines:
        found = re.search(r"\b(ERROR|WARNING|CRITICAL|Traceback)\b", line)
        if found:
            counts[found.group(1)] += 1
            if len(shown) < first:
                shown.append(line[:200])
    return counts, shown


# -- the broker's virtual host ------------------------------------------------------------


def rabbitmqctl(*args: str) -> None:
    """``rabbitmqctl -q ARGS`` (raises BenchError if it is missing or fails)."""
    if shutil.which("rabbitmqctl") is None:
        raise BenchError("rabbitmqctl is not available (needed for a private vhost)")
    done = subprocess.run(
        ["rabbitmqctl", "-q", *args], capture_output=True, text=True, timeout=90, check=False
    )
    if done.returncode != 0:
        raise BenchError(f"rabbitmqctl {' '.join(args)} failed: {done.stderr.strip()}")


@contextmanager
def private_vhost(amqp_uri: str, shared: bool, prefix: str) -> Iterator[str]:
    """The AMQP URI of a vhost of this run's own (``<prefix>-<random>``), deleted afterwards.

    With ``shared`` it is ``amqp_uri`` itself, untouched. The vhost is deleted
    on success, failure and Ctrl-C (a second Ctrl-C does not interrupt that).
    """
    if shared:
        yield amqp_uri
        return
    parts = urlsplit(amqp_uri)
    if parts.hostname not in ("127.0.0.1", "localhost"):
        raise BenchError("a private vhost needs RabbitMQ on this machine (or --shared-vhost)")
    vhost = f"{prefix}-{uuid.uuid4().hex[:8]}"
    try:
        rabbitmqctl("add_vhost", vhost)
        rabbitmqctl("set_permissions", "-p", vhost, parts.username or "guest", ".*", ".*", ".*")
        print(f"  RabbitMQ vhost {vhost}", flush=True)
        yield urlunsplit(parts._replace(path="/" + quote(vhost, safe="")))
    finally:
        with ignoring_stop_signals():
            try:
                rabbitmqctl("delete_vhost", vhost)
            except (BenchError, subprocess.TimeoutExpired) as exc:
                print(f"  could not delete vhost {vhost}: {exc}", file=sys.stderr)


# -- waiting and probing ------------------------------------------------------------------


def port_in_use(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((HOST, port)) == 0


def refuse_busy_ports(ports: Sequence[int]) -> None:
    busy = [port for port in ports if port_in_use(port)]
    if busy:
        raise BenchError(
            f"something already listens on {HOST}:{busy} - another benchmark? "
            "(choose other ports with --base-port)"
        )


def http_get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """(status, body) of GET http://127.0.0.1:port/path; status 0 if nothing answered."""
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except (OSError, urllib.error.URLError):
        return 0, b""


def wait_until(
    what: str, ready: Callable[[], bool], started: Children, timeout: float = START_TIMEOUT
) -> None:
    """Poll ``ready`` until it is true; BenchError if a child dies or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        started.check_alive()
        if ready():
            return
        time.sleep(0.25)
    raise BenchError(f"{what} was not ready after {timeout:.0f}s\n{started.log_tails()}")


def start_stack(
    started: Children,
    command: Sequence[str],
    services: Sequence[str],
    env: dict[str, str],
    cwd: Path,
    *,
    one_process: bool,
    health_ports: Sequence[int],
    gateway_port: int | None = None,
    token: str | None = None,
) -> list[Child]:
    """``command run --service S`` for each service, and wait until they answer.

    One process each, as deployed (the i-th service on health port i; a service
    without one, the gateway last, keeps ``env``'s), or all of them in one process
    (health ports from the first on). Then waits until every health port answers
    and, with a ``token``, until the gateway answers that player's ``GET /me``:
    that registers the player, and as the gateway answers 503 until accounts
    consumes its RPC queue, it also waits for that.
    """
    if one_process:
        flags = [flag for service in services for flag in ("--service", service)]
        env = {**env, "HEALTH_PORT": str(health_ports[0])}
        processes = [started.start("deckyard", [*command, "run", *flags], env, cwd)]
    else:
        processes = []
        for n, service in enumerate(services):
            port = {"HEALTH_PORT": str(health_ports[n])} if n < len(health_ports) else {}
            argv = [*command, "run", "--service", service]
            processes.append(started.start(service, argv, {**env, **port}, cwd))
    wait_healthy(started, health_ports)
    if gateway_port is not None and token is not None:
        auth = {"Authorization": f"Bearer {token}"}
        wait_until(
            "gateway GET /me", lambda: http_get(gateway_port, "/me", auth)[0] == 200, started
        )
    return processes


def wait_healthy(started: Children, ports: Sequence[int], path: str = "/health") -> None:
    """Until ``GET path`` answers 200 on each port."""

    def answers(port: int) -> Callable[[], bool]:
        return lambda: http_get(port, path)[0] == 200

    for port in ports:
        wait_until(f"GET {path} on {port}", answers(port), started)


# -- CPU accounting -----------------------------------------------------------------------


def process_cpu_seconds(pid: int) -> float:
    """utime + stime of one process, from /proc (0.0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # fields 14 and 15 of stat(5)


def command_cpu_seconds(commands: frozenset[str]) -> float:
    """utime + stime of every live process whose command name is in ``commands``."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        comm = text[text.index("(") + 1 : text.rindex(")")]
        if comm in commands:
            fields = text.rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return total


# The shared servers the hot path uses, by process name: read only, to show
# where the machine's CPU went during a run.
SERVERS = {"rabbitmq": frozenset({"beam.smp"}), "postgres": frozenset({"postgres"})}


def machine_busy_and_total() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    total = sum(values[:8])  # guest time is already counted in user
    return total - idle, total


class CpuWindow:
    """CPU used by the services, by wrk and by the whole machine over one window."""

    def __init__(self, pids: dict[str, int]) -> None:
        self._pids = pids
        self._start_proc = {name: process_cpu_seconds(pid) for name, pid in pids.items()}
        self._start_servers = {name: command_cpu_seconds(c) for name, c in SERVERS.items()}
        self._start_children = resource.getrusage(resource.RUSAGE_CHILDREN)
        self._start_machine = machine_busy_and_total()
        self._start_wall = time.monotonic()

    def finish(self) -> dict[str, float]:
        wall = time.monotonic() - self._start_wall
        used = {
            name: (process_cpu_seconds(pid) - self._start_proc[name]) / wall * 100
            for name, pid in self._pids.items()
        }
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)  # wrk, reaped in the window
        wrk_cpu = (ru.ru_utime + ru.ru_stime) - (
            self._start_children.ru_utime + self._start_children.ru_stime
        )
        used["wrk"] = wrk_cpu / wall * 100
        for name, commands in SERVERS.items():
            used[name] = (command_cpu_seconds(commands) - self._start_servers[name]) / wall * 100
        busy, total = machine_busy_and_total()
        busy0, total0 = self._start_machine
        cpus = os.cpu_count() or 1
        used["machine"] = (busy - busy0) / max(1, total - total0) * 100 * cpus
        return {name: round(value, 1) for name, value in used.items()}


# -- wrk ----------------------------------------------------------------------------------


REQUESTS_PER_SECOND = "req/s"


@dataclass
class Result:
    """One measured scenario: a wrk run, or a rate of something else (``unit``).

    ``requests`` is what was counted over ``duration_s`` (requests, events, matches)
    and ``rps`` its rate, in ``unit``. ``failures`` are a scenario's errors other
    than HTTP ones (events lost or doubled, matches left unfinished); ``notes``
    say what its figures are made of.
    """

    scenario: str
    requests: int
    duration_s: float
    rps: float
    p50_ms: float
    p99_ms: float
    non2xx: int
    socket_errors: int
    cpu_percent: dict[str, float] = field(default_factory=dict)
    topology: str = ""
    unit: str = REQUESTS_PER_SECOND
    failures: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return self.non2xx + self.socket_errors + self.failures


def wrk_command(
    url: str,
    duration: int,
    connections: int,
    threads: int,
    *,
    script: Path = REPORT_LUA,
    headers: dict[str, str] | None = None,
    script_args: Sequence[str] = (),
) -> list[str]:
    """wrk's argv: options, ``-s script``, ``-H`` headers, the URL, then ``-- script_args``."""
    wrk = shutil.which("wrk")
    if wrk is None:
        raise BenchError("wrk is not installed (apt-get install -y wrk)")
    argv = [
        wrk,
        f"-t{threads}",
        f"-c{connections}",
        f"-d{duration}s",
        "--latency",
        "--timeout",
        "10s",
        "-s",
        str(script),
    ]
    for name, value in (headers or {}).items():
        argv += ["-H", f"{name}: {value}"]
    argv.append(url)
    if script_args:
        argv += ["--", *script_args]
    return argv


def run_wrk(argv: list[str], duration: int) -> str:
    """wrk's standard output (killed, with BenchError, if it overruns by WRK_SLACK)."""
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=duration + WRK_SLACK, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise BenchError(f"wrk ran more than {duration + WRK_SLACK:.0f}s and was killed") from exc
    if done.returncode != 0:
        raise BenchError(f"wrk failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def bench_values(output: str) -> dict[str, str]:
    """The key=value pairs of the BENCH line a bench wrk script prints at the end."""
    for line in output.splitlines():
        if line.startswith("BENCH "):
            return dict(pair.split("=", 1) for pair in line.split()[1:])
    raise BenchError(f"no BENCH line in wrk's output:\n{output}")


def parse_report(scenario: str, output: str) -> Result:
    """The BENCH line that bench/report.lua prints at the end of a wrk run."""
    values = bench_values(output)
    requests = int(values["requests"])
    duration_s = int(values["duration_us"]) / 1e6
    return Result(
        scenario=scenario,
        requests=requests,
        duration_s=round(duration_s, 2),
        rps=round(requests / duration_s, 1) if duration_s else 0.0,
        p50_ms=round(int(values["p50_us"]) / 1000, 1),
        p99_ms=round(int(values["p99_us"]) / 1000, 1),
        non2xx=int(values["non2xx"]),
        socket_errors=sum(int(values[k]) for k in ("connect", "read", "write", "timeout")),
    )


# -- report -------------------------------------------------------------------------------

BASELINE = "baseline /ping"


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100); NaN if empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, math.ceil(p * len(ordered) / 100))
    return ordered[min(rank, len(ordered)) - 1]


def markdown(header: Sequence[str], rows: Sequence[Sequence[str]], align: str = "") -> str:
    """A Markdown table, each column as wide as its widest cell.

    ``align`` has one letter a column, ``l`` or ``r``; by default the first column is
    left-aligned and the others right-aligned.
    """
    align = align or "l" + "r" * (len(header) - 1)
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        padded = (
            cell.ljust(width) if side == "l" else cell.rjust(width)
            for cell, width, side in zip(cells, widths, align, strict=True)
        )
        return "| " + " | ".join(padded) + " |"

    separator = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), separator, *(line(row) for row in rows)])


def cpu_summary(cpu_percent: dict[str, float], rate: float, per: str = "req") -> str:
    """Each process's CPU over a window as a share of one core, and per counted unit
    (``rate`` a second), then the whole machine's.

    CPU time per unit hardly depends on how busy the shared machine was, so it
    compares runs better than the rate does. "Other processes" is what the machine
    spent on anything not listed (a test suite running next to the benchmark).
    """
    processes = {k: v for k, v in cpu_percent.items() if k != "machine"}
    each = ", ".join(
        f"{name} {value:.0f}%" + (f" ({value * 10 / rate:.2f} ms/{per})" if rate else "")
        for name, value in processes.items()
    )
    if "machine" not in cpu_percent:
        return each
    machine = cpu_percent["machine"]
    others = max(0.0, machine - sum(processes.values()))
    return (
        f"{each}; machine {machine:.0f}% of {(os.cpu_count() or 1) * 100}%, "
        f"of which other processes {others:.0f}%"
    )


def table(results: Sequence[Result]) -> str:
    """wrk runs as a Markdown table, with each scenario's CPU use below it."""
    header = ("scenario", "req/s", "p50 ms", "p99 ms", "non-2xx", "sock err", "requests")
    rows = [
        (
            r.scenario,
            f"{r.rps:.1f}",
            f"{r.p50_ms:.1f}",
            f"{r.p99_ms:.1f}",
            str(r.non2xx),
            str(r.socket_errors),
            str(r.requests),
        )
        for r in results
    ]
    out = [markdown(header, rows)]
    for r in results:
        out.append(
            f"CPU during {r.scenario} (100% = one core): {cpu_summary(r.cpu_percent, r.rps)}"
        )
    return "\n".join(out)


def baseline_rps(results: Sequence[Result]) -> float | None:
    """The req/s of the stock nameko baseline among ``results``, if it ran and served any."""
    found = next((r for r in results if r.scenario == BASELINE), None)
    return found.rps if found is not None and found.rps > 0 else None


def times_baseline(result: Result, baseline: float | None) -> float | None:
    """``result``'s rate over the baseline's req/s measured in the same run.

    None (no comparison) without a baseline, and for a rate of anything but HTTP
    requests a second: events or matches a second are other units of work.
    """
    if baseline is None or result.unit != REQUESTS_PER_SECOND:
        return None
    return result.rps / baseline


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1f}"


def summary_table(results: Sequence[Result]) -> str:
    """``run.py``'s table: one row a scenario, its rate and the ratio to the baseline."""
    baseline = baseline_rps(results)
    times = "\N{MULTIPLICATION SIGN}"
    header = ("scenario", "unit", "rate", "p50 ms", "p99 ms", "errors", f"{times} baseline")
    rows = []
    for r in results:
        ratio = times_baseline(r, baseline)
        rows.append(
            (
                r.scenario,
                r.unit,
                f"{r.rps:.1f}",
                _ms(r.p50_ms),
                _ms(r.p99_ms),
                str(r.errors),
                "-" if ratio is None else f"{ratio:.2f}",
            )
        )
    return markdown(header, rows, align="llrrrrr")
