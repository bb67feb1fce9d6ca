"""The Quest eligibility queries on a realistic events table, one query at a time.

    python bench/eligibility.py [--events 100000] [--queries 1000] [--keep]

Migrates a fresh ``deckyard_bench2_challenge`` database (``deckyard migrate
--service challenge``), bulk-loads published events (most spread over Europe,
a dense cluster in one city; radius 20-500 m; most open now, some closed or
retired), ANALYZEs, then times the challenge service's own queries, called as
the service calls them (``SqlAttempts`` on a ``make_engine`` engine, so
SQLAlchemy, geoalchemy2 and psycopg's Python wait are included):

a. ``event_for_claim``: one event by id, with distance and inside/outside;
b. ``events_within_radius``: the events whose area contains the point, with
   the constant prefilter ``ST_DWithin(geog, p, MAX_EVENT_RADIUS_M)``;
c. the same query without the prefilter (only ``ST_DWithin(geog, p, radius_m)``);
d. ``nearby_events``: open events within 5 km, nearest first, at most 100.

Claim points come from two seeded sets, timed separately: ``europe`` (uniform
over the same box as the spread events: usually nothing near) and ``city``
(drawn like the cluster: many events near). For (a) each point is inside a
randomly chosen event. Each (query, set) gets an unmeasured warm-up, then at
most ``--queries`` calls or ``--budget`` seconds, whichever comes first.

Prints p50/p99/mean milliseconds per call, rows per call, the server's
execution time (``EXPLAIN (ANALYZE, TIMING OFF)`` on a sample of the same
points) and, for (b), (c) and (d), the plan of one city point with
``EXPLAIN (ANALYZE, BUFFERS)``: whether the GiST index ``ix_events_geog`` is
used. Drops the database at the end unless ``--keep``. Judges nothing.

Needs PostgreSQL with PostGIS (``DATABASE_URL``, development default) and the
project's virtualenv (the script re-runs itself with ``.venv/bin/python``).
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    # The queries run through the project's own code: use its virtualenv.
    harness.reexec_in_venv()

import argparse
import math
import os
import random
import re
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from harness import ROOT, VENV, BenchError, describe_code, migrate, resolve_source

sys.path.insert(0, str(ROOT))


def use_source(source: str | None) -> Path:
    """Import the project's code from ``source`` (a copy, e.g. ``git archive``) if given."""
    if source is None:
        return ROOT
    try:
        path = resolve_source(source, "services/challenge/attempt_store.py")
    except BenchError as exc:
        raise SystemExit(str(exc)) from None
    sys.path.insert(0, str(path))
    return path


DATABASE_PREFIX = "deckyard_bench2"
BENCH_ENV = {
    "DATABASE_PREFIX": DATABASE_PREFIX,
    "RPC_EXCHANGE": "deckyard-bench2-rpc",
    "DECKYARD_ENV": "development",
}

# Europe, roughly: Lisbon to Helsinki, Sicily to Oslo (sea included).
EUROPE_LAT = (36.0, 60.0)
EUROPE_LON = (-10.0, 30.0)
CITY = (51.5080, -0.1281)  # London, Trafalgar Square: the dense cluster's centre
KM_PER_DEG_LAT = 111.32


@dataclass
class Loaded:
    events: list[tuple[uuid.UUID, float, float, int]]  # id, lat, lon, radius_m
    city: int
    europe: int


@dataclass
class Timing:
    query: str
    points: str
    calls: int
    p50_ms: float
    p99_ms: float
    mean_ms: float
    rows: float
    server_ms: float | None = None
    notes: list[str] = field(default_factory=list)


# -- data ------------------------------------------------------------------------------


def city_point(rng: random.Random, sigma_km: float) -> tuple[float, float]:
    """A normal scatter around CITY, sigma_km in each direction."""
    dy, dx = rng.gauss(0.0, sigma_km), rng.gauss(0.0, sigma_km)
    lat = CITY[0] + dy / KM_PER_DEG_LAT
    lon = CITY[1] + dx / (KM_PER_DEG_LAT * math.cos(math.radians(CITY[0])))
    return lat, lon


def europe_point(rng: random.Random) -> tuple[float, float]:
    return rng.uniform(*EUROPE_LAT), rng.uniform(*EUROPE_LON)


