"""Quest battle actions through the gateway: round-trip latency under light concurrency.

    python bench/battle_actions.py [--players 8] [--concurrency 1 --concurrency 8] [--duration 20]

Starts accounts, cards, battle and the gateway (``deckyard run --service X``,
one process each as deployed; ``--processes 1`` runs the four in one), after
``deckyard migrate`` of fresh ``deckyard_bench_battle_*`` databases, on a
RabbitMQ virtual host of its own. Seeds the catalogue: the 30 cards of
``services/authoring/seed/quest_cards.json`` inserted straight into cards'
``card_definitions`` read model (as its ``ContentPublished`` consumer writes
them; the same rows as ``bench/rewards.py``). Then, through the gateway, each
of ``--players`` players (a development token each) chooses a starter (Wit,
Grit and Spark in turn, ``POST /quest/starter``), saves it as a deck
(``POST /quest/decks``) and starts a CPU match (``POST /quest/battles``).

Each measured window runs ``C`` player threads (``--concurrency``, repeatable:
one window per value, the same players and matches carried over). A thread
keeps one HTTP/1.1 keep-alive connection and loops: read the match view it
has (the answer to its previous request), pick one of ``legal_actions``
(uniformly among moves, Power cards, swaps and selections; a timeout only
when nothing else is legal; never a forfeit), ``POST
/quest/battles/{id}/actions`` with ``expectedVersion``. The battle service
applies it, lets the CPU reply (every CPU action until the player must act
again), commits, and answers the new view: one round trip per player action.
When a match has finished, the thread starts the next one with the same
deck (``POST /quest/battles``, reported apart as "new match").

A window is ``--warmup`` seconds (not measured), then ``--duration`` seconds:
requests that start in it count. Per window and request kind: requests/s,
p50/p90/p99/max of the round trip as this script sees it (request written to
answer read, ``time.perf_counter``), non-2xx answers; matches finished and
their outcomes, CPU actions per player action; the CPU of each service
process, RabbitMQ, PostgreSQL and this script over the window (as a share of
one core and per request), and per request above what each process uses idle
(a window without requests comes first, ``--idle`` seconds, 10 by default:
timers, relays, heartbeats). Judges nothing.

The gateway's rate limits (per player 120/min, per address 600/min: every
request here comes from 127.0.0.1) would refuse most of this load with 429, so
they are raised for this run (``RATE_LIMIT_*`` environment variables); the
limiter still runs on every request. Turn deadlines are real (90 s of the
services' own clock): a player thread answers within milliseconds, so none
passes while a window runs; a match left waiting between windows may time out
through the sweeper, and the next action then answers 409 ``stale_version``
(counted; the thread reads the match again).

At the end, reported, never asserted: the battle database's matches by
status and outcome, logged actions, ``MatchFinished`` outbox rows not yet
published; accounts' match progression entries against the finished matches;
ERROR/WARNING/Traceback lines of each service log.

Isolation: a RabbitMQ virtual host of its own (``rabbitmqctl add_vhost``,
deleted at the end), databases ``deckyard_bench_battle_*`` (dropped at the
end unless ``--keep``), ports ``--base-port`` (gateway) and +80.. (health),
127.0.0.1 only. Logs in ``bench/results/logs/battle-*.log``.
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    # Tokens, the catalogue rows and the settings come from the project's code.
    harness.reexec_in_venv()

import argparse
import os
import random
import resource
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from harness import (
    HOST,
    BenchError,
    Children,
    CpuWindow,
    Result,
    add_stack_options,
    children,
    cpu_summary,
    deckyard_command,
    dev_tokens,
    fresh_databases,
    gateway_stack_env,
    log_problems,
    markdown,
    migrate,
    percentile,
    private_vhost,
    resolve_source_option,
    script_main,
    start_stack,
)

from deckyard.api_client import ApiClient

DATABASE_PREFIX = "deckyard_bench_battle"
RPC_EXCHANGE = "deckyard-bench-battle-rpc"
VHOST_PREFIX = "deckyard-bench-battle"
SERVICES = ("accounts", "cards", "battle", "gateway")
DATABASES = ("accounts", "cards", "battle")
AFFINITIES = ("Wit", "Grit", "Spark")
HTTP_TIMEOUT = 15.0
SETUP_TIMEOUT = 120.0  # seconds for one player's set-up, retrying while services start
SETTLE_TIMEOUT = 20.0  # seconds for accounts to apply the last MatchFinished
# Far above what the threads send: the limiter keeps running, it never refuses.
NO_RATE_LIMITS = {
    "RATE_LIMIT_PLAYER_PER_MINUTE": "100000000",
    "RATE_LIMIT_PLAYER_BURST": "1000000",
    "RATE_LIMIT_ADDRESS_PER_MINUTE": "100000000",
    "RATE_LIMIT_ADDRESS_BURST": "1000000",
}
ACTION, START = "action", "new match"
IDLE_SECONDS = 10  # the window without requests, for the processes' background CPU


# -- HTTP -------------------------------------------------------------------------------------


class Client:
    """One player's keep-alive connection to the gateway (the API client the e2e tests use)."""

    def __init__(self, port: int, token: str) -> None:
        self._api = ApiClient(f"http://{HOST}:{port}", timeout=HTTP_TIMEOUT)
        self._token = token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        """(status, parsed answer, seconds); status 0 if the connection failed."""
        answer = self._api.call(method, path, self._token, body)
        return answer.status, answer.body, answer.seconds

    def close(self) -> None:
        self._api.close()


