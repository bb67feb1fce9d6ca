"""Chronovore through the services: packs opened over RPC and lock-in rounds through the
gateway (issue 18).

    python bench/chronovore_service.py [--packs 300] [--pack-players 30] [--callers 8]
                                       [--players 8] [--duration 20] [--no-packs] [--no-rounds]

Two measures on fresh ``deckyard_bench_cv_*`` databases and a RabbitMQ virtual host of
its own. Starts cards and authoring (and, for the rounds, accounts, battle and the
gateway) with ``deckyard run --service X``, one process each (``--processes 1`` puts
them in one), and publishes the Core Set the way ``deckyard seed`` does: the seed
through authoring's lifecycle, ``ContentPublished`` -> cards' read model.

``chronovore packs`` (packs opened through the service)
    Grants ``--packs`` Core Set packs to ``--pack-players`` new players (cards'
    ``grant_packs`` RPC, untimed), then ``--callers`` threads, each with its own
    ``ClusterRpcProxy`` over RabbitMQ, call ``cards.open_pack`` on them (each player's
    packs by one caller, so no two opens of one player race). Every open is a real
    roll (the player's fair seed, its nonce), its five copies and the opening
    persisted in one transaction before the answer. Opens/s over the wall time of all
    of them, p50/p99 of one call as the caller sees it; afterwards the openings and
    copies found in cards' database.

``chronovore round`` (a lock-in round through the gateway)
    ``--players`` players (a development token each) get their starting packs (30
    Core, 1 Golden) opened through ``POST /chronovore/packs/{id}/open``, save a legal
    30-card deck built from what they opened (one class plus Neutral, within the copy
    limits), and start a match against the computer (``POST /chronovore/matches``).
    One thread a player, on one keep-alive connection, then plays for ``--duration``
    seconds: a round is up to four ``place`` actions (cards of its hand, into empty
    slots, at random) and a ``lock``, each ``POST /chronovore/matches/{id}/actions``
    with ``expectedVersion`` and an ``idempotencyKey``. The lock makes battle resolve
    the four pairs, let the CPU choose its next row and commit, then answer. A finished
    match is followed by a new one. Rounds/s (locks answered in the window), p50/p99 of
    the lock's round trip; places, whole rounds and match starts in the notes.

Reports, never asserts. Logs in ``bench/results/logs/cv-*.log``.
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    # Tokens, the seed, the RPC client and the deck rules come from the project's code.
    harness.reexec_in_venv()

import argparse
import json
import math
import os
import random
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
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
    http_get,
    log_problems,
    migrate,
    percentile,
    private_vhost,
    resolve_source_option,
    script_main,
    start_stack,
    wait_until,
)

DATABASE_PREFIX = "deckyard_bench_cv"
RPC_EXCHANGE = "deckyard-bench-cv-rpc"
VHOST_PREFIX = "deckyard-bench-cv"
PACK_SERVICES = ("cards", "authoring")
ROUND_SERVICES = ("accounts", "cards", "authoring", "battle", "gateway")
HTTP_TIMEOUT = 15.0
RPC_TIMEOUT = 30.0
SETUP_TIMEOUT = 180.0
CORE_SET_CARDS = 120  # at least (issue 18): the library is ready from there
STARTING_PACKS = 31  # 30 Core Set + 1 Golden (games/chronovore/collection.py)
NO_RATE_LIMITS = {
    "RATE_LIMIT_PLAYER_PER_MINUTE": "100000000",
    "RATE_LIMIT_PLAYER_BURST": "1000000",
    "RATE_LIMIT_ADDRESS_PER_MINUTE": "100000000",
    "RATE_LIMIT_ADDRESS_BURST": "1000000",
}
PLACE, LOCK, START, ROUND = "place", "lock", "start", "round"


# -- the Core Set ---------------------------------------------------------------------------


def publish_core_set(settings: Any, started: Children) -> None:
    """The seed (``deckyard seed --no-demo``), then until cards' read model holds the
    Core Set (authoring's outbox -> ``ContentPublished`` -> cards)."""
    import sqlalchemy as sa

    from services.authoring.orm import plumbing
    from services.authoring.seed import seed
    from shared.clock import SystemClock
    from shared.db import Database, make_engine

    engine = make_engine(settings.database_url_for("authoring"), pool_size=1)
    try:
        seed(Database(engine, plumbing, SystemClock().now), SystemClock(), demo=False)
    finally:
        engine.dispose()
    cards = sa.create_engine(settings.database_url_for("cards"))
    count = sa.text("SELECT count(*) FROM card_definitions WHERE game = 'chronovore'")

    def published() -> bool:
        with cards.connect() as conn:
            return int(conn.execute(count).scalar_one()) >= CORE_SET_CARDS

    try:
        wait_until("the Core Set in cards", published, started, timeout=SETUP_TIMEOUT)
    finally:
        cards.dispose()


def cpu_window(started: Children) -> CpuWindow:
    """CPU of the services and of this script (its callers and player threads)."""
    return CpuWindow({**started.pids(), "this script": os.getpid()})


def cpu_of(window: CpuWindow) -> dict[str, float]:
    used = window.finish()
    used.pop("wrk", None)  # no wrk here
    return used


# -- packs opened over RPC ------------------------------------------------------------------


@dataclass
class Packs:
    opened: int
    wall_s: float
    times_ms: list[float]
    failures: list[str]
    players: int
    callers: int
    rarities: Counter[str]
    finishes: Counter[str]
    openings_stored: int
    copies_stored: int
    cpu: dict[str, float]  # each service process, RabbitMQ, PostgreSQL, the machine


def rpc_config(settings: Any, amqp_uri: str) -> dict[str, object]:
    return dict(settings.nameko_config(AMQP_URI=amqp_uri))  # the scenario's private vhost


def grant(proxy: Any, players: int, packs: int) -> dict[str, list[str]]:
    """Core Set packs, as evenly as may be, to ``players`` new players: their pack ids."""
    each = math.ceil(packs / players)
    granted: dict[str, list[str]] = {}
    left = packs
    while left > 0:
        player_id = str(uuid.uuid4())
        quantity = min(each, left)
        answer = proxy.cards.grant_packs(
            player_id=player_id, game="chronovore", kind="core", quantity=quantity,
            source_type="bench", source_id="chronovore-packs",
            idempotency_key=f"bench:{player_id}",
        )  # fmt: skip
        granted[player_id] = [str(p) for p in answer["packs"]]
        left -= quantity
    return granted


def open_packs(
    config: dict[str, object], mine: list[tuple[str, list[str]]], barrier: threading.Barrier
) -> tuple[list[float], list[str], list[dict[str, Any]]]:
    """One caller: its own proxy, its players' packs one after the other."""
    from nameko.standalone.rpc import ClusterRpcProxy

    times, failures, cards = [], [], []
    with ClusterRpcProxy(config, timeout=RPC_TIMEOUT) as proxy:
        barrier.wait()
        for player_id, pack_ids in mine:
            for pack_id in pack_ids:
                began = time.perf_counter()
                try:
                    opening = proxy.cards.open_pack(
                        player_id=player_id, pack_id=pack_id, idempotency_key=f"open:{pack_id}"
                    )
                except Exception as exc:  # a remote error: counted, the run goes on
                    failures.append(type(exc).__name__)
                    continue
                times.append((time.perf_counter() - began) * 1000)
                if len(opening["cards"]) != 5 or opening["replayed"]:
                    failures.append("not five new cards")
                cards += opening["cards"]
    return times, failures, cards


def stored(settings: Any, player_ids: Sequence[str]) -> tuple[int, int]:
    """Openings and owned copies of these players in cards' database."""
    import sqlalchemy as sa

    engine = sa.create_engine(settings.database_url_for("cards"))
    ids = [uuid.UUID(p) for p in player_ids]
    try:
        with engine.connect() as conn:
            openings = conn.execute(
                sa.text("SELECT count(*) FROM pack_openings WHERE player_id = ANY(:ids)"),
                {"ids": ids},
            ).scalar_one()
            copies = conn.execute(
                sa.text("SELECT count(*) FROM owned_cards WHERE player_id = ANY(:ids)"),
                {"ids": ids},
            ).scalar_one()
    finally:
        engine.dispose()
    return int(openings), int(copies)


def time_packs(args: argparse.Namespace, settings: Any, amqp_uri: str, started: Children) -> Packs:
    from nameko.standalone.rpc import ClusterRpcProxy

    config = rpc_config(settings, amqp_uri)
    with ClusterRpcProxy(config, timeout=RPC_TIMEOUT) as proxy:
        granted = grant(proxy, args.pack_players, args.packs)
    print(f"  {args.packs} Core Set packs granted to {len(granted)} players", flush=True)
    shares: list[list[tuple[str, list[str]]]] = [[] for _ in range(args.callers)]
    for n, item in enumerate(granted.items()):
        shares[n % args.callers].append(item)
    shares = [share for share in shares if share]
    barrier = threading.Barrier(len(shares) + 1)
    with ThreadPoolExecutor(max_workers=len(shares)) as pool:
        futures = [pool.submit(open_packs, config, share, barrier) for share in shares]
        barrier.wait(timeout=RPC_TIMEOUT)  # every caller connected: the clock starts
        window = cpu_window(started)
        t0 = time.perf_counter()
        found = [future.result() for future in futures]
        wall = time.perf_counter() - t0
        cpu = cpu_of(window)
    times = [t for ms, _, _ in found for t in ms]
    cards = [c for _, _, cs in found for c in cs]
    openings, copies = stored(settings, list(granted))
    return Packs(
        opened=len(times),
        wall_s=wall,
        times_ms=times,
        failures=[f for _, fs, _ in found for f in fs],
        players=len(granted),
        callers=len(shares),
        rarities=Counter(str(c["rarity"]) for c in cards),
        finishes=Counter(str(c["finish"]) for c in cards),
        openings_stored=openings,
        copies_stored=copies,
        cpu=cpu,
    )


def packs_result(found: Packs, args: argparse.Namespace) -> Result:
    return Result(
        scenario="chronovore packs",
        requests=found.opened,
        duration_s=round(found.wall_s, 2),
        rps=round(found.opened / found.wall_s, 1) if found.wall_s else float("nan"),
        p50_ms=round(percentile(found.times_ms, 50), 1),
        p99_ms=round(percentile(found.times_ms, 99), 1),
        non2xx=0,
        socket_errors=0,
        failures=len(found.failures),
        cpu_percent=found.cpu,
        topology=f"{args.processes} process(es) for {', '.join(args.services)}",
        unit="opens/s",
        notes=[
            f"cards.open_pack over RabbitMQ, {found.callers} callers (a ClusterRpcProxy "
            f"each), {found.players} players; each open a fair roll and 5 copies committed "
            f"before the answer",
            f"stored afterwards: {found.openings_stored} openings, {found.copies_stored} "
            f"copies; rarities {dict(found.rarities)}, finishes {dict(found.finishes)}",
            f"failures {dict(Counter(found.failures))}",
        ],
    )


# -- lock-in rounds through the gateway -----------------------------------------------------


@dataclass
class Sample:
    kind: str
    started: float  # time.perf_counter() when the request (or the round) began
    seconds: float
    status: int


@dataclass
class Player:
    number: int
    token: str
    deck_id: str
    view: dict[str, Any]
    samples: list[Sample] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)


