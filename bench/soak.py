"""Soak: the hot path at half its measured maximum for ten minutes; memory and errors.

    python bench/soak.py [--duration 600] [--connections 16]

Starts accounts and the gateway as two processes (``deckyard run --service``)
on databases ``deckyard_bench_soak_*`` (dropped at the end) and a RabbitMQ
virtual host of their own, then:

1. measures the maximum of ``GET /me`` (wrk, 32 connections, ``--probe`` s);
2. soaks at half that rate for ``--duration`` seconds (``bench/soak.lua``: each
   connection paces its requests), sampling each service process's resident
   memory (``VmRSS``) every ``--sample`` seconds;
3. prints the requests, errors (non-2xx and socket errors), p50/p99, and each
   process's memory at the start of the soak, at the end, the peak, and the
   growth from start to end. It judges nothing (issue 8 asks for 0 errors and
   less than 10 % growth: the figures say whether that holds).
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    harness.reexec_in_venv()

import argparse
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from harness import (
    BENCH,
    HOST,
    ROOT,
    VENV,
    BenchError,
    bench_values,
    children,
    describe_code,
    http_get,
    migrate,
    parse_report,
    private_vhost,
    refuse_busy_ports,
    run_wrk,
    service_env,
    terminate_on_sigterm,
    wait_until,
    wrk_command,
)

DATABASE_PREFIX = "deckyard_bench_soak"
RPC_EXCHANGE = "deckyard-bench-soak-rpc"
VHOST_PREFIX = "deckyard-bench-soak"
SOAK_LUA = BENCH / "soak.lua"
SUBJECT = "auth0|bench-soak"


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise BenchError(f"no VmRSS for pid {pid}")


class MemorySampler(threading.Thread):
    """VmRSS of each process every ``every`` seconds, until stopped."""

    def __init__(self, pids: dict[str, int], every: float) -> None:
        super().__init__(daemon=True)
        self.pids, self.every = pids, every
        self.samples: dict[str, list[int]] = {name: [] for name in pids}
        self._stopping = threading.Event()

    def take(self) -> None:
        for name, pid in self.pids.items():
            self.samples[name].append(rss_kib(pid))

    def run(self) -> None:
        while not self._stopping.wait(self.every):
            self.take()

    def stop(self) -> None:
        self._stopping.set()
        self.join()
        self.take()


def drop_databases(env: dict[str, str]) -> None:
    from shared.config import load_settings
    from shared.migrations import drop_database

    drop_database(load_settings(env), "accounts")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=600, help="seconds of soak")
    parser.add_argument("--probe", type=int, default=10, help="seconds measuring the maximum")
    parser.add_argument("--connections", type=int, default=16, help="soak connections")
    parser.add_argument("--sample", type=float, default=15.0, help="seconds between samples")
    parser.add_argument("--base-port", type=int, default=18480)
    parser.add_argument("--shared-vhost", action="store_true")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    terminate_on_sigterm()
    gateway_port, health_port = args.base_port, args.base_port + 80
    refuse_busy_ports([gateway_port, health_port])
    env = service_env(
        database_prefix=DATABASE_PREFIX,
        rpc_exchange=RPC_EXCHANGE,
        gateway_port=gateway_port,
        health_port=health_port,
    )
    deckyard = [str(VENV / "bin" / "python"), "-m", "deckyard.cli"]
    print(f"code: {describe_code(ROOT)}", flush=True)
    try:
        with private_vhost(env["AMQP_URI"], args.shared_vhost, VHOST_PREFIX) as amqp_uri:
            env["AMQP_URI"] = amqp_uri
            migrate(deckyard, ["accounts"], ROOT, env)
            token = subprocess.run(
                [*deckyard, "token", "--sub", SUBJECT, "--ttl", str(args.duration + 3600)],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
                timeout=60,
            ).stdout.strip()
            auth = {"Authorization": f"Bearer {token}"}
            url = f"http://{HOST}:{gateway_port}/me"
            with children("soak") as started:
                started.start("accounts", [*deckyard, "run", "--service", "accounts"], env, ROOT)
                started.start("gateway", [*deckyard, "run", "--service", "gateway"], env, ROOT)
                wait_until(
                    "accounts /health", lambda: http_get(health_port, "/health")[0] == 200, started
                )
                wait_until(
                    "gateway /me", lambda: http_get(gateway_port, "/me", auth)[0] == 200, started
                )

                probe = parse_report(
                    "maximum",
                    run_wrk(wrk_command(url, args.probe, 32, 2, headers=auth), args.probe),
                )
                rate = probe.rps / 2
                delay_ms = max(1, round(1000 * args.connections / rate))
                print(
                    f"  maximum {probe.rps} req/s; soaking at ~{rate:.0f} req/s "
                    f"({args.connections} connections, {delay_ms} ms apart) for {args.duration}s",
                    flush=True,
                )

                sampler = MemorySampler(started.pids(), args.sample)
                sampler.take()
                sampler.start()
                soak_output = run_wrk(
                    wrk_command(
                        url,
                        args.duration,
                        args.connections,
                        2,
                        script=SOAK_LUA,
                        headers=auth,
                        script_args=[str(delay_ms)],
                    ),
                    args.duration,
                )
                sampler.stop()
                started.check_alive()
        soak = parse_report("soak", soak_output)
        values = bench_values(soak_output)
    except KeyboardInterrupt:
        print("\ninterrupted; services stopped", file=sys.stderr)
        return 130
    except (BenchError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        print(f"soak failed: {exc}", file=sys.stderr)
        return 1
    finally:
        drop_databases(env)

    errors = soak.non2xx + soak.socket_errors
    print()
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')}  GET /me, maximum {probe.rps} req/s (32 conn)")
    print(
        f"soak: {soak.requests} requests in {soak.duration_s}s = {soak.rps} req/s, "
        f"p50 {soak.p50_ms} ms, p99 {soak.p99_ms} ms, errors {errors} "
        f"(non-2xx {soak.non2xx}, socket {values['connect']}/{values['read']}/"
        f"{values['write']}/{values['timeout']} connect/read/write/timeout)"
    )
    print(f"{'process':<10} {'start MiB':>10} {'end MiB':>9} {'peak MiB':>9} {'growth':>8}")
    for name, samples in sampler.samples.items():
        start, end, peak = samples[0], samples[-1], max(samples)
        print(
            f"{name:<10} {start / 1024:>10.1f} {end / 1024:>9.1f} {peak / 1024:>9.1f} "
            f"{100 * (end - start) / start:>7.1f}%"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