# -- players ----------------------------------------------------------------------------------


@dataclass
class Sample:
    kind: str
    started: float  # time.perf_counter() when the request was sent
    seconds: float
    status: int


@dataclass
class PlayerMatch:
    """One player, its deck and the view of its current match."""

    number: int
    token: str
    deck_id: str
    view: dict[str, Any]
    rng: random.Random
    samples: list[Sample] = field(default_factory=list)
    finished: list[tuple[float, str]] = field(default_factory=list)  # (time, outcome)
    cpu_steps: list[tuple[float, int]] = field(default_factory=list)  # (time, CPU actions)
    stale: int = 0
    errors: list[str] = field(default_factory=list)


def set_up(port: int, number: int, token: str) -> PlayerMatch:
    """A starter, a deck of it, a match: through the gateway (retrying while it starts)."""
    client = Client(port, token)
    affinity = AFFINITIES[number % len(AFFINITIES)]
    deadline = time.monotonic() + SETUP_TIMEOUT

    def call(method: str, path: str, body: Any, ok: tuple[int, ...]) -> Any:
        while True:
            status, answer, _ = client.call(method, path, body)
            if status in ok:
                return answer
            if status in (0, 503) and time.monotonic() < deadline:  # still starting
                time.sleep(0.5)
                continue
            raise BenchError(f"player {number}: {method} {path} answered {status}: {answer!r}")

    try:
        grant = call("POST", "/quest/starter", {"affinity": affinity}, (200, 201))
        cards = sorted(grant["cards"], key=lambda c: (c["kind"], c["name"]))
        deck = call(
            "POST",
            "/quest/decks",
            {"name": f"Bench {affinity}", "cards": [c["id"] for c in cards]},
            (201,),
        )
        view = call("POST", "/quest/battles", {"deckId": deck["id"]}, (201,))
    finally:
        client.close()
    return PlayerMatch(number, token, deck["id"], view, random.Random(number))