class Client:
    """One player's keep-alive connection to the gateway (the e2e tests' API client)."""

    def __init__(self, port: int, token: str) -> None:
        from deckyard.api_client import ApiClient

        self._api = ApiClient(f"http://{HOST}:{port}", timeout=HTTP_TIMEOUT)
        self._token = token

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, float]:
        answer = self._api.call(method, path, self._token, body, headers)
        return answer.status, answer.body, answer.seconds

    def close(self) -> None:
        self._api.close()


def legal_list(collection: dict[str, Any], library: dict[str, Any]) -> list[str]:
    """30 owned copy ids of one class plus Neutral within the copy limits and one Mythic,
    the class with the most to choose from (as tests/e2e/chronovore/support.py builds it)."""
    from games.chronovore.content import COPY_LIMIT, DECK_SIZE, Rarity

    best: list[str] = []
    classes = {c["definition"]["cardClass"] for c in library.values()} - {"neutral"}
    for card_class in sorted(classes):
        chosen: list[str] = []
        per_card: Counter[str] = Counter()
        mythics = 0
        for group in collection["definitions"]:
            card = library.get(group["definition"]["id"])
            if card is None or card["definition"]["cardClass"] not in (card_class, "neutral"):
                continue
            rarity = Rarity(card["rarity"])
            for copy in group["copies"]:
                if rarity is Rarity.MYTHIC:
                    if mythics:
                        break
                    mythics += 1
                elif per_card[card["name"]] >= COPY_LIMIT[rarity]:
                    break
                per_card[card["name"]] += 1
                chosen.append(copy["id"])
        if len(chosen) > len(best):
            best = chosen
    if len(best) < DECK_SIZE:
        raise BenchError(f"the starting packs gave no legal deck ({len(best)} cards at best)")
    return best[:DECK_SIZE]


