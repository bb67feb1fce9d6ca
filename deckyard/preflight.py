"""What ``deckyard`` checks before it migrates or starts anything, so that a missing
server or a busy port is one clear line and exit status 1, not a traceback."""

from __future__ import annotations

import errno
import socket
from collections.abc import Sequence

from shared.config import Settings
from shared.reachability import postgres_problem, rabbitmq_problem


class PreflightFailed(Exception):
    """One line saying what is wrong and what to do about it."""


def require_postgres(settings: Settings) -> None:
    if not settings.database_url:
        raise PreflightFailed("DATABASE_URL is not set: this command needs PostgreSQL")
    problem = postgres_problem(settings.database_url)
    if problem:
        raise PreflightFailed(problem)


def require_rabbitmq(settings: Settings) -> None:
    problem = rabbitmq_problem(settings.amqp_uri)
    if problem:
        raise PreflightFailed(problem)


def require_free_ports(addresses: Sequence[tuple[str, str, int]]) -> None:
    """Each (name, host, port) must be free: a second ``deckyard run`` must not start."""
    for name, host, port in addresses:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            # As the server will bind it (SO_REUSEADDR, no SO_REUSEPORT): a port left in
            # TIME_WAIT is free, a port someone listens on is not.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, port))
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE:
                    raise PreflightFailed(
                        f"cannot listen on {host}:{port} ({name}): {exc}"
                    ) from exc
                raise PreflightFailed(
                    f"port {port} on {host} ({name}) is in use: is deckyard already running? "
                    "Stop it, or set GATEWAY_PORT / HEALTH_PORT / STATUS_PORT"
                ) from None
