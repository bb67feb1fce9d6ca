"""The push channel under load: event -> WebSocket latency, and idle connections held.

    python bench/push.py                       # ~2-3 min: 1,000 players, 100 events/s for 25 s;
                                               # then 10,000 idle sockets held 30 s
    python bench/push.py --no-idle --connections 200 --rate 50

It runs ``deckyard run --service accounts`` and ``--service gateway`` (one process
each, gateway on ``--base-port``, accounts' health port +80, the gateway's status port
+90) on a fresh ``deckyard_bench_push_accounts`` database and a RabbitMQ vhost of its
own. The WebSocket clients are ``bench/push_client.py``, an asyncio client (the
``websockets`` package, uvloop) in a process of its own; each socket is one player
(a development token), registered beforehand straight into accounts' ``players``
table, so the gateway's ``accounts.me`` for each socket is a returning player's.

``latency``
    ``--connections`` (1,000) players connected. This script then plays the battle
    service's outbox relay: it publishes ``MatchUpdated`` envelopes
    (``shared.events.new_event(...).to_message()``) with the relay's own publisher
    (``shared.outbox.nameko_publisher``: persistent, publisher confirms, mandatory)
    to ``battle.events`` under the routing key ``MatchUpdated``, declared with
    ``shared.outbox.declarations`` (the push stream among them). Each event seats one
    connected player (in turn) against the CPU, so it makes one ``match.your_turn``
    message, to that player. ``--rate`` events a second at a fixed schedule (an
    open loop: a slow delivery does not slow the publishing) for ``--warmup``
    seconds (not measured), then ``--duration`` seconds. Latency: from just before
    the publish call to the message read off the socket in the client process
    (``time.monotonic``, one clock for the machine), p50/p99/max; lost (not
    received ``DELIVERY_TIMEOUT`` after the last publish) and doubled.
``idle``
    ``--idle-connections`` (10,000) players connected to the one gateway, then left
    alone for ``--hold`` seconds (beyond the gateway's WebSocket ping interval, 20 s),
    then every socket sends ``{"type": "ping"}`` and must get its ``pong``. Reported:
    sockets opened, refused, closed during the hold, answered; the gateway's RSS
    before the first socket opened, once all were open and at the end of the hold, and
    (end - before) / open sockets as the memory per connection; the client's too;
    the CPU of each process while idle.

Open files: a socket is a file descriptor in the gateway and one in the client. This
script raises its own ``RLIMIT_NOFILE`` to ``--idle-connections`` + 4096 (the hard
limit too: it runs as root on the benchmark machine; otherwise ``ulimit -Hn`` must
allow it) before it starts the services, which inherit it; the client raises its own.
Without that a default soft limit of 1,024 (or the machine's 20,000) refuses the
sockets past it. Logs: ``bench/results/logs/push-*.log``.
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    harness.reexec_in_venv()

import argparse
import json
import select
import subprocess
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from battle_actions import NO_RATE_LIMITS  # every socket comes from 127.0.0.1
from harness import (
    BENCH,
    HOST,
    LOG_DIR,
    BenchError,
    Children,
    CpuWindow,
    Result,
    add_stack_options,
    children,
    deckyard_command,
    dev_tokens,
    fresh_databases,
    gateway_stack_env,
    log_problems,
    migrate,
    percentile,
    private_vhost,
    resolve_source_option,
    script_main,
    start_stack,
)
from push_client import raise_open_files

DATABASE_PREFIX = "deckyard_bench_push"
RPC_EXCHANGE = "deckyard-bench-push-rpc"
VHOST_PREFIX = "deckyard-bench-push"
SERVICES = ("accounts", "gateway")
CONNECT_TIMEOUT = 600.0  # seconds for the client to open every socket
REPLY_TIMEOUT = 120.0  # seconds for the client to answer a command
DELIVERY_TIMEOUT = 10.0  # seconds after the last publish for the last messages


# -- the players ---------------------------------------------------------------------------


LATENCY_SUBJECT = "auth0|push-latency-"
IDLE_SUBJECT = "auth0|push-idle-"


def register_players(settings: Any, subject: str, count: int) -> None:
    """``<subject>0`` ... as active players, straight into accounts' ``players`` table:
    the gateway's ``accounts.me`` for a socket is then the one SELECT of a returning
    player, not a registration (10,000 of those would take minutes here and measure
    accounts, not the push channel)."""
    import psycopg

    url = settings.database_url_for("accounts").set(drivername="postgresql")
    with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as conn:
        conn.execute(
            "INSERT INTO players (id, auth0_sub, status, registered_at) "
            "SELECT gen_random_uuid(), %s || n, 'active', now() "
            "FROM generate_series(0, %s - 1) AS n ON CONFLICT DO NOTHING",
            (subject, count),
        )


# -- the client process -------------------------------------------------------------------


class ClientProcess:
    """``bench/push_client.py`` in a process of its own, spoken to in JSON lines."""

    def __init__(
        self, started: Children, env: dict[str, str], url: str, connections: int, subject: str
    ) -> None:
        argv = [
            sys.executable,
            str(BENCH / "push_client.py"),
            *("--url", url, "--connections", str(connections), "--subject", subject),
        ]
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        name = f"client-{connections}"
        log_path = LOG_DIR / f"push-{name}.log"
        log_file = open(log_path, "wb")  # noqa: SIM115 (closed by Children.stop_all)
        self.process = subprocess.Popen(
            argv,
            cwd=BENCH,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log_file,
            start_new_session=True,
        )
        from harness import Child

        self._child = Child(name, self.process, log_path, log_file)
        started._children.append(self._child)
        self.name = name
        self._stdout: IO[bytes] = self.process.stdout  # type: ignore[assignment]

    def exited(self, started: Children) -> None:
        """After ``report``: the client closes its sockets and exits; forget it."""
        try:
            self.process.wait(timeout=REPLY_TIMEOUT)
        except subprocess.TimeoutExpired as exc:
            raise BenchError("the push client did not exit after its report") from exc
        started._children.remove(self._child)
        self._child.log_file.close()

    def pid(self) -> int:
        return self.process.pid

    def command(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()

    def reply(self, event: str, timeout: float, started: Children) -> dict[str, Any]:
        """The next line the client prints, which must be ``event``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            started.check_alive()
            ready, _, _ = select.select([self._stdout], [], [], 0.5)
            if ready:
                line = self._stdout.readline()
                if not line:
                    started.check_alive()
                    raise BenchError(f"the push client closed its output\n{started.log_tails()}")
                payload: dict[str, Any] = json.loads(line)
                if payload.get("event") != event:
                    raise BenchError(f"the push client said {payload}, not {event}")
                return payload
        raise BenchError(f"no {event} from the push client after {timeout:.0f}s")


