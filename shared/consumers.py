"""Applying a received event: parse it against its contract, then apply it in a unit of work.

Every nameko event handler of the platform is this one line, so each gets
the same treatment: a malformed message raises ``UnprocessableMessage`` (it could
never succeed) and is parked at once; a deadlock or a serialization failure runs the
unit of work again at once (``run_unit_of_work``); anything else that fails propagates
and ``reliable_event_handler`` retries it with backoff, then parks it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from shared.db import run_unit_of_work
from shared.events import Event, EventContract, read_event_or_park

UnitOfWorkT = TypeVar("UnitOfWorkT")


def consume(
    contract: EventContract,
    message: Any,
    unit_of_work: Callable[[], AbstractContextManager[UnitOfWorkT]],
    apply: Callable[[Event, UnitOfWorkT], object],
) -> None:
    event = read_event_or_park(contract, message)
    run_unit_of_work(unit_of_work, lambda uow: apply(event, uow))
