"""Every benchmark in one go, against the stock nameko baseline, on this machine's loopback.

    python bench/run.py [--duration 25] [--connections 32] [--scenario S ...]

The scenarios run one after the other, each on databases and a RabbitMQ virtual
host of its own, its services stopped before the next one starts (they measure
CPU-bound throughput on a small machine: two at once would falsify both). At
the end it prints one table, a row a scenario: what the rate counts, the rate,
p50 and p99 in ms, errors, and the rate over the baseline's req/s measured in
the same run.

``baseline /ping`` (``--scenario baseline``)
    stock nameko (``bench/baseline_service.py``, default config): an ``@http``
    service that makes one RPC to a trivial ``@rpc`` service; wrk.
``rpc floor /ping`` (``floor``)
    ``bench/rpc_floor.py`` beside the baseline's pong service: the gateway's server
    (uvicorn, uvloop, httptools) and RPC client (``gateway.rpc``) making the same one
    RPC to the same stock no-op, nothing else: the least any write through the
    platform costs; wrk.
``gateway /me`` (``me``; ``gateway`` is the old name)
    the project's accounts service and gateway (``deckyard run``), with a
    development token: the gateway verifies the RS256 token and answers JSON
    from ``accounts.me`` over RPC (one SELECT on the players table), which it
    leases for a second (``gateway/players.py``); wrk.
``answers``, ``answers repeats`` (``answers``, ``repeats``)
    ``bench/answers.py``: Quest answer submissions through the gateway under
    wrk, new answers only (enough players for that), then the accepted answers
    again (idempotent repeats).
``battle action`` (``battle``)
    ``bench/battle_actions.py``: one ``--connections`` player threads, each on
    its own keep-alive connection, sending legal battle actions.
``reward pipeline`` (``rewards``)
    ``bench/rewards.py``: ``AttemptCompleted`` -> cards -> ``RewardGranted``
    through RabbitMQ: grants/s of a burst, p50/p99 of events one at a time.
``engine`` (``engine``)
    ``bench/engine.py``: whole CPU-vs-CPU matches a second on the pure engine,
    in this process, and one match's wall time.
``chronovore``, ``terrakard`` (``chronovore``, ``terrakard``)
    ``bench/chronovore_engine.py``, ``bench/terrakard_engine.py``: whole
    Chronovore CPU-vs-CPU matches, whole TerraKard attacks (a random attacker)
    a second on their pure engines, in this process, against their goals
    (2,000 and 20,000 a second on one core); a few seconds each.
``terrakard round``, ``terrakard targets`` (``tkround``, ``tktargets``)
    ``bench/terrakard_arena.py``: TerraKard attack rounds through the gateway (24
    players spending their 5 tickets, 8 threads), p50/p99 of a round's round trip;
    then the arena's target query over 100,000 arena rows seeded in battle's
    database, p50/p99 (goal p99 <= 10 ms) and PostgreSQL's own share.
``chronovore packs``, ``chronovore round`` (``cvpacks``, ``cvround``)
    ``bench/chronovore_service.py``: Chronovore Core Set packs opened through the
    cards service (``open_pack`` over RabbitMQ, 8 concurrent callers, each open a
    roll persisted before the answer), opens/s and p50/p99; then lock-in rounds
    against the CPU through the gateway (8 player threads placing up to four cards
    and locking), rounds/s and the lock's p50/p99.
``push latency``, ``idle connections`` (``push``, ``idle``)
    ``bench/push.py``: 1,000 players on WebSocket (``bench/push_client.py``, a
    process of its own), ``MatchUpdated`` published as the battle relay does ->
    the message read off a socket, p50/p99; then 10,000 idle sockets on one
    gateway: how many held, the gateway's memory per connection.

The other scripts run in this process (their ``run`` functions), sized from
``--duration`` so the whole run takes 4-6 minutes on a 2-core machine. With
``--processes 2`` (the default) every service runs in a process of its own, as
deployed; ``--processes 1`` puts a scenario's services in one process. The
script prints figures and never judges them.

Everything listens on 127.0.0.1 only (ports from ``--base-port``) and is bounded
in time; services are stopped, databases dropped and vhosts deleted on
success, on failure and on Ctrl-C (SIGTERM, then SIGKILL after a grace
period). ``--shared-vhost`` opts out of the private vhosts (nameko names every
RPC queue ``rpc-<service>`` whatever the exchange, so on a shared vhost another
stack would take this run's calls). Service logs go to ``bench/results/logs/``
(git-ignored). Needs: wrk, PostgreSQL and RabbitMQ (DATABASE_URL / AMQP_URI,
development defaults), and the project's virtualenv (``.venv``).
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    # The other benchmarks run in this process, on the project's code.
    harness.reexec_in_venv()

import argparse
import importlib
import json
import math
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from harness import (
    BENCH,
    DEV_AMQP_URI,
    HOST,
    ROOT,
    BenchError,
    Children,
    CpuWindow,
    Result,
    add_source_option,
    baseline_rps,
    children,
    cpu_summary,
    http_get,
    migrate,
    parse_report,
    private_vhost,
    refuse_busy_ports,
    resolve_source_option,
    run_wrk,
    script_main,
    service_env,
    start_stack,
    summary_table,
    times_baseline,
    wait_until,
    wrk_command,
)

DATABASE_PREFIX = "deckyard_bench"
RPC_EXCHANGE = "deckyard-bench-rpc"
BASELINE_RPC_EXCHANGE = "deckyard-bench-baseline-rpc"
VHOST_PREFIX = "deckyard-bench"
SUBJECT = "auth0|bench"
TOKEN_TIMEOUT = 30.0
SCENARIOS = (
    "baseline", "floor", "me", "answers", "repeats", "battle", "rewards", "engine", "chronovore",
    "terrakard", "tkround", "tktargets", "cvpacks", "cvround", "push", "idle",
)  # fmt: skip
ALIASES = {"gateway": "me"}
# How the other scripts are sized from --duration (seconds measured per scenario):
ANSWER_PLAYERS_PER_SECOND = 80  # 5 answers each: new answers only up to 400/s
REWARD_EVENTS_PER_SECOND = 150  # the burst: about as many as the pipeline grants here
REWARD_LATENCY_EVENTS = 200  # one at a time, ~10 ms each
REWARD_WARMUP_EVENTS = 30
ENGINE_MATCHES_PER_SECOND = 50  # per affinity, three affinities: ~150 matches/s here
# A tenth of --duration each (their goals are far above what they do here yet):
CHRONOVORE_MATCHES_PER_SECOND = 20  # ~140 matches/s here: ~4 s at --duration 25
TERRAKARD_ATTACKS_PER_SECOND = 150  # ~1,600 attacks/s here: ~2.5 s
TK_PLAYERS = 24  # TerraKard players through the gateway, 5 attacks each: 600 rounds
TK_ARENA_PLAYERS = 100_000  # arena rows for the target query (issue 17)
TK_QUERIES = 2000
# Chronovore through the services (a few seconds of packs, half --duration of rounds):
CV_PACKS_PER_SECOND = 12  # ~55 opens/s here: 300 packs, ~6 s at --duration 25
CV_PACKS_PER_PLAYER = 10
CV_CALLERS = 8  # concurrent open_pack callers
CV_PLAYERS = 8  # player threads in lock-in rounds
PUSH_PLAYERS = 1000  # connected players while events are timed (issue 15)
PUSH_EVENTS_PER_SECOND = 100  # MatchUpdated published, each to one of them
IDLE_SOCKETS = 10_000  # idle WebSocket connections held on one gateway (issue 15)
IDLE_HOLD_SECONDS = 30  # beyond the gateway's 20 s WebSocket ping interval
PER_UNIT = {
    "req/s": "req",
    "events/s": "event",
    "matches/s": "match",
    "attacks/s": "attack",
    "queries/s": "query",
    "opens/s": "open",
    "rounds/s": "round",
    "sockets": "socket",
}  # CPU ms per ...


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


# -- the HTTP scenarios --------------------------------------------------------------------


def base_env(args: argparse.Namespace, amqp_uri: str) -> dict[str, str]:
    return service_env(
        database_prefix=DATABASE_PREFIX,
        rpc_exchange=RPC_EXCHANGE,
        gateway_port=args.gateway_port,
        health_port=args.health_port,
        extra={
            "AMQP_URI": amqp_uri,  # the scenario's private vhost
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


def run_baseline(args: argparse.Namespace) -> list[Result]:
    """The stock baseline (``baseline``) and, beside its pong service, the floor of our
    edge (``floor``: ``bench/rpc_floor.py``, the gateway's server and RPC client in front
    of the same stock no-op)."""
    print(f"baseline: stock nameko, {args.processes} process(es)", flush=True)
    floor_port = args.baseline_port + 1
    refuse_busy_ports([args.baseline_port, floor_port])
    nameko = tool(args, "nameko")
    run = [nameko, "run", "--config", "baseline.yaml"]
    results = []
    with (
        private_vhost(args.amqp_uri, args.shared_vhost, VHOST_PREFIX) as amqp_uri,
        children("baseline") as started,
    ):
        env = base_env(args, amqp_uri)
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
        if "baseline" in args.scenarios:
            url = f"http://{HOST}:{args.baseline_port}/ping"
            results.append(measure("baseline /ping", url, args, started))
        if "floor" in args.scenarios:
            floor_env = {
                **env,
                "PYTHONPATH": str(args.source),
                "FLOOR_ADDRESS": f"{HOST}:{floor_port}",
            }
            started.start("floor", [tool(args, "python"), "rpc_floor.py"], floor_env, BENCH)
            wait_until(
                "floor GET /ping",
                lambda: http_get(floor_port, "/ping") == (200, b"pong"),
                started,
            )
            url = f"http://{HOST}:{floor_port}/ping"
            results.append(measure("rpc floor /ping", url, args, started))
        print("  stopping", flush=True)
    for result in results:
        result.topology = f"{args.processes} process(es)"
    return results


def run_gateway(args: argparse.Namespace) -> list[Result]:
    print(f"gateway: deckyard accounts + gateway, {args.processes} process(es)", flush=True)
    refuse_busy_ports([args.gateway_port, args.health_port])
    # As a module of the virtualenv's Python, so that --source DIR (another copy
    # of the code: an experiment, a branch) is what runs.
    deckyard_argv = [tool(args, "python"), "-m", "deckyard.cli"]
    print(f"  code from {args.source}", flush=True)
    with private_vhost(args.amqp_uri, args.shared_vhost, VHOST_PREFIX) as amqp_uri:
        env = {**base_env(args, amqp_uri), "PYTHONPATH": str(args.source)}
        print(f"  migrating {DATABASE_PREFIX}_accounts", flush=True)
        migrate(deckyard_argv, ["accounts"], args.source, env)
        token = subprocess.run(
            [*deckyard_argv, "token", "--sub", args.sub, "--ttl", "3600"],
            cwd=args.source,
            env=env,
            check=True,
            timeout=TOKEN_TIMEOUT,
            capture_output=True,
            text=True,
        ).stdout.strip()
        with children("gateway") as started:
            start_stack(
                started,
                deckyard_argv,
                ("accounts", "gateway"),
                env,
                args.source,
                one_process=args.processes == 1,
                health_ports=[args.health_port],
                gateway_port=args.gateway_port,
                token=token,  # its first /me registers the player
            )
            url = f"http://{HOST}:{args.gateway_port}/me"
            auth = {"Authorization": f"Bearer {token}"}
            result = measure("gateway /me", url, args, started, auth)
            print("  stopping", flush=True)
    result.topology = f"{args.processes} process(es)"
    return [result]


# -- the other scripts, in this process ----------------------------------------------------
#
# Each gets the options of its own command line, built from this run's (and checked
# by its parse_args before anything runs), sized from --duration.


def stack_flags(args: argparse.Namespace) -> list[str]:
    """The options every script with services takes from this run."""
    return ["--source", str(args.source), *(["--shared-vhost"] if args.shared_vhost else [])]


def answers_argv(args: argparse.Namespace) -> list[str]:
    players = min(5000, max(200, ANSWER_PLAYERS_PER_SECOND * args.duration))
    return [
        *("--duration", str(args.duration), "--warmup", str(args.warmup)),
        *("--connections", str(args.connections), "--threads", str(args.threads)),
        *("--players", str(players)),
        *("--processes", "3" if args.processes == 2 else "1"),
        *("--base-port", str(args.base_port + 200)),
        *([] if "repeats" in args.scenarios else ["--no-repeats"]),
        *(["-v"] if args.verbose else []),
        *stack_flags(args),
    ]


def battle_argv(args: argparse.Namespace) -> list[str]:
    return [
        *("--players", str(args.connections), "--concurrency", str(args.connections)),
        *("--duration", str(args.duration), "--warmup", str(args.warmup), "--idle", "0"),
        *("--processes", "4" if args.processes == 2 else "1"),
        *("--base-port", str(args.base_port + 400)),
        *stack_flags(args),
    ]


def rewards_argv(args: argparse.Namespace) -> list[str]:
    return [
        *("--events", str(REWARD_EVENTS_PER_SECOND * args.duration)),
        *("--latency-events", str(REWARD_LATENCY_EVENTS)),
        *("--warmup", str(REWARD_WARMUP_EVENTS if args.warmup else 0)),
        *("--health-port", str(args.base_port + 600)),
        *stack_flags(args),
    ]


def engine_argv(args: argparse.Namespace) -> list[str]:
    return [
        *("--matches", str(ENGINE_MATCHES_PER_SECOND * args.duration)),
        *("--progress", "0", "--source", str(args.source)),
    ]


def chronovore_argv(args: argparse.Namespace) -> list[str]:
    matches = CHRONOVORE_MATCHES_PER_SECOND * args.duration
    return ["--matches", str(matches), "--source", str(args.source)]


def terrakard_argv(args: argparse.Namespace) -> list[str]:
    attacks = TERRAKARD_ATTACKS_PER_SECOND * args.duration
    return ["--attacks", str(attacks), "--source", str(args.source)]


def tk_arena_argv(args: argparse.Namespace) -> list[str]:
    return [
        *("--players", str(TK_PLAYERS), "--concurrency", "8"),
        *("--arena-players", str(TK_ARENA_PLAYERS), "--queries", str(TK_QUERIES)),
        *([] if "tkround" in args.scenarios else ["--no-rounds"]),
        *([] if "tktargets" in args.scenarios else ["--no-targets"]),
        *("--processes", "5" if args.processes == 2 else "1"),
        *("--base-port", str(args.base_port + 900)),
        *stack_flags(args),
    ]


def cv_service_argv(args: argparse.Namespace) -> list[str]:
    packs = CV_PACKS_PER_SECOND * args.duration
    return [
        *("--packs", str(packs), "--pack-players", str(math.ceil(packs / CV_PACKS_PER_PLAYER))),
        *("--callers", str(CV_CALLERS), "--players", str(CV_PLAYERS)),
        *("--duration", str(max(5, args.duration // 2)), "--warmup", str(args.warmup)),
        *([] if "cvpacks" in args.scenarios else ["--no-packs"]),
        *([] if "cvround" in args.scenarios else ["--no-rounds"]),
        *("--processes", "5" if args.processes == 2 else "1"),
        *("--base-port", str(args.base_port + 1000)),
        *stack_flags(args),
    ]


def push_argv(args: argparse.Namespace) -> list[str]:
    return [
        *("--connections", str(PUSH_PLAYERS), "--rate", str(PUSH_EVENTS_PER_SECOND)),
        *("--duration", str(args.duration), "--warmup", str(args.warmup)),
        *("--idle-connections", str(IDLE_SOCKETS), "--hold", str(IDLE_HOLD_SECONDS)),
        *([] if "push" in args.scenarios else ["--no-latency"]),
        *([] if "idle" in args.scenarios else ["--no-idle"]),
        *("--base-port", str(args.base_port + 700)),
        *stack_flags(args),
    ]


def run_script(args: argparse.Namespace, name: str) -> Any:
    """``bench/<name>.py``'s ``run`` with the options made for it; its own report too with -v."""
    module = importlib.import_module(name)
    options = args.script_options[name]
    print(f"{name}: bench/{name}.py", flush=True)
    outcome = module.run(options)
    if args.verbose:
        module.report(options, outcome)
    return outcome