def rss_kib(pid: int) -> int:
    """A process's resident set (VmRSS) in KiB; 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


# -- publishing as the battle relay does --------------------------------------------------


def match_updated(player_id: str, now: datetime) -> tuple[str, dict[str, Any]]:
    """A MatchUpdated envelope seating ``player_id`` against the CPU, waiting for them."""
    from shared.events import MATCH_UPDATED, new_event

    match_id = uuid.uuid4()
    data = {
        "match_id": match_id,
        "game": "quest",
        "mode": "cpu",
        "version": 2,
        "status": "active",
        "seats": [
            {
                "seat": "a",
                "kind": "player",
                "player_id": uuid.UUID(player_id),
                "result": None,
                "version": 2,
                "told": True,
            },
            {
                "seat": "b",
                "kind": "cpu",
                "player_id": None,
                "result": None,
                "version": 2,
                "told": True,
            },
        ],
        "to_act": ["a"],
        "deadline": None,
        "updated_at": now,
    }
    return str(match_id), new_event(MATCH_UPDATED, data, occurred_at=now).to_message()


class RelayPublisher:
    """The outbox relay's publisher and declarations (shared/outbox.py), for MatchUpdated."""

    def __init__(self, amqp_uri: str) -> None:
        from shared.events import MATCH_UPDATED
        from shared.outbox import declarations, nameko_publisher

        self._declare = declarations(MATCH_UPDATED.exchange, MATCH_UPDATED.name)
        self._publisher = nameko_publisher(amqp_uri)

    def publish(self, message: dict[str, Any]) -> None:
        self._publisher.publish(
            message,
            exchange=self._declare[0],
            declare=self._declare,
            routing_key="MatchUpdated",
            mandatory=True,
            message_id=message["event_id"],
        )


