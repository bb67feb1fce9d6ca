"""Errors that cross service boundaries.

Each class is registered with nameko's ``deserialize_to_instance``, so a
handler that raises ``NotFound("player_not_found", "...")`` in the accounts
service makes the caller's RPC raise the same ``NotFound`` class, not a
``RemoteError``. The gateway maps the class to an HTTP status and the ``code``
to a problem+json body.

Constructor arguments are the exception's ``args`` (that is what nameko
serialises), so every class takes ``(code, message, details)`` positionally.
nameko turns every argument that is not a string into its ``str()``, so the
details travel as a JSON string and are decoded again on arrival; that keeps
numbers, booleans and nulls what they were.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

from nameko.exceptions import deserialize_to_instance

from games.kit.refusal import Refusal


class DeckyardError(Exception):
    """A refusal the caller can act on: a stable ``code`` and a human ``message``."""

    status: ClassVar[int] = 400
    title: ClassVar[str] = "Bad request"

    def __init__(
        self, code: str, message: str, details: dict[str, Any] | str | None = None
    ) -> None:
        if isinstance(details, str):  # arriving over RPC
            details = json.loads(details) if details else {}
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})
        super().__init__(code, message, json.dumps(self.details, default=str))

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@deserialize_to_instance
class InvalidInput(DeckyardError):
    status = 422
    title = "Invalid input"


@deserialize_to_instance
class BadRequest(DeckyardError):
    status = 400
    title = "Bad request"


@deserialize_to_instance
class Unauthorized(DeckyardError):
    status = 401
    title = "Unauthorized"


@deserialize_to_instance
class Forbidden(DeckyardError):
    status = 403
    title = "Forbidden"


@deserialize_to_instance
class NotFound(DeckyardError):
    status = 404
    title = "Not found"


@deserialize_to_instance
class Conflict(DeckyardError):
    status = 409
    title = "Conflict"


@deserialize_to_instance
class PayloadTooLarge(DeckyardError):
    status = 413
    title = "Payload too large"


@deserialize_to_instance
class RateLimited(DeckyardError):
    status = 429
    title = "Too many requests"


@deserialize_to_instance
class ServiceUnavailable(DeckyardError):
    status = 503
    title = "Service unavailable"


@deserialize_to_instance
class TransactionConflict(ServiceUnavailable):
    """PostgreSQL rolled a transaction back for a deadlock or a serialization failure.

    A unit of work run by ``shared.db.run_unit_of_work`` is run again first; this
    reaches a caller only when the conflict outlasted those retries, or came from a
    transaction that nothing runs again. Always 503 ``transaction_conflict``: nothing
    was written, so the same request can be sent again."""


def outcome_of(exc: BaseException | None) -> str:
    """What a call came to, as the ``outcome`` label of the metrics (shared/metrics.py,
    gateway/metrics.py): ``ok``; ``refused`` (a refusal the caller caused: a 4xx
    ``DeckyardError``); ``unavailable`` (a 5xx one: a timeout, the broker or a database
    away); ``error`` (anything else: a bug)."""
    if exc is None:
        return "ok"
    if isinstance(exc, DeckyardError):
        return "refused" if exc.status < 500 else "unavailable"
    return "error"


@contextmanager
def refusals_as(problem: type[DeckyardError], **by_code: type[DeckyardError]) -> Iterator[None]:
    """A game's ``Refusal`` (no HTTP, games/kit) as this service's problem: ``problem``,
    or the class ``by_code`` names for its code. A context manager and a decorator."""
    try:
        yield
    except Refusal as refused:
        raise by_code.get(refused.code, problem)(
            refused.code, refused.message, refused.details
        ) from None
