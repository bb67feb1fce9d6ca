"""The ``deckyard`` command: run the platform, migrate and seed it, and the operators' tools.

Run and migrate read the environment (see ``shared.config``). ``run`` without
``--service`` is the all-in-one development mode: it migrates and seeds, then starts
every service in this one process and the gateway (asyncio, gateway/server.py) as a
child process; ``--service NAME`` runs one of them, as each Kubernetes Deployment does.
"""

from __future__ import annotations

import argparse
import logging
import sys
import warnings
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shared.config import Settings

# eventlet (under nameko, the services' runtime) warns of its own deprecation at every
# import: eight lines in front of whatever the command says. Known; not news.
warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")

ALL = ("accounts", "authoring", "challenge", "cards", "battle", "gateway")

# What --help says, plain: this module's docstring is reStructuredText (``...``).
DESCRIPTION = (
    "Run the Deckyard platform (every service in one process by default, or one with "
    "--service), migrate and seed its databases, and the operators' tools. Settings come "
    'from the environment (README.md, "Configuration").'
)
BAD_SETTING = 2  # the exit status of a setting load_settings refuses, as argparse's for usage


def _version() -> str:
    try:
        return version("deckyard")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed: make install)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deckyard", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run services (all of them by default)")
    run.add_argument(
        "--service", choices=ALL, action="append", help="run only this service (repeatable)"
    )
    run.add_argument(
        "--no-migrate",
        action="store_true",
        help="do not migrate and seed before starting (all-in-one mode does both)",
    )

    seed = commands.add_parser(
        "seed", help="load the card catalogue and the demo content (idempotent)"
    )
    seed.add_argument(
        "--no-demo", action="store_true", help="only the card catalogue, no demo events"
    )

    migrate = commands.add_parser("migrate", help="create databases and run migrations")
    migrate.add_argument("--service", choices=ALL[:-1], action="append")
    migrate.add_argument(
        "--seed",
        choices=["none", "catalogue", "demo"],
        default="none",
        help="then seed: the card catalogue, or the catalogue and the demo content",
    )

    dead = commands.add_parser(
        "dead-letters", help="list or replay events no handler could process"
    )
    dead.add_argument("action", choices=["list", "replay"])
    dead.add_argument("--queue", action="append", help="only this consumer queue (repeatable)")
    dead.add_argument("--event-id", help="replay only this event")

    token = commands.add_parser("token", help="print a development access token")
    token.add_argument("--sub", required=True, help="the subject, e.g. auth0|alice")
    token.add_argument(
        "--role",
        action="append",
        default=[],
        choices=["author", "player"],
        help="grant a role (author); every account is a player anyway",
    )
    token.add_argument("--ttl", type=int, default=3600, help="lifetime in seconds")

    balance = commands.add_parser(
        "balance", help="simulate seeded matches of given decks and policies (no services)"
    )
    from deckyard.balance import add_arguments

    add_arguments(balance)

    terrakard = commands.add_parser(
        "terrakard", help="TerraKard's card pipeline: draft cards and questions for review"
    )
    from deckyard.terrakard import add_arguments as terrakard_arguments

    terrakard_arguments(terrakard)

    review = commands.add_parser(
        "review", help="your review queue: list it, approve items of it (as an Author)"
    )
    from deckyard.review import add_arguments as review_arguments

    review_arguments(review)

    verify = commands.add_parser(
        "verify", help="verify an exported roll history or finished match history (offline)"
    )
    from deckyard.verify import add_arguments as verify_arguments

    verify_arguments(verify)
    clock = commands.add_parser(
        "clock", help="the test clock of a running stack (CLOCK_CONTROL=1): show, advance"
    )
    from deckyard.clock import add_arguments as clock_arguments

    clock_arguments(clock)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from deckyard.preflight import PreflightFailed
    from shared.config import ConfigError

    try:
        return _command(args)
    except PreflightFailed as exc:
        print(f"deckyard: {exc}", file=sys.stderr)
        return 1
    except ConfigError as exc:  # names the setting and what it expects: one line, no trace
        print(f"deckyard: {exc}", file=sys.stderr)
        return BAD_SETTING


def _command(args: argparse.Namespace) -> int:
    if args.command == "token":
        return _token(args)
    if args.command == "migrate":
        _migrate(args.service or list(ALL[:-1]))
        return _seed(demo=args.seed == "demo") if args.seed != "none" else 0
    if args.command == "seed":
        return _seed(demo=not args.no_demo)
    if args.command == "dead-letters":
        return _dead_letters(args)
    if args.command == "balance":
        from deckyard.balance import run

        return run(args)
    if args.command == "terrakard":
        from deckyard import terrakard

        return terrakard.run(args)
    if args.command == "review":
        from deckyard import review

        return review.run(args)
    if args.command == "clock":
        from deckyard import clock

        return clock.run(args)
    if args.command == "verify":
        from deckyard.verify import run as verify

        return verify(args)
    return _run(args)