def publish_schedule(
    publisher: RelayPublisher, envelopes: Sequence[tuple[str, dict[str, Any]]], rate: float
) -> tuple[dict[str, float], float]:
    """Publish at ``rate`` a second on a fixed schedule; (match id -> monotonic time just
    before its publish, how far behind the schedule the publisher fell at most)."""
    sent: dict[str, float] = {}
    t0 = time.monotonic()
    behind = 0.0
    for n, (match_id, message) in enumerate(envelopes):
        due = t0 + n / rate
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        else:
            behind = max(behind, now - due)
        sent[match_id] = time.monotonic()
        publisher.publish(message)
    return sent, behind


# -- the scenarios ------------------------------------------------------------------------


@dataclass
class Latency:
    connections: int
    opened: int
    connect_s: float
    published: int
    seconds: float
    latencies_ms: list[float]
    lost: int
    doubled: int
    behind_s: float
    cpu: dict[str, float]
    closed: int


@dataclass
class Idle:
    wanted: int
    opened: int
    refused: int
    retries: int
    errors: dict[str, int]
    connect_s: float
    hold_s: float
    closed: int
    close_codes: dict[str, int]
    pong: int
    gateway_kib: tuple[int, int, int]  # before, all open, end of the hold
    client_kib: tuple[int, int]  # all open, end of the hold
    cpu: dict[str, float]

    @property
    def per_connection_kib(self) -> float:
        return (self.gateway_kib[2] - self.gateway_kib[0]) / max(1, self.opened)

    @property
    def held(self) -> int:
        return self.opened - self.closed


def run_latency(
    args: argparse.Namespace, started: Children, env: dict[str, str], amqp_uri: str, url: str
) -> Latency:
    print(f"  latency: {args.connections} players connecting", flush=True)
    client = ClientProcess(started, env, url, args.connections, LATENCY_SUBJECT)
    hello = client.reply("connected", CONNECT_TIMEOUT, started)
    players = hello["players"]
    print(
        f"  {hello['open']} sockets open in {hello['seconds']}s ({hello['retries']} tries again, "
        f"{hello['failed']} refused"
        f"{': ' + str(hello['errors']) if hello['errors'] else ''})",
        flush=True,
    )
    if not players:
        raise BenchError(f"no socket opened: {hello['errors']}")
    publisher = RelayPublisher(amqp_uri)
    now = datetime.now(UTC)
    warm = [match_updated(players[n % len(players)], now) for n in range(args.rate * args.warmup)]
    measured = [
        match_updated(players[n % len(players)], now) for n in range(args.rate * args.duration)
    ]
    if warm:
        print(f"  warming up {args.warmup}s ({len(warm)} events)", flush=True)
        publish_schedule(publisher, warm, args.rate)
    print(f"  {len(measured)} events, {args.rate}/s for {args.duration}s", flush=True)
    pids = {**{c.name: c.process.pid for c in started._children if c.name in SERVICES}}
    pids["push client"] = client.pid()
    window = CpuWindow(pids)
    t0 = time.monotonic()
    sent, behind = publish_schedule(publisher, measured, args.rate)
    seconds = time.monotonic() - t0
    cpu = window.finish()
    cpu.pop("wrk", None)
    deadline = time.monotonic() + DELIVERY_TIMEOUT  # the last messages in flight
    while time.monotonic() < deadline:
        client.command("count")
        if client.reply("count", REPLY_TIMEOUT, started)["received"] >= len(warm) + len(sent):
            break
        time.sleep(0.2)
    client.command("report")
    report = client.reply("report", REPLY_TIMEOUT, started)
    client.exited(started)
    received: dict[str, list[float]] = report["received"]
    latencies = [(received[m][0] - t) * 1000 for m, t in sent.items() if m in received]
    lost = sum(1 for m in sent if m not in received)
    if lost:
        print(f"  {lost} events not received {DELIVERY_TIMEOUT:.0f}s after the last publish")
    return Latency(
        connections=args.connections,
        opened=hello["open"],
        connect_s=hello["seconds"],
        published=len(sent),
        seconds=seconds,
        latencies_ms=latencies,
        lost=lost,
        doubled=sum(1 for m in sent if len(received.get(m, ())) > 1),
        behind_s=behind,
        cpu=cpu,
        closed=report["closed"],
    )