def offset(lat: float, lon: float, metres: float, bearing: float) -> tuple[float, float]:
    """A point about ``metres`` away (flat approximation, fine below a kilometre)."""
    dy = metres * math.cos(bearing) / 1000
    dx = metres * math.sin(bearing) / 1000
    return (
        lat + dy / KM_PER_DEG_LAT,
        lon + dx / (KM_PER_DEG_LAT * math.cos(math.radians(lat))),
    )


def load_events(engine: Any, args: argparse.Namespace, now: datetime) -> Loaded:
    """COPY the events in (seeded), then ANALYZE."""
    rng = random.Random(args.seed)
    city = int(args.events * args.city_share)
    loaded = Loaded([], city, args.events - city)
    raw = engine.raw_connection()
    try:
        conn = raw.driver_connection
        with conn.cursor() as cur:
            columns = (
                "id, name, description, geog, radius_m, starts_at, ends_at, challenge_id, "
                "reward_definition_id, version, published_at, retired_at"
            )
            with cur.copy(f"COPY events ({columns}) FROM STDIN") as copy:
                for n in range(args.events):
                    lat, lon = (
                        city_point(rng, args.city_sigma_km) if n < city else europe_point(rng)
                    )
                    radius = rng.randint(20, 500)
                    window = rng.random()
                    if window < 0.90:  # open now
                        starts = now - timedelta(days=rng.uniform(0, 30))
                        ends = now + timedelta(days=rng.uniform(1, 60))
                    elif window < 0.95:  # not yet open
                        starts = now + timedelta(days=rng.uniform(1, 30))
                        ends = starts + timedelta(days=7)
                    else:  # over
                        ends = now - timedelta(days=rng.uniform(1, 30))
                        starts = ends - timedelta(days=7)
                    retired = now - timedelta(days=1) if rng.random() < 0.01 else None
                    event_id = uuid.UUID(int=rng.getrandbits(128), version=4)
                    copy.write_row(
                        (
                            event_id,
                            f"bench event {n}",
                            "",
                            f"SRID=4326;POINT({lon} {lat})",
                            radius,
                            starts,
                            ends,
                            uuid.UUID(int=rng.getrandbits(128), version=4),
                            uuid.UUID(int=rng.getrandbits(128), version=4),
                            1,
                            now - timedelta(days=31),
                            retired,
                        )
                    )
                    loaded.events.append((event_id, lat, lon, radius))
        conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE events")
        conn.autocommit = False
    finally:
        raw.close()
    return loaded


# -- measuring -------------------------------------------------------------------------


class Capture:
    """The last statement and parameters the engine sent (for EXPLAIN of the same query)."""

    def __init__(self, engine: Any) -> None:
        from sqlalchemy import event

        self.last: tuple[str, Any] | None = None
        event.listen(engine, "before_cursor_execute", self._before)

    def _before(self, conn: Any, cursor: Any, statement: str, parameters: Any, *rest: Any) -> None:
        self.last = (statement, parameters)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))
    return ordered[index]


def timed_calls(
    call: Callable[[Any], int], points: Sequence[Any], warmup: int, budget_s: float
) -> tuple[list[float], list[int]]:
    for p in points[:warmup]:
        call(p)
    times: list[float] = []
    rows: list[int] = []
    deadline = time.monotonic() + budget_s
    for p in points[warmup:]:
        t0 = time.perf_counter()
        rows.append(call(p))
        times.append((time.perf_counter() - t0) * 1000)
        if time.monotonic() > deadline:
            break
    return times, rows


EXECUTION_TIME = re.compile(r"Execution Time: ([0-9.]+) ms")


def explain(connection: Any, captured: tuple[str, Any], options: str) -> list[str]:
    statement, parameters = captured
    result = connection.exec_driver_sql(f"EXPLAIN ({options}) {statement}", parameters)
    return [row[0] for row in result]


def server_time(
    connection: Any, call: Callable[[Any], int], capture: Capture, points: Sequence[Any]
) -> float:
    """Median server execution time (EXPLAIN ANALYZE, TIMING OFF) of the same statements."""
    found = []
    for p in points:
        call(p)
        assert capture.last is not None
        for line in explain(connection, capture.last, "ANALYZE, TIMING OFF"):
            m = EXECUTION_TIME.search(line)
            if m:
                found.append(float(m.group(1)))
    return statistics.median(found)