def _dead_letters(args: argparse.Namespace) -> int:
    from deckyard.dead_letters import list_parked, replay
    from deckyard.preflight import require_rabbitmq
    from shared.config import load_settings

    settings = load_settings()
    require_rabbitmq(settings)
    amqp_uri = settings.amqp_uri
    if args.action == "replay":
        count = replay(amqp_uri, args.queue, args.event_id)
        print(f"replayed {count} message(s)")
        return 0
    parked = list_parked(amqp_uri, args.queue)
    for item in parked:
        print(
            f"{item.queue}\t{item.event_type}\t{item.event_id}\t"
            f"attempts={item.attempts}\t{item.failed_at}\t{item.error}"
        )
    print(f"{len(parked)} parked message(s)")
    return 0


def _token(args: argparse.Namespace) -> int:
    from gateway.devauth import mint_token
    from shared.config import load_settings

    settings = load_settings()
    if args.ttl <= 0:
        print("--ttl must be positive", file=sys.stderr)
        return 2
    print(
        mint_token(
            args.sub,
            audience=settings.auth0_audience,
            roles=args.role,
            roles_claim=settings.auth0_roles_claim,
            ttl_seconds=args.ttl,
        )
    )
    return 0


def _reporter(settings: Settings) -> Callable[[str], None]:
    """How migrate and seed say what they did: a plain line on stdout for a person at a
    terminal; under ``LOG_FORMAT=json`` a log line, as is every line the process writes
    then (alembic's own too), since a migration Job's output goes to a log collector.
    Nothing configured logging for these commands before: only ``run`` did."""
    if settings.log_format != "json":
        return print
    from shared.logs import configure_logging

    configure_logging(settings.log_format, settings.log_level)
    log = logging.getLogger("deckyard.cli")
    return lambda line: log.info("%s", line)


def _migrate(services: Sequence[str]) -> int:
    from deckyard.preflight import require_postgres
    from shared.config import load_settings
    from shared.migrations import upgrade

    settings = load_settings()
    report = _reporter(settings)
    require_postgres(settings)
    for service in services:
        upgrade(settings, service)
        report(f"migrated {service} ({settings.database_url_for(service).database})")
    return 0


def _seed(demo: bool = True) -> int:
    from deckyard.preflight import require_postgres
    from services.authoring.orm import plumbing
    from services.authoring.seed import seed
    from shared.clock import SystemClock
    from shared.config import load_settings
    from shared.db import Database, make_engine

    settings = load_settings()
    say = _reporter(settings)
    require_postgres(settings)
    engine = make_engine(settings.database_url_for("authoring"))
    try:
        report = seed(Database(engine, plumbing, SystemClock().now), SystemClock(), demo=demo)
    finally:
        engine.dispose()
    say(
        f"seeded: {report.created} created, {report.published} published "
        f"({report.replaced} new versions of changed items, {report.retired} older versions "
        f"retired), {len(report.skipped)} left to their Authors, "
        f"{len(report.ids)} seed references"
    )
    if demo:
        from deckyard.demo_seed import seed_demo_defenders

        say(f"demo defenders in the TerraKard arena: {seed_demo_defenders(settings)}")
    return 0


def _run(args: argparse.Namespace) -> int:
    services = args.service or list(ALL)
    if services == ["gateway"]:
        return _run_gateway()  # asyncio: no eventlet in this process
    import eventlet

    eventlet.monkey_patch()  # before kombu, psycopg or nameko open a socket

    from deckyard.preflight import require_free_ports, require_postgres, require_rabbitmq
    from deckyard.runner import listen_addresses, run_services
    from shared.config import load_settings

    settings = load_settings()
    # Before anything starts: a busy port, or a server that does not answer, is one line.
    require_free_ports(listen_addresses(settings, services))
    require_postgres(settings)
    require_rabbitmq(settings)
    if not args.service and not args.no_migrate:
        _migrate(ALL[:-1])
        _seed()
    run_services(settings, services)
    return 0


def _run_gateway() -> int:
    from deckyard.preflight import require_free_ports, require_rabbitmq
    from deckyard.runner import listen_addresses
    from gateway.server import run
    from shared.config import load_settings

    settings = load_settings()
    require_free_ports(listen_addresses(settings, ["gateway"]))
    require_rabbitmq(settings)
    run(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
