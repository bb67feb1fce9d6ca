"""The Quest reward pipeline: ``AttemptCompleted`` in, ``RewardGranted`` out.

    python bench/rewards.py [--events 10000] [--latency-events 300]

Measures the cards service alone, end to end through RabbitMQ: this script
plays the challenge service's outbox relay (it publishes ``AttemptCompleted``
envelopes, ``shared.events.new_event(...).to_message()``, to the topic
exchange ``challenge.events`` with routing key ``AttemptCompleted``,
persistent, publisher confirms on) and a consumer of ``RewardGranted``. In
between, ``deckyard run --service cards`` (``on_attempt_completed`` ->
``reward_handlers.grant_reward``) rolls each reward in one transaction
(processed-message record, ``reward_grants`` row, ``owned_cards`` rows,
``RewardGranted`` outbox row) and its outbox relay publishes ``RewardGranted``
to ``cards.events``.

Set-up: ``deckyard migrate --service cards`` on a fresh
``deckyard_bench_rewards_cards`` database, then the 30 real card definitions
of ``services/authoring/seed/quest_cards.json`` inserted straight into the
``card_definitions`` read model (as the ``ContentPublished`` consumer writes
it). Before cards starts, the script declares the cards consumer's queue
(``evt-challenge-AttemptCompleted--cards.on_attempt_completed``, exactly as
nameko declares it, via ``shared.outbox.declarations``; the other consumer of
the contract, accounts, is not declared: nothing would read it) and binds its
own collector queue to ``cards.events`` / ``RewardGranted``, so nothing is
dropped. A thread receives every ``RewardGranted`` and notes its receive time.

Scenarios, one after the other on the same service:

``warm-up``
    ``--warmup`` events one at a time, not reported.
``latency``
    ``--latency-events`` events one at a time: each waits for its
    ``RewardGranted`` before the next is published. p50/p99/max of publish ->
    ``RewardGranted`` received.
``burst``
    ``--events`` events published as fast as one confirming publisher goes
    (distinct attempt and player ids, ``correct_count`` uniform 0..5, the
    envelopes built beforehand), then wait (at most ``--wait`` seconds after
    the last publish) for every ``RewardGranted``. grants/s = events / (last
    received - first published); the publish rate; p50/p99/max latency; CPU
    seconds of the cards process, RabbitMQ, PostgreSQL and this script over
    the burst.

Latency is also split at the ``granted_at`` the handler stamps (its clock,
read just before it writes the grant): publish -> handler ("queue + consume")
and handler -> received (commit, relay, broker). All times are this machine's
wall clock.

Checks, reported, never asserted: exactly one ``RewardGranted`` per attempt
(doubled, lost, unknown); in the database, ``reward_grants`` rows,
``processed_messages`` rows and outbox rows against the events sent, outbox
rows not yet published, the relay's publish tries; the queues' depths; the
ERROR/WARNING/Traceback lines of the cards log (a handler error means a
requeued, redelivered message). Judges nothing about speed.

Isolation: a RabbitMQ virtual host of its own (``rabbitmqctl add_vhost``,
deleted at the end: nameko names every service's RPC queue ``rpc-<service>``,
so a shared vhost would mix this run's cards with another stack's), database
``deckyard_bench_rewards_cards`` (dropped at the end unless ``--keep``), the
health port ``--health-port`` on 127.0.0.1. The cards log goes to
``bench/results/logs/rewards-cards.log``.
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    # The event contracts, settings and migrations come from the project's code.
    harness.reexec_in_venv()

import argparse
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from harness import (
    BenchError,
    Child,
    Children,
    Result,
    add_stack_options,
    children,
    command_cpu_seconds,
    deckyard_command,
    fresh_databases,
    log_problems,
    machine_busy_and_total,
    markdown,
    migrate,
    percentile,
    private_vhost,
    process_cpu_seconds,
    refuse_busy_ports,
    resolve_source_option,
    script_main,
    service_env,
    wait_healthy,
)

DATABASE_PREFIX = "deckyard_bench_rewards"
RPC_EXCHANGE = "deckyard-bench-rewards-rpc"
VHOST_PREFIX = "deckyard-bench-rewards"
COLLECTOR_QUEUE = "bench-rewards-collector"
SEED = "services/authoring/seed/quest_cards.json"
ONE_EVENT_TIMEOUT = 30.0  # seconds a one-at-a-time event may take before it counts as lost
SETTLE_TIMEOUT = 15.0  # seconds for the outbox to show every row published
PROGRESS_EVERY = 10.0  # seconds between progress lines while waiting
QUEUE_COLUMNS = ("name", "messages", "messages_unacknowledged")


# -- set-up -------------------------------------------------------------------------------


def conninfo(settings: Any) -> str:
    url = settings.database_url_for("cards").set(drivername="postgresql")
    return str(url.render_as_string(hide_password=False))


def insert_definitions(settings: Any, source: Any) -> Counter[str]:
    """The seed's 30 card definitions as published rows; returns the reward pool by rarity."""
    import psycopg
    from psycopg.types.json import Jsonb

    from games.quest.collection import card_attributes

    cards = json.loads((source / SEED).read_text())
    now = datetime.now(UTC)
    pool: Counter[str] = Counter()
    with psycopg.connect(conninfo(settings), autocommit=True) as conn, conn.transaction():
        for card in cards:
            body = card["body"]
            conn.execute(
                "INSERT INTO card_definitions (id, lineage_id, game, kind, name, rarity, "
                "attributes, version, snapshot, published_at) "
                "VALUES (%s, %s, 'quest', %s, %s, %s, %s, 1, %s, %s)",
                (
                    uuid.uuid4(),
                    uuid.uuid4(),
                    card["kind"],
                    body["name"],
                    body["rarity"],
                    Jsonb(card_attributes(card["kind"], body)),  # as the cards service keeps them
                    Jsonb(body),
                    now,
                ),
            )
            if body.get("reward_eligible") and not body.get("evolved"):
                pool[body["rarity"]] += 1
    return pool