def pick(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action: uniform among all but forfeit and timeout; timeout if nothing else."""
    legal = view["legalActions"]
    options = [a for a in legal if a["kind"] not in ("forfeit", "timeout")]
    if options:
        return rng.choice(options)
    return next(a for a in legal if a["kind"] == "timeout")


def drive(player: PlayerMatch, port: int, stop: threading.Event) -> None:
    """Play the player's matches until ``stop``: one action per round trip."""
    client = Client(port, player.token)
    try:
        while not stop.is_set():
            view = player.view
            if view["status"] == "finished":
                sent = time.perf_counter()
                status, answer, seconds = client.call(
                    "POST", "/quest/battles", {"deckId": player.deck_id}
                )
                player.samples.append(Sample(START, sent, seconds, status))
                if status == 201:
                    player.view = answer
                else:
                    resync(player, client, f"new match: {status} {answer!r}")
                continue
            before = view["version"]
            body = {"expectedVersion": before, "action": pick(view, player.rng)}
            sent = time.perf_counter()
            status, answer, seconds = client.call(
                "POST", f"/quest/battles/{view['id']}/actions", body
            )
            player.samples.append(Sample(ACTION, sent, seconds, status))
            if status == 200:
                player.view = answer
                player.cpu_steps.append((sent, answer["version"] - before - 1))
                if answer["status"] == "finished":
                    player.finished.append((sent, answer["outcome"]))
            elif status == 409 and isinstance(answer, dict) and answer["code"] == "stale_version":
                player.stale += 1
                resync(player, client, None)
            else:
                resync(player, client, f"action: {status} {answer!r}")
    finally:
        client.close()


def resync(player: PlayerMatch, client: Client, error: str | None) -> None:
    """After a refusal: note it, then read the match again (the active one, if any)."""
    if error is not None:
        player.errors.append(error[:300])
    status, answer, _ = client.call("GET", f"/quest/battles/{player.view['id']}")
    if status == 200:
        player.view = answer
    else:
        time.sleep(0.5)  # nothing sensible to do but wait a little


# -- measuring --------------------------------------------------------------------------------


@dataclass
class Window:
    concurrency: int
    duration: float
    samples: list[Sample]
    finished: Counter[str]
    cpu_steps: list[int]
    stale: int
    errors: list[str]
    cpu_percent: dict[str, float]

    def of(self, kind: str) -> list[Sample]:
        return [s for s in self.samples if s.kind == kind]

    def rate(self) -> float:
        """Requests of both kinds a second."""
        return len(self.samples) / self.duration


def window_result(w: Window, kind: str = ACTION) -> Result:
    """The window's requests of one kind as a Result (non-2xx; status 0 is a socket error)."""
    mine = w.of(kind)
    ms = [s.seconds * 1000 for s in mine]
    return Result(
        scenario=f"{w.concurrency} thread(s), {kind}",
        requests=len(mine),
        duration_s=round(w.duration, 2),
        rps=round(len(mine) / w.duration, 1),
        p50_ms=round(percentile(ms, 50), 1),
        p99_ms=round(percentile(ms, 99), 1),
        non2xx=sum(1 for s in mine if s.status and not 200 <= s.status < 300),
        socket_errors=sum(1 for s in mine if not s.status),
        cpu_percent=w.cpu_percent,
    )


def measure(
    players: Sequence[PlayerMatch],
    concurrency: int,
    args: argparse.Namespace,
    started: Children,
) -> Window:
    started.check_alive()
    chosen = players[:concurrency]
    marks = [
        (len(p.samples), len(p.finished), len(p.cpu_steps), p.stale, len(p.errors)) for p in chosen
    ]
    stop = threading.Event()
    threads = [
        threading.Thread(target=drive, args=(p, args.gateway_port, stop), daemon=True)
        for p in chosen
    ]
    for thread in threads:
        thread.start()
    time.sleep(args.warmup)
    window = CpuWindow(started.pids())
    me0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    time.sleep(args.duration)
    t1 = time.perf_counter()
    me1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = window.finish()
    stop.set()
    for thread in threads:
        thread.join(timeout=HTTP_TIMEOUT + 5)
    started.check_alive()
    cpu.pop("wrk", None)  # no wrk here: this script drives the load
    own = (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime)
    cpu["bench script"] = round(own / (t1 - t0) * 100, 1)

    samples: list[Sample] = []
    finished: Counter[str] = Counter()
    steps: list[int] = []
    stale = 0
    errors: list[str] = []
    for p, (s0, f0, c0, st0, e0) in zip(chosen, marks, strict=True):
        samples += [s for s in p.samples[s0:] if t0 <= s.started < t1]
        finished += Counter(outcome for at, outcome in p.finished[f0:] if t0 <= at < t1)
        steps += [n for at, n in p.cpu_steps[c0:] if t0 <= at < t1]
        stale += p.stale - st0
        errors += p.errors[e0:]
    return Window(concurrency, t1 - t0, samples, finished, steps, stale, errors, cpu)


def measure_idle(started: Children, args: argparse.Namespace) -> dict[str, float]:
    """The CPU the processes use with no request at all (timers, relays, heartbeats);
    nothing with ``--idle 0``."""
    seconds = min(args.duration, args.idle)
    if not seconds:
        return {}
    print(f"  idle: {seconds}s without requests", flush=True)
    window = CpuWindow(started.pids())
    time.sleep(seconds)
    cpu = window.finish()
    cpu.pop("wrk", None)
    return cpu


# -- checks -----------------------------------------------------------------------------------


def conninfo(settings: Any, service: str) -> str:
    url = settings.database_url_for(service).set(drivername="postgresql")
    return str(url.render_as_string(hide_password=False))


@dataclass
class Checks:
    matches: dict[str, int]  # "status/outcome" -> count
    actions: int
    outbox: int
    outbox_pending: int
    progression: int


def checks(settings: Any) -> Checks:
    import psycopg

    def battle() -> tuple[dict[str, int], int, int, int]:
        with psycopg.connect(conninfo(settings, "battle"), autocommit=True) as conn:
            rows = conn.execute(
                "SELECT status, coalesce(outcome, '-'), count(*) FROM matches GROUP BY 1, 2"
            ).fetchall()
            actions = conn.execute("SELECT count(*) FROM match_actions").fetchone()
            outbox = conn.execute(
                "SELECT count(*), count(*) FILTER (WHERE published_at IS NULL) FROM outbox"
            ).fetchone()
        assert actions is not None and outbox is not None
        by_status = {f"{s}/{o}": int(n) for s, o, n in rows}
        return by_status, int(actions[0]), int(outbox[0]), int(outbox[1])

    def progression() -> int:
        with psycopg.connect(conninfo(settings, "accounts"), autocommit=True) as conn:
            row = conn.execute(
                "SELECT count(*) FROM progression_entries WHERE source_type = 'match'"
            ).fetchone()
        assert row is not None
        return int(row[0])

    deadline = time.monotonic() + SETTLE_TIMEOUT
    while True:
        matches, actions, outbox, pending = battle()
        finished = sum(n for key, n in matches.items() if key.startswith("finished/"))
        entries = progression()
        if (entries >= finished and not pending) or time.monotonic() >= deadline:
            return Checks(matches, actions, outbox, pending, entries)
        time.sleep(0.5)


# -- running ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    windows: list[Window]
    found: Checks
    problems: dict[str, Counter[str]]  # process -> ERROR/WARNING/... lines of its log
    idle: dict[str, float]


def run(args: argparse.Namespace) -> Outcome:
    """Set up, measure the windows, check, stop everything."""
    from rewards import insert_definitions

    base, settings = gateway_stack_env(
        args, database_prefix=DATABASE_PREFIX, rpc_exchange=RPC_EXCHANGE, extra=NO_RATE_LIMITS
    )
    deckyard = deckyard_command()

    windows: list[Window] = []
    with (
        private_vhost(base["AMQP_URI"], args.shared_vhost, VHOST_PREFIX) as amqp_uri,
        fresh_databases(settings, DATABASES, args.keep),
    ):
        base["AMQP_URI"] = amqp_uri
        print(f"  migrating {DATABASE_PREFIX}_{{{','.join(DATABASES)}}}", flush=True)
        migrate(deckyard, DATABASES, args.source, base)
        insert_definitions(settings, args.source)
        print("  30 card definitions in cards' read model", flush=True)
        tokens = dev_tokens(settings, "auth0|bench-battle-", args.players)
        with children("battle") as started:
            logs = start_stack(
                started,
                deckyard,
                SERVICES,
                base,
                args.source,
                one_process=args.processes == 1,
                health_ports=args.health_ports,
                gateway_port=args.gateway_port,
                token=tokens[0],
            )
            t0 = time.monotonic()
            with ThreadPoolExecutor(max_workers=min(8, args.players)) as pool:
                players = list(
                    pool.map(lambda nt: set_up(args.gateway_port, *nt), list(enumerate(tokens)))
                )
            print(
                f"  {len(players)} players with a starter deck and a match "
                f"({time.monotonic() - t0:.1f}s)",
                flush=True,
            )
            idle = measure_idle(started, args)
            for concurrency in args.concurrency:
                print(
                    f"  {concurrency} player thread(s): {args.warmup}s warm-up, "
                    f"{args.duration}s measured",
                    flush=True,
                )
                windows.append(measure(players, concurrency, args, started))
            found = checks(settings)
            problems = {child.name: log_problems(child)[0] for child in logs}
            print("  stopping", flush=True)
    return Outcome(windows, found, problems, idle)


def report(args: argparse.Namespace, outcome: Outcome) -> None:
    windows, found, idle = outcome.windows, outcome.found, outcome.idle
    print()
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs, {args.players} players, "
        f"{args.processes} process(es) for {', '.join(SERVICES)}, warm-up {args.warmup}s, "
        f"{args.duration}s measured per window"
    )
    print(f"code: {args.code}")
    header = (
        "threads", "request", "req/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "non-2xx",
        "requests",
    )  # fmt: skip
    rows = []
    for w in windows:
        for kind in (ACTION, START):
            mine = w.of(kind)
            ms = [s.seconds * 1000 for s in mine]
            rows.append(
                (
                    str(w.concurrency),
                    kind,
                    f"{len(mine) / w.duration:.1f}",
                    f"{percentile(ms, 50):.1f}",
                    f"{percentile(ms, 90):.1f}",
                    f"{percentile(ms, 99):.1f}",
                    f"{max(ms, default=float('nan')):.1f}",
                    str(sum(1 for s in mine if not 200 <= s.status < 300)),
                    str(len(mine)),
                )
            )
    print(markdown(header, rows, align="rlrrrrrrr"))
    for w in windows:
        print(f"{w.concurrency} thread(s): {outcome_note(w)}; other refusals {len(w.errors)}")
        for error in w.errors[:3]:
            print(f"    {error}")
        cpu = cpu_summary(w.cpu_percent, w.rate())
        print(f"  CPU during the window (100% = one core): {cpu}")
    if idle:
        print(
            "idle (no requests, 100% = one core): "
            + ", ".join(f"{name} {value:.0f}%" for name, value in idle.items() if name != "machine")
            + f"; machine {idle.get('machine', 0.0):.0f}% of {(os.cpu_count() or 1) * 100}%"
        )
        for w in windows:
            if w.rate():
                above = ", ".join(
                    f"{name} {(w.cpu_percent[name] - idle.get(name, 0.0)) * 10 / w.rate():.2f}"
                    for name in w.cpu_percent
                    if name not in ("machine", "bench script")
                )
                print(f"{w.concurrency} thread(s), CPU ms per request above idle: {above}")
    print(checks_note(found))
    print(
        "logs: "
        + "; ".join(
            f"{name} " + (", ".join(f"{k} {v}" for k, v in sorted(c.items())) or "clean")
            for name, c in outcome.problems.items()
        )
    )