def plan_summary(lines: list[str]) -> list[str]:
    """The scan nodes, their index conditions and filters, buffers, and the total time."""
    keep = re.compile(
        r"(Scan|Index Cond|Filter:|Rows Removed|Buffers|Execution Time|Sort Method|Limit)"
    )
    return [line.rstrip() for line in lines if keep.search(line)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="events to load")
    parser.add_argument(
        "--city-share", type=float, default=0.2, help="share of the events in the city cluster"
    )
    parser.add_argument(
        "--city-sigma-km", type=float, default=5.0, help="spread of the cluster (normal, km)"
    )
    parser.add_argument(
        "--queries", type=int, default=1000, help="measured calls per query and point set"
    )
    parser.add_argument("--warmup", type=int, default=100, help="unmeasured calls first")
    parser.add_argument(
        "--budget", type=float, default=30.0, help="at most this many seconds per query and set"
    )
    parser.add_argument(
        "--server-sample", type=int, default=50, help="points timed with EXPLAIN ANALYZE per set"
    )
    parser.add_argument(
        "--query",
        action="append",
        choices=("a", "b", "c", "d"),
        help="time only this query (repeatable; default all four)",
    )
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--source",
        metavar="DIR",
        help="import the project's code from DIR (e.g. a git archive of a commit) instead",
    )
    args = parser.parse_args(argv)
    if not (0 < args.events <= 2_000_000 and 0 < args.queries <= 100_000):
        parser.error("--events must be in 1..2,000,000 and --queries in 1..100,000")
    if not (0.0 <= args.city_share <= 1.0) or args.budget <= 0 or args.warmup < 0:
        parser.error("--city-share must be in 0..1, --budget positive, --warmup >= 0")

    os.environ.update(BENCH_ENV)
    source = use_source(args.source)
    args.code = describe_code(source)
    from shared.config import load_settings
    from shared.migrations import drop_database

    settings = load_settings()
    database = settings.database_url_for("challenge").database
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(source)}
    print(f"fresh database {database}", flush=True)
    drop_database(settings, "challenge")
    try:
        migrate([str(VENV / "bin" / "python"), "-m", "deckyard.cli"], ["challenge"], source, env)
        return run(args, settings)
    finally:
        if args.keep:
            print(f"kept {database}")
        else:
            drop_database(settings, "challenge")
            print(f"dropped {database}")