# -- RabbitMQ: the bench's publisher and collector ------------------------------------------


def attempt_completed_entities() -> tuple[Any, Any]:
    """``challenge.events`` and the cards consumer's queue, as nameko declares them."""
    from shared.events import ATTEMPT_COMPLETED
    from shared.outbox import declarations

    exchange, *queues = declarations(ATTEMPT_COMPLETED.exchange, ATTEMPT_COMPLETED.name)
    (cards_queue,) = [q for q in queues if q.name.endswith("--cards.on_attempt_completed")]
    return exchange, cards_queue


def collector_queue() -> Any:
    from kombu import Queue

    from shared.events import REWARD_GRANTED
    from shared.outbox import declarations

    exchange = declarations(REWARD_GRANTED.exchange, REWARD_GRANTED.name)[0]
    return Queue(
        COLLECTOR_QUEUE,
        exchange=exchange,
        routing_key=REWARD_GRANTED.name,
        durable=False,
        auto_delete=False,
        exclusive=False,
    )


def declare_all(amqp_uri: str) -> None:
    """Both queues (and exchanges) before cards starts, so nothing is dropped."""
    from kombu import Connection

    exchange, cards_queue = attempt_completed_entities()
    with Connection(amqp_uri) as conn:
        channel = conn.channel()
        for entity in (exchange, cards_queue, collector_queue()):
            entity(channel).declare()
        channel.close()


@dataclass
class Grant:
    received: float  # time.time() when this script got it
    granted_at: float  # the handler's clock
    cards: int


@dataclass
class Collector:
    """Receives every RewardGranted in a thread of its own."""

    amqp_uri: str
    grants: dict[str, list[Grant]] = field(default_factory=dict)
    unknown: int = 0
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="collector", daemon=True)
        self.expected: set[str] = set()

    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(30):
            raise BenchError(f"the RewardGranted collector did not start: {self.errors}")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        from kombu import Connection, Consumer

        try:
            with Connection(self.amqp_uri) as conn:
                consumer = Consumer(
                    conn.channel(),
                    queues=[collector_queue()],
                    callbacks=[self._on_message],
                    accept=["json"],
                    no_ack=True,
                )
                with consumer:
                    self._ready.set()
                    while not self._stop.is_set():
                        with contextlib.suppress(TimeoutError, OSError):
                            conn.drain_events(timeout=0.25)
        except Exception as exc:  # reported by the main thread
            self.errors.append(repr(exc))
            self._ready.set()

    def _on_message(self, body: Any, message: Any) -> None:
        received = time.time()
        data = body.get("data", {}) if isinstance(body, dict) else {}
        attempt_id = str(data.get("attempt_id"))
        granted_at = datetime.fromisoformat(data["granted_at"]).timestamp()
        with self._cond:
            if attempt_id not in self.expected:
                self.unknown += 1
            self.grants.setdefault(attempt_id, []).append(
                Grant(received, granted_at, len(data.get("cards", [])))
            )
            self._cond.notify_all()

    def wait_for(self, attempt_ids: set[str], deadline: float, progress: bool = False) -> None:
        """Until every id has a grant or ``deadline`` (monotonic) passes."""
        last_print = time.monotonic()
        with self._cond:
            while True:
                missing = len(attempt_ids - self.grants.keys())
                now = time.monotonic()
                if missing == 0 or now >= deadline:
                    return
                if progress and now - last_print >= PROGRESS_EVERY:
                    print(f"    {len(attempt_ids) - missing} received, {missing} to come")
                    last_print = now
                self._cond.wait(timeout=min(1.0, deadline - now))
                if self.errors:
                    raise BenchError(f"the RewardGranted collector failed: {self.errors}")