def run_idle(args: argparse.Namespace, started: Children, env: dict[str, str], url: str) -> Idle:
    gateway = next(c for c in started._children if c.name == "gateway")
    before = rss_kib(gateway.process.pid)
    print(
        f"  idle: {args.idle_connections} players connecting (gateway RSS {before / 1024:.0f} MiB)",
        flush=True,
    )
    client = ClientProcess(started, env, url, args.idle_connections, IDLE_SUBJECT)
    hello = client.reply("connected", CONNECT_TIMEOUT, started)
    all_open = rss_kib(gateway.process.pid)
    client_open = rss_kib(client.pid())
    print(
        f"  {hello['open']} sockets open in {hello['seconds']}s ({hello['retries']} tries again, "
        f"{hello['failed']} refused"
        f"{': ' + str(hello['errors']) if hello['errors'] else ''}); holding {args.hold}s",
        flush=True,
    )
    pids = {c.name: c.process.pid for c in started._children if c.name in SERVICES}
    pids["push client"] = client.pid()
    window = CpuWindow(pids)
    t0 = time.monotonic()
    while time.monotonic() - t0 < args.hold:
        started.check_alive()
        time.sleep(0.5)
    cpu = window.finish()
    cpu.pop("wrk", None)
    end = rss_kib(gateway.process.pid)
    client_end = rss_kib(client.pid())
    client.command("check")
    checked = client.reply("checked", REPLY_TIMEOUT, started)
    client.command("report")
    client.reply("report", REPLY_TIMEOUT, started)
    client.exited(started)
    return Idle(
        wanted=args.idle_connections,
        opened=hello["open"],
        refused=hello["failed"],
        retries=hello["retries"],
        errors=hello["errors"],
        connect_s=hello["seconds"],
        hold_s=round(time.monotonic() - t0, 1),
        closed=checked["closed"],
        close_codes=checked["close_codes"],
        pong=checked["pong"],
        gateway_kib=(before, all_open, end),
        client_kib=(client_open, client_end),
        cpu=cpu,
    )


@dataclass
class Outcome:
    latency: Latency | None
    idle: Idle | None
    problems: dict[str, dict[str, int]] = field(default_factory=dict)
    first_problems: list[str] = field(default_factory=list)


def run(args: argparse.Namespace) -> Outcome:
    """Set up, measure, stop everything."""
    limit = raise_open_files(max(args.idle_connections, args.connections) + 4096)
    base, settings = gateway_stack_env(
        args, database_prefix=DATABASE_PREFIX, rpc_exchange=RPC_EXCHANGE, extra=NO_RATE_LIMITS
    )
    deckyard = deckyard_command()
    print(f"  open files: {limit} for the services and the client", flush=True)
    url = f"ws://{HOST}:{args.gateway_port}/stream"
    latency = idle = None
    with (
        private_vhost(base["AMQP_URI"], args.shared_vhost, VHOST_PREFIX) as amqp_uri,
        fresh_databases(settings, ["accounts"], args.keep),
    ):
        base["AMQP_URI"] = amqp_uri
        print(f"  migrating {DATABASE_PREFIX}_accounts", flush=True)
        migrate(deckyard, ["accounts"], args.source, base)
        register_players(settings, LATENCY_SUBJECT, args.connections)
        register_players(settings, IDLE_SUBJECT, args.idle_connections)
        (token,) = dev_tokens(settings, "auth0|push-first-", 1)
        with children("push") as started:
            logs = start_stack(
                started,
                deckyard,
                SERVICES,
                base,
                args.source,
                one_process=False,
                health_ports=args.health_ports,
                gateway_port=args.gateway_port,
                token=token,
            )
            if args.latency:
                latency = run_latency(args, started, base, amqp_uri, url)
            if args.idle:
                idle = run_idle(args, started, base, url)
            problems = {child.name: dict(log_problems(child)[0]) for child in logs}
            first = [line for child in logs for line in log_problems(child, 3)[1]]
            print("  stopping", flush=True)
    return Outcome(latency, idle, problems, first)


# -- results ------------------------------------------------------------------------------


def latency_result(found: Latency) -> Result:
    received = len(found.latencies_ms)
    return Result(
        scenario="push latency",
        requests=received,
        duration_s=round(found.seconds, 2),
        rps=round(received / found.seconds, 1) if found.seconds else 0.0,
        p50_ms=round(percentile(found.latencies_ms, 50), 1),
        p99_ms=round(percentile(found.latencies_ms, 99), 1),
        non2xx=0,
        socket_errors=(found.connections - found.opened) + found.closed,
        cpu_percent=found.cpu,
        topology="accounts and gateway, a process each; the client in its own",
        unit="events/s",
        failures=found.lost + found.doubled,
        notes=[
            f"{found.opened} of {found.connections} players connected in {found.connect_s:.1f}s, "
            f"{found.closed} closed during the run",
            f"{found.published} MatchUpdated published at a fixed "
            f"{found.published / max(found.seconds, 1e-9):.0f}/s "
            f"(at most {found.behind_s * 1000:.0f} ms behind schedule), each to one player: "
            f"p50 {percentile(found.latencies_ms, 50):.1f} ms, p99 "
            f"{percentile(found.latencies_ms, 99):.1f} ms, max "
            f"{max(found.latencies_ms, default=float('nan')):.1f} ms; lost {found.lost}, "
            f"doubled {found.doubled}",
        ],
    )


