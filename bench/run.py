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
(``deckyard_bench_*``), RPC exchanges and RabbitMQ virtual host
(``rabbitmqctl add_vhost``, deleted at the end; nameko names every RPC queue
``rpc-<service>`` whatever the exchange, so on a shared vhost another stack
would take this run's calls; ``--shared-vhost`` opts out), and is bounded in
time. The services are stopped and the vhost deleted on success, on failure
and on Ctrl-C (SIGTERM, then SIGKILL after a grace period).
Service logs go to ``bench/results/logs/`` (git-ignored).
Needs: wrk, PostgreSQL and RabbitMQ (DATABASE_URL / AMQP_URI, development
defaults), and the project's virtualenv (``.venv`` or ``--venv``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from harness import (
    BENCH,
    DEV_AMQP_URI,
    HOST,
    ROOT,
    BenchError,
    Children,
    CpuWindow,
    Result,
    children,
    describe_code,
    http_get,
    migrate,
    parse_report,
    private_vhost,
    refuse_busy_ports,
    resolve_source,
    run_wrk,
    service_env,
    table,
    terminate_on_sigterm,
    wait_until,
    wrk_command,
)

DATABASE_PREFIX = "deckyard_bench"
RPC_EXCHANGE = "deckyard-bench-rpc"
BASELINE_RPC_EXCHANGE = "deckyard-bench-baseline-rpc"
VHOST_PREFIX = "deckyard-bench"
SUBJECT = "auth0|bench"
TOKEN_TIMEOUT = 30.0


# -- measuring ----------------------------------------------------------------------------


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
        run_wrk(
            wrk_command(url, args.warmup, args.connections, args.threads, headers=headers),
            args.warmup,
        )
    started.check_alive()
    argv = wrk_command(url, args.duration, args.connections, args.threads, headers=headers)
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
    return service_env(
        database_prefix=DATABASE_PREFIX,
        rpc_exchange=RPC_EXCHANGE,
        gateway_port=args.gateway_port,
        health_port=args.health_port,
        extra={
            "AMQP_URI": args.amqp_uri,  # this run's private vhost
            "BASELINE_RPC_EXCHANGE": BASELINE_RPC_EXCHANGE,
            "BASELINE_WEB_SERVER_ADDRESS": f"{HOST}:{args.baseline_port}",
        },
    )


def tool(args: argparse.Namespace, name: str) -> str:
    candidate = Path(args.venv) / "bin" / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise BenchError(f"{name} not found in {args.venv}/bin nor on PATH (make install?)")
    return found


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
        source = resolve_source(args.source)
        env["PYTHONPATH"] = str(source)
        deckyard_argv = [tool(args, "python"), "-m", "deckyard.cli"]
    else:
        source = ROOT
        deckyard_argv = [tool(args, "deckyard")]
    print(f"  code from {source}", flush=True)
    print(f"  migrating {DATABASE_PREFIX}_accounts", flush=True)
    migrate(deckyard_argv, ["accounts"], source, env)
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
    parser.add_argument(
        "--shared-vhost",
        action="store_true",
        help="use AMQP_URI's vhost as it is (another run on it may take this one's RPCs)",
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
    args.amqp_uri = os.environ.get("AMQP_URI", DEV_AMQP_URI)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    terminate_on_sigterm()
    scenarios = args.scenario or ["baseline", "gateway"]
    results: list[Result] = []
    started_at = time.strftime("%Y-%m-%d %H:%M:%S")
    code = describe_code(Path(args.source) if args.source else ROOT)
    try:
        # nameko names every RPC queue rpc-<service> whatever the exchange: only
        # a vhost of its own keeps another stack from taking this run's calls.
        with private_vhost(args.amqp_uri, args.shared_vhost, VHOST_PREFIX) as amqp_uri:
            args.amqp_uri = amqp_uri
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
