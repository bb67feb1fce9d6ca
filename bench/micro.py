"""CPU cost of the pieces of the /me hot path, one at a time, in this process.

    .venv/bin/python bench/micro.py [--calls 2000]

No broker and no HTTP: each piece is called in a loop and timed (best of
three rounds, CPU time of this process and wall time). ``accounts.me`` runs
through nameko's ``worker_factory`` against the real benchmark database
(``deckyard_bench_accounts``, migrated if needed), so its wall time includes
PostgreSQL round trips on the loopback. Prints figures, judges nothing.

To count the round trips to PostgreSQL of one call, run this under
``strace -f -e trace=sendto`` and count the sends between two calls.
"""

from __future__ import annotations

import eventlet

eventlet.monkey_patch()  # as `deckyard run` does, before psycopg opens a socket

import argparse  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402

BENCH_ENV = {
    "DATABASE_PREFIX": "deckyard_bench",
    "RPC_EXCHANGE": "deckyard-bench-rpc",
    "DEV_AUTH": "1",
    "DECKYARD_ENV": "development",
}


def timed(fn: Callable[[], object], calls: int) -> tuple[float, float]:
    """(wall ms, CPU ms) per call, the best of three rounds."""
    for _ in range(min(200, calls)):
        fn()
    best: tuple[float, float] | None = None
    for _ in range(3):
        wall0, cpu0 = time.perf_counter(), time.process_time()
        for _ in range(calls):
            fn()
        wall = (time.perf_counter() - wall0) / calls * 1e3
        cpu = (time.process_time() - cpu0) / calls * 1e3
        if best is None or cpu < best[1]:
            best = (wall, cpu)
    assert best is not None
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per round")
    args = parser.parse_args(argv)
    os.environ.update(BENCH_ENV)

    import jwt
    from nameko.testing.services import worker_factory

    from gateway.app import build_verifier
    from gateway.auth import ALGORITHMS, LEEWAY_SECONDS, REQUIRED_CLAIMS
    from gateway.devauth import DEV_ISSUER, DEV_KEY_ID, mint_token
    from services.accounts import orm
    from services.accounts.schemas import PlayerSchema, SubjectSchema
    from services.accounts.service import AccountsService
    from shared.clock import SystemClock
    from shared.config import load_settings
    from shared.db import Database, make_engine
    from shared.migrations import upgrade

    settings = load_settings()

    def measure(name: str, fn: Callable[[], object]) -> None:
        wall, cpu = timed(fn, args.calls)
        print(f"  {name:<58} {wall:7.3f} {cpu:7.3f}", flush=True)

    print(f"  {'per call':<58} {'wall ms':>7} {'CPU ms':>7}")

    verifier = build_verifier(settings)
    token = mint_token("auth0|bench", audience=settings.auth0_audience)
    key = verifier._keys.signing_key(DEV_KEY_ID).key
    measure("gateway: TokenVerifier.verify (the whole check)", lambda: verifier.verify(token))
    measure(
        "  jwt.get_unverified_header (parses the token once)",
        lambda: jwt.get_unverified_header(token),
    )
    measure(
        "  jwt.decode (parses it again, RSA verify, claims)",
        lambda: jwt.decode(
            token,
            key,
            algorithms=ALGORITHMS,
            audience=settings.auth0_audience,
            issuer=DEV_ISSUER,
            leeway=LEEWAY_SECONDS,
            options={"require": REQUIRED_CLAIMS},
        ),
    )

    measure("accounts: SubjectSchema() (built per call today)", SubjectSchema)
    measure("accounts: PlayerSchema() (built per call today)", PlayerSchema)
    subject_schema = SubjectSchema()
    measure(
        "accounts: SubjectSchema.load on a reused instance",
        lambda: subject_schema.load({"sub": "auth0|bench"}),
    )

    upgrade(settings, "accounts")
    engine = make_engine(settings.database_url_for("accounts"))
    database = Database(engine, orm.plumbing, now=SystemClock().now)
    accounts = worker_factory(AccountsService, db=database, clock=SystemClock())
    accounts.me("auth0|bench")  # registers the benchmark player if needed
    measure(
        "accounts: AccountsService.me (registered player, real DB)",
        lambda: accounts.me("auth0|bench"),
    )
    engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