def set_up(port: int, number: int, token: str, library: dict[str, Any]) -> Player:
    """Starting packs opened, a legal deck saved, a CPU match started: through the gateway."""
    client = Client(port, token)
    deadline = time.monotonic() + SETUP_TIMEOUT

    def call(method: str, path: str, body: Any, ok: tuple[int, ...], key: str | None = None) -> Any:
        headers = {"Idempotency-Key": key} if key else None
        while True:
            status, answer, _ = client.call(method, path, body, headers)
            if status in ok:
                return answer
            if status in (0, 503) and time.monotonic() < deadline:  # still starting
                time.sleep(0.5)
                continue
            raise BenchError(f"player {number}: {method} {path} answered {status}: {answer!r}")

    try:
        call("GET", "/me", None, (200,))  # registers the player: cards then grants the packs
        while len(packs := call("GET", "/chronovore/packs", None, (200,))["packs"]) < (
            STARTING_PACKS
        ):
            if time.monotonic() > deadline:
                raise BenchError(f"player {number}: {len(packs)} starting packs, not 31")
            time.sleep(0.25)
        for pack in packs:
            path = f"/chronovore/packs/{pack['id']}/open"
            call("POST", path, None, (200, 201), key=f"open-{pack['id']}")
        collection = call("GET", "/chronovore/collection", None, (200,))
        cards = legal_list(collection, library)
        deck = call("POST", "/chronovore/decks", {"name": "Bench", "cards": cards}, (201,))
        if not deck["legal"]:
            raise BenchError(f"player {number}: the deck is not legal: {deck['problems']}")
        view = call("POST", "/chronovore/matches", {"deckId": deck["id"]}, (201,))
    finally:
        client.close()
    return Player(number, token, deck["id"], view)


