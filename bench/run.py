"""Load-test the hot path against stock nameko, on this machine's loopback.

    python bench/run.py [--duration 15] [--connections 32] [--processes 2]

Two scenarios, each started, warmed up, measured with wrk and stopped:

``baseline /ping``
    stock nameko (``bench/baseline_service.py``, default config): an ``@http``
    service that makes one RPC to a trivial ``@rpc`` service.
``gateway /me``
    the project's accounts service and gateway (``deckyard run``), with a
    development token: the gateway verifies the RS256 token, calls
    ``accounts.me`` over RPC (one SELECT on the players table) and answers JSON.

With ``--processes 2`` (the default) each scenario runs as two processes, one
per service, as they are deployed; ``--processes 1`` puts both services of a
scenario in one process. The script prints figures and never judges them.

Everything listens on 127.0.0.1 only, uses its own databases
(``deckyard_bench_*``) and RPC exchanges, and is bounded in time. The services
are stopped on success, on failure and on Ctrl-C (SIGTERM, then SIGKILL after
a grace period). Service logs go to ``bench/results/logs/`` (git-ignored).
Needs: wrk, PostgreSQL and RabbitMQ (DATABASE_URL / AMQP_URI, development
defaults), and the project's virtualenv (``.venv`` or ``--venv``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
REPORT_LUA = BENCH / "report.lua"
LOG_DIR = BENCH / "results" / "logs"

HOST = "127.0.0.1"  # loopback only, always
DEV_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
DEV_AMQP_URI = "amqp://guest:guest@127.0.0.1:5672/"
DATABASE_PREFIX = "deckyard_bench"
RPC_EXCHANGE = "deckyard-bench-rpc"
BASELINE_RPC_EXCHANGE = "deckyard-bench-baseline-rpc"
SUBJECT = "auth0|bench"

START_TIMEOUT = 60.0  # seconds for services to answer after start
MIGRATE_TIMEOUT = 180.0
TOKEN_TIMEOUT = 30.0
STOP_GRACE = 15.0  # seconds between SIGTERM and SIGKILL
WRK_SLACK = 30.0  # seconds wrk may run beyond --duration before it is killed
CLK_TCK = os.sysconf("SC_CLK_TCK")
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class BenchError(RuntimeError):
    """The benchmark could not run; the message says why."""


# -- processes -------------------------------------------------------------------


@dataclass
class Child:
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
    started = Children(log_prefix)
    try:
        yield started
    finally:
        # A second Ctrl-C must not leave services behind: stopping is bounded
        # (STOP_GRACE, then SIGKILL), so signals wait until it is done.
        previous = {s: signal.signal(s, signal.SIG_IGN) for s in STOP_SIGNALS}
        try:
            started.stop_all()
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)


def _terminate_on_sigterm() -> None:
    """SIGTERM/SIGHUP unwind like Ctrl-C, so every ``finally`` stops its services."""

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGHUP, handler)


# -- waiting and probing ----------------------------------------------------------


def port_in_use(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((HOST, port)) == 0


def http_get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
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
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        started.check_alive()
        if ready():
            return
        time.sleep(0.25)
    raise BenchError(f"{what} was not ready after {timeout:.0f}s\n{started.log_tails()}")


# -- CPU accounting ------------------------------------------------------------------


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


# -- wrk ---------------------------------------------------------------------------------


@dataclass
class Result:
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
    url: str, duration: int, connections: int, threads: int, headers: dict[str, str]
) -> list[str]:
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
        str(REPORT_LUA),
    ]
    for name, value in headers.items():
        argv += ["-H", f"{name}: {value}"]
    return [*argv, url]


def run_wrk(argv: list[str], duration: int) -> str:
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=duration + WRK_SLACK, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise BenchError(f"wrk ran more than {duration + WRK_SLACK:.0f}s and was killed") from exc
    if done.returncode != 0:
        raise BenchError(f"wrk failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def parse_report(scenario: str, output: str) -> Result:
    """The BENCH line that bench/report.lua prints at the end of a wrk run."""
    for line in output.splitlines():
        if line.startswith("BENCH "):
            values = dict(pair.split("=", 1) for pair in line.split()[1:])
            break
    else:
        raise BenchError(f"no BENCH line in wrk's output:\n{output}")
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


def measure(
    scenario: str,
    url: str,
    args: argparse.Namespace,
    started: Children,
    headers: dict[str, str] | None = None,
) -> Result:
    headers = headers or {}
    if args.warmup > 0:
        print(f"  warming up {args.warmup}s", flush=True)
        run_wrk(wrk_command(url, args.warmup, args.connections, args.threads, headers), args.warmup)
    started.check_alive()
    argv = wrk_command(url, args.duration, args.connections, args.threads, headers)
    shown = " ".join(
        "'Authorization: Bearer <token>'" if a.startswith("Authorization") else a for a in argv
    )
    print(f"  {shown}", flush=True)
    window = CpuWindow(started.pids())
    output = run_wrk(argv, args.duration)
    cpu = window.finish()
    started.check_alive()
    if args.verbose:
        print(output)
    result = parse_report(scenario, output)
    result.cpu_percent = cpu
    return result


# -- the scenarios ----------------------------------------------------------------


def base_env(args: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", DEV_DATABASE_URL)
    env.setdefault("AMQP_URI", DEV_AMQP_URI)
    env.update(
        {
            "DECKYARD_ENV": "development",
            "DEV_AUTH": "1",
            "DATABASE_PREFIX": DATABASE_PREFIX,
            "RPC_EXCHANGE": RPC_EXCHANGE,
            "BIND_HOST": HOST,
            "GATEWAY_PORT": str(args.gateway_port),
            "HEALTH_PORT": str(args.health_port),
            "BASELINE_RPC_EXCHANGE": BASELINE_RPC_EXCHANGE,
            "BASELINE_WEB_SERVER_ADDRESS": f"{HOST}:{args.baseline_port}",
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


def tool(args: argparse.Namespace, name: str) -> str:
    candidate = Path(args.venv) / "bin" / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise BenchError(f"{name} not found in {args.venv}/bin nor on PATH (make install?)")
    return found


def refuse_busy_ports(ports: Sequence[int]) -> None:
    busy = [port for port in ports if port_in_use(port)]
    if busy:
        raise BenchError(
            f"something already listens on {HOST}:{busy} - another benchmark? "
            "(choose other ports with --base-port)"
        )


def run_baseline(args: argparse.Namespace) -> Result:
    print(f"baseline: stock nameko, {args.processes} process(es)", flush=True)
    refuse_busy_ports([args.baseline_port])
    nameko = tool(args, "nameko")
    env = base_env(args)
    run = [nameko, "run", "--config", "baseline.yaml"]
    with children("baseline") as started:
        if args.processes == 1:
            started.start(
                "baseline",
                [*run, "baseline_service:PongService", "baseline_service:PingHttpService"],
                env,
                BENCH,
            )
        else:
            started.start("baseline_pong", [*run, "baseline_service:PongService"], env, BENCH)
            started.start("baseline_http", [*run, "baseline_service:PingHttpService"], env, BENCH)
        wait_until(
            "baseline GET /ping",
            lambda: http_get(args.baseline_port, "/ping") == (200, b"pong"),
            started,
        )
        url = f"http://{HOST}:{args.baseline_port}/ping"
        result = measure("baseline /ping", url, args, started)
        print("  stopping", flush=True)
    result.topology = f"{args.processes} process(es)"
    return result


def run_gateway(args: argparse.Namespace) -> Result:
    print(f"gateway: deckyard accounts + gateway, {args.processes} process(es)", flush=True)
    refuse_busy_ports([args.gateway_port, args.health_port])
    env = base_env(args)
    if args.source:
        # Another copy of the code (an experiment, a branch): run it as a
        # module from there, with the same virtualenv.
        source = Path(args.source).resolve()
        env["PYTHONPATH"] = str(source)
        deckyard_argv = [tool(args, "python"), "-m", "deckyard.cli"]
    else:
        source = ROOT
        deckyard_argv = [tool(args, "deckyard")]
    print(f"  code from {source}", flush=True)
    print(f"  migrating {DATABASE_PREFIX}_accounts", flush=True)
    subprocess.run(
        [*deckyard_argv, "migrate", "--service", "accounts"],
        cwd=source,
        env=env,
        check=True,
        timeout=MIGRATE_TIMEOUT,
        stdout=subprocess.DEVNULL,
    )
    token = subprocess.run(
        [*deckyard_argv, "token", "--sub", args.sub, "--ttl", "3600"],
        cwd=source,
        env=env,
        check=True,
        timeout=TOKEN_TIMEOUT,
        capture_output=True,
        text=True,
    ).stdout.strip()
    auth = {"Authorization": f"Bearer {token}"}
    with children("gateway") as started:
        if args.processes == 1:
            started.start(
                "deckyard",
                [*deckyard_argv, "run", "--service", "accounts", "--service", "gateway"],
                env,
                source,
            )
        else:
            started.start("accounts", [*deckyard_argv, "run", "--service", "accounts"], env, source)
            started.start("gateway", [*deckyard_argv, "run", "--service", "gateway"], env, source)
        wait_until(
            "accounts GET /health",
            lambda: http_get(args.health_port, "/health")[0] == 200,
            started,
        )
        # The first /me registers the player; until accounts consumes its RPC
        # queue the gateway answers 503, so this also waits for that.
        wait_until(
            "gateway GET /me", lambda: http_get(args.gateway_port, "/me", auth)[0] == 200, started
        )
        result = measure(
            "gateway /me", f"http://{HOST}:{args.gateway_port}/me", args, started, auth
        )
        print("  stopping", flush=True)
    result.topology = f"{args.processes} process(es)"
    return result


# -- report ------------------------------------------------------------------------------


def table(results: Sequence[Result]) -> str:
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


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=15, help="seconds of measured load")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--warmup", type=int, default=3, help="seconds of unmeasured load first")
    parser.add_argument(
        "--processes",
        type=int,
        choices=(1, 2),
        default=2,
        help="run a scenario's two services as two processes (default) or in one",
    )
    parser.add_argument(
        "--scenario",
        action="append",
        choices=("baseline", "gateway"),
        help="run only this scenario (repeatable; default both)",
    )
    parser.add_argument(
        "--base-port",
        type=int,
        default=18000,
        help="gateway port; accounts health is +80, the baseline +100",
    )
    parser.add_argument(
        "--source",
        metavar="DIR",
        help="run the project's code from DIR (a copy with an experiment) instead of "
        "the installed package",
    )
    parser.add_argument("--sub", default=SUBJECT, help="token subject of the benchmark player")
    parser.add_argument("--venv", default=str(ROOT / ".venv"), help="the project's virtualenv")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="print wrk's full output")
    args = parser.parse_args(argv)
    if args.duration <= 0 or args.connections <= 0 or args.threads <= 0 or args.warmup < 0:
        parser.error("--duration, --connections and --threads must be positive")
    if args.threads > args.connections:
        parser.error("--threads may not exceed --connections")
    args.gateway_port = args.base_port
    args.health_port = args.base_port + 80
    args.baseline_port = args.base_port + 100
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    _terminate_on_sigterm()
    scenarios = args.scenario or ["baseline", "gateway"]
    results: list[Result] = []
    started_at = time.strftime("%Y-%m-%d %H:%M:%S")
    code = describe_code(Path(args.source) if args.source else ROOT)
    try:
        if "baseline" in scenarios:
            results.append(run_baseline(args))
        if "gateway" in scenarios:
            results.append(run_gateway(args))
    except KeyboardInterrupt:
        print("\ninterrupted; services stopped", file=sys.stderr)
        return 130
    except (BenchError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        print(f"benchmark failed: {exc}", file=sys.stderr)
        return 1
    print()
    print(
        f"{started_at}, {os.cpu_count()} CPUs, wrk -t{args.threads} -c{args.connections} "
        f"-d{args.duration}s (+{args.warmup}s warm-up), {args.processes} process(es) per scenario"
    )
    print(f"code: {code}")
    print(table(results))
    if args.json:
        payload = {
            "started_at": started_at,
            "cpus": os.cpu_count(),
            "wrk": {
                "threads": args.threads,
                "connections": args.connections,
                "duration_s": args.duration,
                "warmup_s": args.warmup,
            },
            "processes": args.processes,
            "code": code,
            "results": [asdict(r) for r in results],
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
