"""Quest answer submissions through the gateway, under concurrent load.

    python bench/answers.py [--players 200] [--duration 15] [--connections 32]

Starts challenge, accounts and the gateway (``deckyard run --service challenge
--service accounts --service gateway``, ``DEV_AUTH=1``; ``--processes 3``
runs one process per service instead), after ``deckyard migrate`` of fresh
``deckyard_bench2_answers_*`` databases. Inserts one published event with
``--questions`` multiple-choice questions straight into the challenge read
model (as the consumers write it), mints one development token per player,
and has each player start its attempt through the gateway (POST with a fresh
location claim at the event's centre). Then wrk (``bench/answers.lua``, 32
connections) PUTs answers: it cycles through (token, attempt, index, option)
tuples, so the first pass over a tuple records a new answer (the fifth one
completes the attempt and writes ``AttemptCompleted`` to the outbox) and every
later pass repeats an accepted answer (idempotent, 200). The tuples come in
blocks of ``BLOCK`` players (a block's first questions, then its second ones,
...), so completions come block after block rather than all at the end of the
pass, and one attempt's answers are never in flight together. The warm-up uses
its own players, so every measured new answer is new.

Scenarios, one after the other on the same services:

``answers``
    the players' 5 x N tuples from the start: new answers, then repeats once
    every tuple is answered (enough ``--players`` keep it to new answers only:
    ``bench/run.py`` sizes them so). How many were new is read back from the
    database.
``repeats``
    the tuples the ``answers`` window got answered, again: repeats only.

Questions have difficulty 3, so an attempt lasts 150 s; the script checks that
the measured runs end before the first deadline (fewer ``--players`` or a
shorter ``--duration`` otherwise).

Prints req/s, p50, p99, non-2xx (4xx/5xx) and the CPU of each process during
each measured window (as ``bench/run.py`` does). Judges nothing.

Isolation: a RabbitMQ virtual host of its own (``rabbitmqctl add_vhost``,
deleted at the end), as the test suite does: nameko names every service's
RPC queue ``rpc-<service>`` whatever the RPC exchange, so on a shared vhost
this benchmark's services and another run's would consume each other's
requests. Databases ``deckyard_bench2_answers_*`` (dropped at the end unless
``--keep``), ports ``--base-port`` (gateway) and +80.. (health), 127.0.0.1.
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    # Tokens, the read model and the settings come from the project's code.
    harness.reexec_in_venv()

import argparse
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from harness import (
    BENCH,
    HOST,
    BenchError,
    Children,
    CpuWindow,
    Result,
    add_stack_options,
    bench_values,
    children,
    deckyard_command,
    dev_tokens,
    fresh_databases,
    gateway_stack_env,
    migrate,
    parse_report,
    private_vhost,
    resolve_source_option,
    run_wrk,
    script_main,
    start_stack,
    table,
    wrk_command,
)

from deckyard.api_client import ApiClient

UNLIMITED = {
    "RATE_LIMIT_PLAYER_PER_MINUTE": "1e9",
    "RATE_LIMIT_PLAYER_BURST": "1000000000",
    "RATE_LIMIT_ADDRESS_PER_MINUTE": "1e9",
    "RATE_LIMIT_ADDRESS_BURST": "1000000000",
}
DATABASE_PREFIX = "deckyard_bench2_answers"
RPC_EXCHANGE = "deckyard-bench2-rpc"
VHOST_PREFIX = "deckyard-bench2"
ANSWERS_LUA = BENCH / "answers.lua"
CENTRE = (51.5080, -0.1281)  # Trafalgar Square
RADIUS_M = 100
DIFFICULTY = 3  # average above 2.5: 150 s per attempt, the longest the rulebook gives
SERVICES = ("challenge", "accounts", "gateway")
DATABASES = ("challenge", "accounts")
BLOCK = 100  # players whose answers are interleaved (see write_tuples)
HTTP_TIMEOUT = 15.0
SETUP_TIMEOUT = 120.0  # seconds to start every attempt
DEADLINE_SLACK = 10.0  # seconds the measured runs must end before the first deadline
IN_FLIGHT_SETTLE = 1.0  # seconds for the answers in flight when wrk stops to commit


@dataclass
class PlayerAttempt:
    token: str
    attempt_id: str
    choices: list[tuple[int, str]]  # (index, option id) for each question
    deadline: datetime


# -- HTTP -------------------------------------------------------------------------------


def http(
    method: str, port: int, path: str, token: str, body: dict[str, Any] | None = None
) -> tuple[int, Any]:
    """One request on a connection of its own (the API client the e2e tests use)."""
    client = ApiClient(f"http://{HOST}:{port}", timeout=HTTP_TIMEOUT)
    try:
        answer = client.call(method, path, token, body)
    finally:
        client.close()
    return answer.status, answer.body


# -- setting up -----------------------------------------------------------------------------


def publish_event(settings: Any, questions: int) -> uuid.UUID:
    """One open event with ``questions`` multiple-choice questions, in the read model."""
    from services.challenge.orm import plumbing
    from services.challenge.repository import SqlPublishedContent
    from shared.db import Database, make_engine

    now = datetime.now(UTC)
    engine = make_engine(settings.database_url_for("challenge"))
    try:
        db = Database(engine, plumbing, lambda: now)
        ids = []
        with db.transaction() as tx:
            content = SqlPublishedContent(tx.session)
            for n in range(questions):
                qid = uuid.uuid4()
                body = {
                    "prompt": f"Bench question {n}?",
                    "difficulty": DIFFICULTY,
                    "explanation": "Because.",
                    "choices": [
                        {"text": "right", "correct": True},
                        {"text": "wrong a"},
                        {"text": "wrong b"},
                        {"text": "wrong c"},
                    ],
                }
                content.add(
                    "question",
                    {
                        "id": qid,
                        "kind": "question",
                        "body": body,
                        "version": 1,
                        "published_at": now,
                    },
                )
                ids.append(str(qid))
            challenge_id, event_id = uuid.uuid4(), uuid.uuid4()
            content.add(
                "challenge",
                {
                    "id": challenge_id,
                    "title": "Bench",
                    "question_ids": ids,
                    "version": 1,
                    "published_at": now,
                },
            )
            point = _point_function()
            content.add(
                "event",
                {
                    "id": event_id,
                    "name": "Bench square",
                    "description": "",
                    "radius_m": RADIUS_M,
                    "geog": point(*CENTRE),
                    "starts_at": now - timedelta(hours=1),
                    "ends_at": now + timedelta(days=1),
                    "challenge_id": challenge_id,
                    "reward_definition_id": uuid.uuid4(),
                    "version": 1,
                    "published_at": now,
                },
            )
    finally:
        engine.dispose()
    return event_id


def _point_function() -> Any:
    """The point constructor the challenge store itself uses (wherever it lives)."""
    from services.challenge import attempt_store

    return vars(attempt_store)["point"]


def start_attempts(
    port: int, event_id: uuid.UUID, tokens: Sequence[str], workers: int
) -> list[PlayerAttempt]:
    def start(token: str) -> PlayerAttempt:
        deadline = time.monotonic() + SETUP_TIMEOUT
        while True:
            location = {
                "lat": CENTRE[0],
                "lon": CENTRE[1],
                "accuracyM": 10.0,
                "acquiredAt": datetime.now(UTC).isoformat(),
            }
            status, body = http(
                "POST", port, f"/quest/events/{event_id}/attempt", token, {"location": location}
            )
            if status == 201:
                break
            if status == 503 and time.monotonic() < deadline:  # a service still starting
                time.sleep(0.5)
                continue
            raise BenchError(f"starting an attempt answered {status}: {body!r}")
        choices = [(q["index"], q["options"][0]["id"]) for q in body["questions"]]
        return PlayerAttempt(token, body["id"], choices, datetime.fromisoformat(body["deadline"]))

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(start, tokens))


def write_tuples(path: Path, attempts: Sequence[PlayerAttempt]) -> int:
    """One line a (player, question), in blocks of BLOCK players: every player's first
    question in the block, then every second one, ..., then the next block."""
    lines = []
    for start in range(0, len(attempts), BLOCK):
        block = attempts[start : start + BLOCK]
        for position in range(max(len(a.choices) for a in block)):
            for a in block:
                if position < len(a.choices):
                    index, option = a.choices[position]
                    lines.append(f"{a.token} {a.attempt_id} {index} {option}\n")
    path.write_text("".join(lines))
    return len(lines)


# -- measuring ------------------------------------------------------------------------------


def wrk_argv(args: argparse.Namespace, duration: int, data: Path) -> list[str]:
    return wrk_command(
        f"http://{HOST}:{args.gateway_port}",
        duration,
        args.connections,
        args.threads,
        script=ANSWERS_LUA,
        script_args=[str(data), str(args.threads)],
    )


@dataclass
class DbCounts:
    answers: int
    completed: int
    outbox_pending: int
    outbox_attempts: int  # the relay's publish tries, summed over the outbox rows


def db_counts(settings: Any, attempt_ids: Sequence[str]) -> DbCounts:
    import psycopg

    url = settings.database_url_for("challenge").set(drivername="postgresql")
    with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as conn:
        ids = [uuid.UUID(i) for i in attempt_ids]
        answers = conn.execute(
            "SELECT count(*) FROM attempt_answers WHERE attempt_id = ANY(%s)", (ids,)
        ).fetchone()
        completed = conn.execute(
            "SELECT count(*) FROM attempts WHERE id = ANY(%s) AND status = 'completed'", (ids,)
        ).fetchone()
        outbox = conn.execute(
            "SELECT count(*) FILTER (WHERE published_at IS NULL), coalesce(sum(attempts), 0) "
            "FROM outbox"
        ).fetchone()
    assert answers and completed and outbox
    return DbCounts(answers[0], completed[0], outbox[0], int(outbox[1]))


def answered(settings: Any, attempts: Sequence[PlayerAttempt]) -> list[PlayerAttempt]:
    """The attempts with only the questions that have an answer, those without one left out."""
    import psycopg

    url = settings.database_url_for("challenge").set(drivername="postgresql")
    with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT attempt_id, position FROM attempt_answers WHERE attempt_id = ANY(%s)",
            ([uuid.UUID(a.attempt_id) for a in attempts],),
        ).fetchall()
    done = {(str(attempt_id), position) for attempt_id, position in rows}
    kept = [
        replace(a, choices=[c for c in a.choices if (a.attempt_id, c[0]) in done]) for a in attempts
    ]
    return [a for a in kept if a.choices]


@dataclass
class Measured:
    """One wrk window and the challenge database's counts before and after it."""

    result: Result
    before: DbCounts
    after: DbCounts

    @property
    def new_answers(self) -> int:
        return self.after.answers - self.before.answers

    def note(self) -> str:
        r = self.result
        return (
            f"new answers recorded {self.new_answers} "
            f"({self.new_answers / max(1, r.requests) * 100:.0f}% of requests), attempts "
            f"completed {self.after.completed - self.before.completed}; outbox pending "
            f"{self.after.outbox_pending}, relay publish tries in the window "
            f"{self.after.outbox_attempts - self.before.outbox_attempts}"
        )