def run_answers(args: argparse.Namespace) -> list[Result]:
    names = {"answers": "answers", "repeats": "answers repeats"}
    players = args.script_options["answers"].players
    results = []
    for m in run_script(args, "answers"):
        if m.result.scenario in args.scenarios:  # "repeats" alone still needs "answers"
            m.result.scenario = names[m.result.scenario]
            m.result.notes.insert(0, f"{players} players x 5 questions")
            results.append(m.result)
    return results


def run_battle(args: argparse.Namespace) -> list[Result]:
    import battle_actions

    (window,) = run_script(args, "battle_actions").windows
    result = battle_actions.window_result(window)
    result.scenario = "battle action"
    processes = args.script_options["battle_actions"].processes
    result.topology = f"{processes} process(es) for {', '.join(battle_actions.SERVICES)}"
    starts = window.of(battle_actions.START)
    result.notes = [
        f"{window.concurrency} player threads, keep-alive connections; also "
        f"{len(starts) / window.duration:.1f} new matches/s "
        f"({sum(1 for s in starts if s.status != 201)} not 201)",
        battle_actions.outcome_note(window),
        f"other refusals {len(window.errors)}",
    ]
    return [result]


def run_rewards(args: argparse.Namespace) -> list[Result]:
    import rewards

    return [rewards.pipeline_result(run_script(args, "rewards"))]


