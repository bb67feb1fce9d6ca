"""Plumbing shared by the benchmark scripts (``run.py``, ``answers.py``, ``eligibility.py``).

Standard library only, so a script can import it before it re-runs itself in
the project's virtualenv (:func:`reexec_in_venv`). It holds:

* starting service processes and stopping them, by pid (SIGTERM to each
  child's own process group, then SIGKILL after a grace period), also on
  failure and Ctrl-C (:func:`children`, :func:`terminate_on_sigterm`);
* waiting until a URL answers (:func:`http_get`, :func:`wait_until`);
* running wrk with a Lua script that prints a ``BENCH`` line (``report.lua``)
  and parsing that line (:func:`wrk_command`, :func:`run_wrk`,
  :func:`parse_report`), and the results table (:func:`table`);
* CPU accounting from ``/proc`` (:class:`CpuWindow`);
* the services' environment (:func:`service_env`), ``deckyard migrate``
  (:func:`migrate`), ``--source DIR`` (:func:`resolve_source`,
  :func:`describe_code`);
* a private RabbitMQ virtual host per run (:func:`private_vhost`): nameko
  names every service's RPC queue ``rpc-<service>`` whatever the RPC
  exchange, so two stacks on one vhost would take each other's calls.
"""

from __future__ import annotations

import contextlib
import os
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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
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


@dataclass
class Result:
    """One measured wrk run."""

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


def table(results: Sequence[Result]) -> str:
    """The results as a Markdown table, with each scenario's CPU use below it."""
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
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "| " + " | ".join([first, *rest]) + " |"

    separator = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    out = [line(header), separator, *(line(row) for row in rows)]
    for r in results:
        # CPU time per request does not depend on how loaded the machine was.
        cpu = ", ".join(
            f"{name} {value:.0f}%" + (f" ({value * 10 / r.rps:.2f} ms/req)" if r.rps else "")
            for name, value in r.cpu_percent.items()
            if name != "machine"
        )
        machine = r.cpu_percent.get("machine", 0.0)
        others = machine - sum(v for k, v in r.cpu_percent.items() if k != "machine")
        out.append(
            f"CPU during {r.scenario} (100% = one core): {cpu}; "
            f"machine {machine:.0f}% of {(os.cpu_count() or 1) * 100}%, "
            f"of which other processes {max(0.0, others):.0f}%"
        )
    by_name = {r.scenario: r for r in results}
    if "baseline /ping" in by_name and "gateway /me" in by_name:
        base, gate = by_name["baseline /ping"], by_name["gateway /me"]
        if base.rps:
            out.append(f"ratio gateway/baseline (req/s): {gate.rps / base.rps:.2f}")
    return "\n".join(out)