class Publisher:
    """One connection, one channel, a confirm for every message (like nameko's Publisher)."""

    def __init__(self, amqp_uri: str) -> None:
        from kombu import Connection

        self._exchange, _ = attempt_completed_entities()
        self._conn = Connection(amqp_uri, transport_options={"confirm_publish": True})
        self._producer = self._conn.Producer(serializer="json")

    def publish(self, message: dict[str, Any]) -> float:
        """Publish one envelope; the time.time() it was handed to the broker."""
        sent = time.time()
        self._producer.publish(
            message,
            exchange=self._exchange,
            routing_key="AttemptCompleted",
            delivery_mode=2,
            message_id=message["event_id"],
            retry=False,
        )
        return sent

    def close(self) -> None:
        self._conn.release()


def envelopes(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """``count`` AttemptCompleted messages: new attempt and player ids, correct_count 0..5."""
    from shared.events import ATTEMPT_COMPLETED, new_event

    event_id = uuid.uuid4()  # one Quest event for all of them, as in a busy square
    now = datetime.now(UTC)
    return [
        new_event(
            ATTEMPT_COMPLETED,
            {
                "attempt_id": uuid.uuid4(),
                "player_id": uuid.uuid4(),
                "game": "quest",
                "event_id": event_id,
                "correct_count": rng.randint(0, 5),
                "completed_at": now,
            },
            occurred_at=now,
        ).to_message()
        for _ in range(count)
    ]


# -- measuring ------------------------------------------------------------------------------


@dataclass
class Scenario:
    name: str
    events: int
    first_published: float = 0.0
    last_published: float = 0.0
    published: dict[str, float] = field(default_factory=dict)  # attempt id -> time sent
    latencies_ms: list[float] = field(default_factory=list)
    to_handler_ms: list[float] = field(default_factory=list)
    from_handler_ms: list[float] = field(default_factory=list)
    last_received: float = 0.0
    last_granted: float = 0.0  # the handler's stamp of the last grant
    doubled: int = 0
    lost: int = 0
    cards: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds over the window
    window_s: float = 0.0

    @property
    def grants_per_s(self) -> float:
        span = self.last_received - self.first_published
        return (self.events - self.lost) / span if span > 0 else 0.0

    @property
    def publish_per_s(self) -> float:
        span = self.last_published - self.first_published
        return self.events / span if span > 0 else 0.0


def settle(scenario: Scenario, collector: Collector) -> None:
    """Latencies, doubled and lost, from what the collector holds."""
    with collector._cond:  # the collector thread still runs
        grants = {a: list(collector.grants.get(a, [])) for a in scenario.published}
    for attempt_id, sent in scenario.published.items():
        got = grants[attempt_id]
        if not got:
            scenario.lost += 1
            continue
        scenario.doubled += len(got) - 1
        first = min(got, key=lambda g: g.received)
        scenario.latencies_ms.append((first.received - sent) * 1000)
        scenario.to_handler_ms.append((first.granted_at - sent) * 1000)
        scenario.from_handler_ms.append((first.received - first.granted_at) * 1000)
        scenario.last_received = max(scenario.last_received, first.received)
        scenario.last_granted = max(scenario.last_granted, first.granted_at)
        scenario.cards += first.cards


def one_at_a_time(
    name: str, count: int, publisher: Publisher, collector: Collector, started: Children
) -> Scenario:
    messages = envelopes(count, random.Random())
    scenario = Scenario(name, count)
    for message in messages:
        attempt_id = message["data"]["attempt_id"]
        with collector._cond:
            collector.expected.add(attempt_id)
        sent = publisher.publish(message)
        scenario.published[attempt_id] = sent
        scenario.first_published = scenario.first_published or sent
        scenario.last_published = sent
        collector.wait_for({attempt_id}, time.monotonic() + ONE_EVENT_TIMEOUT)
        if attempt_id not in collector.grants:
            started.check_alive()
            print(f"    {attempt_id}: no RewardGranted after {ONE_EVENT_TIMEOUT:.0f}s")
    settle(scenario, collector)
    return scenario


def burst(
    count: int, wait: float, publisher: Publisher, collector: Collector, cards: Child
) -> Scenario:
    messages = envelopes(count, random.Random())
    ids = {m["data"]["attempt_id"] for m in messages}
    with collector._cond:
        collector.expected |= ids
    scenario = Scenario("burst", count)
    cpu0 = cpu_now(cards.process.pid)
    t0 = time.monotonic()
    for message in messages:
        scenario.published[message["data"]["attempt_id"]] = publisher.publish(message)
    scenario.first_published = min(scenario.published.values())
    scenario.last_published = max(scenario.published.values())
    print(
        f"    published {count} in {scenario.last_published - scenario.first_published:.1f}s; "
        f"waiting (at most {wait:.0f}s) for the grants",
        flush=True,
    )
    collector.wait_for(ids, time.monotonic() + wait, progress=True)
    cpu1 = cpu_now(cards.process.pid)
    scenario.window_s = time.monotonic() - t0
    scenario.cpu = {name: cpu1[name] - cpu0[name] for name in cpu0}
    settle(scenario, collector)
    return scenario


def cpu_now(cards_pid: int) -> dict[str, float]:
    """CPU seconds so far: the cards process, RabbitMQ, PostgreSQL, this script, the machine."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    busy, _ = machine_busy_and_total()
    return {
        "cards": process_cpu_seconds(cards_pid),
        "rabbitmq": command_cpu_seconds(frozenset({"beam.smp"})),
        "postgres": command_cpu_seconds(frozenset({"postgres"})),
        "bench": me.ru_utime + me.ru_stime,
        "machine": busy / os.sysconf("SC_CLK_TCK"),
    }


@dataclass
class DbCounts:
    grants: int
    processed: int
    owned: int
    outbox: int
    outbox_pending: int
    outbox_tries: int


def db_counts(settings: Any) -> DbCounts:
    import psycopg

    with psycopg.connect(conninfo(settings), autocommit=True) as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM reward_grants), "
            "(SELECT count(*) FROM processed_messages), "
            "(SELECT count(*) FROM owned_cards WHERE source_type = 'reward'), "
            "(SELECT count(*) FROM outbox), "
            "(SELECT count(*) FROM outbox WHERE published_at IS NULL), "
            "(SELECT coalesce(sum(attempts), 0) FROM outbox)"
        ).fetchone()
    assert row is not None
    return DbCounts(*(int(v) for v in row))


def settled_counts(settings: Any) -> DbCounts:
    """The counts once the relay has marked its last batch (bounded)."""
    deadline = time.monotonic() + SETTLE_TIMEOUT
    counts = db_counts(settings)
    while counts.outbox_pending and time.monotonic() < deadline:
        time.sleep(0.5)
        counts = db_counts(settings)
    return counts


def queue_depths(vhost_uri: str) -> str:
    """``name messages unacked`` of every queue on the run's vhost (best effort)."""
    from urllib.parse import unquote, urlsplit

    vhost = unquote(urlsplit(vhost_uri).path.lstrip("/")) or "/"
    try:
        done = subprocess.run(
            ["rabbitmqctl", "-q", "list_queues", "-p", vhost, *QUEUE_COLUMNS],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"(rabbitmqctl list_queues failed: {exc})"
    lines = [line for line in done.stdout.splitlines() if line and not line.startswith("name")]
    return "; ".join(" ".join(line.split()) for line in sorted(lines)) or done.stderr.strip()


# -- running --------------------------------------------------------------------------------


@dataclass
class Outcome:
    scenarios: list[Scenario]
    counts: DbCounts
    sent: int  # events published, warm-up included
    collector: Collector
    depths: str  # the queues at the end
    problems: Counter[str]  # ERROR/WARNING/... lines of the cards log
    first_problems: list[str]


def run(args: argparse.Namespace) -> Outcome:
    """Set up, publish and collect, check, stop everything."""
    from shared.config import load_settings

    refuse_busy_ports([args.health_port])
    base = service_env(
        database_prefix=DATABASE_PREFIX,
        rpc_exchange=RPC_EXCHANGE,
        gateway_port=args.health_port + 1,  # cards serves no gateway: unused
        health_port=args.health_port,
        extra={"PYTHONPATH": str(args.source)},
    )
    settings = load_settings(base)
    deckyard = deckyard_command()
    print(f"code from {args.code}", flush=True)

    scenarios: list[Scenario] = []
    with (
        private_vhost(base["AMQP_URI"], args.shared_vhost, VHOST_PREFIX) as amqp_uri,
        fresh_databases(settings, ["cards"], args.keep),
    ):
        base["AMQP_URI"] = amqp_uri
        print(f"  migrating {DATABASE_PREFIX}_cards", flush=True)
        migrate(deckyard, ["cards"], args.source, base)
        pool = insert_definitions(settings, args.source)
        print(
            "  30 card definitions; reward pool "
            + ", ".join(f"{r} {n}" for r, n in sorted(pool.items())),
            flush=True,
        )
        declare_all(amqp_uri)
        collector = Collector(amqp_uri)
        collector.start()
        publisher: Publisher | None = None
        try:
            with children("rewards") as started:
                cards = started.start(
                    "cards", [*deckyard, "run", "--service", "cards"], base, args.source
                )
                wait_healthy(started, [args.health_port], "/ready")
                publisher = Publisher(amqp_uri)
                if args.warmup:
                    print(f"  warm-up: {args.warmup} events one at a time", flush=True)
                    one_at_a_time("warm-up", args.warmup, publisher, collector, started)
                if args.latency_events:
                    print(f"  latency: {args.latency_events} events one at a time", flush=True)
                    scenarios.append(
                        one_at_a_time("latency", args.latency_events, publisher, collector, started)
                    )
                if args.events:
                    print(f"  burst: {args.events} events", flush=True)
                    scenarios.append(burst(args.events, args.wait, publisher, collector, cards))
                started.check_alive()
                counts = settled_counts(settings)
                depths = queue_depths(amqp_uri) if not args.shared_vhost else ""
                problems, first_problems = log_problems(cards)
                print("  stopping", flush=True)
        finally:
            if publisher is not None:
                publisher.close()
            collector.stop()
    sent = args.warmup + args.latency_events + args.events
    return Outcome(scenarios, counts, sent, collector, depths, problems, first_problems)


def pipeline_result(outcome: Outcome) -> Result:
    """The pipeline in one row: the burst's grants/s (the one-at-a-time rate without a
    burst), the one-at-a-time latency (the burst's without it), lost + doubled of both."""
    by_name = {s.name: s for s in outcome.scenarios}
    rated = by_name.get("burst") or by_name["latency"]
    timed = by_name.get("latency") or by_name["burst"]
    cpu = {}
    if rated.cpu and rated.window_s:
        names = {"bench": "bench script"}
        cpu = {names.get(k, k): round(v / rated.window_s * 100, 1) for k, v in rated.cpu.items()}
    return Result(
        scenario="reward pipeline",
        requests=rated.events - rated.lost,
        duration_s=round(rated.last_received - rated.first_published, 2),
        rps=round(rated.grants_per_s, 1),
        p50_ms=round(percentile(timed.latencies_ms, 50), 1),
        p99_ms=round(percentile(timed.latencies_ms, 99), 1),
        non2xx=0,
        socket_errors=0,
        cpu_percent=cpu,
        topology="cards in one process",
        unit="events/s",
        failures=sum(s.lost + s.doubled for s in outcome.scenarios),
        notes=[
            f"{s.name} {s.events} events: {s.grants_per_s:.1f} grants/s, p50 "
            f"{percentile(s.latencies_ms, 50):.1f} ms, p99 "
            f"{percentile(s.latencies_ms, 99):.1f} ms, lost {s.lost}, doubled {s.doubled}"
            for s in outcome.scenarios
        ],
    )


def report(args: argparse.Namespace, outcome: Outcome) -> None:
    scenarios, counts, collector = outcome.scenarios, outcome.counts, outcome.collector
    print()
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs, cards in one process "
        f"(nameko max_workers 10), warm-up {args.warmup}"
    )
    print(f"code: {args.code}")
    header = (
        "scenario", "events", "grants/s", "publish/s", "p50 ms", "p99 ms", "max ms",
        "doubled", "lost",
    )  # fmt: skip
    rows = [
        (
            s.name,
            str(s.events),
            f"{s.grants_per_s:.1f}",
            f"{s.publish_per_s:.1f}",
            f"{percentile(s.latencies_ms, 50):.1f}",
            f"{percentile(s.latencies_ms, 99):.1f}",
            f"{max(s.latencies_ms, default=float('nan')):.1f}",
            str(s.doubled),
            str(s.lost),
        )
        for s in scenarios
    ]
    print(markdown(header, rows))
    for s in scenarios:
        print(
            f"{s.name}: publish -> handler p50 {percentile(s.to_handler_ms, 50):.1f} ms "
            f"(p99 {percentile(s.to_handler_ms, 99):.1f}), handler -> received p50 "
            f"{percentile(s.from_handler_ms, 50):.1f} ms "
            f"(p99 {percentile(s.from_handler_ms, 99):.1f}); "
            f"{s.cards} cards in {s.events - s.lost} grants"
        )
        if s.name == "burst":
            span = s.last_received - s.first_published
            print(
                f"burst: first publish -> last grant received {span:.1f}s; publishing took "
                f"{s.last_published - s.first_published:.1f}s, the handler stamped its last "
                f"grant at {s.last_granted - s.first_published:.1f}s (handled "
                f"{s.events / max(1e-9, s.last_granted - s.first_published):.1f}/s)"
            )
        if s.cpu:
            per_event = ", ".join(
                f"{name} {seconds:.1f}s ({seconds * 1000 / max(1, s.events):.2f} ms/event)"
                for name, seconds in s.cpu.items()
                if name != "machine"
            )
            machine = s.cpu["machine"]
            others = machine - sum(v for k, v in s.cpu.items() if k != "machine")
            print(
                f"CPU over the burst ({s.window_s:.1f}s): {per_event}; machine busy "
                f"{machine:.1f}s of {s.window_s * (os.cpu_count() or 1):.1f}s, of which "
                f"other processes {max(0.0, others):.1f}s"
            )
    print(
        f"database (all {outcome.sent} events, warm-up included): "
        f"reward_grants {counts.grants}, "
        f"processed_messages {counts.processed}, owned reward cards {counts.owned}, "
        f"outbox rows {counts.outbox} (not yet published {counts.outbox_pending}, "
        f"relay publish tries {counts.outbox_tries})"
    )
    doubled_all = sum(len(g) - 1 for g in collector.grants.values() if g)
    print(
        f"RewardGranted received {sum(len(g) for g in collector.grants.values())} "
        f"for {len(collector.grants)} attempts (doubled {doubled_all}, "
        f"not ours {collector.unknown})"
    )
    if outcome.depths:
        print(f"queues at the end (name messages unacked): {outcome.depths}")
    print(
        "cards log: "
        + (", ".join(f"{k} {v}" for k, v in sorted(outcome.problems.items())) or "no ERROR/WARNING")
    )
    for text in outcome.first_problems:
        print(f"  {text}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10000, help="events in the burst")
    parser.add_argument(
        "--latency-events", type=int, default=300, help="events one at a time (latency)"
    )
    parser.add_argument("--warmup", type=int, default=30, help="unmeasured events first")
    parser.add_argument(
        "--wait",
        type=float,
        default=600.0,
        help="seconds to wait for the burst's grants after its last publish",
    )
    parser.add_argument("--health-port", type=int, default=19280, help="cards' health port")
    add_stack_options(parser, keep="the database")
    args = parser.parse_args(argv)
    if not (0 <= args.events <= 1_000_000 and 0 <= args.latency_events <= 100_000):
        parser.error("--events must be in 0..1000000 and --latency-events in 0..100000")
    if not (0 <= args.warmup <= 10_000 and 0 < args.wait <= 3600):
        parser.error("--warmup must be in 0..10000 and --wait in (0, 3600]")
    resolve_source_option(parser, args)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    return script_main(parse_args, lambda args: report(args, run(args)), argv)


if __name__ == "__main__":
    sys.exit(main())