def run_engine(args: argparse.Namespace) -> list[Result]:
    import engine

    return [engine.engine_result(run_script(args, "engine"))]


def run_chronovore(args: argparse.Namespace) -> list[Result]:
    import chronovore_engine

    return [chronovore_engine.chronovore_result(run_script(args, "chronovore_engine"))]


def run_terrakard(args: argparse.Namespace) -> list[Result]:
    import terrakard_engine

    return [terrakard_engine.terrakard_result(run_script(args, "terrakard_engine"))]


def run_tk_arena(args: argparse.Namespace) -> list[Result]:
    options = args.script_options["terrakard_arena"]
    found: list[Result] = run_script(args, "terrakard_arena").results(options)
    return found


def run_cv_service(args: argparse.Namespace) -> list[Result]:
    options = args.script_options["chronovore_service"]
    found: list[Result] = run_script(args, "chronovore_service").results(options)
    return found


def run_push(args: argparse.Namespace) -> list[Result]:
    import push

    return push.results(run_script(args, "push"))


@dataclass(frozen=True)
class Step:
    scenarios: frozenset[str]  # the --scenario names it measures
    run: Callable[[argparse.Namespace], list[Result]]
    script: str = ""  # the bench script it runs in this process, if any
    argv: Callable[[argparse.Namespace], list[str]] | None = None  # that script's options