def act(client: Client, player: Player, action: dict[str, Any], kind: str) -> bool:
    """One action at the version the player saw; False (noted) if it was refused."""
    view = player.view
    body = {
        "expectedVersion": view["version"],
        "action": action,
        "idempotencyKey": str(uuid.uuid4()),
    }
    began = time.perf_counter()
    status, answer, seconds = client.call("POST", f"/chronovore/matches/{view['id']}/actions", body)
    player.samples.append(Sample(kind, began, seconds, status))
    if status != 200:
        code = answer.get("code") if isinstance(answer, dict) else None
        player.refusals.append(f"{kind} {code or status}")
        return False
    player.view = answer
    return True


def play(player: Player, port: int, stop: threading.Event) -> None:
    """Round after round until ``stop``: up to four cards placed, then lock; a new match
    when one ends."""
    client = Client(port, player.token)
    rng = random.Random(player.number)
    try:
        while not stop.is_set():
            if player.view["status"] != "active":
                player.results.append(str(player.view["result"]))
                body = {"deckId": player.deck_id}
                began = time.perf_counter()
                status, answer, seconds = client.call("POST", "/chronovore/matches", body)
                player.samples.append(Sample(START, began, seconds, status))
                if status != 201:
                    player.refusals.append(f"start {status}")
                    return
                player.view = answer
                continue
            round_began = time.perf_counter()
            hand = [item["uid"] for item in player.view["you"]["hand"]]
            rng.shuffle(hand)
            empty = [n for n, s in enumerate(player.view["you"]["slots"]) if s is None]
            rng.shuffle(empty)
            placing = rng.randint(0, min(len(hand), len(empty)))
            placed = all(
                act(client, player, {"kind": "place", "card": uid, "slot": slot}, PLACE)
                for uid, slot in zip(hand[:placing], empty[:placing], strict=False)
            )
            if placed and act(client, player, {"kind": "lock"}, LOCK):
                elapsed = time.perf_counter() - round_began
                player.samples.append(Sample(ROUND, round_began, elapsed, 200))
            else:
                resync(client, player)
    finally:
        client.close()


def resync(client: Client, player: Player) -> None:
    """After a refusal: the match as it is now."""
    status, answer, _ = client.call("GET", f"/chronovore/matches/{player.view['id']}")
    if status == 200:
        player.view = answer