def idle_result(found: Idle) -> Result:
    before, all_open, end = found.gateway_kib
    return Result(
        scenario="idle connections",
        requests=found.held,
        duration_s=found.hold_s,
        rps=float(found.held),
        p50_ms=float("nan"),
        p99_ms=float("nan"),
        non2xx=0,
        socket_errors=found.refused + found.closed + (found.held - found.pong),
        cpu_percent=found.cpu,
        topology="one gateway process (and accounts); the client in its own",
        unit="sockets",
        notes=[
            f"{found.opened} of {found.wanted} opened in {found.connect_s:.0f}s "
            f"({found.retries} tried again, {found.refused} refused"
            f"{': ' + str(found.errors) if found.errors else ''}), "
            f"held {found.hold_s:.0f}s: {found.closed} closed "
            f"{found.close_codes or ''}, {found.pong} answered a ping after it",
            f"gateway RSS {before / 1024:.0f} MiB before, {all_open / 1024:.0f} MiB all open, "
            f"{end / 1024:.0f} MiB after the hold: {found.per_connection_kib:.1f} KiB per "
            f"connection; client RSS {found.client_kib[1] / 1024:.0f} MiB "
            f"({found.client_kib[1] / max(1, found.opened):.1f} KiB per connection)",
        ],
    )


def results(outcome: Outcome) -> list[Result]:
    found = []
    if outcome.latency is not None:
        found.append(latency_result(outcome.latency))
    if outcome.idle is not None:
        found.append(idle_result(outcome.idle))
    return found


def report(args: argparse.Namespace, outcome: Outcome) -> None:
    from harness import cpu_summary, summary_table

    rows = results(outcome)
    print()
    print(summary_table(rows))
    for r in rows:
        print(f"{r.scenario}: {r.topology}")
        for note in r.notes:
            print(f"  {note}")
        rate = r.rps if r.unit == "events/s" else 0
        print(f"  CPU (100% = one core): {cpu_summary(r.cpu_percent, rate, 'event')}")
    print(
        "logs: "
        + "; ".join(
            f"{name} " + (", ".join(f"{k} {v}" for k, v in sorted(p.items())) or "clean")
            for name, p in outcome.problems.items()
        )
    )
    for line in outcome.first_problems:
        print(f"  {line}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1000, help="players (latency)")
    parser.add_argument("--rate", type=int, default=100, help="events a second (latency)")
    parser.add_argument("--duration", type=int, default=25, help="measured seconds (latency)")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured seconds first")
    parser.add_argument(
        "--idle-connections", type=int, default=10000, help="idle sockets on one gateway"
    )
    parser.add_argument("--hold", type=int, default=30, help="seconds the idle sockets are held")
    parser.add_argument("--no-latency", dest="latency", action="store_false")
    parser.add_argument("--no-idle", dest="idle", action="store_false")
    parser.add_argument(
        "--base-port", type=int, default=19700, help="gateway; accounts health +80, status +90"
    )
    add_stack_options(parser, keep="the database")
    args = parser.parse_args(argv)
    if not (1 <= args.connections <= 50_000 and 1 <= args.idle_connections <= 100_000):
        parser.error("--connections must be in 1..50000 and --idle-connections in 1..100000")
    if not (1 <= args.rate <= 10_000 and 1 <= args.duration <= 600 and 0 <= args.warmup <= 60):
        parser.error("--rate in 1..10000, --duration in 1..600, --warmup in 0..60")
    if not (0 <= args.hold <= 3600):
        parser.error("--hold must be in 0..3600")
    resolve_source_option(parser, args)
    args.gateway_port = args.base_port
    args.health_ports = [args.base_port + 80]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    return script_main(parse_args, lambda args: report(args, run(args)), argv)


if __name__ == "__main__":
    sys.exit(main())