STEPS = (
    Step(frozenset({"baseline", "floor"}), run_baseline),
    Step(frozenset({"me"}), run_gateway),
    Step(frozenset({"answers", "repeats"}), run_answers, "answers", answers_argv),
    Step(frozenset({"battle"}), run_battle, "battle_actions", battle_argv),
    Step(frozenset({"rewards"}), run_rewards, "rewards", rewards_argv),
    Step(frozenset({"engine"}), run_engine, "engine", engine_argv),
    Step(frozenset({"chronovore"}), run_chronovore, "chronovore_engine", chronovore_argv),
    Step(frozenset({"terrakard"}), run_terrakard, "terrakard_engine", terrakard_argv),
    Step(frozenset({"tkround", "tktargets"}), run_tk_arena, "terrakard_arena", tk_arena_argv),
    Step(frozenset({"cvpacks", "cvround"}), run_cv_service, "chronovore_service", cv_service_argv),
    Step(frozenset({"push", "idle"}), run_push, "push", push_argv),
)


# -- the run -------------------------------------------------------------------------------


def run_all(args: argparse.Namespace) -> list[Result]:
    """Each chosen scenario in turn; one that fails is reported and the others still run.

    Raises BenchError at the end if any failed (after the table is printed).
    """
    started_at = time.strftime("%Y-%m-%d %H:%M:%S")
    t0 = time.monotonic()
    results: list[Result] = []
    failed: list[str] = []
    for step in STEPS:
        if not step.scenarios & set(args.scenarios):
            continue
        began = time.monotonic()
        try:
            results += step.run(args)
            print(f"  done in {time.monotonic() - began:.0f}s", flush=True)
        except (BenchError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            names = "/".join(sorted(step.scenarios))
            print(f"  {names} failed: {exc}", file=sys.stderr, flush=True)
            failed.append(f"{names}: {str(exc).splitlines()[0]}")
    report(args, results, started_at, time.monotonic() - t0)
    if failed:
        raise BenchError("; ".join(failed))
    return results


def report(
    args: argparse.Namespace, results: Sequence[Result], started_at: str, wall_s: float
) -> None:
    print()
    print(
        f"{started_at}, {os.cpu_count()} CPUs, {args.duration}s measured per scenario "
        f"(+{args.warmup}s warm-up), {args.connections} connections (wrk -t{args.threads}; "
        f"battle: {args.connections} player threads), "
        + ("every service in a process of its own" if args.processes == 2 else "one process")
        + f" per scenario; whole run {wall_s:.0f}s"
    )
    print(f"code: {args.code}")
    print(summary_table(results))
    for r in results:
        per = PER_UNIT.get(r.unit, r.unit)
        lines = [f"{r.requests} in {r.duration_s}s", r.topology, *r.notes]
        print(f"{r.scenario}: {'; '.join(line for line in lines if line)}")
        if r.cpu_percent:
            print(f"  CPU (100% = one core): {cpu_summary(r.cpu_percent, r.rps, per)}")
    if args.json:
        baseline = baseline_rps(results)
        payload = {
            "started_at": started_at,
            "cpus": os.cpu_count(),
            "wall_s": round(wall_s, 1),
            "wrk": {
                "threads": args.threads,
                "connections": args.connections,
                "duration_s": args.duration,
                "warmup_s": args.warmup,
            },
            "processes": args.processes,
            "code": args.code,
            "scenarios": args.scenarios,
            "results": [
                {
                    **{k: None if is_nan(v) else v for k, v in asdict(r).items()},
                    "errors": r.errors,
                    "x_baseline": times_baseline(r, baseline),
                }
                for r in results
            ],
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")


def is_nan(value: object) -> bool:
    """A percentile of nothing, written as null (JSON has no NaN)."""
    return isinstance(value, float) and math.isnan(value)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--duration", type=int, default=25, help="seconds of measured load per scenario"
    )
    parser.add_argument(
        "--connections", type=int, default=32, help="wrk connections; battle player threads"
    )
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--warmup", type=int, default=3, help="seconds of unmeasured load first")
    parser.add_argument(
        "--processes",
        type=int,
        choices=(1, 2),
        default=2,
        help="every service in a process of its own (2, the default) or a scenario's in one",
    )
    parser.add_argument(
        "--scenario",
        action="append",
        choices=(*SCENARIOS, *ALIASES),
        help="run only this scenario (repeatable; default all)",
    )
    parser.add_argument(
        "--base-port",
        type=int,
        default=18000,
        help="gateway port; accounts health +80, baseline +100, answers +200, battle +400, "
        "rewards' cards health +600, push +700 (health +780, status +790), "
        "TerraKard's gateway +900 (health +980..+983), "
        "Chronovore's gateway +1000 (health +1080..+1083)",
    )
    add_source_option(parser)
    parser.add_argument(
        "--shared-vhost",
        action="store_true",
        help="use AMQP_URI's vhost as it is (another run on it may take this one's RPCs)",
    )
    parser.add_argument("--sub", default=SUBJECT, help="token subject of the /me player")
    parser.add_argument("--venv", default=str(ROOT / ".venv"), help="the project's virtualenv")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="print wrk's output and each script's report"
    )
    args = parser.parse_args(argv)
    if args.duration <= 0 or args.connections <= 0 or args.threads <= 0 or args.warmup < 0:
        parser.error("--duration, --connections and --threads must be positive")
    if args.threads > args.connections:
        parser.error("--threads may not exceed --connections")
    resolve_source_option(parser, args)
    chosen = {ALIASES.get(name, name) for name in args.scenario or SCENARIOS}
    args.scenarios = [name for name in SCENARIOS if name in chosen]
    args.gateway_port = args.base_port
    args.health_port = args.base_port + 80
    args.baseline_port = args.base_port + 100
    args.amqp_uri = os.environ.get("AMQP_URI", DEV_AMQP_URI)
    # The other scripts check their own options: before anything runs.
    args.script_options = {
        step.script: importlib.import_module(step.script).parse_args(step.argv(args))
        for step in STEPS
        if step.script and step.argv and step.scenarios & chosen
    }
    return args


def main(argv: Sequence[str] | None = None) -> int:
    return script_main(parse_args, run_all, argv)


if __name__ == "__main__":
    sys.exit(main())