def run(args: argparse.Namespace, settings: Any) -> int:
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from services.challenge import attempt_store
    from services.challenge.attempt_store import BOUNDARY_TOLERANCE_M, SqlAttempts
    from services.challenge.domain.claims import Claim
    from services.challenge.orm import events

    point = vars(attempt_store)["point"]  # the very function the store builds its points with
    from shared.db import make_engine

    now = datetime.now(UTC)
    engine = make_engine(settings.database_url_for("challenge"), pool_size=2)
    try:
        t0 = time.monotonic()
        loaded = load_events(engine, args, now)
        print(
            f"loaded {len(loaded.events):,} events ({loaded.city:,} in the city cluster, "
            f"sigma {args.city_sigma_km:g} km; {loaded.europe:,} over Europe) "
            f"and analyzed in {time.monotonic() - t0:.1f}s",
            flush=True,
        )
        capture = Capture(engine)
        connection = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        session = Session(bind=connection)
        store = SqlAttempts(session)
        with engine.connect() as info:
            versions = info.exec_driver_sql(
                "SELECT split_part(version(), ' ', 2), postgis_lib_version()"
            ).one()
        print(f"PostgreSQL {versions[0]}, PostGIS {versions[1]}", flush=True)

        rng = random.Random(args.seed + 1)
        count = args.warmup + args.queries
        point_sets = {
            "europe": [europe_point(rng) for _ in range(count)],
            "city": [city_point(rng, args.city_sigma_km) for _ in range(count)],
        }
        # (a): a claim inside a random event of each set, as a player at the event sends.
        at_event: dict[str, list[tuple[uuid.UUID, float, float]]] = {}
        for name, chosen in (
            ("europe", loaded.events[loaded.city :]),
            ("city", loaded.events[: loaded.city]),
        ):
            pool = chosen or loaded.events
            claims = []
            for _ in range(count):
                event_id, lat, lon, radius = rng.choice(pool)
                claims.append(
                    (event_id, *offset(lat, lon, rng.uniform(0, radius * 0.9), rng.uniform(0, 6.3)))
                )
            at_event[name] = claims

        def call_a(p: tuple[uuid.UUID, float, float]) -> int:
            found = store.event_for_claim(p[0], Claim(p[1], p[2], 10.0, now))
            return 1 if found and found["inside"] else 0

        def call_b(p: tuple[float, float]) -> int:
            return len(store.events_within_radius(p[0], p[1]))

        def call_c(p: tuple[float, float]) -> int:
            here = point(p[0], p[1])
            rows = session.execute(
                select(events.c.id).where(
                    func.ST_DWithin(events.c.geog, here, events.c.radius_m + BOUNDARY_TOLERANCE_M)
                )
            ).all()
            return len(rows)

        def call_d(p: tuple[float, float]) -> int:
            return len(store.nearby_events(p[0], p[1], now))

        queries: list[tuple[str, str, Callable[[Any], int], dict[str, list[Any]]]] = [
            ("a", "event_for_claim", call_a, at_event),
            ("b", "events_within_radius (prefilter 500 m)", call_b, point_sets),
            ("c", "same without the prefilter", call_c, point_sets),
            ("d", "nearby_events (5 km, open, nearest 100)", call_d, point_sets),
        ]
        results: list[Timing] = []
        plans: dict[str, list[str]] = {}
        for key, label, call, sets in queries:
            if args.query and key not in args.query:
                continue
            for set_name, pts in sets.items():
                times, rows = timed_calls(call, pts, args.warmup, args.budget)
                sample = pts[args.warmup : args.warmup + args.server_sample]
                timing = Timing(
                    query=f"({key}) {label}",
                    points=set_name,
                    calls=len(times),
                    p50_ms=percentile(times, 0.50),
                    p99_ms=percentile(times, 0.99),
                    mean_ms=statistics.fmean(times),
                    rows=statistics.fmean(rows),
                    server_ms=server_time(connection, call, capture, sample),
                )
                results.append(timing)
                print(
                    f"  ({key}) {set_name:6} {timing.calls:5d} calls  p50 {timing.p50_ms:8.3f} ms"
                    f"  p99 {timing.p99_ms:8.3f} ms  server p50 {timing.server_ms:8.3f} ms"
                    f"  rows {timing.rows:6.2f}",
                    flush=True,
                )
            if key in "bcd":
                city_point_now = sets["city"][args.warmup]
                call(city_point_now)
                assert capture.last is not None
                plans[key] = explain(connection, capture.last, "ANALYZE, BUFFERS")
        session.close()
        connection.close()
    finally:
        engine.dispose()

    print()
    print(
        f"{now:%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs, {args.events:,} events, "
        f"warm-up {args.warmup} calls, then at most {args.queries} calls or {args.budget:g}s "
        "per query and point set"
    )
    print(f"code: {args.code}")
    header = ("query", "points", "calls", "p50 ms", "p99 ms", "mean ms", "server p50 ms", "rows")
    rows_out = [
        (
            r.query,
            r.points,
            str(r.calls),
            f"{r.p50_ms:.3f}",
            f"{r.p99_ms:.3f}",
            f"{r.mean_ms:.3f}",
            f"{r.server_ms:.3f}" if r.server_ms is not None else "",
            f"{r.rows:.2f}",
        )
        for r in results
    ]
    widths = [max(len(row[i]) for row in (header, *rows_out)) for i in range(len(header))]
    for row in (header, *rows_out):
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [c.rjust(w) for c, w in zip(row[2:], widths[2:], strict=True)]
        print("| " + " | ".join(cells) + " |")
    for key, lines in plans.items():
        uses_index = any("ix_events_geog" in line for line in lines)
        print(
            f"\nplan ({key}), one city point: GiST index ix_events_geog "
            f"{'USED' if uses_index else 'NOT used'}"
        )
        for line in plan_summary(lines):
            print(f"    {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