@dataclass
class Rounds:
    players: list[Player]
    window: tuple[float, float]  # perf_counter at its start and end
    cpu: dict[str, float]  # each service process, RabbitMQ, PostgreSQL, the machine

    @property
    def duration(self) -> float:
        return self.window[1] - self.window[0]

    def of(self, kind: str) -> list[Sample]:
        """Samples of ``kind`` begun in the window (and answered: the threads stop after)."""
        start, end = self.window
        return [
            s
            for p in self.players
            for s in p.samples
            if s.kind == kind and start <= s.started < end
        ]


def play_rounds(args: argparse.Namespace, settings: Any, started: Children) -> Rounds:
    tokens = dev_tokens(settings, "auth0|bench-cv-", args.players)
    status, body = http_get(args.gateway_port, "/chronovore/library")
    if status != 200:
        raise BenchError(f"GET /chronovore/library answered {status}")
    library = {card["id"]: card for card in json.loads(body)["items"]}
    with ThreadPoolExecutor(max_workers=min(4, args.players)) as pool:
        players = list(
            pool.map(
                lambda nt: set_up(args.gateway_port, nt[0], nt[1], library),
                list(enumerate(tokens)),
            )
        )
    print(f"  {len(players)} players with 155 cards, a legal deck and a CPU match", flush=True)
    stop = threading.Event()
    threads = [
        threading.Thread(target=play, args=(p, args.gateway_port, stop), daemon=True)
        for p in players
    ]
    for thread in threads:
        thread.start()
    if args.warmup:
        time.sleep(args.warmup)
    window = cpu_window(started)
    t0 = time.perf_counter()
    time.sleep(args.duration)
    t1 = time.perf_counter()
    cpu = cpu_of(window)
    stop.set()
    for thread in threads:
        thread.join(timeout=HTTP_TIMEOUT * 2)
    started.check_alive()
    return Rounds(players, (t0, t1), cpu)


def rounds_result(found: Rounds, args: argparse.Namespace) -> Result:
    locks = found.of(LOCK)
    ok_locks = [s.seconds * 1000 for s in locks if s.status == 200]
    places = [s.seconds * 1000 for s in found.of(PLACE) if s.status == 200]
    rounds = [s.seconds * 1000 for s in found.of(ROUND)]
    starts = found.of(START)
    results = Counter(r for p in found.players for r in p.results)
    actions = [s for kind in (PLACE, LOCK) for s in found.of(kind)]
    return Result(
        scenario="chronovore round",
        requests=len(ok_locks),
        duration_s=round(found.duration, 2),
        rps=round(len(ok_locks) / found.duration, 1) if found.duration else float("nan"),
        p50_ms=round(percentile(ok_locks, 50), 1),
        p99_ms=round(percentile(ok_locks, 99), 1),
        non2xx=sum(1 for s in actions if s.status not in (0, 200)),
        socket_errors=sum(1 for s in actions if s.status == 0),
        cpu_percent=found.cpu,
        topology=f"{args.processes} process(es) for {', '.join(args.services)}",
        unit="rounds/s",
        notes=[
            f"{len(found.players)} player threads, keep-alive connections; a round: 0-4 "
            f"places then a lock (p50/p99: the lock, which resolves the pairs and lets "
            f"the CPU choose)",
            f"place p50 {percentile(places, 50):.1f} ms, p99 {percentile(places, 99):.1f} ms "
            f"({len(places)}); whole round p50 {percentile(rounds, 50):.1f} ms, p99 "
            f"{percentile(rounds, 99):.1f} ms",
            f"new matches {len(starts)} (p50 "
            f"{percentile([s.seconds * 1000 for s in starts], 50):.1f} ms); results of the "
            f"matches finished, warm-up included: {dict(results)}",
            f"refusals {dict(Counter(r for p in found.players for r in p.refusals))}",
        ],
    )


# -- the run --------------------------------------------------------------------------------


@dataclass
class Outcome:
    packs: Packs | None
    rounds: Rounds | None
    problems: dict[str, Counter[str]]

    def results(self, args: argparse.Namespace) -> list[Result]:
        found = []
        if self.packs is not None:
            found.append(packs_result(self.packs, args))
        if self.rounds is not None:
            found.append(rounds_result(self.rounds, args))
        return found