def outcome_note(w: Window) -> str:
    """Matches finished in the window, CPU replies per player action, stale versions."""
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(w.finished.items()))
    steps = sum(w.cpu_steps) / len(w.cpu_steps) if w.cpu_steps else float("nan")
    return (
        f"{w.finished.total()} matches finished"
        + (f" ({outcomes})" if outcomes else "")
        + f"; {steps:.2f} CPU actions per player action; stale {w.stale}"
    )


def checks_note(found: Checks) -> str:
    finished = sum(n for k, n in found.matches.items() if k.startswith("finished/"))
    return (
        "battle database: "
        + ", ".join(f"{k} {v}" for k, v in sorted(found.matches.items()))
        + f"; logged actions {found.actions}; outbox rows {found.outbox} (not yet published "
        f"{found.outbox_pending}); accounts: match progression entries {found.progression} "
        f"for {finished} finished matches"
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=8, help="players, each with a match")
    parser.add_argument(
        "--concurrency",
        type=int,
        action="append",
        help="player threads in a window (repeatable; default: 1, then --players)",
    )
    parser.add_argument("--duration", type=int, default=20, help="measured seconds per window")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured seconds first")
    parser.add_argument(
        "--idle",
        type=int,
        default=IDLE_SECONDS,
        help="seconds without requests first, for the processes' own CPU (0: none)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        choices=(1, 4),
        default=4,
        help="one process per service (default) or the four in one",
    )
    parser.add_argument(
        "--base-port", type=int, default=19400, help="gateway port; health ports +80, +81, +82"
    )
    add_stack_options(parser)
    args = parser.parse_args(argv)
    if not (1 <= args.players <= 500):
        parser.error("--players must be in 1..500")
    args.concurrency = args.concurrency or sorted({1, args.players})
    if any(not (1 <= c <= args.players) for c in args.concurrency):
        parser.error("each --concurrency must be in 1..--players")
    if not (0 < args.duration <= 300 and 0 <= args.warmup <= 60 and 0 <= args.idle <= 300):
        parser.error("--duration must be in 1..300, --warmup in 0..60 and --idle in 0..300")
    resolve_source_option(parser, args)
    args.gateway_port = args.base_port
    # accounts, cards, battle (in one process too: consecutive ports from the first)
    args.health_ports = [args.base_port + 80 + i for i in range(3)]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    return script_main(parse_args, lambda args: report(args, run(args)), argv)


if __name__ == "__main__":
    sys.exit(main())