def measure(
    name: str,
    args: argparse.Namespace,
    started: Children,
    data: Path,
    settings: Any,
    attempt_ids: Sequence[str],
) -> Measured:
    started.check_alive()
    before = db_counts(settings, attempt_ids)
    argv = wrk_argv(args, args.duration, data)
    print(f"  {name}: {' '.join(argv[:9])} ...", flush=True)
    window = CpuWindow(started.pids())
    output = run_wrk(argv, args.duration)
    cpu = window.finish()
    started.check_alive()
    time.sleep(IN_FLIGHT_SETTLE)
    after = db_counts(settings, attempt_ids)
    if args.verbose:
        print(output)
    result = parse_report(name, output)
    result.cpu_percent = cpu
    result.topology = f"{args.processes} process(es)"
    values = bench_values(output)
    measured = Measured(result, before, after)
    result.notes = [f"4xx {values['s4xx']}, 5xx {values['s5xx']}", measured.note()]
    return measured


# -- running ----------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> list[Measured]:
    """Set up, measure the windows, stop everything; the measured windows."""
    base, settings = gateway_stack_env(
        args,
        database_prefix=DATABASE_PREFIX,
        rpc_exchange=RPC_EXCHANGE,
        # A load from one address and a few players: lift the gateway's rate limits,
        # or this would measure 429s.
        extra=UNLIMITED,
    )
    deckyard = deckyard_command()

    measured: list[Measured] = []
    with (
        tempfile.TemporaryDirectory(prefix="bench2-answers-") as workdir,
        private_vhost(base["AMQP_URI"], args.shared_vhost, VHOST_PREFIX) as amqp_uri,
        fresh_databases(settings, DATABASES, args.keep),
    ):
        base["AMQP_URI"] = amqp_uri
        print(f"  migrating {DATABASE_PREFIX}_challenge and _accounts", flush=True)
        migrate(deckyard, DATABASES, args.source, base)
        event_id = publish_event(settings, args.questions)
        tokens = dev_tokens(settings, "auth0|bench2-answers-", args.players + args.warmup_players)
        with children("answers") as started:
            start_stack(
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
            attempts = start_attempts(args.gateway_port, event_id, tokens, workers=8)
            first_deadline = min(a.deadline for a in attempts)
            print(
                f"  {len(attempts)} attempts started in {time.monotonic() - t0:.1f}s "
                f"({args.warmup_players} for the warm-up); first deadline in "
                f"{(first_deadline - datetime.now(UTC)).total_seconds():.0f}s",
                flush=True,
            )
            warm, main = attempts[: args.warmup_players], attempts[args.warmup_players :]
            warm_data = Path(workdir, "warmup.txt")
            main_data = Path(workdir, "answers.txt")
            if warm:
                write_tuples(warm_data, warm)
            tuples = write_tuples(main_data, main)
            ids = [a.attempt_id for a in main]
            needed = (args.warmup if warm else 0) + args.duration * (2 if args.repeats else 1)
            left = (first_deadline - datetime.now(UTC)).total_seconds()
            if needed + DEADLINE_SLACK > left:
                raise BenchError(
                    f"the runs need {needed}s but the first deadline is in {left:.0f}s: "
                    "use fewer --players or a shorter --duration"
                )
            if warm and args.warmup > 0:
                print(f"  warming up {args.warmup}s ({len(warm)} other players)", flush=True)
                run_wrk(wrk_argv(args, args.warmup, warm_data), args.warmup)
            print(f"  {tuples} (player, question) tuples", flush=True)
            measured.append(measure("answers", args, started, main_data, settings, ids))
            if args.repeats:
                accepted = answered(settings, main)
                if accepted:
                    repeats_data = Path(workdir, "repeats.txt")
                    count = write_tuples(repeats_data, accepted)
                    print(f"  {count} answered tuples to repeat", flush=True)
                    measured.append(measure("repeats", args, started, repeats_data, settings, ids))
                else:
                    print("  repeats skipped: nothing was answered", flush=True)
            print("  stopping", flush=True)
    return measured


def report(args: argparse.Namespace, measured: Sequence[Measured]) -> None:
    print()
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs, wrk -t{args.threads} "
        f"-c{args.connections} -d{args.duration}s, {args.players} players x 5 questions, "
        f"{args.processes} process(es)"
    )
    print(f"code: {args.code}")
    print(table([m.result for m in measured]))
    for m in measured:
        print(f"{m.result.scenario}: {'; '.join(m.result.notes)}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200, help="measured players (5 answers)")
    parser.add_argument("--warmup-players", type=int, default=40, help="players for the warm-up")
    parser.add_argument("--questions", type=int, default=20, help="questions of the challenge")
    parser.add_argument("--duration", type=int, default=15, help="measured seconds per scenario")
    parser.add_argument("--warmup", type=int, default=3, help="seconds of unmeasured load first")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--no-repeats",
        dest="repeats",
        action="store_false",
        help="skip the repeats-only scenario",
    )
    parser.add_argument(
        "--processes",
        type=int,
        choices=(1, 3),
        default=1,
        help="the three services in one process (default) or one process each",
    )
    parser.add_argument(
        "--base-port", type=int, default=19000, help="gateway port; health ports +80, +81"
    )
    add_stack_options(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="print wrk's output")
    args = parser.parse_args(argv)
    if not (5 <= args.players <= 5000 and 0 <= args.warmup_players <= 1000):
        parser.error("--players must be in 5..5000 and --warmup-players in 0..1000")
    if not (5 <= args.questions <= 500):
        parser.error("--questions must be in 5..500")
    if not (0 < args.duration <= 120 and 0 <= args.warmup <= 30):
        parser.error("--duration must be in 1..120 and --warmup in 0..30")
    if args.connections <= 0 or not (0 < args.threads <= args.connections):
        parser.error("--connections and --threads must be positive, threads <= connections")
    resolve_source_option(parser, args)
    args.gateway_port = args.base_port
    args.health_ports = [args.base_port + 80, args.base_port + 81]  # challenge, accounts
    return args


def main(argv: Sequence[str] | None = None) -> int:
    return script_main(parse_args, lambda args: report(args, run(args)), argv)


if __name__ == "__main__":
    sys.exit(main())