def run(args: argparse.Namespace) -> Outcome:
    base, settings = gateway_stack_env(
        args, database_prefix=DATABASE_PREFIX, rpc_exchange=RPC_EXCHANGE, extra=NO_RATE_LIMITS
    )
    databases = [s for s in args.services if s != "gateway"]
    packs = rounds = None
    with (
        private_vhost(base["AMQP_URI"], args.shared_vhost, VHOST_PREFIX) as amqp_uri,
        fresh_databases(settings, databases, args.keep),
    ):
        base["AMQP_URI"] = amqp_uri
        print(f"  migrating {DATABASE_PREFIX}_{{{','.join(databases)}}}", flush=True)
        migrate(deckyard_command(), databases, args.source, base)
        with children("cv") as started:
            gateway = "gateway" in args.services
            tokens = dev_tokens(settings, "auth0|bench-cv-probe", 1) if gateway else [None]
            logs = start_stack(
                started, deckyard_command(), args.services, base, args.source,
                one_process=args.processes == 1, health_ports=args.health_ports,
                gateway_port=args.gateway_port if gateway else None, token=tokens[0],
            )  # fmt: skip
            publish_core_set(settings, started)
            print("  the Core Set is published", flush=True)
            if args.packs_enabled:
                packs = time_packs(args, settings, amqp_uri, started)
                started.check_alive()
            if args.rounds:
                rounds = play_rounds(args, settings, started)
            problems = {child.name: log_problems(child)[0] for child in logs}
            print("  stopping", flush=True)
    return Outcome(packs, rounds, problems)


def report(args: argparse.Namespace, outcome: Outcome) -> None:
    for result in outcome.results(args):
        print(
            f"{result.scenario}: {result.requests} in {result.duration_s:.1f}s, "
            f"{result.rps:.1f} {result.unit}, p50 {result.p50_ms:.1f} ms, "
            f"p99 {result.p99_ms:.1f} ms, errors {result.errors}"
        )
        for note in result.notes:
            print(f"  {note}")
        per = result.unit.removesuffix("s/s").removesuffix("/s")
        print(f"  CPU (100% = one core): {cpu_summary(result.cpu_percent, result.rps, per)}")
    for name, counts in outcome.problems.items():
        if counts:
            print(f"  {name} log: {dict(counts)}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packs", type=int, default=300, help="Core Set packs opened")
    parser.add_argument("--pack-players", type=int, default=30, help="players they go to")
    parser.add_argument("--callers", type=int, default=8, help="concurrent RPC callers")
    parser.add_argument("--players", type=int, default=8, help="player threads, rounds")
    parser.add_argument("--duration", type=int, default=20, help="seconds of rounds measured")
    parser.add_argument("--warmup", type=int, default=3, help="seconds of rounds not measured")
    parser.add_argument("--no-packs", dest="packs_enabled", action="store_false")
    parser.add_argument("--no-rounds", dest="rounds", action="store_false")
    parser.add_argument("--processes", type=int, choices=(1, 5), default=5,
                        help="one process per service (default) or all in one")  # fmt: skip
    parser.add_argument(
        "--base-port", type=int, default=19800, help="gateway port; health ports +80.. +83"
    )
    add_stack_options(parser)
    args = parser.parse_args(argv)
    if not (args.packs_enabled or args.rounds):
        parser.error("--no-packs and --no-rounds together leave nothing to measure")
    if not (1 <= args.pack_players <= args.packs <= 100_000):
        parser.error("--packs must be in --pack-players..100,000")
    if args.packs > 100 * args.pack_players:
        parser.error("at most 100 packs a player (one grant): raise --pack-players")
    if not (1 <= args.callers <= 64 and 1 <= args.players <= 64):
        parser.error("--callers and --players must be in 1..64")
    if args.duration <= 0 or args.warmup < 0:
        parser.error("--duration must be positive and --warmup not negative")
    resolve_source_option(parser, args)
    args.services = ROUND_SERVICES if args.rounds else PACK_SERVICES
    args.gateway_port = args.base_port
    served = [s for s in args.services if s != "gateway"]  # the gateway has no health port
    args.health_ports = [args.base_port + 80 + i for i in range(len(served))]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    return script_main(parse_args, lambda args: report(args, run(args)), argv)


if __name__ == "__main__":
    sys.exit(main())
