"""Running it: the servers, the platform, the load, the faults, the checks."""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from typing import Any

from harness import (
    VENV,
    BenchError,
    describe_code,
    http_get,
    ignoring_stop_signals,
    migrate,
    refuse_busy_ports,
    resolve_source,
    script_main,
    service_env,
)

import faults
from faults.checks import settle
from faults.config import (
    CATALOGUE_TIMEOUT,
    DATABASE_PREFIX,
    FAULT_AT,
    FAULTS,
    LOAD_STOP_TIMEOUT,
    MIN_GAP,
    PROCESSES,
    PROGRESS_EVERY,
    RPC_EXCHANGE,
    SEED,
    SERVICES,
    START_TIMEOUT,
    log,
)
from faults.inject import FaultRecord, Timeline, inject, recover
from faults.load import Load, Recorder
from faults.platform import Platform, ready_states, wait_ready
from faults.probe import Probe, probe
from faults.push import PushOutcome, PushWatch
from faults.report import report, status_counts
from faults.servers import Servers, servers


def wait_for_catalogue(port: int, platform: Platform, expected: int) -> None:
    deadline = time.monotonic() + CATALOGUE_TIMEOUT
    count = 0
    while time.monotonic() < deadline:
        if platform.dead():
            raise BenchError(f"{platform.dead()} exited\n{platform.log_tails()}")
        status, body = http_get(port, "/cards/catalogue?game=quest")
        if status == 200:
            count = len(json.loads(body)["items"])
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
    watch: PushWatch | None = None
    pushed: PushOutcome | None = None
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
        if args.watchers:
            watch = PushWatch(args.base_port, srv.amqp_uri, args.watchers)
            watch.start()
        recorder.started, recorder.wall_started = time.monotonic(), time.time()
        if watch is not None:
            watch.start_clock(recorder.wall_started)
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
            inject(record.name, record, platform, srv, args, timeline, watch)
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
        if watch is not None:
            log("push: waiting for every event owed to the connected players")
            pushed = watch.finish()
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
        if watch is not None:
            watch.halt()
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
        pushed,
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
        description=faults.__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    parser.add_argument(
        "--watchers",
        type=int,
        default=20,
        help="players connected to the push channel throughout, owed MatchUpdated (0: none)",
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
    if not (0 <= args.watchers <= 1000):
        parser.error("--watchers must be in 0..1000")
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
